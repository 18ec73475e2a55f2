"""The verbs of a pack's own token kinds (rules.yaml `tokens:`): given, returned and spent; and a
choice between effects (`coins -2 or take debt token`). `take N <kind> token` is `TakeToken`
(cards.py), which takes from the kind's supply where the pack declares the kind."""

from __future__ import annotations

import attrs

from .. import ast
from ..diagnostics import DslError
from ..printer import show
from .base import Tokens, Verb, name_node, span_field, verb


@attrs.frozen
class HeldArgs:
    """Tokens of a kind a player holds, `count` of them, and to whom they go (`give`)."""

    kind: str
    count: int
    to: str | None = None


@attrs.frozen
class _Held(Tokens):
    """What the verbs of tokens held share: a kind of the pack's own (`tokens:`)."""

    def compile(self, c):
        return HeldArgs(c.canon(self.kind, "token"), self.count)

    @staticmethod
    def can(ctx, me, args) -> bool:
        return ctx.tokens(me, args.kind, None) >= args.count

    def causes(self, matching):
        yield "lose_token", frozenset({self.kind.text})


@verb
@attrs.frozen
class GiveTokens(_Held):
    """`give N <kind> token to <players>`: each of those players gets N of the owner's tokens of
    that kind, while the owner has some."""

    name = "give_tokens"
    rule = '"give" INT NAME _TOKEN "to" NAME'
    example = "give 1 debt token to left"
    to: ast.Name

    @classmethod
    def parse(cls, items, span):
        count, kind, to = items
        return cls(int(count), name_node(kind), to=name_node(to), span=span)

    def check(self, c):
        yield from super().check(c)
        yield from c.name(self.to, "selector")

    def compile(self, c):
        return HeldArgs(c.canon(self.kind, "token"), self.count, c.canon(self.to, "selector"))

    def text(self):
        return f"give {self.tokens_text()} to {self.to.text}"

    @staticmethod
    def run(ctx, me, args):
        for seat in ctx.seats(me, args.to):
            ctx.move_tokens(me, seat, args.kind, args.count)

    def causes(self, matching):
        yield from super().causes(matching)
        yield "take_token", frozenset({self.kind.text})

    @staticmethod
    def can(ctx, me, args) -> bool:
        return ctx.tokens(me, args.kind, None) >= args.count * len(ctx.seats(me, args.to))


@verb
@attrs.frozen
class ReturnTokens(_Held):
    """`return N <kind> token`: the owner puts back N of their tokens of that kind (as many as
    they have) into its supply."""

    name = "return_tokens"
    rule = '"return" INT NAME _TOKEN'
    example = "return 1 debt token"

    def text(self):
        return f"return {self.tokens_text()}"

    @staticmethod
    def run(ctx, me, args):
        ctx.move_tokens(me, None, args.kind, args.count)

    @staticmethod
    def can(ctx, me, args) -> bool:
        return ctx.tokens(me, args.kind, None) > 0


@verb
@attrs.frozen
class SpendTokens(_Held):
    """`spend N <kind> token`: the owner puts back N of their tokens of that kind into its supply;
    without N of them, nothing is spent and the rest of the sentence does not happen."""

    name = "spend_tokens"
    stops = True
    rule = '"spend" INT NAME _TOKEN'
    example = "spend 2 culture tokens then vp 5"

    def text(self):
        return f"spend {self.tokens_text()}"

    @staticmethod
    def run(ctx, me, args):
        if ctx.tokens(me, args.kind, None) < args.count:
            return False  # the rest of the sentence is not paid for
        ctx.move_tokens(me, None, args.kind, args.count)
        return None


@attrs.frozen
class ChoiceArgs:
    """The sides of a choice, each a chain of compiled actions, with its text (what the player
    is offered)."""

    sides: tuple[tuple, ...]
    texts: tuple[str, ...]


CHOICE = "choice"  # the verb, and the decision it asks
DECLINE = "decline"  # the side of `may A` doing nothing, as the player is offered it


@verb
@attrs.frozen
class Choice(Verb):
    """`A or B`: the player chooses one side, among those that can be done now, and it is carried
    out (nothing when none can). Each side is a chain of actions (`A then B`). A sentence is a
    choice as a whole: the parser makes the node of a sentence whose actions `or` joins, or that
    `may` starts (`may A`: A, offered only when it can be done, or nothing: `optional`)."""

    name = CHOICE
    rule = ""  # not an action of its own: a sentence's `or` (effect.lark `choice_side`)
    example = "coins -2 or take debt token"
    sides: tuple[tuple, ...]
    optional: bool = False  # `may A`: nothing is a side too, the player declining
    span: ast.Span | None = span_field()

    @classmethod
    def words(cls) -> str:
        return "A or B"

    def check(self, c):
        for side in self.sides:
            for action in side:
                yield from action.check(c)
                if action.lasting or action.name == "build_free" and action.filter is None:
                    yield DslError("E-DSL-TYPE", f"'{show(action)}' is a lasting property or a power, not something "
                                   "a choice can do at once", action.span,
                                   "choose between actions that happen at once (gains, takes, gives...); a choice of "
                                   "resource is 'produce wood / clay'")

    def compile(self, c):
        declined = ((),) if self.optional else ()
        return ChoiceArgs(tuple(tuple(c.action(a) for a in side) for side in self.sides) + declined,
                          tuple(" then ".join(show(a) for a in side) for side in self.sides)
                          + (DECLINE,) * self.optional)

    def text(self):
        return "may " * self.optional + " or ".join(" then ".join(show(a) for a in side) for side in self.sides)

    @staticmethod
    def run(ctx, me, args):
        ctx.choose_side(me, args)

    @staticmethod
    def asks(args):
        return CHOICE

    def chooses(self):
        return any(a.chooses() for side in self.sides for a in side)

    def causes(self, matching):
        for side in self.sides:
            for action in side:
                yield from action.causes(matching)


def doable(ctx, me, side) -> bool:
    """Whether every action of a side of a choice can be done now (`Verb.can`)."""
    return all(a.node.can(ctx, me, a.args) for a in side)


__all__ = ["GiveTokens", "ReturnTokens", "SpendTokens", "Choice", "CHOICE", "doable"]

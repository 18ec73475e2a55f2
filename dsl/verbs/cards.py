"""The verbs of cards and pieces taken, given, copied and built."""

from __future__ import annotations

from typing import Callable

import attrs

from .. import ast
from ..diagnostics import DslError
from ..printer import names_text, plural, show, zones_text
from .base import Verb, Zones, ask, hold, name_node, number, span_field, verb, zones_of

@attrs.frozen
class TakeTopArgs:
    zones: Zones
    keep: int
    depth: int


@verb
@attrs.frozen
class TakeTop(Verb):
    """`take [K of] top [N] card of <zones>`: keep K of the top N cards of one of the zones."""

    name = "take_top"
    rule = '"take" [INT "of"] "top" [INT] _CARD "of" zones'
    example = "take 1 of top 5 cards of deck of self / deck of right"
    zones: ast.Zones
    keep: int = 1
    depth: int = 1
    span: ast.Span | None = span_field()

    @classmethod
    def parse(cls, items, span):
        keep, depth, zones = items
        return cls(zones, number(keep, 1), number(depth, 1), span=span)

    def check(self, c):
        yield from c.at_least(self.keep, 1, "the number of cards kept", self)
        if self.keep > self.depth:
            yield DslError("E-DSL-VALUE", f"cannot keep {self.keep} of the top {self.depth} cards", self.span,
                           f"keep at most {self.depth}")
        yield from c.zones(self.zones)

    def compile(self, c):
        return TakeTopArgs(zones_of(c, self.zones), self.keep, self.depth)

    def text(self):
        keep = f"{self.keep} of " if self.keep != 1 or self.depth != 1 else ""
        depth = f"{self.depth} " if self.depth != 1 else ""
        return f"take {keep}top {depth}{plural('card', self.depth)} of {zones_text(self.zones)}"

    run, asks = ask("take_top")

    def causes(self, matching):
        yield "take", None


@attrs.frozen
class PawnArgs:
    pawn: str


@verb
@attrs.frozen
class TakePawn(Verb):
    """`take <pawn>`: take a pawn from wherever it is."""

    name = "take_pawn"
    rule = '"take" NAME'
    example = "take cat"
    pawn: ast.Name
    span: ast.Span | None = span_field()

    @classmethod
    def parse(cls, items, span):
        return cls(name_node(items[0]), span=span)

    def check(self, c):
        yield from c.name(self.pawn, "pawn")

    def compile(self, c):
        return PawnArgs(c.canon(self.pawn, "pawn"))

    def text(self):
        return f"take {self.pawn.text}"

    @staticmethod
    def run(ctx, me, args):
        ctx.take_pawn(me, args.pawn)


@attrs.frozen
class TokenArgs:
    kind: str
    count: int = 1


@verb
@attrs.frozen
class TakeToken(Verb):
    """`take [N] <kind> token`: N tokens of a kind the pack declares (rules.yaml `tokens:`) from
    its supply, as many as are left; or, of a kind on offer (`setup.offer`), a choice of one,
    N times."""

    name = "take_token"
    rule = '"take" [INT] NAME _TOKEN'
    example = "take progress token"
    kind: ast.Name
    count: int = 1
    span: ast.Span | None = span_field()

    @classmethod
    def parse(cls, items, span):
        return cls(name_node(items[1]), number(items[0], 1), span=span)

    def check(self, c):
        yield from c.at_least(self.count, 1, "a number of tokens", self)
        yield from c.name(self.kind, "token")

    def compile(self, c):
        return TokenArgs(c.canon(self.kind, "token"), self.count)

    def text(self):
        if self.count == 1:
            return f"take {self.kind.text} token"
        return f"take {self.count} {self.kind.text} tokens"

    @staticmethod
    def run(ctx, me, args):
        ctx.take_tokens(me, args)

    def causes(self, matching):
        yield "take_token", frozenset({self.kind.text})

    @staticmethod
    def can(ctx, me, args):
        return ctx.tokens_left(args.kind) >= args.count

    @staticmethod
    def asks(args):
        return "take_token"


@attrs.frozen
class CardsArgs:
    """Cards of some zones: `cards` tests a card (None: any)."""

    cards: Callable | None
    zones: Zones = ()


@verb
@attrs.frozen
class TakeFrom(Verb):
    """`take <filter> from <zones>`: choose a matching card in one of the zones; its owner becomes
    `chosen` (nobody, if there was nothing to take)."""

    name = "take_from"
    rule = '"take" card_filter "from" zones'
    example = "take card from city of opponent"
    filter: ast.CardFilter
    zones: ast.Zones
    span: ast.Span | None = span_field()

    @classmethod
    def parse(cls, items, span):
        return cls(items[0], items[1], span=span)

    def check(self, c):
        yield from c.card_filter(self.filter)
        yield from c.zones(self.zones)

    def compile(self, c):
        return CardsArgs(c.card_test(self.filter), zones_of(c, self.zones))

    def text(self):
        return f"take {show(self.filter)} from {zones_text(self.zones)}"

    @staticmethod
    def run(ctx, me, args):
        ctx.choose(None)
        ctx.ask(me, "take_from", args)

    @staticmethod
    def asks(args):
        return "take_from"

    def chooses(self):
        return any(z.owner is not None for z in self.zones)  # the owner of a player zone taken from

    def causes(self, matching):
        yield "take", matching(self.filter)


@attrs.frozen
class LayArgs:
    cards: Callable | None
    zones: Zones
    on: str


@verb
@attrs.frozen
class Lay(Verb):
    """`lay <filter> from <zones> on <shared zone>`: the player chooses a matching card in one of the
    zones and lays it on top of the shared zone (where the top pieces may be laws, rules.yaml
    `laws`, in force for every player)."""

    name = "lay"
    rule = '"lay" card_filter "from" zones "on" NAME'
    example = "lay card from tiles of self on tower"
    filter: ast.CardFilter
    zones: ast.Zones
    on: ast.Name
    span: ast.Span | None = span_field()

    @classmethod
    def parse(cls, items, span):
        return cls(items[0], items[1], name_node(items[2]), span=span)

    def check(self, c):
        yield from c.card_filter(self.filter)
        yield from c.zones(self.zones)
        yield from c.name(self.on, "shared_zone")

    def compile(self, c):
        return LayArgs(c.card_test(self.filter), zones_of(c, self.zones), c.canon(self.on, "shared_zone"))

    def text(self):
        return f"lay {show(self.filter)} from {zones_text(self.zones)} on {self.on.text}"

    @staticmethod
    def run(ctx, me, args):
        ctx.ask(me, "lay", args)

    @staticmethod
    def asks(args):
        return "lay"


@attrs.frozen
class GiveArgs:
    zones: Zones
    to: str
    face_down: bool


@verb
@attrs.frozen
class Give(Verb):
    """`give top card of <zones> to <player> [face down]`: the top card of the first zone named
    that holds one goes to the receivers' cities (face down, at the start of their next turn)."""

    name = "give"
    rule = '"give" "top" _CARD "of" zones "to" NAME [FACE_DOWN]'
    example = "take card from city of opponent then give top card of central_deck to chosen face down"
    zones: ast.Zones
    to: ast.Name
    face_down: bool = False
    span: ast.Span | None = span_field()

    @classmethod
    def parse(cls, items, span):
        zones, to, face_down = items
        return cls(zones, name_node(to), face_down is not None, span=span)

    def check(self, c):
        yield from c.zones(self.zones)
        yield from c.name(self.to, "selector")

    def compile(self, c):
        return GiveArgs(zones_of(c, self.zones), c.canon(self.to, "selector"), self.face_down)

    def text(self):
        return f"give top card of {zones_text(self.zones)} to {self.to.text}" + (" face down" if self.face_down else "")

    @staticmethod
    def run(ctx, me, args):
        ctx.give(me, args.zones, args.to, args.face_down)

    def causes(self, matching):
        if not self.face_down:
            yield "take", None


@attrs.frozen
class CopyArgs:
    cards: Callable | None
    sides: tuple[str, ...]


@verb
@attrs.frozen
class Copy(Verb):
    """`copy <filter> from <sides>`: at the end, one matching card of those players counts as the
    owner's, chosen to their best (the scoring chooses)."""

    name = "copy"
    rule = '"copy" card_filter "from" selectors'
    example = "at end: copy purple card from left, right"
    filter: ast.CardFilter
    sides: ast.Names
    span: ast.Span | None = span_field()

    @classmethod
    def parse(cls, items, span):
        return cls(items[0], items[1], span=span)

    def check(self, c):
        yield from c.card_filter(self.filter)
        yield from c.sides(self.sides)

    def compile(self, c):
        return CopyArgs(c.card_test(self.filter), c.canons(self.sides, "selector"))

    def text(self):
        return f"copy {show(self.filter)} from {names_text(self.sides, ', ')}"


@attrs.frozen
class CopyStageArgs:
    sides: tuple[str, ...]
    with_cost: bool = False


@verb
@attrs.frozen
class CopyStage(Verb):
    """`copy stage from <sides>`: one wonder stage those neighbours built applies to the owner as if
    the owner had built it, without counting as one of the owner's: chosen when there are several,
    nothing when there is none. `at end:`, the scoring chooses the one that scores best. `with
    cost`, on a wonder stage: the stage is built as a copy of one of those, chosen and paid at its
    cost as it is built (the draft flow offers each; the copy then asks nothing)."""

    name = "copy_stage"
    rule = '"copy" _STAGE "from" selectors [WITH_COST]'
    example = "copy stage from left, right"
    needs = frozenset({"stages"})
    sides: ast.Names
    with_cost: bool = False
    span: ast.Span | None = span_field()

    @classmethod
    def parse(cls, items, span):
        return cls(items[0], items[1] is not None, span=span)

    def check(self, c):
        yield from c.sides(self.sides)

    def compile(self, c):
        return CopyStageArgs(c.canons(self.sides, "selector"), self.with_cost)

    def text(self):
        return f"copy stage from {names_text(self.sides, ', ')}" + " with cost" * self.with_cost

    # It asks a choice only when there are several stages to copy: `asks` stays None, as no
    # action can answer it beforehand (a science set's reward).
    @staticmethod
    def run(ctx, me, args):
        ctx.copy_stage(me, args)

    def causes(self, matching):
        yield "take", None  # the stage copied may take a card, gain any counter, take tokens
        yield "gain", None
        yield "take_token", None


@verb
@attrs.frozen
class Build(Verb):
    """`build [<filter> from <zones>] free`: a matching card of the zones, built free (a choice);
    `build free` alone is a power of building a card of the turn free, which the flow offers."""

    name = "build_free"
    rule = '"build" [card_filter "from" zones] "free"'
    example = "build card from discard free"
    filter: ast.CardFilter | None = None
    zones: ast.Zones = ()
    span: ast.Span | None = span_field()

    @classmethod
    def parse(cls, items, span):
        card_filter, zones = items
        return cls(card_filter, zones or (), span=span)

    def check(self, c):
        if self.filter is not None:
            yield from c.card_filter(self.filter)
        yield from c.zones(self.zones)

    def compile(self, c):
        return CardsArgs(c.card_test(self.filter) if self.filter else None, zones_of(c, self.zones))

    def text(self):
        return "build free" if self.filter is None else f"build {show(self.filter)} from {zones_text(self.zones)} free"

    @staticmethod
    def run(ctx, me, args):
        if args.zones:
            ctx.ask(me, "build_free", args)
        else:
            ctx.hold(me)

    @staticmethod
    def asks(args):
        return "build_free" if args.zones else None

    def causes(self, matching):
        yield "take", matching(self.filter)


@verb
@attrs.frozen
class StageFree(Verb):
    """`build stage free`: a power of building the next wonder stage free (its resources and coins),
    with a card of the hand, which the flow offers; `once per game` makes it a single use."""

    name = "stage_free"
    lasting = True
    rule = '"build" _STAGE "free"'
    example = "build stage free once per game"
    needs = frozenset({"hands", "stages"})
    span: ast.Span | None = span_field()

    @classmethod
    def parse(cls, items, span):
        return cls(span=span)

    def text(self):
        return "build stage free"

    run = staticmethod(hold)


@verb
@attrs.frozen
class PlayLast(Verb):
    """`play last card`: a power of playing the last card of a hand instead of discarding it."""

    name = "play_last"
    lasting = True
    rule = '"play" "last" _CARD'
    example = "play last card"
    needs = frozenset({"hands"})
    span: ast.Span | None = span_field()

    @classmethod
    def parse(cls, items, span):
        return cls(span=span)

    def text(self):
        return "play last card"

    run = staticmethod(hold)

"""The verbs of tokens, boxes, dice and powers: flips, checks, unlocks, discounts, extra actions, keeping, looking."""

from __future__ import annotations

from typing import Callable

import attrs

from .. import ast
from ..diagnostics import DslError
from ..printer import names_text, plural, show, zones_text
from ..vocabulary import ANY, WONDER
from .base import Tokens, Verb, Zones, ask, hold, name_node, span_field, verb, zones_of
from .cards import CardsArgs

@attrs.frozen
class FlipArgs:
    kind: str
    count: int


@verb
@attrs.frozen
class Flip(Tokens):
    """`flip N <kind> token`: turn tokens of that kind to their other side; turning the last one
    calls a battle at the end of the turn."""

    name = "flip"
    rule = '"flip" INT NAME _TOKEN'
    example = "flip 2 conflict tokens"

    def compile(self, c):
        return FlipArgs(c.canon(self.kind, "token"), self.count)

    def text(self):
        return f"flip {self.tokens_text()}"

    @staticmethod
    def run(ctx, me, args):
        ctx.flip(args.kind, args.count)

    def causes(self, matching):
        yield "battle", None


@attrs.frozen
class CheckArgs:
    buildings: tuple[str, ...]
    count: int
    up_to: bool


@verb
@attrs.frozen
class Check(Verb):
    """`check [up to] N box in <buildings>`: check boxes of one of the buildings, free."""

    name = "check"
    rule = '"check" [UP_TO] INT _BOX "in" names'
    example = "check up to 2 boxes in agora"
    needs = frozenset({"boxes"})
    count: int
    buildings: ast.Names
    up_to: bool = False
    span: ast.Span | None = span_field()

    @classmethod
    def parse(cls, items, span):
        up_to, count, buildings = items
        return cls(int(count), buildings, up_to is not None, span=span)

    def check(self, c):
        yield from c.at_least(self.count, 1, "a number of boxes", self)
        yield from c.names(self.buildings, "building", extra=(WONDER,))

    def compile(self, c):
        return CheckArgs(c.canons(self.buildings, "building"), self.count, self.up_to)

    def text(self):
        up_to = "up to " if self.up_to else ""
        return f"check {up_to}{self.count} {plural('box', self.count)} in {names_text(self.buildings)}"

    run, asks = ask("check")


@attrs.frozen
class DieArgs:
    die: str


@verb
@attrs.frozen
class Unlock(Verb):
    """`unlock <die> die`: the player may pick that die."""

    name = "unlock"
    rule = '"unlock" NAME "die"'
    example = "unlock black die"
    needs = frozenset({"dice"})
    die: ast.Name
    span: ast.Span | None = span_field()

    @classmethod
    def parse(cls, items, span):
        return cls(name_node(items[0]), span=span)

    def check(self, c):
        yield from c.name(self.die, "die")

    def compile(self, c):
        return DieArgs(c.canon(self.die, "die"))

    def text(self):
        return f"unlock {self.die.text} die"

    @staticmethod
    def run(ctx, me, args):
        ctx.unlock(me, args.die)


@attrs.frozen
class DiscountArgs:
    amount: int
    only: tuple[str, ...]


@verb
@attrs.frozen
class Discount(Verb):
    """`die discount N [for <dice>]`: dice cost N coins less (these dice only), for good."""

    name = "discount"
    lasting = True
    rule = '"die" "discount" INT ["for" names]'
    example = "die discount 3 for yellow"
    needs = frozenset({"dice"})
    amount: int
    dice: ast.Names = ()
    span: ast.Span | None = span_field()

    @classmethod
    def parse(cls, items, span):
        amount, dice = items
        return cls(int(amount), dice or (), span=span)

    def check(self, c):
        yield from c.at_least(self.amount, 1, "a discount", self)
        yield from c.names(self.dice, "die")

    def compile(self, c):
        return DiscountArgs(self.amount, c.canons(self.dice, "die"))

    def text(self):
        return f"die discount {self.amount}" + (f" for {names_text(self.dice)}" if self.dice else "")

    run = staticmethod(hold)


@attrs.frozen
class CostDiscountArgs:
    """What `discount` lowers: a resource, a counter or `any` (resources of any kind, the cost's
    `N different` / `N identical` first), by an amount read when paying, for the pieces it names
    (`only`: None for every cost, 'cards' for the cards `cards` matches, 'stages'). A negative
    amount is a surcharge: it adds to the cost's term (`part`: 'resources' or 'counters')."""

    name: str
    amount: Callable  # (ctx, me) -> int
    only: str | None = None
    cards: Callable | None = None
    part: str = "resources"

    def applies(self, piece, stage: bool) -> bool:
        """Whether it lowers the cost of this piece (a wonder stage when `stage`)."""
        if self.only is None:
            return True
        if stage:
            return self.only == "stages"
        return self.only == "cards" and (self.cards is None or self.cards(piece))


@verb
@attrs.frozen
class CostDiscount(Verb):
    """`discount N <name> [per <count>] [for <card filter> | for stage]`: the costs its owner pays
    (of these pieces) ask N less of that resource or counter (`any`: of any resources), for as
    long as its piece stays; never below 0. A negative N is a surcharge: N more, the term added
    to a cost that lacks it."""

    name = "cost_discount"
    lasting = True
    rule = '"discount" INT NAME ["per" count] ["for" discounted]'
    example = "discount 1 coin per green card"
    amount: int
    what: ast.Name
    per: ast.Count | None = None
    target: ast.CardFilter | ast.Thing | None = None  # a card filter, or `stage`
    span: ast.Span | None = span_field()

    @classmethod
    def parse(cls, items, span):
        amount, what, per, target = items
        return cls(int(amount), name_node(what), per, target, span=span)

    def check(self, c):
        if self.amount == 0:
            yield DslError("E-DSL-VALUE", "a discount of 0 changes nothing", self.span,
                           "write how much less a cost asks (or, negative, how much more)", needle="0")
        elif self.amount < 0 and self.what.text == ANY:
            yield DslError("E-DSL-VALUE", "a surcharge (a negative discount) adds to one resource or counter, "
                           "not to 'any'", self.what.span, "name what the costs ask more of, as 'discount -1 coin'")
        yield from c.name(self.what, "resource", "counter", extra=(ANY,))
        if self.per is not None:
            yield from c.count(self.per)
        if isinstance(self.target, ast.CardFilter):
            yield from c.card_filter(self.target)

    def compile(self, c):
        amount = c.amount(ast.Amount("per" if self.per else "fixed", (self.amount,), self.per))
        card = isinstance(self.target, ast.CardFilter)
        only = None if self.target is None else "cards" if card else "stages"
        part = "resources" if c.vocab.resolve(self.what.text, "resource") else "counters"
        return CostDiscountArgs(c.canon(self.what, "resource", "counter"), amount, only,
                                c.card_test(self.target) if card else None, part)

    def text(self):
        text = f"discount {self.amount} {self.what.text}"
        text += f" per {show(self.per)}" if self.per is not None else ""
        return text + (f" for {show(self.target)}" if self.target is not None else "")

    @staticmethod
    def run(ctx, me, args):
        ctx.discount(me, args, 1)

    @staticmethod
    def undo(ctx, me, args):
        ctx.discount(me, args, -1)


@attrs.frozen
class ExtraArgs:
    free_die: bool


@verb
@attrs.frozen
class Extra(Verb):
    """`extra action [without die cost]`: the player acts once more, as the flow's turns go."""

    name = "extra_action"
    rule = '"extra" "action" [FREE_DIE]'
    example = "extra action without die cost"
    free_die: bool = False
    span: ast.Span | None = span_field()

    @classmethod
    def parse(cls, items, span):
        return cls(items[0] is not None, span=span)

    def compile(self, c):
        return ExtraArgs(self.free_die)

    def text(self):
        return "extra action" + (" without die cost" if self.free_die else "")

    @staticmethod
    def run(ctx, me, args):
        ctx.extra_action(me, args)


@attrs.frozen
class IgnoreArgs:
    kinds: tuple[str, ...]


@verb
@attrs.frozen
class Ignore(Verb):
    """`ignore <cost kinds>`: a power of paying costs of these kinds with any resources."""

    name = "ignore"
    lasting = True
    rule = '"ignore" names'
    example = "ignore different / identical"
    needs = frozenset({"spent cards"})
    kinds: ast.Names
    span: ast.Span | None = span_field()

    @classmethod
    def parse(cls, items, span):
        return cls(items[0], span=span)

    def check(self, c):
        yield from c.names(self.kinds, "cost_kind")

    def compile(self, c):
        return IgnoreArgs(c.canons(self.kinds, "cost_kind"))

    def text(self):
        return f"ignore {names_text(self.kinds)}"

    run = staticmethod(hold)


FORBIDDABLE = ("trade", "chains")  # what `forbid` can take away: buying from neighbours, building by a chain


@attrs.frozen
class ForbidArgs:
    what: tuple[str, ...]


@verb
@attrs.frozen
class Forbid(Verb):
    """`forbid trade / chains`: the player may not buy from neighbours (`trade`), or build a card
    free by its chain (`chains`: it is paid for), while the piece stays; a law laid in force for
    every player takes the rule away from all (rules.yaml `laws`)."""

    name = "forbid"
    lasting = True
    rule = '"forbid" names'
    example = "forbid trade / chains"
    needs = frozenset({"trade"})
    what: ast.Names
    span: ast.Span | None = span_field()

    @classmethod
    def parse(cls, items, span):
        return cls(items[0], span=span)

    def check(self, c):
        for n in self.what:
            if n.text not in FORBIDDABLE:
                yield DslError("E-DSL-VALUE", f"'{n.text}' cannot be forbidden", n.span,
                               f"forbid one of: {', '.join(FORBIDDABLE)} (`forbid trade / chains`)")

    def compile(self, c):
        return ForbidArgs(tuple(n.text for n in self.what))

    def text(self):
        return f"forbid {names_text(self.what)}"

    run = staticmethod(hold)


@attrs.frozen
class SpendAsArgs:
    cards: Callable
    resource: str
    count: int


@verb
@attrs.frozen
class SpendAs(Verb):
    """`spend <card filter> as N <resource>`: a power of paying with matching cards, each then
    worth N of the resource (what a card gives when spent, not what it produces)."""

    name = "spend_as"
    lasting = True
    rule = '"spend" card_filter "as" INT NAME'
    example = "spend yellow card as 2 gold"
    needs = frozenset({"spent cards"})
    filter: ast.CardFilter
    count: int
    resource: ast.Name
    span: ast.Span | None = span_field()

    @classmethod
    def parse(cls, items, span):
        card_filter, count, resource = items
        return cls(card_filter, int(count), name_node(resource), span=span)

    def check(self, c):
        yield from c.card_filter(self.filter)
        yield from c.at_least(self.count, 1, "what a card is worth", self)
        yield from c.name(self.resource, "resource")

    def compile(self, c):
        return SpendAsArgs(c.card_test(self.filter), c.canon(self.resource, "resource"), self.count)

    def text(self):
        return f"spend {show(self.filter)} as {self.count} {self.resource.text}"

    run = staticmethod(hold)


@verb
@attrs.frozen
class Keep(Verb):
    """`keep <filter>`: at a battle, these cards stay when the rules would discard them."""

    name = "keep"
    rule = '"keep" card_filter'
    example = "at battle: keep red card with horn"
    filter: ast.CardFilter
    span: ast.Span | None = span_field()

    @classmethod
    def parse(cls, items, span):
        return cls(items[0], span=span)

    def check(self, c):
        yield from c.card_filter(self.filter)

    def compile(self, c):
        return CardsArgs(c.card_test(self.filter))

    def text(self):
        return f"keep {show(self.filter)}"


@attrs.frozen
class LookArgs:
    zones: Zones


@verb
@attrs.frozen
class Look(Verb):
    """`look at top card of <zones>`: the player sees that hidden card while it stays on top."""

    name = "look"
    rule = '"look" "at" "top" _CARD "of" zones'
    example = "look at top card of deck of left"
    zones: ast.Zones
    span: ast.Span | None = span_field()

    @classmethod
    def parse(cls, items, span):
        return cls(items[0], span=span)

    def check(self, c):
        yield from c.zones(self.zones)

    def compile(self, c):
        return LookArgs(zones_of(c, self.zones))

    def text(self):
        return f"look at top card of {zones_text(self.zones)}"

    @staticmethod
    def run(ctx, me, args):
        ctx.look(me, args.zones)

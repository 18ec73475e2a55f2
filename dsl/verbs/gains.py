"""The verbs of gains and lasting properties: counters, production, trade, science symbols, icons."""

from __future__ import annotations

from typing import Callable

import attrs

from .. import ast
from ..compiler import Fixed
from ..printer import names_text, show
from ..vocabulary import ANY
from .base import Verb, name_node, number, span_field, verb

@attrs.frozen
class GainArgs:
    counter: str
    amount: Callable  # (ctx, me) -> int


@verb
@attrs.frozen
class Gain(Verb):
    """`<counter> <amount>`: add to a counter (coins, vp, shields...)."""

    name = "gain"
    rule = "NAME amount"
    example = "vp 1 per blue card in self"
    counter: ast.Name
    amount: ast.Amount
    span: ast.Span | None = span_field()

    @classmethod
    def parse(cls, items, span):
        return cls(name_node(items[0]), items[1], span=span)

    def check(self, c):
        yield from c.name(self.counter, "counter")
        yield from c.amount(self.amount)

    def compile(self, c):
        return GainArgs(c.canon(self.counter, "counter"), c.amount(self.amount))

    def text(self):
        return f"{self.counter.text} {show(self.amount)}"

    @staticmethod
    def run(ctx, me, args):
        ctx.gain(me, args.counter, args.amount(ctx, me))

    def causes(self, matching):
        yield from gained(self.counter, self.amount)

    @staticmethod
    def can(ctx, me, args):
        value = args.amount(ctx, me)
        return value >= 0 or ctx.affords(me, args.counter, -value)

    @staticmethod
    def undo(ctx, me, args):
        ctx.gain(me, args.counter, -args.amount(ctx, me))

    @staticmethod
    def fixed(ctx, me, args):
        return GainArgs(args.counter, Fixed(args.amount(ctx, me)))

    @staticmethod
    def varies(args) -> bool:
        return not isinstance(args.amount, Fixed)


def gained(counter: ast.Name, amount: ast.Amount):
    """`on gain <counter>` set off by a gain that may be above zero."""
    if any(v > 0 for v in amount.values):
        yield "gain", frozenset({counter.text})


@verb
@attrs.frozen
class Pay(Verb):
    """`pay N <counter>`: the owner loses N of a counter they hold; without N of it, nothing is
    paid and the rest of the sentence does not happen (as `spend` with tokens). With `may`, a
    payment the player may decline (`may pay 2 coins then shields 1`)."""

    name = "pay"
    stops = True
    rule = '"pay" INT NAME'
    example = "pay 2 coins then shields 1"
    count: int
    counter: ast.Name
    span: ast.Span | None = span_field()

    @classmethod
    def parse(cls, items, span):
        return cls(int(items[0]), name_node(items[1]), span=span)

    def check(self, c):
        yield from c.at_least(self.count, 1, "a payment", self)
        yield from c.name(self.counter, "counter")

    def compile(self, c):
        return GainArgs(c.canon(self.counter, "counter"), Fixed(-self.count))

    def text(self):
        return f"pay {self.count} {self.counter.text}"

    @staticmethod
    def run(ctx, me, args):
        if not Pay.can(ctx, me, args):
            return False  # the rest of the sentence is not paid for
        ctx.gain(me, args.counter, args.amount(ctx, me))
        return None

    can = staticmethod(Gain.can)


@attrs.frozen
class GainToArgs:
    counter: str
    amount: Callable  # (ctx, seat) -> int, read for `theirs` or the owner
    to: str           # a selector: the players hit
    theirs: bool      # the amount's count names no place: read on each player hit


@verb
@attrs.frozen
class GainTo(Verb):
    """`<counter> <amount> to <players>`: each of those players gains the amount (a loss, when
    negative). A count without `in` reads on the player hit ("per red card they hold"); with
    `in`, its places are the owner's as everywhere (`in self`: the owner's own)."""

    name = "gain_to"
    rule = 'NAME amount "to" NAME'
    example = "coins -1 per red card to neighbours"
    counter: ast.Name
    amount: ast.Amount
    to: ast.Name
    span: ast.Span | None = span_field()

    @classmethod
    def parse(cls, items, span):
        return cls(name_node(items[0]), items[1], name_node(items[2]), span=span)

    def check(self, c):
        yield from c.name(self.counter, "counter")
        yield from c.amount(self.amount)
        yield from c.hit(self.to)

    def compile(self, c):
        count = self.amount.count
        return GainToArgs(c.canon(self.counter, "counter"), c.amount(self.amount), c.canon(self.to, "selector"),
                          count is not None and not count.places)

    def text(self):
        return f"{self.counter.text} {show(self.amount)} to {self.to.text}"

    @classmethod
    def words(cls) -> str:
        return "<counter> N to <players>"

    def causes(self, matching):
        yield from gained(self.counter, self.amount)

    @staticmethod
    def run(ctx, me, args):
        amount, theirs = args.amount, args.theirs
        for seat in ctx.seats(me, args.to):
            ctx.gain_from(me, seat, args.counter, amount(ctx, seat if theirs else me))


@attrs.frozen
class ProduceArgs:
    resources: tuple[str, ...]
    count: int
    private: bool
    held: str | None = None  # HELD or UNHELD: of those resources, the ones the city makes, or does not


HELD, UNHELD = "held", "unheld"


@verb
@attrs.frozen
class Produce(Verb):
    """`produce [private] [N] [held | unheld] a / b`: N of one of the resources each turn; others
    may buy it unless it is private. `held`: only of those the city's other production makes (one
    more unit of one of them), `unheld`: only of those it does not; read whenever that changes."""

    name = "produce"
    lasting = True
    rule = '"produce" [PRIVATE] [INT] [HELD | UNHELD] names'
    example = "produce private wood / stone / ore / clay"
    resources: ast.Names
    count: int = 1
    private: bool = False
    held: str | None = None
    span: ast.Span | None = span_field()

    @classmethod
    def parse(cls, items, span):
        private, count, held, names = items
        return cls(names, number(count, 1), private is not None, None if held is None else str(held), span=span)

    def check(self, c):
        yield from c.at_least(self.count, 1, "a production", self)
        if self.held:  # a class of resources reads well here: `produce held raw`
            yield from c.names(self.resources, "resource", "resource_class", extra=(ANY,))
        else:
            yield from c.names(self.resources, "resource", extra=(ANY,))

    def compile(self, c):
        kinds = ("resource", "resource_class") if self.held else ("resource",)
        return ProduceArgs(c.canons(self.resources, *kinds), self.count, self.private, self.held)

    def text(self):
        words = ["produce"] + (["private"] if self.private else []) + ([str(self.count)] if self.count != 1 else [])
        return " ".join(words + ([self.held] if self.held else []) + [names_text(self.resources)])

    @staticmethod
    def run(ctx, me, args):
        ctx.produce(me, args.resources, args.count, args.private, args.held)

    @staticmethod
    def undo(ctx, me, args):
        ctx.produce(me, args.resources, -args.count, args.private, args.held)


@attrs.frozen
class TradeArgs:
    resources: tuple[str, ...]
    price: int
    sides: tuple[str, ...]
    first: bool = False


@verb
@attrs.frozen
class Trade(Verb):
    """`trade [first] <resources> at <price> from <sides>`: a new price when buying from
    neighbours; with `first`, for the first resource bought from them each turn only."""

    name = "trade"
    lasting = True
    rule = '"trade" [FIRST] names "at" INT "from" selectors'
    example = "trade raw at 1 from left, right"
    needs = frozenset({"trade"})
    resources: ast.Names
    price: int
    sides: ast.Names
    first: bool = False
    span: ast.Span | None = span_field()

    @classmethod
    def parse(cls, items, span):
        first, names, price, sides = items
        return cls(names, int(price), sides, first is not None, span=span)

    def check(self, c):
        yield from c.names(self.resources, "resource", "resource_class")
        # a first purchase at 0 would leave no coins in the payment, nothing to tell it was made
        yield from c.at_least(self.price, int(self.first), "a first purchase's price" if self.first else "a price", self)
        yield from c.sides(self.sides)

    def compile(self, c):
        return TradeArgs(c.canons(self.resources, "resource", "resource_class"), self.price,
                         c.canons(self.sides, "selector"), self.first)

    def text(self):
        first = "first " if self.first else ""
        return f"trade {first}{names_text(self.resources)} at {self.price} from {names_text(self.sides, ', ')}"

    @staticmethod
    def run(ctx, me, args):
        ctx.trade(me, args.resources, args.price, args.sides, args.first)

    @staticmethod
    def undo(ctx, me, args):
        ctx.trade(me, args.resources, args.price, args.sides, args.first, -1)


@attrs.frozen
class BuyArgs:
    resources: tuple[str, ...]
    price: int
    most: int | None  # units bought so each time a cost is paid; None: any number


@verb
@attrs.frozen
class Buy(Verb):
    """`buy [N] <resources> from bank at <price>`: the player may buy those resources from the bank
    when paying a cost, `price` coins each, at most N of them for each cost (any number without N)."""

    name = "buy"
    lasting = True
    rule = '"buy" [INT] names "from" "bank" "at" INT'
    example = "buy 1 raw from bank at 2"
    needs = frozenset({"coin purchases"})
    resources: ast.Names
    price: int
    most: int | None = None
    span: ast.Span | None = span_field()

    @classmethod
    def parse(cls, items, span):
        most, names, price = items
        return cls(names, int(price), number(most), span=span)

    def check(self, c):
        yield from c.names(self.resources, "resource", "resource_class", extra=(ANY,))
        yield from c.at_least(self.price, 0, "a price", self)
        if self.most is not None:
            yield from c.at_least(self.most, 1, "a number of resources bought", self)

    def compile(self, c):
        return BuyArgs(c.canons(self.resources, "resource", "resource_class"), self.price, self.most)

    def text(self):
        most = f"{self.most} " if self.most is not None else ""
        return f"buy {most}{names_text(self.resources)} from bank at {self.price}"

    @staticmethod
    def run(ctx, me, args):
        ctx.buy(me, args, 1)

    @staticmethod
    def undo(ctx, me, args):
        ctx.buy(me, args, -1)


@attrs.frozen
class ScienceArgs:
    symbols: tuple[str, ...]


@verb
@attrs.frozen
class Science(Verb):
    """`science <symbols>`: one science symbol, or a choice among several (`any`: all)."""

    name = "science"
    lasting = True
    rule = '"science" names'
    example = "science gear / tablet"
    symbols: ast.Names
    span: ast.Span | None = span_field()

    @classmethod
    def parse(cls, items, span):
        return cls(items[0], span=span)

    def check(self, c):
        yield from c.names(self.symbols, "symbol", extra=(ANY,))

    def compile(self, c):
        return ScienceArgs(c.canons(self.symbols, "symbol"))

    def text(self):
        return f"science {names_text(self.symbols)}"

    @staticmethod
    def run(ctx, me, args):
        ctx.science(me, args.symbols, 1)

    @staticmethod
    def undo(ctx, me, args):
        ctx.science(me, args.symbols, -1)


@attrs.frozen
class IconArgs:
    icon: str
    count: int


@verb
@attrs.frozen
class Icon(Verb):
    """`icon [N] <name>`: icons printed on a card (the engine reads them from the card)."""

    name = "icon"
    lasting = True
    rule = '"icon" [INT] NAME'
    example = "icon 2 horn"
    icon: ast.Name
    count: int = 1
    span: ast.Span | None = span_field()

    @classmethod
    def parse(cls, items, span):
        count, name = items
        return cls(name_node(name), number(count, 1), span=span)

    def check(self, c):
        yield from c.name(self.icon, "icon")
        yield from c.at_least(self.count, 1, "a number of icons", self)

    def compile(self, c):
        return IconArgs(c.canon(self.icon, "icon"), self.count)

    def text(self):
        return f"icon {self.icon.text}" if self.count == 1 else f"icon {self.count} {self.icon.text}"

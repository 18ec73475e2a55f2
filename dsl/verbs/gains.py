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
            ctx.gain(seat, args.counter, amount(ctx, seat if theirs else me))


@attrs.frozen
class ProduceArgs:
    resources: tuple[str, ...]
    count: int
    private: bool


@verb
@attrs.frozen
class Produce(Verb):
    """`produce [private] [N] a / b`: N of one of the resources each turn; others may buy it
    unless it is private."""

    name = "produce"
    lasting = True
    rule = '"produce" [PRIVATE] [INT] names'
    example = "produce private wood / stone / ore / clay"
    resources: ast.Names
    count: int = 1
    private: bool = False
    span: ast.Span | None = span_field()

    @classmethod
    def parse(cls, items, span):
        private, count, names = items
        return cls(names, number(count, 1), private is not None, span=span)

    def check(self, c):
        yield from c.at_least(self.count, 1, "a production", self)
        yield from c.names(self.resources, "resource", extra=(ANY,))

    def compile(self, c):
        return ProduceArgs(c.canons(self.resources, "resource"), self.count, self.private)

    def text(self):
        words = ["produce"] + (["private"] if self.private else []) + ([str(self.count)] if self.count != 1 else [])
        return " ".join(words + [names_text(self.resources)])

    @staticmethod
    def run(ctx, me, args):
        ctx.produce(me, args.resources, args.count, args.private)

    @staticmethod
    def undo(ctx, me, args):
        ctx.produce(me, args.resources, -args.count, args.private)


@attrs.frozen
class TradeArgs:
    resources: tuple[str, ...]
    price: int
    sides: tuple[str, ...]


@verb
@attrs.frozen
class Trade(Verb):
    """`trade <resources> at <price> from <sides>`: a new price when buying from neighbours."""

    name = "trade"
    lasting = True
    rule = '"trade" names "at" INT "from" selectors'
    example = "trade raw at 1 from left, right"
    needs = frozenset({"trade"})
    resources: ast.Names
    price: int
    sides: ast.Names
    span: ast.Span | None = span_field()

    @classmethod
    def parse(cls, items, span):
        names, price, sides = items
        return cls(names, int(price), sides, span=span)

    def check(self, c):
        yield from c.names(self.resources, "resource", "resource_class")
        yield from c.at_least(self.price, 0, "a price", self)
        yield from c.sides(self.sides)

    def compile(self, c):
        return TradeArgs(c.canons(self.resources, "resource", "resource_class"), self.price,
                         c.canons(self.sides, "selector"))

    def text(self):
        return f"trade {names_text(self.resources)} at {self.price} from {names_text(self.sides, ', ')}"

    @staticmethod
    def run(ctx, me, args):
        ctx.trade(me, args.resources, args.price, args.sides)


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

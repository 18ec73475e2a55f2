"""Compile checked syntax trees into plain Python callables, once, when a pack loads.

A compiled effect runs against a `Context`: the engine's view of a game, which the
interpreter implements. Names are resolved to their canonical form here, so nothing
is looked up by text while a game runs.
"""

from __future__ import annotations

import operator
from collections import Counter
from typing import Any, Callable, Iterable, Protocol, Sequence

import attrs

from . import ast
from .vocabulary import SELF, Vocabulary


def watched(event: str) -> str:
    """The compiled trigger of sentences waiting for `event` in other players' cities (`on left
    stage`): a key of its own, so that an event's own sentences are found without these."""
    return f"watched {event}"


Seat = int


class Context(Protocol):
    """What compiled effects ask of a running game. Players are seat numbers."""

    def seats(self, me: Seat, selector: str) -> Sequence[Seat]:
        """The seats a selector names from `me`: self, left, right, neighbours, all, others..."""

    def cards(self, seat: Seat, zone: str | None) -> Iterable[Any]:
        """Cards in a player's zone (None: their city); each has `id`, `colour`, `icons`."""

    def stages(self, seat: Seat) -> int:
        """Wonder stages built."""

    def tokens(self, seat: Seat, kind: str, period: str | None) -> int:
        """Tokens of a kind held (or, with 'one_battle', most won in one battle; with 'this_battle',
        those won in the battle just fought)."""

    def boxes(self, seat: Seat, building: str | None, die: str | None, tags: frozenset[str], period: str | None) -> int:
        """Boxes checked in a building (or the one a die shows), of these tags if any."""

    def counter(self, seat: Seat, name: str) -> int:
        """A counter's value (coins, shields...) or a pawn held (0 or 1)."""

    def came(self, seat: Seat, period: str) -> list[Any]:
        """The cards come into a player's city in the current turn, round (age) or game."""

    def produced(self, seat: Seat, resource: str) -> int:
        """The units of a player's production that can yield the resource (a choice counts once)."""

    def player_count(self) -> int:
        """The number of players."""

    def complete(self, seat: Seat, name: str) -> bool:
        """Whether a player's wonder (or building) has every stage or box."""

    def under_stages(self, seat: Seat) -> Iterable[Any]:
        """The cards tucked under a player's wonder stages."""

    def science_sets(self, seat: Seat) -> int:
        """The full sets of the pack's science symbols a player holds (wild ones chosen to make the most)."""

    def cost_units(self, piece: Any, names: frozenset[str]) -> int:
        """What a piece's printed cost asks of those resources or counters (none named: of every resource)."""

    # The engine's services, which verbs run (dsl/verbs/); `me` is the seat acting.
    def gain(self, me: Seat, counter: str, value: int) -> None:
        """Add to a counter (points scored during play are kept with their piece's category)."""

    def produce(self, me: Seat, resources: tuple[str, ...], count: int, private: bool, held: str | None = None) -> None:
        """`count` units of one of the resources each turn (a negative count takes them back); `held`
        (`unheld`): of those the rest of the city's production makes (does not make)."""

    def trade(self, me: Seat, resources: tuple[str, ...], price: int, sides: tuple[str, ...], first: bool = False) -> None:
        """A lower price for resources bought from those sellers (`first`: the first each turn only)."""

    def buy(self, me: Seat, args: Any, count: int) -> None:
        """Resources the player may buy from the bank when paying (a negative count takes it back)."""

    def science(self, me: Seat, symbols: tuple[str, ...], count: int) -> None:
        """A science symbol, or a choice among several (a negative count takes it back)."""

    def ask(self, me: Seat, kind: str, args: Any) -> None:
        """Ask the player a choice of that kind; the rest of the sentence waits for it."""

    def hold(self, me: Seat) -> None:
        """Keep the sentence being run as a power, offered when it applies."""

    def choose(self, seat: Seat | None) -> None:
        """Name the player `chosen` stands for."""

    def give(self, me: Seat, zones: tuple, to: str, face_down: bool) -> None:
        """The top card of the first of the zones holding one goes to those players' cities."""

    def take_pawn(self, me: Seat, pawn: str) -> None:
        """The pawn moves to the player."""

    def flip(self, kind: str, count: int) -> None:
        """Turn tokens to their other side."""

    def look(self, me: Seat, zones: tuple) -> None:
        """The player sees the top card of those zones."""

    def extra_action(self, me: Seat, args: Any) -> None:
        """The player acts once more, as the flow's turns go."""

    def unlock(self, me: Seat, die: str) -> None:
        """The player may pick that die."""

    def copy_stage(self, me: Seat, args: Any) -> None:
        """A wonder stage built by one of `args.sides` applies to the player (chosen among several)."""

    def discount(self, me: Seat, args: Any, count: int) -> None:
        """A lasting discount on the costs the player pays (a negative count takes it back)."""

    def take_tokens(self, me: Seat, args: Any) -> None:
        """Tokens of a kind taken from its supply (a pack's own kind), or chosen among those on offer."""

    def tokens_left(self, kind: str) -> int:
        """How many tokens of a kind may still be taken."""

    def move_tokens(self, giver: Seat, to: Seat | None, kind: str, count: int) -> None:
        """Up to `count` of the giver's tokens of a kind go to another player, or back (None)."""

    def affords(self, me: Seat, counter: str, loss: int) -> bool:
        """Whether the player can lose that much of a counter."""

    def choose_side(self, me: Seat, args: Any) -> None:
        """`A or B`: the player chooses a side that can be done, which is carried out."""


Number = Callable[[Context, Seat], int]
Test = Callable[[Context, Seat], bool]
CardTest = Callable[[Any], bool]


@attrs.frozen
class CompiledAction:
    """One verb with its typed, canonical arguments (its class's `compile`); `run(ctx, me)` carries
    it out, `undo(ctx, me)` takes back what it gave for as long as its piece stayed."""

    verb: str
    args: Any
    node: Any = attrs.field(eq=False, repr=False)

    def run(self, ctx: Context, me: Seat) -> None:
        self.node.run(ctx, me, self.args)

    def undo(self, ctx: Context, me: Seat) -> None:
        self.node.undo(ctx, me, self.args)


@attrs.frozen
class CompiledEffect:
    """One sentence, ready to run: when, what, on what condition, how often."""

    actions: tuple[CompiledAction, ...]
    trigger: str | None = None
    trigger_cards: CardTest | None = None  # what the event concerns must pass: a card, a token kind, a counter
    trigger_dice: frozenset[str] = frozenset()
    condition: Test | None = None
    limit: str | None = None
    watch: str | None = None  # the players whose event it waits for (a selector; `trigger` is then `watched(event)`)
    node: ast.Effect | None = attrs.field(default=None, eq=False, repr=False)
    verbs: frozenset[str] = attrs.field(  # what its actions do, for engines looking for a power
        init=False, eq=False, repr=False,
        default=attrs.Factory(lambda self: frozenset(a.verb for a in self.actions), takes_self=True))

    def applies(self, ctx: Context, me: Seat) -> bool:
        """Whether the condition holds (always, without one)."""
        return self.condition is None or self.condition(ctx, me)

    def run(self, ctx: Context, me: Seat) -> None:
        """Carry out every action in order, if the condition holds."""
        if self.applies(ctx, me):
            for action in self.actions:
                action.run(ctx, me)


@attrs.frozen
class Fixed:
    """An amount that is a number, whoever asks and whenever; equal by value, as positions compare."""

    value: int

    def __call__(self, ctx, me) -> int:
        return self.value


@attrs.frozen
class Varying:
    """A cost term read when it is paid: `value` less a count of the payer's, never below 0
    (`5 coins minus yellow card`), or with `sign` 1, more (`1 coin plus red card`)."""

    value: int
    count: Number
    sign: int = -1

    def __call__(self, ctx, me) -> int:
        return max(0, self.value + self.sign * self.count(ctx, me))


def full_sets(masks: Counter, places: int) -> int:
    """How many full sets of `places` places things make, each thing filling one place of one set:
    `masks` counts the things by the places they may fill (bit i: place i). By Hall's theorem, the
    fewest, over every group of places, of the things fitting some place of the group per place."""
    if all(mask & (mask - 1) == 0 for mask in masks):  # each fits one place: the scarcest place
        return min(masks.get(1 << bit, 0) for bit in range(places))
    return min(sum(n for mask, n in masks.items() if mask & group) // group.bit_count()
               for group in range(1, 1 << places))


def card_sets(tests: Sequence[CardTest], cards: Iterable[Any]) -> int:
    """How many full sets the cards make, a card filling one place (one of `tests`) of one set."""
    masks: Counter = Counter()
    for card in cards:
        masks[sum(1 << bit for bit, test in enumerate(tests) if test(card))] += 1
    masks.pop(0, None)
    return full_sets(masks, len(tests))


_OPS = {">=": operator.ge, ">": operator.gt, "=": operator.eq, "<": operator.lt, "<=": operator.le}


class Compiler:
    """Turns trees into callables, resolving names with one pack's vocabulary."""

    def __init__(self, vocab: Vocabulary):
        self.vocab = vocab

    def canon(self, name: ast.Name | None, *kinds: str) -> str | None:
        if name is None:
            return None
        return self.vocab.resolve(name.text, *(kinds or tuple(self.vocab.names))) or name.text

    def canons(self, names: ast.Names, *kinds: str) -> tuple[str, ...]:
        return tuple(self.canon(n, *kinds) for n in names)

    # -- effects
    def effects(self, effects: ast.Effects) -> tuple[CompiledEffect, ...]:
        """Compile every sentence of an `effect:` field."""
        return tuple(self.effect(e) for e in effects.items)

    def effect(self, e: ast.Effect) -> CompiledEffect:
        t = e.trigger
        watch = self.canon(t.who, "selector") if t else None
        return CompiledEffect(
            actions=tuple(self.action(a) for a in e.actions),
            trigger=(t.event if watch is None else watched(t.event)) if t else None,
            trigger_cards=self.card_test(t.filter) if t and t.filter else self.kinds_test(t) if t and t.kinds else None,
            trigger_dice=frozenset(self.canons(t.dice, "die")) if t else frozenset(),
            condition=self.condition(e.condition) if e.condition is not None else None,
            limit=self.canon(e.limit, "period"),
            watch=watch,
            node=e,
        )

    def kinds_test(self, t: ast.Trigger) -> CardTest:
        """What a doing concerns, tested: the token kind taken or lost, the counter gained."""
        kinds = frozenset(self.canons(t.kinds, "counter" if t.event == "gain" else "token"))
        return kinds.__contains__

    def action(self, a) -> CompiledAction:
        return CompiledAction(a.name, a.compile(self), a)

    # -- counting
    def card_test(self, f: ast.CardFilter) -> CardTest:
        """A predicate over cards: colour or id among the kinds, bearing every icon."""
        kinds = frozenset(self.canons(f.kinds, "colour", "card"))
        icons = frozenset(self.canons(f.icons, "icon"))

        if not icons:  # most filters: a colour or a card, without a set made per card
            if not kinds:
                return lambda card: True
            return lambda card: card.colour in kinds or card.id in kinds

        def test(card) -> bool:
            return (not kinds or card.colour in kinds or card.id in kinds) and icons <= set(card.icons)
        return test

    def count(self, c: ast.Count) -> Number:
        """A function giving how many the player has, summed over the places named."""
        places = c.places or (ast.Place(ast.Name(SELF)),)
        parts = [self._count_in(c, p) for p in places]
        divisor = c.divisor or 1
        if len(parts) == 1 and divisor == 1:
            return parts[0]  # the common case, without a sum: counts run in every step of a game
        return lambda ctx, me: sum(part(ctx, me) for part in parts) // divisor

    def _count_in(self, c: ast.Count, place) -> Number:
        owner_word, zone = self._place(place)
        what, period = c.what, c.period
        die = self.canon(place.die, "die") if isinstance(place, ast.ShownBuilding) else None
        if isinstance(place, ast.UnderStage):
            cards = lambda ctx, seat: ctx.under_stages(seat)  # noqa: E731
        else:
            cards = lambda ctx, seat: ctx.cards(seat, zone)  # noqa: E731
        if isinstance(what, ast.CardFilter) and c.within is not None:
            test, within = self.card_test(what), self.canon(c.within, "period")
            per_seat = lambda ctx, seat: sum(map(test, ctx.came(seat, within)))  # noqa: E731
        elif isinstance(what, ast.CardFilter):
            test = self.card_test(what)
            per_seat = lambda ctx, seat: sum(map(test, cards(ctx, seat)))  # noqa: E731 (bools summed)
            if not isinstance(place, ast.UnderStage):  # most counts: a call less, as they run at every score
                per_seat = lambda ctx, seat: sum(map(test, ctx.cards(seat, zone)))  # noqa: E731
        elif isinstance(what, ast.CardSet):
            tests = [self.card_test(f) for f in what.filters]
            per_seat = lambda ctx, seat: card_sets(tests, cards(ctx, seat))  # noqa: E731
        elif isinstance(what, ast.CostOf):
            test, names = self.card_test(what.filter), frozenset(self.canons(what.names, "resource", "counter"))
            per_seat = lambda ctx, seat: sum(  # noqa: E731
                ctx.cost_units(card, names) for card in cards(ctx, seat) if test(card))
        elif what.noun == "science set":
            per_seat = lambda ctx, seat: ctx.science_sets(seat)  # noqa: E731
        elif what.noun == "stage":
            per_seat = lambda ctx, seat: ctx.stages(seat)  # noqa: E731
        elif what.noun == "box":
            tags = frozenset(self.canons(what.kinds, "box_tag"))
            per_seat = lambda ctx, seat: ctx.boxes(seat, zone, die, tags, period)  # noqa: E731
        elif what.noun == "icon":
            icons = self.canons(what.kinds, "icon")
            per_seat = lambda ctx, seat: sum(  # noqa: E731
                list(card.icons).count(i) for card in ctx.cards(seat, zone) for i in icons)
        elif what.noun == "token":
            kinds = self.canons(what.kinds, "token")
            if len(kinds) == 1:  # most counts (`vp 3 per victory token`): no sum, read at every score
                kind = kinds[0]
                per_seat = lambda ctx, seat: ctx.tokens(seat, kind, period)  # noqa: E731
            else:
                per_seat = lambda ctx, seat: sum(ctx.tokens(seat, k, period) for k in kinds)  # noqa: E731
        else:  # a bare name: a token kind counts tokens, a resource what the city produces of it,
            # anything else is a counter or a pawn
            tokens = [t for n in what.kinds if (t := self.vocab.resolve(n.text, "token"))]
            resources = [r for n in what.kinds if (r := self.vocab.resolve(n.text, "resource"))]
            names = [self.canon(n, "counter", "pawn") for n in what.kinds
                     if not self.vocab.resolve(n.text, "token", "resource")]
            if not tokens and not resources and len(names) == 1:
                name = names[0]
                per_seat = lambda ctx, seat: ctx.counter(seat, name)  # noqa: E731
            else:
                per_seat = lambda ctx, seat: (  # noqa: E731
                    sum(ctx.tokens(seat, t, period) for t in tokens) + sum(ctx.produced(seat, r) for r in resources)
                    + sum(ctx.counter(seat, n) for n in names))
        if owner_word == SELF:
            return per_seat
        return lambda ctx, me: sum(per_seat(ctx, seat) for seat in ctx.seats(me, owner_word))

    def _place(self, place) -> tuple[str, str | None]:
        """(whose, which zone or building) a place names; `left` is (left, None)."""
        owner = self.canon(place.owner, "selector") if place.owner else None
        if isinstance(place, (ast.ShownBuilding, ast.UnderStage)):
            return owner or SELF, None
        word = self.vocab.resolve(place.name.text, "selector")
        if word and owner is None:
            return word, None
        return owner or SELF, self.canon(place.name, "player_zone", "building")

    def amount(self, a: ast.Amount) -> Number:
        """A function giving an amount's value for a player (a `Fixed` when it is a number alone)."""
        if a.form == "fixed":
            return Fixed(a.values[0])
        count = self.count(a.count)
        if a.form == "per":
            value = a.values[0]
            return lambda ctx, me: value * count(ctx, me)
        if a.form == "minus":
            value = a.values[0]
            return lambda ctx, me: max(0, value - count(ctx, me))
        table = (0,) + a.values
        return lambda ctx, me: table[min(count(ctx, me), len(table) - 1)]

    # -- conditions
    def condition(self, c) -> Test:
        """A predicate giving whether a condition holds for a player. It keeps the condition it was
        compiled from as `tree`, for what asks what a condition says rather than whether it holds
        (turns.py `sole_end`); a function's attribute costs its calls nothing."""
        test = self._test(c)
        test.tree = c  # type: ignore[attr-defined]
        return test

    def _test(self, c) -> Test:
        if isinstance(c, ast.AllOf):
            parts = [self.condition(i) for i in c.items]
            return lambda ctx, me: all(p(ctx, me) for p in parts)
        if isinstance(c, ast.AnyOf):
            parts = [self.condition(i) for i in c.items]
            return lambda ctx, me: any(p(ctx, me) for p in parts)
        if isinstance(c, ast.AtLeast):
            need = c.count.divisor or 1
            whole = attrs.evolve(c.count, divisor=None)
            have = self.count(whole)
            return lambda ctx, me: have(ctx, me) >= need
        if isinstance(c, ast.Compare):
            have, op = self.count(c.count), _OPS[c.op]
            sides = self.canons(c.sides, "selector")
            return lambda ctx, me: all(
                op(have(ctx, me), have(ctx, other)) for s in sides for other in ctx.seats(me, s))
        if isinstance(c, ast.Bound):
            have, op, value = self.count(c.count), _OPS[c.op], c.value
            return lambda ctx, me: op(have(ctx, me), value)
        if isinstance(c, ast.Players):
            op, value = _OPS[c.op], c.value
            return lambda ctx, me: op(ctx.player_count(), value)
        name = self.canon(c.name, "building")
        return lambda ctx, me: ctx.complete(me, name)

    # -- costs
    def cost(self, cost: ast.Cost) -> dict[str, int | Varying]:
        """A cost as counts by resource, counter or cost kind (`{}` is free); a term with `minus`
        or `plus` as a `Varying` (the checks leave it alone with its name)."""
        out: dict[str, int | Varying] = {}
        for term in cost.terms:
            key = term.kind or self.canon(term.name, "resource", "counter")
            if term.less is not None:
                out[key] = Varying(term.count, self.count(term.less), 1 if term.rises else -1)
            else:
                out[key] = out.get(key, 0) + term.count
        return out

"""The verbs of the effect language, one class each: everything about a verb sits in its class.

A verb class is the syntax-tree node of an action (its fields, with the span it was parsed from)
and says, in one place:

- `name`: the verb, as compiled effects and the engine's flows name it;
- `needs`: what a game must have for it to act, beyond what every game has (a flow provides it:
  buying from neighbours, hands of cards, boards of boxes, dice, costs paid with cards, wonder
  boards with stages);
- `rule`: its grammar rule (the parser adds it to `effect.lark`'s `action`);
- `example`: a sentence using it (docs/language.md shows it; the tests check both agree);
- `parse(items, span)`: the node from the rule's parsed items;
- `check(checker)`: its errors against the pack's vocabulary (checks.py's checker);
- `compile(compiler)`: its typed, canonical arguments (an attrs class), names resolved;
- `text()`: its canonical text (`parse(text()) == node`);
- `run(ctx, me, args)`: what it does, through the engine's services (compiler.Context), and
  `undo(ctx, me, args)` for what a piece takes back when it leaves a city;
- `causes(matching)`: the events it may set off at once (dsl/loops.py).

A new verb is one class here, registered with `@verb`. docs/engine.md says how.
"""

from __future__ import annotations

from typing import Any, Callable, ClassVar, Iterator

import attrs

from . import ast
from .compiler import Fixed
from .diagnostics import DslError
from .printer import names_text, plural, show, zones_text
from .vocabulary import ANY, WONDER

VERBS: dict[str, type["Verb"]] = {}  # the grammar rule's name -> the verb's class, in the grammar's order


def verb(cls):
    """Register a verb class (its rule joins the grammar)."""
    VERBS[cls.name] = cls
    return cls


def _int(token, default: int | None = None) -> int | None:
    return default if token is None else int(token)


def _name(token) -> ast.Name | None:
    return None if token is None else ast.Name(str(token), span=ast.token_span(token))


@attrs.frozen
class Verb:
    """One action of a sentence. Subclasses add their fields and what the module's doc lists."""

    name: ClassVar[str]
    rule: ClassVar[str]
    example: ClassVar[str]
    needs: ClassVar[frozenset[str]] = frozenset()
    lasting: ClassVar[bool] = False  # without a trigger, what it gives stays while its piece does (a property)

    @classmethod
    def parse(cls, items: list, span: ast.Span | None) -> "Verb":
        raise NotImplementedError

    def check(self, c) -> Iterator[DslError]:
        return iter(())

    def compile(self, c) -> Any:
        return None

    def text(self) -> str:
        raise NotImplementedError

    @staticmethod
    def run(ctx, me: int, args) -> None:
        """What it does; by default nothing at once (a property the engine reads from the effect)."""

    @staticmethod
    def undo(ctx, me: int, args) -> None:
        """What a piece holding it takes back when it leaves a city; by default nothing."""

    @staticmethod
    def fixed(ctx, me: int, args) -> Any:
        """The args as `run` reads them now, for `undo` to give back exactly what was given; None
        when they read nothing that changes (most verbs)."""
        return None

    @staticmethod
    def varies(args) -> bool:
        """Whether `fixed` may differ from `args` (what it gives depends on the position): then
        what entry gave is remembered for `undo`."""
        return False

    def causes(self, matching: Callable) -> Iterator[tuple[str, Any]]:
        """(event, the cards it may concern or None for any) of the events it may set off at once;
        `matching(card_filter)` gives the cards a filter may match."""
        return iter(())

    @staticmethod
    def asks(args) -> str | None:
        """The kind of choice it asks the player (a decision of the engine's), if any."""
        return None

    def chooses(self) -> bool:
        """Whether it chooses a player, whom `chosen` names in the rest of its sentence."""
        return False

    @classmethod
    def words(cls) -> str:
        """How a sentence writes the verb, for messages listing verbs: its rule's first fixed
        words (`die discount`, `copy stage`), or `<counter> N` for a gain."""
        said = []
        for part in cls.rule.split():
            if part.startswith('"') and part.endswith('"'):
                said.append(part.strip('"'))
            elif part in _NOUNS:
                said.append(_NOUNS[part])
            else:
                break
        while said and said[-1] in ("of", "from", "at"):  # `copy stage from` reads as `copy stage`
            said.pop()
        return " ".join(said) or "<counter> N"


# The grammar's terminals for nouns, as a sentence writes them.
_NOUNS = {"_CARD": "card", "_STAGE": "stage", "_TOKEN": "token", "_BOX": "box", "_ICON": "icon"}


def _span():
    return attrs.field(default=None, eq=False, repr=False, kw_only=True)


def ask(kind: str):
    """A verb's runtime, and its `asks`, when it asks the player a choice of that kind (see the
    engine's decisions)."""
    def run(ctx, me, args):
        ctx.ask(me, kind, args)
    return staticmethod(run), staticmethod(lambda args: kind)


def hold(ctx, me: int, args) -> None:
    """A verb's runtime that keeps the effect as a power the engine offers when it applies."""
    ctx.hold(me)


# ---- gains and lasting properties ---------------------------------------------------------


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
    span: ast.Span | None = _span()

    @classmethod
    def parse(cls, items, span):
        return cls(_name(items[0]), items[1], span=span)

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

    @staticmethod
    def undo(ctx, me, args):
        ctx.gain(me, args.counter, -args.amount(ctx, me))

    @staticmethod
    def fixed(ctx, me, args):
        return GainArgs(args.counter, Fixed(args.amount(ctx, me)))

    @staticmethod
    def varies(args) -> bool:
        return not isinstance(args.amount, Fixed)


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
    span: ast.Span | None = _span()

    @classmethod
    def parse(cls, items, span):
        private, count, names = items
        return cls(names, _int(count, 1), private is not None, span=span)

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
    span: ast.Span | None = _span()

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
    span: ast.Span | None = _span()

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
    span: ast.Span | None = _span()

    @classmethod
    def parse(cls, items, span):
        count, name = items
        return cls(_name(name), _int(count, 1), span=span)

    def check(self, c):
        yield from c.name(self.icon, "icon")
        yield from c.at_least(self.count, 1, "a number of icons", self)

    def compile(self, c):
        return IconArgs(c.canon(self.icon, "icon"), self.count)

    def text(self):
        return f"icon {self.icon.text}" if self.count == 1 else f"icon {self.count} {self.icon.text}"


# ---- cards taken, given, built --------------------------------------------------------------


Zones = tuple[tuple[str, "str | None"], ...]  # (zone, owner selector or None for a shared zone)


def _zones(c, zones: ast.Zones) -> Zones:
    return tuple((c.canon(z.name, "shared_zone", "player_zone"), c.canon(z.owner, "selector")) for z in zones)


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
    span: ast.Span | None = _span()

    @classmethod
    def parse(cls, items, span):
        keep, depth, zones = items
        return cls(zones, _int(keep, 1), _int(depth, 1), span=span)

    def check(self, c):
        yield from c.at_least(self.keep, 1, "the number of cards kept", self)
        if self.keep > self.depth:
            yield DslError("E-DSL-VALUE", f"cannot keep {self.keep} of the top {self.depth} cards", self.span,
                           f"keep at most {self.depth}")
        yield from c.zones(self.zones)

    def compile(self, c):
        return TakeTopArgs(_zones(c, self.zones), self.keep, self.depth)

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
    span: ast.Span | None = _span()

    @classmethod
    def parse(cls, items, span):
        return cls(_name(items[0]), span=span)

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


@verb
@attrs.frozen
class TakeToken(Verb):
    """`take <kind> token`: choose a token of that kind from where the rules offer them."""

    name = "take_token"
    rule = '"take" NAME _TOKEN'
    example = "take progress token"
    kind: ast.Name
    span: ast.Span | None = _span()

    @classmethod
    def parse(cls, items, span):
        return cls(_name(items[0]), span=span)

    def check(self, c):
        yield from c.name(self.kind, "token")

    def compile(self, c):
        return TokenArgs(c.canon(self.kind, "token"))

    def text(self):
        return f"take {self.kind.text} token"

    run, asks = ask("take_token")


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
    span: ast.Span | None = _span()

    @classmethod
    def parse(cls, items, span):
        return cls(items[0], items[1], span=span)

    def check(self, c):
        yield from c.card_filter(self.filter)
        yield from c.zones(self.zones)

    def compile(self, c):
        return CardsArgs(c.card_test(self.filter), _zones(c, self.zones))

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
    span: ast.Span | None = _span()

    @classmethod
    def parse(cls, items, span):
        zones, to, face_down = items
        return cls(zones, _name(to), face_down is not None, span=span)

    def check(self, c):
        yield from c.zones(self.zones)
        yield from c.name(self.to, "selector")

    def compile(self, c):
        return GiveArgs(_zones(c, self.zones), c.canon(self.to, "selector"), self.face_down)

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
    span: ast.Span | None = _span()

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


@verb
@attrs.frozen
class CopyStage(Verb):
    """`copy stage from <sides>`: one wonder stage those neighbours built applies to the owner as if
    the owner had built it, without counting as one of the owner's: chosen when there are several,
    nothing when there is none. `at end:`, the scoring chooses the one that scores best."""

    name = "copy_stage"
    rule = '"copy" _STAGE "from" selectors'
    example = "copy stage from left, right"
    needs = frozenset({"stages"})
    sides: ast.Names
    span: ast.Span | None = _span()

    @classmethod
    def parse(cls, items, span):
        return cls(items[0], span=span)

    def check(self, c):
        yield from c.sides(self.sides)

    def compile(self, c):
        return CopyStageArgs(c.canons(self.sides, "selector"))

    def text(self):
        return f"copy stage from {names_text(self.sides, ', ')}"

    # It asks a choice only when there are several stages to copy: `asks` stays None, as no
    # action can answer it beforehand (a science set's reward).
    @staticmethod
    def run(ctx, me, args):
        ctx.copy_stage(me, args)

    def causes(self, matching):
        yield "take", None  # the stage copied may take a card


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
    span: ast.Span | None = _span()

    @classmethod
    def parse(cls, items, span):
        card_filter, zones = items
        return cls(card_filter, zones or (), span=span)

    def check(self, c):
        if self.filter is not None:
            yield from c.card_filter(self.filter)
        yield from c.zones(self.zones)

    def compile(self, c):
        return CardsArgs(c.card_test(self.filter) if self.filter else None, _zones(c, self.zones))

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
        cards = matching(self.filter)
        yield "build", cards
        yield "take", cards


@verb
@attrs.frozen
class PlayLast(Verb):
    """`play last card`: a power of playing the last card of a hand instead of discarding it."""

    name = "play_last"
    lasting = True
    rule = '"play" "last" _CARD'
    example = "play last card"
    needs = frozenset({"hands"})
    span: ast.Span | None = _span()

    @classmethod
    def parse(cls, items, span):
        return cls(span=span)

    def text(self):
        return "play last card"

    run = staticmethod(hold)


# ---- tokens, boxes, dice, powers ----------------------------------------------------------


@attrs.frozen
class FlipArgs:
    kind: str
    count: int


@verb
@attrs.frozen
class Flip(Verb):
    """`flip N <kind> token`: turn tokens of that kind to their other side; turning the last one
    calls a battle at the end of the turn."""

    name = "flip"
    rule = '"flip" INT NAME _TOKEN'
    example = "flip 2 conflict tokens"
    count: int
    kind: ast.Name
    span: ast.Span | None = _span()

    @classmethod
    def parse(cls, items, span):
        return cls(int(items[0]), _name(items[1]), span=span)

    def check(self, c):
        yield from c.at_least(self.count, 1, "a number of tokens", self)
        yield from c.name(self.kind, "token")

    def compile(self, c):
        return FlipArgs(c.canon(self.kind, "token"), self.count)

    def text(self):
        return f"flip {self.count} {self.kind.text} {plural('token', self.count)}"

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
    span: ast.Span | None = _span()

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
    span: ast.Span | None = _span()

    @classmethod
    def parse(cls, items, span):
        return cls(_name(items[0]), span=span)

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
    span: ast.Span | None = _span()

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
    (`only`: None for every cost, 'cards' for the cards `cards` matches, 'stages')."""

    name: str
    amount: Callable  # (ctx, me) -> int
    only: str | None = None
    cards: Callable | None = None

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
    long as its piece stays; never below 0."""

    name = "cost_discount"
    lasting = True
    rule = '"discount" INT NAME ["per" count] ["for" discounted]'
    example = "discount 1 coin per green card"
    amount: int
    what: ast.Name
    per: ast.Count | None = None
    target: ast.CardFilter | ast.Thing | None = None  # a card filter, or `stage`
    span: ast.Span | None = _span()

    @classmethod
    def parse(cls, items, span):
        amount, what, per, target = items
        return cls(int(amount), _name(what), per, target, span=span)

    def check(self, c):
        yield from c.at_least(self.amount, 1, "a discount", self)
        yield from c.name(self.what, "resource", "counter", extra=(ANY,))
        if self.per is not None:
            yield from c.count(self.per)
        if isinstance(self.target, ast.CardFilter):
            yield from c.card_filter(self.target)

    def compile(self, c):
        amount = c.amount(ast.Amount("per" if self.per else "fixed", (self.amount,), self.per))
        card = isinstance(self.target, ast.CardFilter)
        only = None if self.target is None else "cards" if card else "stages"
        return CostDiscountArgs(c.canon(self.what, "resource", "counter"), amount, only,
                                c.card_test(self.target) if card else None)

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
    span: ast.Span | None = _span()

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
    span: ast.Span | None = _span()

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
    span: ast.Span | None = _span()

    @classmethod
    def parse(cls, items, span):
        card_filter, count, resource = items
        return cls(card_filter, int(count), _name(resource), span=span)

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
    span: ast.Span | None = _span()

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
    span: ast.Span | None = _span()

    @classmethod
    def parse(cls, items, span):
        return cls(items[0], span=span)

    def check(self, c):
        yield from c.zones(self.zones)

    def compile(self, c):
        return LookArgs(_zones(c, self.zones))

    def text(self):
        return f"look at top card of {zones_text(self.zones)}"

    @staticmethod
    def run(ctx, me, args):
        ctx.look(me, args.zones)

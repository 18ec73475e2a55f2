"""The effect language's syntax tree: frozen attrs classes that keep their source span.

Spans take no part in equality, so a tree printed and parsed again equals the original.
"""

from __future__ import annotations

from typing import Union

import attrs


@attrs.frozen
class Span:
    """Where a node stands in the text it was parsed from (1-based lines and columns)."""

    line: int
    column: int
    end_line: int
    end_column: int
    start: int  # character offsets into the parsed text
    end: int


def _span() -> Span | None:
    return attrs.field(default=None, eq=False, repr=False, kw_only=True)


@attrs.frozen
class Name:
    """A word naming game content (a resource, colour, zone, counter...), as written."""

    text: str
    span: Span | None = _span()


Names = tuple[Name, ...]  # alternatives written `a / b / c`, or a list `a, b`


# ---- counting ------------------------------------------------------------------------


@attrs.frozen
class CardFilter:
    """`[kinds] card [with icons]`: cards of these colours or ids, bearing these icons."""

    kinds: Names = ()
    icons: Names = ()
    span: Span | None = _span()


@attrs.frozen
class Thing:
    """A counted thing other than cards: `stage`, `<kinds> token`, `box`, `<kinds> icon`,
    or a bare counter (`coins`, a pawn)."""

    noun: str  # 'stage' | 'token' | 'box' | 'icon' | 'counter'
    kinds: Names = ()
    span: Span | None = _span()


@attrs.frozen
class Place:
    """`name [of owner]`: a player (`left`) or a zone or building of a player (`barracks of left`)."""

    name: Name
    owner: Name | None = None
    span: Span | None = _span()


@attrs.frozen
class ShownBuilding:
    """`building shown by <die> die [of owner]`: the building named by a die's face."""

    die: Name
    owner: Name | None = None
    span: Span | None = _span()


@attrs.frozen
class Count:
    """`[divisor] <what> [in places] [period]`: how many of something a player has."""

    what: Union[CardFilter, Thing]
    places: tuple[Union[Place, ShownBuilding], ...] = ()
    divisor: int | None = None
    period: str | None = None  # 'before_round' | 'one_battle'
    span: Span | None = _span()


# ---- amounts ----------------------------------------------------------------------------


@attrs.frozen
class Amount:
    """`N`, `N per count`, `N minus count` or `a, b, c by count` (a table by count 1, 2, 3...)."""

    form: str  # 'fixed' | 'per' | 'minus' | 'table'
    values: tuple[int, ...]
    count: Count | None = None
    span: Span | None = _span()


# ---- zones --------------------------------------------------------------------------


@attrs.frozen
class Zone:
    """`name [of owner]`: a shared zone (`central_deck`) or a player's (`deck of right`)."""

    name: Name
    owner: Name | None = None
    span: Span | None = _span()


Zones = tuple[Zone, ...]  # alternatives `a / b`


# ---- actions: one class per verb --------------------------------------------------------


@attrs.frozen
class Gain:
    """`<counter> <amount>`: add to a counter (coins, vp, shields...)."""

    counter: Name
    amount: Amount
    span: Span | None = _span()


@attrs.frozen
class Produce:
    """`produce [private] [N] a / b`: N of one of the resources each turn."""

    resources: Names
    count: int = 1
    private: bool = False
    span: Span | None = _span()


@attrs.frozen
class Trade:
    """`trade <resources> at <price> from <sides>`: a new price when buying from neighbours."""

    resources: Names
    price: int
    sides: Names
    span: Span | None = _span()


@attrs.frozen
class Science:
    """`science <symbols>`: one science symbol, or a choice among several (`any`: all)."""

    symbols: Names
    span: Span | None = _span()


@attrs.frozen
class Icon:
    """`icon [N] <name>`: icons printed on a component."""

    name: Name
    count: int = 1
    span: Span | None = _span()


@attrs.frozen
class TakeTop:
    """`take [K of] top [N] card of <zones>`: keep K of the top N cards of one of the zones."""

    zones: Zones
    keep: int = 1
    depth: int = 1
    span: Span | None = _span()


@attrs.frozen
class TakePawn:
    """`take <pawn>`: take a pawn from wherever it is."""

    pawn: Name
    span: Span | None = _span()


@attrs.frozen
class TakeToken:
    """`take <kind> token`: choose a token of that kind from where the rules offer them."""

    kind: Name
    span: Span | None = _span()


@attrs.frozen
class TakeFrom:
    """`take <filter> from <zones>`: choose a matching card in one of the zones."""

    filter: CardFilter
    zones: Zones
    span: Span | None = _span()


@attrs.frozen
class Give:
    """`give top card of <zones> to <player> [face down]`."""

    zones: Zones
    to: Name
    face_down: bool = False
    span: Span | None = _span()


@attrs.frozen
class Copy:
    """`copy <filter> from <sides>`: copy one matching card of those players."""

    filter: CardFilter
    sides: Names
    span: Span | None = _span()


@attrs.frozen
class Build:
    """`build [<filter> from <zones>] free`: build a card without paying its cost."""

    filter: CardFilter | None = None
    zones: Zones = ()
    span: Span | None = _span()


@attrs.frozen
class PlayLast:
    """`play last card`: the last card of a hand may be played instead of discarded."""

    span: Span | None = _span()


@attrs.frozen
class Flip:
    """`flip N <kind> token`: turn tokens of that kind to their other side."""

    count: int
    kind: Name
    span: Span | None = _span()


@attrs.frozen
class Check:
    """`check [up to] N box in <buildings>`: check boxes of one of the buildings."""

    count: int
    buildings: Names
    up_to: bool = False
    span: Span | None = _span()


@attrs.frozen
class Unlock:
    """`unlock <die> die`."""

    die: Name
    span: Span | None = _span()


@attrs.frozen
class Discount:
    """`die discount N [for <dice>]`: dice cost N coins less (for these dice only)."""

    amount: int
    dice: Names = ()
    span: Span | None = _span()


@attrs.frozen
class Extra:
    """`extra action [without die cost]`: act once more this round."""

    free_die: bool = False
    span: Span | None = _span()


@attrs.frozen
class Ignore:
    """`ignore <cost kinds>`: costs of these kinds count only their size."""

    kinds: Names
    span: Span | None = _span()


@attrs.frozen
class Keep:
    """`keep <filter>`: these cards are kept when the rules would discard them."""

    filter: CardFilter
    span: Span | None = _span()


@attrs.frozen
class Look:
    """`look at top card of <zones>`: see a hidden card."""

    zones: Zones
    span: Span | None = _span()


Action = Union[
    Gain, Produce, Trade, Science, Icon, TakeTop, TakePawn, TakeToken, TakeFrom, Give,
    Copy, Build, PlayLast, Flip, Check, Unlock, Discount, Extra, Ignore, Keep, Look,
]


# ---- conditions ---------------------------------------------------------------------


@attrs.frozen
class AtLeast:
    """`<count>`: the player has at least that many (`3 blue card`)."""

    count: Count
    span: Span | None = _span()


@attrs.frozen
class Compare:
    """`<count> <op> <sides>`: compare the player's count with each of those players'."""

    count: Count
    op: str
    sides: Names
    span: Span | None = _span()


@attrs.frozen
class Players:
    """`players <op> N`: the number of players in the game."""

    op: str
    value: int
    span: Span | None = _span()


@attrs.frozen
class Complete:
    """`<thing> complete`: e.g. `wonder complete`, every stage built."""

    name: Name
    span: Span | None = _span()


@attrs.frozen
class AllOf:
    items: tuple["Condition", ...]
    span: Span | None = _span()


@attrs.frozen
class AnyOf:
    items: tuple["Condition", ...]
    span: Span | None = _span()


Condition = Union[AtLeast, Compare, Players, Complete, AllOf, AnyOf]


# ---- effects ---------------------------------------------------------------------------


@attrs.frozen
class Trigger:
    """When an effect runs: `on build`, `at end`, `on take <filter>`..."""

    event: str
    filter: CardFilter | None = None
    dice: Names = ()
    period: Name | None = None  # `at round end`, `at age end`: the period that ends
    span: Span | None = _span()


@attrs.frozen
class Effect:
    """One sentence: `[trigger:] action [then action...] [if condition] [once per period]`."""

    actions: tuple[Action, ...]
    trigger: Trigger | None = None
    condition: Condition | None = None
    limit: Name | None = None
    span: Span | None = _span()


@attrs.frozen
class Effects:
    """All sentences of one `effect:` field."""

    items: tuple[Effect, ...] = ()
    span: Span | None = _span()


# ---- costs ------------------------------------------------------------------------------


@attrs.frozen
class CostTerm:
    """`[N] <name>` (a resource or coins) or `N different` / `N identical`."""

    count: int
    name: Name | None = None
    kind: str | None = None  # 'different' | 'identical'
    span: Span | None = _span()


@attrs.frozen
class Cost:
    """A `cost:` field; no terms means free."""

    terms: tuple[CostTerm, ...] = ()
    span: Span | None = _span()

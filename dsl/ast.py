"""The effect language's syntax tree: frozen attrs classes that keep their source span.

Spans take no part in equality, so a tree printed and parsed again equals the original.
"""

from __future__ import annotations

from typing import Iterator, Union

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


def token_span(token) -> Span:
    """The span of a parsed token (a lark `Token`)."""
    return Span(token.line, token.column, token.end_line, token.end_column, token.start_pos, token.end_pos)


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
    a bare counter (`coins`, a pawn), or `science set`."""

    noun: str  # 'stage' | 'token' | 'box' | 'icon' | 'counter' | 'science set'
    kinds: Names = ()
    span: Span | None = _span()


@attrs.frozen
class CardSet:
    """`set of <filter>, <filter>, ...`: how many full sets the cards make, each card in one place
    of one set only (`set of card, red card`: pairs of a red card and any other card)."""

    filters: tuple[CardFilter, ...]
    span: Span | None = _span()


@attrs.frozen
class CostOf:
    """`[names] cost of <filter>`: the sum, over the matching cards, of what their printed costs ask
    of those resources or counters (`coin cost of ...`); without names, of every resource."""

    names: Names
    filter: CardFilter
    span: Span | None = _span()


@attrs.frozen
class UnderStage:
    """`under stage [of owner]`: the cards tucked under a player's wonder stages."""

    owner: Name | None = None
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
    """`[divisor] <what> [in places | under stage] [period]`: how many of something a player has."""

    what: Union[CardFilter, Thing, CardSet, CostOf]
    places: tuple[Union[Place, ShownBuilding, UnderStage], ...] = ()
    divisor: int | None = None
    period: str | None = None  # 'before_round' | 'one_battle' | 'this_battle' | 'this' (with `within`)
    span: Span | None = _span()
    within: Name | None = None  # `this age`: the period whose cards (come into a city) are counted


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


# ---- actions: one class per verb, in dsl/verbs/ -----------------------------------------


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
class Bound:
    """`<count> <op> N`: the player's count compares so with a number (`red card < 3`)."""

    count: Count
    op: str
    value: int
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
    """When an effect runs: `on build`, `at end`, `on take <filter>`..., or, with `who`, when those
    players do something (`on left take red card`, `on neighbours stage`)."""

    event: str
    filter: CardFilter | None = None
    dice: Names = ()
    period: Name | None = None  # `at round end`, `at age end`: the period that ends
    who: Name | None = None  # the players watched (a selector); None: the owner
    word: str | None = None  # how a watched card coming in is said: 'take' or 'build' (the same event)
    kinds: Names = ()  # the token kinds (`on take victory token`) or counters (`on gain coins`) it waits for
    span: Span | None = _span()


@attrs.frozen
class Effect:
    """One sentence: `[trigger:] action [then action...] [if condition] [once per period]`;
    each action is a verb's node (dsl/verbs/)."""

    actions: tuple
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
    """`[N] <name>` (a resource or coins) or `N different` / `N identical`, with `minus <count>`
    a term whose size is N less the count when it is paid, never below 0; with `plus <count>`,
    N more."""

    count: int
    name: Name | None = None
    kind: str | None = None  # 'different' | 'identical'
    less: Count | None = None  # the count a term varies by: `5 coins minus yellow card`
    rises: bool = False  # `plus`: `1 coin plus red card`
    span: Span | None = _span()


@attrs.frozen
class Cost:
    """A `cost:` field; no terms means free, and so does `copied` (a stage built as a copy of
    another, paid at its cost: `copy stage ... with cost`)."""

    terms: tuple[CostTerm, ...] = ()
    span: Span | None = _span()
    copied: bool = False


def nodes(node) -> Iterator:
    """Every node of a syntax tree, the node first."""
    yield node
    if attrs.has(type(node)):
        for field in attrs.fields(type(node)):
            value = getattr(node, field.name)
            for child in value if isinstance(value, tuple) else (value,):
                if isinstance(child, tuple):  # a choice's sides
                    yield from (n for c in child for n in nodes(c))
                elif attrs.has(type(child)) and not isinstance(child, Span):
                    yield from nodes(child)

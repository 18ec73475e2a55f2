"""Effects that can trigger each other without end, found before any game is played.

An effect with a trigger runs whenever its event happens; if its own actions (or those of
the effects it sets off) can make that event happen again, one action of a player could set
off a chain that stops only when a deck runs out, or never. These events can be caused by
effects: a card taken (`take ...`, `give ... to ...` face up, `build ... free`) sets off `on
take` effects and, as it comes into a city, that card's own `on build` effects; a flip may call
a battle, setting off `at battle` effects; a gain above zero sets off `on gain` effects of its
counter, and tokens taken, given, returned or spent the `on take` and `on lose` effects of their
kind. An effect limited with `once per <period>` runs at most once a period, so it ends any chain;
one watching other players only (`on left gain coins:`) on a card of one copy, doing nothing to
another player, cannot set itself off: only the same effect held by another player could.
Where a city never holds two cards of one name (rules.yaml `flow.unique_cards`), cards coming into
cities make no circle of `on build` effects: the effects run in the city the cards come into, each
one it did not hold, and none leaves it unless an effect of the chain takes it out or gives cards
to another city (`_moves_out`).

The analysis over-approximates: a card filter is compared by the cards it could match
(icons are not looked at), a card given to another player counts as taken by anyone, a card
taken sets off the effects watching others take (`on left take card:`) as well as the taker's
own, and a copied stage (`copy stage`) may take a card, gain any counter or take tokens.
"""

from __future__ import annotations

from typing import Callable, Iterable

import attrs

from . import ast
from .verbs.cards import CopyStage, Give
from .verbs.tokens import Choice
from .vocabulary import SELF

OTHERS_ONLY = ("left", "right", "neighbours", "others")  # watched players never the owner

Cards = frozenset  # the ids of the cards an event may concern; None: any card


@attrs.frozen
class Node:
    """One triggered effect of a pack, with what it may cause and what sets it off."""

    label: object                   # whatever the caller uses to name it (a component, a place)
    effect: ast.Effect
    piece: str | None = None        # the id of the card that holds it, for `on build`


def find_loops(nodes: Iterable[Node], cards: dict[str, str], resolve: Callable[[str], str],
               unique_in: str | None = None, single: frozenset[str] = frozenset()) -> list[list[Node]]:
    """Every set of unlimited triggered effects that can set each other off in a circle, as a
    path from its first effect back to it; `cards` maps card ids to colours, `resolve` gives a
    word's declared form (`blues` -> `blue`); `unique_in` is the zone cards are built in when a
    city never holds two cards of one name (None when it may); `single`, the cards a game holds
    one copy of."""
    nodes = [n for n in nodes if n.effect.trigger is not None and n.effect.limit is None]
    edges = {i: [j for j, b in enumerate(nodes) if _feeds(a, b, cards, resolve, unique_in)
                 and not (i == j and _alone(a, single))] for i, a in enumerate(nodes)}
    loops, reported = [], set()
    for start in range(len(nodes)):
        if start in reported:
            continue
        path = _cycle_through(start, edges)
        if path:
            reported |= set(path)
            loops.append([nodes[i] for i in path])
    return loops


def _alone(node: Node, single: frozenset[str]) -> bool:
    """Whether an effect cannot set itself off: it watches other players only, on a card of one
    copy, and does nothing to another player (`to`, a copied stage): what it does to its owner
    could set off only the same effect held by another player, and none is."""
    who = node.effect.trigger.who
    return node.piece in single and who is not None and who.text in OTHERS_ONLY and not any(
        hasattr(action, "to") or isinstance(action, CopyStage) for action in _actions(node.effect.actions))


def _cycle_through(start: int, edges: dict[int, list[int]]) -> list[int] | None:
    """A shortest path from `start` back to itself (breadth first), or None."""
    parents: dict[int, int] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for nxt in edges[node]:
                if nxt == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(parents[path[-1]])
                    return path[::-1]
                if nxt not in parents:
                    parents[nxt] = node
                    following.append(nxt)
        frontier = following
    return None


def _feeds(a: Node, b: Node, cards: dict[str, str], resolve, unique_in: str | None) -> bool:
    """Whether running `a` can set `b` off at once. A card coming into a city sets off only its own
    `on build` (not a stage's, nor a player's), and none at all where a city holds no card twice
    unless `a` moves cards out of one (`_moves_out`)."""
    event = b.effect.trigger.event
    for caused, concerned in _causes(a.effect, cards, resolve):
        if caused != event:
            continue
        if event == "build" and (b.piece is None or unique_in is not None and not _moves_out(a.effect, unique_in)):
            continue
        if event == "battle" or event == "build" and (concerned is None or b.piece in concerned):
            return True
        if event == "take":
            wanted = _matching(b.effect.trigger.filter, cards, resolve)
            if concerned is None or wanted is None or concerned & wanted:
                return True
        if event in ("gain", "take_token", "lose_token"):  # the counters or token kinds, by their names
            if concerned is None or {resolve(n) for n in concerned} & {resolve(n.text) for n in b.effect.trigger.kinds}:
                return True
    return False


def _causes(effect: ast.Effect, cards, resolve) -> Iterable[tuple[str, Cards | None]]:
    """The events an effect's actions may cause at once, with the cards they may concern (each
    verb says which: `Verb.causes`); a card taken comes into a city, so it is built there too."""
    for action in effect.actions:
        for caused, concerned in action.causes(lambda card_filter: _matching(card_filter, cards, resolve)):
            yield caused, concerned
            if caused == "take":
                yield "build", concerned


def _moves_out(effect: ast.Effect, city: str) -> bool:
    """Whether an action of the effect may take a card out of the city it runs in (`lay card from
    city of self on ...`), or put one into another player's city, whose own effects may then take
    cards from this one: a card may then come into a city twice. Taking from another's city only
    fills this one (whose effects run) with cards it did not hold."""
    for action in _actions(effect.actions):
        if isinstance(action, CopyStage) or isinstance(action, Give) and not action.face_down and action.to.text != SELF:
            return True  # a copied stage may do either
        if any(z.name.text == city and (z.owner is None or z.owner.text in _MAYBE_SELF) for z in getattr(action, "zones", ())):
            return True
    return False


_MAYBE_SELF = (SELF, "all", "any", "chosen")  # selectors that may name the effect's owner


def _actions(actions) -> Iterable:
    """The actions, and those of each side of a choice among them."""
    for action in actions:
        yield action
        for side in action.sides if isinstance(action, Choice) else ():
            yield from _actions(side)


def _matching(card_filter: ast.CardFilter | None, cards: dict[str, str], resolve) -> Cards | None:
    """The cards a filter may match by colour or id (None for any card)."""
    if card_filter is None or not card_filter.kinds:
        return None
    kinds = {resolve(k.text) for k in card_filter.kinds}
    return Cards(cid for cid, colour in cards.items() if cid in kinds or colour in kinds)

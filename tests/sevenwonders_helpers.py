"""Helpers for the 7 Wonders rules tests: positions built by hand, played through the engine's interface.

A position starts from a real deal (`table`), with each seat's wonder side chosen by the test; cards are
then put into cities, hands and treasuries directly, and the turn is played with `legal_actions` and
`apply` like any client would.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache, partial

import helpers
from wonderforge.interpreter import Action, State
from wonderforge.interpreter.core.holdings import Player

PACK = "7-wonders"
HAND, CITY, DISCARD = "hand", "city", "discard"
RAW = ("wood", "stone", "clay", "ore")
MANUFACTURED = ("glass", "papyrus", "textile")


# The shared helpers of tests/helpers.py, bound to this pack.
game_for = partial(helpers.game_for, PACK)
dealt = partial(helpers.dealt, PACK)
random_game = partial(helpers.random_game, PACK)


def card(state_or_game, card_id: str):
    game = getattr(state_or_game, "game", state_or_game)
    return game.catalogue.cards[card_id]


def table(*wonders: str, seed: int = 0) -> State:
    """A freshly dealt position whose seat i plays `wonders[i]` ("olympia:a"), all sides entered
    as setup enters them: 3 coins, the board's starting resource, a dealt hand of 7."""
    return helpers.table(PACK, wonders, lambda state, seat, spec: set_side(state, seat, *spec.split(":")), seed)


def set_side(state: State, seat: int, wonder: str, side: str) -> None:
    """Give a seat a fresh board (its coins and hand are kept, its city is emptied)."""
    game = state.game
    old = state.players[seat]
    board = game.catalogue.sides[wonder, side]
    player = Player(dict(old.counters), {HAND: old.zones[HAND], CITY: []}, side=board,
                    wonder_size=len(board.stages), prices=game.start_prices)
    state.players[seat] = player
    state.enter(seat, player.side.board)
    state.legal = {}


def build(state: State, seat: int, *card_ids: str) -> None:
    """Put cards into a city as if built earlier (their effects apply now)."""
    for cid in card_ids:
        piece = card(state, cid)
        state.game.flow.place(state, seat, Action("build", cid), piece)
        state.enter(seat, piece)
    state.legal = {}


def stages(state: State, seat: int, count: int = 1, marker: str = "altar") -> None:
    """Build the seat's next `count` wonder stages (each tucks a `marker` card)."""
    for _ in range(count):
        piece = state.game.flow.place(state, seat, Action("stage", marker), card(state, marker))
        state.enter(seat, piece)
    state.legal = {}


def set_hand(state: State, seat: int, *card_ids: str) -> None:
    state.players[seat].zones[HAND] = [card(state, cid) for cid in card_ids]
    state.legal = {}


def set_coins(state: State, seat: int, coins: int) -> None:
    state.players[seat].counters["coins"] = coins
    state.legal = {}


def coins(state: State, seat: int) -> int:
    return state.players[seat].counters.get("coins", 0)


def city(state: State, seat: int) -> list[str]:
    return [c.id for c in state.players[seat].zones[CITY]]


def hand(state: State, seat: int) -> list[str]:
    return [c.id for c in state.players[seat].zones[HAND]]


def discard_pile(state: State) -> list[str]:
    return [c.id for c in state.shared[DISCARD]]


def payments(state: State, seat: int, verb: str, card_id: str) -> set[tuple[int, int]]:
    """The coins to (left, right) of every offered non-free way to `build`/`stage` that card;
    `()` is written (0, 0)."""
    return {a.pay or (0, 0) for a in state.legal_actions(seat)
            if a.verb == verb and a.card == card_id and not a.free}


def can(state: State, seat: int, verb: str, card_id: str) -> bool:
    return any(a.verb == verb and a.card == card_id for a in state.legal_actions(seat))


def discard_first(state: State, seat: int) -> Action:
    return Action("discard", state.players[seat].zones[HAND][0].id)


def play_turn(state: State, chosen: dict[int, Action]) -> None:
    """One simultaneous turn: the seats in `chosen` play those actions, every other seat discards
    the first card of its hand."""
    for seat in list(state.current_players()):
        action = chosen.get(seat) or discard_first(state, seat)
        state.apply(seat, action)


def all_cards(state: State) -> Counter:
    """Every card of the game by id, wherever it is: hands, cities, under wonders, discard, decks."""
    found = Counter()
    for player in state.players:
        found.update(c.id for zone in player.zones.values() for c in zone)
        found.update(c.id for c in player.tucked)
    for cards in state.shared.values():
        found.update(c.id for c in cards)
    return found


# -- an independent reference for payments: every way to cover a cost, by brute force

def units_of(spec: list[str]) -> list[tuple[str, ...]]:
    """"wood/stone" -> ("wood", "stone")."""
    return [tuple(s.split("/")) for s in spec]


def brute_payments(need: list[str], own: list[tuple[str, ...]], left: list[tuple[str, ...]],
                   right: list[tuple[str, ...]], left_price: dict[str, int],
                   right_price: dict[str, int]) -> set[tuple[int, int]]:
    """Every Pareto-minimal (to left, to right) payment, found by trying every assignment of each
    needed resource to a distinct unit of production (own ones free, a neighbour's at its price).
    Each unit yields one of its resources once."""
    need = sorted(need)
    sources = [(0, 0, u) for u in own] + [(left_price, 0, u) for u in left] + [(0, right_price, u) for u in right]

    @lru_cache(maxsize=None)
    def ways(i: int, used: int, lowest: int) -> frozenset:
        if i == len(need):
            return frozenset({(0, 0)})
        resource, out = need[i], set()
        for j, (lp, rp, unit) in enumerate(sources):
            if used >> j & 1 or resource not in unit or j < lowest:
                continue
            cost = (lp[resource] if lp else 0, rp[resource] if rp else 0)
            # the same resource again only takes later units: each set of units is tried once
            nxt = j + 1 if i + 1 < len(need) and need[i + 1] == resource else 0
            out |= {(cost[0] + a, cost[1] + b) for a, b in ways(i + 1, used | 1 << j, nxt)}
        return frozenset(out)

    results = ways(0, 0, 0)
    return {p for p in results if not any(q != p and q[0] <= p[0] and q[1] <= p[1] for q in results)}

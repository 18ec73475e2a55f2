"""Helpers for the 7 Wonders Architects rules tests: positions built by hand, played through the interface.

A position starts from a real deal (`table`), with each seat's wonder chosen by the test; cities, decks,
the central deck, the cat and the conflict tokens are then set directly, and turns are played with
`legal_actions` and `apply` like any client would.

Seats are clockwise: the left neighbour of seat i is seat i+1, the right one seat i-1. Seat i's own deck
lies between it and its left neighbour, so seat i takes from `deck@i` (on its left) and `deck@{i-1}` (on
its right). In every list of card ids given to these helpers for a deck, the first id is the top card.
"""

from __future__ import annotations

from collections import Counter
from functools import partial

import helpers
from wonderforge.interpreter import State
from wonderforge.interpreter.core.holdings import GIVEN, Player

PACK = "architects"
CITY, DECK, CENTRAL, DISCARD = "city", "deck", "central_deck", "discard"
MARKET, STACK = "progress_market", "progress_stack"
WONDERS = ("alexandria", "babylon", "ephesus", "giza", "halicarnassus", "olympia", "rhodes")
GREY = ("wood", "stone", "clay", "glass", "papyrus")
GREEN = ("gear", "compass", "tablet")
RED = ("red_0_horn", "red_1_horn", "red_2_horn")

# Deck compositions (../shared/reference/architects.yaml `deck_composition`), in this column order.
DECK_COLUMNS = ("gold", "stone", "clay", "wood", "glass", "papyrus", "gear", "compass", "tablet",
                "blue_vp3", "blue_vp2_cat", "red_0_horn", "red_1_horn", "red_2_horn")
DECK_COUNTS = {
    "central": (6, 4, 4, 4, 4, 4, 4, 4, 4, 4, 8, 4, 4, 2),
    "alexandria": (4, 2, 2, 2, 1, 2, 2, 1, 1, 2, 2, 2, 1, 1),
    "babylon": (3, 1, 2, 2, 2, 2, 2, 2, 1, 2, 2, 2, 1, 1),
    "ephesus": (3, 2, 2, 2, 2, 2, 1, 2, 2, 1, 2, 2, 1, 1),
    "giza": (3, 2, 1, 2, 2, 2, 1, 2, 1, 2, 3, 2, 2, 0),
    "halicarnassus": (3, 2, 2, 2, 2, 1, 1, 1, 2, 2, 2, 2, 2, 1),
    "olympia": (3, 2, 2, 1, 2, 2, 1, 1, 2, 1, 3, 2, 2, 1),
    "rhodes": (2, 2, 2, 2, 2, 2, 2, 1, 1, 2, 2, 2, 2, 1),
}
# Points of each stage, stages 1 to 5 (`wonders[].stages[].vp`).
STAGE_POINTS = {
    "alexandria": (4, 3, 6, 5, 7),
    "babylon": (3, 0, 5, 5, 7),
    "ephesus": (3, 3, 4, 5, 7),
    "giza": (4, 5, 6, 7, 8),
    "halicarnassus": (3, 3, 6, 5, 7),
    "olympia": (3, 2, 5, 5, 7),
    "rhodes": (4, 4, 5, 6, 7),
}
# Progress tokens and their copies (15 in all: Culture comes twice).
PROGRESS_TOKENS = {"urbanism": 1, "crafts": 1, "jewellery": 1, "science": 1, "propaganda": 1, "architecture": 1,
                   "economy": 1, "engineering": 1, "tactics": 1, "decor": 1, "politics": 1, "strategy": 1,
                   "education": 1, "culture": 2}


def deck_counts(name: str) -> Counter:
    """The cards of a wonder's own deck, or of the central deck (`central`), by id."""
    return Counter({c: n for c, n in zip(DECK_COLUMNS, DECK_COUNTS[name]) if n})


# The shared helpers of tests/helpers.py, bound to this pack.
game_for = partial(helpers.game_for, PACK)
dealt = partial(helpers.dealt, PACK)
random_game = partial(helpers.random_game, PACK)


def card(state: State, card_id: str):
    return state.game.catalogue.cards[card_id]


def token(state: State, token_id: str):
    return state.game.catalogue.others["progress"][token_id]


def table(*wonders: str, seed: int = 0) -> State:
    """A fresh deal whose seat i plays `wonders[i]` with that wonder's own shuffled 25-card deck,
    entered as setup enters it; seat 0 is about to take its first card."""
    return helpers.table(PACK, wonders, seat_wonder, seed)


def seat_wonder(state: State, seat: int, wonder: str) -> None:
    """Seat `wonder` at `seat` with its own shuffled deck and an empty city, entered as setup enters it."""
    game, flow = state.game, state.game.flow
    side = game.catalogue.sides[wonder, ""]
    deck = game.cards(side.deck)
    state.rng.shuffle(deck)
    state.players[seat] = Player(dict(game.start_counters), {CITY: [], DECK: deck}, side=side,
                                 wonder_size=len(side.stages), prices=game.start_prices)
    state.enter(seat, flow.everyone)
    state.enter(seat, side.board)


def begin_turn(state: State, seat: int) -> None:
    """Start `seat`'s turn now (after a position was edited by hand): its take comes first."""
    state.queue = []
    state.battle = False
    state.game.flow.start_turn(state, seat)
    state.legal = {}


def give(state: State, seat: int, *card_ids: str) -> None:
    """Put cards into a city as if taken earlier (their effects apply, their icons do not act)."""
    for cid in card_ids:
        piece = card(state, cid)
        state.players[seat].zones[CITY].append(piece)
        state.enter(seat, piece)
    state.legal = {}


def give_tokens(state: State, seat: int, *token_ids: str) -> None:
    """Progress tokens held from earlier turns (taken out of the market and stack first)."""
    for tid in token_ids:
        piece = token(state, tid)
        for zone in (MARKET, STACK):
            found = next((t for t in state.shared[zone] if t.id == tid), None)
            if found is not None:
                state.shared[zone].remove(found)
                piece = found
                break
        state.players[seat].zones.setdefault("progress", []).append(piece)
        state.enter(seat, piece)
    state.legal = {}


def raise_stages(state: State, seat: int, *numbers: int) -> None:
    """Wonder stages built earlier (1-based numbers); their effects apply now."""
    player = state.players[seat]
    for number in numbers:
        player.raised.add(number - 1)
        player.stages += 1
        state.enter(seat, player.side.stages[number - 1])
    state.legal = {}


def stack_deck(state: State, seat: int, *card_ids: str, keep: bool = True) -> None:
    """Put cards on top of seat's own deck, the first id on top (`keep=False`: they are the whole deck)."""
    zone = state.players[seat].zones[DECK]
    if not keep:
        zone.clear()
    zone.extend(card(state, cid) for cid in reversed(card_ids))
    state.legal = {}


def stack_central(state: State, *card_ids: str, keep: bool = True) -> None:
    zone = state.shared[CENTRAL]
    if not keep:
        zone.clear()
    zone.extend(card(state, cid) for cid in reversed(card_ids))
    state.legal = {}


def top(cards) -> str | None:
    return cards[-1].id if cards else None


def deck_top(state: State, seat: int) -> str | None:
    return top(state.players[seat].zones[DECK])


def city(state: State, seat: int) -> list[str]:
    return [c.id for c in state.players[seat].zones[CITY]]


def progress(state: State, seat: int) -> list[str]:
    return [t.id for t in state.players[seat].zones.get("progress", [])]


def market(state: State) -> list[str]:
    return [t.id for t in state.shared[MARKET]]


def discard_pile(state: State) -> list[str]:
    return [c.id for c in state.shared[DISCARD]]


def victories(state: State, seat: int) -> int:
    return sum(1 for kind, _, _ in state.players[seat].tokens if kind == "victory")


def shields(state: State, seat: int) -> int:
    return state.counter(seat, "shields")


def stage_choices(state: State, seat: int) -> dict[str, set[tuple[str, ...]]]:
    """Stage number -> the sets of cards (sorted ids) offered to pay for it."""
    out: dict[str, set[tuple[str, ...]]] = {}
    for a in state.legal_actions(seat):
        if a.verb == "stage":
            out.setdefault(a.choice, set()).add(tuple(sorted(a.spend)))
    return out


def takes(state: State, seat: int) -> set[tuple[str | None, str]]:
    """(card id or None, zone) of every take offered."""
    return {(a.card, a.choice) for a in state.legal_actions(seat) if a.verb == "take"}


def token_choices(state: State, seat: int) -> set[tuple[str | None, tuple[str, ...], str]]:
    """(token id or None, greens turned in, market or stack) of every token offered."""
    return {(a.card, tuple(sorted(a.spend)), a.choice) for a in state.legal_actions(seat) if a.verb == "token"}


def take(state: State, seat: int, zone: str, card_id: str | None = "auto") -> None:
    """Take the top card of `zone` ("deck@2", "central_deck"): the offered action for that zone
    (`card_id` picks one when several cards of the zone are offered)."""
    offered = [a for a in state.legal_actions(seat) if a.verb == "take" and a.choice == zone
               and (card_id == "auto" or a.card == card_id)]
    assert len(offered) == 1, f"take from {zone} ({card_id}) not offered once: {state.legal_actions(seat)}"
    state.apply(seat, offered[0])


def build_stage(state: State, seat: int, number: int, *spend: str) -> None:
    """Build stage `number` spending those cards (the offered action with that set of cards)."""
    offered = [a for a in state.legal_actions(seat)
               if a.verb == "stage" and a.choice == str(number) and sorted(a.spend) == sorted(spend)]
    assert len(offered) == 1, f"stage {number} spending {spend} not offered: {state.legal_actions(seat)}"
    state.apply(seat, offered[0])


def finish_turn(state: State, seat: int) -> None:
    """Carry out the seat's remaining duties with the first offered action until its turn is over."""
    for _ in range(50):
        if state.is_terminal() or state.current_players() != [seat] or state.active != seat:
            return
        state.apply(seat, state.legal_actions(seat)[0])
    raise AssertionError("the turn never ended")


def all_cards(state: State) -> Counter:
    """Every card of the game by id, wherever it is: decks, central deck, discard, cities, and
    cards given face down (Medals' Rome)."""
    found = Counter()
    for player in state.players:
        for zone in (CITY, DECK, GIVEN):
            found.update(c.id for c in player.zones.get(zone, ()))
        found.update(c.id for c in player.tucked)
    for name in (CENTRAL, DISCARD):
        found.update(c.id for c in state.shared.get(name, ()))
    return found


def all_tokens(state: State) -> Counter:
    found = Counter(t.id for name in (MARKET, STACK) for t in state.shared.get(name, ()))
    for player in state.players:
        found.update(t.id for t in player.zones.get("progress", ()))
    return found


def finished(*holdings: dict, game=None) -> State:
    """A finished position from what each seat holds (see Turns.arrange), in `game` (by default a
    base game for that many players)."""
    return helpers.finished(game or game_for(len(holdings)), holdings)




def take_card(state: State, seat: int, card_id: str) -> None:
    """The seat takes `card_id` from its left deck (the card is put on top of it first)."""
    stack_deck(state, seat, card_id)
    take(state, seat, f"deck@{seat}")


def turn_passed(state: State, seat: int) -> bool:
    """Whether the seat's turn is over (the game moved on to the next seat, or ended)."""
    return state.is_terminal() or state.current_players() != [seat]


def seen_ids(zone) -> list[str]:
    """The card or token ids an observation shows of an open zone (a list, or a mapping with `cards`)."""
    return list(zone["cards"]) if isinstance(zone, dict) else list(zone)


def payable_stages(state: State, seat: int) -> list[int]:
    """An independent check: the available stages (1-based) the seat's grey and yellow cards pay for,
    a gold coin standing in for any one resource (without the Engineering and Economy tokens)."""
    player = state.players[seat]
    held = Counter(c.id for c in player.zones[CITY])
    gold = held["gold"]
    kinds = [held[r] for r in GREY if held[r]]
    out = []
    for i, stage in enumerate(player.side.stages):
        if i in player.raised or not set(stage.requires) <= player.raised:
            continue
        (kind, n), = stage.cost.kinds
        have = max(kinds, default=0) if kind == "identical" else len(kinds)
        if min(have, n) + gold >= n:
            out.append(i + 1)
    return out


def science_set(state: State, seat: int) -> bool:
    """Whether the seat's green cards hold 2 identical or 3 different symbols."""
    held = Counter(c.id for c in state.players[seat].zones[CITY] if c.id in GREEN)
    return len(held) == 3 or any(n >= 2 for n in held.values())

"""7 Wonders Architects, played through the engine's interface and checked against the rule book.

Source: ../shared/seeds/000_ddfe29b2f1dabbc1.txt (the French rule sheet: set-up, turn, card colours,
building stages, the cat, progress tokens, battles, end of the game, the 2-player battle, the wonder and
progress effects); numbers (decks, stage points, conflict tokens) from ../shared/reference/architects.yaml.
Seats are clockwise: the left neighbour of seat i is seat i+1, the right one seat i-1; seat i's own deck
lies between it and its left neighbour, so seat i takes from `deck@i` (left) and `deck@{i-1}` (right).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import helpers
from architects_helpers import (
    CENTRAL,
    CITY,
    DECK,
    MARKET,
    STACK,
    PROGRESS_TOKENS,
    STAGE_POINTS,
    WONDERS,
    all_cards,
    all_tokens,
    begin_turn,
    build_stage,
    card,
    city,
    dealt,
    deck_counts,
    deck_top,
    discard_pile,
    finish_turn,
    finished,
    give,
    give_tokens,
    market,
    payable_stages,
    progress,
    science_set,
    raise_stages,
    seat_wonder,
    random_game,
    seen_ids,
    shields,
    stack_central,
    stack_deck,
    stage_choices,
    table,
    take,
    take_card,
    takes,
    token,
    token_choices,
    top,
    turn_passed,
    victories,
)
from wonderforge.interpreter import Action, load_game

CATEGORIES = ["wonder", "cat", "blue", "military", "progress", "medals"]
CONFLICT_TOKENS = {2: 3, 3: 3, 4: 4, 5: 5, 6: 6, 7: 6}  # rule book, "Mise en place"
WONDER_TOTALS = {"giza": 30, "rhodes": 26, "alexandria": 25, "halicarnassus": 24, "olympia": 22,
                 "ephesus": 22, "babylon": 20}


def only_stack(state, *token_ids: str) -> None:
    """The face-down stack holds exactly these tokens, the first on top."""
    state.shared[STACK] = [token(state, t) for t in token_ids]
    state.legal = {}


# ---------------------------------------------------------------- set-up

@pytest.mark.parametrize("n", range(2, 8))
def test_setup_each_wonder_has_its_own_25_card_deck_face_up(n):
    state = dealt(n, 40 + n)
    wonders = [p.side.wonder for p in state.players]
    assert len(set(wonders)) == n and set(wonders) <= set(WONDERS)
    for seat, player in enumerate(state.players):
        assert Counter(c.id for c in player.zones[DECK]) == deck_counts(player.side.wonder)
        assert player.zones[CITY] == []
    for viewer in range(n):  # face up: everybody sees the top of every wonder deck
        seen = state.observation(viewer)["players"]
        assert [p["zones"][DECK]["top"] for p in seen] == [deck_top(state, s) for s in range(n)]
        assert [p["zones"][DECK]["size"] for p in seen] == [25] * n


@pytest.mark.parametrize("n", [2, 4, 7])
def test_setup_the_central_deck_holds_the_60_neutral_cards_face_down(n):
    state = dealt(n, 7)
    assert len(state.shared[CENTRAL]) == 60
    assert Counter(c.id for c in state.shared[CENTRAL]) == deck_counts("central")
    assert state.shared["discard"] == []
    for viewer in range(n):
        assert state.observation(viewer)["shared"][CENTRAL] == {"size": 60, "top": None}


@pytest.mark.parametrize("n", [2, 5])
def test_setup_three_progress_tokens_face_up_and_the_rest_in_the_stack(n):
    state = dealt(n, 3)
    assert len(state.shared[MARKET]) == 3
    assert len(state.shared[STACK]) == 12
    every = all_tokens(state)
    assert sum(every.values()) == 15
    assert every == Counter(PROGRESS_TOKENS)
    assert all(progress(state, s) == [] for s in range(n))
    obs = state.observation(0)["shared"]
    assert seen_ids(obs[MARKET]) == market(state)
    assert obs[STACK] == {"size": 12}


@pytest.mark.parametrize("n,tokens", sorted(CONFLICT_TOKENS.items()))
def test_setup_conflict_tokens_by_player_count_on_their_peace_side(n, tokens):
    state = dealt(n, 1)
    assert state.flips["conflict"] == (tokens, 0)


@pytest.mark.parametrize("n", [2, 6])
def test_setup_nobody_holds_the_cat(n):
    state = dealt(n, 2)
    assert state.pawns == {"cat": None}
    assert all(p["pawns"] == {"cat": None} for p in (state.observation(s) for s in range(n)))


@pytest.mark.parametrize("n", range(2, 8))
def test_seat_zero_plays_first_then_clockwise(n):
    state = dealt(n, 60 + n)
    order = []
    while len(order) < 2 * n + 1 and not state.is_terminal():
        seat = state.current_players()
        assert len(seat) == 1, "one player at a time"
        if not order or order[-1] != seat[0]:
            order.append(seat[0])
        state.apply(seat[0], state.legal_actions(seat[0])[0])
    assert order[:2 * n + 1] == [i % n for i in range(2 * n + 1)]


# ---------------------------------------------------------------- the three cards on offer

@pytest.mark.parametrize("n", range(2, 8))
def test_the_three_cards_on_offer_are_left_deck_right_deck_and_central_deck(n):
    state = dealt(n, 5)
    for seat in (0, n - 1):
        begin_turn(state, seat)
        left, right = f"deck@{seat}", f"deck@{(seat - 1) % n}"
        assert takes(state, seat) == {(deck_top(state, seat), left),
                                      (deck_top(state, (seat - 1) % n), right),
                                      (None, CENTRAL)}
        assert all(a.verb == "take" for a in state.legal_actions(seat))


@pytest.mark.parametrize("side", ["left", "right", "central"])
def test_the_card_taken_is_the_top_of_that_deck_and_goes_in_front_of_the_player(side):
    state = table("giza", "rhodes", "olympia", "ephesus")
    stack_deck(state, 0, "blue_vp3")
    stack_deck(state, 3, "red_0_horn")
    stack_central(state, "papyrus")
    zone = {"left": "deck@0", "right": "deck@3", "central": CENTRAL}[side]
    expected = {"left": "blue_vp3", "right": "red_0_horn", "central": "papyrus"}[side]
    sizes = {"deck@0": 26, "deck@3": 26, CENTRAL: 61}
    take(state, 0, zone)
    assert city(state, 0) == [expected]
    now = {"deck@0": len(state.players[0].zones[DECK]), "deck@3": len(state.players[3].zones[DECK]),
           CENTRAL: len(state.shared[CENTRAL])}
    assert now == {z: size - (z == zone) for z, size in sizes.items()}
    assert state.current_players() == [1]


def test_an_empty_deck_is_not_offered_and_stays_empty():
    state = table("giza", "rhodes", "olympia")
    state.players[0].zones[DECK].clear()
    state.legal = {}
    assert takes(state, 0) == {(deck_top(state, 2), "deck@2"), (None, CENTRAL)}
    take(state, 0, CENTRAL)
    finish_turn(state, 0)
    # seat 1 has seat 0's deck on its right: it is not offered either
    assert {zone for _, zone in takes(state, 1)} == {"deck@1", CENTRAL}
    for _ in range(6):
        seat = state.current_players()[0]
        assert "deck@0" not in {zone for _, zone in takes(state, seat)}
        state.apply(seat, state.legal_actions(seat)[0])
        finish_turn(state, seat)
        assert state.players[0].zones[DECK] == []


def test_an_empty_central_deck_is_not_refilled_from_the_discard():
    state = table("giza", "rhodes", "olympia")
    state.shared[CENTRAL].clear()
    state.shared["discard"] += [card(state, "wood"), card(state, "gear")]
    state.legal = {}
    assert CENTRAL not in {zone for _, zone in takes(state, 0)}
    take_card(state, 0, "blue_vp3")
    assert state.shared[CENTRAL] == []
    assert discard_pile(state) == ["wood", "gear"]
    assert CENTRAL not in {zone for _, zone in takes(state, 1)}


def test_the_central_top_is_hidden_from_a_player_without_the_cat():
    state = table("giza", "rhodes", "olympia")
    stack_central(state, "blue_vp3")
    assert (None, CENTRAL) in takes(state, 0)
    assert not any(a.card == "blue_vp3" and a.choice == CENTRAL for a in state.legal_actions(0))
    for viewer in range(3):
        assert state.observation(viewer)["shared"][CENTRAL]["top"] is None
    take(state, 0, CENTRAL)
    assert city(state, 0) == ["blue_vp3"]


def test_the_cat_holder_looks_at_the_central_top_during_its_turn_only():
    state = table("giza", "rhodes", "olympia")
    state.pawns["cat"] = 1
    stack_central(state, "clay")
    begin_turn(state, 1)
    assert ("clay", CENTRAL) in takes(state, 1)
    assert state.observation(1)["shared"][CENTRAL]["top"] == "clay"
    assert state.observation(0)["shared"][CENTRAL]["top"] is None
    assert state.observation(2)["shared"][CENTRAL]["top"] is None
    # on another player's turn the holder sees nothing, and neither does that player
    begin_turn(state, 2)
    assert (None, CENTRAL) in takes(state, 2)
    assert all(state.observation(s)["shared"][CENTRAL]["top"] is None for s in range(3))


def test_the_cat_holder_sees_only_the_card_it_looked_at_not_the_next_one():
    # "au début de votre tour, vous pouvez secrètement regarder la première carte de la pioche centrale":
    # once that card is taken, the card under it was never looked at.
    state = table("giza", "rhodes", "olympia")
    state.pawns["cat"] = 0
    stack_central(state, "wood", "blue_vp3")
    give_tokens(state, 0, "urbanism")
    begin_turn(state, 0)
    take(state, 0, CENTRAL, "wood")  # urbanism: one more card
    assert (None, CENTRAL) in takes(state, 0)
    assert state.observation(0)["shared"][CENTRAL]["top"] is None


# ---------------------------------------------------------------- building stages with grey and yellow cards

STAGE_PAYMENTS = [
    # (id, stages built, city before the take, card taken, stage -> ways to pay)
    ("2_different", (), ("stone",), "wood", {"1": {("stone", "wood")}}),
    ("2_different_gold_fills_the_missing_one", (), ("stone", "stone"), "gold", {"1": {("gold", "stone")}}),
    ("2_different_gold_not_spent_when_not_missing", (), ("stone", "wood"), "gold", {"1": {("stone", "wood")}}),
    ("2_different_not_with_2_alike", (), ("stone",), "stone", {}),
    ("2_identical", (1,), ("clay",), "clay", {"2": {("clay", "clay")}}),
    ("2_identical_gold_fills", (1,), ("clay",), "gold", {"2": {("clay", "gold")}}),
    ("2_identical_not_with_2_different", (1,), ("clay",), "wood", {}),
    ("2_identical_gold_only_for_what_is_missing", (1,), ("clay", "gold"), "gold", {"2": {("clay", "gold")}}),
    ("3_different", (1, 2), ("wood", "stone"), "clay", {"3": {("clay", "stone", "wood")}}),
    ("3_different_two_golds", (1, 2), ("wood", "gold"), "gold", {"3": {("gold", "gold", "wood")}}),
    ("3_different_not_with_a_pair", (1, 2), ("wood", "stone"), "stone", {}),
    ("3_identical", (1, 2, 3), ("glass", "glass"), "glass", {"4": {("glass", "glass", "glass")}}),
    ("3_identical_gold_fills", (1, 2, 3), ("glass", "glass", "papyrus"), "gold",
     {"4": {("glass", "glass", "gold")}}),
    ("3_identical_not_with_2_alike", (1, 2, 3), ("glass", "glass"), "papyrus", {}),
    ("4_different", (1, 2, 3, 4), ("wood", "stone", "clay"), "glass", {"5": {("clay", "glass", "stone", "wood")}}),
    ("4_different_not_with_3_kinds", (1, 2, 3, 4), ("wood", "stone", "clay"), "clay", {}),
]


@pytest.mark.parametrize("built,before,taken,ways", [p[1:] for p in STAGE_PAYMENTS],
                         ids=[p[0] for p in STAGE_PAYMENTS])
def test_stage_costs_paid_with_grey_cards_and_gold_as_a_wild_for_missing_resources(built, before, taken, ways):
    state = table("giza", "rhodes", "olympia")
    raise_stages(state, 0, *built)
    give(state, 0, *before)
    take_card(state, 0, taken)
    assert stage_choices(state, 0) == ways
    assert turn_passed(state, 0) == (not ways)


AVAILABLE = [
    ("alexandria", (), {"1"}), ("alexandria", (1,), {"2"}), ("alexandria", (1, 2, 3, 4), {"5"}),
    ("babylon", (1, 2), {"3"}), ("babylon", (1, 2, 3), {"4", "5"}), ("babylon", (1, 2, 3, 5), {"4"}),
    ("ephesus", (), {"1"}), ("ephesus", (1,), {"2", "3", "4"}), ("ephesus", (1, 3), {"2", "4"}),
    ("ephesus", (1, 2, 3), {"4"}), ("ephesus", (1, 2, 3, 4), {"5"}),
    ("giza", (1, 2), {"3"}),
    ("halicarnassus", (1,), {"2"}), ("halicarnassus", (1, 2), {"3", "4"}), ("halicarnassus", (1, 2, 3), {"4"}),
    ("halicarnassus", (1, 2, 4), {"3"}), ("halicarnassus", (1, 2, 3, 4), {"5"}),
    ("olympia", (1,), {"2", "3"}), ("olympia", (1, 2), {"3"}), ("olympia", (1, 2, 3), {"4"}),
    ("olympia", (1, 2, 3, 4), {"5"}),
    ("rhodes", (), {"1", "2"}), ("rhodes", (1,), {"2"}), ("rhodes", (2,), {"1"}), ("rhodes", (1, 2), {"3"}),
    ("rhodes", (1, 2, 3), {"4"}),
]


@pytest.mark.parametrize("wonder,built,available", AVAILABLE)
def test_a_stage_is_available_only_when_the_stages_it_rests_on_are_built(wonder, built, available):
    # With four gold coins every stage cost can be paid: what is offered is exactly what is available.
    state = table(wonder, *[w for w in WONDERS if w != wonder][:2])
    raise_stages(state, 0, *built)
    give(state, 0, "gold", "gold", "gold")
    take_card(state, 0, "gold")
    assert set(stage_choices(state, 0)) == available


def test_the_turns_take_comes_before_any_stage():
    state = table("giza", "rhodes", "olympia")
    give(state, 0, "stone", "wood")
    assert all(a.verb == "take" for a in state.legal_actions(0))
    take_card(state, 0, "blue_vp3")
    assert stage_choices(state, 0) == {"1": {("stone", "wood")}}


def test_building_a_payable_stage_is_mandatory_before_the_turn_ends():
    state = table("giza", "rhodes", "olympia")
    give(state, 0, "stone")
    take_card(state, 0, "wood")
    assert state.current_players() == [0]
    assert state.legal_actions(0) and all(a.verb == "stage" for a in state.legal_actions(0))
    build_stage(state, 0, 1, "stone", "wood")
    assert state.players[0].raised == {0}
    assert state.current_players() == [1]


def test_spent_cards_go_to_the_discard_and_unspent_ones_stay():
    state = table("giza", "rhodes", "olympia")
    give(state, 0, "stone", "gold", "blue_vp3")
    take_card(state, 0, "wood")
    build_stage(state, 0, 1, "stone", "wood")
    assert sorted(discard_pile(state)) == ["stone", "wood"]
    assert sorted(city(state, 0)) == ["blue_vp3", "gold"]


@pytest.mark.parametrize("first", [1, 2])
def test_several_stages_in_one_turn_in_the_order_chosen(first):
    state = table("rhodes", "giza", "olympia")
    give(state, 0, "stone", "clay", "clay")
    take_card(state, 0, "wood")
    ways = {1: ("stone", "wood"), 2: ("clay", "clay")}
    build_stage(state, 0, first, *ways[first])
    assert state.current_players() == [0]  # the other stage can still be paid: it must be built too
    second = 3 - first
    assert stage_choices(state, 0) == {str(second): {ways[second]}}
    build_stage(state, 0, second, *ways[second])
    assert state.players[0].raised == {0, 1}
    assert city(state, 0) == []
    assert sorted(discard_pile(state)) == ["clay", "clay", "stone", "wood"]
    assert state.current_players() == [1]


def test_a_new_stage_made_available_this_turn_must_be_built_too():
    state = table("giza", "rhodes", "olympia")
    give(state, 0, "stone", "wood", "clay")
    take_card(state, 0, "clay")
    build_stage(state, 0, 1, "stone", "wood")
    assert stage_choices(state, 0) == {"2": {("clay", "clay")}}
    build_stage(state, 0, 2, "clay", "clay")
    assert state.players[0].raised == {0, 1}
    assert state.current_players() == [1]


def test_a_stage_that_cannot_be_paid_is_not_built_and_the_turn_passes():
    state = table("giza", "rhodes", "olympia")
    give(state, 0, "stone")
    take_card(state, 0, "stone")
    assert state.current_players() == [1]
    assert state.players[0].raised == set()
    assert city(state, 0) == ["stone", "stone"]


# ---------------------------------------------------------------- green cards and progress tokens

def test_two_identical_symbols_force_a_progress_token():
    state = table("giza", "rhodes", "olympia")
    give(state, 0, "gear")
    take_card(state, 0, "gear")
    offered = token_choices(state, 0)
    assert offered == {(t, ("gear", "gear"), MARKET) for t in market(state)} | {(None, ("gear", "gear"), STACK)}
    assert state.current_players() == [0]
    assert all(a.verb == "token" for a in state.legal_actions(0))


def test_three_different_symbols_force_a_progress_token():
    state = table("giza", "rhodes", "olympia")
    give(state, 0, "gear", "compass")
    take_card(state, 0, "tablet")
    spent = ("compass", "gear", "tablet")
    assert token_choices(state, 0) == {(t, spent, MARKET) for t in market(state)} | {(None, spent, STACK)}
    assert state.current_players() == [0]


@pytest.mark.parametrize("before,taken", [(("gear",), "compass"), (("tablet", "blue_vp3"), "red_0_horn"), ((), "gear")])
def test_no_set_no_token(before, taken):
    state = table("giza", "rhodes", "olympia")
    give(state, 0, *before)
    take_card(state, 0, taken)
    assert token_choices(state, 0) == set()
    assert state.current_players() == [1]
    assert progress(state, 0) == []
    assert sorted(city(state, 0)) == sorted(before + (taken,))


def test_a_face_up_token_taken_is_replaced_at_once_from_the_stack():
    state = table("giza", "rhodes", "olympia")
    shown = market(state)
    only_stack(state, "education")
    give(state, 0, "tablet")
    take_card(state, 0, "tablet")
    chosen = shown[0]
    state.apply(0, Action("token", chosen, spend=("tablet", "tablet"), choice=MARKET))
    assert progress(state, 0) == [chosen]
    assert sorted(market(state)) == sorted(shown[1:] + ["education"])
    assert state.shared[STACK] == []
    assert state.current_players() == [1]


def test_the_token_on_top_of_the_stack_may_be_taken_instead():
    state = table("giza", "rhodes", "olympia")
    shown = market(state)
    only_stack(state, "strategy", "politics")
    give(state, 0, "compass")
    take_card(state, 0, "compass")
    state.apply(0, Action("token", None, spend=("compass", "compass"), choice=STACK))
    assert progress(state, 0) == ["strategy"]
    assert market(state) == shown
    assert [t.id for t in state.shared[STACK]] == ["politics"]


def test_greens_turned_in_for_a_token_go_to_the_discard():
    state = table("giza", "rhodes", "olympia")
    give(state, 0, "gear", "compass", "blue_vp3")
    take_card(state, 0, "tablet")
    state.apply(0, Action("token", None, spend=("compass", "gear", "tablet"), choice=STACK))
    assert city(state, 0) == ["blue_vp3"]
    assert sorted(discard_pile(state)) == ["compass", "gear", "tablet"]


def test_each_set_of_greens_gives_its_own_token():
    state = table("giza", "rhodes", "olympia")
    give(state, 0, "gear", "gear", "compass")
    take_card(state, 0, "compass")
    state.apply(0, Action("token", None, spend=("gear", "gear"), choice=STACK))
    assert state.current_players() == [0]  # compass + compass is a set too
    assert {spend for _, spend, _ in token_choices(state, 0)} == {("compass", "compass")}
    state.apply(0, Action("token", None, spend=("compass", "compass"), choice=STACK))
    assert len(progress(state, 0)) == 2
    assert city(state, 0) == []
    assert state.current_players() == [1]


# ---------------------------------------------------------------- blue cards and the cat

@pytest.mark.parametrize("holder", [None, 0, 1, 2])
def test_a_blue_card_with_the_cat_takes_the_cat_from_anyone(holder):
    state = table("giza", "rhodes", "olympia")
    state.pawns["cat"] = holder
    take_card(state, 0, "blue_vp2_cat")
    assert state.pawns["cat"] == 0


def test_a_blue_card_without_the_cat_leaves_the_cat_where_it_is():
    state = table("giza", "rhodes", "olympia")
    state.pawns["cat"] = 2
    take_card(state, 0, "blue_vp3")
    assert state.pawns["cat"] == 2


def test_the_new_cat_holder_looks_at_the_central_top_from_its_next_turn():
    state = table("giza", "rhodes", "olympia")
    stack_central(state, "gold")
    take_card(state, 0, "blue_vp2_cat")
    begin_turn(state, 0)
    assert ("gold", CENTRAL) in takes(state, 0)


# ---------------------------------------------------------------- red cards, conflict tokens and battles

@pytest.mark.parametrize("red,flipped", [("red_0_horn", 0), ("red_1_horn", 1), ("red_2_horn", 2)])
def test_horns_flip_conflict_tokens_to_their_battle_side(red, flipped):
    state = table("giza", "rhodes", "olympia", "ephesus")
    take_card(state, 0, red)
    assert state.flips["conflict"] == (4, flipped)
    assert shields(state, 0) == 1
    assert [victories(state, s) for s in range(4)] == [0, 0, 0, 0]


def test_horns_beyond_the_last_peace_token_are_ignored():
    state = table("giza", "rhodes", "olympia")
    state.flips["conflict"] = (3, 2)
    give(state, 0, "stone", "wood")  # a stage to build keeps the turn open
    take_card(state, 0, "red_2_horn")
    assert state.flips["conflict"] == (3, 3)
    assert [victories(state, s) for s in range(3)] == [0, 0, 0]  # the battle waits for the end of the turn
    build_stage(state, 0, 1, "stone", "wood")
    assert [victories(state, s) for s in range(3)] == [2, 0, 0]
    assert state.flips["conflict"] == (3, 0)


def test_flipping_the_last_token_starts_a_battle_for_everybody_at_the_end_of_the_turn():
    state = table("giza", "rhodes", "olympia")
    give(state, 0, "red_0_horn")
    give(state, 1, "red_0_horn", "red_2_horn")
    give(state, 2, "red_1_horn")
    state.flips["conflict"] = (3, 2)
    take_card(state, 0, "red_1_horn")
    # shields 2, 2, 1: seats 0 and 1 each beat seat 2, tie with each other
    assert [victories(state, s) for s in range(3)] == [1, 1, 0]
    assert state.current_players() == [1]


def test_a_battle_compares_each_player_with_both_neighbours_only():
    state = table("giza", "rhodes", "olympia", "ephesus", "babylon")
    give(state, 0, "red_0_horn", "red_0_horn")
    give(state, 1, "red_0_horn", "red_0_horn")
    give(state, 3, "red_0_horn")
    give(state, 4, "red_0_horn")
    state.flips["conflict"] = (5, 4)
    assert [shields(state, s) for s in range(5)] == [2, 2, 0, 1, 1]
    take_card(state, 0, "red_1_horn")
    # shields 3, 2, 0, 1, 1
    assert [victories(state, s) for s in range(5)] == [2, 1, 0, 1, 0]


def test_after_a_battle_horn_cards_are_discarded_and_hornless_ones_stay():
    state = table("giza", "rhodes", "olympia")
    give(state, 0, "red_0_horn", "red_2_horn", "blue_vp3")
    give(state, 1, "red_1_horn", "red_0_horn")
    give(state, 2, "red_2_horn")
    state.flips["conflict"] = (3, 2)
    take_card(state, 0, "red_1_horn")
    assert sorted(city(state, 0)) == ["blue_vp3", "red_0_horn"]
    assert city(state, 1) == ["red_0_horn"]
    assert city(state, 2) == []
    assert sorted(discard_pile(state)) == ["red_1_horn", "red_1_horn", "red_2_horn", "red_2_horn"]
    assert [shields(state, s) for s in range(3)] == [1, 1, 0]


def test_after_a_battle_the_conflict_tokens_go_back_to_peace():
    state = table("giza", "rhodes", "olympia")
    state.flips["conflict"] = (3, 2)
    take_card(state, 0, "red_1_horn")
    assert state.flips["conflict"] == (3, 0)
    take_card(state, 1, "red_2_horn")
    assert state.flips["conflict"] == (3, 2)
    assert [victories(state, s) for s in range(3)] == [2, 0, 0]


def test_horns_taken_after_the_last_flip_in_the_same_turn_are_lost():
    state = table("giza", "rhodes", "olympia")
    give_tokens(state, 0, "propaganda")  # a card with horns gives one more card
    state.flips["conflict"] = (3, 2)
    stack_deck(state, 0, "red_1_horn", "red_2_horn")
    take(state, 0, "deck@0")
    assert state.flips["conflict"] == (3, 3)
    take(state, 0, "deck@0")
    assert state.flips["conflict"] == (3, 0)  # one battle, and the new cycle starts from peace
    assert [victories(state, s) for s in range(3)] == [2, 0, 0]
    assert state.current_players() == [1]


@pytest.mark.parametrize("mine,theirs,won", [(2, 1, 2), (3, 2, 1), (4, 2, 2), (5, 2, 2), (2, 2, 0), (6, 3, 2),
                                             (5, 3, 1)])
def test_two_players_one_token_for_more_shields_two_for_at_least_twice_as_many(mine, theirs, won):
    state = table("giza", "rhodes")
    give(state, 0, *["red_0_horn"] * (mine - 1))
    give(state, 1, *["red_0_horn"] * theirs)
    state.flips["conflict"] = (3, 2)
    take_card(state, 0, "red_1_horn")
    assert [victories(state, 0), victories(state, 1)] == [won, 0]


def test_two_players_one_shield_against_none_is_at_least_twice_as_many():
    """« Si votre nombre de Boucliers est supérieur à celui de votre adversaire, prenez 1 jeton
    Victoire Militaire. Par contre, si vous avez au minimum 2 fois plus de Boucliers que votre
    adversaire, prenez 2 jetons Victoire Militaire au lieu d'un seul. » 1 is more than 0, and at
    least twice 0: two tokens (docs/rules-notes.md)."""
    state = table("giza", "rhodes")
    state.flips["conflict"] = (3, 2)
    assert [shields(state, 0), shields(state, 1)] == [0, 0]
    take_card(state, 0, "red_1_horn")  # 1 shield, and the last flip: a battle of 1 shield against none
    assert state.battles == 1
    assert [victories(state, 0), victories(state, 1)] == [2, 0]


def test_two_players_the_weaker_side_wins_nothing_whoever_starts_the_battle():
    state = table("giza", "rhodes")
    give(state, 0, "red_0_horn", "red_0_horn", "red_0_horn")
    state.flips["conflict"] = (3, 2)
    begin_turn(state, 1)
    take_card(state, 1, "red_1_horn")
    assert [victories(state, 0), victories(state, 1)] == [2, 0]


def test_rhodes_stage_shield_counts_in_battle():
    state = table("rhodes", "giza", "olympia")
    raise_stages(state, 0, 2)
    assert shields(state, 0) == 1
    state.flips["conflict"] = (3, 2)
    begin_turn(state, 1)
    take_card(state, 1, "red_1_horn")
    # Rhodes 1 (its stage), Giza 1 (the card), Olympia 0: Rhodes ties Giza and beats Olympia
    assert [victories(state, s) for s in range(3)] == [1, 1, 0]


def test_tactics_adds_two_shields_in_battle():
    state = table("giza", "rhodes", "olympia")
    give_tokens(state, 0, "tactics")
    give(state, 1, "red_0_horn", "red_0_horn")
    state.flips["conflict"] = (3, 2)
    take_card(state, 0, "red_1_horn")
    # shields 3 (a card and tactics), 2, 0
    assert [victories(state, s) for s in range(3)] == [2, 1, 0]
    assert shields(state, 0) == 2  # the horn card is discarded after the battle, tactics stays


# ---------------------------------------------------------------- wonder effects

def build_second_stage(state, seat: int = 0) -> None:
    """The seat, with stage 1 built and a stone in its city, takes a stone and builds stage 2 (2 identical)."""
    raise_stages(state, seat, 1)
    give(state, seat, "stone")
    if state.flow_state.active != seat:
        begin_turn(state, seat)
    take_card(state, seat, "stone")
    build_stage(state, seat, 2, "stone", "stone")


def test_alexandria_takes_the_top_card_of_any_deck_on_the_table():
    state = table("alexandria", "rhodes", "giza", "olympia")
    build_second_stage(state)
    assert state.current_players() == [0]
    assert takes(state, 0) == {(deck_top(state, s), f"deck@{s}") for s in range(4)} | {(None, CENTRAL)}
    across = deck_top(state, 2)
    take(state, 0, "deck@2")
    assert city(state, 0) == [across]
    assert state.current_players() == [1]


def test_babylon_takes_one_of_the_four_available_progress_tokens():
    state = table("babylon", "rhodes", "giza")
    shown = market(state)
    build_second_stage(state)
    assert token_choices(state, 0) == {(t, (), MARKET) for t in shown} | {(None, (), STACK)}
    state.apply(0, Action("token", shown[1], choice=MARKET))
    assert progress(state, 0) == [shown[1]]
    assert len(market(state)) == 3 and len(state.shared[STACK]) == 11
    assert state.current_players() == [1]


def test_ephesus_takes_the_top_card_of_the_central_deck():
    state = table("ephesus", "rhodes", "giza")
    stack_central(state, "blue_vp3")
    build_second_stage(state)
    assert takes(state, 0) == {(None, CENTRAL)}
    take(state, 0, CENTRAL)
    assert city(state, 0) == ["blue_vp3"]
    assert len(state.shared[CENTRAL]) == 60
    assert state.current_players() == [1]


def looks(state, seat: int) -> set[str]:
    """The zones offered to look into (the first step of a take from the top cards of one of several)."""
    return {a.choice for a in state.legal_actions(seat) if a.verb == "look"}


def halicarnassus_stage(state, right: bool = True) -> None:
    """Seat 0 (Halicarnassus) builds its stage 2, whose effect takes one of the top five cards (of
    its left deck, or of its right one, seat 3's, stacked too unless `right` is False)."""
    raise_stages(state, 0, 1)
    give(state, 0, "stone")
    stack_deck(state, 0, "stone", "wood", "clay", "wood", "glass", "papyrus", "blue_vp3")
    if right:
        stack_deck(state, 3, "gear", "gear", "red_0_horn", "gold", "tablet", "compass")
    take(state, 0, "deck@0")
    build_stage(state, 0, 2, "stone", "stone")


def test_halicarnassus_chooses_the_left_or_right_deck_then_keeps_one_of_its_top_five():
    """« Prenez les 5 premières cartes de la pioche à votre gauche ou à votre droite, choisissez-en 1
    et posez-la devant vous. Mélangez les cartes restantes dans leur pioche. »: one deck first, then
    one of its five cards; the other deck is not looked at."""
    state = table("halicarnassus", "rhodes", "giza", "olympia")
    halicarnassus_stage(state)
    assert looks(state, 0) == {"deck@0", "deck@3"} and takes(state, 0) == set()  # no card before a deck
    state.apply(0, Action("look", choice="deck@3"))
    assert state.current_players() == [0]
    assert takes(state, 0) == {(c, "deck@3") for c in ("gear", "red_0_horn", "gold", "tablet")}
    before = Counter(c.id for c in state.players[3].zones[DECK])
    take(state, 0, "deck@3", "gold")
    assert city(state, 0) == ["gold"]
    after = Counter(c.id for c in state.players[3].zones[DECK])
    assert before - after == Counter({"gold": 1}) and after - before == Counter()  # the other four go back
    assert [c.id for c in state.players[0].zones[DECK][-5:]] == ["papyrus", "glass", "wood", "clay", "wood"]
    assert state.current_players() == [1]


def test_halicarnassus_looks_only_into_the_deck_it_chose():
    """What the seat sees (`Decider.shows`, kept in a determinization): nothing of either deck below
    its face-up top before it chooses, then the top five of the deck chosen, and nothing of the other."""
    state = table("halicarnassus", "rhodes", "giza", "olympia")
    halicarnassus_stage(state)
    flow = state.game.flow
    assert flow.shown(state, 0) == []
    state.apply(0, Action("look", choice="deck@0"))
    [(cards, depth)] = flow.shown(state, 0)
    assert cards is state.players[0].zones[DECK] and depth == 5
    left_top_five = [c.id for c in state.players[0].zones[DECK][-5:]]
    for seed in range(5):
        guess = state.determinize(0, random.Random(seed))
        assert [c.id for c in guess.players[0].zones[DECK][-5:]] == left_top_five
        assert guess.legal_actions(0) == state.legal_actions(0)


def test_halicarnassus_with_one_deck_left_offers_its_cards_at_once():
    state = table("halicarnassus", "rhodes", "giza", "olympia")
    state.players[3].zones[DECK].clear()  # the right deck is empty: nothing to choose between
    halicarnassus_stage(state, right=False)
    assert looks(state, 0) == set()
    assert {c for c, _ in takes(state, 0)} == {"wood", "clay", "glass", "papyrus"}


def test_olympia_takes_the_top_card_of_the_left_deck_and_of_the_right_deck():
    state = table("olympia", "rhodes", "giza", "halicarnassus")
    raise_stages(state, 0, 1)
    give(state, 0, "stone")
    stack_deck(state, 0, "stone", "blue_vp3")
    stack_deck(state, 3, "papyrus")
    take(state, 0, "deck@0")
    build_stage(state, 0, 2, "stone", "stone")
    assert ("blue_vp3", "deck@0") in takes(state, 0)
    take(state, 0, "deck@0")
    assert state.current_players() == [0]
    assert takes(state, 0) == {("papyrus", "deck@3")}
    take(state, 0, "deck@3")
    assert sorted(city(state, 0)) == ["blue_vp3", "papyrus"]
    assert state.current_players() == [1]


def test_olympia_with_an_empty_left_deck_still_takes_the_right_one():
    state = table("olympia", "rhodes", "giza")
    raise_stages(state, 0, 1)
    give(state, 0, "stone")
    stack_deck(state, 0, "stone", keep=False)  # the left deck holds one last card
    stack_deck(state, 2, "papyrus")
    take(state, 0, "deck@0")
    build_stage(state, 0, 2, "stone", "stone")
    assert takes(state, 0) == {("papyrus", "deck@2")}
    take(state, 0, "deck@2")
    assert city(state, 0) == ["papyrus"]
    assert state.players[0].zones[DECK] == []
    assert state.current_players() == [1]


@pytest.mark.parametrize("stage,gained", [(1, 0), (2, 1)])
def test_rhodes_stage_adds_a_shield(stage, gained):
    state = table("rhodes", "giza", "olympia")
    give(state, 0, "stone")
    take_card(state, 0, "stone" if stage == 2 else "wood")
    build_stage(state, 0, stage, "stone", "stone" if stage == 2 else "wood")
    assert shields(state, 0) == gained


def test_rhodes_fourth_stage_adds_another_shield():
    state = table("rhodes", "giza", "olympia")
    raise_stages(state, 0, 1, 2, 3)
    give(state, 0, "glass", "glass")
    take_card(state, 0, "glass")
    build_stage(state, 0, 4, "glass", "glass", "glass")
    assert shields(state, 0) == 2


def test_giza_stages_have_no_effect():
    state = table("giza", "rhodes", "olympia")
    build_second_stage(state)
    assert state.current_players() == [1]
    assert city(state, 0) == [] and progress(state, 0) == [] and shields(state, 0) == 0


# ---------------------------------------------------------------- progress tokens during play

EXTRA_CARD = [("urbanism", "wood"), ("urbanism", "clay"), ("crafts", "glass"), ("crafts", "papyrus"),
              ("jewellery", "stone"), ("jewellery", "gold"), ("science", "gear"), ("science", "tablet"),
              ("propaganda", "red_1_horn"), ("propaganda", "red_2_horn")]
NO_EXTRA_CARD = [("urbanism", "stone"), ("urbanism", "gold"), ("crafts", "wood"), ("jewellery", "glass"),
                 ("science", "blue_vp3"), ("propaganda", "red_0_horn"), ("propaganda", "blue_vp2_cat")]


@pytest.mark.parametrize("tid,taken", EXTRA_CARD)
def test_progress_token_gives_one_more_card_of_the_three_on_taking_its_kind(tid, taken):
    state = table("giza", "rhodes", "olympia")
    give_tokens(state, 0, tid)
    stack_deck(state, 2, "blue_vp3")
    take_card(state, 0, taken)
    assert state.current_players() == [0]
    assert takes(state, 0) == {(deck_top(state, 0), "deck@0"), ("blue_vp3", "deck@2"), (None, CENTRAL)}
    take(state, 0, "deck@2")
    assert city(state, 0) == [taken, "blue_vp3"]
    assert state.current_players() == [1]


@pytest.mark.parametrize("tid,taken", NO_EXTRA_CARD)
def test_progress_token_gives_nothing_on_taking_another_kind(tid, taken):
    state = table("giza", "rhodes", "olympia")
    give_tokens(state, 0, tid)
    take_card(state, 0, taken)
    assert state.current_players() == [1]
    assert city(state, 0) == [taken]


def test_a_progress_token_is_used_once_per_turn():
    state = table("giza", "rhodes", "olympia")
    give_tokens(state, 0, "urbanism")
    stack_deck(state, 0, "wood", "wood")
    take(state, 0, "deck@0")
    take(state, 0, "deck@0")  # the extra card is wood again: no third card this turn
    assert state.current_players() == [1]
    begin_turn(state, 0)  # a later turn: it works again
    take_card(state, 0, "wood")
    assert state.current_players() == [0] and takes(state, 0)


def test_two_take_tokens_each_give_their_card_in_one_turn():
    state = table("giza", "rhodes", "olympia")
    give_tokens(state, 0, "urbanism", "crafts")
    raise_stages(state, 0, 1, 2, 3, 4)  # only 4 different resources could be built now
    stack_deck(state, 0, "wood", "glass", "blue_vp3")
    take(state, 0, "deck@0")
    take(state, 0, "deck@0")
    assert state.current_players() == [0]
    take(state, 0, "deck@0")
    assert city(state, 0) == ["wood", "glass", "blue_vp3"]
    assert state.current_players() == [1]


def test_architecture_gives_a_card_when_a_stage_is_built_once_per_turn():
    state = table("rhodes", "giza", "olympia")
    give_tokens(state, 0, "architecture")
    give(state, 0, "stone", "clay", "clay")
    take_card(state, 0, "wood")
    assert state.current_players() == [0] and not takes(state, 0)
    build_stage(state, 0, 1, "stone", "wood")
    assert takes(state, 0) == {(deck_top(state, 0), "deck@0"), (deck_top(state, 2), "deck@2"), (None, CENTRAL)}
    build_stage(state, 0, 2, "clay", "clay")
    stack_deck(state, 0, "blue_vp3")
    state.legal = {}
    take(state, 0, "deck@0")
    assert "blue_vp3" in city(state, 0)
    assert state.current_players() == [1]  # the second stage gave no second card


# « Économie : 1 carte Jaune en votre possession vous offre 2 Pièces au lieu d'une seule. » and, when
# building a stage, « Lorsque vous avez les Ressources nécessaires (cartes Gris et/ou Jaunes) pour
# construire une Étape disponible, défaussez-les ». A yellow card spent is worth 2 coins, and spent it is
# discarded; « Chacun de vos jetons Progrès ne peut être utilisé qu'une fois par tour »: one stage a turn.

def test_economy_one_gold_card_pays_two_coins_and_is_discarded():
    state = table("giza", "rhodes", "olympia")
    give_tokens(state, 0, "economy")
    give(state, 0, "blue_vp3")
    take_card(state, 0, "gold")
    # one card, worth two coins, stands in for the two different resources of stage 1
    assert stage_choices(state, 0) == {"1": {("gold",)}}
    build_stage(state, 0, 1, "gold")
    assert state.players[0].raised == {0}
    assert city(state, 0) == ["blue_vp3"] and discard_pile(state) == ["gold"]


def test_economy_a_gold_card_paying_one_coin_is_discarded_too():
    """The card is spent even when one of its two coins is enough (the other is lost)."""
    state = table("giza", "rhodes", "olympia")
    give_tokens(state, 0, "economy")
    give(state, 0, "stone")
    take_card(state, 0, "gold")
    assert stage_choices(state, 0) == {"1": {("gold", "stone")}}
    build_stage(state, 0, 1, "gold", "stone")
    assert city(state, 0) == [] and sorted(discard_pile(state)) == ["gold", "stone"]


def test_economy_makes_each_gold_card_worth_two_coins():
    state = table("giza", "rhodes", "olympia")
    give_tokens(state, 0, "economy")
    raise_stages(state, 0, 1, 2, 3, 4)
    give(state, 0, "gold", "gold")
    take_card(state, 0, "blue_vp3")
    # four coins from two cards pay the 4 different resources of stage 5
    assert stage_choices(state, 0) == {"5": {("gold", "gold")}}
    build_stage(state, 0, 5, "gold", "gold")
    assert city(state, 0) == ["blue_vp3"] and discard_pile(state) == ["gold", "gold"]


def test_without_economy_one_gold_card_is_one_coin():
    state = table("giza", "rhodes", "olympia")
    give(state, 0, "blue_vp3")
    take_card(state, 0, "gold")
    assert stage_choices(state, 0) == {}
    assert state.current_players() == [1]


@pytest.mark.parametrize("first,second", [
    (("gold",), {("gold", "gold")}),       # the token paid stage 1: stage 2 counts a gold card as one coin
    (("gold", "gold"), {("gold",)}),       # stage 1 paid without it: the token is left for stage 2
])
def test_economy_pays_one_stage_a_turn(first, second):
    state = table("rhodes", "giza", "olympia")  # Rhodes' stages 1 and 2 rest on nothing
    give_tokens(state, 0, "economy")
    give(state, 0, "gold", "gold", "gold")
    take_card(state, 0, "blue_vp3")
    assert stage_choices(state, 0) == {"1": {("gold",), ("gold", "gold")}, "2": {("gold",), ("gold", "gold")}}
    build_stage(state, 0, 1, *first)
    assert stage_choices(state, 0) == {"2": second}


def test_a_limited_production_pays_beside_cards_worth_more(tmp_path):
    """A mod's `produce stone once per turn` is one more unit for a payment that a `spend ... as`
    power helps: a gold card worth 2, a wood card and the stone pay 4 different resources."""
    (tmp_path / "pack.yaml").write_text("id: quarry\nname: Quarry\nversion: 1.0.0\nextends: architects\n")
    (tmp_path / "rules.yaml").write_text("player_effects:\n  - spend yellow card as 2 gold once per turn\n"
                                         "  - produce stone once per turn\n")
    state = helpers.table(str(tmp_path), ("giza", "rhodes", "olympia"), seat_wonder, 0)
    raise_stages(state, 0, 1, 2, 3, 4)
    give(state, 0, "gold", "wood")
    take_card(state, 0, "blue_vp3")
    assert stage_choices(state, 0) == {"5": {("gold", "stone", "wood")}}
    build_stage(state, 0, 5, "gold", "stone", "wood")
    assert city(state, 0) == ["blue_vp3"] and sorted(discard_pile(state)) == ["gold", "wood"]
    assert state.players[0].stages == 5


def test_economy_works_again_the_next_turn():
    state = table("rhodes", "giza", "olympia")
    give_tokens(state, 0, "economy")
    give(state, 0, "gold")
    take_card(state, 0, "blue_vp3")
    build_stage(state, 0, 1, "gold")
    assert state.current_players() == [1]
    begin_turn(state, 0)
    take_card(state, 0, "gold")
    assert stage_choices(state, 0) == {"2": {("gold",)}}


def test_engineering_ignores_different_and_identical_once_per_turn():
    state = table("giza", "rhodes", "olympia")
    give_tokens(state, 0, "engineering")
    give(state, 0, "stone", "stone", "wood", "clay")
    take_card(state, 0, "blue_vp3")
    assert ("stone", "stone") in stage_choices(state, 0)["1"]
    build_stage(state, 0, 1, "stone", "stone")
    # stage 2 (2 identical) with clay and wood would need the token a second time this turn
    assert stage_choices(state, 0) == {}
    assert state.current_players() == [1]
    begin_turn(state, 0)
    take_card(state, 0, "blue_vp3")
    assert ("clay", "wood") in stage_choices(state, 0)["2"]


def test_engineering_is_not_used_up_by_a_stage_paid_without_it():
    state = table("giza", "rhodes", "olympia")
    give_tokens(state, 0, "engineering")
    give(state, 0, "stone", "wood", "clay", "glass")
    take_card(state, 0, "blue_vp3")
    build_stage(state, 0, 1, "stone", "wood")
    assert state.current_players() == [0]
    assert stage_choices(state, 0) == {"2": {("clay", "glass")}}


def test_tactics_adds_two_shields():
    state = table("giza", "rhodes", "olympia")
    give(state, 0, "red_0_horn")
    give_tokens(state, 0, "tactics")
    assert shields(state, 0) == 3


# ---------------------------------------------------------------- end of the game

def test_the_game_ends_at_the_end_of_the_turn_in_which_a_wonder_is_completed():
    state = table("giza", "rhodes", "olympia")
    raise_stages(state, 0, 1, 2, 3, 4)
    give(state, 0, "wood", "stone", "clay", "glass", "gear")
    take_card(state, 0, "gear")
    build_stage(state, 0, 5, "clay", "glass", "stone", "wood")
    assert not state.is_terminal()  # the science set is still to be turned in: the turn goes on
    assert state.current_players() == [0]
    state.apply(0, Action("token", None, spend=("gear", "gear"), choice=STACK))
    assert state.is_terminal()
    assert state.current_players() == []
    assert all(state.legal_actions(s) == [] for s in range(3))


def test_the_game_goes_on_while_no_wonder_is_complete():
    state = table("giza", "rhodes", "olympia")
    raise_stages(state, 0, 1, 2, 3)
    give(state, 0, "glass", "glass")
    take_card(state, 0, "glass")
    build_stage(state, 0, 4, "glass", "glass", "glass")
    assert not state.is_terminal()
    assert state.current_players() == [1]


def test_the_other_players_get_no_more_turns_after_a_wonder_is_completed():
    state = table("rhodes", "giza", "olympia")
    begin_turn(state, 1)
    raise_stages(state, 1, 1, 2, 3, 4)
    give(state, 1, "wood", "stone", "clay")
    take_card(state, 1, "glass")
    build_stage(state, 1, 5, "clay", "glass", "stone", "wood")
    assert state.is_terminal()
    assert state.players[1].stages == 5
    assert state.scores()[1]["breakdown"]["wonder"] == 30


def test_the_last_turns_horn_starts_the_battle_before_the_end():
    state = table("giza", "rhodes", "olympia")
    raise_stages(state, 0, 1, 2, 3, 4)
    give(state, 0, "wood", "stone", "clay", "glass", "red_0_horn")
    give(state, 1, "red_0_horn")
    state.flips["conflict"] = (3, 2)
    take_card(state, 0, "red_1_horn")
    assert not state.is_terminal()
    build_stage(state, 0, 5, "clay", "glass", "stone", "wood")
    assert state.is_terminal()
    # shields 2, 1, 0
    assert [victories(state, s) for s in range(3)] == [2, 1, 0]
    assert city(state, 0) == ["red_0_horn"]
    assert state.scores()[0]["breakdown"]["military"] == 6


# ---------------------------------------------------------------- scoring

def test_score_categories_in_rule_book_order():
    state = finished({"wonder": "giza"}, {"wonder": "rhodes"})
    for entry in state.scores():
        assert list(entry["breakdown"]) == CATEGORIES


@pytest.mark.parametrize("wonder,total", sorted(WONDER_TOTALS.items()))
def test_a_complete_wonder_scores_its_total(wonder, total):
    state = finished({"wonder": wonder, "stages": [1, 2, 3, 4, 5]}, {"wonder": "giza"})
    assert state.scores()[0] == {"total": total, "breakdown": dict.fromkeys(CATEGORIES, 0) | {"wonder": total}}


@pytest.mark.parametrize("wonder", WONDERS)
def test_each_built_stage_scores_its_own_points(wonder):
    for number, points in enumerate(STAGE_POINTS[wonder], 1):
        state = finished({"wonder": wonder, "stages": [number]}, {"wonder": "giza"})
        assert state.scores()[0]["breakdown"]["wonder"] == points, (wonder, number)


def test_the_cat_scores_two_points():
    state = finished({"wonder": "giza", "pawns": ["cat"]}, {"wonder": "rhodes"})
    assert [s["breakdown"]["cat"] for s in state.scores()] == [2, 0]


def test_blue_cards_score_their_points():
    state = finished({"wonder": "giza", "cards": ["blue_vp3", "blue_vp3", "blue_vp2_cat", "gold", "red_0_horn"]},
                     {"wonder": "rhodes", "cards": ["blue_vp2_cat"]})
    assert [s["breakdown"]["blue"] for s in state.scores()] == [8, 2]
    assert [s["total"] for s in state.scores()] == [8, 2]


def test_military_victory_tokens_score_three_points_each():
    state = finished({"wonder": "giza", "tokens": [("victory", 1)] * 3}, {"wonder": "rhodes"})
    assert state.scores()[0]["breakdown"]["military"] == 9
    assert state.scores()[0]["total"] == 9


def test_points_won_in_play_count_at_the_end():
    state = table("giza", "rhodes", "olympia")
    state.flips["conflict"] = (3, 2)
    give(state, 0, "blue_vp3")
    take_card(state, 0, "red_1_horn")
    assert state.scores()[0]["breakdown"] == dict.fromkeys(CATEGORIES, 0) | {"blue": 3, "military": 6}


PROGRESS_POINTS = [
    ("decor_wonder_unfinished", {"stages": [1], "pieces": {"progress": ["decor"]}}, 4),
    ("decor_wonder_finished", {"stages": [1, 2, 3, 4, 5], "pieces": {"progress": ["decor"]}}, 6),
    ("politics_a_point_per_cat_icon", {"cards": ["blue_vp2_cat"] * 3 + ["blue_vp3"], "pieces": {"progress": ["politics"]}}, 3),
    ("politics_without_cat_cards", {"cards": ["blue_vp3"], "pieces": {"progress": ["politics"]}}, 0),
    ("strategy_a_point_per_victory_token", {"tokens": [("victory", 1)] * 4, "pieces": {"progress": ["strategy"]}}, 4),
    ("education_alone_counts_itself", {"pieces": {"progress": ["education"]}}, 2),
    ("education_two_per_token", {"pieces": {"progress": ["education", "tactics", "economy"]}}, 6),
    ("culture_one", {"pieces": {"progress": ["culture"]}}, 4),
    ("culture_both", {"pieces": {"progress": ["culture", "culture"]}}, 12),
    ("tokens_used_in_play_score_nothing", {"pieces": {"progress": ["tactics", "urbanism", "engineering"]}}, 0),
    ("all_together", {"stages": [1], "tokens": [("victory", 1)] * 2, "cards": ["blue_vp2_cat"],
                      "pieces": {"progress": ["decor", "politics", "strategy", "education", "culture", "culture"]}},
     4 + 1 + 2 + 12 + 12),
]


@pytest.mark.parametrize("holding,points", [p[1:] for p in PROGRESS_POINTS], ids=[p[0] for p in PROGRESS_POINTS])
def test_progress_tokens_score_at_the_end(holding, points):
    state = finished({"wonder": "giza"} | holding, {"wonder": "rhodes"})
    assert state.scores()[0]["breakdown"]["progress"] == points


def test_total_is_the_sum_of_every_category():
    state = finished({"wonder": "rhodes", "stages": [1, 2], "cards": ["blue_vp3"], "pawns": ["cat"],
                      "tokens": [("victory", 1)], "pieces": {"progress": ["culture"]}}, {"wonder": "giza"})
    assert state.scores()[0] == {"total": 8 + 2 + 3 + 3 + 4, "breakdown": {
        "wonder": 8, "cat": 2, "blue": 3, "military": 3, "progress": 4, "medals": 0}}


def test_the_highest_score_wins():
    state = finished({"wonder": "giza", "stages": [1]}, {"wonder": "rhodes", "stages": [1], "cards": ["blue_vp2_cat"]},
                     {"wonder": "olympia"})
    assert state.winners() == [1]


def test_a_tie_goes_to_the_player_with_more_stages():
    # 9 points each: Giza stages 1 and 2 (4 + 5) against Rhodes stage 1 (4) and 5 points of blue cards
    state = finished({"wonder": "giza", "stages": [1, 2]},
                     {"wonder": "rhodes", "stages": [1], "cards": ["blue_vp3", "blue_vp2_cat"]})
    assert [s["total"] for s in state.scores()] == [9, 9]
    assert state.winners() == [0]


def test_a_tie_on_stages_too_is_shared():
    state = finished({"wonder": "giza", "stages": [1], "cards": ["blue_vp3"]},
                     {"wonder": "rhodes", "stages": [2], "cards": ["blue_vp3"]},
                     {"wonder": "olympia", "stages": [1]})
    assert [s["total"] for s in state.scores()] == [7, 7, 3]
    assert state.winners() == [0, 1]


# ---------------------------------------------------------------- the interface

def test_same_seed_deals_the_same_game_and_replays_it():
    a = load_game("architects", players=4, seed=321).new_state()
    b = load_game("architects", players=4, seed=321).new_state()
    assert [p.side.wonder for p in a.players] == [p.side.wonder for p in b.players]
    assert all_cards(a) == all_cards(b)
    assert [c.id for c in a.shared[CENTRAL]] == [c.id for c in b.shared[CENTRAL]]
    assert [[c.id for c in p.zones[DECK]] for p in a.players] == [[c.id for c in p.zones[DECK]] for p in b.players]
    original = random_game(4, 321, 9)
    played = original.history
    again = dealt(4, 321)
    for seat, action in played:
        assert action in again.legal_actions(seat)
        again.apply(seat, action)
    assert again.is_terminal()
    assert again.scores() == original.scores()
    assert all(again.observation(s) == original.observation(s) for s in range(4))


def test_different_seeds_deal_different_games():
    a, b = dealt(3, 1), dealt(3, 2)
    assert ([c.id for c in a.shared[CENTRAL]] != [c.id for c in b.shared[CENTRAL]]
            or [p.side.wonder for p in a.players] != [p.side.wonder for p in b.players])


def test_legal_actions_come_in_a_stable_order():
    state = random_game(5, 17, 3, limit=30)
    seat = state.current_players()[0]
    assert state.legal_actions(seat) == state.clone().legal_actions(seat)
    assert len(set(state.legal_actions(seat))) == len(state.legal_actions(seat))


def test_only_the_player_whose_turn_it_is_may_act():
    state = dealt(3, 4)
    assert state.current_players() == [0]
    assert state.legal_actions(1) == [] and state.legal_actions(2) == []
    with pytest.raises(ValueError):
        state.apply(1, Action("take", None, choice=CENTRAL))


def test_clone_is_independent():
    state = random_game(3, 8, 8, limit=20)
    before = [state.observation(s) for s in range(3)]
    history = list(state.history)
    copy = state.clone()
    for _ in range(15):
        if copy.is_terminal():
            break
        seat = copy.current_players()[0]
        copy.apply(seat, copy.legal_actions(seat)[-1])
    assert copy.history != history
    assert [state.observation(s) for s in range(3)] == before
    assert state.history == history
    seat = state.current_players()[0]
    state.apply(seat, state.legal_actions(seat)[0])  # the original still plays on


def test_clone_in_the_middle_of_a_turn_is_independent():
    state = table("giza", "rhodes", "olympia")
    give(state, 0, "gear")
    take_card(state, 0, "gear")
    copy = state.clone()
    copy.apply(0, Action("token", None, spend=("gear", "gear"), choice=STACK))
    assert copy.current_players() == [1]
    assert state.current_players() == [0]
    assert city(state, 0) == ["gear", "gear"] and progress(state, 0) == []
    assert len(state.shared[STACK]) == 12


def test_observation_hides_the_central_deck_order_and_top():
    state = random_game(4, 12, 5, limit=10)
    state.pawns["cat"] = None
    state.peeks = set()
    state.legal = {}
    seen = [state.observation(s) for s in range(4)]
    shuffled = state.clone()
    central = shuffled.shared[CENTRAL]
    central.reverse()
    central.append(card(state, "blue_vp3" if top(state.shared[CENTRAL]) != "blue_vp3" else "gold"))
    central.pop(0)
    assert top(central) != top(state.shared[CENTRAL])
    assert [shuffled.observation(s) for s in range(4)] == seen
    assert all(o["shared"][CENTRAL] == {"size": len(central), "top": None} for o in seen)


def test_observation_hides_the_progress_stack_but_shows_its_size():
    state = dealt(3, 30)
    seen = [state.observation(s) for s in range(3)]
    assert seen[0]["shared"][STACK] == {"size": 12}
    shuffled = state.clone()
    shuffled.shared[STACK].reverse()
    assert [t.id for t in shuffled.shared[STACK]] != [t.id for t in state.shared[STACK]]
    assert [shuffled.observation(s) for s in range(3)] == seen


def test_observation_shows_what_is_public():
    state = table("giza", "rhodes", "olympia")
    give(state, 1, "blue_vp3", "gear")
    raise_stages(state, 1, 1)
    state.pawns["cat"] = 2
    state.legal = {}
    obs = state.observation(0)
    assert obs["players"][1]["wonder"] == "rhodes"
    assert obs["players"][1]["stages"] == [1]
    assert obs["players"][1]["zones"][CITY] == ["blue_vp3", "gear"]
    assert obs["pawns"] == {"cat": 2}
    assert obs["flips"] == {"conflict": [3, 0]}
    assert seen_ids(obs["shared"][MARKET]) == market(state)


@pytest.mark.parametrize("n", [2, 4, 7])
def test_total_is_the_sum_of_the_breakdown_after_a_random_game(n):
    state = random_game(n, 100 + n, n)
    assert state.is_terminal()
    assert any(p.stages == 5 for p in state.players)
    for entry in state.scores():
        assert entry["total"] == sum(entry["breakdown"].values())
        assert list(entry["breakdown"]) == CATEGORIES


# ---------------------------------------------------------------- random games keep the rules

@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 7), seed=st.integers(0, 2**31), choices=st.integers(0, 2**31))
def test_random_games_keep_the_invariants(players, seed, choices):
    state = dealt(players, seed)
    everything = all_cards(state)
    assert sum(everything.values()) == 25 * players + 60
    tokens = all_tokens(state)
    rng = random.Random(choices)
    steps = 0
    while not state.is_terminal():
        seats = state.current_players()
        assert len(seats) == 1, "one player at a time"
        seat = seats[0]
        actions = state.legal_actions(seat)
        assert actions and len(set(actions)) == len(actions)
        state.apply(seat, actions[rng.randrange(len(actions))])
        steps += 1
        if state.is_terminal() or state.current_players() != [seat]:  # the turn is over: no duty was left
            if not {"engineering", "economy"} & set(progress(state, seat)):
                assert payable_stages(state, seat) == [], "a stage that could be paid was not built"
            if state.shared[MARKET] or state.shared[STACK]:
                assert not science_set(state, seat), "a science set was not turned in"
        for other in range(players):
            if other != state.flow_state.active or state.pawns["cat"] != other:
                assert state.observation(other)["shared"][CENTRAL]["top"] is None
        assert steps < 1500
        assert all_cards(state) == everything  # every card in exactly one place
        assert all_tokens(state) == tokens
        assert len(state.shared[MARKET]) == min(3, sum(tokens.values()) - sum(
            len(progress(state, s)) for s in range(players)))
        total, flipped = state.flips["conflict"]
        assert total == CONFLICT_TOKENS[players] and 0 <= flipped <= total
    assert any(p.stages == 5 for p in state.players) or not any(
        state.players[s].zones[DECK] for s in range(players))
    for entry in state.scores():
        assert entry["total"] == sum(entry["breakdown"].values())

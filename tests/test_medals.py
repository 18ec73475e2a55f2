"""7 Wonders Architects: Medals, played through the engine's interface and checked against the rule sheet.

Source: ../shared/seeds/002_4f6e0b3bca0970fe.txt (the French rule sheet of the Medals expansion: set-up,
"Remporter une médaille", the experts variant, the 12 objectives, Rome, Ur and the new progress tokens),
over the base game's rules (../shared/seeds/000_ddfe29b2f1dabbc1.txt); numbers from
../shared/reference/architects_medals.yaml.

Seats are clockwise: the left neighbour of seat i is seat i+1, the right one seat i-1. The medal between
seat i and seat i+1 lies in the shared zone `medals@i`; the experts' middle medals lie in `medals`; a
claimed medal goes to its winner's zone `medals`. A card Rome gives face down waits in the receiver's
zone `given` until the start of their next turn.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import partial

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from architects_helpers import (
    CENTRAL,
    CITY,
    DISCARD,
    MARKET,
    STACK,
    all_cards,
    all_tokens,
    finished as base_finished,
    begin_turn,
    build_stage,
    city,
    deck_top,
    discard_pile,
    give,
    give_tokens,
    raise_stages,
    seat_wonder,
    shields,
    stack_central,
    take,
    take_card,
    takes,
    top,
    turn_passed,
    victories,
)
import helpers
from wonderforge.interpreter import Action, State
from wonderforge.interpreter.games.game import GameError

PACK = "architects-medals"
GIVEN = "given"
MEDALS = "medals"  # the experts' middle zone, and every player's zone of medals won
MEDAL_IDS = ("three_blue", "three_green", "three_grey", "three_red", "four_colours", "yellow_cat_horn",
             "seven_cards", "three_stages", "two_stages_cat", "two_progress", "progress_military_cat",
             "double_victory")
MEDAL_VP = 4  # "en ajoutant 4 Points de victoire par Médaille en votre possession"
BASE_WONDERS = ("alexandria", "babylon", "ephesus", "giza", "halicarnassus", "olympia", "rhodes")
# 15 base tokens (Culture twice) + Logistics, Domestication, Entrenchment and a third Culture.
PROGRESS_TOKENS = {"urbanism": 1, "crafts": 1, "jewellery": 1, "science": 1, "propaganda": 1, "architecture": 1,
                   "economy": 1, "engineering": 1, "tactics": 1, "decor": 1, "politics": 1, "strategy": 1,
                   "education": 1, "culture": 3, "logistics": 1, "domestication": 1, "entrenchment": 1}
CATEGORIES = ["wonder", "cat", "blue", "military", "progress", "medals"]


# ---------------------------------------------------------------- positions on the medals pack

# The shared helpers of tests/helpers.py, bound to this pack (its options as keywords: `medals`, `experts`).
game_for = partial(helpers.game_for, PACK)
dealt = partial(helpers.dealt, PACK)


def medal(state: State, medal_id: str):
    return state.game.catalogue.others[MEDALS][medal_id]


def table(*wonders: str, medals: dict[str, str | tuple] | None = None, experts: bool = False, seed: int = 0) -> State:
    """A fresh deal of the medals pack whose seat i plays `wonders[i]` with its own shuffled deck; the
    medals on the table are exactly `medals` (zone -> medal id or ids); seat 0 is about to take."""
    state = helpers.table(PACK, wonders, seat_wonder, seed, medals=True, experts=experts)
    for zone in [z for z in state.shared if is_medal_zone(z)]:
        del state.shared[zone]
    for zone, ids in (medals or {}).items():
        state.shared[zone] = [medal(state, m) for m in ((ids,) if isinstance(ids, str) else ids)]
    state.pawns = {p: None for p in state.pawns}
    state.legal = {}
    return state


def finished(*holdings: dict) -> State:
    """A finished position of the medals pack from what each seat holds (see Turns.arrange)."""
    return base_finished(*holdings, game=game_for(len(holdings)))


def is_medal_zone(zone: str) -> bool:
    return zone == MEDALS or zone.startswith(MEDALS + "@")


def on_table(state: State) -> dict[str, list[str]]:
    return {z: [m.id for m in v] for z, v in state.shared.items() if is_medal_zone(z) and v}


def won(state: State, seat: int) -> list[str]:
    return [m.id for m in state.players[seat].zones.get(MEDALS, [])]


def given_cards(state: State, seat: int) -> list[str]:
    return [c.id for c in state.players[seat].zones.get(GIVEN, [])]


def set_victories(state: State, seat: int, *battles: int) -> None:
    """Victory tokens won earlier, one per battle index given."""
    state.players[seat].tokens = [("victory", 1, b) for b in battles]
    state.battles = max([state.battles, *(b + 1 for b in battles)])
    state.legal = {}


def take_token_from_stack(state: State, seat: int) -> None:
    offered = [a for a in state.legal_actions(seat) if a.verb == "token" and a.choice == STACK]
    assert offered, state.legal_actions(seat)
    state.apply(seat, offered[0])


# ---------------------------------------------------------------- set-up

@pytest.mark.parametrize("n", range(2, 8))
def test_setup_one_medal_between_each_pair_of_neighbours_none_in_the_middle(n):
    state = dealt(n, 10 + n)
    laid = on_table(state)
    assert set(laid) == {f"medals@{i}" for i in range(n)}, "n medals for n players (2 with 2 players)"
    assert all(len(ids) == 1 for ids in laid.values())
    ids = [m for ids in laid.values() for m in ids]
    assert len(set(ids)) == n and set(ids) <= set(MEDAL_IDS)
    assert state.shared.get(MEDALS, []) == []
    assert all(won(state, s) == [] for s in range(n))
    for viewer in range(n):  # objective side up: everybody sees them
        seen = state.observation(viewer)["shared"]
        assert {z: list(seen[z]) for z in laid} == laid


@pytest.mark.parametrize("n", range(2, 8))
def test_setup_experts_adds_two_medals_in_the_middle(n):
    state = dealt(n, 20 + n, experts=True)
    laid = on_table(state)
    assert set(laid) == {f"medals@{i}" for i in range(n)} | {MEDALS}
    assert len(laid[MEDALS]) == 2
    ids = [m for ids in laid.values() for m in ids]
    assert len(ids) == n + 2 and len(set(ids)) == n + 2 and set(ids) <= set(MEDAL_IDS)


def test_setup_the_medals_are_drawn_at_random_by_seed():
    def layout(seed):
        return tuple((zone, tuple(ids)) for zone, ids in sorted(on_table(dealt(4, seed, experts=True)).items()))
    layouts = [layout(seed) for seed in range(12)]
    assert layouts == [layout(seed) for seed in range(12)], "a seed replays"
    assert len(set(layouts)) > 6
    drawn = {m for lay in layouts for _, ids in lay for m in ids}
    assert drawn == set(MEDAL_IDS), "every medal can be drawn"


@pytest.mark.parametrize("n", [2, 5, 7])
def test_setup_without_medals_lays_none(n):
    state = dealt(n, 30 + n, medals=False)
    assert on_table(state) == {}
    assert all(won(state, s) == [] for s in range(n))


def test_the_experts_variant_needs_the_medals():
    """rules.yaml: `experts` requires `medals: true`."""
    with pytest.raises(GameError, match="option experts=true needs medals=true, not medals=false"):
        dealt(4, 1, medals=False, experts=True)


@pytest.mark.parametrize("medals", [True, False])
def test_setup_the_four_new_progress_tokens_join_the_stack(medals):
    state = dealt(3, 5, medals=medals)
    tokens = all_tokens(state)
    assert tokens == Counter(PROGRESS_TOKENS)
    assert sum(tokens.values()) == 19
    assert tokens["culture"] == 3
    assert len(state.shared[MARKET]) == 3 and len(state.shared[STACK]) == 16


@pytest.mark.parametrize("medals", [True, False])
def test_setup_rome_and_ur_can_be_dealt(medals):
    dealt_wonders = Counter()
    for seed in range(12):
        state = dealt(7, seed, medals=medals)
        wonders = [p.side.wonder for p in state.players]
        assert len(set(wonders)) == 7
        dealt_wonders.update(wonders)
    assert set(dealt_wonders) == set(BASE_WONDERS) | {"rome", "ur"}


# ---------------------------------------------------------------- the 12 objectives

# (id, medal, players, position before seat 0's turn, steps of seat 0's turn, met?)
# position: cards (seat 0's city), stages (built), cat (seat 0 holds it), progress (tokens held),
# victories (battle index of each token won earlier), others (seat -> city), flips (conflict tokens).
# steps: ("take", card) from seat 0's left deck, ("stage", number, *cards spent), ("token",) from the stack.
OBJECTIVES = [
    ("three_blue_met", "three_blue", 3, {"cards": ["blue_vp3", "blue_vp2_cat"]}, [("take", "blue_vp3")], True),
    ("three_blue_two", "three_blue", 3, {"cards": ["blue_vp3"]}, [("take", "blue_vp2_cat")], False),
    ("three_green_met", "three_green", 3, {"cards": ["gear", "compass"]}, [("take", "tablet")], True),
    ("three_green_two", "three_green", 3, {"cards": ["gear"]}, [("take", "compass")], False),
    ("three_grey_met", "three_grey", 3, {"cards": ["wood", "wood"]}, [("take", "wood")], True),
    ("three_grey_two", "three_grey", 3, {"cards": ["wood"]}, [("take", "wood")], False),
    ("three_grey_yellow_is_not_grey", "three_grey", 3, {"cards": ["wood", "wood"]}, [("take", "gold")], False),
    ("three_red_met", "three_red", 3, {"cards": ["red_0_horn", "red_2_horn"]}, [("take", "red_0_horn")], True),
    ("three_red_two", "three_red", 3, {"cards": ["red_0_horn"]}, [("take", "red_0_horn")], False),
    ("four_colours_met", "four_colours", 3, {"cards": ["gold", "blue_vp3", "red_0_horn"]}, [("take", "gear")], True),
    ("four_colours_no_green", "four_colours", 3, {"cards": ["gold", "blue_vp3", "red_0_horn"]},
     [("take", "blue_vp3")], False),
    ("four_colours_no_yellow", "four_colours", 3, {"cards": ["gear", "blue_vp3", "red_0_horn"]},
     [("take", "wood")], False),
    ("yellow_cat_horn_met", "yellow_cat_horn", 3, {"cards": ["gold", "blue_vp2_cat"]}, [("take", "red_1_horn")], True),
    ("yellow_cat_horn_met_two_horns", "yellow_cat_horn", 3, {"cards": ["gold", "red_2_horn"]},
     [("take", "blue_vp2_cat")], True),
    ("yellow_cat_horn_blue_without_cat", "yellow_cat_horn", 3, {"cards": ["gold", "blue_vp3"]},
     [("take", "red_1_horn")], False),
    ("yellow_cat_horn_red_without_horn", "yellow_cat_horn", 3, {"cards": ["gold", "blue_vp2_cat"]},
     [("take", "red_0_horn")], False),
    ("yellow_cat_horn_no_yellow", "yellow_cat_horn", 3, {"cards": ["blue_vp2_cat", "blue_vp3"]},
     [("take", "red_1_horn")], False),
    ("seven_cards_met", "seven_cards", 3,
     {"cards": ["blue_vp3", "blue_vp3", "red_0_horn", "red_0_horn", "gear", "gold"]}, [("take", "blue_vp2_cat")], True),
    ("seven_cards_six", "seven_cards", 3,
     {"cards": ["blue_vp3", "red_0_horn", "red_0_horn", "gear", "gold"]}, [("take", "blue_vp2_cat")], False),
    ("three_stages_met", "three_stages", 3, {"stages": [1, 2], "cards": ["stone", "wood"]},
     [("take", "clay"), ("stage", 3, "clay", "stone", "wood")], True),
    ("three_stages_two", "three_stages", 3, {"stages": [1], "cards": ["clay"]},
     [("take", "clay"), ("stage", 2, "clay", "clay")], False),
    ("two_stages_cat_met_by_the_cat", "two_stages_cat", 3, {"stages": [1, 2]}, [("take", "blue_vp2_cat")], True),
    ("two_stages_cat_met_by_the_stage", "two_stages_cat", 3, {"stages": [1], "cat": True, "cards": ["clay"]},
     [("take", "clay"), ("stage", 2, "clay", "clay")], True),
    ("two_stages_cat_one_stage", "two_stages_cat", 3, {"stages": [1]}, [("take", "blue_vp2_cat")], False),
    ("two_stages_cat_no_cat", "two_stages_cat", 3, {"stages": [1, 2]}, [("take", "blue_vp3")], False),
    ("two_progress_met", "two_progress", 3, {"progress": ["decor"], "cards": ["gear"]},
     [("take", "gear"), ("token",)], True),
    ("two_progress_one", "two_progress", 3, {"cards": ["gear"]}, [("take", "gear"), ("token",)], False),
    ("progress_military_cat_met", "progress_military_cat", 3, {"progress": ["decor"], "victories": [0]},
     [("take", "blue_vp2_cat")], True),
    ("progress_military_cat_no_victory", "progress_military_cat", 3, {"progress": ["decor"]},
     [("take", "blue_vp2_cat")], False),
    ("progress_military_cat_no_progress", "progress_military_cat", 3, {"victories": [0]},
     [("take", "blue_vp2_cat")], False),
    ("progress_military_cat_no_cat", "progress_military_cat", 3, {"progress": ["decor"], "victories": [0]},
     [("take", "blue_vp3")], False),
    ("double_victory_met", "double_victory", 3, {"cards": ["red_0_horn"], "flips": (3, 2)},
     [("take", "red_1_horn")], True),
    ("double_victory_one_neighbour_ties", "double_victory", 3,
     {"cards": ["red_0_horn"], "others": {1: ["red_0_horn", "red_0_horn"]}, "flips": (3, 2)},
     [("take", "red_1_horn")], False),
    ("double_victory_two_battles", "double_victory", 3,
     {"cards": ["red_0_horn"], "victories": [0], "others": {1: ["red_0_horn", "red_0_horn"]}, "flips": (3, 2)},
     [("take", "red_1_horn")], False),
    ("double_victory_duel_twice_the_shields", "double_victory", 2,
     {"cards": ["red_0_horn", "red_0_horn", "red_0_horn"], "others": {1: ["red_0_horn", "red_0_horn"]},
      "flips": (3, 2)}, [("take", "red_1_horn")], True),
    ("double_victory_duel_less_than_twice", "double_victory", 2,
     {"cards": ["red_0_horn", "red_0_horn"], "others": {1: ["red_0_horn", "red_0_horn"]}, "flips": (3, 2)},
     [("take", "red_1_horn")], False),
]
WONDERS_BY_COUNT = {2: ("giza", "rhodes"), 3: ("giza", "rhodes", "olympia"), 4: ("giza", "rhodes", "olympia", "ephesus")}


def position(players: int, medal_id: str, before: dict, zone: str = "medals@0", experts: bool = False) -> State:
    state = table(*WONDERS_BY_COUNT[players], medals={zone: medal_id}, experts=experts)
    raise_stages(state, 0, *before.get("stages", ()))
    give(state, 0, *before.get("cards", ()))
    give_tokens(state, 0, *before.get("progress", ()))
    if before.get("cat"):
        state.pawns["cat"] = 0
    set_victories(state, 0, *before.get("victories", ()))
    for seat, cards in before.get("others", {}).items():
        give(state, seat, *cards)
    if "flips" in before:
        state.flips["conflict"] = before["flips"]
    state.legal = {}
    return state


def play_steps(state: State, seat: int, steps) -> None:
    for step in steps:
        if step[0] == "take":
            take_card(state, seat, step[1])
        elif step[0] == "stage":
            build_stage(state, seat, step[1], *step[2:])
        else:
            take_token_from_stack(state, seat)


@pytest.mark.parametrize("medal_id,players,before,steps,met", [o[1:] for o in OBJECTIVES], ids=[o[0] for o in OBJECTIVES])
def test_each_objective_is_claimed_when_met_and_only_then(medal_id, players, before, steps, met):
    state = position(players, medal_id, before)
    assert not medal(state, medal_id).condition(state, 0), "the position starts short of the objective"
    play_steps(state, 0, steps)
    if met:
        assert won(state, 0) == [medal_id]
        assert on_table(state) == {}
        assert state.scores()[0]["breakdown"][MEDALS] == MEDAL_VP
    else:
        assert won(state, 0) == []
        assert on_table(state) == {"medals@0": [medal_id]}
        assert state.scores()[0]["breakdown"][MEDALS] == 0
    assert all(won(state, s) == [] for s in range(1, players))


def test_every_medal_has_a_met_and_a_short_case():
    assert {o[1] for o in OBJECTIVES if o[5]} == set(MEDAL_IDS)
    assert {o[1] for o in OBJECTIVES if not o[5]} == set(MEDAL_IDS)


def test_a_medal_is_claimed_at_once_before_the_rest_of_the_turn():
    # The rule sheet's example: the third green card wins the medal at once, before the progress token.
    state = position(3, "three_green", {"cards": ["gear", "compass"]})
    take_card(state, 0, "tablet")
    assert state.current_players() == [0]
    assert state.legal_actions(0) and all(a.verb == "token" for a in state.legal_actions(0))
    assert won(state, 0) == ["three_green"]
    take_token_from_stack(state, 0)
    assert city(state, 0) == []  # the greens are gone, the medal stays
    assert won(state, 0) == ["three_green"]
    assert state.current_players() == [1]


def test_a_medal_met_before_a_battle_of_the_same_turn_is_kept():
    # the third red card (with a horn) calls the battle that discards it: the medal was won during the turn
    state = position(3, "three_red", {"cards": ["red_0_horn", "red_1_horn"], "flips": (3, 2)})
    take_card(state, 0, "red_2_horn")
    assert city(state, 0) == ["red_0_horn"]
    assert won(state, 0) == ["three_red"]


def test_an_objective_met_for_a_moment_of_the_turn_is_enough():
    # the 7th card makes a stage payable: the medal is won before the stage spends two of the cards
    state = position(3, "seven_cards", {"cards": ["stone", "blue_vp3", "blue_vp3", "red_0_horn", "red_0_horn", "gear"]})
    take_card(state, 0, "wood")
    assert not turn_passed(state, 0)
    assert won(state, 0) == ["seven_cards"]
    build_stage(state, 0, 1, "stone", "wood")
    assert len(city(state, 0)) == 5
    assert won(state, 0) == ["seven_cards"]
    assert state.scores()[0]["breakdown"][MEDALS] == MEDAL_VP


def test_a_medal_won_in_a_battle_is_claimed_before_the_next_turn():
    state = position(3, "double_victory", {"cards": ["red_0_horn"], "flips": (3, 2)})
    take_card(state, 0, "red_1_horn")
    assert victories(state, 0) == 2
    assert state.current_players() == [1]
    assert won(state, 0) == ["double_victory"]


@pytest.mark.parametrize("first", [0, 1])
def test_only_the_first_neighbour_to_meet_it_wins_it(first):
    # medals@0 lies between seat 0 and seat 1: both are one blue card short of it
    state = position(3, "three_blue", {"cards": ["blue_vp3", "blue_vp3"], "others": {1: ["blue_vp3", "blue_vp3"]}})
    second = 1 - first
    begin_turn(state, first)
    take_card(state, first, "blue_vp3")
    assert won(state, first) == ["three_blue"]
    begin_turn(state, second)
    take_card(state, second, "blue_vp3")
    assert won(state, second) == []
    assert won(state, first) == ["three_blue"]
    assert on_table(state) == {}
    assert [s[MEDALS] for s in (e["breakdown"] for e in state.scores())] == [
        MEDAL_VP * (s == first) for s in range(3)]


@pytest.mark.parametrize("zone,reachable", [("medals@0", True), ("medals@1", False), ("medals@2", False),
                                            ("medals@3", True)])
def test_only_the_two_players_a_medal_lies_between_can_win_it(zone, reachable):
    # 4 players: seat 0 reaches medals@0 (with seat 1, on its left) and medals@3 (with seat 3, on its right)
    state = position(4, "three_blue", {"cards": ["blue_vp3", "blue_vp3"]}, zone=zone)
    take_card(state, 0, "blue_vp3")
    assert won(state, 0) == (["three_blue"] if reachable else [])
    assert on_table(state) == ({} if reachable else {zone: ["three_blue"]})


def test_two_players_reach_both_medals():
    for zone in ("medals@0", "medals@1"):
        for seat in (0, 1):
            state = table("giza", "rhodes", medals={zone: "three_red"})
            give(state, seat, "red_0_horn", "red_0_horn")
            begin_turn(state, seat)
            take_card(state, seat, "red_0_horn")
            assert won(state, seat) == ["three_red"], (zone, seat)


def test_a_medal_already_won_stays_with_its_winner():
    state = position(3, "three_red", {"cards": ["red_0_horn", "red_0_horn"]})
    take_card(state, 0, "red_0_horn")
    assert won(state, 0) == ["three_red"]
    # losing the cards later (spent, taken by Rome) does not lose the medal
    state.players[0].zones[CITY].clear()
    state.legal = {}
    begin_turn(state, 0)
    take_card(state, 0, "blue_vp3")
    assert won(state, 0) == ["three_red"]
    assert state.scores()[0]["breakdown"][MEDALS] == MEDAL_VP


# ---------------------------------------------------------------- the experts variant

@pytest.mark.parametrize("seat", range(4))
def test_a_middle_medal_can_be_won_by_anyone(seat):
    state = table("giza", "rhodes", "olympia", "ephesus", medals={MEDALS: ("three_blue", "three_red")}, experts=True)
    give(state, seat, "blue_vp3", "blue_vp3")
    begin_turn(state, seat)
    take_card(state, seat, "blue_vp3")
    assert won(state, seat) == ["three_blue"]
    assert on_table(state) == {MEDALS: ["three_red"]}
    assert state.scores()[seat]["breakdown"][MEDALS] == MEDAL_VP


def test_up_to_four_medals_for_one_player():
    # "Vous pouvez donc remporter jusqu'à 4 Médailles": its two neighbours' medals and the two in the middle
    state = table("giza", "rhodes", "olympia", "ephesus", experts=True,
                  medals={"medals@0": "three_blue", "medals@3": "four_colours", MEDALS: ("seven_cards", "three_red")})
    give(state, 0, "blue_vp3", "blue_vp3", "red_0_horn", "red_0_horn")
    for taken, new in [("red_0_horn", "three_red"), ("blue_vp3", "three_blue"), ("gold", "seven_cards"),
                       ("gear", "four_colours")]:
        begin_turn(state, 0)
        before = won(state, 0)
        take_card(state, 0, taken)
        assert won(state, 0) == before + [new]
    assert on_table(state) == {}
    assert state.scores()[0]["breakdown"][MEDALS] == 4 * MEDAL_VP


def test_a_middle_double_victory_goes_to_every_player_who_wins_two_tokens_in_that_battle():
    # shields 2, 0, 2, 0: seats 0 and 2 each beat both their neighbours in the same battle
    state = table("giza", "rhodes", "olympia", "ephesus", experts=True,
                  medals={MEDALS: ("double_victory", "three_grey")})
    give(state, 0, "red_0_horn")
    give(state, 2, "red_0_horn", "red_0_horn")
    state.flips["conflict"] = (4, 3)
    take_card(state, 0, "red_1_horn")
    assert [victories(state, s) for s in range(4)] == [2, 0, 2, 0]
    assert won(state, 0) == ["double_victory"] and won(state, 2) == ["double_victory"]
    assert won(state, 1) == [] and won(state, 3) == []
    assert on_table(state) == {MEDALS: ["three_grey"]}
    assert [e["breakdown"][MEDALS] for e in state.scores()] == [MEDAL_VP, 0, MEDAL_VP, 0]


def test_a_middle_medal_met_by_two_at_once_goes_to_both_only_if_shareable():
    # the rule sheet names the double victory alone as met by several at one moment (`shareable: true`)
    state = table("giza", "rhodes", "olympia", "ephesus", experts=True, medals={MEDALS: ("three_grey", "double_victory")})
    for seat in (0, 2):
        give(state, seat, "stone", "stone", "clay")
        set_victories(state, seat, 0, 0)
    state.claim([0, 2])
    assert won(state, 0) == ["three_grey", "double_victory"] and won(state, 2) == ["double_victory"]


def test_a_neighbour_double_victory_goes_to_one_player_only():
    # the same battle with the medal between seat 0 and seat 1: seat 0 wins it; seat 2 cannot reach it
    state = table("giza", "rhodes", "olympia", "ephesus", medals={"medals@0": "double_victory"})
    give(state, 0, "red_0_horn")
    give(state, 2, "red_0_horn", "red_0_horn")
    state.flips["conflict"] = (4, 3)
    take_card(state, 0, "red_1_horn")
    assert won(state, 0) == ["double_victory"] and won(state, 2) == []


# ---------------------------------------------------------------- Rome

def rome_position(cities: dict[int, list[str]], central: tuple[str, ...] = (), cat: int | None = None,
                  wonders=("rome", "giza", "rhodes")) -> State:
    """Rome (seat 0) builds its stage 2 (the power) this turn; the other seats hold `cities`."""
    state = table(*wonders)
    raise_stages(state, 0, 1)
    give(state, 0, "clay")
    for seat, cards in cities.items():
        give(state, seat, *cards)
    state.pawns["cat"] = cat
    stack_central(state, *central)
    take_card(state, 0, "clay")
    return state


def rome_power(state: State) -> None:
    build_stage(state, 0, 2, "clay", "clay")


def rome_takes(state: State, card_id: str, seat: int) -> None:
    action = Action("take", card_id, choice=f"city@{seat}")
    assert action in state.legal_actions(0), state.legal_actions(0)
    state.apply(0, action)


def test_rome_takes_a_card_from_the_city_of_the_opponent_of_its_choice():
    state = rome_position({0: ["blue_vp3"], 1: ["blue_vp3", "wood", "wood"], 2: ["red_0_horn"]}, central=("stone",))
    rome_power(state)
    assert {(a.card, a.choice) for a in state.legal_actions(0) if a.verb == "take"} == {
        ("blue_vp3", "city@1"), ("wood", "city@1"), ("red_0_horn", "city@2")}, "any opponent's card, never its own"
    rome_takes(state, "wood", 1)
    assert sorted(city(state, 0)) == ["blue_vp3", "wood"]
    assert sorted(city(state, 1)) == ["blue_vp3", "stone", "wood"]  # and the card given, placed at its turn


def test_rome_taking_a_blue_cat_card_takes_the_cat():
    state = rome_position({1: ["blue_vp2_cat"]}, central=("stone",), cat=2)
    rome_power(state)
    rome_takes(state, "blue_vp2_cat", 1)
    assert state.pawns["cat"] == 0
    assert city(state, 0) == ["blue_vp2_cat"] and city(state, 1) == ["stone"]
    scores = state.scores()
    assert scores[0]["breakdown"]["blue"] == 2 and scores[1]["breakdown"]["blue"] == 0


@pytest.mark.parametrize("red,horns", [("red_0_horn", 0), ("red_1_horn", 1), ("red_2_horn", 2)])
def test_rome_taking_a_red_card_moves_its_shield_and_its_horns_flip_for_rome(red, horns):
    state = rome_position({1: ["red_0_horn", red]})
    rome_power(state)
    assert shields(state, 1) == 2
    rome_takes(state, red, 1)
    assert shields(state, 1) == 1, "the card leaves with its shield"
    assert shields(state, 0) == 1
    assert state.flips["conflict"] == (3, horns)


def test_rome_taking_the_last_conflict_token_with_a_horn_calls_a_battle():
    state = rome_position({1: ["red_1_horn"], 2: ["red_0_horn"]})
    state.flips["conflict"] = (3, 2)
    rome_power(state)
    rome_takes(state, "red_1_horn", 1)
    # shields 1, 0, 1: Rome beats seat 1 only, seat 2 beats seat 1 too
    assert [victories(state, s) for s in range(3)] == [1, 0, 1]
    assert city(state, 0) == []  # the horned card is discarded after the battle


def test_rome_gives_the_central_top_face_down_to_that_opponent():
    state = rome_position({1: ["blue_vp3"], 2: ["wood"]}, central=("red_2_horn", "gold"))
    size = len(state.shared[CENTRAL])
    rome_power(state)
    rome_takes(state, "wood", 2)
    assert given_cards(state, 2) == ["red_2_horn"]
    assert given_cards(state, 1) == [] and given_cards(state, 0) == []
    assert len(state.shared[CENTRAL]) == size - 1 and top(state.shared[CENTRAL]) == "gold"
    assert city(state, 2) == [], "not in front of the receiver yet"
    assert state.flips["conflict"] == (3, 0) and shields(state, 2) == 0, "its icons wait too"
    assert state.current_players() == [1]
    for viewer in range(3):
        seen = state.observation(viewer)["players"][2]["zones"].get(GIVEN)
        if viewer == 2:
            assert seen == ["red_2_horn"]
        else:
            assert seen == {"size": 1}, f"seat {viewer} must not see the card given face down"


def test_the_given_card_is_hidden_in_every_view_but_the_receivers():
    state = rome_position({2: ["blue_vp3"]}, central=("blue_vp2_cat",))
    rome_power(state)
    rome_takes(state, "blue_vp3", 2)
    assert given_cards(state, 2) == ["blue_vp2_cat"]
    other = state.clone()
    other.players[2].zones[GIVEN] = [other.game.catalogue.cards["gold"]]
    for viewer in (0, 1):
        assert state.observation(viewer) == other.observation(viewer)
    assert state.observation(2) != other.observation(2)


def test_the_given_card_is_placed_at_the_receivers_next_turn_besides_the_usual_take():
    state = rome_position({1: ["blue_vp3"]}, central=("blue_vp2_cat",), cat=2)
    rome_power(state)
    rome_takes(state, "blue_vp3", 1)
    assert state.current_players() == [1]
    # seat 1's turn began: the card is turned up and placed as if taken (its cat icon acts)
    assert given_cards(state, 1) == []
    assert city(state, 1) == ["blue_vp2_cat"]
    assert state.pawns["cat"] == 1
    assert state.legal_actions(1) and all(a.verb == "take" for a in state.legal_actions(1)), "its usual take too"
    take_card(state, 1, "blue_vp3")
    assert sorted(city(state, 1)) == ["blue_vp2_cat", "blue_vp3"]
    assert state.scores()[1]["breakdown"]["blue"] == 5


def test_a_given_card_waits_for_the_receivers_own_turn():
    state = rome_position({2: ["wood"]}, central=("red_1_horn",))
    rome_power(state)
    rome_takes(state, "wood", 2)
    assert state.current_players() == [1]
    take_card(state, 1, "blue_vp3")
    assert state.current_players() == [2]
    assert "red_1_horn" in city(state, 2)
    assert state.flips["conflict"] == (3, 1), "a horn flips as for a card taken"
    assert shields(state, 2) == 1
    assert {a.verb for a in state.legal_actions(2)} == {"take"}


def test_a_given_card_can_win_a_medal_for_its_receiver():
    state = rome_position({2: ["blue_vp3", "blue_vp3", "wood"]}, central=("blue_vp3",))
    state.shared["medals@1"] = [medal(state, "three_blue")]
    rome_power(state)
    rome_takes(state, "wood", 2)
    assert state.current_players() == [1]
    assert won(state, 2) == [] and on_table(state) == {"medals@1": ["three_blue"]}  # not before it is placed
    take_card(state, 1, "gold")
    assert state.current_players() == [2]  # seat 2's turn began: the card is placed, the medal won
    assert won(state, 2) == ["three_blue"]
    assert city(state, 2).count("blue_vp3") == 3


def test_rome_can_win_a_medal_with_the_card_it_takes():
    state = rome_position({0: ["red_0_horn", "red_0_horn"], 2: ["red_0_horn"]}, central=("stone",))
    state.shared["medals@2"] = [medal(state, "three_red")]  # between seat 2 and Rome
    rome_power(state)
    assert won(state, 0) == []
    rome_takes(state, "red_0_horn", 2)
    assert won(state, 0) == ["three_red"]
    assert state.observation(1)["players"][0]["zones"][MEDALS] == ["three_red"]  # won face up, for all to see


def test_rome_taking_a_green_card_takes_its_symbol_away():
    state = rome_position({1: ["gear", "tablet"]}, central=("stone",))
    rome_power(state)
    rome_takes(state, "gear", 1)
    assert state.players[1].symbols == [("tablet",)]
    assert state.players[0].symbols == [("gear",)]


def test_rome_with_no_card_to_take_gives_nothing_to_an_opponent_chosen_earlier():
    # "Prenez 1 carte devant l'adversaire de votre choix [...] Donnez à cet adversaire la première carte":
    # the card goes to the opponent this power took from. With every opponent's city empty, either
    # Rome is asked which opponent gets it, or nobody gets it; never the victim of an earlier power.
    state = rome_position({1: ["wood"]}, central=("gold",))
    rome_power(state)
    rome_takes(state, "wood", 1)  # stage 2: seat 1 is chosen, and gets the gold
    begin_turn(state, 0)
    for seat in (1, 2):
        state.players[seat].zones[CITY].clear()
    raise_stages(state, 0, 3)
    give(state, 0, "glass", "glass")
    stack_central(state, "papyrus")
    take_card(state, 0, "glass")
    build_stage(state, 0, 4, "glass", "glass", "glass")  # stage 4: the power again, nobody has a card
    asked = [a for a in state.legal_actions(0) if a.verb != "stage"] if state.current_players() == [0] else []
    if not asked:
        assert top(state.shared[CENTRAL]) == "papyrus", "the central top was given though no opponent was chosen"
        assert all("papyrus" not in city(state, s) + given_cards(state, s) for s in (1, 2))


# ---------------------------------------------------------------- Ur

def ur_position(cat: int | None, central: tuple[str, ...]) -> State:
    state = table("ur", "giza", "rhodes")
    raise_stages(state, 0, 1)
    state.pawns["cat"] = cat
    stack_central(state, *central)
    give(state, 0, "clay")
    take_card(state, 0, "clay")
    return state


@pytest.mark.parametrize("holder", [None, 0, 1, 2])
def test_ur_takes_the_cat_from_anyone(holder):
    state = ur_position(holder, ("gold",))
    build_stage(state, 0, 2, "clay", "clay")
    assert state.pawns["cat"] == 0


def test_ur_looks_at_the_central_top_and_takes_one_of_the_three_cards():
    state = ur_position(1, ("papyrus",))
    build_stage(state, 0, 2, "clay", "clay")
    offered = {(a.card, a.choice) for a in state.legal_actions(0) if a.verb == "take"}
    assert offered == {(deck_top(state, 0), "deck@0"), (deck_top(state, 2), "deck@2"), ("papyrus", CENTRAL)}
    assert state.observation(0)["shared"][CENTRAL]["top"] == "papyrus"
    assert state.observation(1)["shared"][CENTRAL]["top"] is None
    assert state.observation(2)["shared"][CENTRAL]["top"] is None
    take(state, 0, CENTRAL, "papyrus")
    assert city(state, 0) == ["papyrus"]


# ---------------------------------------------------------------- the new progress tokens

@pytest.mark.parametrize("cards,points", [([], 0), (["wood"], 2), (["wood", "stone", "stone", "papyrus"], 8),
                                          (["gold", "blue_vp3", "gear", "red_0_horn", "glass"], 2)])
def test_logistics_two_points_per_grey_card(cards, points):
    state = finished({"wonder": "giza", "cards": cards, "pieces": {"progress": ["logistics"]}}, {"wonder": "rhodes"})
    assert state.scores()[0]["breakdown"]["progress"] == points
    without = finished({"wonder": "giza", "cards": cards}, {"wonder": "rhodes"})
    assert without.scores()[0]["breakdown"]["progress"] == 0


@pytest.mark.parametrize("copies,points", [(1, 4), (2, 12), (3, 16)])
def test_culture_scores_4_12_or_16(copies, points):
    state = finished({"wonder": "giza", "pieces": {"progress": ["culture"] * copies}}, {"wonder": "rhodes"})
    assert state.scores()[0]["breakdown"]["progress"] == points


def test_domestication_shows_the_central_top_at_the_start_of_each_of_its_holders_turns():
    state = table("giza", "rhodes", "olympia")
    give_tokens(state, 0, "domestication")
    stack_central(state, "clay")
    begin_turn(state, 0)
    assert ("clay", CENTRAL) in takes(state, 0)
    assert state.observation(0)["shared"][CENTRAL]["top"] == "clay"
    assert state.observation(1)["shared"][CENTRAL]["top"] is None
    take_card(state, 0, "blue_vp3")
    # other players' turns: nobody sees it
    assert state.current_players() == [1]
    assert (None, CENTRAL) in takes(state, 1)
    assert all(state.observation(s)["shared"][CENTRAL]["top"] is None for s in range(3))
    take_card(state, 1, "blue_vp3")
    take_card(state, 2, "blue_vp3")
    stack_central(state, "gear")
    begin_turn(state, 0)
    assert ("gear", CENTRAL) in takes(state, 0), "at each of its turns"


def test_without_domestication_or_the_cat_the_central_top_stays_hidden():
    state = table("giza", "rhodes", "olympia")
    give_tokens(state, 0, "logistics")
    stack_central(state, "clay")
    begin_turn(state, 0)
    assert (None, CENTRAL) in takes(state, 0)
    assert state.observation(0)["shared"][CENTRAL]["top"] is None


def test_entrenchment_keeps_the_red_cards_with_horns_after_a_battle():
    state = table("giza", "rhodes", "olympia")
    give_tokens(state, 0, "entrenchment")
    give(state, 0, "red_0_horn", "red_2_horn")
    give(state, 1, "red_1_horn")
    state.flips["conflict"] = (3, 2)
    take_card(state, 0, "red_1_horn")
    assert victories(state, 0) == 2  # the battle was fought
    assert sorted(city(state, 0)) == ["red_0_horn", "red_1_horn", "red_2_horn"]
    assert shields(state, 0) == 3
    assert city(state, 1) == [], "players without the token still discard theirs"
    assert discard_pile(state) == ["red_1_horn"]
    assert state.flips["conflict"] == (3, 0)


# ---------------------------------------------------------------- random games

@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 7), medals=st.booleans(), experts=st.booleans(), seed=st.integers(0, 2**31),
       choices=st.integers(0, 2**31))
def test_random_games_keep_the_medals_rules(players, medals, experts, seed, choices):
    experts = experts and medals  # the experts variant needs the medals
    state = dealt(players, seed, medals=medals, experts=experts)
    origin = {m: zone for zone, ids in on_table(state).items() for m in ids}
    assert len(origin) == (players + 2 * experts if medals else 0)
    cards, tokens = all_cards(state), all_tokens(state)
    holders: dict[str, set[int]] = {}
    rng = random.Random(choices)
    for step in range(2000):
        if state.is_terminal():
            break
        seat = state.current_players()[0]
        actions = state.legal_actions(seat)
        assert actions and len(set(actions)) == len(actions)
        state.apply(seat, actions[rng.randrange(len(actions))])
        table_ids = [m for ids in on_table(state).values() for m in ids]
        held = {s: won(state, s) for s in range(players)}
        assert len(table_ids) == len(set(table_ids))
        for m in origin:
            now = {s for s, ids in held.items() if m in ids}
            assert all(held[s].count(m) <= 1 for s in now)
            if m in table_ids:
                assert not now, f"{m} both on the table and won"
                continue
            assert now, f"{m} is nowhere"
            if m in holders:
                assert now == holders[m], f"{m} changed hands or was won again"
            holders[m] = now
            zone = origin[m]
            if zone == MEDALS:
                assert len(now) == 1 or m == "double_victory"
            else:
                at = int(zone.partition("@")[2])
                assert len(now) == 1 and now <= {at, (at + 1) % players}, f"{m} went beyond its two neighbours"
        assert set(m for ids in held.values() for m in ids) <= set(origin)
        assert all(len(ids) <= 2 + 2 * experts for ids in held.values())
        for zone, pieces in state.shared.items():  # a medal in reach whose objective holds is not left lying
            if is_medal_zone(zone) and pieces:
                at = zone.partition("@")[2]
                for s in range(players) if not at else (int(at), (int(at) + 1) % players):
                    assert not any(p.condition(state, s) for p in pieces), (zone, s)
        for s in range(players):
            if state.players[s].zones.get(GIVEN):
                for viewer in range(players):
                    if viewer != s:
                        assert state.observation(viewer)["players"][s]["zones"][GIVEN] == {
                            "size": len(state.players[s].zones[GIVEN])}
        assert all_cards(state) == cards
        assert all_tokens(state) == tokens
    assert state.is_terminal(), "every game ends"
    for s, entry in enumerate(state.scores()):
        assert entry["total"] == sum(entry["breakdown"].values())
        assert list(entry["breakdown"]) == CATEGORIES
        assert entry["breakdown"][MEDALS] == MEDAL_VP * len(won(state, s))

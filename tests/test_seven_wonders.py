"""7 Wonders (1st edition), played through the engine's interface and checked against the rule book.

Sources: ../shared/seeds/003_0f7d1d0cbe5de7ef.txt (the long French rules, with trading examples A, B
and C, the Alexandria scoring example and the wonder powers) and ../shared/seeds/001_1080da4538c244bc.txt.
Seats are clockwise: the left neighbour of seat i is seat i+1, the right one seat i-1; a payment is
(coins to the left neighbour, coins to the right neighbour).
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sevenwonders_helpers import (
    DISCARD,
    HAND,
    MANUFACTURED,
    RAW,
    all_cards,
    brute_payments,
    build,
    can,
    card,
    city,
    coins,
    dealt,
    discard_first,
    discard_pile,
    game_for,
    hand,
    payments,
    play_turn,
    random_game,
    set_coins,
    set_hand,
    stages,
    table,
    units_of,
)
import helpers
from wonderforge.interpreter import Action, GameError, State, load_game
from wonderforge.interpreter.games.check import check_pack

PACK = "7-wonders"
CARDS_YAML = Path(__file__).resolve().parents[1] / "content" / "7-wonders" / "cards.yaml"
CATEGORIES = ["military", "treasury", "wonder", "civilian", "science", "commerce", "guilds"]

# What each wonder board produces from the start, both sides (rule book, "Plateaux Merveille").
START = {"alexandria": "glass", "babylon": "clay", "ephesus": "papyrus", "giza": "stone",
         "halicarnassus": "textile", "olympia": "wood", "rhodes": "ore"}
# A card whose whole cost is one unit of that resource.
ONE_OF = {"wood": "stockade", "stone": "baths", "clay": "guard_tower", "ore": "barracks",
          "glass": "workshop", "papyrus": "scriptorium", "textile": "apothecary"}


def finished(*holdings: dict) -> State:
    """A finished position from what each seat holds (see Draft.arrange)."""
    return helpers.finished(game_for(len(holdings)), holdings)


def play_until(state: State, round_: int, turn: int) -> None:
    """Every seat discards until the game reaches that age (0-based) and turn (0-based)."""
    while (state.round, state.flow_state.turn) != (round_, turn):
        assert not state.is_terminal()
        play_turn(state, {})


def finish_age(state: State) -> None:
    age = state.round
    while state.round == age and not state.is_terminal():
        play_turn(state, {})


def box() -> list[dict]:
    return yaml.safe_load(CARDS_YAML.read_text(encoding="utf-8"))


# ---------------------------------------------------------------- deck building

@pytest.mark.parametrize("n", range(3, 8))
def test_each_age_deck_has_seven_cards_per_player(n):
    state = dealt(n, 11)
    dealt_age_one = sum(len(p.zones[HAND]) for p in state.players)
    assert dealt_age_one == 7 * n
    assert len(state.shared["deck 2"]) == 7 * n
    assert len(state.shared["deck 3"]) == 7 * n


@pytest.mark.parametrize("n", range(3, 8))
def test_age_three_keeps_players_plus_two_guilds(n):
    for seed in (1, 2, 3):
        state = dealt(n, seed)
        guilds = [c for c in state.shared["deck 3"] if c.colour == "purple"]
        assert len(guilds) == n + 2
        assert len({c.id for c in guilds}) == n + 2


def test_guilds_kept_are_random_by_seed():
    kept = {}
    for seed in range(8):
        state = dealt(3, seed)
        kept[seed] = frozenset(c.id for c in state.shared["deck 3"] if c.colour == "purple")
    again = dealt(3, 5)
    assert frozenset(c.id for c in again.shared["deck 3"] if c.colour == "purple") == kept[5]
    assert len(set(kept.values())) > 1


@pytest.mark.parametrize("n", range(3, 8))
def test_cards_for_more_players_are_left_in_the_box(n):
    # Rule book: "si un nombre indiqué sur la carte est plus élevé que votre nombre de joueurs,
    # remettez cette carte dans la boîte."
    state = dealt(n, 4)
    decks = {1: Counter(c.id for p in state.players for c in p.zones[HAND]),
             2: Counter(c.id for c in state.shared["deck 2"]),
             3: Counter(c.id for c in state.shared["deck 3"] if c.colour != "purple")}
    for age in (1, 2, 3):
        expected = Counter()
        for entry in box():
            copies = entry.get("copies", {}).get(age)
            if isinstance(copies, list) and entry["colour"] != "purple":
                expected[entry["id"]] += sum(1 for least in copies if least <= n)
        assert decks[age] == +expected, f"age {age}"


def test_seven_players_use_the_whole_box():
    # 49 Age I cards, 49 Age II cards, 50 Age III cards of which 10 guilds (9 kept with 7 players).
    state = dealt(7, 3)
    assert sum(len(p.zones[HAND]) for p in state.players) == 49
    assert len(state.shared["deck 2"]) == 49
    deck3 = state.shared["deck 3"]
    assert sum(1 for c in deck3 if c.colour != "purple") == 40
    assert sum(1 for c in deck3 if c.colour == "purple") == 9


# ---------------------------------------------------------------- setup

@pytest.mark.parametrize("n", range(3, 8))
def test_setup_three_coins_distinct_wonders_seven_cards(n):
    state = dealt(n, n * 7)
    assert [coins(state, s) for s in range(n)] == [3] * n
    wonders = [p.side.wonder for p in state.players]
    assert len(set(wonders)) == n
    assert set(wonders) <= set(START)
    assert [len(hand(state, s)) for s in range(n)] == [7] * n
    assert sorted(state.current_players()) == list(range(n))
    assert all(city(state, s) == [] and state.players[s].stages == 0 for s in range(n))
    obs = state.observation(0)
    assert (obs["round"], obs["turn"]) == (1, 1)


@pytest.mark.parametrize("side", ["a", "b"])
def test_side_option_gives_every_board_that_side(side):
    for seed in range(4):
        state = dealt(7, seed, side=side)
        assert {p.side.side for p in state.players} == {side}


def test_random_side_option_deals_both_sides():
    seen = Counter()
    for seed in range(6):
        for options in ({}, {"side": "random"}):
            state = dealt(7, seed, **options)
            seen.update(p.side.side for p in state.players)
    assert seen["a"] > 0 and seen["b"] > 0


def test_unknown_option_is_a_game_error():
    with pytest.raises(GameError) as err:
        load_game(PACK, players=4, sides="a")
    assert "sides" in str(err.value) and "side" in str(err.value).replace("'sides'", "")


def test_bad_side_value_is_a_game_error():
    with pytest.raises(GameError) as err:
        load_game(PACK, players=4, side="c")
    message = str(err.value)
    assert "'c'" in message and "a" in message and "b" in message


@pytest.mark.parametrize("n", [0, 1, 2, 8, 9])
def test_bad_player_count_is_a_game_error(n):
    with pytest.raises(GameError) as err:
        load_game(PACK, players=n)
    message = str(err.value)
    assert str(n) in message and "3" in message and "7" in message


# ---------------------------------------------------------------- the flow of a game

def test_a_game_is_three_ages_of_six_turns():
    state = dealt(4, 2)
    seen = []
    while not state.is_terminal():
        obs = state.observation(0)
        seen.append((obs["round"], obs["turn"], len(obs["hand"])))
        play_turn(state, {})
    assert seen == [(age, turn, 8 - turn) for age in (1, 2, 3) for turn in range(1, 7)]
    assert state.current_players() == []
    assert state.legal_actions(0) == []


@pytest.mark.parametrize("age, direction", [(0, +1), (1, -1), (2, +1)])
def test_hands_pass_left_in_ages_one_and_three_right_in_age_two(age, direction):
    n = 4
    state = dealt(n, 9)
    play_until(state, age, 0)
    for turn in range(5):
        before = [Counter(hand(state, s)) for s in range(n)]
        chosen = {s: discard_first(state, s) for s in range(n)}
        play_turn(state, chosen)
        for s in range(n):
            kept = before[s] - Counter([chosen[s].card])
            assert Counter(hand(state, (s + direction) % n)) == kept, f"turn {turn + 1}, seat {s}"


def test_seventh_card_is_discarded_without_coins():
    n = 3
    state = table("giza:a", "rhodes:a", "ephesus:a")
    play_until(state, 0, 5)
    set_hand(state, 0, "altar", "theater")
    set_hand(state, 1, "pawnshop", "lumber_yard")
    set_hand(state, 2, "stone_pit", "tavern")
    before_coins = [coins(state, s) for s in range(n)]
    before_discard = len(discard_pile(state))
    play_turn(state, {0: Action("build", "altar"), 1: Action("discard", "pawnshop"),
                      2: Action("build", "stone_pit")})
    assert coins(state, 0) == before_coins[0]           # built a free card, its 7th card brings nothing
    assert coins(state, 1) == before_coins[1] + 3       # 3 for the discarded card, nothing for the 7th
    assert coins(state, 2) == before_coins[2]
    new = Counter(discard_pile(state)[before_discard:])
    assert new == Counter(["theater", "pawnshop", "lumber_yard", "tavern"])
    assert state.round == 1 and state.flow_state.turn == 0
    assert [len(hand(state, s)) for s in range(n)] == [7] * n


# ---------------------------------------------------------------- simultaneous choices

def test_every_seat_chooses_before_anything_happens():
    n = 4
    state = dealt(n, 21)
    public = [state.observation(s)["players"] for s in range(n)]
    hands = [hand(state, s) for s in range(n)]
    assert state.current_players() == [0, 1, 2, 3]
    for committed, seat in enumerate([2, 0, 3], 1):
        state.apply(seat, state.legal_actions(seat)[-1])
        assert seat not in state.current_players()
        assert len(state.current_players()) == n - committed
        assert state.legal_actions(seat) == []
        with pytest.raises(ValueError):
            state.apply(seat, Action("discard", hands[seat][0]))
        for s in range(n):
            assert state.observation(s)["players"] == public[s]
            assert hand(state, s) == hands[s]
        assert discard_pile(state) == []
    assert state.current_players() == [1]
    state.apply(1, state.legal_actions(1)[-1])
    assert state.observation(0)["turn"] == 2
    assert sorted(state.current_players()) == [0, 1, 2, 3]


def test_a_committed_choice_is_hidden_from_the_others():
    n = 4
    state = dealt(n, 8)
    actions = state.legal_actions(0)
    first, second = actions[0], actions[-1]
    assert first != second
    one, other = state.clone(), state.clone()
    one.apply(0, first)
    other.apply(0, second)
    for seat in range(1, n):
        assert one.observation(seat) == other.observation(seat)
        assert one.legal_actions(seat) == other.legal_actions(seat)


# ---------------------------------------------------------------- build, stage, discard

def test_discard_gives_three_coins():
    state = table("giza:a", "rhodes:a", "ephesus:a")
    set_coins(state, 0, 5)
    play_turn(state, {0: discard_first(state, 0), 1: discard_first(state, 1), 2: discard_first(state, 2)})
    assert [coins(state, s) for s in range(3)] == [8, 6, 6]
    assert len(discard_pile(state)) == 3


def test_no_two_buildings_of_the_same_name():
    state = table("giza:a", "rhodes:a", "ephesus:a")
    build(state, 0, "altar", "glassworks", "stone_pit")      # Giza A stage 1: 2 stone
    set_hand(state, 0, "altar", "glassworks", "theater")
    built = {a.card for a in state.legal_actions(0) if a.verb == "build"}
    assert built == {"theater"}
    # The copy can still be spent on a stage or discarded.
    assert can(state, 0, "discard", "altar") and can(state, 0, "stage", "altar")


def test_two_copies_in_hand_only_one_can_be_built():
    state = table("giza:a", "rhodes:a", "ephesus:a")
    set_hand(state, 0, "glassworks", "glassworks", "altar")
    builds = [a for a in state.legal_actions(0) if a.verb == "build" and a.card == "glassworks"]
    assert builds == [Action("build", "glassworks")]
    play_turn(state, {0: Action("build", "glassworks")})
    set_hand(state, 0, "glassworks", "altar")
    assert not can(state, 0, "build", "glassworks")


def test_coin_cost_is_paid_to_the_bank():
    state = table("giza:a", "rhodes:a", "ephesus:a")
    set_hand(state, 0, "clay_pit", "altar")
    set_hand(state, 1, "theater", "altar")
    set_hand(state, 2, "theater", "altar")
    assert state.legal_actions(0).count(Action("build", "clay_pit")) == 1
    play_turn(state, {0: Action("build", "clay_pit"), 1: Action("build", "theater"),
                      2: Action("build", "theater")})
    assert [coins(state, s) for s in range(3)] == [2, 3, 3]
    assert city(state, 0) == ["clay_pit"]


def test_coin_cost_needs_the_coins():
    state = table("giza:a", "rhodes:a", "ephesus:a")
    set_coins(state, 0, 0)
    set_hand(state, 0, "clay_pit", "stone_pit")
    assert not can(state, 0, "build", "clay_pit")
    assert can(state, 0, "build", "stone_pit")


def test_chain_builds_free_without_coins_or_resources():
    # Rule book: the Theater makes the Statue free, and the Statue the Gardens.
    state = table("giza:a", "rhodes:a", "ephesus:a")
    set_coins(state, 0, 0)
    set_hand(state, 0, "statue", "gardens", "courthouse")
    assert not can(state, 0, "build", "statue")          # 2 ore + wood: giza has none, and no coins
    build(state, 0, "theater")
    statue = [a for a in state.legal_actions(0) if a.verb == "build" and a.card == "statue"]
    assert statue == [Action("build", "statue")]
    assert not can(state, 0, "build", "gardens")         # its chain is the Statue, not the Theater
    assert not can(state, 0, "build", "courthouse")
    play_turn(state, {0: Action("build", "statue")})
    assert coins(state, 0) == 0
    assert "statue" in city(state, 0)
    set_hand(state, 0, "gardens")
    assert [a for a in state.legal_actions(0) if a.verb == "build"] == [Action("build", "gardens")]


def test_cannot_build_without_the_resources():
    # Rule book: Giza with 2 stone can build what costs stone, not the Aqueduct (3 stone) alone.
    state = table("giza:a", "rhodes:a", "ephesus:a")
    build(state, 0, "stone_pit")
    set_coins(state, 0, 0)
    set_hand(state, 0, "baths", "aqueduct", "walls", "barracks")
    assert payments(state, 0, "build", "baths") == {(0, 0)}
    assert not can(state, 0, "build", "aqueduct")
    assert not can(state, 0, "build", "barracks")        # the right neighbour (Ephesus) has no ore
    set_coins(state, 0, 10)
    assert not can(state, 0, "build", "aqueduct")        # nobody sells a third stone
    assert payments(state, 0, "build", "barracks") == {(2, 0)}   # Rhodes, on the left, makes ore


def test_rule_book_giza_production_example():
    # Giza producing 2 stone, 1 clay, 1 ore, 1 papyrus and 1 textile can build the Barracks (ore) and
    # the Scriptorium (papyrus), not the Aqueduct (3 stone) without trading.
    state = table("giza:a", "olympia:a", "babylon:a")      # neither neighbour sells stone
    build(state, 0, "stone_pit", "clay_pool", "ore_vein", "press", "loom")
    set_coins(state, 0, 0)
    set_hand(state, 0, "barracks", "scriptorium", "aqueduct")
    assert payments(state, 0, "build", "barracks") == {(0, 0)}
    assert payments(state, 0, "build", "scriptorium") == {(0, 0)}
    assert not can(state, 0, "build", "aqueduct")


def test_stages_are_built_in_order_for_the_board_cost():
    state = table("giza:a", "rhodes:a", "ephesus:a")
    build(state, 0, "stone_pit")
    set_coins(state, 0, 0)
    set_hand(state, 0, "palace", "altar")
    # Giza A, stage 1: 2 stone (the board's stone and the Stone Pit), whatever card is used.
    assert payments(state, 0, "stage", "palace") == {(0, 0)}
    play_turn(state, {0: Action("stage", "palace")})
    assert state.players[0].stages == 1
    assert "palace" not in city(state, 0) and "palace" not in discard_pile(state)
    assert coins(state, 0) == 0
    # Stage 2 costs 3 wood, which Giza does not make: not without coins.
    set_hand(state, 0, "altar", "theater")
    assert not any(a.verb == "stage" for a in state.legal_actions(0))
    build(state, 0, "sawmill", "lumber_yard")
    assert payments(state, 0, "stage", "altar") == {(0, 0)}


def test_no_stage_once_the_wonder_is_complete():
    state = table("giza:a", "rhodes:a", "ephesus:a")
    stages(state, 0, 3)
    build(state, 0, "quarry", "stone_pit", "sawmill", "lumber_yard")
    set_coins(state, 0, 30)
    set_hand(state, 0, "altar", "theater")
    assert not any(a.verb == "stage" for a in state.legal_actions(0))


# ---------------------------------------------------------------- trading

def test_buying_costs_two_coins_a_resource_from_either_neighbour():
    state = table("giza:a", "olympia:a", "rhodes:a")       # left makes wood, right ore
    build(state, 2, "lumber_yard")                          # the right makes wood too
    set_hand(state, 0, "stockade", "barracks", "altar")
    set_hand(state, 1, "altar", "theater")
    set_hand(state, 2, "altar", "theater")
    assert payments(state, 0, "build", "stockade") == {(2, 0), (0, 2)}
    assert payments(state, 0, "build", "barracks") == {(0, 2)}
    play_turn(state, {0: Action("build", "stockade", (0, 2)), 1: Action("build", "altar"),
                      2: Action("build", "altar")})
    assert [coins(state, s) for s in range(3)] == [1, 3, 5]


@pytest.mark.parametrize("producer, target, sold", [
    ("lumber_yard", "stockade", True),      # brown
    ("timber_yard", "stockade", True),      # brown, a choice
    ("sawmill", "stockade", True),          # brown, Age II double
    ("loom", "apothecary", True),           # grey
    ("glassworks", "workshop", True),
    ("press", "scriptorium", True),
    ("forum", "workshop", False),           # yellow: its resource is its owner's alone
    ("forum", "apothecary", False),
    ("caravansery", "stockade", False),
])
def test_what_a_neighbour_sells(producer, target, sold):
    # Giza (stone), Rhodes (ore), Babylon (clay): none makes wood, glass, papyrus or textile.
    state = table("giza:a", "rhodes:a", "babylon:a")
    build(state, 1, producer)
    set_coins(state, 0, 10)
    set_hand(state, 0, target)
    assert payments(state, 0, "build", target) == ({(2, 0)} if sold else set())
    # Its owner uses it in every case.
    set_coins(state, 1, 0)
    set_hand(state, 1, target)
    assert payments(state, 1, "build", target) == {(0, 0)}


@pytest.mark.parametrize("wonder", sorted(START))
@pytest.mark.parametrize("side", ["a", "b"])
def test_each_board_sells_its_starting_resource(wonder, side):
    resource = START[wonder]
    others = [w for w in sorted(START) if w != wonder]
    state = table(f"{others[0]}:a", f"{wonder}:{side}", f"{others[1]}:a")
    target = ONE_OF[resource]
    for seat in (0, 2):
        set_hand(state, seat, target)
    assert payments(state, 0, "build", target) == {(2, 0)}   # seat 1 is seat 0's left
    assert payments(state, 2, "build", target) == {(0, 2)}   # and seat 2's right
    set_coins(state, 1, 0)
    set_hand(state, 1, target)
    assert payments(state, 1, "build", target) == {(0, 0)}


@pytest.mark.parametrize("side", ["a", "b"])
def test_alexandria_private_production_is_used_but_not_sold(side):
    # Alexandria A stage 2 / B stage 1 make one raw resource of its choice; B stage 2 a manufactured one.
    state = table("giza:a", f"alexandria:{side}", "rhodes:a")
    stages(state, 1, 2)
    set_coins(state, 0, 10)
    set_coins(state, 1, 0)
    for target in ("stockade", "guard_tower"):               # wood, clay: only Alexandria's choice
        set_hand(state, 0, target)
        assert payments(state, 0, "build", target) == set(), target
        set_hand(state, 1, target)
        assert payments(state, 1, "build", target) == {(0, 0)}, target
    if side == "b":
        set_hand(state, 0, "apothecary")                      # textile
        assert payments(state, 0, "build", "apothecary") == set()
        set_hand(state, 1, "apothecary")
        assert payments(state, 1, "build", "apothecary") == {(0, 0)}
    set_hand(state, 0, "workshop")                            # the board's glass is sold
    assert payments(state, 0, "build", "workshop") == {(2, 0)}


@pytest.mark.parametrize("trade_card, wood, glass", [
    (None, {(2, 0), (0, 2)}, {(2, 0), (0, 2)}),
    ("east_trading_post", {(2, 0), (0, 1)}, {(2, 0), (0, 2)}),    # raw at 1 from the right
    ("west_trading_post", {(1, 0), (0, 2)}, {(2, 0), (0, 2)}),    # raw at 1 from the left
    ("marketplace", {(2, 0), (0, 2)}, {(1, 0), (0, 1)}),          # manufactured at 1 from both
])
def test_trading_cards_lower_prices(trade_card, wood, glass):
    state = table("giza:a", "olympia:a", "rhodes:a")
    build(state, 2, "lumber_yard")
    build(state, 1, "glassworks")
    build(state, 2, "glassworks")
    if trade_card:
        build(state, 0, trade_card)
    set_hand(state, 0, "stockade", "workshop")
    assert payments(state, 0, "build", "stockade") == wood
    assert payments(state, 0, "build", "workshop") == glass


def test_both_trading_posts_make_raw_one_coin_from_both():
    state = table("giza:a", "olympia:a", "rhodes:a")
    build(state, 2, "lumber_yard")
    build(state, 0, "east_trading_post", "west_trading_post")
    set_hand(state, 0, "stockade")
    assert payments(state, 0, "build", "stockade") == {(1, 0), (0, 1)}


def test_a_cheaper_price_pays_the_seller_the_cheaper_price():
    state = table("giza:a", "olympia:a", "rhodes:a")
    build(state, 0, "west_trading_post")
    set_hand(state, 0, "stockade")
    set_hand(state, 1, "altar")
    set_hand(state, 2, "altar")
    play_turn(state, {0: Action("build", "stockade", (1, 0)), 1: Action("build", "altar"),
                      2: Action("build", "altar")})
    assert [coins(state, s) for s in range(3)] == [2, 4, 3]


def test_olympia_b_first_stage_buys_raw_at_one_from_both():
    state = table("olympia:b", "rhodes:a", "giza:a")
    build(state, 2, "ore_vein", "glassworks")
    build(state, 1, "glassworks")
    stages(state, 0, 1)
    set_hand(state, 0, "barracks", "workshop", "baths")
    assert payments(state, 0, "build", "barracks") == {(1, 0), (0, 1)}
    assert payments(state, 0, "build", "baths") == {(0, 1)}
    assert payments(state, 0, "build", "workshop") == {(2, 0), (0, 2)}   # manufactured: still 2


def test_a_choice_card_sells_one_resource_a_turn():
    # A neighbour's Timber Yard sells wood OR stone, not both to the same buyer in one turn.
    state = table("rhodes:a", "giza:b", "babylon:a")        # senate: ore + stone + 2 wood
    build(state, 1, "timber_yard", "lumber_yard")
    set_coins(state, 0, 20)
    set_hand(state, 0, "senate")
    # Giza makes stone; the left offers stone + wood + (wood or stone): 3 units for stone + 2 wood.
    assert payments(state, 0, "build", "senate") == {(6, 0)}
    state = table("rhodes:a", "olympia:a", "babylon:a")     # left: wood, timber yard, no stone
    build(state, 1, "timber_yard")
    set_coins(state, 0, 20)
    set_hand(state, 0, "senate")
    assert not can(state, 0, "build", "senate")              # stone + 2 wood from 2 units: no
    build(state, 2, "stone_pit")
    assert payments(state, 0, "build", "senate") == {(4, 2)}


def test_only_the_two_neighbours_trade_and_seats_wrap_around():
    state = table("giza:a", "rhodes:a", "ephesus:a", "olympia:a", "babylon:a", "halicarnassus:a",
                  "alexandria:a")
    for seat in range(7):
        set_coins(state, seat, 10)
    set_hand(state, 0, "barracks", "workshop", "stockade", "guard_tower")
    assert payments(state, 0, "build", "barracks") == {(2, 0)}      # Rhodes, seat 1, on the left
    assert payments(state, 0, "build", "workshop") == {(0, 2)}      # Alexandria, seat 6, on the right
    assert payments(state, 0, "build", "stockade") == set()          # Olympia sits 3 seats away
    assert payments(state, 0, "build", "guard_tower") == set()       # Babylon too
    set_hand(state, 6, "baths", "apothecary", "scriptorium")
    assert payments(state, 6, "build", "baths") == {(2, 0)}         # Giza, seat 0, is seat 6's left
    assert payments(state, 6, "build", "apothecary") == {(0, 2)}    # Halicarnassus, seat 5, its right
    assert payments(state, 6, "build", "scriptorium") == set()


def test_rule_book_example_a_university():
    # University (2 wood + glass + papyrus); the city makes 1 wood and 1 glass; the left neighbour
    # makes wood, the right papyrus: it pays 2 coins to each.
    state = table("olympia:a", "rhodes:a", "ephesus:a")      # Olympia: wood; Ephesus (right): papyrus
    build(state, 0, "glassworks")
    build(state, 1, "lumber_yard")
    set_coins(state, 0, 4)
    set_hand(state, 0, "university", "altar")
    set_hand(state, 1, "altar", "theater")
    set_hand(state, 2, "altar", "theater")
    assert payments(state, 0, "build", "university") == {(2, 2)}
    play_turn(state, {0: Action("build", "university", (2, 2)), 1: Action("build", "altar"),
                      2: Action("build", "altar")})
    assert "university" in city(state, 0)
    assert [coins(state, s) for s in range(3)] == [0, 5, 5]


def test_rule_book_example_b_selling_does_not_use_up_resources():
    # Both neighbours buy 2 stone each from the city (8 coins in all); the same turn it builds the
    # Library (2 stone + textile) from its own production.
    state = table("giza:a", "ephesus:a", "alexandria:a")     # stage 1 of both neighbours: 2 stone
    build(state, 0, "stone_pit", "loom")
    set_coins(state, 0, 0)
    set_coins(state, 1, 4)
    set_coins(state, 2, 4)
    set_hand(state, 0, "library", "altar")
    set_hand(state, 1, "altar", "theater")
    set_hand(state, 2, "altar", "theater")
    assert payments(state, 1, "stage", "altar") == {(0, 4)}  # seat 0 is seat 1's right
    assert payments(state, 2, "stage", "altar") == {(4, 0)}  # and seat 2's left
    assert payments(state, 0, "build", "library") == {(0, 0)}
    play_turn(state, {0: Action("build", "library"), 1: Action("stage", "altar", (0, 4)),
                      2: Action("stage", "altar", (4, 0))})
    assert city(state, 0) == ["stone_pit", "loom", "library"]
    assert [coins(state, s) for s in range(3)] == [8, 0, 0]
    assert [state.players[s].stages for s in range(3)] == [0, 1, 1]


def test_rule_book_example_c_coins_earned_this_turn_come_too_late():
    # Forum (2 clay); the city makes 1 clay and a neighbour makes clay; no coins at the start of the
    # turn. A neighbour buys from it this turn, but it cannot spend that money before the next turn.
    state = table("giza:a", "babylon:a", "rhodes:a")
    build(state, 0, "clay_pool")
    set_coins(state, 0, 0)
    set_hand(state, 0, "forum", "altar", "theater", "pawnshop", "lumber_yard", "ore_vein", "loom")
    set_hand(state, 1, "altar", "theater", "pawnshop", "lumber_yard", "ore_vein", "loom", "press")
    set_hand(state, 2, "baths", "forum", "theater", "pawnshop", "lumber_yard", "ore_vein", "loom")
    assert payments(state, 2, "build", "baths") == {(2, 0)}  # stone from Giza, its left
    state.apply(2, Action("build", "baths", (2, 0)))
    assert not can(state, 0, "build", "forum")
    state.apply(0, Action("build", "altar"))
    state.apply(1, Action("build", "altar"))
    assert coins(state, 0) == 2
    assert "forum" in hand(state, 0)                          # the right neighbour's hand came left
    assert payments(state, 0, "build", "forum") == {(2, 0)}


def test_dominated_payments_are_not_offered():
    # Temple: clay + glass + wood. Alexandria makes glass; its Tree Farm makes wood or clay.
    # Left (Babylon + Lumber Yard) sells clay and wood, right (Olympia) sells wood.
    state = table("alexandria:a", "babylon:a", "olympia:a")
    build(state, 0, "tree_farm")
    build(state, 1, "lumber_yard")
    set_coins(state, 0, 10)
    set_hand(state, 0, "temple")
    temple = [a.pay for a in state.legal_actions(0) if a.verb == "build" and a.card == "temple"]
    # Buy the one missing resource, from either side: buying both while the Tree Farm idles,
    # (4, 0) or (2, 2), is never offered.
    assert sorted(temple) == [(0, 2), (2, 0)]
    build(state, 0, "west_trading_post")                      # left raw now at 1: (1, 0) beats (2, 0)
    temple = [a.pay for a in state.legal_actions(0) if a.verb == "build" and a.card == "temple"]
    assert sorted(temple) == [(0, 2), (1, 0)]


def test_enough_production_means_a_single_free_payment():
    state = table("olympia:a", "babylon:a", "alexandria:a")
    build(state, 0, "clay_pool", "glassworks")
    set_hand(state, 0, "temple")
    assert [a for a in state.legal_actions(0) if a.card == "temple" and a.verb == "build"] \
        == [Action("build", "temple")]


def test_many_choice_producers_list_few_payments_quickly():
    import wonderforge.interpreter.core.payment as payment_module
    for value in vars(payment_module).values():
        if callable(getattr(value, "cache_clear", None)):
            value.cache_clear()
    state = table("alexandria:a", "giza:a", "rhodes:a")
    # The six choice cards of Age I, and a second Timber Yard put there by hand to make seven.
    choices = ["clay_pit", "excavation", "forest_cave", "mine", "timber_yard", "tree_farm", "timber_yard"]
    build(state, 1, *choices)
    build(state, 2, *choices)
    set_coins(state, 0, 30)
    set_hand(state, 0, "senate", "town_hall", "gardens", "palace", "pantheon", "fortifications", "circus")
    start = time.perf_counter()
    actions = state.legal_actions(0)
    assert time.perf_counter() - start < 1.0
    # Senate, ore + stone + 2 wood: Alexandria makes none; each neighbour can make all four.
    assert payments(state, 0, "build", "senate") == {(2 * k, 2 * (4 - k)) for k in range(5)}
    assert len(actions) < 60


# Production of every card a neighbour may sell from, written from the rule book's card list.
PRODUCERS = {
    "lumber_yard": ["wood"], "stone_pit": ["stone"], "clay_pool": ["clay"], "ore_vein": ["ore"],
    "tree_farm": ["wood/clay"], "excavation": ["stone/clay"], "clay_pit": ["clay/ore"],
    "timber_yard": ["stone/wood"], "forest_cave": ["wood/ore"], "mine": ["ore/stone"],
    "sawmill": ["wood", "wood"], "quarry": ["stone", "stone"], "brickyard": ["clay", "clay"],
    "foundry": ["ore", "ore"], "loom": ["textile"], "glassworks": ["glass"], "press": ["papyrus"],
}
PRIVATE = {"forum": ["glass/papyrus/textile"], "caravansery": ["wood/stone/ore/clay"]}
TARGETS = ["baths", "aqueduct", "courthouse", "statue", "temple", "gardens", "palace", "pantheon",
           "senate", "town_hall", "apothecary", "workshop", "dispensary", "laboratory", "library",
           "school", "academy", "lodge", "observatory", "study", "university", "barracks", "stables",
           "archery_range", "walls", "fortifications", "siege_workshop", "arsenal", "builders_guild",
           "craftsmens_guild", "scientists_guild", "spies_guild", "workers_guild", "shipowners_guild"]
TRADERS = ["east_trading_post", "west_trading_post", "marketplace"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(wonders=st.permutations(sorted(START)),
       own=st.lists(st.sampled_from(sorted(PRODUCERS) + sorted(PRIVATE)), max_size=5, unique=True),
       traders=st.lists(st.sampled_from(TRADERS), max_size=3, unique=True),
       left=st.lists(st.sampled_from(sorted(PRODUCERS) + sorted(PRIVATE)), max_size=6, unique=True),
       right=st.lists(st.sampled_from(sorted(PRODUCERS) + sorted(PRIVATE)), max_size=6, unique=True),
       target=st.sampled_from(TARGETS), budget=st.integers(0, 12))
def test_offered_payments_are_exactly_the_undominated_ways_to_pay(wonders, own, traders, left, right,
                                                                   target, budget):
    state = table(f"{wonders[0]}:a", f"{wonders[1]}:a", f"{wonders[2]}:a")
    build(state, 0, *own, *traders)
    build(state, 1, *left)
    build(state, 2, *right)
    set_coins(state, 0, budget)
    set_hand(state, 0, target)

    def production(cards, wonder, private):
        units = [START[wonder]] + [u for c in cards for u in PRODUCERS.get(c, ())]
        if private:
            units += [u for c in cards for u in PRIVATE.get(c, ())]
        return units_of(units)

    def price(resource, side):
        if resource in RAW and ({"left": "west_trading_post", "right": "east_trading_post"}[side] in traders):
            return 1
        if resource in MANUFACTURED and "marketplace" in traders:
            return 1
        return 2

    need = list(card(state, target).cost.resources)
    expected = brute_payments(need, production(own, wonders[0], True),
                              production(left, wonders[1], False), production(right, wonders[2], False),
                              {r: price(r, "left") for r in RAW + MANUFACTURED},
                              {r: price(r, "right") for r in RAW + MANUFACTURED})
    expected = {p for p in expected if sum(p) <= budget}
    assert payments(state, 0, "build", target) == expected


# ---------------------------------------------------------------- military

def test_military_tokens_at_the_end_of_each_age():
    state = table("giza:a", "rhodes:a", "ephesus:a")
    shields = {0: [2, 1, 1], 1: [0, 3, 1], 2: [5, 5, 5]}
    expected = {0: [[1, 1], [-1, -1], []], 1: [[-1], [3, 3], []], 2: [[-1], [3, -1], []]}
    for age in range(3):
        for seat in range(3):
            state.players[seat].counters["shields"] = shields[age][seat]
        finish_age(state)
        for seat in range(3):
            won = sorted(v for _, v, r in state.players[seat].tokens if r == age)
            assert won == sorted(expected[seat][age]), (age, seat)
    assert state.is_terminal()
    assert [s["breakdown"]["military"] for s in state.scores()] == [0, 5, 1]


def test_rule_book_military_example_age_two():
    # End of Age II: Alexandria (3 shields) between Rhodes (5, on its left) and Ephesus (2, on its
    # right) takes a defeat (-1) and a victory (+3).
    state = table("alexandria:a", "rhodes:a", "ephesus:a")
    finish_age(state)
    assert all(p.tokens == [] for p in state.players)
    build(state, 0, "stables", "barracks")
    stages(state, 1, 2)                                      # Rhodes A stage 2: 2 shields
    build(state, 1, "walls", "guard_tower")
    build(state, 2, "stockade", "guard_tower")
    finish_age(state)
    tokens = {s: sorted((k, v) for k, v, r in state.players[s].tokens if r == 1) for s in range(3)}
    assert tokens[0] == [("defeat", -1), ("victory", 3)]
    assert tokens[1] == [("victory", 3), ("victory", 3)]
    assert tokens[2] == [("defeat", -1), ("defeat", -1)]


def test_battles_are_fought_with_both_neighbours_around_the_table():
    state = table("giza:a", "rhodes:a", "ephesus:a", "olympia:a", "babylon:a", "halicarnassus:a",
                  "alexandria:a")
    state.players[6].counters["shields"] = 2
    state.players[3].counters["shields"] = 1
    finish_age(state)
    won = [sorted(v for _, v, _ in p.tokens) for p in state.players]
    assert won == [[-1], [], [-1], [1, 1], [-1], [-1], [1, 1]]


def test_rhodes_stage_shields_count_in_battles():
    state = table("rhodes:b", "giza:a", "ephesus:a")
    build(state, 0, "quarry", "stone_pit")                   # Rhodes B stage 1: 3 stone
    set_hand(state, 0, "altar", "theater", "pawnshop", "lumber_yard", "ore_vein", "loom", "press")
    state.apply(0, Action("stage", "altar"))
    for seat in (1, 2):
        state.apply(seat, discard_first(state, seat))
    assert coins(state, 0) == 3 + 3
    finish_age(state)
    assert sorted(v for _, v, _ in state.players[0].tokens) == [1, 1]
    assert state.scores()[0]["breakdown"]["wonder"] == 3


# ---------------------------------------------------------------- wonder powers

COSTLY = ["palace", "clay_pit", "baths", "pantheon"]
FREE = ["altar", "stone_pit", "theater"]


def test_olympia_a_builds_free_once_per_age():
    state = table("olympia:a", "rhodes:a", "ephesus:a")
    stages(state, 0, 2)
    set_hand(state, 0, *COSTLY, *FREE)
    free = {a.card for a in state.legal_actions(0) if a.free}
    assert free == set(COSTLY)                               # only where the card costs something
    assert all(a.verb == "build" for a in state.legal_actions(0) if a.free)
    play_turn(state, {0: Action("build", "palace", free=True)})
    assert "palace" in city(state, 0) and coins(state, 0) == 3
    set_hand(state, 0, "pantheon", "baths", "clay_pit", "altar", "theater", "pawnshop")
    assert not any(a.free for a in state.legal_actions(0))
    finish_age(state)
    assert state.round == 1
    set_hand(state, 0, "palace", "pantheon", "aqueduct", "lumber_yard", "altar", "vineyard", "quarry")
    free = {a.card for a in state.legal_actions(0) if a.free}
    assert free == {"pantheon", "aqueduct", "quarry"}        # not the Palace it already has
    assert not can(state, 0, "build", "palace")
    before = coins(state, 0)
    play_turn(state, {0: Action("build", "quarry", free=True)})   # its coin is not paid either
    assert "quarry" in city(state, 0) and coins(state, 0) == before


def test_olympia_a_free_build_is_not_offered_for_a_chained_card():
    state = table("olympia:a", "rhodes:a", "ephesus:a")
    stages(state, 0, 2)
    build(state, 0, "theater")
    set_hand(state, 0, "statue", "palace")
    assert [a for a in state.legal_actions(0) if a.card == "statue" and a.verb == "build"] \
        == [Action("build", "statue")]
    assert Action("build", "palace", free=True) in state.legal_actions(0)


def test_olympia_a_free_build_needs_its_stage():
    state = table("olympia:a", "rhodes:a", "ephesus:a")
    stages(state, 0, 1)
    set_hand(state, 0, *COSTLY, *FREE)
    assert not any(a.free for a in state.legal_actions(0))


def test_halicarnassus_builds_a_discarded_card_at_the_end_of_the_turn():
    state = table("halicarnassus:a", "rhodes:a", "ephesus:a")
    stages(state, 0, 1)
    build(state, 0, "ore_vein", "foundry", "altar")          # stage 2: 3 ore
    state.shared[DISCARD] += [card(state, "lumber_yard"), card(state, "altar")]
    set_hand(state, 0, "pawnshop", "loom", "press", "baths", "stockade", "clay_pool", "tavern")
    set_hand(state, 1, "palace", "loom", "press", "baths", "stockade", "clay_pool", "tavern")
    set_hand(state, 2, "theater", "loom", "press", "baths", "stockade", "clay_pool", "tavern")
    state.apply(0, Action("stage", "pawnshop"))
    state.apply(1, Action("discard", "palace"))
    state.apply(2, Action("discard", "theater"))
    assert state.current_players() == [0]
    offered = state.legal_actions(0)
    assert all(a.verb == "build" and a.free for a in offered)
    # Cards discarded this very turn count; the Altar it has does not.
    assert {a.card for a in offered} == {"lumber_yard", "palace", "theater"}
    assert state.legal_actions(1) == []
    state.apply(0, Action("build", "palace", free=True))
    assert "palace" in city(state, 0) and "palace" not in discard_pile(state)
    assert coins(state, 0) == 3
    assert sorted(state.current_players()) == [0, 1, 2]
    assert state.observation(0)["turn"] == 2
    # Once: the next turns' discards give nothing more.
    play_turn(state, {})
    assert sorted(state.current_players()) == [0, 1, 2]
    assert state.observation(0)["turn"] == 3


def test_halicarnassus_on_the_sixth_turn_may_take_a_seventh_card():
    state = table("halicarnassus:a", "rhodes:a", "ephesus:a")
    stages(state, 0, 1)
    build(state, 0, "ore_vein", "foundry")
    play_until(state, 0, 5)
    set_hand(state, 0, "altar", "pawnshop")
    set_hand(state, 1, "theater", "palace")
    set_hand(state, 2, "baths", "pantheon")
    play_turn(state, {0: Action("stage", "altar"), 1: Action("build", "theater"), 2: Action("discard", "baths")})
    assert state.current_players() == [0]
    offered = {a.card for a in state.legal_actions(0)}
    assert {"palace", "pantheon", "baths", "pawnshop"} <= offered
    assert offered == set(discard_pile(state)) - set(city(state, 0))
    state.apply(0, Action("build", "pantheon", free=True))
    assert "pantheon" in city(state, 0)
    assert state.round == 1 and sorted(state.current_players()) == [0, 1, 2]


def test_a_card_halicarnassus_takes_on_the_sixth_turn_fights_in_that_age():
    state = table("halicarnassus:a", "rhodes:a", "ephesus:a")
    stages(state, 0, 1)
    build(state, 0, "ore_vein", "foundry")
    play_until(state, 0, 5)
    state.shared[DISCARD].append(card(state, "walls"))
    set_hand(state, 0, "altar", "pawnshop")
    play_turn(state, {0: Action("stage", "altar")})
    state.apply(0, Action("build", "walls", free=True))
    assert state.round == 1
    assert sorted(v for _, v, r in state.players[0].tokens if r == 0) == [1, 1]


def test_babylon_b_seventh_card_fights_in_that_age():
    state = table("babylon:b", "rhodes:a", "ephesus:a")
    stages(state, 0, 2)
    build(state, 0, "lumber_yard")
    play_until(state, 0, 5)
    set_hand(state, 0, "altar", "stockade")
    play_turn(state, {0: Action("build", "altar")})
    state.apply(0, Action("build", "stockade"))
    assert sorted(v for _, v, r in state.players[0].tokens if r == 0) == [1, 1]


def test_halicarnassus_takes_babylons_seventh_card_on_the_last_turn_of_the_game():
    state = table("babylon:b", "halicarnassus:a", "ephesus:a")
    stages(state, 0, 2)
    stages(state, 1, 1)
    build(state, 1, "ore_vein", "foundry")
    play_until(state, 2, 5)
    set_hand(state, 0, "altar", "palace")
    set_hand(state, 1, "theater", "pantheon")
    set_hand(state, 2, "baths", "senate")
    play_turn(state, {0: Action("build", "altar"), 1: Action("stage", "theater"), 2: Action("discard", "baths")})
    assert state.current_players() == [0]                    # Babylon first: its 7th card
    state.apply(0, Action("discard", "palace"))
    assert state.current_players() == [1]                    # then the end of the turn
    assert {"palace", "pantheon", "senate", "baths"} <= {a.card for a in state.legal_actions(1)}
    state.apply(1, Action("build", "palace", free=True))
    assert state.is_terminal()
    assert "palace" in city(state, 1)
    assert state.scores()[1]["breakdown"]["civilian"] == 8


def test_halicarnassus_b_builds_from_the_discard_once_per_stage():
    state = table("halicarnassus:b", "rhodes:a", "ephesus:a")
    build(state, 0, "ore_vein", "foundry", "brickyard", "clay_pool")
    state.shared[DISCARD] += [card(state, "lumber_yard"), card(state, "press"), card(state, "loom")]
    set_hand(state, 0, "altar", "theater", "baths", "stockade", "pawnshop", "tavern", "press")
    state.apply(0, Action("stage", "altar"))                 # stage 1: 2 ore
    for seat in (1, 2):
        state.apply(seat, discard_first(state, seat))
    assert state.current_players() == [0]
    state.apply(0, Action("build", "loom", free=True))
    play_turn(state, {})                                     # no stage: no new power
    assert sorted(state.current_players()) == [0, 1, 2]
    set_hand(state, 0, "altar", "theater", "baths", "stockade", "pawnshop")
    state.apply(0, Action("stage", "theater"))               # stage 2: 3 clay
    for seat in (1, 2):
        state.apply(seat, discard_first(state, seat))
    assert state.current_players() == [0]
    assert "loom" not in {a.card for a in state.legal_actions(0)}
    state.apply(0, Action("build", "lumber_yard", free=True))
    assert {"loom", "lumber_yard"} <= set(city(state, 0))
    assert state.scores()[0]["breakdown"]["wonder"] == 2 + 1


def test_halicarnassus_power_is_used_at_the_end_of_its_turn_or_lost():
    state = table("halicarnassus:a", "rhodes:a", "ephesus:a")
    stages(state, 0, 1)
    build(state, 0, "ore_vein", "foundry")
    set_hand(state, 0, "altar", "theater", "baths", "stockade", "pawnshop", "tavern", "press")
    set_hand(state, 1, "altar", "theater", "baths", "stockade", "pawnshop", "tavern", "press")
    set_hand(state, 2, "altar", "theater", "baths", "stockade", "pawnshop", "tavern", "press")
    play_turn(state, {0: Action("stage", "altar"), 1: Action("build", "altar"), 2: Action("build", "altar")})
    assert discard_pile(state) == []
    assert sorted(state.current_players()) == [0, 1, 2]      # nothing to take: the power lapses
    play_turn(state, {})
    assert discard_pile(state) != []
    assert sorted(state.current_players()) == [0, 1, 2]


@pytest.mark.parametrize("verb", ["build", "stage", "discard"])
def test_babylon_b_plays_its_seventh_card(verb):
    state = table("babylon:b", "rhodes:a", "ephesus:a")
    stages(state, 0, 2)
    build(state, 0, "brickyard", "press")                    # stage 3: 3 clay + papyrus
    play_until(state, 0, 5)
    set_hand(state, 0, "altar", "theater")
    set_hand(state, 1, "pawnshop", "palace")
    set_hand(state, 2, "stockade", "pantheon")
    before = coins(state, 0)
    play_turn(state, {0: Action("build", "altar"), 1: Action("discard", "pawnshop"),
                      2: Action("discard", "stockade")})
    assert state.current_players() == [0]
    assert {(a.verb, a.card) for a in state.legal_actions(0)} == {
        ("build", "theater"), ("stage", "theater"), ("discard", "theater")}
    assert "theater" not in discard_pile(state)
    assert {"palace", "pantheon"} <= set(discard_pile(state))
    state.apply(0, Action(verb, "theater"))
    if verb == "build":
        assert "theater" in city(state, 0) and coins(state, 0) == before
    elif verb == "stage":
        assert state.players[0].stages == 3 and "theater" not in discard_pile(state)
    else:
        assert "theater" in discard_pile(state) and coins(state, 0) == before + 3
    assert state.round == 1 and len(hand(state, 0)) == 7


def test_babylon_b_second_stage_built_on_the_sixth_turn_plays_the_seventh_card():
    state = table("babylon:b", "rhodes:a", "ephesus:a")
    stages(state, 0, 1)
    build(state, 0, "glassworks", "sawmill")                 # stage 2: glass + 2 wood
    play_until(state, 0, 5)
    set_hand(state, 0, "altar", "theater")
    play_turn(state, {0: Action("stage", "altar")})
    assert state.current_players() == [0]
    state.apply(0, Action("build", "theater"))
    assert "theater" in city(state, 0)
    assert state.round == 1


def test_without_the_power_babylon_discards_its_seventh_card():
    state = table("babylon:b", "rhodes:a", "ephesus:a")
    stages(state, 0, 1)
    play_until(state, 0, 5)
    set_hand(state, 0, "altar", "theater")
    play_turn(state, {0: Action("build", "altar")})
    assert "theater" in discard_pile(state)
    assert state.round == 1


SCIENCE_CARDS = ["apothecary", "dispensary", "workshop", "laboratory", "scriptorium"]   # 2 C, 2 G, 1 T


@pytest.mark.parametrize("holding, science", [
    ({"wonder": "babylon", "side": "a", "stages": 1, "cards": SCIENCE_CARDS}, 16),
    ({"wonder": "babylon", "side": "a", "stages": 2, "cards": SCIENCE_CARDS}, 26),   # the tablet
    ({"wonder": "babylon", "side": "b", "stages": 3, "cards": SCIENCE_CARDS}, 26),
    ({"wonder": "giza", "side": "a", "cards": SCIENCE_CARDS + ["scientists_guild"]}, 26),
    ({"wonder": "babylon", "side": "a", "stages": 2, "cards": []}, 1),
    # 3 compass, 1 gear and two wild symbols: two more compasses (25 + 1) beat any set (21).
    ({"wonder": "babylon", "side": "a", "stages": 2,
      "cards": ["apothecary", "dispensary", "lodge", "workshop", "scientists_guild"]}, 26),
])
def test_wild_science_symbols_are_chosen_to_score_best(holding, science):
    state = finished(holding, {"wonder": "rhodes", "side": "a"}, {"wonder": "ephesus", "side": "a"})
    breakdown = state.scores()[0]["breakdown"]
    assert breakdown["science"] == science
    assert breakdown["guilds"] == 0


def test_olympia_b_copies_the_best_guild_of_a_neighbour():
    olympia = {"wonder": "olympia", "side": "b", "stages": 3}
    left = {"wonder": "rhodes", "side": "a",
            "cards": ["workers_guild", "lumber_yard", "altar", "theater", "barracks", "stockade", "archery_range"]}
    across = {"wonder": "giza", "side": "a", "cards": ["spies_guild"]}
    right = {"wonder": "ephesus", "side": "a",
             "cards": ["magistrates_guild", "stone_pit", "baths", "pawnshop", "guard_tower", "walls", "stables"]}
    state = finished(olympia, left, across, right)
    scores = state.scores()
    # Workers: 2 brown cards next to Olympia; Magistrates: 4 blue; the Spies' 6 red are across.
    assert scores[0]["breakdown"]["guilds"] == 4
    assert scores[0]["breakdown"]["wonder"] == 5
    assert state.totals() == [s["total"] for s in scores]  # the copy counted as `scores` counts it
    # Its neighbours' own guilds are not changed by the copy.
    plain = finished({**olympia, "stages": 2}, left, across, right).scores()
    assert plain[0]["breakdown"]["guilds"] == 0
    assert [s["breakdown"]["guilds"] for s in scores[1:]] == [s["breakdown"]["guilds"] for s in plain[1:]]


def test_olympia_b_copies_the_scientists_guild_for_science():
    state = finished({"wonder": "olympia", "side": "b", "stages": 3,
                      "cards": ["workshop", "laboratory", "apothecary", "scriptorium"]},
                     {"wonder": "rhodes", "side": "a", "cards": ["scientists_guild", "workers_guild",
                                                                 "clay_pool", "ore_vein"]},
                     {"wonder": "giza", "side": "a", "cards": ["timber_yard"]})
    # Own: 2 gear, 1 compass, 1 tablet = 13; a third gear makes 18; Workers would give 3 points.
    breakdown = state.scores()[0]["breakdown"]
    assert breakdown["science"] + breakdown["guilds"] == 18


# Points of a complete wonder, from the rule book's description of the boards.
WONDER_POINTS = {
    ("alexandria", "a"): (3, 10), ("alexandria", "b"): (3, 7),
    ("babylon", "a"): (3, 10), ("babylon", "b"): (3, 3),
    ("ephesus", "a"): (3, 10), ("ephesus", "b"): (3, 2 + 3 + 5),
    ("giza", "a"): (3, 3 + 5 + 7), ("giza", "b"): (4, 3 + 5 + 5 + 7),
    ("halicarnassus", "a"): (3, 10), ("halicarnassus", "b"): (3, 2 + 1),
    ("olympia", "a"): (3, 10), ("olympia", "b"): (3, 5),
    ("rhodes", "a"): (3, 10), ("rhodes", "b"): (2, 3 + 4),
}


@pytest.mark.parametrize("wonder, side", sorted(WONDER_POINTS))
def test_a_complete_wonder_scores_its_stages(wonder, side):
    count, points = WONDER_POINTS[wonder, side]
    assert len(game_for(3).catalogue.sides[wonder, side].stages) == count
    others = [w for w in sorted(START) if w != wonder]
    state = finished({"wonder": wonder, "side": side, "stages": count},
                     {"wonder": others[0], "side": "a"}, {"wonder": others[1], "side": "a"})
    assert state.scores()[0]["breakdown"]["wonder"] == points


def test_olympia_b_copying_the_shipowners_guild_counts_the_copy_itself():
    # Shipowners: 1 point per brown, grey and purple card of its own city, "elle-même comptabilisée";
    # Olympia B scores a copied guild "comme s'il avait lui-même construit cette Guilde".
    state = finished({"wonder": "olympia", "side": "b", "stages": 3, "cards": ["lumber_yard", "loom"]},
                     {"wonder": "rhodes", "side": "a", "cards": ["shipowners_guild", "stone_pit"]},
                     {"wonder": "giza", "side": "a"})
    assert state.scores()[0]["breakdown"]["guilds"] == 1 + 1 + 1
    assert state.scores()[1]["breakdown"]["guilds"] == 1 + 1


def test_ephesus_a_takes_nine_coins_at_once():
    state = table("ephesus:a", "rhodes:a", "giza:a")
    stages(state, 0, 1)
    build(state, 0, "sawmill")                               # stage 2: 2 wood
    set_hand(state, 0, "altar", "theater", "baths", "stockade", "pawnshop", "tavern", "press")
    play_turn(state, {0: Action("stage", "altar")})
    assert coins(state, 0) == 3 + 9
    assert state.players[0].stages == 2


def test_ephesus_b_stages_give_coins_and_points():
    state = table("ephesus:b", "rhodes:a", "giza:a")
    build(state, 0, "quarry", "sawmill", "glassworks", "loom")
    for expected_coins in (7, 11, 15):
        set_hand(state, 0, "altar", "theater", "baths", "stockade", "pawnshop")
        play_turn(state, {0: Action("stage", "altar")})
        assert coins(state, 0) == expected_coins
    assert state.scores()[0]["breakdown"]["wonder"] == 2 + 3 + 5


# ---------------------------------------------------------------- scoring

def test_score_categories_in_rule_book_order():
    state = random_game(4, 5, 5)
    for entry in state.scores():
        assert list(entry["breakdown"]) == CATEGORIES


def test_rule_book_alexandria_scoring_example():
    state = finished(
        {"wonder": "alexandria", "side": "a", "stages": 3, "counters": {"coins": 14},
         "cards": ["altar", "aqueduct", "town_hall", "chamber_of_commerce", "glassworks", "loom"],
         "tokens": [("victory", 1), ("victory", 3), ("victory", 5), ("defeat", -1), ("defeat", -1),
                    ("defeat", -1)]},
        {"wonder": "rhodes", "side": "a"}, {"wonder": "giza", "side": "a"})
    breakdown = state.scores()[0]["breakdown"]
    assert breakdown == {"military": 6, "treasury": 4, "wonder": 10, "civilian": 13, "science": 0,
                         "commerce": 4, "guilds": 0}
    assert state.scores()[0]["total"] == 37


@pytest.mark.parametrize("amount, points", [(0, 0), (2, 0), (3, 1), (14, 4), (15, 5), (29, 9)])
def test_treasury_scores_a_point_per_three_coins(amount, points):
    state = finished({"wonder": "giza", "side": "a", "counters": {"coins": amount}},
                     {"wonder": "rhodes", "side": "a"}, {"wonder": "ephesus", "side": "a"})
    assert state.scores()[0]["breakdown"]["treasury"] == points


@pytest.mark.parametrize("cards, points", [
    ([], 0),
    (["apothecary"], 1),
    (["apothecary", "workshop", "scriptorium"], 1 + 1 + 1 + 7),
    (["apothecary", "dispensary", "lodge", "workshop", "laboratory", "scriptorium"], 9 + 4 + 1 + 7),
    (["apothecary", "dispensary", "lodge", "academy"], 16),
    (["apothecary", "dispensary", "workshop", "laboratory", "scriptorium", "library"], 4 + 4 + 4 + 14),
    (["apothecary", "dispensary", "lodge", "academy", "workshop", "laboratory", "observatory", "study",
      "scriptorium", "library", "school", "university"], 16 * 3 + 28),
])
def test_science_scores_squares_plus_seven_per_set(cards, points):
    state = finished({"wonder": "giza", "side": "a", "cards": cards},
                     {"wonder": "rhodes", "side": "a"}, {"wonder": "ephesus", "side": "a"})
    assert state.scores()[0]["breakdown"]["science"] == points


# Seat 0 holds the guild; seat 1 is its left, seat 3 its right, seat 2 sits across and never counts.
@pytest.mark.parametrize("guild, own, left, across, right, points", [
    ("workers_guild", ["lumber_yard"], ["stone_pit", "clay_pool"], ["ore_vein", "quarry"], ["ore_vein"], 3),
    ("craftsmens_guild", ["loom"], ["glassworks"], ["loom", "press"], ["press", "loom"], 6),
    ("magistrates_guild", ["altar"], ["theater", "baths"], ["altar", "statue"], ["pawnshop"], 3),
    ("philosophers_guild", ["workshop"], ["apothecary"], ["school"], ["scriptorium", "school"], 3),
    ("traders_guild", ["tavern"], ["marketplace"], ["forum"], ["vineyard", "forum"], 3),
    ("spies_guild", ["barracks"], ["stockade"], ["walls"], ["guard_tower", "walls"], 3),
    ("shipowners_guild", ["lumber_yard", "stone_pit", "loom", "workers_guild"], ["ore_vein"], ["press"],
     ["clay_pool"], 2 + 1 + 2 + 2),   # itself counts; the Workers Guild adds 2 (its neighbours' brown)
])
def test_guilds_count_the_neighbours_cards(guild, own, left, across, right, points):
    state = finished({"wonder": "giza", "side": "a", "cards": [guild] + own},
                     {"wonder": "rhodes", "side": "a", "cards": left},
                     {"wonder": "ephesus", "side": "a", "cards": across},
                     {"wonder": "olympia", "side": "a", "cards": right})
    assert state.scores()[0]["breakdown"]["guilds"] == points


def test_builders_guild_counts_stages_of_the_city_and_its_neighbours():
    state = finished({"wonder": "giza", "side": "a", "stages": 1, "cards": ["builders_guild"]},
                     {"wonder": "rhodes", "side": "a", "stages": 2},
                     {"wonder": "ephesus", "side": "a", "stages": 3},
                     {"wonder": "olympia", "side": "a", "stages": 3})
    assert state.scores()[0]["breakdown"]["guilds"] == 1 + 2 + 3


def test_strategists_guild_counts_the_neighbours_defeats():
    defeat = ("defeat", -1)
    state = finished({"wonder": "giza", "side": "a", "cards": ["strategists_guild"], "tokens": [defeat] * 3},
                     {"wonder": "rhodes", "side": "a", "tokens": [defeat, defeat]},
                     {"wonder": "ephesus", "side": "a", "tokens": [defeat] * 4},
                     {"wonder": "olympia", "side": "a", "tokens": [defeat, ("victory", 5)]})
    assert state.scores()[0]["breakdown"]["guilds"] == 3


def test_age_three_commercial_cards_give_coins_when_built_and_points_at_the_end():
    # Lighthouse: 1 coin per yellow card (itself included) when built, 1 point each at the end;
    # Arena: 3 coins per stage when built, 1 point per stage at the end; Haven: the same per brown card.
    state = table("giza:a", "rhodes:a", "ephesus:a")
    build(state, 0, "marketplace", "tavern", "glassworks", "lumber_yard", "ore_vein", "stone_pit", "loom")
    stages(state, 0, 1)
    set_coins(state, 0, 0)
    set_hand(state, 0, "lighthouse", "altar", "theater")
    play_turn(state, {0: Action("build", "lighthouse")})     # glass + stone
    assert coins(state, 0) == 3
    set_hand(state, 0, "arena", "altar", "theater")
    play_turn(state, {0: Action("build", "arena")})          # ore + 2 stone; 1 stage built
    assert coins(state, 0) == 3 + 3
    stages(state, 0, 1)
    set_hand(state, 0, "haven", "altar", "theater")
    play_turn(state, {0: Action("build", "haven")})          # ore + textile + wood; 3 brown cards
    assert coins(state, 0) == 6 + 3
    # At the end: 5 yellow cards, 2 stages, 3 brown cards.
    assert state.scores()[0]["breakdown"]["commerce"] == 5 + 2 + 3


def test_vineyard_and_bazar_count_cards_built_the_same_turn():
    state = table("giza:a", "rhodes:a", "ephesus:a")
    build(state, 0, "clay_pool", "loom")
    build(state, 2, "stone_pit", "press")
    set_coins(state, 0, 0)
    set_hand(state, 0, "vineyard", "altar")
    set_hand(state, 1, "lumber_yard", "altar")
    set_hand(state, 2, "altar", "theater")
    play_turn(state, {0: Action("build", "vineyard"), 1: Action("build", "lumber_yard"),
                      2: Action("build", "altar")})
    assert coins(state, 0) == 3                               # clay pool, stone pit and the new lumber yard
    state = table("giza:a", "rhodes:a", "ephesus:a")
    build(state, 0, "loom")
    build(state, 2, "press")
    set_coins(state, 0, 0)
    set_hand(state, 0, "bazar", "altar")
    set_hand(state, 1, "glassworks", "altar")
    play_turn(state, {0: Action("build", "bazar"), 1: Action("build", "glassworks")})
    assert coins(state, 0) == 2 * 3


def test_a_tie_goes_to_the_richer_player():
    state = finished({"wonder": "giza", "side": "a", "counters": {"coins": 9}},          # 3 points
                     {"wonder": "rhodes", "side": "a", "counters": {"coins": 2}, "cards": ["baths"]},
                     {"wonder": "ephesus", "side": "a", "counters": {"coins": 0}})
    assert [s["total"] for s in state.scores()] == [3, 3, 0]
    assert state.winners() == [0]


def test_a_tie_on_coins_too_is_shared():
    state = finished({"wonder": "giza", "side": "a", "counters": {"coins": 5}, "cards": ["altar"]},
                     {"wonder": "rhodes", "side": "a", "counters": {"coins": 0}},
                     {"wonder": "ephesus", "side": "a", "counters": {"coins": 5}, "cards": ["theater"]})
    assert [s["total"] for s in state.scores()] == [3, 0, 3]
    assert state.winners() == [0, 2]


# ---------------------------------------------------------------- the engine's interface

def test_same_seed_and_actions_give_the_same_game():
    state = random_game(5, 42, 7)
    played = state.history
    again = load_game(PACK, players=5, seed=42).new_state()
    for seat, action in played:
        assert seat in again.current_players()
        again.apply(seat, action)
    assert again.is_terminal()
    assert again.scores() == state.scores()
    assert [again.observation(s) for s in range(5)] == [state.observation(s) for s in range(5)]
    assert discard_pile(again) == discard_pile(state)


def test_legal_actions_come_in_a_stable_order():
    state = load_game(PACK, players=4, seed=17).new_state()
    first = [list(state.legal_actions(s)) for s in range(4)]
    copy = load_game(PACK, players=4, seed=17).new_state()
    assert [copy.legal_actions(s) for s in range(4)] == first
    assert [state.clone().legal_actions(s) for s in range(4)] == first


def test_different_seeds_deal_different_games():
    hands = {seed: [hand(load_game(PACK, players=4, seed=seed).new_state(), s) for s in range(4)]
             for seed in (1, 2)}
    assert hands[1] != hands[2]


def test_clone_is_independent():
    state = dealt(4, 6)
    for _ in range(3):
        play_turn(state, {s: state.legal_actions(s)[0] for s in range(4)})
    snapshot = json.dumps([state.observation(s) for s in range(4)], sort_keys=True)
    cards = all_cards(state)
    copy = state.clone()
    for _ in range(4):
        for seat in copy.current_players():
            copy.apply(seat, copy.legal_actions(seat)[-1])
    assert json.dumps([state.observation(s) for s in range(4)], sort_keys=True) == snapshot
    assert all_cards(state) == cards
    assert copy.observation(0) != state.observation(0)
    # And the original plays on by itself.
    play_turn(state, {})
    assert state.observation(0)["turn"] == 5


def test_clone_in_the_middle_of_a_decision_is_independent():
    state = table("halicarnassus:a", "rhodes:a", "ephesus:a")
    stages(state, 0, 1)
    build(state, 0, "ore_vein", "foundry")
    state.shared[DISCARD] += [card(state, "lumber_yard"), card(state, "palace")]
    play_turn(state, {0: Action("stage", hand(state, 0)[0])})
    assert state.current_players() == [0]
    copy = state.clone()
    copy.apply(0, Action("build", "palace", free=True))
    assert "palace" in city(copy, 0)
    assert state.current_players() == [0]
    assert "palace" not in city(state, 0) and "palace" in discard_pile(state)
    assert Action("build", "palace", free=True) in state.legal_actions(0)


def test_observation_holds_the_own_hand_and_not_the_others():
    state = dealt(4, 12)
    obs = state.observation(1)
    assert sorted(obs["hand"]) == sorted(hand(state, 1))
    other = state.clone()
    set_hand(other, 0, "palace", "pantheon", "senate", "gardens", "arena", "haven", "lodge")
    set_hand(other, 2, "spies_guild", "walls", "statue", "forum", "school", "temple", "quarry")
    assert other.observation(1) == obs
    assert other.observation(0) != state.observation(0)


def test_observation_hides_the_seed_the_discard_order_and_the_stage_cards():
    seed = 987654321
    state = dealt(3, seed)
    for _ in range(4):
        play_turn(state, {})
    stages(state, 0, 1, marker="palace")
    obs = state.observation(1)
    assert str(seed) not in json.dumps(obs)
    shuffled = state.clone()
    shuffled.shared[DISCARD].reverse()
    assert discard_pile(shuffled) != discard_pile(state)
    shuffled.players[0].tucked = [card(state, "pantheon")]
    shuffled.shared["deck 3"].reverse()
    shuffled.shared["deck 3"][0] = card(state, "palace")
    assert shuffled.observation(1) == obs
    assert shuffled.observation(2) == state.observation(2)


def test_is_terminal_only_after_the_third_age():
    state = dealt(3, 1)
    play_until(state, 2, 5)
    assert not state.is_terminal()
    play_turn(state, {})
    assert state.is_terminal()


@pytest.mark.parametrize("n", [3, 5, 7])
def test_total_is_the_sum_of_the_breakdown(n):
    state = random_game(n, 100 + n, n)
    scores = state.scores()
    assert len(scores) == n
    for entry in scores:
        assert entry["total"] == sum(entry["breakdown"].values())


# ---------------------------------------------------------------- random games keep the rules

@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 7), seed=st.integers(0, 2**31), choices=st.integers(0, 2**31))
def test_random_games_keep_the_invariants(players, seed, choices):
    state = dealt(players, seed)
    everything = all_cards(state)
    rng = random.Random(choices)
    steps = 0
    while not state.is_terminal():
        seats = state.current_players()
        assert seats, "a game that is not over always waits for someone"
        seat = seats[rng.randrange(len(seats))]
        actions = state.legal_actions(seat)
        assert actions and len(set(actions)) == len(actions)
        state.apply(seat, actions[rng.randrange(len(actions))])
        steps += 1
        assert steps < 2000
        assert all_cards(state) == everything
        for s, player in enumerate(state.players):
            assert player.counters.get("coins", 0) >= 0
            names = city(state, s)
            assert len(names) == len(set(names))
    assert all(len(hand(state, s)) == 0 for s in range(players))
    assert all(len(state.players[s].tokens) <= 6 for s in range(players))


def test_a_payment_of_zeros_is_paying_nobody():
    state = table("giza:a", "rhodes:a", "ephesus:a")
    set_hand(state, 0, "stone_pit", "lumber_yard", "baths", "altar", "theater", "loom", "press")
    assert Action("build", "baths") in state.legal_actions(0)  # Giza makes its stone
    state.apply(0, Action("build", "baths", (0, 0)))
    assert state.current_players() == [1, 2]


def test_a_finished_game_observes_its_last_round():
    state = load_game(PACK, players=3, seed=2).new_state()
    while not state.is_terminal():
        for seat in state.current_players():
            state.apply(seat, state.legal_actions(seat)[0])
    assert state.observation(0)["round"] == 3


def test_stages_with_requires_are_built_in_any_order(tmp_path):
    """A wonder whose stage rests on no other (`requires: []`) may be built before the stages
    below it: the draft offers each stage whose `requires` are built, naming it, and builds that one."""
    mod = tmp_path / "any-order"
    mod.mkdir()
    (mod / "pack.yaml").write_text("id: any_order\nname: Any order\nversion: 1.0.0\nextends: 7-wonders\n"
                                   "modify:\n  wonders:\n    giza:\n      sides:\n        a:\n          stages:\n"
                                   "            3: {cost: 1 coin, requires: []}\n", encoding="utf-8")
    assert [d.render() for d in check_pack(mod)[1] if d.severity == "error"] == []
    game = load_game(mod, players=3, seed=0, wonders="giza:a,rhodes:a,babylon:a")
    state = game.new_state()
    stages = {a.choice for a in state.legal_actions(0) if a.verb == "stage"}
    assert "3" in stages and stages <= {"1", "3"}
    before = state.players[0].counters["coins"]
    third = next(a for a in state.legal_actions(0) if a.verb == "stage" and a.choice == "3")
    state.apply(0, third)
    for seat in (1, 2):
        state.apply(seat, next(a for a in state.legal_actions(seat) if a.verb == "discard"))
    giza = state.players[0]
    assert giza.raised == {2} and giza.stages == 1 and giza.counters["coins"] == before - 1
    assert {a.choice for a in state.legal_actions(0) if a.verb == "stage"} <= {"1"}
    scored = helpers.finished(game, [{"wonder": "giza", "side": "a", "stages": [3]},
                             {"wonder": "rhodes", "side": "a"}, {"wonder": "babylon", "side": "a"}]).scores()
    assert scored[0]["breakdown"]["wonder"] == 7  # Giza A's third stage: 7 points

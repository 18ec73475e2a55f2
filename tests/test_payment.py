"""Payments: what a player's production covers and every undominated way to buy the rest."""

import random
from collections import Counter
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from wonderforge.interpreter import load_game
from wonderforge.interpreter.core.payment import beyond, payments, reach, remainders

RESOURCES = ("a", "b", "c", "d")
PRICES = tuple((r, 2) for r in RESOURCES)


def brute_force(need, own, sellers, prices):
    """Every assignment of each needed unit to one producing unit, kept if no unit is used twice."""
    sources = [("own", i, u) for i, u in enumerate(own)]
    sources += [(s, i, u) for s, units in enumerate(sellers) for i, u in enumerate(units)]
    found = set()
    for pick in product(range(len(sources)), repeat=len(need)):
        if len(set(pick)) < len(pick):
            continue
        if all(need[k] in sources[p][2] for k, p in enumerate(pick)):
            coins = [0] * len(sellers)
            for k, p in enumerate(pick):
                if sources[p][0] != "own":
                    coins[sources[p][0]] += dict(prices[sources[p][0]])[need[k]]
            found.add(tuple(coins))
    return {p for p in found if not any(q != p and all(a <= b for a, b in zip(q, p)) for q in found)}


units = st.lists(st.lists(st.sampled_from(RESOURCES), min_size=1, max_size=3, unique=True).map(
    lambda u: tuple(sorted(u))), max_size=4).map(lambda us: tuple(sorted(us)))


@settings(max_examples=300, deadline=None)
@given(need=st.lists(st.sampled_from(RESOURCES), min_size=1, max_size=4).map(lambda n: tuple(sorted(n))),
       own=units, left=units, right=units, cheap=st.sampled_from(RESOURCES))
def test_payments_are_exactly_the_undominated_assignments(need, own, left, right, cheap):
    prices = (PRICES, tuple((r, 1 if r == cheap else 2) for r in RESOURCES))
    expected = brute_force(need, own, (left, right), prices)
    assert set(payments(need, own, (left, right), prices)) == expected
    if beyond(need, reach(own, (left, right))):
        assert not expected  # counting rules out only what nobody can pay
    else:  # as the draft asks, the look at everyone's production together left out
        assert set(payments(need, own, (left, right), prices, reached=True)) == expected


def test_a_choice_unit_serves_one_resource_a_turn():
    assert remainders(("a",), (("a", "b"),)) == ((),)
    assert remainders(("a", "b"), (("a", "b"),)) == (("a",), ("b",))


def test_own_production_first():
    assert payments(("a", "a"), (("a",), ("a",)), ((("a",),), (("a",),)), (PRICES, PRICES)) == ((0, 0),)


def test_large_choice_cities_list_few_options_quickly():
    """Four needed resources, seven two-way choice producers on each side: a handful of payments."""
    choice = tuple(sorted([("a", "b"), ("c", "d"), ("a", "c"), ("b", "d"), ("a", "d"), ("b", "c"), ("a", "b")]))
    found = payments(("a", "b", "c", "d"), (), (choice, choice), (PRICES, PRICES))
    assert found == ((0, 8), (2, 6), (4, 4), (6, 2), (8, 0))
    assert Counter(sum(p) for p in found) == {8: 5}


def test_the_payments_a_seat_keeps_are_those_worked_out_afresh():
    """The draft keeps a seat's payments by cost while its production, its sellers' and its prices
    stay the same: at every turn of seeded games, its actions are those of a flow that kept none."""
    afresh = load_game("7-wonders", players=5).flow  # the same rules, a flow of its own
    for seed in range(3):
        game = load_game("7-wonders", players=5, seed=seed)
        state, rng = game.new_state(), random.Random(seed)
        while not state.is_terminal():
            for seat in state.current_players():
                actions = state.legal_actions(seat)
                afresh.seen.clear()
                assert afresh.legal_actions(state, seat) == actions
                state.apply(seat, rng.choice(actions))

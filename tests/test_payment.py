"""Payments: what a player's production covers and every undominated way to buy the rest."""

from collections import Counter
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from wonderforge.interpreter.core.payment import payments, remainders

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
    assert set(payments(need, own, (left, right), prices)) == brute_force(need, own, (left, right), prices)


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

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


def brute_force(need, own, sellers, prices, first=(), bank=None):
    """Every assignment of each needed unit to one producing unit (a bank offer's `most` units, or
    enough), kept if no unit is used twice; with `first`, each way of making one resource bought
    from a seller the turn's first purchase too."""
    sources = [("own", i, u, 0) for i, u in enumerate(own)]
    sources += [(s, i, u, None) for s, units in enumerate(sellers) for i, u in enumerate(units)]
    sources += [(len(sellers), (o, i), u, price) for o, (u, price, most) in enumerate(bank or ())
                for i in range(most or len(need))]
    found = set()
    for pick in product(range(len(sources)), repeat=len(need)):
        if len(set(pick)) < len(pick):
            continue
        if all(need[k] in sources[p][2] for k, p in enumerate(pick)):
            coins = [0] * (len(sellers) + (bank is not None))
            firsts = [None]
            for k, p in enumerate(pick):
                who, _, _, price = sources[p]
                if who == "own":
                    continue
                coins[who] += dict(prices[who])[need[k]] if price is None else price
                cheap = dict(first[who]).get(need[k]) if first and price is None else None
                if cheap is not None and cheap < dict(prices[who])[need[k]]:
                    firsts.append((who, dict(prices[who])[need[k]] - cheap))
            for saving in firsts:
                paid = list(coins)
                if saving:
                    paid[saving[0]] -= saving[1]
                found.add(tuple(paid))
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


offers = st.lists(st.tuples(st.lists(st.sampled_from(RESOURCES), min_size=1, max_size=3, unique=True).map(
    lambda u: tuple(sorted(u))), st.integers(0, 3), st.integers(0, 2)), max_size=2).map(lambda os: tuple(sorted(os)))


@settings(max_examples=300, deadline=None)
@given(need=st.lists(st.sampled_from(RESOURCES), min_size=1, max_size=4).map(lambda n: tuple(sorted(n))),
       own=units, left=units, right=units, bank=offers, cheap=st.sampled_from(RESOURCES), first=st.integers(0, 1))
def test_payments_with_a_market_are_exactly_the_undominated_assignments(need, own, left, right, bank, cheap, first):
    """The bank's offers (at most `most` each, any number for 0) and a first purchase cheaper each
    turn: the search finds what trying every assignment finds."""
    prices = (PRICES, PRICES)
    firsts = (((cheap, first),), ())  # the left neighbour's first `cheap` resource a turn costs `first`
    expected = brute_force(need, own, (left, right), prices, firsts, bank)
    assert set(payments(need, own, (left, right), prices, False, firsts, bank)) == expected
    if beyond(need, reach(own, (left, right), bank)):
        assert not expected
    else:
        assert set(payments(need, own, (left, right), prices, True, firsts, bank)) == expected


def test_the_bank_is_paid_last_and_only_what_it_sells():
    bank = ((("a", "b"), 1, 1), (("a",), 3, 0))  # one of a or b at 1, then any number of a at 3
    assert payments(("a", "a", "a"), (), ((), ()), (PRICES, PRICES), bank=bank) == ((0, 0, 7),)
    assert payments(("c",), (), ((), ()), (PRICES, PRICES), bank=bank) == ()
    assert payments(("c",), (), ((("c",),), ()), (PRICES, PRICES), bank=bank) == ((2, 0, 0),)
    assert payments(("a",), (("a",),), ((), ()), (PRICES, PRICES), bank=()) == ((0, 0, 0),)


def test_the_first_purchase_is_cheaper_from_either_seller():
    first = ((("a", 0),), (("a", 0),))
    found = payments(("a", "a"), (), ((("a",),), (("a",),)), (PRICES, PRICES), False, first)
    assert found == ((0, 2), (2, 0))


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

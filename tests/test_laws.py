"""Laws (rules.yaml `laws`): the top pieces of a shared zone are in force for every player until
covered or gone, laid there by `lay <filter> from <zones> on <zone>`: the example mod
tests/mods/babel, a sketch of the Babel expansion's tower over 7 Wonders."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from helpers import random_step
from wonderforge.interpreter import load_game
from wonderforge.interpreter.games.check import check_pack

BABEL = Path(__file__).parent / "mods" / "babel"


def after_the_prelude(players: int = 3, seed: int = 0):
    state, rng = load_game(BABEL, players=players, seed=seed).new_state(), random.Random(seed)
    while state.flow_state.part is not None:
        random_step(state, rng)
    return state


def tile(state, cid: str):
    return state.game.catalogue.cards[cid]


def brown_price(state, seat: int) -> int:
    """What the seat pays in coins for a Clay Pit (printed cost 1 coin)."""
    return dict(state.price(seat, state.game.catalogue.cards["clay_pit"]).counters).get("coins", 0)


def test_the_example_mod_checks_clean():
    assert [d.render() for d in check_pack(BABEL)[1]] == []


def test_a_law_holds_for_every_player_while_it_is_near_the_top():
    state = after_the_prelude()
    assert [brown_price(state, s) for s in range(3)] == [1, 1, 1]
    state.shared["tower"] = [tile(state, "tax_on_quarries")]
    state.enforce()
    assert [brown_price(state, s) for s in range(3)] == [2, 2, 2]  # a coin more, for everyone
    state.shared["tower"].append(tile(state, "conscription"))
    state.enforce()
    assert [brown_price(state, s) for s in range(3)] == [2, 2, 2]  # still one of the top 2
    shields = [p.counters.get("shields", 0) for p in state.players]
    state.shared["tower"].append(tile(state, "merchant_charter"))
    state.enforce()
    assert [brown_price(state, s) for s in range(3)] == [1, 1, 1]  # covered: gone for everyone
    assert [p.counters.get("shields", 0) for p in state.players] == shields  # Conscription still in force
    state.shared["tower"] = []
    state.enforce()
    assert [p.counters.get("shields", 0) for p in state.players] == [n - 1 for n in shields] and state.in_force == ()


def test_a_law_s_trade_goes_when_it_is_covered():
    """Free Markets (`trade raw at 1 from left, right`) lowers every player's price of wood from
    both neighbours while in force; covered, the prices are the rules' again, but for the trade a
    player's own East Trading Post gives (`trade raw at 1 from right`), which stays."""
    state = after_the_prelude()
    state.gain_card(0, tile(state, "east_trading_post"))

    def wood():  # per seat, what wood costs from its left and from its right neighbour
        return [tuple(dict(prices)["wood"] for prices in p.prices) for p in state.players]

    assert wood() == [(2, 1), (2, 2), (2, 2)]
    state.shared["tower"] = [tile(state, "free_markets")]
    state.enforce()
    assert wood() == [(1, 1)] * 3
    state.shared["tower"] += [tile(state, "conscription"), tile(state, "embargo")]
    state.enforce()
    assert wood() == [(2, 1), (2, 2), (2, 2)]


def test_a_law_takes_trade_and_chains_away_from_every_player():
    """Embargo (`forbid trade`): no payment to a neighbour is offered; Guild Privilege (`forbid
    chains`): a card its chain would build free is paid for. Covered, both rules come back."""
    state = after_the_prelude()
    player, baths = state.players[0], tile(state, "baths")  # Baths (stone) chains to the Aqueduct
    player.zones["hand"] = [tile(state, "aqueduct"), tile(state, "lumber_yard")]
    player.built.add("baths")
    player.counters["coins"] = 9
    player.units = ()  # nothing of its own: the Aqueduct's 3 stone must be bought, or chained
    state.players[1].public = state.players[1].units = (("stone",),) * 3

    def offered():
        state.legal = {}
        return {(a.card, a.pay or ()) for a in state.legal_actions(0) if a.verb == "build"}

    assert ("aqueduct", ()) in offered()  # free by its chain
    state.shared["tower"] = [tile(state, "guild_privilege")]
    state.enforce()
    assert {pay for card, pay in offered() if card == "aqueduct"} == {(6, 0)}  # bought from the left
    state.shared["tower"].append(tile(state, "embargo"))
    state.enforce()
    assert "aqueduct" not in {card for card, _ in offered()}  # neither chained nor bought
    state.shared["tower"] += [tile(state, "conscription"), tile(state, "civic_pride")]
    state.enforce()
    assert ("aqueduct", ()) in offered() and baths.id in player.built


def test_a_discard_offers_the_coins_or_a_tile_laid_on_the_tower():
    state = after_the_prelude(seed=2)
    while not state.queue or state.queue[0].kind != "choice":
        seat = state.current_players()[0]
        discards = [a for a in state.legal_actions(seat) if a.verb == "discard"]
        state.apply(seat, discards[0] if discards else state.legal_actions(seat)[0])
    seat = state.queue[0].seat
    held = list(state.players[seat].zones["tiles"])
    sides = state.legal_actions(seat)
    assert len(sides) == 2
    assert [a.choice for a in sides] == ["coins 3", "lay card from tiles of self on tower"]
    state.apply(seat, sides[1])  # the tile; the others take the coins, then it chooses which tile
    while not state.shared.get("tower"):
        other = state.queue[0].seat
        state.apply(other, state.legal_actions(other)[0])
    laid = state.shared["tower"][-1]
    assert laid in held and laid not in state.players[seat].zones["tiles"]
    assert laid in state.in_force


@pytest.mark.parametrize("players", [3, 5, 7])
def test_the_laws_in_force_are_always_the_top_of_the_tower(players):
    for seed in range(4):
        state, rng = load_game(BABEL, players=players, seed=seed).new_state(), random.Random(seed)
        while not state.is_terminal():
            random_step(state, rng)
            assert list(state.in_force) == state.shared.get("tower", [])[-2:]
        assert state.shared.get("tower")  # some law was laid


def test_laws_in_a_zone_that_is_no_shared_zone_are_refused(tmp_path):
    mod = tmp_path / "babel"
    mod.mkdir()
    for name in ("pack.yaml", "cards.yaml"):
        (mod / name).write_text((BABEL / name).read_text(encoding="utf-8"), encoding="utf-8")
    rules = (BABEL / "rules.yaml").read_text(encoding="utf-8").replace("laws: {zone: tower", "laws: {zone: towr")
    (mod / "rules.yaml").write_text(rules, encoding="utf-8")
    errors = [d for d in check_pack(mod)[1] if d.severity == "error"]
    assert [d.code for d in errors] == ["E-RULES"] and "'towr', which is no shared zone" in errors[0].message


@pytest.mark.slow
def test_a_hundred_seeded_games_from_3_to_7_players_end_without_an_error():
    for seed in range(100):
        players = 3 + seed % 5
        state, rng = load_game(BABEL, players=players, seed=seed).new_state(), random.Random(seed)
        while not state.is_terminal():
            random_step(state, rng)
        assert list(state.in_force) == state.shared.get("tower", [])[-2:]

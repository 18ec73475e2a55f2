"""Markets (issue 28): resources bought from the bank, production of a resource the city makes or
does not make, the first purchase of a turn cheaper; in the payment the draft offers, in Dice's box
costs, on the screens, and in seeded games of the example mod `tests/mods/market`."""

from __future__ import annotations

import random
from pathlib import Path

import helpers
import sevenwonders_helpers as sw
from test_mechanisms import probe_pack, refusal
from wonderforge.dsl.verbs import BuyArgs
from wonderforge.interpreter import Action
from wonderforge.interpreter.games.check import check_pack
from wonderforge.tools.cli.draft_screen import View

MOD = str(Path(__file__).parent / "mods" / "market")


def market_table(*wonders: str) -> object:
    """A fresh deal of the market mod whose seat i plays `wonders[i]` (as sw.table)."""
    return helpers.table(MOD, wonders, lambda state, seat, spec: sw.set_side(state, seat, *spec.split(":")))


def test_the_example_mod_checks_clean():
    _, diagnostics = check_pack(Path(MOD))
    assert diagnostics == []


def test_the_bank_sells_at_most_its_number_for_each_cost_and_takes_the_coins():
    state = market_table("giza:a", "alexandria:a", "ephesus:a")  # stone, glass, papyrus: no wood, no ore
    sw.build(state, 0, "exchange")  # buy 1 raw from bank at 2
    sw.set_hand(state, 0, "stockade", "dispensary", "barracks")  # wood; glass + 2 ore; ore
    build = {a.card: a.pay for a in state.legal_actions(0) if a.verb == "build"}
    assert build["stockade"] == build["barracks"] == (0, 0, 2)
    assert "dispensary" not in build  # one ore a cost from the bank, and nobody sells the other
    before = [sw.coins(state, s) for s in range(3)]
    sw.play_turn(state, {0: Action("build", "stockade", (0, 0, 2)), 1: sw.discard_first(state, 1),
                         2: sw.discard_first(state, 2)})
    assert "stockade" in sw.city(state, 0)
    assert [sw.coins(state, s) for s in range(3)] == [before[0] - 2, before[1] + 3, before[2] + 3]


def test_a_game_where_the_bank_sells_pays_it_last_in_every_action_and_logs_it():
    state = market_table("giza:a", "alexandria:a", "ephesus:a")
    assert state.game.payees == ("left", "right", "bank")
    pays = {len(a.pay) for a in state.legal_actions(1) if a.pay}  # seat 1 holds no Exchange: the bank is paid 0
    assert pays <= {3}
    action = Action("build", "stockade", (0, 0, 2))
    data = action.to_json(state.game.payees)
    assert data["pay"] == {"bank": 2} and Action.from_json(data, state.game.payees) == action
    assert sw.game_for(3).payees == ("left", "right")  # 7 Wonders itself: no bank, actions as before


def test_held_and_unheld_production_follow_what_the_city_makes():
    state = market_table("giza:a", "alexandria:a", "ephesus:a")
    player = state.players[0]
    sw.build(state, 0, "storehouse", "spice_route")  # private held raw; private unheld manufactured
    assert player.units == (("glass", "papyrus", "textile"), ("stone",), ("stone",))
    assert player.public == (("stone",),)  # the board's stone alone may be bought
    sw.build(state, 0, "lumber_yard", "glassworks")
    assert sorted(player.units) == [("glass",), ("papyrus", "textile"), ("stone",), ("stone", "wood"), ("wood",)]
    state.leave(0, sw.card(state, "lumber_yard"))
    player.zones["city"].remove(sw.card(state, "lumber_yard"))
    assert sorted(player.units) == [("glass",), ("papyrus", "textile"), ("stone",), ("stone",)]


def test_held_production_pays_a_second_unit_of_what_the_city_makes():
    state = market_table("giza:a", "alexandria:a", "ephesus:a")
    sw.build(state, 0, "storehouse")
    sw.set_coins(state, 0, 0)
    sw.set_hand(state, 0, "baths", "stockade")  # baths: stone; stockade: wood, which the city does not make
    offered = {a.card for a in state.legal_actions(0) if a.verb == "build"}
    assert "baths" in offered and "stockade" not in offered


def test_the_first_purchase_of_a_turn_is_cheaper_the_rest_are_not():
    state = market_table("giza:a", "olympia:a", "rhodes:a")  # left sells wood, right sells ore
    sw.build(state, 0, "merchants_hall")  # trade first raw / manufactured at 1 from left, right
    sw.set_hand(state, 0, "stockade", "dispensary", "altar")
    assert sw.payments(state, 0, "build", "stockade") == {(1, 0, 0)}
    state.players[0].bought = state.turns_played  # as if it had bought already this turn
    state.legal = {}
    assert sw.payments(state, 0, "build", "stockade") == {(2, 0, 0)}
    state.players[0].bought = -1
    state.legal = {}
    sw.play_turn(state, {0: Action("build", "stockade", (1, 0, 0)), 1: sw.discard_first(state, 1),
                         2: sw.discard_first(state, 2)})
    assert state.players[0].bought == state.turns_played - 1  # this turn's purchase, the next turn's first is open
    assert state.market(0)[0] == state.players[0].first


def test_seeded_games_of_the_mod_buy_from_the_bank_and_replay():
    bank = first = 0
    for seed in range(6):
        game = helpers.game_for(MOD, 4, seed)
        state, rng = game.new_state(), random.Random(seed)
        actions = []
        while not state.is_terminal():
            for seat in state.current_players():
                legal = state.legal_actions(seat)
                assert all(len(a.pay) == 3 for a in legal if a.pay)
                paying = [a for a in legal if a.pay and a.pay[2]]
                action = rng.choice(paying) if paying and rng.random() < 0.5 else rng.choice(legal)
                bank += bool(action.pay and action.pay[2])
                actions.append((seat, action))
                state.apply(seat, action)
        first += sum(p.bought >= 0 for p in state.players)  # the turn's first purchase made at its price
        again = helpers.game_for(MOD, 4, seed).new_state()
        for seat, action in actions:
            again.apply(seat, action)
        assert again.scores() == state.scores()
    assert bank and first  # the bank sold, and a first purchase was made


def test_the_draft_screen_shows_the_bank_and_the_first_purchase():
    state = market_table("giza:a", "olympia:a", "rhodes:a")
    sw.build(state, 0, "exchange", "merchants_hall")
    view = View(state.game, ["you", "left", "right"])
    assert view.bank(state, 0) == ["The bank sells you: clay/ore/stone/wood at 2 each (at most 1 a cost)"]
    assert "  the first you buy this turn: " in "\n".join(view.neighbour(state, 0, 0))
    ok, how = view.explain(state, 0, sw.card(state, "barracks").cost)
    assert ok and how == "buy: 1 coin to right or 2 coins to bank"


def test_dice_buys_missing_resources_from_the_bank_first():
    state = helpers.dealt("dice", 3, 0)
    flow, player = state.game.flow, state.players[0]
    box = next(b for b in flow.boxes_of[state.flow_state.boards[0]].values() if flow.need(state, 0, b) == 3)
    assert flow.box_cost(state, 0, box) == 3 - len(player.units)
    state.buy(0, BuyArgs(("resource",), 0, 1), 1)  # one missing resource a box for nothing
    assert flow.box_cost(state, 0, box) == max(0, 2 - len(player.units))
    state.buy(0, BuyArgs(("resource",), 0, 1), -1)
    assert player.bank == () and flow.box_cost(state, 0, box) == 3 - len(player.units)


def test_refusals_where_the_bank_cannot_sell_or_a_first_purchase_would_not_show(tmp_path):
    dice = probe_pack(tmp_path / "probe_dice", "dice", "buy resource from bank at 1")
    assert [d.code for d in refusal(dice, "buy resource from bank at 1")] == ["W-DSL-NEVER"]
    architects = probe_pack(tmp_path / "probe_architects", "architects", "buy wood from bank at 1")
    assert [d.code for d in refusal(architects, "buy wood from bank at 1")] == ["E-DSL-FLOW"]
    free = probe_pack(tmp_path / "probe_free", "7-wonders", "trade first raw at 0 from left")  # no trace of it
    assert [d.code for d in refusal(free, "trade first raw at 0 from left")] == ["E-DSL-VALUE"]

"""Token kinds of a pack's own (rules.yaml `tokens:`) and choices between effects (`A or B`), issue 27
point 2: the example mod tests/mods/debt checked, played and scored; each verb and each misuse."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest
import yaml

from helpers import pack_of
from log_helpers import logged_game
from wonderforge.interpreter import load_game
from wonderforge.interpreter.bots.registry import play
from wonderforge.interpreter.games.check import check_pack
from wonderforge.tools.cli.commands import main
from wonderforge.tools.cli.draft_screen import DraftScreen

DEBT = Path(__file__).resolve().parent / "mods" / "debt"  # 7 Wonders with debt tokens and laurels


def fresh(players: int = 3, seed: int = 0):
    game = load_game(DEBT, players=players, seed=seed)
    return game, game.new_state()


def held(state, seat: int) -> Counter:
    return Counter(k for k, _, _ in state.players[seat].tokens)


def enter(state, seat: int, card: str) -> None:
    """A card of the mod comes into a seat's city, its effects run."""
    state.gain_card(seat, state.game.catalogue.cards[card])


def test_the_mod_checks_clean():
    _, diagnostics = check_pack(DEBT)
    assert diagnostics == [], [d.render() for d in diagnostics]


def test_a_choice_offers_only_the_sides_that_can_be_done():
    """The Altar: `coins -2 or take debt token`. With 1 coin, paying is not offered: the debt is
    taken at once; with 3, the player chooses, and what they choose happens."""
    _, state = fresh()
    state.players[0].counters["coins"] = 1
    enter(state, 0, "altar")
    assert state.queue == [] and held(state, 0)["debt"] == 1 and state.players[0].counters["coins"] == 1
    state.players[1].counters["coins"] = 3
    enter(state, 1, "altar")
    decision = state.queue[0]
    actions = state.decision_actions(decision)
    assert [a.choice for a in actions] == ["coins -2", "take debt token"]
    state.answer(1, actions[0])
    assert state.players[1].counters["coins"] == 1 and held(state, 1)["debt"] == 0 and state.queue == []


def test_each_side_of_a_choice_is_a_chain_of_actions():
    """The Tavern: `coins 6 then take debt token or coins 2`."""
    _, state = fresh()
    coins = state.players[0].counters["coins"]
    enter(state, 0, "tavern")
    first, second = state.decision_actions(state.queue[0])
    state.answer(0, first)
    assert state.players[0].counters["coins"] == coins + 6 and held(state, 0)["debt"] == 1


@pytest.mark.parametrize("coins, offered", [
    (3, ["pay 1 coins, owe 0", "pay 0 coins, owe 1"]),  # the player hit chooses to pay or to owe
    (0, None),                                          # nothing to pay with: the debt, unasked
])
def test_a_coin_another_players_card_takes_may_be_owed(coins, offered):
    """The Counterfeiters (`coins -1 to others`, rules.yaml `owing: [coins]`): each other player
    pays the coin or takes a debt token for it, as they choose; the builder is not asked."""
    _, state = fresh()
    for player in state.players:
        player.counters["coins"] = coins
    enter(state, 0, "pawnshop")
    if offered is None:
        assert state.queue == [] and [held(state, s)["debt"] for s in range(3)] == [0, 1, 1]
        return
    assert [d.seat for d in state.queue] == [1, 2]
    for seat, pick in ((1, 0), (2, 1)):  # seat 1 pays, seat 2 owes
        actions = state.decision_actions(state.queue[0])
        assert [a.choice for a in actions] == offered
        state.answer(seat, actions[pick])
    assert [p.counters["coins"] for p in state.players] == [3, 2, 3]
    assert [held(state, s)["debt"] for s in range(3)] == [0, 0, 1]


@pytest.mark.parametrize("base", ["7-wonders", "dice"])  # Architects has no coins
def test_owing_is_offered_and_kept_in_every_flow(tmp_path, base):
    """Each player's turn ends making the others lose a coin, which they may owe: in seeded games of
    both flows with coins the question comes, and every debt token is a coin owed or short."""
    folder = tmp_path / "owe"
    folder.mkdir()
    (folder / "pack.yaml").write_text(f"id: owe\nname: Owe\nversion: 1.0.0\nextends: {base}\n")
    (folder / "rules.yaml").write_text(yaml.safe_dump({
        "tokens": {"debt": {"value": -1}}, "shortfall": {"coins": "take debt token"}, "owing": ["coins"],
        "player_effects": [*(pack_of(base).rules.get("player_effects") or []), "at turn end: coins -1 to others"]}))
    assert [d for d in check_pack(folder)[1] if d.severity == "error"] == []
    state, rng, owed = load_game(folder, players=3, seed=1).new_state(), random.Random(1), 0
    while not state.is_terminal():
        seats = state.current_players()
        seat = seats[rng.randrange(len(seats))]
        actions = state.legal_actions(seat)
        action = rng.choice(actions)
        owed += action.verb == "choice" and not action.choice.endswith("owe 0")
        state.apply(seat, action)
    assert owed and sum(held(state, s)["debt"] for s in range(3)) >= owed


def test_owing_a_counter_needs_its_shortfall(tmp_path):
    folder = mod(tmp_path, {"debt": {"value": -1}}, "coins -1 to others")
    (folder / "rules.yaml").write_text(yaml.safe_dump({"tokens": {"debt": {"value": -1}}, "owing": ["coins"]}))
    found = [d for d in check_pack(folder)[1] if d.code == "E-RULES"]
    assert [d.message for d in found] == ["owing 'coins' has no shortfall: what a coins owed costs is not said"]


def test_tokens_are_taken_up_to_the_supply_and_go_back_to_it():
    game, state = fresh()
    for _ in range(6):  # take 2 laurel tokens, six times: the 12 of the supply
        state.players[0].built.discard("baths")  # (a city holds one card of a name)
        enter(state, 0, "baths")
    assert held(state, 0)["laurel"] == 12
    enter(state, 1, "theater")
    assert held(state, 1)["laurel"] == 0, "the supply is spent"
    state.move_tokens(0, None, "laurel", 1)  # returned: one is in the supply again
    enter(state, 2, "theater")
    assert held(state, 2)["laurel"] == 1 and state.tokens_left("laurel") == 0


def test_return_and_give_move_what_the_player_holds():
    """The Courthouse: `return 2 debt tokens` then `give 1 debt token to left` (seat 1)."""
    _, state = fresh()
    state.players[0].tokens += [("debt", -1, 0)] * 4
    enter(state, 0, "courthouse")
    assert held(state, 0)["debt"] == 1 and held(state, 1)["debt"] == 1
    enter(state, 2, "courthouse")  # nothing to return or give: nothing happens
    assert held(state, 2)["debt"] == 0 and held(state, 0)["debt"] == 1


def test_spend_stops_its_sentence_when_the_tokens_are_not_there():
    """The Gardens: `spend 2 laurel tokens then vp 6`: with one laurel nothing is spent nor scored."""
    _, state = fresh()
    state.players[0].tokens.append(("laurel", 0, 0))
    state.players[1].tokens += [("laurel", 0, 0)] * 3
    enter(state, 0, "gardens")
    enter(state, 1, "gardens")
    scores = state.scores()
    assert held(state, 0)["laurel"] == 1 and held(state, 1)["laurel"] == 1
    assert scores[0]["breakdown"]["civilian"] == 4 and scores[1]["breakdown"]["civilian"] == 10
    assert scores[0]["breakdown"]["laurel"] == 2 == scores[1]["breakdown"]["laurel"]


@pytest.mark.parametrize("debts, laurels", [(0, 0), (3, 1), (1, 2), (2, 3), (0, 7)])
def test_a_kind_is_scored_in_a_category_of_its_name(debts, laurels):
    _, state = fresh()
    state.players[0].tokens = [("debt", -1, 0)] * debts + [("laurel", 0, 0)] * laurels
    before = state.scores()[1]
    breakdown = state.scores()[0]["breakdown"]
    assert breakdown["debt"] == -debts
    assert breakdown["laurel"] == (0, 2, 5, 10)[min(laurels, 3)]
    assert list(breakdown)[-2:] == ["debt", "laurel"] and state.scores()[1] == before
    assert state.totals()[0] == state.scores()[0]["total"]


def test_seeded_games_take_choose_and_score_tokens():
    """Random games at 3 to 7 players: choices are offered and made, debts and laurels held are
    scored in their categories, and a seed plays the same game again."""
    seen = Counter()
    for seed in range(15):
        players = 3 + seed % 5
        game, state = fresh(players, seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            seats = state.current_players()
            seat = seats[rng.randrange(len(seats))]
            actions = state.legal_actions(seat)
            action = actions[rng.randrange(len(actions))]
            seen[action.verb] += 1
            state.apply(seat, action)
        for seat, score in enumerate(state.scores()):
            tokens = held(state, seat)
            seen.update(tokens)
            assert score["breakdown"]["debt"] == -tokens["debt"]
            assert score["breakdown"]["laurel"] == (0, 2, 5, 10)[min(tokens["laurel"], 3)]
        assert sum(held(state, s)["laurel"] for s in range(players)) <= 12
    assert seen["choice"] and seen["debt"] and seen["laurel"]


def test_hidden_kinds_are_left_out_of_the_others_observations():
    _, state = fresh()
    state.players[0].tokens = [("debt", -1, 0), ("laurel", 0, 0)]
    mine = state.observation(0)["players"][0]["tokens"]
    theirs = state.observation(1)["players"][0]["tokens"]
    assert sorted(k for k, _ in mine) == ["debt", "laurel"] and [k for k, _ in theirs] == ["debt"]


def test_score_reads_the_tokens_of_a_scenario(capsys):
    scenario = DEBT.parents[1] / "scenarios" / "debt.yaml"  # docs/scoring.md's example
    assert main(["score", str(scenario), "--format", "json"]) == 0
    players = json.loads(capsys.readouterr().out)["players"]
    assert [(p["breakdown"]["debt"], p["breakdown"]["laurel"]) for p in players] == [(-3, 5), (0, 10), (0, 0)]


@pytest.mark.parametrize("tokens, message", [
    ({"debts": 1}, "has no token kind 'debts' of its own"),
    ({"laurel": 13}, "13 laurel tokens held, more than the 10 there are left"),
    ({"laurel": 11}, "11 laurel tokens held, more than the 10 there are left (2 held by the players before)"),
])
def test_a_scenario_holding_what_the_pack_has_not_is_refused(tmp_path, capsys, tokens, message):
    scenario = tmp_path / "bad.yaml"
    scenario.write_text(yaml.safe_dump({"game": str(DEBT), "players": [
        {"name": "ann", "wonder": "giza", "tokens": {"laurel": 2}},
        {"name": "bo", "wonder": "rhodes", "tokens": tokens},
        {"name": "cy", "wonder": "babylon"}]}), encoding="utf-8")
    assert main(["score", str(scenario)]) == 1
    assert message in capsys.readouterr().err


def mod(tmp_path: Path, tokens: dict | None, effect: str) -> Path:
    """A mod of 7 Wonders declaring `tokens` whose Altar says `effect`."""
    folder = tmp_path / "mod"
    folder.mkdir()
    (folder / "pack.yaml").write_text("id: mod\nname: Mod\nversion: 1.0.0\nextends: 7-wonders\n", encoding="utf-8")
    if tokens is not None:
        (folder / "rules.yaml").write_text(yaml.safe_dump({"tokens": tokens}), encoding="utf-8")
    (folder / "cards.yaml").write_text(yaml.safe_dump([{"id": "altar", "name": "Altar", "colour": "blue",
                                                        "copies": {1: [3, 5]}, "effect": effect}]), encoding="utf-8")
    return folder


# (tokens declared, the Altar's effect, code, words of the message): each misuse, at its place
MISUSES = [
    (None, "take debt token", "E-DSL-NAME", "unknown token kind 'debt'"),
    (None, "take debt token", "E-DSL-NAME", "declares token kinds of its own under rules.yaml `tokens:`"),
    ({"debt": {"value": -1}}, "take victory token", "E-DSL-FLOW", "declares no such kind of its own"),
    ({"debt": {"value": -1}}, "give 1 victory token to left", "E-DSL-FLOW", "victory is no token kind of this pack's own"),
    ({"debt": {"value": -1}}, "return 1 defeat token", "E-DSL-FLOW", "no player holds such tokens to return"),
    ({"debt": {"value": -1}}, "spend 0 debt tokens", "E-DSL-VALUE", "a number of tokens must be at least 1"),
    ({"debt": {"value": -1}}, "produce wood or take debt token", "E-DSL-TYPE", "not something a choice can do"),
    ({"debt": {"value": -1}}, "at end: coins 1 or take debt token", "E-DSL-EVENT", "cannot happen once the game is over"),
    ({"debt": {"value": -1}}, "coins 1 or take debtt token", "E-DSL-NAME", "did you mean"),
    ({"debt": {"value": -1, "effect": "vp -1 per debt token"}}, "vp 1", "E-SCHEMA", ""),
    ({"debt": {"value": [], "supply": -1}}, "vp 1", "E-SCHEMA", ""),
    ({"debt": {"seen": "others"}}, "vp 1", "E-SCHEMA", ""),
    ({"debt": {"effect": "take debt token"}}, "vp 1", "E-DSL-PLACE", "a scoring category counts points"),
    ({"victory": {"value": 1}}, "vp 1", "E-RULES", "token kind victory is already the victory tokens"),
    ({"military": {"value": 1}}, "vp 1", "E-RULES", "already a scoring category"),
]


@pytest.mark.parametrize("tokens, effect, code, words", MISUSES, ids=[m[1] + str(i) for i, m in enumerate(MISUSES)])
def test_a_misuse_is_refused_at_its_place(tmp_path, tokens, effect, code, words):
    folder = mod(tmp_path, tokens, effect)
    _, diagnostics = check_pack(folder)
    errors = [d for d in diagnostics if d.severity == "error"]
    assert errors and errors[0].code == code and words in errors[0].message + (errors[0].hint or ""), \
        [d.render() for d in diagnostics]
    where = "rules.yaml" if code in ("E-SCHEMA", "E-RULES", "E-DSL-PLACE") else "cards.yaml"
    assert all(d.file.endswith(where) for d in errors)


def test_a_sentence_giving_a_kinds_points(tmp_path):
    folder = mod(tmp_path, {"debt": {"effect": "vp -2 per 2 debt tokens"}}, "take 3 debt tokens")
    game = load_game(folder, players=3)
    state = game.new_state()
    state.gain_card(0, game.catalogue.cards["altar"])
    assert state.scores()[0]["breakdown"]["debt"] == -2


def test_a_game_with_choices_is_logged_and_replays(tmp_path, capsys):
    """The choices made (`choice` actions) are in the log, and `replay` reproduces the result."""
    for seed in range(6):
        path, state = logged_game(tmp_path, str(DEBT), 4, seed, ["greedy", "random"] * 2)
        if any(a.verb == "choice" for _, a in state.history):
            break
    else:
        pytest.fail("no choice in 6 games")
    assert '"verb":"choice"' in path.read_text(encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    assert "the replay reproduces the recorded result" in capsys.readouterr().out


@pytest.mark.slow
def test_the_mod_plays_100_seeded_games_at_3_to_7_players():
    for seed in range(100):
        players = 3 + seed % 5
        state = play(load_game(DEBT, players=players, seed=seed), (["greedy", "random", "expert"] * 3)[:players])
        assert state.is_terminal() and len(state.scores()) == players


def test_a_scenario_of_a_pack_without_token_kinds_holds_none(tmp_path, capsys):
    scenario = tmp_path / "base.yaml"
    scenario.write_text(yaml.safe_dump({"game": "7-wonders", "players": [
        {"name": "ann", "wonder": "giza", "tokens": {"debt": 1}}, {"name": "bo", "wonder": "rhodes"},
        {"name": "cy", "wonder": "babylon"}]}), encoding="utf-8")
    assert main(["score", str(scenario)]) == 1
    err = capsys.readouterr().err
    assert "'tokens' does not apply to 7-wonders" in err and "it declares no token kinds of its own" in err


def test_the_screen_names_each_side_of_a_choice():
    game, state = fresh()
    state.players[1].counters["coins"] = 3
    enter(state, 1, "altar")
    screen = DraftScreen(game, ["ann", "bo", "cy"], human=1)
    assert screen.labels(state, state.decision_actions(state.queue[0])) == ["choose: coins -2", "choose: take debt token"]


def test_the_screen_shows_a_neighbours_hidden_kind_to_its_holder_alone():
    game, state = fresh()
    for seat in (0, 1):
        state.players[seat].tokens = [("debt", -1, 0)] * 2 + [("laurel", 0, 0)]
    view = DraftScreen(game, ["ann", "bo", "cy"], human=0).view
    mine, theirs = view.city(state, 0)[0], view.neighbour(state, 0, 0)[0]
    assert "2 debt tokens" in mine and "1 laurel token" in mine
    assert "2 debt tokens" in theirs and "laurel" not in theirs

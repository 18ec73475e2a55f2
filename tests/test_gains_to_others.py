"""Effects on other players (issue 27, point 3): `<counter> <amount> to <players>` gives to (or,
negative, takes from) each of those players, a count without `in` read on the player hit; a loss
never takes a counter below zero, and rules.yaml `shortfall` says what each one short costs. The
example mod tests/mods/tribute played, scored and replayed.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import helpers
import sevenwonders_helpers as sw
from helpers import random_step
from log_helpers import logged_game
from wonderforge.interpreter.bots.expert import Evaluation, Expert, Features
from wonderforge.dsl.parser import parse_effects
from wonderforge.dsl.printer import print_effects
from wonderforge.interpreter import State, load_game
from wonderforge.interpreter.games.check import check_pack
from wonderforge.tools.cli.commands import main
from wonderforge.tools.cli.turns_screen import TurnsScreen

TRIBUTE = Path(__file__).resolve().parent / "mods" / "tribute"


@pytest.mark.parametrize("text", ["coins -1 to others", "coins -1 per victory token to neighbours",
                                  "on build: vp 2 per red card in self to left then coins 1",
                                  "at end: vp -1, -3 by defeat token to all if 2 red card"])
def test_a_gain_to_players_prints_back(text):
    assert print_effects(parse_effects(text)) == text


def test_the_example_mod_checks_clean():
    _, diagnostics = check_pack(TRIBUTE)
    assert diagnostics == [], [d.render() for d in diagnostics]


def table(players: int = 4, reds=(0, 0, 0, 0), coins=(3, 3, 3, 3)) -> State:
    """A deal of the mod with each seat's city holding `reds[seat]` red cards and those coins."""
    game = load_game(TRIBUTE, players=players, seed=1)
    state = game.new_state()
    red = [c for c in game.catalogue.cards.values() if c.colour == "red" and c.id not in ("walls", "arsenal")]
    for seat, player in enumerate(state.players):
        player.zones["city"] = list(red[:reds[seat]])
        player.built = {c.id for c in player.zones["city"]}
        player.counters["coins"] = coins[seat]
    return state


def card(state: State, cid: str):
    return state.game.catalogue.cards[cid]


def test_each_other_player_loses_a_coin_per_red_card_they_hold():
    state = table(reds=(1, 2, 0, 3), coins=(5, 5, 5, 5))
    state.gain_card(0, card(state, "walls"))
    assert [p.counters["coins"] for p in state.players] == [5, 3, 5, 2]


def test_the_owners_count_with_in_self():
    state = table(reds=(2, 1, 1, 1), coins=(5, 5, 5, 5))
    state.gain_card(0, card(state, "arsenal"))  # its builder now holds 3 red cards: the neighbours lose 3
    assert [p.counters["coins"] for p in state.players] == [5, 2, 5, 2]


def test_a_loss_stops_at_zero_and_each_coin_short_costs_a_point():
    state = table(reds=(0, 4, 1, 0), coins=(3, 1, 0, 3))
    before = [s["total"] for s in state.scores()]
    state.gain_card(0, card(state, "walls"))
    assert [p.counters["coins"] for p in state.players] == [3, 0, 0, 3]
    after = [s["total"] for s in state.scores()]
    # seat 1 is 3 coins short, seat 2 one (and lost its only coin's worth of treasury: none)
    assert [a - b for a, b in zip(after, before)] == [after[0] - before[0], -3, -1, 0]
    assert state.players[1].banked == [("", -1)] * 3


def test_without_a_shortfall_rule_a_loss_just_stops_at_zero():
    state = table(reds=(0, 4, 0, 0), coins=(3, 1, 3, 3))
    state.game.shortfall = {}
    state.gain_card(0, card(state, "walls"))
    assert state.players[1].counters["coins"] == 0 and state.players[1].banked == []


def test_points_given_to_neighbours_are_counted_at_the_end_by_the_scoring(tmp_path, capsys):
    """The Strategists Guild's `at end: vp -1 per defeat token to neighbours`, in `score`."""
    scenario = tmp_path / "tribute.yaml"
    scenario.write_text(f"""game: {TRIBUTE}
players:
  - {{name: ann, wonder: giza, cards: [strategists_guild], military: [1, 1, 3, 3]}}
  - {{name: ben, wonder: rhodes, military: [-1, -1, -1, -1]}}
  - {{name: cat, wonder: babylon, military: [1, 3]}}
  - {{name: dan, wonder: ephesus, military: [-1, -1]}}
""", encoding="utf-8")
    assert main(["score", str(scenario), "--format", "json"]) == 0
    scores = {p["name"]: p for p in json.loads(capsys.readouterr().out)["players"]}
    # ann scores her neighbours' 6 defeat tokens; each of them loses a point per token they hold
    assert scores["ann"]["breakdown"]["guilds"] == 6
    assert scores["ben"]["breakdown"]["guilds"] == -4 and scores["dan"]["breakdown"]["guilds"] == -2
    assert scores["cat"]["breakdown"]["guilds"] == 0
    assert all(p["score"] == sum(p["breakdown"].values()) for p in scores.values())


def watched_walls(monkeypatch) -> list:
    """The coins each Walls took, as (builder, seat hit, red cards they held, coins before, after)."""
    seen, gain_card = [], State.gain_card

    def gaining(state, seat, piece, placed=False):
        if piece.id != "walls":
            return gain_card(state, seat, piece, placed)
        before = [(sum(c.colour == "red" for c in p.zones["city"]), p.counters.get("coins", 0)) for p in state.players]
        gain_card(state, seat, piece, placed)
        seen.extend((seat, s, reds, coins, state.players[s].counters.get("coins", 0))
                    for s, (reds, coins) in enumerate(before) if s != seat)
    monkeypatch.setattr(State, "gain_card", gaining)
    return seen


@pytest.mark.parametrize("players", [3, 5, 7])
def test_seeded_play_takes_the_coins_and_never_below_zero(monkeypatch, players):
    seen = watched_walls(monkeypatch)
    for seed in range(8):
        state = load_game(TRIBUTE, players=players, seed=seed).new_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            random_step(state, rng)
            assert all(p.counters.get("coins", 0) >= 0 for p in state.players)
    assert seen, "no Walls was built in 8 games"
    for builder, seat, reds, coins, after in seen:
        assert after == max(0, coins - reds), (builder, seat, reds, coins, after)


@pytest.mark.slow
def test_a_hundred_seeded_games_at_every_count():
    for seed in range(100):
        players = 3 + seed % 5
        state = load_game(TRIBUTE, players=players, seed=seed).new_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            random_step(state, rng)
        assert len(state.scores()) == players


def test_the_bots_look_ahead_sees_the_others_losses():
    """Greedy and expert value an action on `flow.preview`'s position: there the Walls have taken
    the others' coins, and the expert's reading of the others (its features) sees points given."""
    wonders = ("giza:a", "olympia:a", "babylon:a")
    state = helpers.table(str(TRIBUTE), wonders, lambda s, seat, spec: sw.set_side(s, seat, *spec.split(":")))
    sw.build(state, 0, "quarry")
    for seat in (1, 2):
        sw.build(state, seat, "barracks")
        sw.set_coins(state, seat, 4)
    sw.set_hand(state, 0, "walls", "altar")
    state.players[1].tokens.append(("defeat", -1, 1))
    walls = next(a for a in state.legal_actions(0) if a.verb == "build" and a.card == "walls")
    after = state.game.flow.preview(state, 0, walls)
    assert [sw.coins(after, s) for s in (1, 2)] == [3, 3]
    sw.build(after, 0, "strategists_guild")  # as if the action had built it: seat 1 loses a point
    features = Features(after.game)
    assert features.seat(after, 1)[features.categories.index("guilds")] == -1
    evaluation = Evaluation(features, {}, None)
    before = {s: features.seat(state, s) for s in (1, 2)}  # what the expert would read once, without gains to others
    assert Expert._value(after, 0, evaluation, None) > Expert._value(after, 0, evaluation, before)


def with_shortfall(tmp_path: Path, text: str) -> Path:
    """A copy of the mod whose rules.yaml says `text` under `shortfall:`."""
    folder = tmp_path / "tribute"
    folder.mkdir()
    for name in ("pack.yaml", "cards.yaml"):
        (folder / name).write_text((TRIBUTE / name).read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "rules.yaml").write_text("# yaml-language-server: $schema=../../schemas/rules.schema.json\n"
                                       f"shortfall:\n{text}\n", encoding="utf-8")
    return folder


# (rules.yaml `shortfall:` lines, code, where the caret is, hint's start)
SHORTFALLS = [
    ("  coinz: vp -1", "E-RULES", "coinz", "did you mean 'coins'?"),
    ("  vp: vp -1", "E-RULES", "vp", "counters: coins, shields"),
    ('  coins: "at end: vp -1"', "E-DSL-PLACE", "at end", "remove the trigger"),
    ("  coins: vp -1 once per age", "E-DSL-PLACE", "age", "remove 'once per ...'"),
    ("  coins: vpp -1", "E-DSL-VERB", "vpp", "did you mean 'vp'?"),
]


@pytest.mark.parametrize("text, code, at, hint", SHORTFALLS, ids=[r[0].strip() for r in SHORTFALLS])
def test_a_shortfall_is_checked_at_its_position(tmp_path, text, code, at, hint):
    folder = with_shortfall(tmp_path, text)
    _, diagnostics = check_pack(folder)
    errors = [d for d in diagnostics if d.severity == "error"]
    assert [d.code for d in errors] == [code], [d.render() for d in diagnostics]
    line = (folder / "rules.yaml").read_text().splitlines()[errors[0].line - 1]
    assert line[errors[0].column - 1:].startswith(at) or at in line, errors[0].render()
    assert errors[0].hint.startswith(hint), errors[0].hint


def test_a_shortfall_losing_what_is_short_stops_there(tmp_path):
    """`shortfall: {coins: coins -1}` could set itself off without end: its own loss costs nothing."""
    game = load_game(with_shortfall(tmp_path, "  coins: coins -1; vp -1"), players=3, seed=1)
    state = game.new_state()
    state.players[1].counters["coins"] = 0
    state.players[1].zones["city"] = [c for c in game.catalogue.cards.values() if c.colour == "red"][:2]
    state.gain_card(0, game.catalogue.cards["walls"])
    assert state.players[1].counters["coins"] == 0 and state.players[1].banked == [("", -1)] * 2


def test_a_game_of_the_mod_is_logged_and_replays_to_its_scores(tmp_path, capsys):
    path, state = logged_game(tmp_path, str(TRIBUTE), 4, 2, ["expert", "greedy", "random", "random"])
    assert main(["replay", str(path), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["matches"] and data["finished"] and data["scores"] == state.scores()


def test_the_turns_screen_tells_what_an_effect_took_from_another_player(tmp_path):
    folder = tmp_path / "taxed"
    folder.mkdir()
    (folder / "pack.yaml").write_text("id: taxed\nname: Taxed\nversion: 1.0.0\nextends: architects\n", encoding="utf-8")
    (folder / "rules.yaml").write_text('player_effects: ["on take card: vp -1 to left"]\n', encoding="utf-8")
    game = load_game(folder, players=3, seed=1)
    state = game.new_state()
    screen = TurnsScreen(game, ["you (seat 0)", "seat 1 (random)", "seat 2 (random)"], 0)
    action = state.legal_actions(0)[0]
    before = screen.before(state, 0, action)
    state.apply(0, action)
    told = screen.after(state, 0, action, before)
    assert "  seat 1 (random) lost 1 vp" in told and not any("seat 2" in line for line in told)

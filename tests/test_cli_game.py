"""`wonderforge score`, `replay` and `play`, and the scenario files they read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from log_helpers import edited

from wonderforge.interpreter import load_game
from wonderforge.interpreter.packs.catalogue import Cost
from wonderforge.interpreter.files.scenario import load_scenario
from wonderforge.tools.cli.commands import main
from wonderforge.tools.cli.play import Terminal, View, bots_for, score_table

SCENARIOS = Path(__file__).parent / "scenarios"
ALEXANDRIA = SCENARIOS / "alexandria.yaml"


# ---- score ------------------------------------------------------------------------------------


def test_score_of_the_rule_book_example(capsys):
    assert main(["score", str(ALEXANDRIA), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"players", "winners"}
    alice = data["players"][0]
    assert set(alice) == {"name", "score", "breakdown"} and alice["name"] == "alice"
    assert alice["breakdown"] == {"military": 6,      # +1 +3 +5 -1 -1 -1
                                  "treasury": 4,      # 14 coins
                                  "wonder": 10,       # side a, 3 stages: 3 + 7
                                  "civilian": 13,     # altar 2 + aqueduct 5 + town hall 6
                                  "science": 0,
                                  "commerce": 4,      # chamber of commerce, 2 grey cards
                                  "guilds": 0}
    assert alice["score"] == 37
    assert [p["name"] for p in data["players"]] == ["alice", "bob", "dave", "carol"]
    assert data["winners"] == ["alice"]


def test_score_as_text_is_a_table_in_the_packs_category_order(capsys):
    assert main(["score", str(ALEXANDRIA)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["player", "military", "treasury", "wonder", "civilian", "science", "commerce",
                                "guilds", "total"]
    assert lines[1].split() == ["alice", "6", "4", "10", "13", "0", "4", "0", "37"]
    assert lines[-1] == "winner: alice"


def test_a_missing_side_is_the_first_the_rules_list(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(PLAYERS_3.format(alice="wonder: alexandria\n    stages: 2"))
    state, diagnostics, names = load_scenario(path)
    assert diagnostics == [] and state.players[0].side.side == "a"
    assert state.scores()[0]["breakdown"]["wonder"] == 3


def test_a_scenario_may_name_a_pack_folder_beside_it(tmp_path, capsys):
    """A mod that only adds data: a new card scores with no Python change."""
    mod = tmp_path / "my-mod"
    mod.mkdir()
    (mod / "pack.yaml").write_text("id: my-mod\nname: My mod\nversion: 0.1.0\nextends: 7-wonders\n")
    (mod / "cards.yaml").write_text("- id: great_altar\n  name: Great Altar\n  colour: blue\n"
                                    "  copies: {1: [3]}\n  effect: vp 9\n")
    path = tmp_path / "s.yaml"
    path.write_text(PLAYERS_3.format(alice="wonder: alexandria\n    cards: [great_altar, altar]")
                    .replace("7-wonders", "my-mod"))
    assert main(["score", str(path), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["players"][0]["breakdown"]["civilian"] == 11


# Three players; the first one's fields are filled in per case. Line 4 is alice's first field.
PLAYERS_3 = """\
game: 7-wonders
players:
  - name: alice
    {alice}
  - name: bob
    wonder: giza
  - name: carol
    wonder: rhodes
"""

ERRORS = [
    # (case, alice's fields, code, line, column, words in the message, hint)
    ("unknown wonder", "wonder: alexandra", "E-SCENARIO-WONDER", 4, 13, "unknown wonder 'alexandra'",
     "did you mean 'alexandria'?"),
    ("unknown side", "wonder: alexandria\n    side: c", "E-SCENARIO-SIDE", 5, 11, "alexandria has no side 'c'",
     "its sides: a, b"),
    ("too many stages", "wonder: alexandria\n    side: a\n    stages: 4", "E-SCENARIO-STAGES", 6, 13,
     "alexandria side a has 3 stages, not 4", None),
    ("unknown card", "wonder: alexandria\n    cards: [altar, aqeduct]", "E-SCENARIO-CARD", 5, 20,
     "unknown card 'aqeduct'", "did you mean 'aqueduct'?"),
    ("two of one card", "wonder: alexandria\n    cards: [altar, baths,\n            altar]", "E-SCENARIO-DUPLICATE",
     6, 13, "alice's city already holds altar: no two structures of one name", None),
    ("a military value no battle gives", "wonder: alexandria\n    military: [1, 3, 2]", "E-SCENARIO-MILITARY",
     5, 22, "no military token is worth 2 in 7-wonders", "victories are worth 1, 3, 5, a defeat -1"),
    ("more tokens than the battles give", "wonder: alexandria\n    military: [5, 5, 5]", "E-SCENARIO-MILITARY",
     5, 22, "alice holds more tokens of 5 than the battles give",
     "1 battle (age 3) against 2 neighbours gives at most 2"),
    ("a misspelt key", "wonder: alexandria\n    coin: 3", "E-SCENARIO-FIELD", 5, 5, "unknown key 'coin' in alice",
     "did you mean 'coins'?"),
    ("a value of the wrong type", "wonder: alexandria\n    coins: lots", "E-SCENARIO-FIELD", 5, 12,
     "alice.coins must be a whole number, not text", None),
    ("a field of another game", "wonder: alexandria\n    medals: [scholar]", "E-SCENARIO-FIELD", 5, 5,
     "'medals' does not apply to 7-wonders", None),
    ("no wonder", "cards: [altar]", "E-SCENARIO-FIELD", 3, 5, "alice has no wonder", None),
    ("one wonder twice", "wonder: giza", "E-SCENARIO-DUPLICATE", 6, 13, "alice and bob both play giza", None),
]


@pytest.mark.parametrize("fields, code, line, column, message, hint",
                         [case[1:] for case in ERRORS], ids=[case[0] for case in ERRORS])
def test_each_scenario_error_points_at_its_place(tmp_path, capsys, fields, code, line, column, message, hint):
    path = tmp_path / "scenario.yaml"
    path.write_text(PLAYERS_3.format(alice=fields))
    assert main(["score", str(path), "--format", "json"]) == 1
    [found] = json.loads(capsys.readouterr().out)["diagnostics"]
    assert (found["code"], found["line"], found["column"]) == (code, line, column)
    assert found["message"] == message
    if hint is not None:
        assert found["hint"] == hint


@pytest.mark.parametrize("text, code, line, column, message", [
    ("game: 7-wondres\nplayers:\n  - name: a\n", "E-SCENARIO-GAME", 1, 7, "no pack '7-wondres'"),
    ("game: 7-wonders\nplayers:\n" + "".join(f"  - {{name: p{i}, wonder: giza}}\n" for i in range(8)),
     "E-SCENARIO-PLAYERS", 3, 3, "7-wonders plays with 3 to 7 players, not 8"),
    ("game: 7-wonders\noptions: {speed: fast}\nplayers:\n  - name: a\n", "E-SCENARIO-GAME", 2, 10,
     "unknown option 'speed' for 7-wonders (its options: side)"),
    ("game: 7-wonders\nplayers: [\n", "E-YAML-SYNTAX", 3, 1, None),
    ("players:\n  - name: a\n", "E-SCENARIO-FIELD", 1, 1, "the scenario lacks the required key 'game'"),
    ("game: 7-wonders\nplayers: []\n", "E-SCENARIO-FIELD", 2, 10, "players needs at least 1 item"),
    ("game: 7-wonders\nplayers:\n  - {name: a, wonder: giza, coins: -2}\n", "E-SCENARIO-FIELD", 3, 36,
     "a.coins must be at least 0, not -2"),
    ("game: 7-wonders\nplayers:\n  - alice\n", "E-SCENARIO-FIELD", 3, 5, "players[0] must be a mapping, not text"),
], ids=["unknown pack", "too many players", "unknown option", "bad yaml", "no game", "no players",
      "negative coins", "not a mapping"])
def test_scenario_file_errors(tmp_path, capsys, text, code, line, column, message):
    path = tmp_path / "scenario.yaml"
    path.write_text(text)
    assert main(["score", str(path), "--format", "json"]) == 1
    [found] = [d for d in json.loads(capsys.readouterr().out)["diagnostics"] if d["code"] == code]
    assert (found["line"], found["column"]) == (line, column)
    if message is not None:
        assert found["message"] == message


def test_every_problem_of_a_file_is_reported_at_once_on_stderr(capsys):
    assert main(["score", str(SCENARIOS / "every_error.yaml")]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    codes = [line.split("error[")[1].split("]")[0] for line in captured.err.splitlines() if "error[" in line]
    assert codes == ["E-SCENARIO-WONDER", "E-SCENARIO-FIELD", "E-SCENARIO-DUPLICATE", "E-SCENARIO-CARD",
                     "E-SCENARIO-MILITARY", "E-SCENARIO-SIDE", "E-SCENARIO-DUPLICATE", "E-SCENARIO-STAGES",
                     "E-SCENARIO-FIELD"]
    assert ("every_error.yaml:9:20: error[E-SCENARIO-DUPLICATE]: alice's city already holds altar: no two "
            "structures of one name\n        cards: [altar, altar, aqeduct]\n                       ^^^^^") in captured.err


# ---- play and replay --------------------------------------------------------------------------


def _answers(monkeypatch, answers):
    """Feed `input()` these answers, then "1" for ever."""
    given = iter(answers)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(given, "1"))


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A 3-player game played with `wonderforge play` (answering 1 each time) and its log."""
    path = tmp_path_factory.mktemp("logs") / "game.jsonl"
    with pytest.MonkeyPatch.context() as monkeypatch:
        _answers(monkeypatch, ["x", "999", "", "0"])
        outputs = []
        monkeypatch.setattr("builtins.print", lambda *a, **k: outputs.append(" ".join(map(str, a))))
        status = main(["play", "7-wonders", "--players", "3", "--seed", "11", "--bots", "random,greedy",
                       "--log", str(path)])
    return status, "\n".join(outputs), path


def test_play_with_scripted_input_finishes_a_game(played):
    status, out, path = played
    assert status == 0
    assert "Please type the number of an action, from 1 to" in out      # "x" and ""
    assert "There is no action 999: type a number from 1 to" in out
    assert "There is no action 0" in out
    assert "=== Age 1 of 3, turn 1 of 6 ===" in out and "=== Age 3 of 3, turn 6 of 6 ===" in out
    assert "Your hand:" in out and "Actions:\n  1. " in out
    assert "--- Battles at the end of age 3 ---" in out
    final = out.split("=== Final scores ===")[1].splitlines()
    assert final[1].split()[:2] == ["player", "military"] and final[1].split()[-1] == "total"
    assert final[2].startswith("you (seat 0)") and final[3].startswith("seat 1 (random)")
    assert final[4].startswith("seat 2 (greedy)") and final[5].startswith("winner")
    assert path.read_text().count("\n") == 1 + 54 + 1      # header, 3 players x 18 turns, result


def test_replay_of_a_played_game_reproduces_it(played, capsys):
    _, _, path = played
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "7-wonders, 3 players, seed 11" in out and "replayed 54 actions" in out
    assert "ok: the replay reproduces the recorded result" in out
    assert main(["replay", str(path), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["matches"] and data["actions"] == 54 and data["differences"] == []


def test_replay_of_an_edited_score_does_not_match(played, tmp_path, capsys):
    def edit(lines):
        lines[-1]["scores"][1]["total"] += 1
    assert main(["replay", str(edited(played[2], tmp_path, edit))]) == 1
    out = capsys.readouterr().out
    assert "MISMATCH" in out and "seat 1: total" in out


def test_replay_of_an_edited_action_does_not_match(played, tmp_path, capsys):
    def edit(lines):
        lines[1]["action"] = {"verb": "build", "card": "palace"}   # not in an Age I hand
    assert main(["replay", str(edited(played[2], tmp_path, edit))]) == 1
    err = capsys.readouterr().err
    assert "edited.jsonl:2:" in err and "error[E-LOG-ILLEGAL]: seat 0 cannot play build palace here" in err


def test_replay_of_a_changed_but_legal_action_does_not_reproduce_the_game(played, tmp_path, capsys):
    def edit(lines):
        line = next(line for line in lines[1:] if line.get("action", {}).get("verb") == "build")
        line["action"] = {"verb": "discard", "card": line["action"]["card"]}
    assert main(["replay", str(edited(played[2], tmp_path, edit))]) == 1
    captured = capsys.readouterr()
    assert "MISMATCH" in captured.out or "error[E-LOG-ILLEGAL]" in captured.err


def test_replay_of_a_bad_log_says_where(tmp_path, capsys):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"type": "action", "step": 0, "player": 0, "action": {"verb": "pass"}}\n')
    assert main(["replay", str(path)]) == 1
    assert "bad.jsonl:1:1: error[E-LOG-LINE]: a log starts with its header line" in capsys.readouterr().err


def test_play_ends_cleanly_when_the_input_ends(monkeypatch, capsys, tmp_path):
    def eof(prompt=""):
        raise EOFError
    monkeypatch.setattr("builtins.input", eof)
    path = tmp_path / "partial.jsonl"
    assert main(["play", "7-wonders", "--players", "3", "--seed", "2", "--log", str(path)]) == 0
    assert "Game left unfinished (seed 2)." in capsys.readouterr().out
    assert path.read_text().count("\n") == 1   # the header only: nothing was played


@pytest.mark.parametrize("argv, words", [
    (["--players", "9"], "plays with 3 to 7 players, not 9"),
    (["--seat", "3"], "--seat must be from 0 to 2"),
    (["--bots", "clever"], "unknown bot 'clever'"),
    (["--side", "c"], "option side must be one of random, a, b"),
])
def test_a_bad_play_command_line_exits_2(capsys, argv, words):
    assert main(["play", "7-wonders", *argv]) == 2
    assert words in capsys.readouterr().err


def test_bots_go_to_the_other_seats_in_order():
    assert bots_for("random,greedy", 4, 1) == ["random", None, "greedy", "random"]


# ---- what the terminal explains --------------------------------------------------------------


@pytest.fixture(scope="module")
def position():
    state, diagnostics, names = load_scenario(ALEXANDRIA)
    assert diagnostics == []
    return state, View(state.game, names)


@pytest.mark.parametrize("cost, ok, words", [
    (Cost(("glass", "papyrus")), True, "your city produces it"),
    (Cost(("stone", "stone")), True, "buy: 2 coins to left"),          # one from the wonder, one from bob
    (Cost(("stone", "stone", "stone")), False, "you and your neighbours together are 1 stone short"),
    (Cost(("textile",)), False, "neither you nor your neighbours produce textile"),
    (Cost((), (("coins", 15),)), False, "not enough coins: it costs 15, you have 14"),
    (Cost(("ore", "ore"), (("coins", 1),)), True, "buy: 2 coins to right; and pay 1 coin to the bank"),
])
def test_costs_are_explained(position, cost, ok, words):
    state, view = position
    can, text = view.explain(state, 0, cost)
    assert can is ok and words in text


def test_hand_and_action_lines(position):
    from wonderforge.interpreter.core.actions import Action
    state, view = position
    cards = state.game.catalogue.cards
    assert view.hand_line(state, 0, cards["altar"]).endswith(
        "cannot be built: your city already holds one (no two structures of one name)")
    assert "free: you built Altar" in view.hand_line(state, 0, cards["temple"])
    assert view.action(state, 0, Action("build", "barracks", (0, 2))) == "build Barracks — pay 2 coins to right"
    assert view.action(state, 0, Action("discard", "barracks")) == "discard Barracks — coins 3"


def test_mid_turn_decisions_are_offered_to_the_human():
    """Halicarnassus side b at seat 0: building stages first brings the build-from-discard choice."""
    game = load_game("7-wonders", players=3, seed=0, side="b")
    out: list[str] = []
    terminal = None

    def read(prompt):
        actions = terminal.state.legal_actions(0)
        stage = [i for i, a in enumerate(actions, 1) if a.verb == "stage"]
        return str(stage[0] if stage else 1)

    terminal = Terminal(game, 0, [None, "greedy", "random"], read, out.append)
    state = terminal.run()
    text = "\n".join(out)
    assert state.players[0].side.wonder == "halicarnassus" and state.players[0].stages == 3
    assert "Your wonder lets you build one card of the discard pile, free:" in text
    assert "from the discard, free" in text
    assert "=== Final scores ===" in text


def test_score_table_lines_up_columns():
    table = score_table(["a", "bob"], [{"total": 5, "breakdown": {"x": 5}}, {"total": 12, "breakdown": {"x": 12}}])
    assert table.splitlines() == ["player   x  total", "a        5      5", "bob     12     12"]

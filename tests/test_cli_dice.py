"""`wonderforge score`, `play` and `replay` for 7 Wonders Dice (the `rolls` flow)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from log_helpers import edited, logged_game

from wonderforge.interpreter import load_game
from wonderforge.interpreter.core.actions import Action
from wonderforge.interpreter.files.scenario import load_scenario
from wonderforge.tools.cli.commands import main
from wonderforge.tools.cli.play import Terminal
from wonderforge.tools.cli.rolls_screen import RollsScreen

SCENARIOS = Path(__file__).parent / "scenarios"
DICE = SCENARIOS / "dice.yaml"

CATEGORIES = ["wonder", "guild_palace", "gallery", "barracks_west", "agora", "market", "university", "barracks_east"]


# ---- score ------------------------------------------------------------------------------------


def test_score_of_a_dice_position(capsys):
    """tests/scenarios/dice.yaml, scored by hand from content/dice (boards.yaml, buildings.yaml).
    Seats: ana, bob, cid clockwise; ana's left is bob, her right cid."""
    assert main(["score", str(DICE), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    ana, bob, cid = data["players"]
    assert [p["name"] for p in data["players"]] == ["ana", "bob", "cid"]
    assert ana["breakdown"] == {
        "wonder": 2 * 3 + 7,          # Giza: box 1 `at end: vp 2 per box in wonder` (3 boxes), box 3 `vp 7`
        "guild_palace": 0,
        "gallery": 2 + 4,             # boxes 1 and 2 print 2 and 4 VP
        "barracks_west": (2 - 1) + (3 - 1) + (4 - 1),   # 3 attacks on bob, who has 1 East defence box
        "agora": (1 + 2 + 3 + 4) + (2 + 3 + 4 + 5) + 3,  # both tracks, +3 for completing it first
        "market": 3 + 4,              # box 3 `at end: vp 1 per box in market` (3 boxes), box 6 prints 4
        "university": 0,              # the white and black lanes score nothing
        "barracks_east": 0 + (3 - 2),  # 2 attacks on cid, who has 2 West defence boxes (never below 0)
    }
    assert ana["score"] == 13 + 6 + 6 + 27 + 7 + 1 == 60
    assert bob["breakdown"] == {
        "wonder": 7,                  # Rhodes: box 3 `vp 7`
        "guild_palace": 5,            # box 1 prints 5
        "gallery": 0,
        "barracks_west": 0,
        "agora": 24,                  # complete, but ana was first
        "market": 0,
        "university": 3,              # purple lane box 2: `at end: vp 1 per box in university` (3 boxes)
        "barracks_east": 2 + 3 + 4 + 5 + 6 - 5 * 1,   # 5 attacks on ana, who has 1 West defence box
    }
    assert bob["score"] == 54
    assert cid["breakdown"]["barracks_west"] == 2 and cid["score"] == 2   # 1 attack on ana: no East defence
    assert data["winners"] == ["ana"]


def test_score_as_text_uses_the_packs_categories(capsys):
    assert main(["score", str(DICE)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["player", *CATEGORIES, "total"]
    assert lines[1].split() == ["ana", "13", "0", "6", "6", "27", "7", "0", "1", "60"]
    assert lines[-1] == "winner: ana"


def _scenario(tmp_path: Path, text: str):
    path = tmp_path / "scenario.yaml"
    path.write_text(text)
    return load_scenario(path)


def test_the_position_holds_what_the_scenario_gives():
    state, diagnostics, names = load_scenario(DICE)
    assert diagnostics == [] and names == ["ana", "bob", "cid"]
    ana = state.players[0]
    assert state.flow_state.boards == ["giza", "rhodes", "alexandria"] and state.is_terminal()
    assert len(ana.units) == 6                       # the Warehouse's six boxes
    assert ana.counters["coins"] == 12 and state.players[1].counters["coins"] == 35
    assert state.flow_state.unlocked[0] == {"black", "white"} and state.flow_state.bonuses[0] == {0, 2}
    assert state.flow_state.firsts == {"agora": 0}  # completed first in a round before the position
    assert "market.6" in state.flow_state.checked[0] and "market.2" not in state.flow_state.checked[0]
    assert state.queue == []                         # no free box or extra action is owed


def test_coins_left_out_are_the_starting_coins_whatever_the_boxes_gave(tmp_path):
    state, diagnostics, _ = _scenario(tmp_path, "game: dice\nplayers:\n"
                                                "  - {name: a, board: giza, boxes: {wonder: 1, market: [1]}}\n"
                                                "  - {name: b, board: rhodes}\n")
    assert diagnostics == []
    assert state.players[0].counters["coins"] == 7      # rules.yaml setup.counters
    assert state.scores()[0]["breakdown"]["wonder"] == 2   # Giza box 1: 2 per box in wonder


def test_one_player_who_completed_a_building_was_first(tmp_path):
    state, diagnostics, _ = _scenario(tmp_path, "game: dice\nplayers:\n"
                                                "  - {name: a, board: giza}\n"
                                                "  - {name: b, board: rhodes,\n"
                                                "     boxes: {agora: {symbol_a: 4, symbol_b: 4}}}\n")
    assert diagnostics == []
    assert [s["breakdown"]["agora"] for s in state.scores()] == [0, 24 + 3]


def test_unlocking_boxes_unlock_their_die(tmp_path):
    state, diagnostics, _ = _scenario(tmp_path, "game: dice\nplayers:\n"
                                                "  - {name: a, board: giza, boxes: {university: {purple: 3}}}\n"
                                                "  - {name: b, board: rhodes}\n")
    assert diagnostics == [] and state.flow_state.unlocked[0] == {"purple"}


# Two players; the first one's fields are filled in per case. Line 4 is ana's first field.
PLAYERS_2 = """\
game: dice
players:
  - name: ana
    {ana}
  - name: bob
    board: rhodes
    boxes: {{agora: {{symbol_a: 4, symbol_b: 4}}}}
"""

ERRORS = [
    # (case, ana's fields, code, line, column, message, hint)
    ("unknown board", "board: gizah", "E-SCENARIO-BOARD", 4, 12, "unknown board 'gizah'", "did you mean 'giza'?"),
    ("one board twice", "board: rhodes", "E-SCENARIO-DUPLICATE", 6, 12, "ana and bob both play rhodes",
     "the game has one board of each city"),
    ("no board", "coins: 3", "E-SCENARIO-FIELD", 3, 5, "ana has no board",
     "add `board:`, one of: alexandria, babylon, ephesus, giza, halicarnassus, olympia, rhodes"),
    ("unknown building", "board: giza\n    boxes: {agorra: 2}", "E-SCENARIO-BOX", 5, 13,
     "giza has no building 'agorra'", "did you mean 'agora'?"),
    ("unknown track", "board: giza\n    boxes: {agora: {symbol_c: 2}}", "E-SCENARIO-BOX", 5, 21,
     "agora has no track 'symbol_c'", None),
    ("more boxes than a building has", "board: giza\n    boxes: {warehouse: 7}", "E-SCENARIO-BOX", 5, 24,
     "warehouse has 6 boxes, not 7", None),
    ("more boxes than a track has", "board: giza\n    boxes: {agora: {symbol_a: 5}}", "E-SCENARIO-BOX", 5, 31,
     "agora's track symbol_a has 4 boxes, not 5", None),
    ("more boxes than the wonder has", "board: giza\n    boxes: {wonder: 4}", "E-SCENARIO-BOX", 5, 21,
     "wonder has 3 boxes, not 4", None),
    ("a box number out of range", "board: giza\n    boxes: {market: [1, 7]}", "E-SCENARIO-BOX", 5, 25,
     "market has no box 7: its boxes are 1 to 6", None),
    ("a building in sequence given out of order", "board: giza\n    boxes: {warehouse: [1, 3]}",
     "E-SCENARIO-BOX", 5, 28, "warehouse's boxes are checked in order: box 3 cannot be checked before box 2",
     "add box 2; a number N stands for the first N boxes"),
    ("a track in sequence given out of order", "board: giza\n    boxes: {university: {black: [2]}}",
     "E-SCENARIO-BOX", 5, 34, "university's track black's boxes are checked in order: box 2 cannot be checked "
     "before box 1", None),
    ("a box twice", "board: giza\n    boxes: {market: [2, 5,\n                     2]}", "E-SCENARIO-DUPLICATE",
     6, 22, "box 2 is listed twice", "the first is item 1; a box is checked once"),
    ("a number for a building of tracks", "board: giza\n    boxes: {agora: 3}", "E-SCENARIO-BOX", 5, 20,
     "agora's boxes lie on tracks (symbol_a, symbol_b): give them track by track", None),
    ("tracks for a building without", "board: giza\n    boxes: {warehouse: {first: 1}}", "E-SCENARIO-BOX", 5, 24,
     "warehouse has no tracks: give the number of its boxes checked, or their numbers", None),
    ("a count of the wrong type", "board: giza\n    boxes: {warehouse: lots}", "E-SCENARIO-FIELD", 5, 24,
     "ana.boxes.warehouse must be a whole number or a list or a mapping, not text", None),
    ("unknown die", "board: giza\n    dice: [blak]", "E-SCENARIO-DIE", 5, 12, "unknown die 'blak'",
     "did you mean 'black'?"),
    ("a die no box unlocks", "board: giza\n    dice: [grey]", "E-SCENARIO-DIE", 5, 12,
     "the grey die is never unlocked: no box unlocks it", "dice that boxes unlock: black, purple, white"),
    ("one die twice", "board: giza\n    boxes: {university: {white: 3}}\n    dice: [white, white]", "E-SCENARIO-DUPLICATE", 6, 19,
     "the white die is listed twice", None),
    ("a bonus out of range", "board: giza\n    bonuses: [4]", "E-SCENARIO-BONUS", 5, 15,
     "there is no bonus 4: the bonuses are 1 to 3",
     "1. extra action; 2. check 1 box in warehouse / agora / market; 3. coins 7"),
    ("one bonus twice", "board: giza\n    boxes: {wonder: 3, market: 6}\n    bonuses: [1, 1]",
     "E-SCENARIO-DUPLICATE", 6, 18, "bonus 1 is listed twice", "a bonus is taken once"),
    ("more bonuses than completed buildings", "board: giza\n    boxes: {wonder: 3, warehouse: 6}\n    bonuses: [3, 1]",
     "E-SCENARIO-BONUS", 6, 18, "ana has 1 bonus to take from completed buildings (wonder), not 2", None),
    ("a bonus with nothing completed", "board: giza\n    bonuses: [2]", "E-SCENARIO-BONUS", 5, 15,
     "ana took a bonus without completing a building that gives one", None),
    ("first at a building not completed", "board: giza\n    first: [agora]", "E-SCENARIO-FIRST", 5, 13,
     "ana has not completed agora: not all of its boxes are checked", "check all 8 of its boxes under `boxes:`"),
    ("first at a building without a first bonus", "board: giza\n    boxes: {warehouse: 6}\n    first: [warehouse]",
     "E-SCENARIO-FIRST", 6, 13, "warehouse gives nothing to the first player to complete it",
     "buildings with a first bonus: agora"),
    ("two completed it, nobody says who was first",
     "board: giza\n    boxes: {agora: {symbol_a: 4, symbol_b: 4}}", "E-SCENARIO-FIRST", 8, 13,
     "ana and bob both completed agora: say who was first",
     "give `first: [agora]` to the player who completed it first (to each, if several did in the same round)"),
    ("more coins than the reserve holds", "board: giza\n    coins: 40", "E-SCENARIO-FIELD", 5, 12,
     "ana holds 40 coins, more than the 35 there is room for", "rules.yaml `setup.caps` allows at most 35 coins"),
    ("a field of another game", "board: giza\n    wonder: giza", "E-SCENARIO-FIELD", 5, 5,
     "'wonder' does not apply to dice",
     "the rolls flow arranges no wonder; a scenario of dice gives: name, coins, board, boxes, dice, bonuses, first"),
    ("cards", "board: giza\n    cards: [altar]", "E-SCENARIO-FIELD", 5, 5, "'cards' does not apply to dice", None),
    ("a misspelt key", "board: giza\n    box: {wonder: 1}", "E-SCENARIO-FIELD", 5, 5, "unknown key 'box' in ana",
     "did you mean 'boxes'?"),
]


@pytest.mark.parametrize("fields, code, line, column, message, hint",
                         [case[1:] for case in ERRORS], ids=[case[0] for case in ERRORS])
def test_each_dice_scenario_error_points_at_its_place(tmp_path, capsys, fields, code, line, column, message, hint):
    path = tmp_path / "scenario.yaml"
    path.write_text(PLAYERS_2.format(ana=fields))
    assert main(["score", str(path), "--format", "json"]) == 1
    [found] = json.loads(capsys.readouterr().out)["diagnostics"]
    assert (found["code"], found["line"], found["column"]) == (code, line, column)
    assert found["message"] == message
    if hint is not None:
        assert found["hint"] == hint


def test_two_players_first_at_one_building(tmp_path, capsys):
    """Both completed the Agora in the same round: both were first (docs/rules-notes.md)."""
    path = tmp_path / "scenario.yaml"
    path.write_text(PLAYERS_2.format(ana="board: giza\n    boxes: {agora: {symbol_a: 4, symbol_b: 4}}\n"
                                         "    first: [agora]") + "    first: [agora]\n")
    assert main(["score", str(path), "--format", "json"]) == 0
    players = json.loads(capsys.readouterr().out)["players"]
    assert [p["breakdown"]["agora"] for p in players] == [24 + 3, 24 + 3]


@pytest.mark.parametrize("field, hint", [
    ("board: giza", "it has no boards"),
    ("boxes: {warehouse: 2}", "it has no buildings"),
    ("dice: [black]", "it has no dice"),
    ("bonuses: [1]", "its rules give no bonuses"),
])
def test_dice_fields_do_not_apply_to_seven_wonders(tmp_path, capsys, field, hint):
    path = tmp_path / "scenario.yaml"
    path.write_text("game: 7-wonders\nplayers:\n  - name: a\n    wonder: giza\n    " + field +
                    "\n  - {name: b, wonder: rhodes}\n  - {name: c, wonder: babylon}\n")
    assert main(["score", str(path), "--format", "json"]) == 1
    [found] = json.loads(capsys.readouterr().out)["diagnostics"]
    name = field.split(":")[0]
    assert (found["code"], found["line"], found["column"]) == ("E-SCENARIO-FIELD", 5, 5)
    assert found["message"] == f"'{name}' does not apply to 7-wonders"
    assert found["hint"].startswith(hint)


def test_every_problem_of_a_dice_file_is_reported_at_once(tmp_path, capsys):
    path = tmp_path / "scenario.yaml"
    path.write_text("game: dice\nplayers:\n"
                    "  - {name: a, board: giza, boxes: {warehouse: [2], agorra: 1}, dice: [blak]}\n"
                    "  - {name: b, board: giza, bonuses: [1]}\n")
    assert main(["score", str(path)]) == 1
    err = capsys.readouterr().err
    codes = [line.split("error[")[1].split("]")[0] for line in err.splitlines() if "error[" in line]
    assert codes == ["E-SCENARIO-BOX", "E-SCENARIO-BOX", "E-SCENARIO-DIE", "E-SCENARIO-DUPLICATE",
                     "E-SCENARIO-BONUS"]


# ---- play and replay --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A 2-player Dice game played with `wonderforge play` (answering 1 each time) and its log."""
    path = tmp_path_factory.mktemp("logs") / "dice.jsonl"
    with pytest.MonkeyPatch.context() as monkeypatch:
        given = iter(["x", "999", ""])
        monkeypatch.setattr("builtins.input", lambda prompt="": next(given, "1"))
        outputs = []
        monkeypatch.setattr("builtins.print", lambda *a, **k: outputs.append(" ".join(map(str, a))))
        status = main(["play", "dice", "--players", "2", "--seed", "5", "--bots", "greedy", "--log", str(path)])
    return status, "\n".join(outputs), path


def test_play_dice_with_scripted_input_finishes_a_game(played):
    status, out, path = played
    assert status == 0
    assert out.startswith("7 Wonders Dice: 2 players, seed 5. You are seat 0, playing ")
    assert "Please type the number of an action, from 1 to 13 (q to leave)." in out     # "x" and ""
    assert "There is no action 999: type a number from 1 to 13." in out
    first = out.split("=== Round 1 ===")[1].split("Your choice")[0]
    for words in ("The Forum:\n  grey die: Warehouse — costs ", "Your board — ", "coins (of 35 at most)",
                  "  Warehouse, grey die: 0/6 — next: box 1, no resource (produce resource)",
                  "  Agora, blue die: 0/8 — symbol a 0/4, next: box 1, no resource (1 vp) | symbol b 0/4",
                  "  Market, yellow die, any order: 0/6 — open: box 1, ",
                  "  Bonuses: 1. extra action (open); 2. check 1 box in warehouse / agora / market (open); "
                  "3. coins 7 (open)",
                  "Neighbours:\n  left and right, seat 1 (greedy) — ", "no box checked",
                  "Actions:\n  1. check Agora (symbol b) box 1 with the blue die — 3 coins for the die + 1 for a "
                  "missing resource (2 vp)",
                  "with a grey die — free (produce resource)", "  13. pass: +3 coins"):
        assert words in first
    assert "\n--- Round 1 ---\n  you: checked Agora (symbol b) box 1 with the blue die — coins 7 → 3\n" in out
    assert "  seat 1 (greedy): checked " in out
    assert "(continued): you completed a building: take one of the bonuses left ===" in out
    assert "(continued): bonus 1 gives you an extra action ===" in out
    assert "lets you check up to 2 boxes in Agora, free ===" in out
    assert "joins the Forum, in place of a grey die." in out
    assert "you took 3 bonuses: 1 more round, then the game ends" in out
    assert "scores 2 vp now" in out and "scored " in out
    assert "The game is over." in out
    final = out.split("=== Final scores ===")[1].splitlines()
    assert final[1].split() == ["player", *CATEGORIES, "total"]
    assert final[2].startswith("you (seat 0)") and final[3].startswith("seat 1 (greedy)")
    assert final[4].startswith("winner")
    lines = path.read_text().splitlines()
    assert json.loads(lines[0])["pack"] == "dice" and json.loads(lines[-1])["type"] == "result"


def test_replay_of_a_played_dice_game_reproduces_it(played, capsys):
    _, _, path = played
    actions = len(path.read_text().splitlines()) - 2
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "dice, 2 players, seed 5" in out and f"replayed {actions} actions" in out
    assert out.splitlines()[2].split() == ["player", *CATEGORIES, "total"]
    assert "ok: the replay reproduces the recorded result" in out


@pytest.fixture(scope="module")
def bot_log(tmp_path_factory):
    """A 3-player game between bots, logged with `interpreter.log`."""
    return logged_game(tmp_path_factory.mktemp("logs"), "dice", 3, 8, ["greedy", "random", "random"])


def test_replay_of_a_dice_bot_game_log_matches(bot_log, capsys):
    path, state = bot_log
    assert main(["replay", str(path), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["matches"] and data["finished"] and data["pack"] == "dice"
    assert data["actions"] == len(state.history) and data["scores"] == state.scores()


def test_replay_of_an_edited_dice_score_does_not_match(bot_log, tmp_path, capsys):
    def edit(lines):
        lines[-1]["scores"][1]["breakdown"]["agora"] += 2
        lines[-1]["scores"][1]["total"] += 2
    assert main(["replay", str(edited(bot_log[0], tmp_path, edit))]) == 1
    out = capsys.readouterr().out
    assert "MISMATCH" in out and "seat 1: total" in out and "agora" in out


def test_replay_of_an_edited_dice_action_is_illegal(bot_log, tmp_path, capsys):
    def edit(lines):   # the first box of a sequence is never box 3
        lines[1]["action"] = {"verb": "check", "card": "warehouse.3", "choice": "grey@0:warehouse"}
    assert main(["replay", str(edited(bot_log[0], tmp_path, edit))]) == 1
    err = capsys.readouterr().err
    assert "edited.jsonl:2:1: error[E-LOG-ILLEGAL]: seat 0 cannot play check warehouse.3 grey@0:warehouse here" in err


def test_replay_of_a_played_game_with_one_choice_changed_does_not_reproduce_it(played, tmp_path, capsys):
    def edit(lines):
        first = lines[1]["action"]
        assert first["verb"] == "check"
        lines[1]["action"] = {"verb": "pass"}       # legal, but another game follows
    assert main(["replay", str(edited(played[2], tmp_path, edit))]) == 1
    captured = capsys.readouterr()
    assert "MISMATCH" in captured.out or "error[E-LOG-ILLEGAL]" in captured.err


# ---- what the screen says --------------------------------------------------------------------


def test_a_rolls_game_gets_its_screen():
    terminal = Terminal(load_game("dice", players=2), 0, [None, "random"], lambda p: "1", print)
    assert type(terminal.screen) is RollsScreen


@pytest.fixture()
def opening():
    game = load_game("dice", players=3, seed=1)
    state = game.new_state()
    return state, RollsScreen(game, ["you (seat 0)", "seat 1 (random)", "seat 2 (random)"], 0)


def test_actions_are_told_with_their_price(opening):
    state, screen = opening
    state.flow_state.forum = [["blue", "agora.symbol_b", 2], ["red", "barracks_west.attack", 0], ["grey", "warehouse", 3]]
    state.players[0].counters["coins"] = 9
    labels = dict(zip(state.legal_actions(0), screen.labels(state, state.legal_actions(0))))
    assert labels[Action("check", "agora.symbol_b.1", choice="blue@2:agora.symbol_b")] == \
        "check Agora (symbol b) box 1 with the blue die — 2 coins for the die + 1 for a missing resource (2 vp)"
    assert labels[Action("check", "barracks_west.attack.1", choice="red@0:barracks_west.attack")] == \
        ("check Barracks (West, attack) box 1 with the red die — free (on build: vp 2 minus defence box in "
         "barracks_east of left before this round; scores 2 vp now)")
    assert labels[Action("check", "warehouse.1", choice="grey@3:warehouse")] == \
        "check Warehouse box 1 with a grey die — 3 coins for the die (produce resource)"
    assert labels[Action("pass")] == "pass: +3 coins"
    wonder = [label for action, label in labels.items() if action.choice is None and action.verb == "check"]
    assert len(wonder) == 1 and " box 1 — " in wonder[0] and "missing resource" in wonder[0]


def test_the_forum_says_what_each_die_opens_and_costs(opening):
    state, screen = opening
    state.flow_state.forum = [["blue", "agora.symbol_a", 1], ["purple", "market", 2], ["black", "agora", 3]]
    [text] = screen.table(state, screen.labels(state, state.legal_actions(0)))
    assert "The Forum:\n  blue die: Agora (symbol a) — costs 1\n" in text
    assert "  purple die: Guild Court; it shows Market — costs 2 — not unlocked by you\n" in text
    assert "  black die (Spy): Agora (any of its tracks) — costs 3 — not unlocked by you\n" in text
    assert "Neighbours:\n  left, seat 1 (random) — " in text and "\n  right, seat 2 (random) — " in text


def test_a_pass_near_the_cap_says_what_is_kept(opening):
    state, screen = opening
    state.players[0].counters["coins"] = 34
    assert screen.action(state, 0, Action("pass")) == "pass: +3 coins (you may hold 35 at most: 1 kept)"


def test_choices_of_others_stay_hidden_until_all_have_chosen():
    game = load_game("dice", players=3, seed=4)
    state = game.new_state()
    screen = RollsScreen(game, ["seat 0 (random)", "you (seat 1)", "seat 2 (random)"], 1)
    chosen = state.legal_actions(0)[0]
    before = screen.before(state, 0, chosen)
    state.apply(0, chosen)
    assert screen.after(state, 0, chosen, before) == []     # nothing told before the round is revealed
    [text] = screen.table(state, screen.labels(state, state.legal_actions(1)))
    assert "Chosen already, hidden until all have: seat 0 (random)" in text
    assert "This round so far" not in text and "seat 0 (random) checked" not in text

"""Choosing wonders (issue 16): `--wonders W[:SIDE],...,*` assigns wonders (Dice boards) to seats,
the rest dealt at random, in every game; logs and summaries record it, so games replay."""

from __future__ import annotations

import json

import pytest

from wonderforge.interpreter import load_game
from wonderforge.interpreter.files import log as gamelog
from wonderforge.interpreter.core.choosing import ChoiceError
from wonderforge.tools.cli.commands import main


def _dealt(state) -> list[tuple[str, str]]:
    return [(p.side.wonder, p.side.side) for p in state.players]


def _boards(state) -> list[str]:
    return list(state.flow_state.boards)


@pytest.mark.parametrize("pack, players, spec, want", [
    ("7-wonders", 3, "giza:b,rhodes,*", {0: ("giza", "b"), 1: ("rhodes", None)}),
    ("7-wonders", 7, "*,*,*,*,*,*,olympia:a", {6: ("olympia", "a")}),
    ("architects", 4, "*,babylon", {1: ("babylon", None)}),
    ("architects-medals", 3, "ur,rome", {0: ("ur", None), 1: ("rome", None)}),
])
def test_assigned_seats_get_their_wonders_in_every_seed_and_the_rest_never_repeat(pack, players, spec, want):
    game = load_game(pack, players=players, wonders=spec)
    others, deals = set(), set()
    for seed in range(60):
        dealt = _dealt(game.new_state(seed))
        wonders = [w for w, _ in dealt]
        assert len(set(wonders)) == players                    # never repeated
        for seat, (wonder, side) in want.items():
            assert dealt[seat][0] == wonder
            if side:
                assert dealt[seat][1] == side
        rest = tuple(w for s, w in enumerate(wonders) if s not in want)
        others |= set(rest)
        deals.add(rest)
        assert not others & {w for w, _ in want.values()}
    assert len(deals) > 3                                      # the rest are dealt at random
    assert len(others) == min(len(game.catalogue.wonders()) - len(want), 60 * (players - len(want)))


def test_dice_boards_can_be_assigned():
    game = load_game("dice", players=3, wonders="*,rhodes")
    seen = set()
    for seed in range(40):
        boards = _boards(game.new_state(seed))
        assert boards[1] == "rhodes" and len(set(boards)) == 3
        seen |= {boards[0], boards[2]}
    assert len(seen) > 2 and "rhodes" not in seen


def test_without_an_assignment_the_deal_is_unchanged():
    plain, starred = load_game("7-wonders", players=4), load_game("7-wonders", players=4, wonders="*,*")
    assert starred.assigned == () and "wonders" not in plain.describe()
    for seed in range(10):
        assert _dealt(plain.new_state(seed)) == _dealt(starred.new_state(seed))


def test_same_seed_and_assignment_give_the_same_game():
    a = load_game("7-wonders", players=5, wonders="babylon:a")
    b = load_game("7-wonders", players=5, wonders=["babylon:a"])
    assert a.describe() == b.describe() and a.describe()["wonders"] == ["babylon:a"]
    assert all(_dealt(a.new_state(s)) == _dealt(b.new_state(s)) for s in range(10))


def _simulate(capsys, *argv) -> tuple[int, dict]:
    status = main(["simulate", *argv, "--quiet", "--format", "json"])
    out = capsys.readouterr().out
    return status, json.loads(out) if status == 0 else {}


def test_a_given_wonder_is_in_every_game_of_a_simulation_on_any_number_of_workers(capsys):
    argv = ["7-wonders", "--players", "3", "--games", "200", "--wonders", "*,ephesus:b", "--seed", "5"]
    status, one = _simulate(capsys, *argv, "--workers", "1")
    assert status == 0
    assert one["wonders"]["ephesus"]["games"] == 200 and one["sides"]["ephesus:b"]["games"] == 200
    assert one["wonders_assigned"] == ["*", "ephesus:b"]
    assert sum(t["games"] for t in one["wonders"].values()) == 600
    status, two = _simulate(capsys, *argv, "--workers", "2")
    assert status == 0
    one.pop("run"), two.pop("run")
    assert one == two


def test_the_text_summary_names_the_assignment(capsys):
    assert main(["simulate", "dice", "--players", "3", "--games", "5", "--wonders", "giza", "--quiet",
                 "--workers", "1"]) == 0
    assert "wonders assigned giza" in capsys.readouterr().out.splitlines()[0]


@pytest.mark.parametrize("command", ["simulate", "play", "bench"])
@pytest.mark.parametrize("pack, spec, words, hint", [
    ("7-wonders", "gizza", "unknown wonder 'gizza' for seat 0", "did you mean 'giza'?"),
    ("7-wonders", "giza,rhodes,giza", "wonder giza is assigned twice (seats 0 and 2)", "give it to one seat"),
    ("7-wonders", "giza,*,*,*", "4 wonders assigned for 3 players", "one entry per seat"),
    ("7-wonders", "giza:c", "unknown side 'c' of wonder giza for seat 0", "giza's sides: a, b"),
    ("7-wonders", "*,,giza", "seat 1 is assigned no wonder", "write * for a seat dealt at random"),
    ("architects", "giza:a", "unknown side 'a' of wonder giza for seat 0", "giza has no sides"),
    ("architects", "rome", "unknown wonder 'rome' for seat 0", "the wonders: alexandria"),
    ("dice", "rhodos", "unknown city board 'rhodos' for seat 0", "did you mean 'rhodes'?"),
    ("dice", "rhodes:b", "unknown side 'b' of city board rhodes for seat 0", "rhodes has no sides"),
])
def test_a_bad_assignment_is_one_line_with_a_hint_and_exit_2(capsys, command, pack, spec, words, hint):
    extra = {"simulate": ["--games", "1", "--quiet"], "play": [], "bench": ["--games", "1"]}[command]
    assert main([command, pack, "--players", "3", "--wonders", spec, *extra]) == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 2 and words in lines[0] and lines[1].startswith("  hint: ") and hint in lines[1]
    assert lines[0].endswith(f" in {pack}") and "Traceback" not in err


def test_simulate_against_names_the_pack_that_refuses_the_assignment(capsys):
    assert main(["simulate", "7-wonders", "--against", "architects", "--wonders", "giza:b", "--games", "1"]) == 2
    assert "unknown side 'b' of wonder giza for seat 0 in architects" in capsys.readouterr().err


def test_load_game_raises_a_choice_error():
    with pytest.raises(ChoiceError) as err:
        load_game("7-wonders", players=3, wonders="giza,giza")
    assert err.value.hint


@pytest.mark.parametrize("pack, spec", [("7-wonders", "halicarnassus:b,*,alexandria"), ("dice", "*,*,babylon")])
def test_a_played_log_with_an_assignment_replays(monkeypatch, capsys, tmp_path, pack, spec):
    path = tmp_path / "game.jsonl"
    monkeypatch.setattr("builtins.input", lambda prompt="": "1")
    assert main(["play", pack, "--players", "3", "--seed", "4", "--bots", "random", "--wonders", spec,
                 "--log", str(path)]) == 0
    capsys.readouterr()
    head = json.loads(path.read_text().splitlines()[0])
    assert head["wonders"] == spec.split(",")
    log = gamelog.read(path)
    assert log.wonders == tuple(spec.split(","))
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "ok: the replay reproduces the recorded result" in out and f"wonders assigned {spec}" in out
    # the header's assignment is what the game was dealt with: without it, the deal differs
    state = gamelog.replay(log)
    first = spec.split(",")[0]
    seat = 0 if first != "*" else 2
    wonder = (first if first != "*" else spec.split(",")[2]).split(":")[0]
    got = _dealt(state)[seat][0] if pack != "dice" else _boards(state)[seat]
    assert got == wonder


def test_a_log_with_a_bad_assignment_is_refused_at_its_header(tmp_path, capsys):
    path = tmp_path / "game.jsonl"
    game = load_game("7-wonders", players=3, wonders="giza")
    lines = gamelog.lines_of(game.new_state(), "7-wonders")
    lines[0]["wonders"] = ["giza", "giza"]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert main(["replay", str(path)]) != 0
    err = capsys.readouterr().err
    assert "assigned twice" in err and "Traceback" not in err

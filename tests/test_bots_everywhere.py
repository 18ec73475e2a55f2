"""Everywhere a bot is named (issue 15, Deliver 5): `simulate` (on any number of workers), `bench`,
`play` and its log accept every kind of bot name: a pack's bot, a search bot with a budget, a bot
file; a bot file travels to Ray's workers like the pack (tests/test_simulate_ray.py)."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from wonderforge.interpreter import load_game
from wonderforge.interpreter.bots.registry import adopt_bot_files, bot_files, bot_for
from wonderforge.tools.cli.commands import main

RUSHER = """\
bots:
  - id: rusher
    rules:
      - do: build red card
      - do: build card
        best: points
      - do: discard card
  - id: hoarder
    rules:
      - do: discard card
"""


@pytest.fixture()
def rusher(tmp_path) -> Path:
    path = tmp_path / "mine.yaml"
    path.write_text(RUSHER)
    return path


def _json(argv: list[str]) -> dict:
    printed = io.StringIO()
    with redirect_stdout(printed):
        assert main([*argv, "--format", "json"]) == 0
    return json.loads(printed.getvalue())


def test_simulate_plays_every_kind_of_bot_alike_on_one_and_two_workers(rusher, tmp_path):
    bots = f"rules,ismcts:3,{rusher}:rusher,greedy"
    runs = []
    for workers in ("1", "2"):
        out = tmp_path / f"games-{workers}.jsonl"
        summary = _json(["simulate", "7-wonders", "--players", "4", "--games", "4", "--seed", "3", "--bots", bots,
                         "--workers", workers, "--quiet", "--out", str(out)])
        summary.pop("run")
        runs.append((summary, out.read_text()))
    assert runs[0] == runs[1]
    summary, lines = runs[0]
    assert [s["bot"] for s in summary["seats"]] == bots.split(",")
    first = json.loads(lines.splitlines()[0])
    assert [s["bot"] for s in first["seats"]] == bots.split(",")


def test_bench_measures_the_bots_it_is_given(rusher):
    result = _json(["bench", "7-wonders", "--players", "3", "--games", "2", "--bots", f"{rusher}:rusher,rules"])
    assert result["results"][0]["bots"] == [f"{rusher}:rusher", "rules", f"{rusher}:rusher"]
    assert result["results"][0]["games"] == 2


def test_bench_refuses_an_unknown_bot(capsys):
    assert main(["bench", "7-wonders", "--players", "3", "--games", "2", "--bots", "clever"]) == 2
    assert "unknown bot 'clever'" in capsys.readouterr().err


@pytest.mark.parametrize("command", [["simulate", "7-wonders", "--games", "2"],
                                     ["bench", "7-wonders", "--players", "3", "--games", "2"],
                                     ["play", "7-wonders", "--players", "3"]])
def test_a_broken_bot_file_is_refused_with_its_errors_at_their_lines(tmp_path, capsys, command):
    broken = tmp_path / "broken.yaml"
    broken.write_text("bots:\n  - id: a\n    rules:\n      - do: biuld\n")
    assert main([*command, "--bots", str(broken)]) == 1
    err = capsys.readouterr().err
    assert "broken.yaml:4:" in err and "E-BOT-VERB" in err and "\\x0a" not in err


def test_a_played_log_names_its_bots_and_replays(rusher, tmp_path, monkeypatch, capsys):
    log = tmp_path / "game.jsonl"
    answers = iter(["1"] * 400)
    monkeypatch.setattr("builtins.input", lambda *_: next(answers))
    assert main(["play", "7-wonders", "--players", "3", "--seed", "4", "--bots", f"ismcts:2,{rusher}",
                 "--log", str(log)]) == 0
    header = json.loads(log.read_text().splitlines()[0])
    assert header["bots"] == [None, "ismcts:2", str(rusher)]
    capsys.readouterr()
    assert main(["replay", str(log)]) == 0


def test_bot_files_travel_as_their_bytes(rusher):
    """What a Ray worker on another machine does: the file's bytes, adopted under the name the
    driver used, give the same bot as the file itself."""
    name = f"{rusher}:hoarder"
    here = bot_for(load_game("7-wonders", players=3), name).choose.spec
    shipped = bot_files(["rules", name, "ismcts:4"])
    assert list(shipped) == [str(rusher)]
    rusher.unlink()  # the worker's machine has no such file
    elsewhere = load_game("7-wonders", players=3)
    adopt_bot_files(elsewhere, [name], shipped)
    there = bot_for(elsewhere, name).choose.spec
    assert (there.id, len(there.rules)) == (here.id, len(here.rules)) == ("hoarder", 1)

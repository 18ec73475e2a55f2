"""Hostile logs: `wonderforge replay` reads a log with the limits of a pack's files. Each bad log
(a pipe, a device, a file past a limit, binary garbage, a bad field of any line) gives one E-LOG
diagnostic at its line, quickly, with a bounded output and no traceback; a log whose pack
differs only in version, or a pack given by hand, is replayed with a warning. And `play --log`
refuses a file it could not write before the game starts.

One table of (what, log, expected code, line, exit status): `log` builds the log in a folder and
returns the command's arguments after `replay`. Replays run from another folder, so a relative
path in a log is read from the log's folder, never from the working one.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import time
from pathlib import Path

import pytest
from trust import count

from wonderforge.dsl.limits import MAX_LOG_BYTES, MAX_LOG_DEPTH, MAX_LOG_LINE_CHARS, MAX_NUMBER_CHARS
from wonderforge.interpreter.packs.folders import CONTENT
from wonderforge.tools.cli.commands import main

GOLDEN = Path(__file__).parent / "golden"
GAME = (GOLDEN / "7-wonders-3p-seed1.jsonl").read_text(encoding="utf-8").splitlines()
MEDALS = (GOLDEN / "architects-medals-4p-seed6.jsonl").read_text(encoding="utf-8").splitlines()
HEAD = json.loads(GAME[0])
BOUND = 3000  # characters of output: a replay's report, or a diagnostic quoting a bounded part of its line
SECONDS = 5   # a bad log is refused at once (a replay of a whole game takes a fraction of this)


def header(lines: list[str] = GAME, **edit) -> str:
    """The header of `lines` with fields changed (a value None removes one)."""
    head = {**json.loads(lines[0]), **edit}
    return json.dumps({k: v for k, v in head.items() if v is not None}, separators=(",", ":"))


def game(head: str | None = None, lines: list[str] = GAME, at: int | None = None, line: str | None = None,
         insert: bool = False) -> str:
    """The text of a log: `lines` with another header, or line `at` (from 1) replaced by `line`
    (or `line` put before it)."""
    out = [head or lines[0], *lines[1:]]
    if at is not None:
        out[at - 1:at - 1 if insert else at] = [line]
    return "\n".join(out) + "\n"


def write(folder: Path, text: str | bytes, name: str = "game.jsonl") -> list[str]:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return [str(path)]


def fifo(folder: Path) -> list[str]:
    os.mkfifo(folder / "pipe.jsonl")
    return [str(folder / "pipe.jsonl")]


def pack_copy(folder: Path, name: str, pack_id: str = "7-wonders", version: str = "1.0.0") -> Path:
    """A copy of the shipped 7-wonders pack, its id and version changed."""
    target = folder / name
    shutil.copytree(CONTENT / "7-wonders", target)
    meta = target / "pack.yaml"
    text = meta.read_text(encoding="utf-8").replace("id: 7-wonders", f"id: {pack_id}")
    meta.write_text(text.replace("version: 1.0.0", f"version: {version}"), encoding="utf-8")
    return target


def beside(folder: Path) -> list[str]:
    """A log naming a pack folder by a path relative to the log's folder."""
    pack_copy(folder / "mods", "mine")
    return write(folder / "logs", game(header(pack="../mods/mine")))


def by_hand(pack_id: str):
    """A log naming a pack that is nowhere, replayed with `--pack` on a copy of the right one."""
    def make(folder: Path) -> list[str]:
        return [*write(folder, game(header(pack="./gone"))), "--pack", str(pack_copy(folder, "given", pack_id))]
    return make


def nested(levels: int) -> str:
    """A header whose options hold lists nested `levels` deep (the line nests 2 more)."""
    return header().replace('"options":{', '"options":{"x":' + "[" * levels + "]" * levels + ",")


ACTION = '{"type":"action","step":0,"player":0,"action":%s}'
RESULT = json.loads(GAME[-1])

CASES = [
    # -- the file itself --
    ("a pipe", fifo, "E-LOG-FILE", 0, 1),
    ("a device that never ends", lambda f: ["/dev/zero"], "E-LOG-FILE", 0, 1),
    ("a folder", lambda f: [str(f)], "E-LOG-FILE", 0, 1),
    ("no file", lambda f: [str(f / "missing.jsonl")], "E-LOG-READ", 0, 1),
    ("an empty file", lambda f: write(f, ""), "E-LOG-EMPTY", 0, 1),
    ("a file just over the size cap", lambda f: write(f, game() + " " * (MAX_LOG_BYTES - len(game()) + 1)),
     "E-LOG-LIMIT", 0, 1),
    ("one line just over the size cap (a 100 MB line, in short)", lambda f: write(f, "x" * (MAX_LOG_BYTES + 1)),
     "E-LOG-LIMIT", 0, 1),
    ("a line over the line cap", lambda f: write(f, game(at=2, line="x" * (MAX_LOG_LINE_CHARS + 1))),
     "E-LOG-LIMIT", 2, 1),
    ("binary garbage", lambda f: write(f, bytes(range(256)) * 64), "E-LOG-ENCODING", 2, 1),
    ("invalid UTF-8 in the header", lambda f: write(f, game().encode().replace(b"seed", b"se\xffed", 1)),
     "E-LOG-ENCODING", 1, 1),
    ("invalid UTF-8 further on", lambda f: write(f, game().encode().replace(b"verb", b"ve\xc3rb", 3)),
     "E-LOG-ENCODING", 2, 1),
    ("a UTF-8 BOM, as packs accept", lambda f: write(f, b"\xef\xbb\xbf" + game().encode()), None, 0, 0),
    ("Windows line ends", lambda f: write(f, game().replace("\n", "\r\n")), None, 0, 0),
    # -- JSON past the limits --
    ("nesting 100,000 deep", lambda f: write(f, game(nested(100_000))), "E-LOG-LIMIT", 1, 1),
    ("nesting past the cap within a line", lambda f: write(f, game(nested(MAX_LOG_LINE_CHARS // 3))),
     "E-LOG-LIMIT", 1, 1),
    (f"nesting {MAX_LOG_DEPTH + 1} deep", lambda f: write(f, game(nested(MAX_LOG_DEPTH - 1))), "E-LOG-LIMIT", 1, 1),
    ("a 10,000-digit seed", lambda f: write(f, game(header().replace('"seed":1', '"seed":' + "9" * 10_000))),
     "E-LOG-LIMIT", 1, 1),
    ("a seed past Python's int parsing", lambda f: write(f, game(header().replace('"seed":1', '"seed":' + "9" * 4400))),
     "E-LOG-LIMIT", 1, 1),
    ("a seed just past the number cap",
     lambda f: write(f, game(header().replace('"seed":1', '"seed":' + "9" * (MAX_NUMBER_CHARS + 1)))),
     "E-LOG-LIMIT", 1, 1),
    ("a number too large for a float", lambda f: write(f, game(header(options={"side": "random", "x": 0})
                                                                .replace('"x":0', '"x":1e999'))), "E-LOG-LIMIT", 1, 1),
    ("NaN", lambda f: write(f, game(header().replace('"seed":1', '"seed":NaN'))), "E-LOG-LINE", 1, 1),
    ("not JSON", lambda f: write(f, game(at=3, line="{'type': 'action'}")), "E-LOG-LINE", 3, 1),
    ("a line that is a list", lambda f: write(f, game(at=2, line="[1, 2]")), "E-LOG-LINE", 2, 1),
    ("a line of an unknown type", lambda f: write(f, game(at=2, line='{"type": "move"}')), "E-LOG-LINE", 2, 1),
    # -- header fields --
    ("players 3.0", lambda f: write(f, game(header(players=3.0))), "E-LOG-LINE", 1, 1),
    ("players true", lambda f: write(f, game(header(players=True))), "E-LOG-LINE", 1, 1),
    ("players as text", lambda f: write(f, game(header(players="3"))), "E-LOG-LINE", 1, 1),
    ("players past the pack's", lambda f: write(f, game(header(players=99))), "E-LOG-GAME", 1, 1),
    ("a seed as text", lambda f: write(f, game(header(seed="1"))), "E-LOG-LINE", 1, 1),
    ("no seed", lambda f: write(f, game(header(seed=None))), "E-LOG-LINE", 1, 1),
    ("an option named players", lambda f: write(f, game(header(options={"players": 4}))), "E-LOG-LINE", 1, 1),
    ("an option named seed", lambda f: write(f, game(header(options={"seed": 4}))), "E-LOG-LINE", 1, 1),
    ("an unknown option", lambda f: write(f, game(header(options={"colour": "red"}))), "E-LOG-GAME", 1, 1),
    ("an option that is an object", lambda f: write(f, game(header(options={"side": {"a": 1}}))), "E-LOG-LINE", 1, 1),
    ("an option of the wrong type", lambda f: write(f, game(header(MEDALS, options={"medals": "no"}), MEDALS)),
     "E-LOG-GAME", 1, 1),
    ("options that are a list", lambda f: write(f, game(header(options=["side"]))), "E-LOG-LINE", 1, 1),
    ("no packs listed", lambda f: write(f, game(header(packs=[]))), "E-LOG-LINE", 1, 1),
    ("a pack path with a NUL", lambda f: write(f, game(header(pack="a\u0000b"))), "E-LOG-LINE", 1, 1),
    ("a pack that is nowhere", lambda f: write(f, game(header(pack="./nowhere"))), "E-LOG-GAME", 1, 1),
    ("a pack of another id", lambda f: write(f, game(header(packs=[{"id": "architects", "version": "1.0.0"}]))),
     "E-LOG-PACK", 1, 1),
    ("a pack of another version (a warning)", lambda f: write(f, game(header(packs=[{"id": "7-wonders",
                                                                                      "version": "0.9.0"}]))),
     "W-LOG-VERSION", 1, 0),
    ("a relative pack path, from the log's folder", beside, None, 0, 0),
    ("--pack instead of the pack the log names", by_hand("7-wonders"), None, 0, 0),
    ("--pack of another id (a warning)", by_hand("mine"), "W-LOG-PACK", 1, 0),
    ("a second header", lambda f: write(f, game(at=3, line=GAME[0], insert=True)), "E-LOG-LINE", 3, 1),
    ("no header", lambda f: write(f, "\n".join(GAME[1:])), "E-LOG-LINE", 1, 1),
    # -- action and result lines --
    ("an action that is a number", lambda f: write(f, game(at=2, line=ACTION % "5")), "E-LOG-LINE", 2, 1),
    ("an action that is a list", lambda f: write(f, game(at=2, line=ACTION % '["build"]')), "E-LOG-LINE", 2, 1),
    ("an action that is text", lambda f: write(f, game(at=2, line=ACTION % '"build altar"')), "E-LOG-LINE", 2, 1),
    ("an action without a verb", lambda f: write(f, game(at=2, line=ACTION % '{"card": "altar"}')),
     "E-LOG-LINE", 2, 1),
    ("an action paying text", lambda f: write(f, game(at=2, line=ACTION % '{"verb": "build", "pay": {"left": "2"}}')),
     "E-LOG-LINE", 2, 1),
    ("an action of an unknown field", lambda f: write(f, game(at=2, line=ACTION % '{"verb": "build", "why": 1}')),
     "E-LOG-LINE", 2, 1),
    ("a player that is no seat", lambda f: write(f, game(at=2, line=ACTION.replace('"player":0', '"player":-1')
                                                          % '{"verb": "pass"}')), "E-LOG-LINE", 2, 1),
    ("a step out of order", lambda f: write(f, game(at=2, line=GAME[2])), "E-LOG-LINE", 2, 1),
    ("an action not legal there", lambda f: write(f, game(at=2, line=ACTION % '{"verb": "build", "card": "palace"}')),
     "E-LOG-ILLEGAL", 2, 1),
    ("a line after the result", lambda f: write(f, game() + GAME[-1] + "\n"), "E-LOG-LINE", len(GAME) + 1, 1),
    ("a result of text scores", lambda f: write(f, game(at=len(GAME), line=json.dumps({**RESULT, "scores": "a"}))),
     "E-LOG-LINE", len(GAME), 1),
]


@pytest.fixture
def elsewhere(tmp_path, monkeypatch) -> Path:
    """The folder the logs are made in; the command runs from another."""
    (tmp_path / "cwd").mkdir()
    monkeypatch.chdir(tmp_path / "cwd")
    (tmp_path / "logs").mkdir()
    return tmp_path / "logs"


def _alarm(signum, frame):
    raise TimeoutError("the command blocked")


def run(argv: list[str], capsys) -> tuple[int, str, str, float]:
    """`wonderforge` with `argv`: exit status, stdout, stderr and seconds taken; a command that
    blocks fails the test instead of hanging the suite."""
    before = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(4 * SECONDS)
    start = time.monotonic()
    try:
        status = main(argv)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, before)
    captured = capsys.readouterr()
    return status, captured.out, captured.err, time.monotonic() - start


@pytest.mark.parametrize("what, make, code, line, status", CASES, ids=[c[0] for c in CASES])
def test_a_hostile_log_is_one_diagnostic_at_its_line(what, make, code, line, status, elsewhere, capsys):
    args = make(elsewhere)
    got, out, err, seconds = run(["replay", *args], capsys)
    assert got == status, err
    assert seconds < SECONDS
    assert "E-INTERNAL" not in out + err and "Traceback" not in out + err
    assert len(out) + len(err) < BOUND
    if code is None:
        assert err == "" and "ok: the replay reproduces the recorded result" in out
    else:
        where = f"{args[0]}:{line}:" if line else f"{args[0]}: "
        assert f"{where}" in err and f"[{code}]" in err, err
        assert "hint: " in err
    count("faults")


@pytest.mark.parametrize("what, make, code, line, status", [c for c in CASES if c[2]], ids=[c[0] for c in CASES if c[2]])
def test_a_hostile_log_as_data(what, make, code, line, status, elsewhere, capsys):
    got, out, err, _ = run(["replay", *make(elsewhere), "--format", "json"], capsys)
    data = json.loads(out)
    diagnostics = data["diagnostics"] if status else data["warnings"]
    assert got == status and [(d["code"], d["line"]) for d in diagnostics] == [(code, line)]
    assert all(len(d["source"] or "") <= 210 and len(d["message"]) < 400 for d in diagnostics)


def test_a_log_and_its_pack_move_together(tmp_path, monkeypatch, capsys):
    """`play` names a pack folder relative to the log's folder, so the two can be moved."""
    pack_copy(tmp_path / "here", "mine")
    (tmp_path / "here/logs").mkdir()
    monkeypatch.chdir(tmp_path / "here")
    monkeypatch.setattr("builtins.input", lambda prompt="": "q")
    assert main(["play", "mine", "--players", "3", "--seed", "4", "--log", "logs/game.jsonl"]) == 0
    assert json.loads((tmp_path / "here/logs/game.jsonl").read_text().splitlines()[0])["pack"] == "../mine"
    shutil.move(tmp_path / "here", tmp_path / "there")
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    assert main(["replay", "there/logs/game.jsonl"]) == 1     # the game was left: no result to match
    out = capsys.readouterr().out
    assert "../mine, 3 players, seed 4" in out and "the log records no result" in out


def test_play_names_a_shipped_pack_by_its_id(tmp_path, monkeypatch):
    monkeypatch.setattr("builtins.input", lambda prompt="": "q")
    assert main(["play", "dice", "--players", "2", "--seed", "4", "--log", str(tmp_path / "game.jsonl")]) == 0
    assert json.loads((tmp_path / "game.jsonl").read_text().splitlines()[0])["pack"] == "dice"


def never(prompt=""):
    raise AssertionError("the game started")


@pytest.mark.parametrize("what, target, words", [
    ("a folder", lambda f: f, "it is a folder"),
    ("a file in no folder", lambda f: f / "missing" / "game.jsonl", "No such file or directory"),
    ("a file under a file", lambda f: f / "game.jsonl" / "game.jsonl", "Not a directory"),
])
def test_play_refuses_a_log_it_cannot_write_before_the_game(what, target, words, tmp_path, monkeypatch, capsys):
    (tmp_path / "game.jsonl").write_text("")
    monkeypatch.setattr("builtins.input", never)
    path = target(tmp_path)
    assert main(["play", "7-wonders", "--players", "3", "--log", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == f"wonderforge play: error: cannot write {path}: {words}\n"
    count("faults")


def test_the_language_page_lists_the_log_limits():
    """docs/language.md ("Limits on logs") says what dsl/limits.py sets."""
    page = (Path(__file__).parent.parent / "docs" / "language.md").read_text(encoding="utf-8")
    section = page[page.index("## Limits on logs"):]
    for row in (f"| size of a log | {MAX_LOG_BYTES >> 20} MiB ({MAX_LOG_BYTES:,} bytes)",
                f"| characters of one line | {MAX_LOG_LINE_CHARS:,} |",
                f"| objects and lists nested in one line | {MAX_LOG_DEPTH} |",
                f"| characters of a number | {MAX_NUMBER_CHARS} |"):
        assert row in section

"""Every file WonderForge writes goes through one guard (tools/outfile.py, issue 24): `play --log`,
`simulate --out` and `--report`, and `new --out` (`cards` and `diff` only print) never write into a
pack, through a link or not, and write whole files; a path is a device only when `stat` says so.

Each case counts as one "faults" row of the trust report.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import socket
import stat
import threading
from pathlib import Path

import pytest
from trust import count

from wonderforge.interpreter.packs.folders import CONTENT
from wonderforge.tools.cli.commands import main

SHM = Path("/dev/shm")
on_shm = pytest.mark.skipif(not SHM.is_dir() or SHM.is_symlink(), reason="no /dev/shm folder here")

# Each writer: its command line with {pack} (a pack copy being read) and the target last.
WRITERS = {
    "play --log": ["play", "{pack}", "--players", "2", "--seed", "3", "--bots", "random", "--log"],
    "simulate --out": ["simulate", "{pack}", "--games", "3", "--workers", "1", "--quiet", "--out"],
    "simulate --report": ["simulate", "{pack}", "--games", "3", "--workers", "1", "--quiet", "--report"],
    "new --out": ["new", "my-mod", "--extends", "dice", "--out"],
}

# Each bad target, made in a folder holding `mine` (the pack read) and `other` (a pack not read):
# the target and the words of the refusal.
BAD_TARGETS = {
    "a file of the pack read": (lambda d: d / "mine" / "buildings.yaml", "is inside the pack folder {d}/mine"),
    "a new file in the pack read": (lambda d: d / "mine" / "game.jsonl", "is inside the pack folder {d}/mine"),
    "a file of a pack not read": (lambda d: d / "other" / "dice.yaml", "is inside the pack folder {d}/other"),
    "a file of a shipped pack": (lambda d: CONTENT / "dice" / "buildings.yaml",
                                 f"is inside the pack folder {CONTENT.resolve()}/dice"),
    "a new file beside the shipped packs": (lambda d: CONTENT / "game.jsonl",
                                            f"is inside the folder of the shipped packs {CONTENT.resolve()}"),
    "a link to a pack file": (lambda d: _link(d / "game.jsonl", d / "other" / "rules.yaml"),
                              "leads through a link into the pack folder {d}/other"),
    "a link to a shipped pack's file": (lambda d: _link(d / "game.jsonl", CONTENT / "dice" / "dice.yaml"),
                                        f"leads through a link into the pack folder {CONTENT.resolve()}/dice"),
    "a file under a link to a pack": (lambda d: _link(d / "into", d / "other") / "game.jsonl",
                                      "leads through a link into the pack folder {d}/other"),
    "a link to a new file in a pack": (lambda d: _link(d / "game.jsonl", d / "mine" / "new.jsonl"),
                                       "leads through a link into the pack folder {d}/mine"),
}


def _link(link: Path, to: Path) -> Path:
    link.symlink_to(to)
    return link


@pytest.fixture
def packs(tmp_path, monkeypatch) -> Path:
    """A folder holding two copies of the dice pack, `mine` and `other`; input ends the game at once."""
    for name in ("mine", "other"):
        shutil.copytree(CONTENT / "dice", tmp_path / name)
    monkeypatch.setattr("builtins.input", lambda prompt="": "q")
    return tmp_path


@pytest.fixture
def shipped_kept():
    """The shipped packs' files, put back as they were after the test (a guard that fails must not
    break the checkout); the test fails if anything changed."""
    before = {p: p.read_bytes() if p.is_file() else None for p in CONTENT.rglob("*")}
    yield
    added = [p for p in CONTENT.rglob("*") if p not in before]
    for path in sorted(added, reverse=True):
        shutil.rmtree(path) if path.is_dir() and not path.is_symlink() else path.unlink()
    changed = [p for p, data in before.items() if data is not None and p.read_bytes() != data]
    for path in changed:
        path.write_bytes(before[path])
    assert not added and not changed, "the shipped packs were written"


def fingerprint(*folders: Path) -> dict[str, str]:
    """Every file under these folders (links not followed) and a hash of what it holds."""
    return {str(p): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() and not p.is_symlink() else "-"
            for folder in folders for p in sorted(folder.rglob("*"))}


def argv_of(writer: str, pack: Path, target: Path | str) -> list[str]:
    return [str(pack) if a == "{pack}" else a for a in WRITERS[writer]] + [str(target)]


@pytest.mark.parametrize("bad", BAD_TARGETS)
@pytest.mark.parametrize("writer", WRITERS)
def test_no_writer_writes_into_a_pack(writer, bad, packs, shipped_kept, capsys):
    make, words = BAD_TARGETS[bad]
    target = make(packs)
    before = fingerprint(packs)
    assert main(argv_of(writer, packs / "mine", target)) == 2
    out, err = capsys.readouterr()
    message, hint = err.splitlines()
    assert message == f"wonderforge {writer.split()[0]}: error: cannot write {target}: it " \
                      + words.format(d=packs.resolve())
    assert hint == "  hint: give a path outside the packs' folders: WonderForge reads packs and never writes in them"
    assert fingerprint(packs) == before, "nothing written, nothing left beside"
    assert out == "", "refused before the game"
    count("faults")


FILE_WRITERS = [w for w in WRITERS if w != "new --out"]


@pytest.mark.parametrize("writer", FILE_WRITERS)
def test_no_writer_writes_over_a_bot_file_it_reads(writer, packs, capsys):
    bots = shutil.copy(CONTENT / "dice" / "bots.yaml", packs / "bots.yaml")
    before = fingerprint(packs)
    argv = argv_of(writer, packs / "mine", bots)
    argv[-2:-2] = ["--bots", f"{bots}:rules"]  # the last --bots is the one taken
    assert main(argv) == 2
    message, hint = capsys.readouterr().err.splitlines()
    assert message.endswith(f"cannot write {bots}: it is {bots}, which this command reads")
    assert hint == "  hint: give another path: WonderForge never writes over a file it reads"
    assert fingerprint(packs) == before
    count("faults")


# ---- devices only when they are: /dev/shm is a folder of files, /dev/null and a pipe are written ----

def check_whole(writer: str, text: str, replayed: Path | None = None) -> None:
    """What a writer wrote is whole and valid: a log that replays, JSON lines of 3 games, a page."""
    if writer == "simulate --report":
        assert text.startswith("<!doctype html>") and text.rstrip().endswith("</html>")
        return
    lines = [json.loads(line) for line in text.splitlines()]
    assert text.endswith("\n")
    if writer == "simulate --out":
        assert [line["seed"] for line in lines] == [0, 1, 2]
    else:
        assert lines[0]["seed"] == 3 and lines[-1]["type"] == "result"
        if replayed is not None:
            assert main(["replay", str(replayed)]) == 0, "the log replays"


@on_shm
@pytest.mark.parametrize("existing", [True, False], ids=["an existing file", "a new file"])
@pytest.mark.parametrize("writer", FILE_WRITERS)
def test_a_file_under_dev_shm_is_written_whole(writer, existing, packs, monkeypatch, capsys):
    monkeypatch.setattr("builtins.input", lambda prompt="": "1")  # the game played to its end
    target = SHM / f"wonderforge-test-{os.getpid()}-{writer.split()[-1].strip('-')}"
    if existing:
        target.write_text("an old line, none of which may be left behind by what replaces it\n" * 30_000)
    try:
        assert main(argv_of(writer, packs / "mine", target)) == 0
        assert "Traceback" not in capsys.readouterr().err
        check_whole(writer, target.read_text(encoding="utf-8"), target)
        assert not list(SHM.glob(f".{target.name}.*")), "no temporary file left"
    finally:
        target.unlink(missing_ok=True)
    count("faults")


@on_shm
def test_new_writes_a_pack_under_dev_shm(tmp_path, capsys):
    target = SHM / f"wonderforge-test-{os.getpid()}-mod"
    try:
        assert main(["new", "my-mod", "--extends", "dice", "--out", str(target)]) == 0
        assert (target / "pack.yaml").is_file() and "checked: no problems found" in capsys.readouterr().out
    finally:
        shutil.rmtree(target, ignore_errors=True)
    count("faults")


@pytest.mark.parametrize("writer", FILE_WRITERS)
def test_dev_null_is_written_straight_through(writer, packs, capsys):
    assert main(argv_of(writer, packs / "mine", "/dev/null")) == 0
    assert Path("/dev/null").is_char_device() and "Traceback" not in capsys.readouterr().err
    count("faults")


@pytest.mark.parametrize("writer", FILE_WRITERS)
def test_a_pipe_read_by_another_program_is_written_straight_through(writer, packs, monkeypatch, capsys):
    monkeypatch.setattr("builtins.input", lambda prompt="": "1")
    fifo = packs / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)   # a reader is there before the writer opens
    ours = os.open(fifo, os.O_WRONLY)                      # no end of file before the command is done
    os.set_blocking(reader, True)
    chunks: list[bytes] = []
    drain = threading.Thread(target=lambda: chunks.extend(iter(lambda: os.read(reader, 65536), b"")))
    drain.start()
    try:
        status = main(argv_of(writer, packs / "mine", fifo))
    finally:
        os.close(ours)
        drain.join(30)
        os.close(reader)
    assert status == 0 and stat.S_ISFIFO(fifo.lstat().st_mode)
    check_whole(writer, b"".join(chunks).decode("utf-8"))
    count("faults")


@pytest.mark.parametrize("writer, status", list(zip(FILE_WRITERS, [2, 1, 1])))  # as docs/cli.md's table says
def test_a_special_file_that_is_no_device_is_refused(writer, status, tmp_path, capsys):
    path = tmp_path / "sock"
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(path))
        assert main(argv_of(writer, CONTENT / "dice", path)) == status
    assert capsys.readouterr().err.splitlines()[0].endswith(
        f"cannot write {path}: it is neither a file, a pipe nor a character device")
    count("faults")


def test_a_log_through_a_link_to_a_file_replaces_that_file(packs, monkeypatch):
    real, link = packs / "real.jsonl", _link(packs / "game.jsonl", packs / "real.jsonl")
    real.write_text("old\n" * 10_000)
    monkeypatch.setattr("builtins.input", lambda prompt="": "1")
    assert main(argv_of("play --log", packs / "mine", link)) == 0
    assert link.is_symlink()
    check_whole("play --log", real.read_text(encoding="utf-8"), link)
    count("faults")


def test_a_game_stopped_leaves_the_log_as_it_was(packs, monkeypatch, capsys):
    target = packs / "game.jsonl"
    target.write_text("kept\n")

    def interrupt(prompt=""):
        raise KeyboardInterrupt
    monkeypatch.setattr("builtins.input", interrupt)
    assert main(argv_of("play --log", packs / "mine", target)) == 130
    assert target.read_text() == "kept\n" and not list(packs.glob(".game.jsonl.*")), "no temporary file left"
    count("faults")

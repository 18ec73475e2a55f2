"""`wonderforge check --watch`: a real `wonderforge` process watching a copy of a pack is seen
reporting a file broken, then fixed, a file added and removed, a pack folder appearing, and
stopping at SIGINT (130) and SIGTERM (143); then, in this process, what is watched and how a burst
of saves is waited out (tools/watch.py).
"""

from __future__ import annotations

import io
import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from wonderforge.interpreter.games.check import check_pack
from wonderforge.interpreter.packs.folders import CONTENT
from wonderforge.tools.editor import watch

SEP = re.compile(r"^=== \d\d:\d\d:\d\d — (.+) — (.+) ===$")


class Watcher:
    """A `wonderforge check --watch` process, its standard output read line by line."""

    def __init__(self, *args: str, cwd: Path):
        # started as from a shell at a terminal, Ctrl-C not ignored (whatever this worker inherited)
        self.process = subprocess.Popen([sys.executable, "-m", "wonderforge", "check", "--watch", *args], cwd=cwd,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line)

    def line(self, timeout: float = 60) -> str:
        """The next line it prints (a test fails rather than waiting for ever)."""
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError("wonderforge check --watch printed nothing more") from None

    def document(self) -> dict:
        """The next check, with --format json."""
        return json.loads(self.line())

    def check(self) -> tuple[str, str, list[str]]:
        """The next check as text: what changed, the result, and the report's lines."""
        match = SEP.match(self.line().rstrip("\n"))
        assert match, "a check starts with its separator"
        report = []
        while not (line := self.line()).startswith("watching "):
            report.append(line.rstrip("\n"))
        assert self.line() == "\n"
        return match[1], match[2], report

    def stop(self, signum: int) -> tuple[int, str]:
        self.process.send_signal(signum)
        try:
            status = self.process.wait(timeout=60)
        finally:
            self.process.kill()
        return status, self.process.stderr.read()

    def quiet_for(self, seconds: float) -> bool:
        """Whether it prints nothing for that long."""
        try:
            self.lines.get(timeout=seconds)
            return False
        except queue.Empty:
            return True


@pytest.fixture
def pack(tmp_path) -> Path:
    """A copy of the shipped Architects pack."""
    folder = tmp_path / "work" / "my-architects"
    shutil.copytree(CONTENT / "architects", folder)
    return folder


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_saved_mistake_is_reported_then_its_fix_then_files_added_and_removed_and_ctrl_c_is_130(pack):
    watcher = Watcher("--format", "json", str(pack), cwd=pack.parent)
    try:
        first = watcher.document()
        assert first["errors"] == 0 and first["changed"] == [] and first["packs"][0]["ok"]
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d", first["time"])

        _edit(pack / "cards.yaml", "effect: produce stone", "effect: produce stonee")
        broken = watcher.document()
        assert broken["changed"] == ["my-architects/cards.yaml"] and broken["errors"] == 1
        [error] = broken["diagnostics"]
        assert error["code"] == "E-DSL-RESOURCE" and error["file"].endswith("cards.yaml") and error["line"] == 15
        assert "did you mean 'stone'?" in error["hint"]

        _edit(pack / "cards.yaml", "effect: produce stonee", "effect: produce stone")
        fixed = watcher.document()
        assert fixed["changed"] == ["my-architects/cards.yaml"] and fixed["errors"] == 0

        (pack / "extras.yaml").write_text("[]\n")  # not a kind of file a pack holds
        added = watcher.document()
        assert added["changed"] == ["my-architects/extras.yaml"]
        assert [d["code"] for d in added["diagnostics"]] == ["E-PACK-FILE"]

        (pack / "extras.yaml").unlink()
        removed = watcher.document()
        assert removed["changed"] == ["my-architects/extras.yaml"] and removed["errors"] == 0
        assert watcher.quiet_for(1.5), "nothing changed: no check"
    finally:
        status, err = watcher.stop(signal.SIGINT)
    assert status == 130 and err.strip() == "interrupted"


def test_text_checks_are_separated_by_time_cause_and_result_and_a_pack_folder_may_come_later(pack, tmp_path):
    later = tmp_path / "work" / "later"
    watcher = Watcher(str(later), cwd=tmp_path / "work")
    try:
        cause, result, report = watcher.check()
        assert (cause, result) == ("first check", "1 error, 0 warnings")
        assert "error[E-PACK-MISSING]" in report[0]

        shutil.copytree(pack, later)
        cause, result, report = watcher.check()
        assert result == "no problems found" and report[-1] == "no problems found"
        assert cause.startswith("later")
        assert report[0].startswith("architects 1.0.0: 14 cards")
    finally:
        status, err = watcher.stop(signal.SIGTERM)
    assert status == 143 and err.strip() == "terminated"


# ---- what is watched, in this process

def _pack(folder: Path, text: str) -> None:
    folder.mkdir(parents=True)
    (folder / "pack.yaml").write_text(text)


def test_the_packs_a_pack_extends_and_the_bot_file_are_watched_and_a_base_appearing_beside_it(tmp_path):
    _pack(tmp_path / "base", "id: base\nname: Base\nversion: 1.0.0\nextends: architects\n")
    _pack(tmp_path / "mod", "id: mod\nname: Mod\nversion: 1.0.0\nextends: [base, other]\n")
    (tmp_path / "bots.yaml").write_text("bots: []\n")
    pack, _ = check_pack(tmp_path / "mod")
    watched = watch.watched([str(tmp_path / "mod")], [pack], str(tmp_path / "bots.yaml"))
    assert watched.folders == {tmp_path / "mod", tmp_path / "base", CONTENT / "architects"}
    assert watched.files == {tmp_path / "bots.yaml"}
    seen = watch.stamps(watched)
    assert tmp_path / "base" / "pack.yaml" in seen and CONTENT / "architects" / "cards.yaml" in seen

    (tmp_path / "base" / "cards.yaml").write_text("[]\n")                   # a base's file added
    (tmp_path / "bots.yaml").write_text("bots: [] # a comment\n")             # the bot file saved
    _pack(tmp_path / "other", "id: other\nname: Other\nversion: 1.0.0\n")     # the missing base created
    assert watch.changes(seen, watch.stamps(watched)) == [
        tmp_path / "base" / "cards.yaml", tmp_path / "bots.yaml", tmp_path / "other" / "pack.yaml"]


def test_a_pack_beside_is_only_seen_coming_or_going_and_a_save_of_the_same_size_is_seen(tmp_path):
    _pack(tmp_path / "mod", "id: mod\nname: Mod\nversion: 1.0.0\nextends: architects\n")
    _pack(tmp_path / "unrelated", "id: unrelated\nname: U\nversion: 1.0.0\n")
    watched = watch.watched([str(tmp_path / "mod")], [])
    seen = watch.stamps(watched)
    (tmp_path / "unrelated" / "pack.yaml").write_text("id: unrelated\nname: V\nversion: 2.0.0\n")
    (tmp_path / "mod" / "notes.txt").write_text("not YAML: a pack reads none of it")
    assert watch.changes(seen, watch.stamps(watched)) == []

    pack_yaml = tmp_path / "mod" / "pack.yaml"
    before = pack_yaml.stat()
    pack_yaml.write_text(pack_yaml.read_text().replace("Mod", "Mud"))         # same size, same inode
    os.utime(pack_yaml, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000))
    assert watch.changes(seen, watch.stamps(watched)) == [pack_yaml]
    shutil.rmtree(tmp_path / "unrelated")
    assert watch.changes(seen, watch.stamps(watched)) == [pack_yaml, tmp_path / "unrelated" / "pack.yaml"]


def _scripted(folder: Path, saves: list[list[str]]):
    """A `sleep` that saves, at its n-th call, the files of saves[n] (nothing past the list), and
    counts its calls."""
    calls = []

    def sleep(seconds: float) -> None:
        calls.append(seconds)
        for name in saves[len(calls) - 1] if len(calls) <= len(saves) else []:
            (folder / name).write_text(f"saved at call {len(calls)}\n")
    return sleep, calls


def test_a_burst_of_saves_gives_one_check_once_the_files_are_still(tmp_path):
    (tmp_path / "a.yaml").write_text("a\n")
    watched = watch.Watched(folders=frozenset({tmp_path}))
    seen = watch.stamps(watched)
    # polls 1-2 see nothing; poll 3 a save; then saves at waits 4 and 5; still at 6
    sleep, calls = _scripted(tmp_path, [[], [], ["a.yaml"], ["b.yaml"], ["a.yaml"], []])
    changed = watch.wait_for_change(watched, seen, interval=0.5, quiet=0.3, sleep=sleep)
    assert changed == [tmp_path / "a.yaml", tmp_path / "b.yaml"]
    assert calls == [0.5, 0.5, 0.5, 0.3, 0.3, 0.3]


def test_files_saved_without_end_are_checked_anyway_after_the_longest_wait(tmp_path):
    watched = watch.Watched(folders=frozenset({tmp_path}))
    seen = watch.stamps(watched)
    sleep, calls = _scripted(tmp_path, [[f"{i}.yaml"] for i in range(100)])
    changed = watch.wait_for_change(watched, seen, interval=0.5, quiet=0.5, sleep=sleep)
    waits = int(watch.LONGEST_WAIT / 0.5)
    assert calls == [0.5] * (1 + waits) and len(changed) == 1 + waits


def test_a_file_saved_while_the_check_runs_is_checked_again(tmp_path):
    (tmp_path / "cards.yaml").write_text("- a\n")
    watched = watch.Watched(folders=frozenset({tmp_path}))
    runs = []

    def check() -> watch.Outcome:
        runs.append(len(runs))
        if len(runs) == 1:
            (tmp_path / "cards.yaml").write_text("- b, saved during the first check\n")
        if len(runs) == 2:
            raise KeyboardInterrupt
        return watch.Outcome("no problems found", "", watched)
    with pytest.raises(KeyboardInterrupt):
        watch.run(check, watched, as_json=False, out=io.StringIO(), interval=0.01)
    assert runs == [0, 1]


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("out, cleared", [(io.StringIO(), False), (Terminal(), True)])
def test_the_screen_is_cleared_only_on_a_terminal(out, cleared, tmp_path):
    outcome = watch.Outcome("no problems found", "no problems found\n", watch.Watched())
    watch.show(outcome, [tmp_path / "a.yaml", tmp_path / "b.yaml", tmp_path / "c.yaml", tmp_path / "d.yaml"],
               out, as_json=False, clear=out.isatty(), files=1)
    text = out.getvalue()
    assert text.startswith(watch.CLEAR) == cleared
    first, report, footer, _, _ = text.removeprefix(watch.CLEAR).split("\n")
    assert SEP.match(first)[1] == f"{tmp_path / 'a.yaml'}, {tmp_path / 'b.yaml'}, {tmp_path / 'c.yaml'} and 1 more changed"
    assert report == "no problems found" and footer == "watching 1 file for changes (Ctrl-C stops)"


def test_json_checks_are_one_line_each_with_the_time_and_what_changed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    for changed in ([], [tmp_path / "cards.yaml"]):
        watch.show(watch.Outcome("1 error", {"errors": 1, "text": "caf\u00e9 \x1b"}, watch.Watched()), changed, out, True)
    lines = out.getvalue().split("\n")
    assert lines[-1] == "" and len(lines) == 3
    assert [json.loads(line)["changed"] for line in lines[:2]] == [[], ["cards.yaml"]]
    assert json.loads(lines[1])["text"] == "caf\u00e9 \x1b" and lines[1].isascii()

"""`wonderforge check --watch`: check, then check again each time a file the check read is saved,
until Ctrl-C.

The files are polled (their modification time, size and inode, every `INTERVAL` seconds), which
needs nothing installed and sees what an editor does however it saves: in place, or by writing a
new file and renaming it over the old. A burst of saves (a "save all", a formatter running after
the save) is waited out until the files have been still for `QUIET` seconds, so that it gives one
check, not several. What is watched is what the last check read: the YAML files of each pack
folder and of the packs it extends, a bot file, and which folders beside a pack hold a pack (a base
the pack names may be created there). A folder that does not exist yet is watched for appearing.
"""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Callable, Iterable, NoReturn, TextIO

from ...dsl.diagnostics import safe
from ...interpreter.packs.folders import find_pack, is_shipped

INTERVAL = 0.5  # seconds between two looks at the files
QUIET = 0.3     # seconds the files must stay unchanged after a save before the check runs
LONGEST_WAIT = 5.0  # seconds: a file rewritten without end is checked anyway, at most this late
CLEAR = "\x1b[H\x1b[2J"  # cursor home, clear the screen (what scrolled off stays above)


@dataclass(frozen=True)
class Watched:
    """What a check read: pack folders (their YAML files), single files, and the folders where a
    pack (a folder holding pack.yaml) appearing or going would change what a pack extends."""

    folders: frozenset[Path] = frozenset()
    files: frozenset[Path] = frozenset()
    beside: frozenset[Path] = frozenset()


@dataclass(frozen=True)
class Outcome:
    """One check: its result in a few words, and its report (text, or the data of --format json)."""

    result: str
    report: str | dict
    watched: Watched


Stamps = dict[Path, tuple]


def stamps(watched: Watched) -> Stamps:
    """Each watched file's stamp (None for one missing), by path."""
    out: Stamps = {}
    for folder in watched.folders:
        out[folder] = _stamp(folder, folder=True)
        for path in _entries(folder):
            if path.suffix in (".yaml", ".yml"):
                out[path] = _stamp(path)
    for path in watched.files:
        out[path] = _stamp(path)
    for folder in watched.beside:  # a pack here is only there or not (unless its files are read too)
        for path in _entries(folder):
            if (path / "pack.yaml").is_file():
                out.setdefault(path / "pack.yaml", ("pack",))
    return out


def _entries(folder: Path) -> list[Path]:
    try:
        return list(folder.iterdir())
    except OSError:
        return []


def _stamp(path: Path, folder: bool = False) -> tuple | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return ("folder",) if folder else (st.st_mtime_ns, st.st_size, st.st_ino)


def changes(before: Stamps, after: Stamps) -> list[Path]:
    """The paths whose stamps differ (saved, added, removed), in order."""
    return sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))


def wait_for_change(watched: Watched, seen: Stamps, interval: float = INTERVAL, quiet: float = QUIET,
                    sleep: Callable[[float], None] = time.sleep) -> list[Path]:
    """Block until a watched file changes from `seen`, then until the files have been still for
    `quiet` seconds (at most LONGEST_WAIT); returns what changed."""
    now = stamps(watched)
    while not changes(seen, now):
        sleep(interval)
        now = stamps(watched)
    waited = 0.0
    while waited < LONGEST_WAIT:
        sleep(quiet)
        waited += quiet
        later = stamps(watched)
        if later == now:
            break
        now = later
    return changes(seen, now)


def run(check: Callable[[], Outcome], first: Watched, as_json: bool, out: TextIO | None = None,
        interval: float = INTERVAL) -> NoReturn:
    """Check, show the outcome, wait for a change, and again, until interrupted (KeyboardInterrupt
    goes up to the caller). `first` is what the first check will read, as far as is known before it."""
    out = out or sys.stdout
    clear = not as_json and out.isatty()
    watched, changed = first, []
    while True:
        before = stamps(watched)  # taken before the check: a file saved while it runs is seen after it
        outcome = check()
        seen = {p: before.get(p, s) for p, s in stamps(outcome.watched).items()}
        show(outcome, changed, out, as_json, clear, files=sum(1 for s in seen.values() if s and len(s) == 3))
        watched = outcome.watched
        changed = wait_for_change(watched, seen, interval)


def show(outcome: Outcome, changed: list[Path], out: TextIO, as_json: bool, clear: bool = False,
         files: int = 0) -> None:
    """One check as --watch prints it: a line of JSON, or a separator (the time, what changed, the
    result), the report and how many files are watched, the screen cleared first on a terminal."""
    when = datetime.now().astimezone()
    names = [_shown(p) for p in changed]
    if as_json:
        document = {"time": when.isoformat(timespec="seconds"), "changed": names} | outcome.report
        out.write(json.dumps(document, ensure_ascii=True) + "\n")
    else:
        cause = "first check" if not changed else f"{_listed(names)} changed"
        bar = safe(f"=== {when:%H:%M:%S} — {cause} — {outcome.result} ===")
        out.write(f"{CLEAR if clear else ''}{bar}\n{outcome.report}"
                  f"watching {files} file{'s' * (files != 1)} for changes (Ctrl-C stops)\n\n")
    out.flush()


def _shown(path: Path) -> str:
    """A path as short as it is clear: relative to the working folder when inside it."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _listed(names: list[str]) -> str:
    return ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")


def folders_of(packs: Iterable) -> set[Path]:
    """The folders of these packs and of every pack they extend."""
    return {Path(os.path.abspath(p.folder)) for pack in packs for p in pack.lineage()}


def watched(targets: Iterable[str], packs: Iterable, bots: str | None = None) -> Watched:
    """What checking `targets` (shipped ids or folders, some perhaps not there yet) reads, given the
    packs it loaded (None for one it could not read) and the bot file of --bots."""
    folders = {Path(os.path.abspath(find_pack(t) or t)) for t in targets} | folders_of(p for p in packs if p)
    return Watched(frozenset(folders), frozenset({Path(os.path.abspath(bots))} if bots else ()),
                   frozenset(f.parent for f in folders if not is_shipped(f)))

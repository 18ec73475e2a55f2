"""Progress of a long run on stderr: a one-line bar on a terminal, a plain line every 10% otherwise,
and at least one every HEARTBEAT seconds, however slow the games.

A slow bot (a search bot thinks for seconds a move) plays a game in minutes, so finished games say
little for long: the time left is reckoned from decisions. The game loop calls `decided(state)` as
a game starts (at its first action); this process counts the game's decisions from its history,
and a worker process publishes its count for the parent (pool.py). How many decisions a game
takes is learned from the games finished, and guessed before the first ends from one game played
out at random from the first position (a copy: the game played is untouched), which is quick and,
in this family of games, about as long as any.
"""

from __future__ import annotations

import os
import random
import shutil
import sys
import threading
import time
import weakref
from typing import Callable, TextIO

from ...dsl.diagnostics import safe

BAR = 24            # characters of the bar
REFRESH = 0.1       # seconds between two redraws of the bar
TICK = 1.0          # seconds between two looks at the decisions made, while games are under way
HEARTBEAT = 10.0    # seconds at most between two lines when stderr is not a terminal

# ---- decisions, counted where the games are played ---------------------------------------------

# What this process has played: decisions (the game under way's too), games finished and their
# decisions, the guessed decisions of a seed (one game of each pack, played out at random) and how
# many packs that is; then the game under way (its state) and the games already guessed.
MADE, FINISHED, IN_FINISHED, GUESS, KINDS = range(5)
_counts = [0, 0, 0, 0, 0]
_playing: list = [None]
_guessed: weakref.WeakSet = weakref.WeakSet()  # weakly: a long-lived process plays many games


def decided(state) -> None:
    """The game loop's call as `state`'s game starts (at its first action; calling it again does
    nothing): its decisions are counted from then on, from its history."""
    if state is not _playing[0]:
        _start(state)


def _start(state) -> None:
    """A new game: the last one counted as finished, and its pack's length guessed once."""
    last = _playing[0]
    if last is not None:
        _counts[FINISHED] += 1
        _counts[IN_FINISHED] += len(last.history)
    _playing[0] = state
    if state.game not in _guessed:
        _guessed.add(state.game)
        _counts[GUESS] += _playout(state)
        _counts[KINDS] += 1


def _playout(state) -> int:
    """The actions of one game played at random from `state`'s position, on a copy."""
    copy, rng = state.clone(), random.Random(0)
    try:
        while not copy.is_terminal() and len(copy.history) < copy.game.max_actions:
            for seat in copy.current_players():
                copy.apply(seat, rng.choice(copy.legal_actions(seat)))
    except Exception:  # a guess only: the real game tells of any fault
        pass
    return len(copy.history)


def counts() -> list[int]:
    """This process's counts (MADE, FINISHED, IN_FINISHED, GUESS, KINDS)."""
    playing = _playing[0]
    return [_counts[IN_FINISHED] + (len(playing.history) if playing is not None else 0), *_counts[1:]]


def reset() -> None:
    """Count afresh: a run starts (or a worker process, forked with its parent's counts)."""
    _counts[:] = [0] * len(_counts)
    _playing[0] = None
    _guessed.clear()


# The counts of the worker processes under way, each a function (pool.py registers its pool's).
SOURCES: set[Callable[[], list[float]]] = set()


def everywhere() -> list[float]:
    """The counts here and in the workers under way."""
    total = counts()
    for source in list(SOURCES):
        total = combined(total, source())
    return total


def combined(mine, theirs) -> list[float]:
    """Two processes' counts as one: summed, but the guess of a seed (the same in each) taken once."""
    return [*(a + b for a, b in zip(mine[:GUESS], theirs[:GUESS])),
            *(max(a, b) for a, b in zip(mine[GUESS:], theirs[GUESS:]))]


def seeds_played(made: float, finished: float, in_finished: float, guess: float, kinds: float) -> float | None:
    """How many seeds' worth of decisions were made: a seed's decisions as the finished games
    took them, else as guessed; None without decisions."""
    per_seed = in_finished / finished * kinds if finished else guess
    return made / per_seed if made and per_seed else None


# ---- the line ----------------------------------------------------------------------------------

# Held while a line is made or written: no worker is forked meanwhile, so that none starts with
# stderr's lock held by the thread that writes the progress (and then waits on it forever).
_WRITING = threading.Lock()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(before=_WRITING.acquire, after_in_parent=_WRITING.release,
                        after_in_child=_WRITING.release)


class Progress:
    """`update(done)` as seeds get done, `close()` at the end. Silent when `quiet`. While open, a
    thread looks at the decisions every TICK: it redraws the bar when they moved, and off a
    terminal writes a line when HEARTBEAT seconds passed without one."""

    def __init__(self, label: str, total: int, stream: TextIO | None = None, quiet: bool = False,
                 tty: bool | None = None):
        self.label, self.total, self.quiet = safe(label), total, quiet  # a pack's path may hold anything
        self.stream = stream if stream is not None else sys.stderr
        self.tty = _isatty(self.stream) if tty is None else tty
        self.start = time.perf_counter()
        self.done = 0
        self.shown_at, self.printed_at = 0.0, self.start  # the bar is drawn at the first update
        self.next_tenth = 1
        self.width = 0
        self.seen = 0
        reset()  # the decisions of this run only
        self.lock = _WRITING
        self.stop = threading.Event()
        if not quiet and total > 0:
            threading.Thread(target=self._watch, daemon=True).start()

    def update(self, done: int) -> None:
        with self.lock:
            self.done = done
            if self.quiet or self.total <= 0:
                return
            now = time.perf_counter()
            if self.tty:
                if now - self.shown_at >= REFRESH or done >= self.total:
                    self.shown_at = now
                    self._draw(self.line(now, bar=True))
            elif done * 10 >= self.next_tenth * self.total:
                while done * 10 >= self.next_tenth * self.total:
                    self.next_tenth += 1
                self._print(self.line(now, bar=False), now)

    def _watch(self) -> None:
        while not self.stop.wait(TICK):
            with self.lock:
                if self.stop.is_set():
                    return
                now = time.perf_counter()
                if self.tty:
                    made = everywhere()[MADE]
                    if made != self.seen and now - self.shown_at >= REFRESH:
                        self.seen, self.shown_at = made, now
                        self._draw(self.line(now, bar=True))
                elif now - self.printed_at >= HEARTBEAT:
                    self._print(self.line(now, bar=False), now)

    def note(self, text: str) -> None:
        """A line that is not progress (a stalled worker): shown even when quiet, above the bar."""
        text = safe(text)
        with self.lock:
            if self.tty and self.width:
                self.stream.write("\r" + " " * self.width + "\r" + text + "\n")
                self.width = 0
                self._draw(self.line(time.perf_counter(), bar=True))
            else:
                print(text, file=self.stream, flush=True)

    def close(self) -> None:
        with self.lock:
            self.stop.set()
            if not self.quiet and self.tty and self.width:
                self._draw(self.line(time.perf_counter(), bar=True))
                self.stream.write("\n")
                self.stream.flush()

    def line(self, now: float, bar: bool) -> str:
        elapsed = max(now - self.start, 1e-9)
        rate = self.done / elapsed
        counted = everywhere()
        made = counted[MADE]
        seeds = max(self.done, seeds_played(*counted) or 0)  # the games under way count for their decisions
        if self.done >= self.total:
            left = f"{_duration(elapsed)} in all"
        elif seeds:
            left = f"{_duration(max(self.total - seeds, 0) * elapsed / seeds)} left"
        else:
            left = "time left unknown"
        numbers = (f"{self.done}/{self.total} games, {rate:.1f} games/s"
                   + (f", {made:,.0f} decisions" if made else "") + f", {left}")
        percent = 100 * self.done // self.total
        if not bar:
            return f"{self.label}: {numbers} ({percent}%)"
        # the bar takes what room the terminal leaves, up to BAR characters
        room = min(BAR, _columns(self.stream) - 1 - len(f"{self.label}  [] {percent:3d}% {numbers}"))
        if room < 5:
            return f"{self.label} {percent:3d}% {numbers}"
        filled = room * self.done // self.total
        return f"{self.label} [{'#' * filled}{'.' * (room - filled)}] {percent:3d}% {numbers}"

    def _print(self, text: str, now: float) -> None:
        self.printed_at = now
        print(text, file=self.stream, flush=True)

    def _draw(self, text: str) -> None:
        text = text[:max(20, _columns(self.stream) - 1)]  # one line, or \r cannot redraw it
        pad = max(0, self.width - len(text))
        self.stream.write("\r" + text + " " * pad)
        self.stream.flush()
        self.width = len(text)


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _columns(stream) -> int:
    try:
        return os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, ValueError, OSError):
        return shutil.get_terminal_size().columns


def _duration(seconds: float) -> str:
    """`42s`, `3m05s`, `2h07m`."""
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"

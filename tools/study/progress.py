"""Progress of a long run on stderr: a one-line bar on a terminal, a plain line every 10% otherwise."""

from __future__ import annotations

import os
import shutil
import sys
import time
from typing import TextIO

from ...dsl.diagnostics import safe

BAR = 24            # characters of the bar
REFRESH = 0.1       # seconds between two redraws of the bar


class Progress:
    """`update(done)` as work gets done, `close()` at the end. Silent when `quiet`."""

    def __init__(self, label: str, total: int, stream: TextIO | None = None, quiet: bool = False,
                 tty: bool | None = None):
        self.label, self.total, self.quiet = safe(label), total, quiet  # a pack's path may hold anything
        self.stream = stream if stream is not None else sys.stderr
        self.tty = _isatty(self.stream) if tty is None else tty
        self.start = time.perf_counter()
        self.done = 0
        self.shown_at = 0.0
        self.next_tenth = 1
        self.width = 0

    def update(self, done: int) -> None:
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
            print(self.line(now, bar=False), file=self.stream, flush=True)

    def note(self, text: str) -> None:
        """A line that is not progress (a stalled worker): shown even when quiet, above the bar."""
        text = safe(text)
        if self.tty and self.width:
            self.stream.write("\r" + " " * self.width + "\r" + text + "\n")
            self.width = 0
            self._draw(self.line(time.perf_counter(), bar=True))
        else:
            print(text, file=self.stream, flush=True)

    def close(self) -> None:
        if not self.quiet and self.tty and self.width:
            self._draw(self.line(time.perf_counter(), bar=True))
            self.stream.write("\n")
            self.stream.flush()

    def line(self, now: float, bar: bool) -> str:
        elapsed = max(now - self.start, 1e-9)
        rate = self.done / elapsed
        left = (self.total - self.done) / rate if rate > 0 else None
        numbers = (f"{self.done}/{self.total} games, {rate:.1f} games/s, "
                   + (f"{_duration(left)} left" if left is not None and self.done < self.total
                      else f"{_duration(elapsed)} in all" if self.done >= self.total else "time left unknown"))
        percent = 100 * self.done // self.total
        if not bar:
            return f"{self.label}: {numbers} ({percent}%)"
        # the bar takes what room the terminal leaves, up to BAR characters
        room = min(BAR, _columns(self.stream) - 1 - len(f"{self.label}  [] {percent:3d}% {numbers}"))
        if room < 5:
            return f"{self.label} {percent:3d}% {numbers}"
        filled = room * self.done // self.total
        return f"{self.label} [{'#' * filled}{'.' * (room - filled)}] {percent:3d}% {numbers}"

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

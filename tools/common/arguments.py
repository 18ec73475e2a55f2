"""What the commands take on their command lines: a pack named (opened, its errors printed as
`check` prints them), whole numbers, and the one-line errors of a bad command line.

Exit status: 2 for a bad command line (no such pack, a bad argument), 1 for a pack with errors
(its diagnostics are printed as `check` prints them).
"""

from __future__ import annotations

import argparse
import sys

from ...dsl.diagnostics import safe
from ...interpreter.games.check import load_pack
from ...interpreter.packs.folders import find_pack, shipped_packs
from ...interpreter.packs.model import Pack


class Usage(ValueError):
    """A bad command line: the message says what is wrong, `hint` what to do (exit status 2)."""

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.hint = hint


def open_pack(name: str) -> Pack:
    """The loaded pack of a shipped id or a folder; raises Usage when there is none, LoadError
    (every diagnostic) when it has errors."""
    if find_pack(name) is None:
        raise Usage(f"no pack {name!r}", "give the path of a folder holding pack.yaml, or a shipped pack: "
                    + ", ".join(p.name for p in shipped_packs()))
    return load_pack(name)


def cannot_deal(command: str, err: Exception, pack: str) -> int:
    """A pack that cannot be dealt for the count asked (a DealError): the pack's problem, exit status 1."""
    return fail(command, str(err), f"`wonderforge check {pack}` lists every player count the pack cannot be "
                "dealt for", status=1)


def fail(command: str, message: str, hint: str | None = None, status: int = 2) -> int:
    """Print `wonderforge COMMAND: error: MESSAGE` (and its hint) on stderr, escaped; returns `status`."""
    print(safe(f"wonderforge {command}: error: {message}") + (f"\n  hint: {safe(hint)}" if hint else ""),
          file=sys.stderr)
    return status


MAX_SEED = 1 << 63  # seeds are below this in size: a game's seed fits in 64 bits


def whole_number(text: str) -> int:
    """A command line's whole number, from -MAX_SEED to MAX_SEED; the error quotes at most the
    first characters of a bad one."""
    try:
        value = int(text) if len(text) <= 30 else None
    except ValueError:
        value = None
    if value is None or abs(value) >= MAX_SEED:
        raise argparse.ArgumentTypeError(f"expected a whole number below 2**63 in size, not {short(text)!r}")
    return value


def short(text: str) -> str:
    """A command line's word, its first characters only when it is long."""
    return text if len(text) <= 30 else text[:20] + f"... ({len(text)} characters)"


def positive_int(text: str) -> int:
    value = whole_number(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, not {value}")
    return value

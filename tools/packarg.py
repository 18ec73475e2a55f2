"""A pack named on the command line of an authors' tool (`diff`, `cards`), opened, and the one-line
errors those tools print.

Exit status: 2 for a bad command line (no such pack, a bad argument), 1 for a pack with errors
(its diagnostics are printed as `check` prints them).
"""

from __future__ import annotations

import sys

from ..dsl.diagnostics import safe
from ..interpreter.check import load_pack
from ..interpreter.packs import Pack, find_pack, shipped_packs


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

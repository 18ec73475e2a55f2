"""How a run's diagnostics and data reach the user, for every command: at most `MAX_DIAGNOSTICS`
diagnostics (a broken file can hold thousands of mistakes, each one more of the same), the rest
counted in one line or field, and no control character from a pack written raw.
"""

from __future__ import annotations

import json
import sys
from typing import Sequence, TextIO

from ...dsl.diagnostics import Diagnostic
from ...dsl.limits import MAX_DIAGNOSTICS


def kept(diagnostics: Sequence[Diagnostic]) -> list[Diagnostic]:
    """The diagnostics to show, in their order: all when few, else `MAX_DIAGNOSTICS` of them,
    errors before warnings, so that no error hides behind a flood of warnings."""
    if len(diagnostics) <= MAX_DIAGNOSTICS:
        return list(diagnostics)
    ranked = sorted(range(len(diagnostics)), key=lambda i: (diagnostics[i].severity != "error", i))
    chosen = set(ranked[:MAX_DIAGNOSTICS])
    return [d for i, d in enumerate(diagnostics) if i in chosen]


def _tally(diagnostics: Sequence[Diagnostic]) -> str:
    errors = sum(d.severity == "error" for d in diagnostics)
    warnings = len(diagnostics) - errors
    return ", ".join(part for part in (f"{errors:,} error{'s' * (errors != 1)}" * bool(errors),
                                       f"{warnings:,} warning{'s' * (warnings != 1)}" * bool(warnings)) if part)


def omitted_line(diagnostics: Sequence[Diagnostic], shown: Sequence[Diagnostic]) -> str | None:
    """The line that counts what `kept` left out, or None when nothing was."""
    if len(shown) == len(diagnostics):
        return None
    ids = {id(d) for d in shown}
    left = [d for d in diagnostics if id(d) not in ids]
    return (f"... and {len(left):,} more ({_tally(left)}) not shown: only the first {MAX_DIAGNOSTICS} are; "
            "fix these and check again")


def write_text(diagnostics: Sequence[Diagnostic], file: TextIO | None = None) -> None:
    """The diagnostics rendered, each followed by an empty line, then what was left out."""
    file = file or sys.stdout
    shown = kept(diagnostics)
    for d in shown:
        print(d.render(), end="\n\n", file=file)
    more = omitted_line(diagnostics, shown)
    if more:
        print(more, end="\n\n", file=file)


def as_data(diagnostics: Sequence[Diagnostic]) -> dict:
    """The diagnostics for `--format json`: those `kept`, how many there were in all and how many
    were left out."""
    shown = kept(diagnostics)
    return {"diagnostics": [d.as_dict() for d in shown], "diagnostics_total": len(diagnostics),
            "omitted": len(diagnostics) - len(shown)}


def dumps(data) -> str:
    """JSON for the terminal: ASCII only, so every control character (C0, DEL, C1, bidi) of a pack's
    text is written as a `\\u` escape, never raw."""
    return json.dumps(data, indent=2, ensure_ascii=True)


def write_errors(diagnostics: Sequence[Diagnostic], as_json: bool) -> None:
    """A failed run's diagnostics: rendered on stderr, or as data on stdout with `--format json`."""
    if as_json:
        print(dumps(as_data(diagnostics)))
    else:
        write_text(diagnostics, sys.stderr)

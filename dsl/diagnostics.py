"""Diagnostics: compiler-style errors that point into the file an author wrote.

    content/my-mod/cards.yaml:42:17: error[E-DSL-RESOURCE]: unknown resource 'marbel'
        cost: 2 marbel + iron
                ^^^^^^
      hint: did you mean 'marble'?
"""

from __future__ import annotations

import difflib
from typing import Iterable

import attrs


@attrs.frozen
class Diagnostic:
    """One error or warning at a position in a file (1-based line and column)."""

    code: str
    message: str
    file: str = ""
    line: int = 0
    column: int = 0
    end_line: int = 0
    end_column: int = 0
    hint: str | None = None
    severity: str = "error"
    source: str | None = None  # the whole source line, for the caret display

    def render(self) -> str:
        """The diagnostic as text: location, message, source line with carets, hint."""
        where = f"{self.file}:{self.line}:{self.column}" if self.line else self.file
        out = [f"{where}: {self.severity}[{self.code}]: {self.message}"]
        if self.source is not None and self.line:
            text = self.source.expandtabs(1).rstrip("\n")
            out.append("    " + text)
            width = 1
            if self.end_line == self.line and self.end_column > self.column:
                width = self.end_column - self.column
            width = max(1, min(width, len(text) - self.column + 2))
            out.append("    " + " " * (self.column - 1) + "^" * width)
        if self.hint:
            out.append(f"  hint: {self.hint}")
        return "\n".join(out)

    def as_dict(self) -> dict:
        """The diagnostic as plain data for `--format json`."""
        return attrs.asdict(self)


class DslError(Exception):
    """An error in one effect or cost text; `span` is relative to that text."""

    def __init__(self, code: str, message: str, span=None, hint: str | None = None, needle: str | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.span = span
        self.hint = hint
        self.needle = needle  # the exact words to underline inside the span, when narrower
        self.first_word = None  # (word, span) of a sentence's first word read as a counter


def did_you_mean(word: str, choices: Iterable[str]) -> str | None:
    """A hint naming the closest choice to a misspelt word, if any is close."""
    # a pack's keys may be numbers where names belong (`deck: {0: 4}`): compare them as text
    close = difflib.get_close_matches(str(word), sorted({str(c) for c in choices}), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None


def one_of(choices: Iterable[str], limit: int = 12) -> str:
    """A short, sorted list of choices for a hint."""
    items = sorted({str(c) for c in choices})
    shown = ", ".join(items[:limit])
    return shown + (f", ... ({len(items)} in all)" if len(items) > limit else "")

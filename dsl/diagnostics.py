"""Diagnostics: compiler-style errors that point into the file an author wrote.

    content/my-mod/cards.yaml:42:17: error[E-DSL-RESOURCE]: unknown resource 'marbel'
        cost: 2 marbel + iron
                ^^^^^^
      hint: did you mean 'marble'?
"""

from __future__ import annotations

import difflib
import functools
import re
from typing import Iterable

import attrs

from .limits import MAX_QUOTED_CHARS

# Characters a terminal acts on instead of showing: C0 controls, DEL, C1 controls (0x9b opens a
# CSI sequence as ESC [ does), the line and paragraph separators, and the bidi overrides and
# isolates that reorder what follows them.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_CONTROL_IN_TEXT = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")  # but tab, line end


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def safe(text) -> str:
    """`text` with every control character written as an escape (ESC as `\\x1b`), so that text
    from a pack, a scenario or a log cannot move the cursor, recolour or clear a terminal, nor
    start a line of its own."""
    text = str(text)
    return _CONTROL.sub(lambda m: _escape(m.group()), text) if _CONTROL.search(text) else text


def control_char(text: str) -> str | None:
    """The first control character of `text` but a tab or a line end (which a pack's texts hold),
    escaped as `safe` shows it; None when there is none."""
    found = _CONTROL_IN_TEXT.search(text)
    return _escape(found.group()) if found else None


def safe_lines(text) -> str:
    """`safe` for text of several lines: each line escaped, the line ends kept."""
    return "\n".join(safe(line) for line in str(text).split("\n"))


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
        """The diagnostic as text: location, message, the source line (a window of it when long)
        with carets under the place, hint; text from the file is escaped (`safe`)."""
        where = f"{self.file}:{self.line}:{self.column}" if self.line else self.file
        out = [safe(f"{where}: {self.severity}[{self.code}]: {self.message}")]
        if self.source is not None and self.line:
            text, start = self.quoted()
            width = 1
            if self.end_line == self.line and self.end_column > self.column:
                width = self.end_column - self.column
            first = min(max(self.column - 1 - start, 0), len(text))
            width = max(1, min(width, len(text) - first + 1))
            shown = [safe(c) for c in text.replace("\t", " ")]  # a tab is one column, as the column counts it
            under = shown[first:first + width]
            carets = len("".join(under)) + width - len(under)  # a caret may stand just past the end
            cut_left = "..." if start else ""
            cut_right = "..." if start + len(text) < len(self._line()) else ""
            out.append("    " + cut_left + "".join(shown) + cut_right)
            out.append("    " + " " * len(cut_left + "".join(shown[:first])) + "^" * carets)
        if self.hint:
            out.append(f"  hint: {safe(self.hint)}")
        return "\n".join(out)

    def _line(self) -> str:
        return (self.source or "").rstrip("\r\n")

    def quoted(self) -> tuple[str, int]:
        """The part of the source line to quote, and the line's character it starts at (0-based):
        the whole line when short, else a window around the column (a line may be a whole pack)."""
        line = self._line()
        if len(line) <= MAX_QUOTED_CHARS:
            return line, 0
        start = max(0, min(self.column - 1 - MAX_QUOTED_CHARS // 3, len(line) - MAX_QUOTED_CHARS))
        return line[start:start + MAX_QUOTED_CHARS], start

    def as_dict(self) -> dict:
        """The diagnostic as plain data for `--format json`: `source` is what `render` quotes,
        from the line's character `source_start` (0-based; 0 but for a long line)."""
        out = attrs.asdict(self)
        if self.source is not None:
            out["source"], out["source_start"] = self.quoted()
        else:
            out["source_start"] = 0
        return out


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
        self.action_text = ""  # the text of that word's action, to the end of its sentence


def did_you_mean(word: str, choices: Iterable[str]) -> str | None:
    """A hint naming the closest choice to a misspelt word, if any is close."""
    # a pack's keys may be numbers where names belong (`deck: {0: 4}`): compare them as text
    close = _closest(str(word), tuple(sorted({str(c) for c in choices})))
    return f"did you mean '{close}'?" if close else None


@functools.lru_cache(maxsize=1024)
def _closest(word: str, choices: tuple[str, ...]) -> str | None:
    # remembered: a broken file repeats one mistake many times, and each comparison is slow
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return close[0] if close else None


def one_of(choices: Iterable[str], limit: int = 12) -> str:
    """A short, sorted list of choices for a hint."""
    items = sorted({str(c) for c in choices})
    shown = ", ".join(items[:limit])
    return shown + (f", ... ({len(items)} in all)" if len(items) > limit else "")

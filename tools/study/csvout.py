"""`--format csv`: a command's JSON data as CSV, for spreadsheets and data frames.

One mechanism for every command: `render(header, rows)` writes rows of plain values with the csv
module (which quotes a cell holding a comma, a quote or a line end), each cell made by `cell`.
Text that may come from a pack, a scenario or the command line is escaped as the terminal output
is (`safe`: control characters as `\\x1b`...) and guarded against spreadsheet formulas: a text
beginning with `=`, `+`, `-` or `@` gets a leading `'`, so that `=HYPERLINK(...)` as a name shows as
text and never runs. (A tab or a carriage return, which some spreadsheets skip before reading a
formula, is escaped by `safe` first, so a cell never begins with one.)
Numbers are written as JSON writes them (a negative number is a number, not a formula), `None` as
an empty cell, booleans as `true`/`false`.

`simulate` has many tables, so it gives one long ("tidy") table of figures: `figure_rows` turns
its JSON into one row per figure of each entry, with the table, the entry's key and the figure's
name as the JSON spells them (see SUMMARY_HEADER).
"""

from __future__ import annotations

import csv
import io
from typing import Iterable, Iterator, Sequence

from ...dsl.diagnostics import safe

FORMULA_STARTS = ("=", "+", "-", "@")  # what makes a spreadsheet read a cell as a formula

# The columns of `simulate --format csv`: where a row comes from (pack, table, group, key), which
# figure it is, and its value with its 95% interval; a move between two packs (`--against`) fills
# a, b, delta, p, q, significant, pairs and the games needed to confirm it instead.
MOVE = ("a", "b", "delta", "p", "q", "significant", "pairs", "games_needed", "games_needed_unpaired")
SUMMARY_HEADER = ("pack", "table", "group", "key", "figure", "value", "ci_low", "ci_high", *MOVE)


def cell(value) -> str | int | float:
    """A value as a CSV cell: numbers as they are, None empty, booleans as in JSON, text escaped
    (`safe`) and guarded against formulas with a leading `'`."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return value
    text = safe(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def render(header: Sequence[str], rows: Iterable[Sequence]) -> str:
    """The header and rows as CSV text, every cell (the header's too) made by `cell`: quoted where
    needed, lines ending with `\n` as all our output does (spreadsheets and csv readers take it, and
    no carriage return reaches a terminal; no cell holds a line end, `safe` escapes them)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([cell(h) for h in header])
    writer.writerows([cell(v) for v in row] for row in rows)
    return out.getvalue()


def figure_rows(pack: str, table: str, entries: Iterable[tuple[str, str, dict]]) -> Iterator[list]:
    """Rows of SUMMARY_HEADER for (group, key, entry) triples of one table. Each figure of an entry
    is a row; `F_ci` (or `ci` beside `mean`) is F's interval, not a row of its own; a move (a dict
    of MOVE's fields) fills those columns; a list of texts (a pair of bots) is one cell, `a; b`."""
    for group, key, entry in entries:
        for name, value in entry.items():
            if name == "ci" or name.endswith("_ci"):
                continue
            if isinstance(value, dict):  # a move
                yield [pack, table, group, key, name, None, None, None, *(value[m] for m in MOVE)]
                continue
            if isinstance(value, list):
                value = "; ".join(map(str, value))
            ci = entry.get("ci" if name == "mean" else f"{name}_ci") or (None, None)
            yield [pack, table, group, key, name, value, *ci, *(None for _ in MOVE)]

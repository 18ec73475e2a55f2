"""The HTML pieces the sections are made of: text escaped (`esc`: control characters by `safe`,
then markup), a command line, tables plain and sortable with their cells, a chart's figure and its
caption (`Charts`, which keeps the specs by name), and the figures in words, with a dash for what
the summary does not hold.
"""

from __future__ import annotations

import functools
import html

from ....dsl.diagnostics import safe
from ...common.text import fig as _fig, pct as _pct


# ---- figures -----------------------------------------------------------------------------------


class Charts:
    """The specs of the page's charts, by name, as its figures are made."""

    def __init__(self):
        self.specs: dict[str, dict] = {}

    def figure(self, name: str, spec: dict | None, caption: str) -> str:
        """A chart's container and its caption; a short note instead when there is nothing to draw."""
        if spec is None:
            return f'<p class="empty">{caption} (Nothing to draw: the summary holds no data for it.)</p>'
        self.specs[name] = spec
        return (f'<figure><div class="chart" id="chart-{name}" data-chart="{name}" role="img" '
                f'aria-label="{html.escape(caption)}"></div><figcaption>{caption}</figcaption></figure>')


# ---- tables ------------------------------------------------------------------------------------


def plain_table(heads: list[str], rows: list[list[str]], cls: str = "") -> str:
    """A table of cells already HTML (heads are ours)."""
    head = "".join(f"<th>{h}</th>" for h in heads)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
    return f'<table class="{cls}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def sortable_table(heads: list[tuple[str, str]], rows: list[list[str]], cls: str) -> str:
    """A table whose rows (lists of `<td>`s) sort by a clicked header; `num` columns by `data-v`."""
    head = "".join(f'<th data-type="{kind}" tabindex="0" aria-sort="none">{h}</th>' for h, kind in heads)
    body = "".join("<tr>" + "".join(r) + "</tr>" for r in rows)
    return (f'<div class="scroll"><table class="sortable {cls}"><thead><tr>{head}</tr></thead>'
            f'<tbody>{body}</tbody></table></div>')


def text_cell(value) -> str:
    """A cell of text, escaped."""
    return f"<td>{esc(value)}</td>"


def number_cell(value, shown: str, cls: str = "") -> str:
    """A numeric cell: `shown`, sorted by `value` (blank when none, which sorts last)."""
    v = "" if value is None else repr(value) if isinstance(value, (int, float)) else ""
    return f'<td class="{" ".join(("n", cls)).strip()}" data-v="{v}">{shown}</td>'


# ---- text --------------------------------------------------------------------------------------


def command_html(text: str) -> str:
    """A command line, escaped, that wraps between its words only (not at the hyphens of `--games`);
    copied, it is the same text."""
    return " ".join(f'<span class="w">{esc(word)}</span>' for word in text.split(" "))


def esc(text) -> str:
    """Text from the pack, the command or the summary, safe in HTML: control characters escaped, then markup."""
    return html.escape(safe(text))


# the shared figures, with a dash for what the summary does not hold
pct = functools.partial(_pct, missing="—")
fig = functools.partial(_fig, missing="—")


def rate_move(x) -> str:
    """A difference of rates, in points of that rate (percentage points), signed, without the unit:
    a column's header names it ("points of win rate"); "pts" would read as a score's points."""
    return "—" if x is None else f"{100 * x:+.1f}"


def signed(x) -> str:
    """A difference of figures, signed."""
    return "—" if x is None else f"{x:+.2f}"


def plural(n: int, word: str) -> str:
    """`n` and `word`, plural when `n` is not 1 (`1,200 differences`)."""
    return f"{n:,} {word}{'s' * (n != 1)}"


def count(x) -> str:
    """A count of things, with thousands separators."""
    return "—" if x is None else f"{x:,}"


def p_value(x) -> str:
    """A p- or q-value, to three digits (HTML)."""
    return "—" if x is None else "&lt;1e-16" if x < 1e-16 else f"{x:.3g}"


def interval(ci) -> str:
    """An interval of rates as a tooltip reads it, `12.5% – 30.0%`."""
    return "—" if not ci else f"{pct(ci[0])} – {pct(ci[1])}"

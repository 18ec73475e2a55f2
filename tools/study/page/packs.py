"""One pack or two: the summaries as the page shows them (`Run`), labelled A and B when two packs
are compared, the rows of both packs' tables, and the key saying which colour is which.
"""

from __future__ import annotations

from typing import NamedTuple

from ....dsl.diagnostics import safe
from .markup import esc


class Run(NamedTuple):
    """A pack's summary as the page shows it: `label` names it in charts and keys (`A = 7-wonders`)
    when two packs are compared, and is empty when the page shows one."""
    label: str
    s: dict


def runs_of(s: dict, against: dict | None) -> list[Run]:
    """The page's runs: the summary alone, or A's and B's labelled (`against`, B's summary)."""
    if against is None:
        return [Run("", s)]
    return [Run(f"A = {safe(s['pack'])}", s), Run(f"B = {safe(against['pack'])}", against)]


def pack_labels(runs: list[Run]) -> list[str]:
    """The packs' labels, for the charts that draw A and B apart; none when there is one pack."""
    return [r.label for r in runs if r.label]


def colour_key(runs: list[Run]) -> str:
    """With two packs, the line at the head of a section that says which colour is which."""
    if len(runs) == 1:
        return ""
    names = " ".join(f'<span class="pack {r.label[0].lower()}">{esc(r.label)}</span>' for r in runs)
    return (f'<p class="key">{names}: A in blue and first (above, or left), B in orange; a chart drawn once per '
            f'pack is titled with its pack.</p>')


def per_pack(runs: list[Run], rows_of) -> list[dict]:
    """The rows that `rows_of` makes of each pack's summary, A's first; with two packs each names its pack."""
    return [row | {"pack": r.label} if r.label else row for r in runs for row in rows_of(r.s)]


def with_moves(rows: list[dict], table: dict | None, figure: str | None, key: str = "name") -> list[dict]:
    """`rows` (two packs') each with the move of its `figure` from A to B in words, for a tooltip."""
    moved = {safe(k): m.get(figure) if figure else m for k, m in (table or {}).items()}
    return [r | {"move": _move_text(moved.get(r[key]))} for r in rows]


def _move_text(m: dict | None) -> str:
    if not m or m.get("q") is None:
        return "not tested"
    return f"q = {m['q']:.3g}" + (", significant" if m.get("significant") else "")

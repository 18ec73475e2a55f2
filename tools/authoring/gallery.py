"""The HTML gallery of `wonderforge cards --format html`: one self-contained page (no script, no
file or address outside it), a section per group of entries.py (kind, then deck and colour), a
tile per component. Every text from the pack is escaped for HTML and for a terminal (the page may
be printed to one); colours come from a fixed table, never from the pack's words.
"""

from __future__ import annotations

import html

from ...dsl.diagnostics import safe
from ...interpreter.packs.schemas import COMPONENT_KINDS
from .entries import Catalogue, Entry, copies_line, part_text

# The colours of the usual colour words; another word is shown grey.
SWATCHES = {"brown": "#8d5a2b", "grey": "#8a8a8a", "gray": "#8a8a8a", "yellow": "#d9a800", "blue": "#2f6fc0",
            "green": "#2e8b45", "red": "#c0392b", "purple": "#7d3c98", "black": "#2b2b2b", "white": "#d8d8d8",
            "orange": "#e67e22", "pink": "#d6589f"}
NEUTRAL = "#b0b0b0"

STYLE = """
body { font: 15px/1.4 system-ui, sans-serif; margin: 2em; color: #222; background: #faf8f4; }
h1 small, header code { color: #777; font-weight: normal; }
nav a { margin-right: 1em; white-space: nowrap; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(260px, 1fr)); gap: 12px; }
.tile { background: #fff; border: 1px solid #ddd; border-top: 8px solid var(--band); border-radius: 6px; padding: 8px 10px; }
.tile h3 { margin: 0; font-size: 1.05em; }
.tile header code { font-size: 0.8em; }
.cost { margin: 4px 0; font-style: italic; }
.effects { margin: 4px 0; padding-left: 1.1em; }
dl { margin: 4px 0; font-size: 0.9em; } dt { float: left; clear: left; color: #666; margin-right: 0.4em; }
dt::after { content: ":"; } dd { margin: 0; }
"""


def _e(text) -> str:
    return html.escape(safe(text), quote=True)


def page(cat: Catalogue) -> str:
    """The whole page."""
    pack = cat.pack
    groups = cat.groups()
    counts = ", ".join(f"{len(pack.components[k])} {k}" for k in COMPONENT_KINDS if pack.components[k])
    players = f"{cat.players[0]}" if len(cat.players) == 1 else f"{cat.players[0]}-{cat.players[-1]}"
    nav = " ".join(f'<a href="#g{i}">{_e(title)}</a>' for i, (title, _) in enumerate(groups))
    sections = "\n".join(_section(i, title, entries) for i, (title, entries) in enumerate(groups))
    left = f"<p>Not dealt at {players} players: {_e(', '.join(cat.left_out))}</p>\n" if cat.left_out else ""
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f"<title>{_e(pack.name)}: components</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
            f"<h1>{_e(pack.name)} <small>{_e(pack.id)} {_e(pack.version)}</small></h1>\n"
            f"<p>{_e(counts)}; copies for {players} players.</p>\n<nav>{nav}</nav>\n{sections}\n{left}"
            "</body>\n</html>\n")


def _section(i: int, title: str, entries: list[Entry]) -> str:
    tiles = "\n".join(_tile(entry) for entry in entries)
    return f'<section id="g{i}">\n<h2>{_e(title)}</h2>\n<div class="grid">\n{tiles}\n</div>\n</section>'


def _tile(entry: Entry) -> str:
    band = SWATCHES.get(entry.colour or "", NEUTRAL)
    cost = f'<p class="cost">cost {_e(entry.cost)}</p>' if entry.cost is not None else ""
    effects = "".join(f"<li>{_e(e)}</li>" for e in entry.effects)
    rows = [("copies", copies_line(entry.copies))] if entry.copies else []
    rows += [("chains from", ", ".join(entry.chain_from))] if entry.chain_from else []
    rows += [("chains to", ", ".join(entry.chains_to))] if entry.chains_to else []
    rows += list(entry.fields) + [(p.label, part_text(p)) for p in entry.parts]
    details = "".join(f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>" for k, v in rows)
    return (f'<article class="tile" style="--band: {band}">'
            f"<header><h3>{_e(entry.name)}</h3> <code>{_e(entry.id)}</code></header>{cost}"
            + (f'<ul class="effects">{effects}</ul>' if effects else "")
            + (f"<dl>{details}</dl>" if details else "") + "</article>")

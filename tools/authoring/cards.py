"""`wonderforge cards PACK [--players N] [--format text|json|html]`: every component of a pack as
a designer reads it (entries.py), as text, as data, or as one self-contained HTML page (gallery.py).
"""

from __future__ import annotations

import sys

from ...dsl.diagnostics import safe
from ...interpreter.packs.model import LoadError
from ...interpreter.packs.schemas import COMPONENT_KINDS
from ..common import output
from ..common.arguments import Usage, fail, open_pack, positive_int

from .entries import Catalogue, Entry, catalogue, copies_line, part_text
from .gallery import page

MAX_LINE_CHARS = 200  # characters of one line of text; --format json gives every value whole


# ---- text


def render(cat: Catalogue) -> str:
    """The catalogue as text, group by group, escaped and each value at most MAX_LINE_CHARS."""
    pack = cat.pack
    counts = {kind: len(pack.components[kind]) for kind in COMPONENT_KINDS if pack.components[kind]}
    players = f"{cat.players[0]} players" if len(cat.players) == 1 else f"{cat.players[0]}-{cat.players[-1]} players"
    lines = [f"{pack.name} ({pack.id} {pack.version}): "
             + ", ".join(f"{n} {kind}" for kind, n in counts.items()) + f"; copies for {players}"]
    for title, entries in cat.groups():
        lines += ["", f"== {title} =="]
        for entry in entries:
            lines += entry_lines(entry)
    if cat.left_out:
        lines += ["", f"not dealt at {players}: {', '.join(cat.left_out)}"]
    return "\n".join(safe(_clip(line)) for line in lines)


def entry_lines(entry: Entry) -> list[str]:
    """An entry's heading, then a row per cost, sentence, copies, chain, field and part."""
    head = f"{entry.name} ({entry.id})" + (f" [{entry.colour}]" if entry.colour else "")
    rows = [("cost", entry.cost)] if entry.cost is not None else []
    rows += [("effect" if i == 0 else "", e) for i, e in enumerate(entry.effects)]
    rows += [("copies", copies_line(entry.copies))] if entry.copies else []
    rows += [("chains from", ", ".join(entry.chain_from))] if entry.chain_from else []
    rows += [("chains to", ", ".join(entry.chains_to))] if entry.chains_to else []
    rows += list(entry.fields)
    rows += [(p.label, part_text(p)) for p in entry.parts]
    indent = " " * len("    effect: ")  # a sentence after the first, under the first
    return [head] + [f"    {key}: {value}" if key else indent + value for key, value in rows]


def _clip(line: str) -> str:
    return line if len(line) <= MAX_LINE_CHARS else line[:MAX_LINE_CHARS - 3] + "..."


def as_data(cat: Catalogue) -> dict:
    """The catalogue for `--format json`."""
    pack = cat.pack
    return {"pack": pack.id, "name": pack.name, "version": pack.version, "players": list(cat.players),
            "components": [e.as_dict() for e in cat.entries], "not_dealt": list(cat.left_out)}


# ---- the command


def add_parser(commands) -> None:
    p = commands.add_parser(
        "cards", help="every component of a pack as a designer reads it (text, JSON or an HTML gallery)",
        description="Show every component of a pack: name, colour, cost, effect in words, copies per player "
                    "count, chains, and the parts (sides, stages, boxes) with their own costs and effects. "
                    "--format html writes one self-contained page, grouped by kind, age and colour.")
    p.add_argument("pack", metavar="PACK", help="a shipped pack id or a pack folder")
    p.add_argument("--players", type=positive_int, help="copies at this player count only (default: every count)")
    p.add_argument("--format", choices=("text", "json", "html"), default="text")
    p.set_defaults(run=main)


def main(args) -> int:
    """`wonderforge cards`; returns the exit status."""
    try:
        pack = open_pack(args.pack)
    except Usage as err:
        return fail("cards", str(err), err.hint)
    except LoadError as err:
        output.write_errors(err.diagnostics, args.format == "json")
        return 1
    low, high = pack.rules["players"]["min"], pack.rules["players"]["max"]
    if args.players is not None and not low <= args.players <= high:
        return fail("cards", f"{pack.id} plays with {low} to {high} players, not {args.players}",
                    f"give --players from {low} to {high}, or leave it out for every count")
    cat = catalogue(pack, args.players)
    if args.format == "json":
        print(output.dumps(as_data(cat)))
    elif args.format == "html":
        sys.stdout.write(page(cat))
    else:
        print(render(cat))
    return 0

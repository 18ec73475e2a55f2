"""A pack's components as a designer reads them, for `wonderforge cards` (text, JSON) and its HTML
gallery (gallery.py).

Each component with its name, colour, cost, effect (each sentence as the language says it back,
dsl/printer.py), its copies by player count, the cards it chains from and to, its other fields,
and its parts (a wonder's sides and stages, a board's buildings and boxes) each with its own cost
and effect. The copies come from the data alone: a component's `copies` (per deck, a least player
count per copy, or a plain number), the decks rules.yaml fills (`decks`) and other components' own
decks (an Architects wonder's `deck`). Components are grouped by kind, then cards by deck (an age)
and colour.
"""

from __future__ import annotations

from typing import Any, Iterator

import attrs

from ...dsl.printer import show
from ...interpreter.packs.model import Pack
from ...interpreter.packs.schemas import COMPONENT_KINDS, NAMES_OF

# Fields a component shows in its own rows; the others are listed as they are written.
OWN_FIELDS = ("id", "name", "colour", "cost", "effect", "copies", "chain_from", "reconstructed", "reason")
# Fields of a part (a stage, a box) that make it one.
PART_FIELDS = ("cost", "effect", "objective", "condition", "first_bonus", "vp")
HELD = "deck of "  # how the copies held in another component's deck are labelled


@attrs.frozen
class Copies:
    """How many copies of a component one source holds at each player count: `label` names the
    source (`age 1`, `central_deck`, `deck of alexandria`, or "" for the component's own count)."""

    label: str
    deck: str | None            # the deck key of `copies` (`1`), None for other sources
    counts: tuple[tuple[int, int], ...]  # (players, copies) for each count shown

    def total(self) -> int:
        return sum(n for _, n in self.counts)


@attrs.frozen
class Part:
    """A part of a component with its own cost or effect: `side a, stage 1`, `building wonder, box 2`."""

    label: str
    cost: str | None
    effects: tuple[str, ...]
    fields: tuple[tuple[str, str], ...]


@attrs.frozen
class Entry:
    """One component as a designer reads it."""

    kind: str
    id: str
    name: str
    colour: str | None
    cost: str | None
    effects: tuple[str, ...]
    copies: tuple[Copies, ...]
    chain_from: tuple[str, ...]
    chains_to: tuple[str, ...]
    fields: tuple[tuple[str, str], ...]
    parts: tuple[Part, ...]

    def as_dict(self) -> dict:
        """The entry as plain data for `--format json`."""
        out = attrs.asdict(self, recurse=False)
        out["copies"] = [{"source": c.label, "deck": c.deck, "by_players": {str(n): k for n, k in c.counts}}
                         for c in self.copies]
        out["fields"] = dict(self.fields)
        out["parts"] = [{"label": p.label, "cost": p.cost, "effects": list(p.effects), "fields": dict(p.fields)}
                        for p in self.parts]
        return {k: list(v) if isinstance(v, tuple) else v for k, v in out.items()}


@attrs.frozen
class Catalogue:
    """A pack's entries, the player counts their copies are given for, and the groups to show."""

    pack: Pack
    players: tuple[int, ...]
    entries: tuple[Entry, ...]
    left_out: tuple[str, ...]  # components without a copy at the one player count asked

    def groups(self) -> list[tuple[str, list[Entry]]]:
        """(title, entries): kind by kind; cards by deck (each numbered deck it has copies in, as
        an age), then by colour, in the pack's order of colours."""
        keyed: dict[tuple, list[Entry]] = {}
        for entry in self.entries:
            decks = [c.deck for c in entry.copies if c.deck is not None and c.total()] or [None]
            colour = entry.colour if NAMES_OF[entry.kind] == "card" else None  # a die's colour is its name
            for deck in decks:
                keyed.setdefault((entry.kind, deck, colour), []).append(entry)
        colours = list((self.pack.rules.get("vocabulary") or {}).get("colours") or [])
        def order(key):
            kind, deck, colour = key
            return (COMPONENT_KINDS.index(kind), _deck_order(deck),
                    colours.index(colour) if colour in colours else len(colours), str(colour))
        return [(self.title(*key), keyed[key]) for key in sorted(keyed, key=order)]

    def title(self, kind: str, deck: str | None, colour: str | None) -> str:
        words = [w for w in (deck is not None and deck_label(self.pack, deck), colour) if w]
        return kind + (f": {', '.join(words)}" if words else "")


def _deck_order(deck: str | None) -> tuple:
    return (0, int(deck), "") if deck and deck.isdigit() else (1, 0, deck or "")


def deck_label(pack: Pack, deck: str) -> str:
    """A deck key of `copies` as a designer says it: `age 1` when the pack names a period, else `deck 1`."""
    periods = (pack.rules.get("vocabulary") or {}).get("periods") or []
    word = periods[0] if periods and isinstance(periods[0], str) else "deck"
    return f"{word} {deck}"


def catalogue(pack: Pack, players: int | None = None) -> Catalogue:
    """Every component of the pack as an Entry; with `players`, copies at that count only, and the
    components it deals none of left out."""
    bounds = pack.rules["players"]
    counts = (players,) if players is not None else tuple(range(bounds["min"], bounds["max"] + 1))
    held = _held(pack)
    entries, left_out = [], []
    for kind in COMPONENT_KINDS:
        chained = _chained_to(pack, kind)
        for component in pack.components[kind].values():
            entry = _entry(pack, component, counts, held.get((kind, component.id), []), chained)
            if players is not None and entry.copies and not any(c.total() for c in entry.copies):
                left_out.append(entry.id)
            else:
                entries.append(entry)
    return Catalogue(pack, counts, tuple(entries), tuple(left_out))


def _entry(pack: Pack, component, counts: tuple[int, ...], held: list, chained: dict) -> Entry:
    data = component.data
    return Entry(
        kind=component.kind, id=component.id, name=str(data.get("name", component.id)),
        colour=data["colour"] if isinstance(data.get("colour"), str) else None,
        cost=_text(data.get("cost")), effects=_effects(component, ("effect",)),
        copies=tuple(_own_copies(pack, data.get("copies"), counts)) + tuple(
            Copies(label, None, tuple((n, k) for n in counts)) for label, k in held),
        chain_from=tuple(str(c) for c in data.get("chain_from") or ()),
        chains_to=tuple(chained.get(component.id, ())),
        fields=tuple(_fields(component, data, (), OWN_FIELDS)),
        parts=tuple(_parts(component, data, (), "")))


def _own_copies(pack: Pack, copies, counts: tuple[int, ...]) -> Iterator[Copies]:
    """A component's `copies`: a number, or per deck a number or a least player count per copy."""
    if isinstance(copies, int):
        yield Copies("", None, tuple((n, copies) for n in counts))
    elif isinstance(copies, dict):
        for deck, least in copies.items():
            yield Copies(deck_label(pack, str(deck)), str(deck), tuple((n, _copies_at(least, n)) for n in counts))


def _copies_at(least, players: int) -> int:
    """The copies of one deck's entry at a player count: a plain number, or the least counts met."""
    if isinstance(least, int):
        return least
    return sum(1 for m in least if isinstance(m, int) and m <= players) if isinstance(least, list) else 0


def _held(pack: Pack) -> dict[tuple[str, str], list[tuple[str, int]]]:
    """(kind, id) -> (source, copies) of the decks that hold components by id: rules.yaml `decks`
    (cards, by zone) and components' own `deck` (an Architects wonder's cards)."""
    out: dict[tuple[str, str], list[tuple[str, int]]] = {}
    decks = pack.rules.get("decks")
    for zone, content in decks.items() if isinstance(decks, dict) else ():
        for card, n in content.items() if isinstance(content, dict) else ():
            out.setdefault(("cards", card), []).append((str(zone), n))
    for kind in COMPONENT_KINDS:
        for holder in pack.components[kind].values():
            deck = holder.data.get("deck")
            for card, n in deck.items() if isinstance(deck, dict) else ():
                out.setdefault(("cards", card), []).append((f"{HELD}{holder.id}", n))
    return out


def _chained_to(pack: Pack, kind: str) -> dict[str, list[str]]:
    """id -> the components of the kind that chain from it."""
    out: dict[str, list[str]] = {}
    for component in pack.components[kind].values():
        for other in component.data.get("chain_from") or ():
            out.setdefault(str(other), []).append(component.id)
    return out


def _effects(component, path: tuple) -> tuple[str, ...]:
    """The sentences of an effect field as the language says them back, else as written."""
    compiled = component.compiled.get(path)
    if isinstance(compiled, tuple) and all(e.node is not None for e in compiled):
        return tuple(show(e.node) for e in compiled)
    text = _text(_at(component.data, path))
    return tuple(line.strip() for line in text.splitlines() if line.strip()) if text else ()


def _at(data, path: tuple):
    for step in path:
        data = data.get(step) if isinstance(data, dict) else data[step] if isinstance(data, list) else None
    return data


def _text(value) -> str | None:
    return None if value is None or isinstance(value, (dict, list)) else str(value).strip()


def _fields(component, data: dict, path: tuple, skip: tuple[str, ...]) -> Iterator[tuple[str, str]]:
    """The plain fields of a component or a part, as text: sentences said back, lists and mappings
    of plain values on one line, `reconstructed` with its reason; translations (`name_fr`) left out."""
    for key, value in data.items():
        if key in skip or str(key).startswith("name_") or _container_of_parts(value):
            continue
        if key in ("effect", "first_bonus"):
            yield str(key), "; ".join(_effects(component, path + (key,)))
        else:
            yield str(key), _plain(value)
    if data.get("reconstructed"):
        yield "reconstructed", str(data.get("reason") or "yes")


def _plain(value) -> str:
    """A plain value, or a list or mapping of them, on one line: `true`, `1, 2`, `gold 4, stone 2`,
    `none` for an empty one."""
    if isinstance(value, dict):
        return ", ".join(f"{k} {_plain(v)}" for k, v in value.items()) or "none"
    if isinstance(value, list):
        return ", ".join(map(_plain, value)) or "none"
    return str(value).lower() if isinstance(value, bool) else str(value).strip()


def _container_of_parts(value) -> bool:
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    return bool(items) and all(isinstance(v, dict) for v in items)


def _parts(component, data: dict, path: tuple, label: str) -> Iterator[Part]:
    """The parts inside `data`, depth first: each mapping of a list or a mapping of mappings
    (`stages`, `sides`, `boxes`) that holds a cost, an effect or a plain field."""
    for key, value in data.items():
        if not _container_of_parts(value):
            continue
        children = value.items() if isinstance(value, dict) else enumerate(value)
        for step, child in children:
            tag = child.get("id") if isinstance(child.get("id"), str) else step + 1 if isinstance(step, int) else step
            here = ", ".join(filter(None, (label, f"{_singular(str(key))} {tag}")))
            at = path + (key, step)
            fields = tuple(_fields(component, child, at, ("id", "cost", "effect", "reconstructed", "reason")))
            if any(f in child for f in PART_FIELDS) or fields:
                yield Part(here, _text(child.get("cost")), _effects(component, at + ("effect",)), fields)
            yield from _parts(component, child, at, here)


def _singular(word: str) -> str:
    """`stages` -> `stage`, `boxes` -> `box`, `sides` -> `side`."""
    if word.endswith("xes"):
        return word[:-2]
    return word[:-1] if word.endswith("s") else word


def copies_text(copies: Copies) -> str:
    """`age 1: 1 at 3-4, 2 at 5-7 players`, `central_deck: 6`, or `3`."""
    runs: list[list[int]] = []  # [first count, last count, copies]
    for n, k in copies.counts:
        if runs and runs[-1][2] == k:
            runs[-1][1] = n
        else:
            runs.append([n, n, k])
    if len(runs) == 1:
        said = str(runs[0][2])
    else:
        said = ", ".join(f"{k} at {a}-{b}" if a != b else f"{k} at {a}" for a, b, k in runs if k) + " players"
    return f"{copies.label}: {said}" if copies.label else said


def copies_line(copies: tuple[Copies, ...]) -> str:
    """The copies of every source in one line; the decks of several holders said together
    (`decks of alexandria 4, babylon 3`)."""
    own = [copies_text(c) for c in copies if not c.label.startswith(HELD)]
    held = [c for c in copies if c.label.startswith(HELD)]
    if held:
        own.append("decks of " + ", ".join(f"{c.label.removeprefix(HELD)} {c.counts[0][1]}" for c in held))
    return "; ".join(own)


def part_text(part: Part) -> str:
    """A part on one line: `cost 2 stone; vp 3; requires 1`."""
    pieces = ([f"cost {part.cost}"] if part.cost is not None else []) + list(part.effects)
    pieces += [f"{k}: {v}" if k == "reconstructed" else f"{k} {v}" for k, v in part.fields]
    return "; ".join(pieces)

"""Partial overrides: a pack.yaml `modify:` entry laid over a component of a base.

An entry (`modify: {cards: {lighthouse: {cost: glass + 2 stone}}}`) is merged over the component
the bases give: a mapping merges key by key, `null` takes a field out, a mapping of numbers laid
over a list changes that list's items by position (counted from 1, as stages are), anything else
replaces the base's value whole. A number written quoted (`"2"`) means the number: YAML reads it
as text, but a modder writes it for the base's deck 2 or stage 2. The result remembers, for every
value the entry wrote, where the entry wrote it (`Patch.written`), so that an error in it is shown
in the modder's pack.yaml.
"""

from __future__ import annotations

from typing import Any

import attrs

from .yamlsource import Source


@attrs.frozen(eq=False)  # compared and hashed as itself: it holds a mapping
class Patch:
    """One `modify:` entry applied: the pack.yaml holding it, where it stands there
    (`("modify", kind, id)`), the pack writing it, and each path of the merged data it wrote ->
    (its path in the pack.yaml, whether it wrote that value whole)."""

    source: Source
    path: tuple
    pack: str
    written: dict[tuple, tuple[tuple, bool]]  # paths in the pack.yaml taken from the entry's

    def locate(self, field: tuple) -> tuple[tuple, bool]:
        """Where in the pack.yaml the entry wrote a field of the component, or the nearest value
        above it that it wrote, and whether that is the field itself (or a whole value holding it)."""
        for n in range(len(field), -1, -1):
            hit = self.written.get(field[:n])
            if hit is not None:
                where, whole = hit
                covered = n == len(field) or whole
                return self.path + (where + field[n:] if covered else where), covered
        return self.path, False


@attrs.frozen
class Problem:
    """A key of an entry that cannot be laid over its base: where in the entry, why, a hint."""

    path: tuple
    message: str
    hint: str


def overlay(base: dict, entry: dict, before: tuple[Patch, ...] = ()) -> tuple[dict, dict, list[Problem]]:
    """The component data `base` with `entry` laid over it, what it wrote (see `Patch.written`)
    and the keys it could not lay; `before` are the entries already laid over `base`, named when
    one of them took out what this one takes out."""
    layer = _Layer(before)
    merged = layer.lay(base, entry, (), ())
    return merged, layer.written, layer.problems


class _Layer:
    """One entry being laid: what it wrote and what it could not lay. Paths `at` are in the merged
    data, paths `where` in the entry (its keys as written)."""

    def __init__(self, before: tuple[Patch, ...]):
        self.before = before
        self.written: dict[tuple, tuple[tuple, bool]] = {}
        self.problems: list[Problem] = []

    def lay(self, base: Any, over: Any, at: tuple, where: tuple) -> Any:
        """`over` laid on `base`."""
        if isinstance(over, dict) and isinstance(base, (dict, list)):
            self.written[at] = (where, False)
            if not over and where:  # `altar: {}` itself is the schema's to refuse
                self.problem(where, f"{_named(where)} is empty: it changes nothing",
                             "give it the keys to change, or take it out")
            return self.merge(base, over, at, where) if isinstance(base, dict) else self.items(base, over, at, where)
        self.written[at] = (where, True)
        return over

    def merge(self, base: dict, over: dict, at: tuple, where: tuple) -> dict:
        out, seen = dict(base), {}
        for written, value in over.items():
            key = _same_key(base, written)
            if key in seen:
                self.problem(where + (written,), f"{_named(where + (written,))} is written twice, as "
                             f"{seen[key]!r} and {written!r}", "a quoted number names what the number names: keep one")
                continue
            seen[key] = written
            if value is None:
                self.take_out(out, at + (key,), where + (written,))
            else:
                out[key] = self.lay(base.get(key), value, at + (key,), where + (written,))
        return out

    def take_out(self, out: dict, at: tuple, where: tuple) -> None:
        """A null: the base's value at `at` taken out of `out`. Taking out what is not there would
        change nothing: a problem, naming the earlier entry that took it out (it wrote it whole,
        and it is gone)."""
        self.written[at] = (where, True)
        if out.pop(at[-1], None) is not None:
            return
        taker = next((p.pack for p in reversed(self.before) if p.written.get(at, ((), False))[1]), None)
        earlier = f": {taker} already takes it out" if taker else ""
        self.problem(where, f"{_named(where)} has no value to take out{earlier}",
                     "leave the key out: null takes a field of the base out")

    def items(self, base: list, over: dict, at: tuple, where: tuple) -> list:
        out = list(base)
        for written, value in over.items():
            n = _number(written)
            if n is None or not 1 <= n <= len(base) or value is None:
                self.problems.append(_item_problem(where, written, n, len(base)))
            else:
                out[n - 1] = self.lay(base[n - 1], value, at + (n - 1,), where + (written,))
        return out

    def problem(self, where: tuple, message: str, hint: str) -> None:
        self.problems.append(Problem(where, message, hint))


def _same_key(base: dict, key: Any) -> Any:
    """The base's key that `key` names: itself, else the number it writes quoted or the text of
    the number it writes (`"2"` and `2`)."""
    if key in base or isinstance(key, bool) or not isinstance(key, (int, str)):
        return key
    return next((k for k in base if not isinstance(k, bool) and isinstance(k, (int, str))
                 and type(k) is not type(key) and str(k) == str(key)), key)


def _number(key: Any) -> int | None:
    """An item number written as a number or quoted (`2`, `"2"`), else None."""
    if isinstance(key, int) and not isinstance(key, bool):
        return key
    if isinstance(key, str) and key.isascii() and key.isdigit() and str(int(key)) == key:
        return int(key)
    return None


def _item_problem(where: tuple, key: Any, n: int | None, size: int) -> Problem:
    """Why an item `key` (its number `n`, if it is one) cannot be laid over a list of `size` items."""
    whole = "to add, take out or reorder items, write the whole list"
    name = _named(where)
    if n is not None and 1 <= n <= size:  # a null
        return Problem(where + (key,), f"item {n} of {name} cannot be taken out by its number", whole)
    if n is not None:
        return Problem(where + (key,), f"{name} has {size} item{'s' * (size != 1)}: there is no item {n}",
                       f"an item is changed by its number, from 1 to {size}; {whole}")
    return Problem(where + (key,), f"{name} is a list: its items are changed by number, not by '{key}'",
                   f"write the item's number, from 1 to {size}; {whole}")


def _named(where: tuple) -> str:
    """A field as the entry writes it: `sides.a.stages.2.cost`."""
    return ".".join(map(str, where)) or "the component"


def field_name(cid: str, data: Any, field: tuple) -> str:
    """A field of a component's data as a `modify:` entry addresses it, after the component's id:
    `giza.sides.a.stages.2.cost`, a list's items counted from 1 (the data's indexes count from 0)."""
    words = [cid]
    for step in field:
        words.append(str(step + 1) if isinstance(data, list) and isinstance(step, int) else str(step))
        data = data[step] if isinstance(data, (dict, list)) and _holds(data, step) else None
    return ".".join(words)


def _holds(data: dict | list, step: Any) -> bool:
    return step in data if isinstance(data, dict) else isinstance(step, int) and 0 <= step < len(data)

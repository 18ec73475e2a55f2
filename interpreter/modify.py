"""Partial overrides: a pack.yaml `modify:` entry laid over a component of a base.

An entry (`modify: {cards: {lighthouse: {cost: glass + 2 stone}}}`) is merged over the component
the bases give: a mapping merges key by key, `null` takes a field out, a mapping of numbers laid
over a list changes that list's items by position (counted from 1, as stages are), anything else
replaces the base's value whole. The result remembers, for every value the entry wrote, where the
entry wrote it (`Patch.written`), so that an error in it is shown in the modder's pack.yaml.
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


def overlay(base: dict, entry: dict) -> tuple[dict, dict, list[Problem]]:
    """The component data `base` with `entry` laid over it, what it wrote (see `Patch.written`)
    and the keys it could not lay."""
    written: dict[tuple, tuple[tuple, bool]] = {}
    problems: list[Problem] = []
    merged = _lay(base, entry, (), (), written, problems)
    return merged, written, problems


def _lay(base: Any, over: Any, at: tuple, where: tuple, written: dict, problems: list) -> Any:
    """`over` laid on `base`; `at` is their path in the merged data, `where` in the entry."""
    if isinstance(over, dict) and isinstance(base, dict):
        written[at] = (where, False)
        out = dict(base)
        for key, value in over.items():
            if value is None:
                written[at + (key,)] = (where + (key,), True)
                if out.pop(key, None) is None:  # taking out what is not there would change nothing
                    problems.append(Problem(where + (key,), f"{_named(where + (key,))} has no value to take out",
                                            "leave the key out: null takes a field of the base out"))
            else:
                out[key] = _lay(base.get(key), value, at + (key,), where + (key,), written, problems)
        return out
    if isinstance(over, dict) and isinstance(base, list):
        written[at] = (where, False)
        out = list(base)
        for key, value in over.items():
            if isinstance(key, bool) or not isinstance(key, int) or not 1 <= key <= len(base) or value is None:
                problems.append(_item_problem(where, key, value, len(base)))
            else:
                out[key - 1] = _lay(base[key - 1], value, at + (key - 1,), where + (key,), written, problems)
        return out
    written[at] = (where, True)
    return over


def _item_problem(where: tuple, key: Any, value: Any, size: int) -> Problem:
    whole = "to add, take out or reorder items, write the whole list"
    name = _named(where)
    if isinstance(key, int) and not isinstance(key, bool) and 1 <= key <= size:  # a null
        return Problem(where + (key,), f"item {key} of {name} cannot be taken out by its number", whole)
    if isinstance(key, int) and not isinstance(key, bool):
        return Problem(where + (key,), f"{name} has {size} item{'s' * (size != 1)}: there is no item {key}",
                       f"an item is changed by its number, from 1 to {size}; {whole}")
    return Problem(where + (key,), f"{name} is a list: its items are changed by number, not by '{key}'",
                   f"write the item's number, from 1 to {size}; {whole}")


def _named(where: tuple) -> str:
    """A field as the entry writes it: `sides.a.stages.2.cost`."""
    return ".".join(map(str, where)) or "the component"

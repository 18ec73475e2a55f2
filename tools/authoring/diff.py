"""`wonderforge diff A B`: what pack B changes from pack A.

Components are compared by kind and id (added, removed, or changed field by field: `effect`,
`copies.1`, `sides.a.stages[0].cost`), then the merged rules.yaml key by key (`players.max`). A
text is the same when only its surrounding blanks differ. At most `MAX_CHANGES` differences are
shown, the rest counted; `simulate --against` prints the same before its comparison.
"""

from __future__ import annotations

import json
import sys
from typing import Any, Iterator

import attrs

from ...dsl.diagnostics import safe
from ...dsl.limits import MAX_CHANGES
from ...interpreter.packs.model import LoadError, Pack
from ...interpreter.packs.schemas import COMPONENT_KINDS
from ..common import output
from ..common.arguments import Usage, fail, open_pack

RULES = "rules.yaml"  # the section of the rules' differences
MAX_VALUE_CHARS = 60  # characters of a value shown in text; --format json gives it whole


@attrs.frozen
class Change:
    """One difference: a component added or removed (`field` None, `name` its name), a field of one
    changed, or a rules.yaml key (`before` and `after` its values, None on the side that lacks it)."""

    section: str          # a component kind, or RULES
    id: str | None        # the component's id (None for the rules)
    field: str | None     # where in the component or the rules: `sides.a.stages[0].effect`
    status: str           # "added", "removed" or "changed"
    before: Any = None
    after: Any = None
    name: str | None = None

    def as_dict(self) -> dict:
        """The change as plain data for `--format json`: a whole component's `name`, a field's
        `before` (unless added) and `after` (unless removed)."""
        out = {"section": self.section, "id": self.id, "field": self.field, "status": self.status}
        if self.field is None and self.section != RULES:
            return out | {"name": self.name}
        if self.status != "added":
            out["before"] = self.before
        if self.status != "removed":
            out["after"] = self.after
        return out


def pack_diff(a: Pack, b: Pack) -> list[Change]:
    """Every difference from A to B: components kind by kind (A's order, then what B adds), then
    the rules."""
    changes = []
    for kind in COMPONENT_KINDS:
        old, new = a.components[kind], b.components[kind]
        for cid in [*old, *(c for c in new if c not in old)]:
            if cid not in new:
                changes.append(Change(kind, cid, None, "removed", name=_name(old[cid].data)))
            elif cid not in old:
                changes.append(Change(kind, cid, None, "added", name=_name(new[cid].data)))
            else:
                changes += _fields(kind, cid, _without_id(old[cid].data), _without_id(new[cid].data))
    return changes + _fields(RULES, None, a.rules, b.rules)


def _name(data: dict) -> str | None:
    return data["name"] if isinstance(data.get("name"), str) else None


def _without_id(data: dict) -> dict:
    return {k: v for k, v in data.items() if k != "id"}


def _fields(section: str, cid: str | None, before: Any, after: Any) -> list[Change]:
    """The leaves that differ between two values, each a Change."""
    old, new = dict(_leaves(before, ())), dict(_leaves(after, ()))
    out = []
    for path in [*old, *(p for p in new if p not in old)]:
        field = dotted(path)
        if path not in new:
            out.append(Change(section, cid, field, "removed", old[path]))
        elif path not in old:
            out.append(Change(section, cid, field, "added", None, new[path]))
        elif _normal(old[path]) != _normal(new[path]):
            out.append(Change(section, cid, field, "changed", old[path], new[path]))
    return out


def _leaves(data: Any, path: tuple) -> Iterator[tuple[tuple, Any]]:
    """(path, value) of every leaf: a mapping is opened key by key (keys as text: `{1: [3]}` and
    `{"1": [3]}` say the same), a list holding mappings or lists item by item; other values,
    lists of plain values among them, are leaves."""
    if isinstance(data, dict) and data:
        for key, value in data.items():
            yield from _leaves(value, path + (str(key),))
    elif isinstance(data, list) and any(isinstance(v, (dict, list)) for v in data):
        for i, value in enumerate(data):
            yield from _leaves(value, path + (i,))
    else:
        yield path, data


def _normal(value: Any) -> Any:
    """A value as compared: texts without their surrounding blanks, true/false apart from 1/0."""
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, list):
        return [_normal(v) for v in value]
    return value


def dotted(path: tuple) -> str:
    """A path as an author reads it: `sides.a.stages[0].effect`."""
    out = ""
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else f".{step}" if out else str(step)
    return out


# ---- output


def as_data(changes: list[Change], a: Pack, b: Pack) -> dict:
    """The differences for `--format json`: the packs compared, at most MAX_CHANGES changes, how
    many there were in all and how many were left out."""
    return {"a": _identity(a), "b": _identity(b), "differences": len(changes),
            "changes": [c.as_dict() for c in changes[:MAX_CHANGES]], "omitted": max(0, len(changes) - MAX_CHANGES)}


def _identity(pack: Pack) -> dict:
    return {"id": pack.id, "version": pack.version, "folder": str(pack.folder)}


def render(changes: list[Change], a: Pack, b: Pack, labels: tuple[str, str] | None = None) -> str:
    """The differences as text, grouped by kind and component, escaped; at most MAX_CHANGES."""
    names = labels or (a.id, b.id)
    n = len(changes)
    lines = [f"A = {_named(names[0], a)}, B = {_named(names[1], b)}: "
             + (f"{n} difference{'s' * (n != 1)}" if n else "no differences")]
    shown = changes[:MAX_CHANGES]
    section = owner = None
    for change in shown:
        if change.section != section:
            section, owner = change.section, None
            lines.append(f"{section}: {_tally([c for c in changes if c.section == section])}")
        lines += _lines(change, owner)
        owner = change.id
    if n > len(shown):
        lines.append(f"... and {n - len(shown):,} more differences not shown: only the first {MAX_CHANGES} are")
    return "\n".join(safe(line) for line in lines)


def _named(label: str, pack: Pack) -> str:
    """`7-wonders 1.0.0`, or `mods/x (x 0.1.0)` for a pack given by its folder."""
    return f"{pack.id} {pack.version}" if label == pack.id else f"{label} ({pack.id} {pack.version})"


def _tally(changes: list[Change]) -> str:
    """`2 changed, 1 added`: components (or rules keys) by what happened to them."""
    status: dict[str | None, str] = {}
    for c in changes:
        key = c.field if c.section == RULES else c.id
        status[key] = c.status if c.field is None or c.section == RULES else "changed"
    counts = {s: list(status.values()).count(s) for s in ("changed", "added", "removed")}
    return ", ".join(f"{n} {s}" for s, n in counts.items() if n)


_MARKS = {"added": "+", "removed": "-", "changed": "~"}


def _lines(change: Change, owner: str | None) -> list[str]:
    """A change's lines: its component's heading when it starts one, then the change."""
    mark = _MARKS[change.status]
    if change.section == RULES:
        return [f"  {mark} {change.field}: {_values(change)}"]
    if change.field is None:
        return [f"  {mark} {change.id}" + (f" ({_clip(change.name.strip())})" if change.name else "")]
    heading = [f"  ~ {change.id}"] if change.id != owner else []
    return heading + [f"      {mark} {change.field}: {_values(change)}"]


def _values(change: Change) -> str:
    if change.status == "added":
        return _shown(change.after)
    if change.status == "removed":
        return f"{_shown(change.before)} (removed)"
    return f"{_shown(change.before)} -> {_shown(change.after)}"


def _shown(value: Any) -> str:
    """A value on one line, at most MAX_VALUE_CHARS characters: texts quoted, line ends as `\\n`."""
    return _clip(json.dumps(value.strip() if isinstance(value, str) else value, ensure_ascii=False, default=str))


def _clip(text: str) -> str:
    return text if len(text) <= MAX_VALUE_CHARS else text[:MAX_VALUE_CHARS - 3] + "..."


# ---- the command


def add_parser(commands) -> None:
    p = commands.add_parser(
        "diff", help="what pack B changes from pack A, component by component and field by field",
        description="List what was added, removed and changed from pack A to pack B: components by kind and id, "
                    "field by field, then the merged rules.yaml key by key. Exit status 0 whatever the "
                    "differences, 1 when a pack has errors, 2 for a bad command line.")
    p.add_argument("a", metavar="A", help="a shipped pack id or a pack folder")
    p.add_argument("b", metavar="B", help="a shipped pack id or a pack folder")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(run=main)


def main(args) -> int:
    """`wonderforge diff`; returns the exit status."""
    try:
        a, b = open_pack(args.a), open_pack(args.b)
    except Usage as err:
        return fail("diff", str(err), err.hint)
    except LoadError as err:
        output.write_errors(err.diagnostics, args.format == "json")
        return 1
    changes = pack_diff(a, b)
    if args.format == "json":
        print(output.dumps(as_data(changes, a, b)))
    else:
        print(render(changes, a, b, (args.a, args.b)))
    return 0

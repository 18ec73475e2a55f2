"""`wonderforge new ID --extends PACK [--out DIR]`: a new pack folder to start a mod from.

The folder holds pack.yaml (extending PACK, a shipped pack, with commented `remove:` and `modify:`
examples), a rules.yaml of one key as the base has it, and one file per kind of component the base
has, each with one example: a copy of one of the base's components as it is (same id, so it stands
in for that one, unchanged), with a small change to try said in a comment (its points raised by one
where its effect scores points, else its name). So a fresh pack plays exactly as its base until
its designer changes something. Every file names its schema on its first line, by a path inside
the new folder: the schemas are copied to its `schemas/`, so the line keeps working whatever
becomes of the installed package. Each file says in comments what it is for. The pack is checked
once written: it checks clean.
"""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
import sys
import tempfile
import textwrap
from pathlib import Path

import yaml

from ...dsl.diagnostics import did_you_mean, safe
from ...interpreter.games.check import check_pack, load_pack
from ...interpreter.packs.folders import CONTENT, SCHEMAS, shipped_packs
from ...interpreter.packs.model import Component, Pack
from ...interpreter.packs.schemas import COMPONENT_KINDS, one_kind
from ..common import output
from ..common.outfile import OutError, Refused, guard
from ..common.arguments import Usage, fail

PACK_ID = re.compile(json.loads((SCHEMAS / "pack.schema.json").read_text(encoding="utf-8"))
                     ["properties"]["id"]["pattern"])
VERSION = "0.1.0"
OWN_SCHEMAS = "schemas"  # the folder of the pack's copies of the schemas its files name
# The fields of a component whose sentences may score points (the example raises them by one).
EFFECT_FIELDS = ("effect", "first_bonus")


def add_parser(commands) -> None:
    p = commands.add_parser(
        "new", help="write a new pack folder extending a shipped pack, to start a mod from",
        description="Write a new pack folder: pack.yaml extending PACK, rules.yaml, one example per kind of "
                    "component PACK has (a copy of one of PACK's, with a small change to try said in a comment), "
                    "and the JSON Schemas its files name, in schemas/. The pack plays exactly as PACK until you "
                    "change it, and checks clean; change it, then run `wonderforge check` on it.")
    p.add_argument("id", metavar="ID", help="the new pack's id: lowercase letters, digits, '-' and '_'")
    p.add_argument("--extends", required=True, metavar="PACK", help="the shipped pack it builds on, e.g. 7-wonders")
    p.add_argument("--out", metavar="DIR", help="the folder to write (default ./ID); it must be new or empty")
    p.set_defaults(run=main)


def main(args) -> int:
    """`wonderforge new`; returns the exit status."""
    folder = Path(args.out) if args.out is not None else Path(args.id)
    try:
        _refuse_id(args.id)
        _refuse_base(args.extends)
        _refuse_folder(folder, args.extends)
        base = load_pack(args.extends)
        files = template(args.id, base, folder)
        write(folder, files)
    except (Usage, Refused) as err:
        return fail("new", str(err), err.hint)
    except OutError as err:
        return fail("new", str(err), status=1)
    except OSError as err:
        return fail("new", f"cannot write {str(folder)!r}: {err.strerror or err}", status=1)
    written = [name for name in files if "/" not in name] + [f"{OWN_SCHEMAS}/"]
    print(safe(f"wrote {folder}{os.sep} (extends {base.id}): {', '.join(written)}"))
    return _checked(folder, base)


def _checked(folder: Path, base: Pack) -> int:
    """Check the pack written: clean, as the template is, unless a folder beside it holding a pack
    named like the base stands in for the shipped one (a base is looked for there first)."""
    beside = folder.parent / base.id
    stand_in = (beside / "pack.yaml").is_file() and beside.resolve() != base.folder.resolve()
    if stand_in:
        print(safe(f"wonderforge new: note: {beside} is the pack {folder} extends, not the shipped {base.id}: "
                   "a base is looked for beside the pack first"), file=sys.stderr)
    _, diagnostics = check_pack(folder.resolve())
    if diagnostics:
        output.write_text(diagnostics, sys.stderr)
        return fail("new", "the new pack does not check clean", f"it extends {beside}: write it elsewhere to extend "
                    f"the shipped {base.id}" if stand_in else "this is a WonderForge bug: please report it", 1)
    print(safe(f"checked: no problems found. Next: change it, then `wonderforge check {folder}`"))
    return 0


# ---- what is refused


def _refuse_id(pack_id: str) -> None:
    if not PACK_ID.fullmatch(pack_id):
        raise Usage(f"{pack_id!r} is not a pack id", "a pack id is lowercase letters, digits, '-' and '_', "
                      f"starting with a letter or a digit: e.g. {_suggested_id(pack_id)!r}")
    if (CONTENT / pack_id / "pack.yaml").is_file():
        raise Usage(f"{pack_id!r} is the id of a shipped pack", "choose an id of your own, e.g. "
                      f"{pack_id + '-mod'!r}: a pack is known by its id")


def _suggested_id(text: str) -> str:
    word = re.sub(r"[^a-z0-9_-]+", "-", text.lower()).strip("-_")
    return word or "my-pack"


def _refuse_base(base: str) -> None:
    shipped = [p.name for p in shipped_packs()]
    if base not in shipped:
        raise Usage(f"unknown base pack {base!r}", did_you_mean(base, shipped) or f"--extends takes a shipped "
                      f"pack: {', '.join(shipped)}")


def _refuse_folder(folder: Path, base: str) -> None:
    guard(folder)  # never into a pack, nor where the shipped packs are
    if folder.resolve().name in {base} | {p.name for p in shipped_packs()}:
        raise Usage(f"{str(folder)!r} is named like a shipped pack", "a pack's base is looked for beside it "
                    "by that name: give a folder named after your pack with --out")
    if folder.exists() and not folder.is_dir():
        raise Usage(f"{str(folder)!r} exists and is not a folder", "give a new or empty folder with --out")
    if folder.is_dir() and any(folder.iterdir()):
        raise Usage(f"{str(folder)!r} is not empty", "give a new or empty folder with --out: nothing is "
                      "written over what is there")


# ---- the files


def template(pack_id: str, base: Pack, folder: Path) -> dict[str, str]:
    """The new pack's files, by path inside it: pack.yaml, rules.yaml, one per kind the base has,
    then the schemas they name (and a bot file's), in schemas/."""
    kinds = [kind for kind in COMPONENT_KINDS if base.components[kind]]
    examples = {kind: _example(base, kind) for kind in kinds}
    files = {"pack.yaml": _pack_file(pack_id, base, examples), "rules.yaml": _rules_file(base)}
    for kind, (component, change) in examples.items():
        files[f"{kind}.yaml"] = _component_file(kind, base, component, change)
    for kind in ("pack", "rules", *kinds, "bots"):
        files[_schema(kind)] = (SCHEMAS / f"{kind}.schema.json").read_text(encoding="utf-8")
    return files


def _schema(kind: str) -> str:
    """Where the pack's copy of a kind's schema goes, inside it."""
    return f"{OWN_SCHEMAS}/{kind}.schema.json"


def modeline(kind: str) -> str:
    """The first line of a file of this kind: its schema, the pack's own copy."""
    return f"# yaml-language-server: $schema={_schema(kind)}\n"


def _pack_file(pack_id: str, base: Pack, examples: dict) -> str:
    name = " ".join(w.capitalize() for w in re.split(r"[-_]+", pack_id) if w) or pack_id
    removable = "\n".join(f"#   {kind}: [{component.id}]" for kind, (component, _) in examples.items())
    changes = _modify_example(base, examples)
    return modeline("pack") + _comment(
        f"pack.yaml: who this pack is and what it builds on. It extends {base.id} ({base.name}), so every "
        f"component and rule of {base.id} is in it, but for what the other files here replace (same id) or "
        "add (a new id), what `remove:` below drops and what `modify:` below changes. `version` is yours: "
        "raise it as the pack changes."
    ) + _dump({"id": pack_id, "name": name, "version": VERSION, "extends": base.id,
               "description": f"A pack extending {base.name}. Say here what it changes, and why."}) + (
        f"# remove:                  # components of {base.id} to drop from the game, by kind and id:\n"
        f"{removable}\n") + (changes and _comment(
            f"modify: changes some fields of components of {base.id} and keeps the others, by kind, then id, "
            "then field: a mapping merges into the base's, null takes a field out, a list's items are changed "
            "by their number (from 1), any other value replaces the base's. The example raises points by one.")
        + "".join(f"# {line}\n" for line in _dump({"modify": changes}).splitlines()))


def _modify_example(base: Pack, examples: dict) -> dict:
    """A `modify:` of at most two kinds: in each, the first component (not one the other files
    replace) whose effect scores points, raised by one, written as only what changes."""
    counter = (base.rules.get("scoring") or {}).get("counter")
    if not isinstance(counter, str):
        return {}
    points = re.compile(rf"\b{re.escape(counter)} (\d+)\b")
    out = {}
    for kind, (replaced, _) in examples.items():
        for component in base.components[kind].values():
            data = copy.deepcopy(component.data)
            if component.id != replaced.id and _raise_points(data, points):
                out[kind] = {component.id: _changes(component.data, data)}
                break
        if len(out) == 2:
            break
    return out


def _changes(before, after):
    """What `modify:` writes to turn `before` into `after`: only the keys and list items that differ
    (items numbered from 1)."""
    if isinstance(before, dict) and isinstance(after, dict):
        return {k: _changes(before.get(k), v) for k, v in after.items() if before.get(k) != v}
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        return {i + 1: _changes(b, a) for i, (b, a) in enumerate(zip(before, after)) if b != a}
    return after


def _rules_file(base: Pack) -> str:
    players = base.rules.get("players")
    return modeline("rules") + _comment(
        f"rules.yaml: the game's words and structure, merged over the rules of {base.id}: a mapping merges "
        "key by key, anything else replaces the base's value, so write only the keys you change. The example "
        f"repeats the player counts of {base.id}: lower `max` for a variant of fewer players."
    ) + _dump({"players": players})


def _component_file(kind: str, base: Pack, component: Component, change: str) -> str:
    noun = one_kind(kind)
    schema = json.loads((SCHEMAS / f"{kind}.schema.json").read_text(encoding="utf-8"))
    about = schema.get("description", f"The {kind} of a pack.")
    return modeline(kind) + _comment(
        f"{kind}.yaml: {about} Every {noun} of {base.id} is already in this pack. A {noun} written here "
        f"with the id of one of theirs replaces it whole; a new id adds one. The example below is "
        f"{component.id!r} as {base.id} has it, so the game is unchanged: to try a small change, {change}. "
        f"Change it, or write your own below it. `wonderforge cards FOLDER` shows every {noun} as it reads; "
        f"`wonderforge diff {base.id} FOLDER` what this pack changes."
    ) + _dump([component.data])


def _comment(text: str) -> str:
    """Text as comment lines of at most 100 characters, never broken inside `code`."""
    kept = re.sub(r"`[^`]*`", lambda m: m.group(0).replace(" ", "\0"), text)
    return "".join(f"# {line}\n".replace("\0", " ")
                   for line in textwrap.wrap(kept, 98, break_long_words=False, break_on_hyphens=False))


def _example(base: Pack, kind: str) -> tuple[Component, str]:
    """The component of a kind to copy, and a small change to try, in words: in the first whose
    effect scores points, one point more; else the first, renamed."""
    counter = (base.rules.get("scoring") or {}).get("counter")
    components = list(base.components[kind].values())
    if isinstance(counter, str):
        points = re.compile(rf"\b{re.escape(counter)} (\d+)\b")
        for component in components:
            raised = _raise_points(copy.deepcopy(component.data), points)
            if raised:
                return component, f"{raised} (one {counter} more)"
    component = components[0]
    name = component.data.get("name", component.id)
    return component, f"rename it from {name!r} to {name + ', revised'!r}"


def _raise_points(data, points: re.Pattern, where: str = "") -> str | None:
    """Raise the first number of points in an effect field of `data` by one, in place; what it
    changed, in words (`write vp 4 for vp 3 in its sides.a.stages[0].effect`), or None."""
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        at = f"{where}[{key}]" if isinstance(key, int) else f"{where}.{key}" if where else str(key)
        found = points.search(value) if key in EFFECT_FIELDS and isinstance(value, str) else None
        if found:
            data[key] = points.sub(_plus_one, value, 1)
            return f"write `{_plus_one(found)}` for `{found.group(0)}` in its {at}"
        found = _raise_points(value, points, at) if isinstance(value, (dict, list)) else None
        if found:
            return found
    return None


def _plus_one(match: re.Match) -> str:
    """`vp 3` as `vp 4`."""
    return match.group(0)[:match.start(1) - match.start(0)] + str(int(match.group(1)) + 1)


class _Dumper(yaml.SafeDumper):
    """YAML as the shipped packs write it: keys in their order, lists of plain values and mappings
    of numbers on one line (`copies: {1: [3, 5]}`), texts of several lines as literal blocks,
    lists indented under their key."""

    def increase_indent(self, flow=False, indentless=False):
        return super().increase_indent(flow, False)


def _text(dumper: yaml.SafeDumper, text: str):
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style="|" if "\n" in text else None)


def _mapping(dumper: yaml.SafeDumper, data: dict):
    node = dumper.represent_mapping("tag:yaml.org,2002:map", data.items())
    node.flow_style = all(_numbers(v) for v in data.values())
    return node


def _numbers(value) -> bool:
    """A number, or a list of numbers."""
    return isinstance(value, int) or isinstance(value, list) and all(isinstance(v, int) for v in value)


_Dumper.add_representer(str, _text)
_Dumper.add_representer(dict, _mapping)


def _dump(data) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, default_flow_style=None, width=110)


# ---- writing


def write(folder: Path, files: dict[str, str]) -> None:
    """Write the files (by path inside the pack) in a new folder beside `folder`, then move it into
    place; into an empty folder that exists (`.`, say), directly. A failure leaves nothing half
    written. `folder` is new or empty (checked before)."""
    if folder.is_dir():
        try:
            _write_files(folder, files)
        except BaseException:
            for name in files:
                (folder / name).unlink(missing_ok=True)
            shutil.rmtree(folder / OWN_SCHEMAS, ignore_errors=True)
            raise
        return
    folder.parent.mkdir(parents=True, exist_ok=True)
    temp = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", dir=folder.parent))
    try:
        _write_files(temp, files)
        temp.rename(folder)
    except BaseException:
        shutil.rmtree(temp, ignore_errors=True)
        raise


def _write_files(folder: Path, files: dict[str, str]) -> None:
    (folder / OWN_SCHEMAS).mkdir()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")

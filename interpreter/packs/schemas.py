"""The JSON Schemas of a pack's files: the kinds of file and of component they declare, the
first line naming one, what an error of one leaves out of the data, and such an error in words an
author reads, at the offending value."""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path
from typing import Any, Callable

import jsonschema

from ...dsl.diagnostics import Diagnostic, did_you_mean, one_of
from .folders import SCHEMAS
from .yamlsource import Source


@cache
def _schema(kind: str) -> dict:
    return json.loads((SCHEMAS / f"{kind}.schema.json").read_text(encoding="utf-8"))


# Component kinds are the file kinds whose schema is a list of components with ids; a schema's
# `x-names` says which kind of name those ids become in the effect language.
_KINDS = sorted(p.name.removesuffix(".schema.json") for p in SCHEMAS.glob("*.schema.json"))
FILE_KINDS = ("pack", "rules") + tuple(
    k for k in _KINDS if _schema(k).get("type") == "array" and "id" in _schema(k)["items"].get("properties", {}))
COMPONENT_KINDS = FILE_KINDS[2:]
BOTS_KIND = "bots"  # a pack's bots.yaml: read and checked by botfile.py, not as components
EVALUATION_KIND = "evaluation"  # a pack's evaluation.yaml, the expert bot's weights: bots/evaluation.py
NAMES_OF = {kind: _schema(kind).get("x-names") for kind in COMPONENT_KINDS}


def one_kind(kind: str) -> str:
    """What one component of a kind is called (its schema's `x-noun`): `cards` -> `card`."""
    return _schema(kind).get("x-noun", kind)


@cache
def schema_validator(kind: str) -> jsonschema.protocols.Validator:
    """The validator of a kind's schema."""
    return jsonschema.Draft202012Validator(_schema(kind))


def modeline(kind: str, folder: Path) -> str:
    """The first line naming a file's schema: the installed schemas/ folder, relative to the pack's
    folder (a file URI when no relative path leads there, as to another drive)."""
    schema = SCHEMAS / f"{kind}.schema.json"
    try:
        where = Path(os.path.relpath(schema.resolve(), folder.resolve())).as_posix()
    except ValueError:
        where = schema.resolve().as_uri()
    return f"# yaml-language-server: $schema={where}\n"


# pack.yaml keys whose entries stand alone, and how deep an entry is: one `modify:` entry (kind, id)
# or one `remove:` kind that breaks the schema leaves the others to be checked.
_ENTRIES = {"modify": 3, "remove": 2}


def broken(kind: str, err: jsonschema.ValidationError) -> set[tuple]:
    """What a schema error leaves out of a file's data (see `without`): the component or top-level
    key holding it; in pack.yaml, the entries of `modify:` or `remove:` holding it."""
    path = tuple(err.absolute_path)
    depth = _ENTRIES.get(path[0]) if kind == "pack" and path else None
    if depth is None or len(path) >= depth:
        return {path[:depth or 1]}
    if err.validator == "additionalProperties":  # unknown kinds
        return {path + (key,) for key in _unknown_keys(err)}
    if "propertyNames" in err.absolute_schema_path:  # a bad id: the key is the instance
        return {path + (err.instance,)}
    return {path}


def without(data: Any, bad: set[tuple]) -> Any:
    """The data less the values that broke the schema (`broken`), so that later checks only see
    well-formed values: taken out of a mapping, None in a list (its indexes stay as written).
    Invalid as a whole: None."""
    if () in bad:
        return None
    if not bad or not isinstance(data, (dict, list)):
        return data
    inside = lambda key: {p[1:] for p in bad if p[0] == key}  # noqa: E731
    if isinstance(data, dict):
        return {k: without(v, inside(k)) for k, v in data.items() if (k,) not in bad}
    return [without(v, inside(i)) for i, v in enumerate(data)]


def named_path(data: Any, path: tuple) -> str:
    """A path as an author reads it: `beacon.stages[1].cost`, naming components by id."""
    out = ""
    for step in path:
        if isinstance(data, list) and isinstance(step, int) and step < len(data):
            data = data[step]
            label = data.get("id") if isinstance(data, dict) else None
            out += f".{label}" if isinstance(label, str) and out == "" else f"[{step}]"
        elif isinstance(data, dict):
            data = data.get(step)
            out += f".{step}"
    return out.lstrip(".") or "the file"


def _unknown_keys(err: jsonschema.ValidationError) -> list:
    """The keys of a mapping that its schema does not allow (an `additionalProperties` error)."""
    return sorted(set(err.instance) - set(err.schema.get("properties", {})), key=str)


def schema_diagnostics(err: jsonschema.ValidationError, *args) -> list[Diagnostic]:
    """A schema error as diagnostics (see `schema_diagnostic` for `args`): one per unknown key."""
    if err.validator == "additionalProperties":
        return [schema_diagnostic(err, *args, unknown=key) for key in _unknown_keys(err)]
    return [schema_diagnostic(err, *args)]


_FIRST_LINE = "the schema named on the file's first line"


def schema_diagnostic(err: jsonschema.ValidationError, source: Source, named: Callable[[tuple], str],
                      to_file: Callable[[tuple], tuple] | None = None, schema: str | None = None,
                      unknown: Any = None) -> Diagnostic:
    """A schema error as a diagnostic at the offending value, in words an author reads. `named`
    says a path of the data validated as the author writes it; `to_file` maps such a path to its
    path in the source, and `schema` names the schema describing the data, when the data is not the
    file's own (a `modify:` entry's component: its path in pack.yaml, its kind's schema). Of a
    mapping's unknown keys, it reports `unknown`, by default the first."""
    def in_file(steps: tuple) -> tuple:
        return to_file(steps) if to_file else steps

    path = tuple(err.absolute_path)
    at, validator, where = in_file(path), err.validator, named(path)
    if validator == "additionalProperties":
        extra = unknown if unknown is not None else next(iter(_unknown_keys(err)), "")
        known = list(err.schema.get("properties", {}))
        return source.diagnostic("E-SCHEMA", f"unknown key '{extra}' in {where}", in_file(path + (extra,)),
                                 did_you_mean(str(extra), known) or f"allowed keys: {one_of(known)}", key=True)
    if validator == "required":
        missing = err.message.split("'")[1] if "'" in err.message else err.message
        taken = in_file(path + (missing,))
        if taken in source.key_places:  # a `modify:` entry's null took it out
            return source.diagnostic("E-SCHEMA", f"{where} lacks the required key '{missing}'", taken,
                                     "it cannot be taken out: give it a value", key=True)
        return source.diagnostic("E-SCHEMA", f"{where} lacks the required key '{missing}'", at,
                                 f"add it (see {schema or _FIRST_LINE})")
    if validator in ("oneOf", "anyOf") and isinstance(err.instance, dict) and "stages" in err.schema.get("properties", {}):
        return source.diagnostic("E-SCHEMA", f"{where} needs either 'sides' or 'stages', not both", at)
    if validator in ("oneOf", "anyOf") and err.context:
        return _alternatives(err, source, named, to_file, schema)
    if validator == "enum":
        return source.diagnostic("E-SCHEMA", f"{err.instance!r} is not allowed in {where}", at,
                                 did_you_mean(str(err.instance), map(str, err.validator_value)) or
                                 f"allowed: {', '.join(map(str, err.validator_value))}")
    as_key = in_file(path + (err.instance,)) if isinstance(err.instance, str) else None
    if validator == "pattern" and as_key in source.key_places:
        # a propertyNames error: the instance is a key of the mapping at `path`
        return source.diagnostic("E-SCHEMA", f"'{err.instance}' is not allowed as a key of {where}", as_key,
                                 f"a key here is {err.schema.get('description', 'an id')}", key=True)
    if validator == "pattern" and isinstance(err.instance, str) and "description" in err.schema \
            and "snake_case" not in err.schema["description"]:
        return source.diagnostic("E-SCHEMA", f"'{err.instance}' is not allowed as {where}", at,
                                 f"{where} is {err.schema['description']}")
    if validator == "pattern" and isinstance(err.instance, str):
        return source.diagnostic("E-SCHEMA", f"'{err.instance}' is not a valid id or name in {where}", at,
                                 "ids are lowercase snake_case, e.g. 'old_mill'")
    if validator in ("maximum", "minimum"):
        low, high = err.schema.get("minimum"), err.schema.get("maximum")
        bounds = f"from {low} to {high}" if low is not None and high is not None else \
            f"at most {high}" if high is not None else f"at least {low}"
        return source.diagnostic("E-SCHEMA", f"{where}: {err.message}", at, f"write a number {bounds}")
    if validator in ("minItems", "maxItems") and isinstance(err.instance, list):
        bound = "needs at least" if validator == "minItems" else "takes at most"
        return source.diagnostic("E-SCHEMA", f"{where} lists {len(err.instance)}, but {bound} {err.validator_value}",
                                 at,
                                 f"list {bound.split(' ', 1)[1]} {err.validator_value}")
    if validator == "minProperties" and err.instance == {}:
        return source.diagnostic("E-SCHEMA", f"{where} is empty", at, "give it at least one key, or take it out")
    if validator == "type":
        return source.diagnostic("E-SCHEMA", f"{where} must be {_article(err.validator_value)}, not "
                                 f"{_kind(err.instance)}", at)
    return source.diagnostic("E-SCHEMA", f"{where}: {err.message}", at)


def _alternatives(err: jsonschema.ValidationError, source: Source, named: Callable[[tuple], str],
                  to_file: Callable[[tuple], tuple] | None, schema: str | None) -> Diagnostic:
    """A value matching none of a schema's alternatives: what the one that went furthest says (one
    of the right type rather than of another); all of the wrong type, or all lacking a key, in one."""
    depth = max(len(e.absolute_path) for e in err.context)
    furthest = [e for e in err.context if len(e.absolute_path) == depth]
    path = tuple(furthest[0].absolute_path)
    at, where = to_file(path) if to_file else path, named(path)
    if len(furthest) > 1 and all(e.validator == "type" for e in furthest):
        types = [t for e in furthest for t in ([e.validator_value] if isinstance(e.validator_value, str)
                                               else e.validator_value)]
        return source.diagnostic("E-SCHEMA", f"{where} must be {_article(types)}, not {_kind(furthest[0].instance)}", at)
    if len(furthest) > 1 and all(e.validator == "required" for e in furthest):
        missing = [e.message.split("'")[1] for e in furthest]  # the key each alternative lacks
        keys = " or ".join(f"'{key}'" for key in missing)
        return source.diagnostic("E-SCHEMA", f"{where} lacks one of the keys {keys}", at,
                                 f"add one (see {schema or _FIRST_LINE})")
    deeper = next((e for e in furthest if e.validator != "type"), furthest[0])
    return schema_diagnostic(deeper, source, named, to_file, schema)


def _article(types) -> str:
    types = [types] if isinstance(types, str) else types
    names = {"object": "a mapping", "array": "a list", "string": "text", "integer": "a whole number",
             "number": "a number", "boolean": "true or false", "null": "empty"}
    return " or ".join(names.get(t, t) for t in types)


def _kind(value) -> str:
    for t, name in ((bool, "true/false"), (int, "a number"), (float, "a number"), (str, "text"),
                    (list, "a list"), (dict, "a mapping"), (type(None), "empty")):
        if isinstance(value, t):
            return name
    return type(value).__name__

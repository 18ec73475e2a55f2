"""Load packs: read their files, validate them, follow `extends`, compile their effects.

A pack is a folder with `pack.yaml` and one file per component kind, named after the
kind (`cards.yaml`, `wonders.yaml`...). Every problem found becomes a `Diagnostic`;
loading goes on past errors so that an author sees all of them in one run.
"""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path
from typing import Any, Callable, Iterator

import attrs
import jsonschema

from ...dsl import ast, verbs
from ...dsl.checks import check_condition, check_cost, check_effects, unknown_first_word
from ...dsl.compiler import Compiler
from ...dsl.diagnostics import Diagnostic, DslError, control_char, did_you_mean, one_of
from ...dsl.limits import MAX_EXTENDS_DEPTH, MAX_PACKS
from ...dsl.loops import Node as Loop
from ...dsl.loops import find_loops
from ...dsl.parser import parse_condition, parse_cost, parse_effects, span_at
from ...dsl.printer import show
from ...dsl.vocabulary import ANY, Vocabulary
from . import yamlsource
from .modify import Patch, field_name, overlay
from .yamlsource import Source, YamlProblem, folder_files

# content/ and schemas/ are data, installed beside the code (see pyproject.toml).
HOME = Path(__file__).resolve().parents[2]
CONTENT = HOME / "content"
SCHEMAS = HOME / "schemas"


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
NAMES_OF = {kind: _schema(kind).get("x-names") for kind in COMPONENT_KINDS}


def _ids(pack: "Pack", names: str) -> list[str]:
    """The ids of every component whose kind gives names of this kind (`die`, `card`...)."""
    return [cid for kind, of in NAMES_OF.items() if of == names for cid in pack.components[kind]]


# Fields written in the effect language, wherever they appear, and their start rule.
LANGUAGE_FIELDS = {"effect": "effects", "first_bonus": "effects", "cost": "cost",
                   "objective": "condition", "condition": "condition"}
# rules.yaml keys holding a list of sentences: the effects every player has, the bonuses on offer.
SENTENCE_LISTS = ("player_effects", "bonuses")
_PARSE = {"effects": parse_effects, "cost": parse_cost, "condition": parse_condition}
_CHECK = {"effects": check_effects, "cost": check_cost, "condition": check_condition}


@attrs.define
class Component:
    """One card, wonder, token, medal, die, building or board, with where it was written."""

    kind: str
    id: str
    data: dict
    source: Source
    path: tuple  # where its data stands in its file
    pack: str
    compiled: dict = attrs.field(factory=dict)  # language field path -> compiled form
    patches: tuple[Patch, ...] = ()  # the `modify:` entries laid over it, in the order laid

    def at(self, field: tuple) -> tuple[Source, tuple]:
        """The file and path where a field of its data was written: the last `modify:` entry that
        wrote it, else the file that wrote the component."""
        return self._layer(field)[:2]

    def owner(self, field: tuple) -> str:
        """The id of the pack that wrote a field of its data."""
        return self._layer(field)[2]

    def diagnostic(self, code: str, message: str, field: tuple, hint: str | None = None,
                   key: bool = False) -> Diagnostic:
        """A diagnostic pointing at a field of its data (or its key), where that was written."""
        source, path = self.at(field)
        return source.diagnostic(code, message, path, hint, key=key)

    def _layer(self, field: tuple) -> tuple[Source, tuple, str]:
        for patch in reversed(self.patches):
            path, covered = patch.locate(field)
            if covered:
                return patch.source, path, patch.pack
        return self.source, self.path + field, self.pack


@attrs.define
class Pack:
    """A loaded pack: its identity, merged rules and components, vocabulary."""

    id: str
    name: str
    version: str
    folder: Path
    bases: list["Pack"]
    rules: dict
    components: dict[str, dict[str, Component]]
    vocabulary: Vocabulary | None = None
    own_rules: tuple[dict, Source] | None = None  # this pack's own rules.yaml, before merging
    compiled_rules: dict = attrs.field(factory=dict)  # path in the merged rules -> compiled form
    removals: list["Removal"] = attrs.field(factory=list)  # what its own pack.yaml `remove:` took out

    def lineage(self) -> list["Pack"]:
        """This pack and everything it extends, bases first."""
        seen: list[Pack] = []
        for base in self.bases:
            seen += [p for p in base.lineage() if p not in seen]
        return seen + [self]


@attrs.frozen(eq=False)
class Removal:
    """One entry of a pack.yaml `remove:` that took a component of a base out, with where it is
    written: an error it causes elsewhere is reported there (see `_blame_removals`)."""

    kind: str
    id: str
    component: Component
    source: Source  # the pack.yaml that removes it
    path: tuple     # ("remove", kind, i)
    pack: str       # the id of the pack removing it

    @property
    def what(self) -> str:
        """The component as a sentence names it: `card 'old_mill'`."""
        return f"{one_kind(self.kind)} '{self.id}'"

    def diagnostic(self, code: str, message: str, hint: str | None = None) -> Diagnostic:
        return self.source.diagnostic(code, message, self.path, hint)


def one_kind(kind: str) -> str:
    """What one component of a kind is called (its schema's `x-noun`): `cards` -> `card`."""
    return _schema(kind).get("x-noun", kind)


class LoadError(Exception):
    """Raised by `load_pack` when a pack has errors; carries every diagnostic."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__(f"{len(diagnostics)} error(s) in pack")
        self.diagnostics = diagnostics


def shipped_packs() -> list[Path]:
    """The folders of the packs that come with WonderForge."""
    return sorted(p.parent for p in CONTENT.glob("*/pack.yaml"))


def find_pack(name: str) -> Path | None:
    """A pack folder from a shipped pack's id or a path. A bare word that is a shipped id means the
    shipped pack, never a folder of that name in the working folder (`./7-wonders` is that folder)."""
    shipped = CONTENT / name
    if not any(sep in name for sep in "/\\") and (shipped / "pack.yaml").is_file():
        return shipped
    path = Path(name)
    if (path / "pack.yaml").is_file():
        return path
    if path.name == "pack.yaml" and path.is_file():
        return path.parent
    return None


def is_shipped(folder: Path) -> bool:
    """Whether a pack folder is one WonderForge ships."""
    return folder.resolve().parent == CONTENT.resolve()


def read_pack(name: str | Path) -> tuple[Pack | None, list[Diagnostic]]:
    """Load a pack and report every problem found in it alone (check.py adds its flow's); the pack
    is None when it cannot be read."""
    loader = _Loader()
    folder = find_pack(str(name))
    if folder is None:
        return None, [Diagnostic("E-PACK-MISSING", f"no pack at '{name}'", str(name),
                                 hint=f"give a folder holding pack.yaml, or one of: {', '.join(p.name for p in shipped_packs())}")]
    pack = loader.pack(folder, ())
    if pack is not None:
        loader.finish(pack)
    return pack, loader.diagnostics


def read_file(path: Path, kind: str) -> tuple[Any, Source | None, list[Diagnostic]]:
    """One file of a kind read as a pack's files are (limits, links, its schema), with its
    problems; the data less what broke the schema, and None for its source when unreadable."""
    loader = _Loader()
    read = loader.read(path, kind)
    return (None, None, loader.diagnostics) if read is None else (read[0], read[1], loader.diagnostics)


@cache
def _validator(kind: str) -> jsonschema.protocols.Validator:
    return jsonschema.Draft202012Validator(_schema(kind))


def shown(path: Path) -> str:
    """A path as the user would type it: relative to the working folder when inside it."""
    try:  # the folder resolved, not the file: a link is shown where it lies, not where it leads
        return str((path.parent.resolve() / path.name).relative_to(Path.cwd().resolve()))
    except (ValueError, OSError, RuntimeError):  # outside the working folder, or a loop of links
        return str(path)


def _outside(path: Path) -> str | None:
    """Why a file of a pack must not be read: a link that leads out of the pack's folder, or
    that never ends. None for a file of the folder."""
    if not path.is_symlink():
        return None
    try:
        target = path.resolve()
    except (OSError, RuntimeError):  # RuntimeError: a loop of links, before Python 3.13
        return "file is a link that never reaches a file (a loop of links)"
    if not target.is_relative_to(path.parent.resolve()):
        return "file links outside the pack's folder"
    return None


class _Loader:
    def __init__(self):
        self.diagnostics: list[Diagnostic] = []
        self.loaded: dict[Path, Pack | None] = {}
        self.loading: set[Path] = set()  # packs whose bases are being read, to catch cycles of folders

    def error(self, diagnostic: Diagnostic) -> None:
        self.diagnostics.append(diagnostic)

    # -- files
    def read(self, path: Path, kind: str, over: bool = False) -> tuple[Any, Source] | None:
        """A file, validated against its kind's schema; a rules.yaml laid `over` a base's rules needs
        none of the required keys alone (the merged rules are checked for them: `merged_rules`)."""
        outside = _outside(path)
        if outside:
            self.error(Diagnostic("E-PACK-PATH", outside, shown(path),
                                  hint="a pack reads only the files in its own folder: copy the file in"))
            return None
        try:
            data, source = yamlsource.load(path, shown(path))
        except YamlProblem as problem:
            self.error(problem.diagnostic)
            return None
        first = source.lines[0] if source.lines else ""
        if "$schema=" not in first:
            self.error(Diagnostic("W-SCHEMA-LINE", "the first line does not name the file's schema", source.path, 1, 1, 1, 2,
                                  f"start the file with '{modeline(kind, path.parent).strip()}'",
                                  severity="warning", source=first))
        bad = set()
        for err in sorted(_validator(kind).iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
            if over and err.validator == "required":
                continue
            self.diagnostics += _schema_diagnostics(err, source, lambda path: _where(data, path))
            bad |= _broken(kind, err)
        for path, key, char in _controls(data, ()):
            self.error(attrs.evolve(source.diagnostic(
                "W-CONTROL-CHAR", f"{'a key of ' * key}{_where(data, path[:-1] if key else path)} holds the control "
                f"character {char}", path, "a terminal acts on such a character (colours, moving the cursor) "
                "instead of showing it: remove it (WonderForge shows it escaped)", key=key), severity="warning"))
        return _without(data, bad), source

    # -- packs
    def pack(self, folder: Path, chain: tuple[str, ...]) -> Pack | None:
        folder = folder.resolve()
        if folder in self.loaded:
            return self.loaded[folder]
        self.loaded[folder] = None
        self.loading.add(folder)
        try:
            return self.pack_in(folder, chain)
        finally:
            self.loading.discard(folder)

    def pack_in(self, folder: Path, chain: tuple[str, ...]) -> Pack | None:
        read = self.read(folder / "pack.yaml", "pack")
        if read is None or not isinstance(read[0], dict) or not isinstance(read[0].get("id"), str):
            return None
        meta, source = read
        pack = Pack(meta["id"], str(meta.get("name", meta["id"])), str(meta.get("version", "0")), folder, [], {}, {})
        if folder.name != pack.id and folder.parent == CONTENT:
            self.error(source.diagnostic("E-PACK-ID", f"a shipped pack's id must be its folder name '{folder.name}'", ("id",)))
        pack.bases = self.bases(meta, source, folder, chain + (pack.id,))
        files = self.files(folder, over=bool(pack.bases))
        if "rules" in files and isinstance(files["rules"][0], dict):
            pack.own_rules = files["rules"]
        pack.rules = merge_rules([b.rules for b in pack.bases] + ([pack.own_rules[0]] if pack.own_rules else []))
        if pack.bases and pack.own_rules:
            self.merged_rules(pack)
            self.replaced_sentences(pack)
        for key in ("vocabulary", "players"):
            if key not in pack.rules:
                self.error(Diagnostic("E-SCHEMA", f"the pack's rules lack '{key}'", shown(folder / "rules.yaml"),
                                      hint=f"give '{key}' in rules.yaml, or extend a pack that does"))
        pack.components = self.components(pack, files, meta, source)
        self.loaded[folder] = pack
        return pack

    def bases(self, meta: dict, source: Source, folder: Path, chain: tuple[str, ...]) -> list[Pack]:
        wanted = meta.get("extends") or []
        wanted = [wanted] if isinstance(wanted, str) else wanted
        out = []
        for i, base_id in enumerate(wanted):
            where = ("extends", i) if isinstance(meta.get("extends"), list) else ("extends",)
            if base_id in chain:
                cycle = " -> ".join(chain + (base_id,))
                self.error(source.diagnostic("E-PACK-CYCLE", f"packs extend each other in a cycle: {cycle}", where,
                                             "a pack cannot extend itself, directly or through others"))
                continue
            if len(chain) > MAX_EXTENDS_DEPTH:
                self.error(source.diagnostic("E-LIMIT-EXTENDS", f"extends chain deeper than {MAX_EXTENDS_DEPTH}", where,
                                             f"a pack may stand on at most {MAX_EXTENDS_DEPTH} packs, one above the other"))
                continue
            base_folder = self.base_folder(folder, base_id)
            if base_folder is None:
                known = [p.name for p in shipped_packs()] + [p.name for p in folder.parent.glob("*") if (p / "pack.yaml").is_file()]
                self.error(source.diagnostic("E-PACK-MISSING", f"extends unknown pack '{base_id}'", where,
                                             did_you_mean(base_id, known) or f"known packs: {one_of(known)}"))
                continue
            if base_folder.resolve() in self.loading:  # ids that differ from folder names
                self.error(source.diagnostic("E-PACK-CYCLE", f"packs extend each other in a cycle: {' -> '.join(chain)} -> "
                                             f"{base_folder.resolve().name}", where,
                                             "a pack cannot extend itself, directly or through others"))
                continue
            if base_folder.resolve() not in self.loaded and len(self.loaded) >= MAX_PACKS:
                self.error(source.diagnostic("E-LIMIT-PACKS", f"more than {MAX_PACKS} packs to load", where,
                                             f"a pack and all it extends are at most {MAX_PACKS} packs"))
                continue
            base = self.pack(base_folder, chain)
            if base is not None:
                out.append(base)
        return out

    @staticmethod
    def base_folder(folder: Path, base_id: str) -> Path | None:
        """A base pack: a sibling folder with that id, else a shipped pack. Never a path."""
        if "/" in base_id or "\\" in base_id or base_id.startswith("."):
            return None
        for candidate in (folder.parent / base_id, CONTENT / base_id):
            if (candidate / "pack.yaml").is_file():
                return candidate
        return None

    def merged_rules(self, pack: Pack) -> None:
        """The required keys of a pack's rules merged over its bases', each missing one reported at
        the pack's own key lacking it (a base lacking one on its own reports it itself)."""
        own, source = pack.own_rules
        for err in _validator("rules").iter_errors(pack.rules):
            path = tuple(err.absolute_path)
            if err.validator == "required" and (not path or has(own, path)):
                self.error(schema_diagnostic(err, source, lambda at: _where(pack.rules, at)))

    def replaced_sentences(self, pack: Pack) -> None:
        """A rules.yaml list of sentences replaces its bases' whole (lists are not merged): a warning
        at the key when that leaves out sentences the bases wrote, which a mod adding one easily does."""
        own, source = pack.own_rules
        below = merge_rules([b.rules for b in pack.bases])
        for key in SENTENCE_LISTS:
            mine, theirs = own.get(key), below.get(key)
            if not isinstance(mine, list) or not isinstance(theirs, list):
                continue
            dropped = [t for t in theirs if t not in mine]
            if dropped:
                self.error(attrs.evolve(source.diagnostic(
                    "W-RULES-REPLACED", f"{key} replaces the list of {', '.join(b.id for b in pack.bases)}: "
                    f"{len(dropped)} of its sentences left out, the first {str(dropped[0])[:60]!r}", (key,),
                    "a list replaces the base's whole: write the base's sentences in it too to keep them",
                    key=True), severity="warning"))

    def files(self, folder: Path, over: bool = False) -> dict[str, tuple[Any, Source]]:
        out: dict[str, tuple[Any, Source]] = {}
        seen: dict[str, str] = {}  # kind -> the file read for it
        for path in folder_files(folder):
            if path.suffix not in (".yaml", ".yml") or path.name == "pack.yaml":
                continue
            kind = path.stem
            if kind in seen:
                self.error(Diagnostic("E-PACK-FILE", f"{seen[kind]} and {path.name} are both '{kind}' files",
                                      shown(path), hint=f"keep one of them: a pack reads its {kind} from one file"))
                continue
            seen[kind] = path.name
            if kind == BOTS_KIND:
                continue
            if kind not in FILE_KINDS:
                self.error(Diagnostic("E-PACK-FILE", f"unknown file kind '{kind}'", shown(path),
                                      hint=did_you_mean(kind, FILE_KINDS) or f"file names: {', '.join(k + '.yaml' for k in FILE_KINDS[1:])}"))
                continue
            read = self.read(path, kind, over=over and kind == "rules")
            if read is not None:
                out[kind] = read
        return out

    def components(self, pack: Pack, files: dict, meta: dict, meta_source: Source) -> dict[str, dict[str, Component]]:
        merged: dict[str, dict[str, Component]] = {k: {} for k in COMPONENT_KINDS}
        replaced: list[tuple[str, str, Component, Pack]] = []
        for base in pack.bases:
            replaced += _replacing(merged, base)
            for kind in COMPONENT_KINDS:
                merged[kind].update(base.components.get(kind, {}))
        removing = meta.get("remove") or {}
        removed = {(kind, cid) for kind, ids in removing.items() for cid in ids}
        for kind, ids in removing.items():
            for i, cid in enumerate(ids):
                component = merged.get(kind, {}).pop(cid, None)
                if component is not None:
                    pack.removals.append(Removal(kind, cid, component, meta_source, ("remove", kind, i), pack.id))
                    continue
                before = next((r for base in pack.bases for layer in base.lineage() for r in layer.removals
                               if (r.kind, r.id) == (kind, cid)), None)
                left = [c for c in merged.get(kind, {}) if (kind, c) not in removed]  # never suggest what goes
                self.error(meta_source.diagnostic(
                    "E-REF-UNKNOWN", f"cannot remove unknown {one_kind(kind)} '{cid}'", ("remove", kind, i),
                    f"{before.pack} already removes it" if before else
                    did_you_mean(cid, left) or f"the {kind} it can remove: {one_of(left) or 'none'}"))
        own: dict[str, tuple[Source, dict[str, int]]] = {}  # kind -> this pack's file of it, its ids' places
        for kind in COMPONENT_KINDS:
            if kind not in files or not isinstance(files[kind][0], list):
                continue
            data, source = files[kind]
            first_seen: dict[str, int] = {}
            own[kind] = (source, first_seen)
            for i, item in enumerate(data):
                if not isinstance(item, dict) or not isinstance(item.get("id"), str):
                    continue
                cid = item["id"]
                if cid in first_seen:
                    line = source.place((first_seen[cid],)).line
                    self.error(source.diagnostic("E-REF-DUPLICATE", f"duplicate {kind} id '{cid}'", (i, "id"),
                                                 f"'{cid}' is already defined on line {line}"))
                    continue
                first_seen[cid] = i
                merged[kind][cid] = Component(kind, cid, item, source, (i,), pack.id)
        for kind, entries in (meta.get("modify") or {}).items():
            for cid, entry in entries.items():
                self.modify(pack, merged[kind], kind, cid, entry, meta_source, removed, own.get(kind))
        lost = [(kind, cid, before, base) for kind, cid, before, base in replaced  # unless this pack settles it
                if (kind, cid) not in removed and cid not in own.get(kind, (None, {}))[1]]
        for diagnostic in _lost(pack, meta, meta_source, lost):
            self.error(diagnostic)
        return merged

    def modify(self, pack: Pack, components: dict[str, Component], kind: str, cid: str, entry: dict,
               source: Source, removed: set, own: tuple[Source, dict] | None) -> None:
        """Lay a pack.yaml `modify:` entry over the base's component, whose merged data must pass
        its kind's schema; every problem is reported in the entry."""
        where = ("modify", kind, cid)
        refused = _refused(pack, components, kind, cid, entry, removed, own)
        if refused:
            code, message, hint, at = refused
            self.error(source.diagnostic(code, message, where + at, hint, key=True))
            return
        base = components[cid]
        data, written, problems = overlay(base.data, entry, base.patches)
        for problem in problems:
            self.error(source.diagnostic("E-PACK-MODIFY", f"{cid}: {problem.message}", where + problem.path,
                                         problem.hint, key=True))
        patch = Patch(source, where, pack.id, written)
        errors = sorted(_validator(kind).iter_errors([data]), key=lambda e: list(map(str, e.absolute_path)))
        schema = shown(SCHEMAS / f"{kind}.schema.json")
        for err in errors:  # validated as a file holding it alone: its paths start with its index, 0
            self.diagnostics += _schema_diagnostics(err, source, lambda path: field_name(cid, data, path[1:]),
                                                    lambda path: patch.locate(path[1:])[0], schema)
        if not errors:  # what could not be laid is left out: the rest is checked as it will play
            components[cid] = attrs.evolve(base, data=data, compiled={}, patches=base.patches + (patch,))

    # -- the whole pack, once loaded
    def finish(self, pack: Pack) -> None:
        pack.vocabulary = _vocabulary(pack)
        compiler = Compiler(pack.vocabulary)
        for kind in COMPONENT_KINDS:
            for component in pack.components[kind].values():
                self.compile_fields(component, compiler)
        self.compile_rules(pack, compiler)
        for check in _REFERENCE_CHECKS:
            for diagnostic in check(pack):
                if diagnostic is not None:
                    self.error(diagnostic)
        self.diagnostics = _blame_removals(pack, _unique(self.diagnostics))
        order = {f: i for i, f in enumerate(dict.fromkeys(d.file for d in self.diagnostics))}
        self.diagnostics.sort(key=lambda d: (order[d.file], d.line, d.column))

    def compile_fields(self, component: Component, compiler: Compiler) -> None:
        for field_path, start, text in _language_fields(component.data, ()):
            compiled = self.compile_text(text, start, *component.at(field_path), compiler)
            if compiled is not None:
                component.compiled[field_path] = compiled

    def compile_rules(self, pack: Pack, compiler: Compiler) -> None:
        """Sentences written in rules.yaml files (what icons do, lists of sentences, `effect:` fields);
        a layer's sentence replaces the one its bases wrote at the same place."""
        for layer in pack.lineage():
            if layer.own_rules is None:
                continue
            data, source = layer.own_rules
            icons = data.get("icons")
            texts = [(("icons", k), "effects", v) for k, v in icons.items()] if isinstance(icons, dict) else []
            for key in SENTENCE_LISTS:
                listed = data.get(key)
                texts += [((key, i), "effects", v) for i, v in enumerate(listed)] if isinstance(listed, list) else []
            texts += [(path, start, text) for path, start, text in _language_fields(data, ())
                      if path[0] not in ("icons", *SENTENCE_LISTS)]
            for path, start, text in texts:
                if isinstance(text, str):
                    compiled = self.compile_text(text, start, source, path, compiler)
                    if compiled is not None:
                        pack.compiled_rules[path] = compiled

    def compile_text(self, text: str, start: str, source: Source, path: tuple, compiler: Compiler):
        try:
            tree = _PARSE[start](text)
        except DslError as err:
            err = unknown_first_word(err, compiler.vocab) or err
            self.error(_dsl_diagnostic(err, source, path, text))
            return None
        errors = _CHECK[start](tree, compiler.vocab)
        for err in errors:
            self.error(_dsl_diagnostic(err, source, path, text))
        if errors:
            return None
        if start == "effects":
            return compiler.effects(tree)
        if start == "cost":
            return compiler.cost(tree)
        return compiler.condition(tree)


def _writer(component: Component) -> str:
    """The pack that last wrote a component: its last `modify:` entry's, else the one writing it whole."""
    return component.patches[-1].pack if component.patches else component.pack


def _replacing(merged: dict[str, dict[str, Component]], base: Pack) -> list[tuple[str, str, Component, Pack]]:
    """(kind, id, the earlier version, base) of each component of the bases merged so far that a
    later base replaces whole (the packs extended later win) with a version not built on it."""
    later = {layer.id for layer in base.lineage()}
    return [(kind, cid, merged[kind][cid], base) for kind in COMPONENT_KINDS
            for cid, component in base.components.get(kind, {}).items()
            if cid in merged[kind] and merged[kind][cid] is not component and _writer(merged[kind][cid]) not in later]


def _lost(pack: Pack, meta: dict, source: Source,
          lost: list[tuple[str, str, Component, Pack]]) -> Iterator[Diagnostic]:
    """Warnings, at the later base's `extends` entry, of what an earlier base wrote and a later one
    replaced (`_replacing`): a component both changed, each on its own; the components the later
    base holds as a pack below the earlier one wrote them (undoing its changes), together."""
    below = {p.id: {q.id for q in p.lineage()} for p in pack.lineage()}
    undone: dict[tuple[str, str], tuple[Pack, list[str]]] = {}  # (earlier writer, later base) -> what it undoes
    for kind, cid, before, base in lost:
        first, then = _writer(before), _writer(base.components[kind][cid])
        if then in below.get(first, ()):
            undone.setdefault((first, base.id), (base, []))[1].append(f"{one_kind(kind)} '{cid}'")
            continue
        yield _extends_warning(meta, source, base, f"{first} and {then} both change {one_kind(kind)} '{cid}': "
                               f"{base.id}'s stands, and what {first} wrote of it is lost",
                               f"write {cid} as it should be in this pack (whole, in {kind}.yaml), or extend one "
                               "of them")
    for (first, _), (base, names) in undone.items():
        yield _extends_warning(meta, source, base, f"{base.id}, extended after {first}, holds {', '.join(names)} as "
                               f"written before {first} changed {'it' if len(names) == 1 else 'them'}: {first}'s "
                               "changes are lost", f"extend {base.id} before {first} (the packs extended later win)")


def _extends_warning(meta: dict, source: Source, base: Pack, message: str, hint: str) -> Diagnostic:
    """A W-PACK-EXTENDS warning at the `extends` entry naming a base (by its folder's name)."""
    wanted, name = meta.get("extends"), base.folder.name
    where = ("extends", wanted.index(name)) if isinstance(wanted, list) and name in wanted else ("extends",)
    return attrs.evolve(source.diagnostic("W-PACK-EXTENDS", message, where, hint), severity="warning")


def _refused(pack: Pack, components: dict[str, Component], kind: str, cid: str, entry: dict, removed: set,
             own: tuple[Source, dict] | None) -> tuple[str, str, str, tuple] | None:
    """Why a `modify:` entry cannot be laid at all (code, message, hint, where in the entry), or None:
    the pack also removes the component or writes it whole, the bases have none of that id, or
    the entry renames it."""
    noun = one_kind(kind)
    if (kind, cid) in removed:
        return "E-PACK-MODIFY", f"cannot modify {noun} '{cid}': this pack removes it", \
            "keep either the removal or the modification", ()
    if own is not None and cid in own[1]:
        return ("E-PACK-MODIFY", f"cannot modify {noun} '{cid}': this pack writes it whole in {kind}.yaml, line "
                f"{own[0].place((own[1][cid],)).line}", f"change it there, or take it out of {kind}.yaml to modify "
                "the base's", ())
    if cid not in components:
        before = next((r for b in pack.bases for layer in b.lineage() for r in layer.removals
                       if (r.kind, r.id) == (kind, cid)), None)
        left = [c for c in components if (kind, c) not in removed]
        hint = f"{before.pack} removes it" if before else did_you_mean(cid, left) or \
            f"the {kind} it can modify (those of the packs it extends): {one_of(left) or 'none'}"
        return "E-REF-UNKNOWN", f"cannot modify unknown {noun} '{cid}'", hint, ()
    if "id" in entry:
        return ("E-PACK-MODIFY", f"a modification cannot change the id of {noun} '{cid}'",
                f"to give it another id, remove it and write the new one in {kind}.yaml", ("id",))
    return None


# pack.yaml keys whose entries stand alone, and how deep an entry is: one `modify:` entry (kind, id)
# or one `remove:` kind that breaks the schema leaves the others to be checked.
_ENTRIES = {"modify": 3, "remove": 2}


def _broken(kind: str, err: jsonschema.ValidationError) -> set[tuple]:
    """What a schema error leaves out of a file's data (see `_without`): the component or top-level
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


def _without(data: Any, bad: set[tuple]) -> Any:
    """The data less the values that broke the schema (`_broken`), so that later checks only see
    well-formed values: taken out of a mapping, None in a list (its indexes stay as written).
    Invalid as a whole: None."""
    if () in bad:
        return None
    if not bad or not isinstance(data, (dict, list)):
        return data
    inside = lambda key: {p[1:] for p in bad if p[0] == key}  # noqa: E731
    if isinstance(data, dict):
        return {k: _without(v, inside(k)) for k, v in data.items() if (k,) not in bad}
    return [_without(v, inside(i)) for i, v in enumerate(data)]


def _language_fields(data: Any, path: tuple) -> Iterator[tuple[tuple, str, str]]:
    """Every (path, start rule, text) of a language field inside a component's data."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key in LANGUAGE_FIELDS and isinstance(value, (str, int)):
                yield path + (key,), LANGUAGE_FIELDS[key], str(value)
            else:
                yield from _language_fields(value, path + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _language_fields(value, path + (i,))


def merge_rules(layers: list[dict]) -> dict:
    """Rules of a pack over those of its bases: mappings merge, other values replace."""
    out: dict = {}
    for layer in layers:
        if isinstance(layer, dict):
            out = _deep_merge(out, layer)
    return out


def _deep_merge(base: dict, over: dict) -> dict:
    out = dict(base)
    for key, value in over.items():
        out[key] = _deep_merge(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


def _vocabulary(pack: Pack) -> Vocabulary:
    words = pack.rules.get("vocabulary") or {}
    words = words if isinstance(words, dict) else {}

    def listed(key):
        value = words.get(key) or []
        return [w for w in value if isinstance(w, str)] if isinstance(value, list) else []
    resources = words.get("resources") if isinstance(words.get("resources"), dict) else {}
    zones = words.get("zones") if isinstance(words.get("zones"), dict) else {}
    buildings = set(_ids(pack, "building"))
    for component in (c for kind in pack.components.values() for c in kind.values()):
        inner = component.data.get("buildings")  # a board's own buildings
        buildings |= {b.get("id") for b in inner if isinstance(b, dict)} if isinstance(inner, list) else set()
    return Vocabulary.build(
        resource=[r for v in resources.values() if isinstance(v, list) for r in v if isinstance(r, str)] + listed("wild"),
        resource_class=list(resources),
        colour=listed("colours"), symbol=listed("symbols"), counter=listed("counters"),
        token=listed("tokens") + _ids(pack, "token"),
        icon=listed("icons"), pawn=listed("pawns"), period=listed("periods"), box_tag=listed("box_tags"),
        player_zone=[z for z in zones.get("player") or [] if isinstance(z, str)],
        shared_zone=[z for z in zones.get("shared") or [] if isinstance(z, str)],
        card=_ids(pack, "card"), die=_ids(pack, "die"), building=[b for b in buildings if isinstance(b, str)],
    )


def _unique(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    seen, out = set(), []
    for d in diagnostics:
        key = (d.file, d.line, d.column, d.code, d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


def _blame_removals(pack: Pack, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Errors in the files of a base that name a component a later pack's `remove:` took out are
    that removal's doing: they are reported once per removal, at its entry in the pack.yaml that
    removes it (the author of a mod sees their own line, not the installed base's files)."""
    layers = pack.lineage()
    removals = [(i, r) for i, layer in enumerate(layers) for r in layer.removals]
    if not removals:
        return diagnostics
    folders = {layer.folder: i for i, layer in enumerate(layers)}
    blamed: dict[Removal, list[tuple[Diagnostic, Pack]]] = {}
    out = []
    for d in diagnostics:
        below = folders.get(_folder_of(d.file)) if d.severity == "error" else None
        removal = next((r for i, r in removals if below is not None and below < i and _names(d, r.id)), None)
        if removal is None:
            out.append(d)
        else:
            blamed.setdefault(removal, []).append((d, layers[below]))
    for removal, found in blamed.items():
        (first, base), more = found[0], len(found) - 1
        places = "; ".join(f"{d.file}:{d.line}" for d, _ in found[:3]) + (f" and {more - 2} more" if more > 2 else "")
        message = (f"removing {removal.what} breaks what {base.id} writes about it: {first.message}"
                   + (f" (and {more} more)" if more else ""))
        out.append(removal.diagnostic(first.code, message, f"it is used at {places}: remove what uses it too, or "
                                      f"replace that (same id) in this pack, or keep {removal.id}"))
    return out


def _folder_of(shown: str) -> Path | None:
    try:
        return Path(shown).absolute().parent.resolve()
    except (OSError, RuntimeError):
        return None


def _names(d: Diagnostic, word: str) -> bool:
    """Whether a diagnostic is about a name: it underlines it, or quotes it in its message."""
    underlined = d.source[d.column - 1:d.end_column - 1].strip("'\"") if d.source and d.line == d.end_line else ""
    return underlined == word or f"'{word}'" in d.message


# ---- diagnostics from schema and language errors -------------------------------------


def _where(data: Any, path: tuple) -> str:
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


def modeline(kind: str, folder: Path) -> str:
    """The first line naming a file's schema: the installed schemas/ folder, relative to the pack's
    folder (a file URI when no relative path leads there, as to another drive)."""
    schema = SCHEMAS / f"{kind}.schema.json"
    try:
        where = Path(os.path.relpath(schema.resolve(), folder.resolve())).as_posix()
    except ValueError:
        where = schema.resolve().as_uri()
    return f"# yaml-language-server: $schema={where}\n"


_FIRST_LINE = "the schema named on the file's first line"


def _unknown_keys(err: jsonschema.ValidationError) -> list:
    """The keys of a mapping that its schema does not allow (an `additionalProperties` error)."""
    return sorted(set(err.instance) - set(err.schema.get("properties", {})), key=str)


def _schema_diagnostics(err: jsonschema.ValidationError, *args) -> list[Diagnostic]:
    """A schema error as diagnostics (see `schema_diagnostic` for `args`): one per unknown key."""
    if err.validator == "additionalProperties":
        return [schema_diagnostic(err, *args, unknown=key) for key in _unknown_keys(err)]
    return [schema_diagnostic(err, *args)]


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
        deeper = max(err.context, key=lambda e: len(e.absolute_path))  # the alternative that went furthest
        return schema_diagnostic(deeper, source, named, to_file, schema)
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


def _article(types) -> str:
    types = [types] if isinstance(types, str) else types
    names = {"object": "a mapping", "array": "a list", "string": "text", "integer": "a whole number",
             "number": "a number", "boolean": "true or false", "null": "empty"}
    return " or ".join(names.get(t, t) for t in types)


def _controls(data: Any, path: tuple) -> Iterator[tuple[tuple, bool, str]]:
    """(path, is a key, the character escaped) of every text of `data` holding a control character."""
    if isinstance(data, str):
        char = control_char(data)
        if char:
            yield path, False, char
    elif isinstance(data, dict):
        for k, v in data.items():
            char = control_char(k) if isinstance(k, str) else None
            if char:
                yield path + (k,), True, char
            yield from _controls(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _controls(v, path + (i,))


def _kind(value) -> str:
    for t, name in ((bool, "true/false"), (int, "a number"), (float, "a number"), (str, "text"),
                    (list, "a list"), (dict, "a mapping"), (type(None), "empty")):
        if isinstance(value, t):
            return name
    return type(value).__name__


def _dsl_diagnostic(err: DslError, source: Source, path: tuple, text: str) -> Diagnostic:
    """An error of the effect language at its place in the file, inside the text at `path`."""
    span = err.span
    if span is not None and err.needle and text.find(err.needle, span.start, span.end) >= 0:
        span = span_at(text, text.find(err.needle, span.start, span.end), len(err.needle))
    place = source.locate_in_text(path, text, span)
    return Diagnostic(err.code, err.message, source.path, place.line, place.column, place.end_line, place.end_column,
                      err.hint, source=source.line_text(place.line))


# ---- cross-references -------------------------------------------------------------------


def _ref(component: Component, field: tuple, word: str, known, what: str, code: str = "E-REF-UNKNOWN",
         key: bool = False) -> Diagnostic:
    return component.diagnostic(code, f"{component.id}: unknown {what} '{word}'", field,
                                did_you_mean(word, known) or f"known: {one_of(known) or 'none'}", key=key)


def _check_cards(pack: Pack) -> Iterator[Diagnostic]:
    cards, colours = pack.components["cards"], pack.vocabulary.names["colour"]
    players = pack.rules.get("players") if isinstance(pack.rules.get("players"), dict) else {}
    most = players.get("max", 99)
    # A copy for more players than a later pack allows (a mod for fewer players) is not the base's
    # error: it is never dealt, which `check` warns of (dealing.py) when a whole card is never dealt.
    layers = [layer.id for layer in pack.lineage()]
    lowered = max((i for i, layer in enumerate(pack.lineage()) if layer.own_rules
                   and has(layer.own_rules[0], ("players", "max"))), default=0)
    for card in cards.values():
        colour = card.data.get("colour")
        if isinstance(colour, str) and colour not in colours:
            yield _ref(card, ("colour",), colour, colours, "colour", "E-REF-COLOUR")
        for i, other in enumerate(card.data.get("chain_from") or []):
            if other == card.id:
                yield card.diagnostic("E-REF-CHAIN", f"{card.id} chains from itself", ("chain_from", i))
            elif other not in cards:
                yield _ref(card, ("chain_from", i), other, cards, "card to chain from", "E-REF-CHAIN")
        for deck, copies in (card.data.get("copies") or {}).items():
            for j, needed in enumerate(copies if isinstance(copies, list) else []):
                writer = card.owner(("copies", deck, j))
                if isinstance(needed, int) and isinstance(most, int) and needed > most and not (
                        writer in layers and layers.index(writer) < lowered):
                    yield card.diagnostic("E-VALUE", f"{card.id}: a copy for {needed} players, but the game has at "
                                          f"most {most}", ("copies", deck, j))


def _check_wonders(pack: Pack) -> Iterator[Diagnostic]:
    cards = pack.components["cards"]
    for wonder in pack.components["wonders"].values():
        for card_id in (wonder.data.get("deck") or {}):
            if card_id not in cards:
                yield _ref(wonder, ("deck", card_id), card_id, cards, "card in deck", key=True)
        sides = wonder.data.get("sides") or {"": {"stages": wonder.data.get("stages")}}
        for side_name, side in sides.items():
            prefix = ("sides", side_name) if side_name else ()
            stages = side.get("stages") if isinstance(side, dict) else None
            for n, stage in enumerate(stages if isinstance(stages, list) else [], start=1):
                for j, need in enumerate(stage.get("requires") or [] if isinstance(stage, dict) else []):
                    if isinstance(need, int) and need >= n:
                        yield wonder.diagnostic(
                            "E-REF-STAGE", f"{wonder.id}: stage {n} requires stage {need}, which is not below it",
                            prefix + ("stages", n - 1, "requires", j), "a stage can only rest on earlier stages")


def _check_decks(pack: Pack) -> Iterator[Diagnostic]:
    cards = pack.components["cards"]
    for layer in pack.lineage():
        data, source = layer.own_rules or ({}, None)
        decks = data.get("decks")
        for deck, content in (decks or {}).items() if isinstance(decks, dict) else ():
            for card_id, count in content.items() if isinstance(content, dict) else ():
                if isinstance(count, int) and card_id not in cards:
                    yield source.diagnostic("E-REF-UNKNOWN", f"deck '{deck}' holds unknown card '{card_id}'",
                                            ("decks", deck, card_id), did_you_mean(card_id, cards), key=True)


def _check_dice(pack: Pack) -> Iterator[Diagnostic]:
    buildings = pack.vocabulary.names["building"]
    colours = pack.vocabulary.names["colour"]
    dice = {d: c for kind, of in NAMES_OF.items() if of == "die" for d, c in pack.components[kind].items()}
    for die in dice.values():
        colour = die.data.get("colour")
        if isinstance(colour, str) and colour not in colours:
            yield _ref(die, ("colour",), colour, colours, "colour", "E-REF-COLOUR")
        for i, face in enumerate(die.data.get("faces") or []):
            building = str(face).split(".")[0]
            if building not in buildings:
                yield _ref(die, ("faces", i), building, buildings, "building on a face")
    for building in pack.components["buildings"].values():
        die = building.data.get("die")
        if isinstance(die, str) and die not in dice:
            yield _ref(building, ("die",), die, dice, "die")


@attrs.frozen
class Sentence:
    """One compiled sentence of a pack, with where it was written: in a component (`kind`, `owner`
    its id, `field` its path in the component) or in rules.yaml (`kind` None, `field` its path)."""

    effect: Any
    source: Source
    path: tuple   # where its field stands in its file
    text: str     # the field's whole text
    owner: str
    kind: str | None
    field: tuple

    def diagnostic(self, code: str, message: str, span, hint: str | None = None, severity: str = "error") -> Diagnostic:
        """A diagnostic pointing at `span` of the sentence (a span of its field's text)."""
        found = self.source.diagnostic(code, message, hint=hint, place=self.source.locate_in_text(self.path, self.text, span))
        return attrs.evolve(found, severity=severity)


def sentences(pack: Pack) -> Iterator[Sentence]:
    """Every compiled sentence of a pack: its components' fields, then rules.yaml's (as the last
    layer of the pack that wrote each)."""
    for kind, components in pack.components.items():
        for component in components.values():
            for field, compiled in component.compiled.items():
                text = str(value_at(component.data, field))
                source, path = component.at(field)
                for effect in compiled if isinstance(compiled, tuple) else ():
                    yield Sentence(effect, source, path, text, component.id, kind, field)
    for path, compiled in pack.compiled_rules.items():
        data, source = next((layer.own_rules for layer in reversed(pack.lineage())
                             if layer.own_rules and has(layer.own_rules[0], path)), (None, None))
        for effect in compiled if isinstance(compiled, tuple) and source else ():
            yield Sentence(effect, source, path, str(value_at(data, path)),
                           f"rules.yaml {'.'.join(map(str, path))}", None, path)


def _check_loops(pack: Pack) -> Iterator[Diagnostic]:
    """Triggered effects that can set each other off without end (see dsl/loops.py), reported
    at the first one of each circle, naming every piece in it."""
    nodes = []
    for sentence in sentences(pack):
        node = sentence.effect.node
        if sentence.kind is None and sentence.field[0] == "icons":  # what an icon does runs when a card bearing it is taken
            node = attrs.evolve(node, trigger=ast.Trigger("take"))
        piece = sentence.owner if sentence.kind is not None and NAMES_OF[sentence.kind] == "card" else None
        nodes.append(Loop(sentence, node, piece))
    cards = {cid: c.data.get("colour") for cid, c in pack.components["cards"].items()}
    resolve = lambda word: pack.vocabulary.resolve(word, "colour", "card") or word  # noqa: E731
    for loop in find_loops(nodes, cards, resolve):
        first = loop[0].label
        names = " -> ".join(n.label.owner for n in loop + loop[:1])
        message = (f"{first.owner}: '{show(loop[0].effect)}' sets itself off again, without end" if len(loop) == 1 else
                   f"{first.owner}: effects that set each other off without end: {names}")
        yield first.diagnostic("E-DSL-LOOP", message, loop[0].effect.span,
                               "limit one of them with 'once per turn' (or another period): it then runs once a period at most")


def value_at(data: Any, path: tuple) -> Any:
    """The value at a path of keys and indexes."""
    for step in path:
        data = data[step]
    return data


def has(data: Any, path: tuple) -> bool:
    """Whether the data holds a value at that path."""
    for step in path:
        if isinstance(data, dict) and step in data:
            data = data[step]
        elif isinstance(data, list) and isinstance(step, int) and step < len(data):
            data = data[step]
        else:
            return False
    return True


def rules_source(pack: Pack, path: tuple) -> Source | None:
    """The rules.yaml that wrote the value at `path` of the merged rules: the last layer holding it."""
    return next((layer.own_rules[1] for layer in reversed(pack.lineage())
                 if layer.own_rules and has(layer.own_rules[0], path)), None)


def _check_rules(pack: Pack) -> Iterator[Diagnostic]:
    """What the schema cannot say of rules.yaml, one value against another: the player counts,
    the sides every wonder has, the components laid out as objectives (a flow's own: check.py).
    Each would stop a game that the pack's checks let through."""
    rules = pack.rules

    def at(path: tuple, message: str, hint: str | None = None, key: bool = False) -> Diagnostic | None:
        source = rules_source(pack, path)
        return source.diagnostic("E-RULES", message, path, hint, key=key) if source else None

    def dig(*path):
        data = rules
        for step in path:
            data = data.get(step) if isinstance(data, dict) else None
        return data

    low, high = dig("players", "min"), dig("players", "max")
    if isinstance(low, int) and isinstance(high, int) and low > high:
        yield at(("players", "min"), f"players.min is {low}, above players.max {high}: no player count is allowed",
                 "write the least number of players first, then the most")
    high = high if isinstance(high, int) else None
    yield from _check_sides(pack, dig("setup", "sides"))
    yield from _check_objectives(pack, dig("objectives"), high, at)
    yield from _check_option_needs(dig("options"), at)


def _check_option_needs(declared, at) -> Iterator[Diagnostic]:
    """An option `requires` only options of the pack."""
    declared = declared if isinstance(declared, dict) else {}
    for name, spec in declared.items():
        for other in (spec.get("requires") or {}) if isinstance(spec, dict) else ():
            if other not in declared:
                yield at(("options", name, "requires", other), f"option {name} requires '{other}', which is no "
                         "option of this pack", did_you_mean(other, declared) or f"its options: {one_of(declared)}",
                         key=True)


def _check_sides(pack: Pack, sides) -> Iterator[Diagnostic]:
    """Every wonder has each side `setup.sides` lists, and a side it lists not is never dealt (a
    warning); without it, its stages without sides."""
    sides = [s for s in sides if isinstance(s, str)] if isinstance(sides, list) else []
    for wonder in pack.components["wonders"].values():
        own = wonder.data.get("sides")
        for extra in [s for s in own if s not in sides] if sides and isinstance(own, dict) else ():
            found = wonder.diagnostic(
                "W-DEAL", f"{wonder.id}: side '{extra}' is never dealt: rules.yaml setup.sides deals "
                f"{', '.join(sides)}", ("sides", extra),
                f"list '{extra}' in setup.sides (every wonder then needs it), or take the side out", key=True)
            yield attrs.evolve(found, severity="warning")
        if sides:
            missing = [s for s in sides if not isinstance(own, dict) or s not in own]
            if missing:
                yield wonder.diagnostic(
                    "E-REF-SIDE", f"{wonder.id}: no side '{missing[0]}', which rules.yaml setup.sides gives every wonder",
                    ("sides",) if isinstance(own, dict) else ("id",),
                    f"write side '{missing[0]}' of {wonder.id}, or leave it out of setup.sides", key=isinstance(own, dict))
        elif isinstance(own, dict):
            yield wonder.diagnostic(
                "E-REF-SIDE", f"{wonder.id} has sides, but rules.yaml lists no setup.sides to deal them",
                ("sides",), "list the sides in rules.yaml setup.sides, or write the stages without sides",
                key=True)


def _check_objectives(pack: Pack, spec, most: int | None, at) -> Iterator[Diagnostic]:
    """`objectives` lays components of one kind, each with an `objective`: `between_neighbours`
    between each pair of neighbours, and `central.count` more in the middle, so the kind must have
    enough."""
    if not isinstance(spec, dict) or not isinstance(spec.get("kind"), str):
        return
    kind = spec["kind"]
    if kind not in pack.components:
        yield at(("objectives", "kind"), f"objectives lays '{kind}', which is no kind of component",
                 did_you_mean(kind, COMPONENT_KINDS) or f"kinds: {one_of(COMPONENT_KINDS)}")
        return
    pool = pack.components[kind]
    for component in pool.values():
        if "objective" not in component.data:
            yield component.diagnostic(
                "E-RULES", f"{component.id} has no objective, but rules.yaml lays the {kind} out as objectives",
                ("id",), "give it an 'objective:' (a condition), or lay out another kind")
    central = spec.get("central")
    extra = central.get("count") if isinstance(central, dict) and isinstance(central.get("count"), int) else 0
    between = spec.get("between_neighbours") if isinstance(spec.get("between_neighbours"), int) else 1
    needed = most * between + extra if most is not None else 0
    removed = [r for layer in pack.lineage() for r in layer.removals if r.kind == kind and r.id not in pool]
    if len(pool) < needed <= len(pool) + len(removed):  # the base had enough: the removals are to blame
        names = ", ".join(r.id for r in removed)
        yield removed[0].diagnostic(
            "E-RULES", f"removing {names} leaves {len(pool)} {kind}, but objectives lays {needed} at {most} players",
            f"keep {needed - len(pool)} of them, or lower players.max")
    elif len(pool) < needed:
        middle = f" and {extra} in the middle" if extra else ""
        each = "one" if between == 1 else str(between)
        yield at(("objectives",), f"objectives lays {most * between + extra} {kind} at {most} players ({each} between each "
                 f"pair of neighbours{middle}), but the pack has {len(pool)}", f"give the pack more {kind}, or lay fewer",
                 key=True)


_REFERENCE_CHECKS = (_check_cards, _check_wonders, _check_decks, _check_dice, _check_loops, _check_rules)


dsl_diagnostic = _dsl_diagnostic  # for the other files written in the language (botfile.py)

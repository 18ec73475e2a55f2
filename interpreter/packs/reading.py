"""Read packs: a pack's folder and its files, each against its schema, after the packs it extends,
over which it is laid (merging.py); then its sentences compiled (compiling.py) and its content
checked (content_checks.py).

A pack is a folder with `pack.yaml` and one file per component kind, named after the
kind (`cards.yaml`, `wonders.yaml`...). Every problem found becomes a `Diagnostic`;
loading goes on past errors so that an author sees all of them in one run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import attrs

from ...dsl.diagnostics import Diagnostic, control_char, did_you_mean, one_of
from ...dsl.limits import MAX_EXTENDS_DEPTH, MAX_PACKS
from . import yamlsource
from .compiling import compile_pack
from .content_checks import check_content
from .folders import CONTENT, base_folder, find_pack, outside, shipped_packs, shown
from .merging import blame_removals, components, merge_rules, replaced_lists, required_rules
from .model import Pack
from .schemas import BOTS_KIND, EVALUATION_KIND, FILE_KINDS, broken, modeline, named_path, schema_diagnostics, schema_validator, without
from .yamlsource import Source, YamlProblem, folder_files


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


class _Loader:
    """One read: the packs loaded so far, by folder, and every problem found."""

    def __init__(self):
        self.diagnostics: list[Diagnostic] = []
        self.loaded: dict[Path, Pack | None] = {}
        self.loading: set[Path] = set()  # packs whose bases are being read, to catch cycles of folders

    def error(self, diagnostic: Diagnostic) -> None:
        self.diagnostics.append(diagnostic)

    # -- files
    def read(self, path: Path, kind: str, over: bool = False) -> tuple[Any, Source] | None:
        """A file, validated against its kind's schema; a rules.yaml laid `over` a base's rules needs
        none of the required keys alone (the merged rules are checked for them: `required_rules`)."""
        refused = outside(path)
        if refused:
            self.error(Diagnostic("E-PACK-PATH", refused, shown(path),
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
        for err in sorted(schema_validator(kind).iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
            if over and err.validator == "required":
                continue
            self.diagnostics += schema_diagnostics(err, source, lambda path: named_path(data, path))
            bad |= broken(kind, err)
        for path, key, char in _controls(data, ()):
            self.error(attrs.evolve(source.diagnostic(
                "W-CONTROL-CHAR", f"{'a key of ' * key}{named_path(data, path[:-1] if key else path)} holds the "
                f"control character {char}", path, "a terminal acts on such a character (colours, moving the cursor) "
                "instead of showing it: remove it (WonderForge shows it escaped)", key=key), severity="warning"))
        return without(data, bad), source

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
            self.diagnostics += required_rules(pack)
            self.diagnostics += replaced_lists(pack)
        for key in ("vocabulary", "players"):
            if key not in pack.rules:
                self.error(Diagnostic("E-SCHEMA", f"the pack's rules lack '{key}'", shown(folder / "rules.yaml"),
                                      hint=f"give '{key}' in rules.yaml, or extend a pack that does"))
        pack.components, found = components(pack, files, meta, source)
        self.diagnostics += found
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
            found = base_folder(folder, base_id)
            if found is None:
                known = [p.name for p in shipped_packs()] + [p.name for p in folder.parent.glob("*") if (p / "pack.yaml").is_file()]
                self.error(source.diagnostic("E-PACK-MISSING", f"extends unknown pack '{base_id}'", where,
                                             did_you_mean(base_id, known) or f"known packs: {one_of(known)}"))
                continue
            if found.resolve() in self.loading:  # ids that differ from folder names
                self.error(source.diagnostic("E-PACK-CYCLE", f"packs extend each other in a cycle: {' -> '.join(chain)} -> "
                                             f"{found.resolve().name}", where,
                                             "a pack cannot extend itself, directly or through others"))
                continue
            if found.resolve() not in self.loaded and len(self.loaded) >= MAX_PACKS:
                self.error(source.diagnostic("E-LIMIT-PACKS", f"more than {MAX_PACKS} packs to load", where,
                                             f"a pack and all it extends are at most {MAX_PACKS} packs"))
                continue
            base = self.pack(found, chain)
            if base is not None:
                out.append(base)
        return out

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
            if kind in (BOTS_KIND, EVALUATION_KIND):  # the bots' files: read by bots/
                continue
            if kind not in FILE_KINDS:
                self.error(Diagnostic("E-PACK-FILE", f"unknown file kind '{kind}'", shown(path),
                                      hint=did_you_mean(kind, FILE_KINDS) or f"file names: {', '.join(k + '.yaml' for k in FILE_KINDS[1:])}"))
                continue
            read = self.read(path, kind, over=over and kind == "rules")
            if read is not None:
                out[kind] = read
        return out

    # -- the whole pack, once loaded
    def finish(self, pack: Pack) -> None:
        self.diagnostics += compile_pack(pack)
        self.diagnostics += check_content(pack)
        self.diagnostics = blame_removals(pack, _unique(self.diagnostics))
        order = {f: i for i, f in enumerate(dict.fromkeys(d.file for d in self.diagnostics))}
        self.diagnostics.sort(key=lambda d: (order[d.file], d.line, d.column))


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


def _unique(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    seen, out = set(), []
    for d in diagnostics:
        key = (d.file, d.line, d.column, d.code, d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out

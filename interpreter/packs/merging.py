"""A pack laid over the packs it extends: its rules merged over theirs, their components taken in
(a later base's replacing an earlier one's, with a warning when that loses changes), its `remove:`
taking some out and its `modify:` entries laid over others (modify.py lays one entry's data), and
the errors a removal causes in a base's files blamed on that removal."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import attrs

from ...dsl.diagnostics import Diagnostic, did_you_mean, one_of
from ...dsl.vocabulary import word_forms
from .compiling import SENTENCE_LISTS
from .folders import SCHEMAS, shown
from .model import Component, Pack, Removal, has
from .modify import Patch, field_name, overlay
from .schemas import COMPONENT_KINDS, named_path, one_kind, schema_diagnostic, schema_diagnostics, schema_validator
from .yamlsource import Source

LISTED = 40  # names a hint lists whole at most


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


def required_rules(pack: Pack) -> Iterator[Diagnostic]:
    """The required keys of a pack's rules merged over its bases', each missing one reported at
    the pack's own key lacking it (a base lacking one on its own reports it itself)."""
    own, source = pack.own_rules
    for err in schema_validator("rules").iter_errors(pack.rules):
        path = tuple(err.absolute_path)
        if err.validator == "required" and (not path or has(own, path)):
            yield schema_diagnostic(err, source, lambda at: named_path(pack.rules, at))


def replaced_lists(pack: Pack) -> Iterator[Diagnostic]:
    """A rules.yaml list of sentences, or of a vocabulary's names, replaces its bases' whole (lists
    are not merged): a warning at the key when that leaves out what the bases wrote, which a mod
    adding a sentence or a counter easily does (the base's pieces then fail on names it lost)."""
    own, source = pack.own_rules
    below = merge_rules([b.rules for b in pack.bases])
    bases = ", ".join(b.id for b in pack.bases)
    for key in SENTENCE_LISTS:
        mine, theirs = own.get(key), below.get(key)
        dropped = [t for t in theirs if t not in mine] if isinstance(mine, list) and isinstance(theirs, list) else []
        if dropped:
            yield _replaced(source, (key,), f"{key} replaces the list of {bases}: {len(dropped)} of its sentences "
                            f"left out, the first {str(dropped[0])[:60]!r}",
                            "write the base's sentences in it too to keep them")
    for path, mine, theirs in _name_lists(own.get("vocabulary"), below.get("vocabulary"), ("vocabulary",)):
        kept = {form for name in mine if isinstance(name, str) for form in word_forms(name)}
        dropped = [str(t) for t in theirs if not {t, *word_forms(str(t))} & kept]
        if dropped:
            whole = list(dict.fromkeys(map(str, theirs + mine)))
            keep = f"to keep them, write {path[-1]}: [{', '.join(whole)}]" if len(whole) <= LISTED else \
                "write the base's names in it too to keep them"
            yield _replaced(source, path, f"{'.'.join(path)} replaces the list of {bases}, leaving out "
                            f"{one_of(dropped)}: their pieces naming them no longer read", keep)


def _name_lists(mine, theirs, path: tuple) -> Iterator[tuple[tuple, list, list]]:
    """(path, the pack's list, its bases') of each list of names both write in the vocabulary, a
    level into its mappings too (`zones: {shared: [...]}`)."""
    for kind, value in mine.items() if isinstance(mine, dict) and isinstance(theirs, dict) else ():
        other = theirs.get(kind)
        if isinstance(value, list) and isinstance(other, list):
            yield path + (kind,), value, other
        elif len(path) == 1:
            yield from _name_lists(value, other, path + (kind,))


def _replaced(source: Source, path: tuple, message: str, keep: str) -> Diagnostic:
    return attrs.evolve(source.diagnostic("W-RULES-REPLACED", message, path,
                                          f"a list replaces the base's whole: {keep}", key=True), severity="warning")


def components(pack: Pack, files: dict, meta: dict,
               meta_source: Source) -> tuple[dict[str, dict[str, Component]], list[Diagnostic]]:
    """A pack's components: its bases' (the packs extended later win), less what its pack.yaml
    `remove:` takes out, with its own files' and with its `modify:` entries laid over them; and
    the problems found doing it."""
    found: list[Diagnostic] = []
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
            found.append(meta_source.diagnostic(
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
                found.append(source.diagnostic("E-REF-DUPLICATE", f"duplicate {kind} id '{cid}'", (i, "id"),
                                               f"'{cid}' is already defined on line {line}"))
                continue
            first_seen[cid] = i
            merged[kind][cid] = Component(kind, cid, item, source, (i,), pack.id)
    for kind, entries in (meta.get("modify") or {}).items():
        for cid, entry in entries.items():
            found += _modify(pack, merged[kind], kind, cid, entry, meta_source, removed, own.get(kind))
    lost = [(kind, cid, before, base) for kind, cid, before, base in replaced  # unless this pack settles it
            if (kind, cid) not in removed and cid not in own.get(kind, (None, {}))[1]]
    return merged, found + list(_lost(pack, meta, meta_source, lost))


def _modify(pack: Pack, components: dict[str, Component], kind: str, cid: str, entry: dict,
            source: Source, removed: set, own: tuple[Source, dict] | None) -> list[Diagnostic]:
    """Lay a pack.yaml `modify:` entry over the base's component, whose merged data must pass
    its kind's schema; every problem is reported in the entry."""
    where = ("modify", kind, cid)
    refused = _refused(pack, components, kind, cid, entry, removed, own)
    if refused:
        code, message, hint, at = refused
        return [source.diagnostic(code, message, where + at, hint, key=True)]
    base = components[cid]
    data, written, problems = overlay(base.data, entry, base.patches)
    found = [source.diagnostic("E-PACK-MODIFY", f"{cid}: {problem.message}", where + problem.path, problem.hint,
                               key=True) for problem in problems]
    patch = Patch(source, where, pack.id, written)
    errors = sorted(schema_validator(kind).iter_errors([data]), key=lambda e: list(map(str, e.absolute_path)))
    schema = shown(SCHEMAS / f"{kind}.schema.json")
    for err in errors:  # validated as a file holding it alone: its paths start with its index, 0
        found += schema_diagnostics(err, source, lambda path: field_name(cid, data, path[1:]),
                                    lambda path: patch.locate(path[1:])[0], schema)
    if not errors:  # what could not be laid is left out: the rest is checked as it will play
        components[cid] = attrs.evolve(base, data=data, compiled={}, patches=base.patches + (patch,))
    return found


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


def blame_removals(pack: Pack, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
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


def _folder_of(file: str) -> Path | None:
    try:
        return Path(file).absolute().parent.resolve()
    except (OSError, RuntimeError):
        return None


def _names(d: Diagnostic, word: str) -> bool:
    """Whether a diagnostic is about a name: it underlines it, or quotes it in its message."""
    underlined = d.source[d.column - 1:d.end_column - 1].strip("'\"") if d.source and d.line == d.end_line else ""
    return underlined == word or f"'{word}'" in d.message

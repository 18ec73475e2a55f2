"""What a loaded pack is: a `Pack`, its `Component`s (each knowing which file, or which `modify:`
entry, wrote each of its fields), the `Removal`s of its `remove:`, its compiled `Sentence`s, the
`LoadError` of a pack that cannot be played; and values read at a path of its data."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import attrs

from ...dsl.diagnostics import Diagnostic
from ...dsl.vocabulary import Vocabulary
from .modify import Patch
from .schemas import one_kind
from .yamlsource import Source


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
    written: an error it causes elsewhere is reported there (see `merging.blame_removals`)."""

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


class LoadError(Exception):
    """Raised by `load_pack` when a pack has errors; carries every diagnostic."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__(f"{len(diagnostics)} error(s) in pack")
        self.diagnostics = diagnostics


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

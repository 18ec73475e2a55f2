"""What an editor asks about a pack's file at a position, answered from the pack: its problems,
what a word means, what may be typed there, where an id is defined, how to fix a misspelling.

Nothing here speaks the Language Server Protocol (tools/lsp.py does): positions are 1-based lines
and columns of characters, as the diagnostics give them. The texts an editor has not saved yet
are read instead of the files (`yamlsource.unsaved`), so the answers follow what the author types.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

import attrs

from ...dsl.checks import check_cost
from ...dsl.diagnostics import Diagnostic, DslError
from ...dsl.parser import expected_words, parse_cost
from ...dsl.vocabulary import KINDS
from ...interpreter.bots import botwords
from ...interpreter.flows.kinds import FLOWS
from ...interpreter.games.check import check_pack
from ...interpreter.packs.compiling import LANGUAGE_FIELDS, SENTENCE_LISTS
from ...interpreter.packs.folders import shipped_packs
from ...interpreter.packs.model import Component, Pack
from ...interpreter.packs.schemas import one_kind
from ...interpreter.packs.yamlsource import Place, Source, YamlProblem, loads, unsaved
from ..authoring.cards import entry_lines
from ..authoring.entries import catalogue
from . import reference

PACK_FILE = "pack.yaml"
# Fields of a bots file written in the language, and their start rule (docs/bots.md).
BOT_FIELDS = {"if": "condition", "gives": "condition", "best": "count"}
BOTS_FILE = "bots.yaml"
# List fields whose items are ids of components, and the kind of those components.
ID_LISTS = {"chain_from": "cards"}
_WORD = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]*")
_TYPED = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]*$")
# A line that opens a one-line value: its key, and the value typed so far (a quote or a bracket opened).
_KEY_LINE = re.compile(r"^\s*(?:-\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(.*)$")
_DID_YOU_MEAN = re.compile(r"did you mean '([^']+)'\?")


def pack_folder(path: Path) -> Path | None:
    """The folder of the pack a file belongs to: the nearest one holding a pack.yaml."""
    for folder in Path(path).resolve().parents:
        if (folder / PACK_FILE).is_file():
            return folder
    return None


@attrs.define
class Session:
    """One pack as an editor has it: its folder and the unsaved texts of its open files; `check`
    loads it as they read, and keeps the pack for the questions that follow."""

    folder: Path
    texts: dict[Path, str] = attrs.field(factory=dict)
    pack: Pack | None = None

    def check(self) -> list[Diagnostic]:
        """Every problem of the pack as `wonderforge check` finds it, with the unsaved texts."""
        with unsaved(self.texts):
            pack, diagnostics = check_pack(self.folder)
        if pack is not None:
            self.pack = pack
        return diagnostics

    # ---- what is at a position

    def at(self, path: Path, line: int, column: int) -> "Spot | None":
        """What stands at a position of a file of the pack: the innermost value there and its path."""
        text = self._text(path)
        try:
            data, source = loads(text, str(path))
        except YamlProblem:
            return None
        offset = _offset(text, line, column)
        inside = [(p, place) for p, place in source.places.items() if place.start <= offset <= place.end]
        if not inside:
            return None
        where, place = max(inside, key=lambda item: (len(item[0]), -item[1].start))
        word = _word_at(source.line_text(line) or "", column)
        return Spot(path, source, where, _value(data, where), place, offset, word)

    def _text(self, path: Path) -> str:
        held = self.texts.get(Path(path).resolve())
        return held if held is not None else Path(path).read_text(encoding="utf-8")

    # ---- hover

    def hover(self, path: Path, line: int, column: int) -> str | None:
        """Markdown for the word at a position: its entry in the language reference within a
        sentence, what a name of the pack is, or a component's definition."""
        spot = self.at(path, line, column)
        if spot is None or spot.word is None:
            return None
        word = spot.word[0]
        component = self._named(spot, word)
        if spot.language is not None:
            if spot.path.name == BOTS_FILE and word in botwords.WORDS:
                return f"`{word}`: {botwords.WORDS[word].means} (a bot's word, docs/bots.md)"
            kind = self.pack.vocabulary.kind_of(word) if self.pack and self.pack.vocabulary else None
            before = (spot.source.line_text(line) or "")[:spot.word[1] - 1].split()
            trigger = before[-1] if before and before[-1] in ("on", "at") else None  # `on build:` is an event
            said = reference.entry(trigger or ("gain" if kind == "counter" else word))
            if kind is not None and component is None:
                return f"`{word}`: a {KINDS.get(kind, kind)} of this pack" + (f"\n\n{said}" if said else "")
            if said:
                return said
        return self.describe(component) if component is not None else None

    def _named(self, spot: "Spot", word: str) -> Component | None:
        """The component a word at a spot names: in a pack.yaml `remove:`, the base's it takes out."""
        if spot.path.name == PACK_FILE and spot.where[:1] == ("remove",) and len(spot.where) > 1:
            return self.component(word, spot.where[1], bases_only=True)
        return self.component(word)

    def component(self, cid: str, kind: str | None = None, bases_only: bool = False) -> Component | None:
        """The component of that id (of a kind, or of whatever kind, cards first) in the pack, or
        in the packs it extends (the last that has it)."""
        if self.pack is None:
            return None
        packs = self.pack.lineage()[:-1] if bases_only else [self.pack]
        for pack in reversed(packs):
            tables = [pack.components.get(kind, {})] if kind else pack.components.values()
            found = next((table[cid] for table in tables if cid in table), None)
            if found is not None:
                return found
        return None

    def describe(self, component: Component) -> str:
        """A component as `wonderforge cards` shows it, with the file it is written in."""
        entry = next((e for e in catalogue(self.pack).entries if e.id == component.id and e.kind == component.kind),
                     None)
        place = component.source.place(component.path + ("id",))
        lines = entry_lines(entry) if entry is not None else [component.id]
        return (f"{one_kind(component.kind)} `{component.id}` ({Path(component.source.path).name}:{place.line})\n\n"
                "```\n" + "\n".join(lines) + "\n```")

    # ---- definition

    def definition(self, path: Path, line: int, column: int) -> tuple[Path, Place] | None:
        """Where the id at a position is defined: a component's `id:` line, or a base pack's pack.yaml."""
        spot = self.at(path, line, column)
        if spot is None or spot.word is None or self.pack is None:
            return None
        word = spot.word[0]
        if spot.path.name == PACK_FILE and spot.where[:1] == ("extends",):
            base = next((p for p in self.pack.lineage() if p.id == word), None)
            return (base.folder / PACK_FILE, Place(1, 1, 1, 1)) if base is not None else None
        component = self._named(spot, word)
        if component is None:
            return None
        return Path(component.source.path).resolve(), component.source.place(component.path + ("id",))

    # ---- completion

    def complete(self, path: Path, line: int, column: int) -> list[tuple[str, str]]:
        """What may be typed at a position, as (word, what it is), those starting with the part of
        a word already typed: the language's words and the pack's names where a sentence expects
        them (in a cost, only those that keep it sound), component ids in an id list, colours after
        `colour:`, pack ids after `extends:`."""
        context = self._context(path, line, column)
        if context is None:
            return []
        key, where, language, before = context
        typed = (_TYPED.search(before) or [""])[0]
        start = before[:len(before) - len(typed)]
        return [(word, what) for word, what in dict(self._options(key, where, language, before, path)).items()
                if word.startswith(typed) and word != typed
                and (language != "cost" or what == "word of the language" or self._sound_cost(start + word))]

    def _context(self, path: Path, line: int, column: int) -> tuple[str | None, tuple, str | None, str] | None:
        """The key, YAML path, language and text typed so far of the value at a position: from the
        YAML inside a block of lines, else from the line itself (a value maybe still empty, or an
        unclosed quote or bracket, which the YAML does not read yet)."""
        lines = self._text(path).splitlines()
        line_text = lines[line - 1][:column - 1] if 0 < line <= len(lines) else ""
        spot = self.at(path, line, column)
        found = _KEY_LINE.match(line_text)
        if spot is not None and (found is None or isinstance(spot.value, str) and spot.place.line < line):
            return spot.key, spot.where, spot.language, spot.before()
        if found is None:
            return None
        key, before = found.groups()
        where = spot.where if spot is not None else ()
        return key, where, _language(key, where), before.lstrip("\"'[{")

    def _sound_cost(self, cost: str) -> bool:
        """Whether a cost ending with a name just offered stays sound (`2 stone`, not `2 stables`).
        In a sentence a name may begin a longer phrase (`per blue` before `card`): there all are kept."""
        if self.pack is None or self.pack.vocabulary is None:
            return True
        try:
            tree = parse_cost(cost)
        except DslError:
            return True  # not whole yet: nothing to judge
        return not check_cost(tree, self.pack.vocabulary)

    def _options(self, key: str | None, where: tuple, language: str | None, before: str,
                 path: Path) -> Iterator[tuple[str, str]]:
        """What may follow `before` in a value under `key` (at `where`) of a file, written in
        `language` or not."""
        bots = Path(path).name == BOTS_FILE
        if language is not None:
            typed = (_TYPED.search(before) or [""])[0]
            words, names = expected_words(before[:len(before) - len(typed)], language)
            yield from ((w, "word of the language") for w in words)
            if names:
                if bots:  # a bot's words: its score, production... (docs/bots.md)
                    yield from ((w.name, w.means) for w in botwords.WORDS.values())
                yield from self._names()
            return
        if bots and key == "do" and self.pack is not None:  # the game's actions
            kind = FLOWS.get((self.pack.rules.get("flow") or {}).get("kind"))
            yield from ((verb, "action of this game") for verb in sorted(kind.actions if kind else ()))
        if key in ID_LISTS or where[:1] == ("remove",) and len(where) >= 2:
            kind = ID_LISTS.get(key) or where[1]
            for p in (self.pack.lineage() if self.pack else []):
                yield from ((cid, one_kind(kind)) for cid in p.components.get(kind, {}))
        elif key == "colour" and self.pack and self.pack.vocabulary:
            yield from ((c, "colour") for c in sorted(self.pack.vocabulary.all("colour")))
        elif key == "extends":
            yield from ((p.name, "shipped pack") for p in shipped_packs())

    def _names(self) -> Iterator[tuple[str, str]]:
        """The pack's names a sentence may use: its vocabulary, then its components' ids."""
        if self.pack is None:
            return
        if self.pack.vocabulary is not None:
            for kind, names in self.pack.vocabulary.names.items():
                yield from ((n, KINDS.get(kind, kind)) for n in sorted(names))
        for kind, table in self.pack.components.items():
            yield from ((cid, one_kind(kind)) for cid in table)


@attrs.frozen
class Spot:
    """A position in a file: the innermost YAML value there (its path, place and value), the
    offset of the position in the file, and the word under it (with its columns) if any."""

    path: Path
    source: Source
    where: tuple
    value: Any
    place: Place
    offset: int
    word: tuple[str, int, int] | None

    @property
    def key(self) -> str | None:
        """The mapping key the value stands under (for an item of a list, the list's)."""
        return next((k for k in reversed(self.where) if isinstance(k, str)), None)

    @property
    def language(self) -> str | None:
        """The start rule when the value is written in the effect language, else None."""
        return _language(self.key, self.where) if isinstance(self.value, str) else None

    def before(self) -> str:
        """The value's text up to the position (a scalar's text, its quoting and folding undone)."""
        if not isinstance(self.value, str):
            return ""
        raw = self.source.text[self.place.start:self.place.end]
        at = raw.find("\n") + 1 if self.place.style in ("|", ">") else 0
        cursor = self.offset - self.place.start
        out = []
        for char in self.value:
            if not char.isspace():
                found = raw.find(char, at)
                if found < 0 or found >= cursor:
                    break
                at = found + 1
            out.append(char)
        return "".join(out)



def _language(key: str | None, where: tuple) -> str | None:
    """The start rule of a value under `key` (at `where`) written in the effect language, else None."""
    if key in LANGUAGE_FIELDS:
        return LANGUAGE_FIELDS[key]
    if key in SENTENCE_LISTS and where and isinstance(where[-1], int):
        return "effects"
    return BOT_FIELDS.get(key)


def fixes(diagnostic: Diagnostic) -> str | None:
    """The word a diagnostic's hint suggests instead of what it points at (`did you mean 'stone'?`)."""
    found = _DID_YOU_MEAN.search(diagnostic.hint or "")
    return found.group(1) if found else None


def _offset(text: str, line: int, column: int) -> int:
    starts = [0, *(m.end() for m in re.finditer("\n", text))]
    line = max(1, min(line, len(starts)))
    return min(starts[line - 1] + column - 1, len(text))


def _word_at(line_text: str, column: int) -> tuple[str, int, int] | None:
    """The word under a column (1-based), or just before it, and its columns."""
    for found in _WORD.finditer(line_text):
        if found.start() + 1 <= column <= found.end() + 1:
            return found.group(0), found.start() + 1, found.end() + 1
    return None


def _value(data: Any, where: tuple) -> Any:
    for key in where:
        try:
            data = data[key]
        except (KeyError, IndexError, TypeError):
            return None
    return data

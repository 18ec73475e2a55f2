"""Read a YAML file safely, keeping where every value came from.

Packs are untrusted: a file is refused when too large, too deeply nested, too full of
aliases or numbers too long, before anything is built from it. Values come back as
plain data, with a `Source` that maps each path (`("cards", 3, "cost")`) to its place.
"""

from __future__ import annotations

import bisect
import codecs
import contextvars
import os
import re
import stat
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Mapping

import attrs
import yaml
from yaml import events, nodes

from ...dsl.diagnostics import Diagnostic
from ...dsl.limits import MAX_ALIASES, MAX_DEPTH, MAX_FILE_BYTES, MAX_NODES, MAX_NUMBER_CHARS

Path_ = tuple  # a path of keys and indexes into the data


@attrs.frozen
class Place:
    """Where a value starts and ends in its file (1-based), and how its scalar was written."""

    line: int
    column: int
    end_line: int
    end_column: int
    style: str | None = None
    start: int = 0  # character offsets of the value in the file's text
    end: int = 0


@attrs.define
class Source:
    """A file's text and the place of each value in it, by path."""

    path: str
    text: str
    places: dict[tuple, Place] = attrs.field(factory=dict)
    key_places: dict[tuple, Place] = attrs.field(factory=dict)

    def place(self, path: tuple, key: bool = False) -> Place:
        """The place of the value at `path` (or of its key), else of its nearest parent."""
        table = self.key_places if key else self.places
        while path not in table and path:
            path = path[:-1]
            table = self.places
        return table.get(path, Place(1, 1, 1, 1))

    _lines: list[str] | None = attrs.field(default=None, init=False, repr=False, eq=False)
    _starts: list[int] | None = attrs.field(default=None, init=False, repr=False, eq=False)  # of the lines

    @property
    def lines(self) -> list[str]:
        """The file's lines, split once: a file with many diagnostics asks for them each time."""
        if self._lines is None:
            self._lines = self.text.splitlines()
        return self._lines

    def line_text(self, line: int) -> str | None:
        lines = self.lines
        return lines[line - 1] if 0 < line <= len(lines) else None

    def diagnostic(self, code: str, message: str, path: tuple = (), hint: str | None = None,
                   key: bool = False, place: Place | None = None) -> Diagnostic:
        """A diagnostic pointing at the value (or key) at `path`."""
        p = place or self.place(path, key)
        return Diagnostic(code, message, self.path, p.line, p.column, p.end_line, p.end_column,
                          hint, source=self.line_text(p.line))

    def locate_in_text(self, path: tuple, text: str, span) -> Place:
        """The file place of a span inside the string value at `path` (for effect texts).

        The value's visible characters are matched, in order, against the file's text: YAML
        folding, quoting and indentation change only spaces and line ends, so this finds each
        word where the author wrote it, whatever the scalar's style."""
        base = self.place(path)
        if span is None or base.end <= base.start:
            return base
        raw = self.text[base.start:base.end]
        at = raw.find("\n") + 1 if base.style in ("|", ">") else 0  # skip a block's indicator line
        offsets: list[int | None] = []
        for char in text:
            if char.isspace():
                offsets.append(None)
                continue
            found = raw.find(char, at)
            if found < 0:
                break
            offsets.append(found)
            at = found + 1
        inside = [o for o in offsets[span.start:span.end] if o is not None]
        before = [o for o in offsets[:span.start] if o is not None]
        if not inside and span.start >= len(text.rstrip()) and before:
            inside = [before[-1] + 1]  # just past the end: where the missing words should go
        if not inside:
            return base
        first, last = self._position(base.start + inside[0]), self._position(base.start + inside[-1])
        end_column = last[1] + 1 if last[0] == first[0] else first[1] + 1
        return Place(first[0], first[1], first[0], end_column)

    def _position(self, offset: int) -> tuple[int, int]:
        if self._starts is None:  # found once: counting from the start each time is quadratic on a long file
            self._starts = [0, *(m.end() for m in re.finditer("\n", self.text))]
        line = bisect.bisect_right(self._starts, offset)
        return line, offset - self._starts[line - 1] + 1


class YamlProblem(Exception):
    """A file that cannot be read as data; carries its diagnostic."""

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


class FileProblem(Exception):
    """Why `read_plain` could not read a file: `kind` is "plain" (it is `what`, not a plain file),
    "size" (`size` bytes, past the limit) or "read" (`what` the system said)."""

    def __init__(self, kind: str, what: str = "", size: int = 0):
        super().__init__(what)
        self.kind, self.what, self.size = kind, what, size


# Texts an editor holds and has not saved yet, by resolved path: read instead of the files (`unsaved`).
_UNSAVED: contextvars.ContextVar[Mapping[Path, str]] = contextvars.ContextVar("unsaved", default={})


@contextmanager
def unsaved(texts: Mapping[Path, str]) -> Iterator[None]:
    """Meanwhile, reading one of these files reads its text here instead (a language server
    checks what the author is typing); a file it lists must exist on disk all the same."""
    token = _UNSAVED.set({Path(path).resolve(): text for path, text in texts.items()})
    try:
        yield
    finally:
        _UNSAVED.reset(token)


def folder_files(folder: Path) -> list[Path]:
    """The files of a folder, sorted, with those an editor holds unsaved and has not written yet."""
    found = set(folder.iterdir())
    held = _UNSAVED.get()
    if held:
        real = folder.resolve()
        found |= {folder / p.name for p in held if p.parent == real}
    return sorted(found)


def read_plain(path: Path, limit: int) -> bytes:
    """The bytes of a plain file of at most `limit` bytes, a UTF-8 byte order mark left out (as
    YAML and JSON readers skip it: places count from after it); raises FileProblem. A pipe or a
    device is never read: it could block or never end."""
    held = _UNSAVED.get()
    if held:
        text = held.get(Path(path).resolve())
        if text is not None:
            raw = text.encode("utf-8")
            if len(raw) > limit:
                raise FileProblem("size", size=len(raw))
            return raw.removeprefix(codecs.BOM_UTF8)
    try:
        status = os.stat(path)
        if not stat.S_ISREG(status.st_mode):
            raise FileProblem("plain", _kind(status.st_mode))
        # O_NONBLOCK: the path may have become a pipe since; fstat says what was opened
        with os.fdopen(os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)), "rb") as file:
            opened = os.fstat(file.fileno())
            if not stat.S_ISREG(opened.st_mode):
                raise FileProblem("plain", _kind(opened.st_mode))
            raw = file.read(limit + 1)  # never more, even from a file that grows
    except OSError as err:
        raise FileProblem("read", str(err.strerror or err)) from None
    size = max(status.st_size, len(raw))
    if size > limit:
        raise FileProblem("size", size=size)
    return raw.removeprefix(codecs.BOM_UTF8)


def _kind(mode: int) -> str:
    return ("a folder" if stat.S_ISDIR(mode) else "a pipe" if stat.S_ISFIFO(mode) else "a socket"
            if stat.S_ISSOCK(mode) else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a file")


def load(path: Path, shown: str | None = None) -> tuple[Any, Source]:
    """Read a YAML file into plain data and its `Source`; raises `YamlProblem`."""
    shown = shown or str(path)
    try:
        raw = read_plain(path, MAX_FILE_BYTES)
        text = raw.decode("utf-8")
    except FileProblem as err:
        if err.kind == "plain":
            raise YamlProblem(Diagnostic("E-PACK-FILE", "not a plain file", shown,
                                         hint="a pack's files are plain YAML files")) from None
        if err.kind == "size":
            raise YamlProblem(Diagnostic("E-LIMIT-SIZE", f"file is {err.size:,} bytes, more than the "
                                         f"{MAX_FILE_BYTES:,} allowed", shown,
                                         hint="split the pack into smaller files")) from None
        raise YamlProblem(Diagnostic("E-PACK-FILE", f"cannot read file: {err.what}", shown)) from None
    except UnicodeDecodeError as err:
        line = raw.count(b"\n", 0, err.start) + 1
        column = err.start - raw.rfind(b"\n", 0, err.start)
        raise YamlProblem(Diagnostic("E-YAML-ENCODING", f"file is not UTF-8 text: byte 0x{raw[err.start]:02x} cannot start a character",
                                     shown, line, column, line, column + 1, hint="save the file as UTF-8",
                                     source=raw.splitlines()[line - 1].decode("utf-8", "replace"))) from None
    return loads(text, shown)


# libyaml reads a file several times faster than PyYAML's own parser; PyYAML's reports a
# mistake in the words the diagnostics and hints are written for, so a file that libyaml
# refuses is read again by it.
_FAST = getattr(yaml, "CSafeLoader", None)


def loads(text: str, shown: str) -> tuple[Any, Source]:
    """Read YAML text into plain data and its `Source`; raises `YamlProblem`."""
    text = text.removeprefix("\ufeff")  # as YAML does: the places count from after a byte order mark
    if _FAST is not None:
        source = Source(shown, text)
        try:
            _prescan(text, source, _FAST)
            root = yaml.compose(text, Loader=_FAST)
        except (yaml.YAMLError, YamlProblem):
            pass
        else:
            return (None if root is None else _Builder(source).build(root, ())), source
    source = Source(shown, text)
    try:
        _prescan(text, source, yaml.SafeLoader)
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        message = (err.problem or err.context or "invalid YAML").strip()
        if "end of stream" in message and err.context_mark:  # point at what was left open
            mark, message = err.context_mark, f"{err.context}, {message}"
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        hint = _yaml_hint(message)
        if "'\\t'" in message:
            message = "a tab where YAML allows only spaces"
        before = (source.line_text(line) or "")[:column - 1]
        if "mapping values are not allowed" in message and before.strip().isidentifier():
            # `   effect: vp 2` under `  colour: blue`: a key indented off its siblings
            column = len(before) - len(before.lstrip()) + 1
            message = f"key '{before.strip()}' is indented differently from the keys above it"
            hint = f"indent it exactly as much as the other keys of its mapping. {INDENT_HINT}"
        elif "expected <block end>" in message:
            # ` effect: vp 2` under `  colour: blue`, or a list's `- ` out of line with the items above
            message = _misaligned(source, line)
            hint = INDENT_HINT
        raise YamlProblem(source.diagnostic("E-YAML-SYNTAX", f"YAML syntax: {message}",
                                            place=Place(line, column, line, column + 1), hint=hint)) from None
    except yaml.reader.ReaderError as err:  # a character YAML refuses: a control character written raw
        line, column = source._position(err.position)
        raise YamlProblem(source.diagnostic(
            "E-YAML-SYNTAX", f"YAML syntax: the control character 0x{err.character:02x} is not allowed in YAML",
            place=Place(line, column, line, column + 1),
            hint="remove it: a pack's text is made of printable characters")) from None
    except yaml.YAMLError as err:
        raise YamlProblem(Diagnostic("E-YAML-SYNTAX", f"YAML syntax: {' '.join(str(err).split())}", shown)) from None
    if root is None:
        return None, source
    return _Builder(source).build(root, ()), source


# What YAML's indentation is, in plain words, for every indentation mistake.
INDENT_HINT = ("YAML reads the structure from the indentation: two spaces per level, the keys of one "
               "mapping in one column, the '- ' of a list's items lined up, and no tabs")


def _misaligned(source: "Source", line: int) -> str:
    """What is out of line at `line` (a key or a list item), and how deep the line above is."""
    text = (source.line_text(line) or "").rstrip("\r\n")
    indent = len(text) - len(text.lstrip(" "))
    stripped = text.strip()
    what = "this line"
    if stripped.startswith("- ") or stripped == "-":
        what = "this list item"
    elif ":" in stripped and stripped.split(":", 1)[0].strip().replace("-", "_").isidentifier():
        what = f"key '{stripped.split(':', 1)[0].strip()}'"
    above = None
    for number in range(line - 1, 0, -1):
        previous = (source.line_text(number) or "").rstrip("\r\n")
        if previous.strip() and not previous.lstrip().startswith("#"):
            above = len(previous) - len(previous.lstrip(" "))
            break
    said = f"{what} is indented {indent} space{'s' * (indent != 1)}"
    if above is not None and above != indent:
        said += f" (the line above, {above})"
    kin = "items" if what == "this list item" else "keys" if what.startswith("key") else "lines"
    return f"{said}, out of line with the {kin} above it"


def _yaml_hint(message: str) -> str | None:
    if "tab" in message or "'\\t'" in message:
        return f"indent with spaces, not tabs. {INDENT_HINT}"
    if "quoted scalar" in message:
        return "close the quote: a quoted text must end with the same quote on the line or a later one"
    if "mapping values are not allowed" in message:
        return "quote a value that contains ': ', or put a space after the key's colon"
    return None


def _prescan(text: str, source: Source, loader) -> None:
    """Refuse deep nesting, many aliases, aliases that expand too far or hold themselves,
    from the event stream, before anything is built."""
    depth = aliases = total = 0
    frames: list[list] = []  # open collections: [anchor, values inside]
    sizes: dict[str, int] = {}  # anchor -> values it stands for
    for event in yaml.parse(text, Loader=loader):
        if isinstance(event, (events.MappingStartEvent, events.SequenceStartEvent)):
            depth += 1
            if depth > MAX_DEPTH:
                raise _event_problem(source, event, "E-LIMIT-DEPTH", f"nesting deeper than {MAX_DEPTH} levels",
                                     "a pack never needs this much nesting")
            frames.append([event.anchor, 1])
            added = 0
        elif isinstance(event, (events.MappingEndEvent, events.SequenceEndEvent)):
            depth -= 1
            anchor, added = frames.pop()
            if anchor:
                sizes[anchor] = added
        elif isinstance(event, events.ScalarEvent):
            added = 1
            if event.anchor:
                sizes[event.anchor] = 1
        elif isinstance(event, events.AliasEvent):
            aliases += 1
            if aliases > MAX_ALIASES:
                raise _event_problem(source, event, "E-LIMIT-ALIAS", f"more than {MAX_ALIASES} YAML aliases",
                                     "write the values out instead of repeating aliases")
            if any(frame[0] == event.anchor for frame in frames):
                raise _event_problem(source, event, "E-LIMIT-ALIAS", f"alias '*{event.anchor}' refers to a value that holds it",
                                     "an alias may only repeat a value that is complete before it")
            added = sizes.get(event.anchor, 0)  # an unknown alias is the composer's error to report
        else:
            continue
        total += added if not isinstance(event, (events.MappingEndEvent, events.SequenceEndEvent)) else 0
        if frames and not isinstance(event, (events.MappingStartEvent, events.SequenceStartEvent)):
            frames[-1][1] += added
        if total > MAX_NODES:
            raise _event_problem(source, event, "E-LIMIT-ALIAS", f"the file expands to more than {MAX_NODES:,} values",
                                 "aliases multiply values: write them out")


def _event_problem(source: Source, event: events.Event, code: str, message: str, hint: str) -> YamlProblem:
    line, column = event.start_mark.line + 1, event.start_mark.column + 1
    return YamlProblem(source.diagnostic(code, message, place=Place(line, column, line, column + 1), hint=hint))


class _Builder:
    """Builds plain data from a composed node tree, recording places and refusing excess."""

    _numbers = {"tag:yaml.org,2002:int", "tag:yaml.org,2002:float"}
    _plain_tags = {f"tag:yaml.org,2002:{t}" for t in ("str", "int", "float", "bool", "null", "seq", "map", "timestamp")}

    def __init__(self, source: Source):
        self.source = source
        self.count = 0
        self.constructor = yaml.SafeLoader("")

    def place(self, node: nodes.Node) -> Place:
        s, e = node.start_mark, node.end_mark
        style = getattr(node, "style", None) or None  # libyaml says '' for a plain scalar
        return Place(s.line + 1, s.column + 1, e.line + 1, e.column + 1, style, s.index, e.index)

    def problem(self, code: str, message: str, node: nodes.Node, hint: str | None = None) -> YamlProblem:
        return YamlProblem(self.source.diagnostic(code, message, place=self.place(node), hint=hint))

    def build(self, node: nodes.Node, path: tuple) -> Any:
        self.count += 1
        if self.count > MAX_NODES:
            raise self.problem("E-LIMIT-ALIAS", f"the file expands to more than {MAX_NODES:,} values",
                               node, "aliases multiply values: write them out")
        self.source.places[path] = self.place(node)
        if node.tag not in self._plain_tags:
            tag = node.tag.replace("tag:yaml.org,2002:", "!!")
            raise self.problem("E-YAML-VALUE", f"the tag '{tag}' is not allowed: packs hold plain data", node,
                               "remove the tag; nothing in a pack is ever run as code")
        if isinstance(node, nodes.MappingNode):
            return self.mapping(node, path)
        if isinstance(node, nodes.SequenceNode):
            return [self.build(item, path + (i,)) for i, item in enumerate(node.value)]
        return self.scalar(node)

    def mapping(self, node: nodes.MappingNode, path: tuple) -> dict:
        out: dict = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, nodes.ScalarNode):
                raise self.problem("E-YAML-KEY", "a key must be a plain word or number", key_node)
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise self.problem("E-YAML-KEY", "merge keys ('<<') are not supported", key_node,
                                   "write the keys out")
            key = self.scalar(key_node)
            if key in out:
                first = self.source.key_places[path + (key,)]
                raise self.problem("E-YAML-DUPLICATE-KEY", f"key '{key}' appears twice in one mapping", key_node,
                                   f"the first '{key}' is on line {first.line}")
            self.source.key_places[path + (key,)] = self.place(key_node)
            out[key] = self.build(value_node, path + (key,))
        return out

    def scalar(self, node: nodes.ScalarNode) -> Any:
        if node.tag == "tag:yaml.org,2002:str":
            return node.value  # most values: what the constructor would give, without its cost
        if node.tag in self._numbers and len(node.value) > MAX_NUMBER_CHARS:
            raise self.problem("E-LIMIT-NUMBER", f"number of {len(node.value):,} characters is too long",
                               node, f"numbers in packs have at most {MAX_NUMBER_CHARS} characters")
        try:
            value = self.constructor.construct_object(node)
        except Exception:  # noqa: BLE001 - an explicit tag on a bad value fails in many ways
            # (`!!int x` ValueError, `!!bool x` KeyError, `!!timestamp x` AttributeError)
            kind = node.tag.rsplit(":", 1)[-1]
            raise self.problem("E-YAML-VALUE", f"cannot read '{node.value[:40]}' as a {kind}", node,
                               "quote it to keep it as text, and write no '!!' tag: a pack's values need none") from None
        if not isinstance(value, (str, int, float, bool, type(None))):
            return node.value  # dates and the like stay text; the schema says what it wants
        return value

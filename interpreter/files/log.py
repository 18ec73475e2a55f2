"""Game logs in JSON Lines: a header (pack, seed, players, options), one line per action, the result.

A seed and the actions replay a game exactly, so a log is enough to check a result again
(`wonderforge replay`). Lines follow `schemas/log.schema.json`.

A log is untrusted input, read with the limits of a pack's files (dsl/limits.py): a plain file
only, bounded in size, line length, nesting and numbers, UTF-8 with or without a BOM. Whatever
is wrong with one is a LogError at its line, quoting a bounded part of it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import IO, Iterable, Sequence

import attrs
import jsonschema

from ... import __version__
from ...dsl.diagnostics import Diagnostic
from ...dsl.limits import MAX_LOG_BYTES, MAX_LOG_DEPTH, MAX_LOG_LINE_CHARS, MAX_NUMBER_CHARS
from ..core.actions import Action
from ..core.choosing import ChoiceError
from ..core.errors import EndlessGame
from ..core.state import State
from ..games.game import Game, GameError
from ..games.loading import load_game
from ..packs.folders import SCHEMAS, find_pack, shipped_packs
from ..packs.model import LoadError
from ..packs.yamlsource import FileProblem, read_plain

QUOTE_CHARS = 100  # the most of a log line a diagnostic quotes
WRITTEN_BY = "a log is the JSON Lines file `wonderforge play --log` (or interpreter.log.write) writes"
ANOTHER = "was the log played with another pack? `wonderforge replay --pack PATH` replays it against another"
# load_game's own parameters: an option of that name could not be passed to it
RESERVED_OPTIONS = ("pack_or_path", "players", "seed", "wonders")


def _whole_integer(checker, value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)  # JSON Schema alone lets 3.0 pass


_Strict = jsonschema.validators.extend(
    jsonschema.Draft202012Validator,
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _whole_integer))


class _LineValidator:
    """Checks a line against the schema's branch for its "type": a third of the work of the
    whole `oneOf`, and errors that name the field rather than every branch."""

    def __init__(self, schema: dict):
        self.branches = {b["properties"]["type"]["const"]: _Strict(b) for b in schema["oneOf"]}

    def iter_errors(self, line: dict):
        branch = self.branches.get(line.get("type"))
        return branch.iter_errors(line) if branch else iter(())


_SCHEMA = json.loads((SCHEMAS / "log.schema.json").read_text(encoding="utf-8"))
_VALIDATOR = _LineValidator(_SCHEMA)
KINDS = tuple(_VALIDATOR.branches)


class LogError(Exception):
    """A log that cannot be read or replayed; carries a diagnostic pointing at the bad line."""

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


@attrs.frozen
class GameLog:
    """A read log: what the header says, the actions in order, the recorded result (if any)."""

    pack: str
    seed: int
    players: int
    options: dict
    actions: tuple[tuple[int, dict], ...]
    result: dict | None = None
    file: str = ""
    action_lines: tuple[int, ...] = ()
    packs: tuple[tuple[str, str], ...] = ()  # (id, version) of the packs played, bases first
    header_line: int = 1
    header_text: str = ""  # the header line as written, to point into
    wonders: tuple[str, ...] | None = None  # the wonders assigned to seats, as written (choosing.py)


def header(game: Game, pack: str) -> dict:
    """The first line of a log; `pack` is what `load_game` was given (an id or a folder)."""
    return {"type": "header", "pack": pack, **game.describe(), "engine": f"wonderforge {__version__}"}


def action_line(game: Game, step: int, seat: int, action: Action) -> dict:
    return {"type": "action", "step": step, "player": seat, "action": action.to_json(game.payees)}


def result_line(state: State) -> dict:
    return {"type": "result", "scores": state.scores(), "winners": state.winners()}


def write(out: IO[str], lines: Iterable[dict]) -> None:
    """Write lines of a log, one JSON object each."""
    for line in lines:
        out.write(json.dumps(line, separators=(",", ":")) + "\n")


def lines_of(state: State, pack: str, bots: Sequence[str | None] | None = None) -> list[dict]:
    """The whole log of a played game; `bots`, who played each seat (None for a person), if known."""
    game = state.game
    lines = [header(game, pack) | {"seed": state.seed} | ({"bots": list(bots)} if bots is not None else {})]
    lines += [action_line(game, i, seat, action) for i, (seat, action) in enumerate(state.history)]
    if state.is_terminal():
        lines.append(result_line(state))
    return lines


# ---- reading ----------------------------------------------------------------------------------


def read(path: Path) -> GameLog:
    """Read and check a log file; raises LogError at the first bad line."""
    shown = str(path)
    head, head_at, head_raw, actions, lines, result = None, 0, "", [], [], None
    for n, raw in enumerate(_text(path, shown).split("\n"), 1):
        raw = raw.removesuffix("\r")
        if len(raw) > MAX_LOG_LINE_CHARS:
            raise _bad("E-LOG-LIMIT", shown, n, raw, f"line of {len(raw):,} characters, more than the "
                       f"{MAX_LOG_LINE_CHARS:,} allowed", "a log's lines are short: " + WRITTEN_BY)
        if not raw.strip():
            continue
        line = _parse(raw, n, shown)
        kind = line["type"]
        _in_order(kind, head is not None, result and result[1], n, raw, shown)
        if kind == "header":
            head, head_at, head_raw = _header(line, n, raw, shown), n, raw
        elif kind == "action":
            _step(line, len(actions), n, raw, shown)
            actions.append((line["player"], line["action"]))
            lines.append(n)
        else:
            result = (line, n)
    if head is None:
        raise LogError(Diagnostic("E-LOG-EMPTY", "the log holds no header line", shown, hint=WRITTEN_BY))
    packs = tuple((p["id"], p["version"]) for p in head["packs"])
    return GameLog(head.get("pack") or packs[-1][0], head["seed"], head["players"], head.get("options") or {},
                   tuple(actions), result and result[0], shown, tuple(lines), packs, head_at, head_raw,
                   tuple(head["wonders"]) if head.get("wonders") else None)


def _in_order(kind: str, headed: bool, result_at: int | None, n: int, raw: str, shown: str) -> None:
    """A header first, once; the result last."""
    if not headed and kind != "header":
        raise _bad("E-LOG-LINE", shown, n, raw, "a log starts with its header line",
                   'the first line has "type": "header"')
    if headed and kind == "header":
        raise _bad("E-LOG-LINE", shown, n, raw, "a second header line", "one log holds one game")
    if result_at:
        raise _bad("E-LOG-LINE", shown, n, raw, f"a line after the result line (line {result_at})",
                   "the result is the last line of a log")


def _text(path: Path, shown: str) -> str:
    """The log's text: a plain file (`read_plain`), at most MAX_LOG_BYTES, UTF-8 with its BOM, if
    any, left out."""
    try:
        raw = read_plain(path, MAX_LOG_BYTES)
    except FileProblem as err:
        if err.kind == "plain":
            raise LogError(Diagnostic("E-LOG-FILE", f"not a plain file: {err.what}", shown, hint=WRITTEN_BY)) from None
        if err.kind == "size":
            raise LogError(Diagnostic("E-LOG-LIMIT", f"the log is {err.size:,} bytes, more than the {MAX_LOG_BYTES:,} "
                                      "allowed", shown, hint="the log of a long game is a few tens of KB: " + WRITTEN_BY)) from None
        raise LogError(Diagnostic("E-LOG-READ", f"cannot read the log: {err.what}", shown, hint=WRITTEN_BY)) from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise _not_utf8(raw, err.start, shown) from None


def _not_utf8(raw: bytes, at: int, shown: str) -> LogError:
    start = raw.rfind(b"\n", 0, at) + 1
    end = raw.find(b"\n", at)
    line = raw.count(b"\n", 0, at) + 1
    column = len(raw[start:at].decode("utf-8", "replace")) + 1
    text = raw[start:end if end >= 0 else len(raw)].decode("utf-8", "replace")
    return _bad("E-LOG-ENCODING", shown, line, text, f"not UTF-8 text: byte 0x{raw[at]:02x} cannot start a "
                "character here", "a log is UTF-8 text: was a binary file given, or the log saved in "
                "another encoding?", column)


class _NumberProblem(ValueError):
    """A number JSON allows that a log may not hold: `text` as written, `message` why."""

    def __init__(self, text: str, code: str, message: str, hint: str):
        super().__init__(message)
        self.text, self.code, self.message, self.hint = text, code, message, hint


def _number(text: str, make):
    if len(text) > MAX_NUMBER_CHARS:  # int() of 4,300 digits or more fails; long ones cost time anyway
        raise _NumberProblem(text, "E-LOG-LIMIT", f"number of {len(text):,} characters is too long",
                             f"numbers in a log have at most {MAX_NUMBER_CHARS} characters")
    value = make(text)
    if value in (float("inf"), float("-inf")):
        raise _NumberProblem(text, "E-LOG-LIMIT", f"number {text} is too large", "write a smaller number")
    return value


def _constant(text: str):
    raise _NumberProblem(text, "E-LOG-LINE", f"not JSON: {text} is not a JSON number",
                         "each line of a log is one JSON object")


def _parse(raw: str, n: int, shown: str) -> dict:
    deep = _too_deep(raw)
    if deep:  # json.loads recurses once a level: refused before it runs out of stack
        raise _bad("E-LOG-LIMIT", shown, n, raw, f"nesting deeper than {MAX_LOG_DEPTH} levels",
                   "a log line nests a few objects at most", deep)
    try:
        line = json.loads(raw, parse_int=lambda t: _number(t, int), parse_float=lambda t: _number(t, float),
                          parse_constant=_constant)
    except json.JSONDecodeError as err:
        raise _bad("E-LOG-LINE", shown, n, raw, f"not JSON: {err.msg}", "each line of a log is one JSON object",
                   err.colno) from None
    except _NumberProblem as err:
        raise _bad(err.code, shown, n, raw, err.message, err.hint, raw.find(err.text) + 1) from None
    except RecursionError:  # not reached past _too_deep; kept so no input can end in a traceback
        raise _bad("E-LOG-LIMIT", shown, n, raw, "nesting too deep", "a log line nests a few objects at most") from None
    if not isinstance(line, dict) or line.get("type") not in KINDS:
        what = f'"type" {json.dumps(line.get("type"))[:40]}' if isinstance(line, dict) else f"a JSON {_json_kind(line)}"
        raise _bad("E-LOG-LINE", shown, n, raw, f"not a log line: {what}",
                   f'each line is a JSON object whose "type" is {", ".join(KINDS)}', _column(raw, "type"))
    problem = next(iter(sorted(_VALIDATOR.iter_errors(line), key=lambda e: list(map(str, e.path)))), None)
    if problem is not None:
        path = list(problem.absolute_path)
        where = "/".join(str(p) for p in path)
        keys = [p for p in path if isinstance(p, str)]
        raise _bad("E-LOG-LINE", shown, n, raw, f"not a log line{' at ' + where if where else ''}: "
                   f"{_schema_words(problem)}", "see schemas/log.schema.json",
                   _column(raw, keys[-1]) if keys else 1)
    return line


def _too_deep(raw: str) -> int:
    """The column where objects and lists nest past MAX_LOG_DEPTH (strings skipped), or 0."""
    if raw.count("[") + raw.count("{") <= MAX_LOG_DEPTH:
        return 0
    depth, inside = 0, False
    for token in _TOKENS.finditer(raw):  # single characters or escapes: no backtracking
        char = token.group()
        if char == '"':
            inside = not inside
        elif inside:
            continue
        elif char in "[{":
            depth += 1
            if depth > MAX_LOG_DEPTH:
                return token.start() + 1
        elif char in "]}":
            depth -= 1
    return 0


_TOKENS = re.compile(r'\\.|["\[\]{}]')


_TYPE_WORDS = {"integer": "a whole number", "number": "a number", "string": "a text", "boolean": "true or false",
               "object": "an object", "array": "a list", "null": "null"}


def _schema_words(problem: jsonschema.ValidationError) -> str:
    """The schema's complaint, its values written as JSON (jsonschema writes Python's `True`)."""
    if problem.validator != "type":
        return _short(problem.message)
    wanted = problem.validator_value if isinstance(problem.validator_value, list) else [problem.validator_value]
    words = [_TYPE_WORDS[t] for t in wanted]
    wanted = ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else words[0]
    return f"{_short(json.dumps(problem.instance), 40)} is not {wanted}"


def _json_kind(value) -> str:
    return {list: "list", str: "string", bool: "boolean", type(None): "null"}.get(type(value), "number")


def _header(line: dict, n: int, raw: str, shown: str) -> dict:
    """The header, with option names load_game could not take refused."""
    for name in line.get("options") or {}:
        if name in RESERVED_OPTIONS:
            raise _bad("E-LOG-LINE", shown, n, raw, f"'{name}' is not an option",
                       'the header\'s own "players", "seed" and "wonders" give the player count, the seed and the wonders assigned',
                       _column(raw, name, "options"))
    return line


def _step(line: dict, expected: int, n: int, raw: str, shown: str) -> None:
    step = line.get("step", expected)
    if step != expected:
        raise _bad("E-LOG-LINE", shown, n, raw, f"step {step} where step {expected} comes next",
                   "a log's actions are numbered from 0, one after the other: was a line removed or moved?",
                   _column(raw, "step"))


def _column(raw: str, key: str, within: str | None = None) -> int:
    """The column of `"key":` in a line (the first such, after the key `within` if given), else 1."""
    start = _column(raw, within) - 1 if within else 0
    found = re.compile(re.escape(json.dumps(key)) + r"\s*:").search(raw, start)
    return found.start() + 1 if found else 1


def _short(text: str, limit: int = QUOTE_CHARS) -> str:
    text = _visible(text)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _visible(text: str) -> str:
    """Control and other invisible characters as U+FFFD, one for one, so columns stay true."""
    return text if text.isprintable() else "".join(c if c.isprintable() else "\ufffd" for c in text)


def _bad(code: str, shown: str, n: int, raw: str, message: str, hint: str | None, column: int = 1,
         severity: str = "error") -> LogError:
    return LogError(_at(code, shown, n, raw, message, hint, column, severity))


def _at(code: str, shown: str, n: int, raw: str, message: str, hint: str | None, column: int = 1,
        severity: str = "error") -> Diagnostic:
    """A diagnostic at a line of a log, quoting the line's start up to a little past the column
    (QUOTE_CHARS at least, twice that at most: the caret stays under its character); a column
    farther along gets the words around it in the message instead."""
    column = max(1, column)
    end = max(QUOTE_CHARS, column + 30)
    if end > 2 * QUOTE_CHARS:
        near = _visible(raw[column - 31:column + 29])
        return Diagnostic(code, f"{message} (near '{near}')", shown, n, column, hint=hint, severity=severity)
    source = _visible(raw[:end]) + ("…" if len(raw) > end else "")
    return Diagnostic(code, message, shown, n, column, hint=hint, severity=severity, source=source)


# ---- replaying --------------------------------------------------------------------------------


def game_of(log: GameLog, pack: str | Path | None = None) -> tuple[Game, list[Diagnostic]]:
    """The game a log was played in, from the pack it names (a shipped pack id, or a folder, a
    relative one from the log's folder) or from `pack` given by hand instead; with warnings
    where the pack differs from the log's in version (or, given by hand, in id). Raises LogError
    for a game that cannot be set up again, or a pack of another id than the log's."""
    target = pack if pack is not None else pack_of(log)
    if find_pack(str(target)) is None:
        raise _header_error(log, "E-LOG-GAME", f"no pack {str(target)!r}", "pack",
                            "a pack folder named in a log is relative to the log's folder; "
                            "`wonderforge replay --pack PATH` replays it against another")
    try:
        game = load_game(target, players=log.players, seed=log.seed, wonders=log.wonders, **log.options)
    except LoadError:
        raise _header_error(log, "E-LOG-GAME", f"the pack {str(target)!r} has errors", "pack",
                            f"`wonderforge check {target}` lists them") from None
    except GameError as err:
        text = str(err)
        field = "wonders" if isinstance(err, ChoiceError) else "options" if "option" in text else \
            "players" if "players" in text else "pack"
        raise _header_error(log, "E-LOG-GAME", f"cannot set the game up again: {text}", field, ANOTHER) from None
    _check_options(log, game)
    return game, _compare(log, game, given=pack is not None)


def pack_of(log: GameLog) -> str | Path:
    """What the log's pack is loaded from: a shipped pack's id as it is, a folder from the log's
    folder (so a log and its pack can move together)."""
    name = log.pack
    if "/" not in name and "\\" not in name and name in {p.name for p in shipped_packs()}:
        return name
    return Path(log.file).parent / name  # an absolute `name` stays itself


def _check_options(log: GameLog, game: Game) -> None:
    """Each option's value is of the type of its default in rules.yaml (as `simulate --options`
    reads them), so a game never runs on a `medals: "no"` that would count as true."""
    declared = game.pack.rules.get("options") or {}
    for name, value in log.options.items():
        default = declared[name].get("default") if isinstance(declared.get(name), dict) else None
        kind = next((k for k in (bool, int, str) if isinstance(default, k)), None)
        if kind is not None and (not isinstance(value, kind) or (kind is int and isinstance(value, bool))):
            words = {bool: "true or false", int: "a whole number", str: "a text"}[kind]
            raise _header_error(log, "E-LOG-GAME", f"option {name} of {game.pack.id} is {words}, not "
                                f"{_short(json.dumps(value), 40)}", name, f"its default is {json.dumps(default)}",
                                "options")


def _compare(log: GameLog, game: Game, given: bool) -> list[Diagnostic]:
    """Warnings (or the error) for a pack played that is not the one the log names."""
    logged, played = list(log.packs), [(p.id, p.version) for p in game.pack.lineage()]
    if logged == played:
        return []
    message = f"the log was played with {_names(logged)}, and is replayed with {_names(played)}"
    if [i for i, _ in logged] != [i for i, _ in played] and not given:
        raise _header_error(log, "E-LOG-PACK", message, "packs",
                            "give the pack the log was played with: `wonderforge replay --pack PATH`")
    code = "W-LOG-VERSION" if [i for i, _ in logged] == [i for i, _ in played] else "W-LOG-PACK"
    return [_at(code, log.file, log.header_line, log.header_text, message,
                "another pack or version may play otherwise: a mismatch or an illegal action may come "
                "from the difference", _column(log.header_text, "packs"), "warning")]


def _names(packs: list[tuple[str, str]]) -> str:
    return " + ".join(f"{i} {v}" for i, v in packs) or "no pack"


def _header_error(log: GameLog, code: str, message: str, field: str, hint: str | None,
                  within: str | None = None) -> LogError:
    column = _column(log.header_text, field, within)
    return _bad(code, log.file, log.header_line, log.header_text, message, hint, column)


def replay(log: GameLog, game: Game | None = None) -> State:
    """Play the logged actions again from the logged seed (in `game`, by default the one the log
    names: `game_of`); raises LogError where one is not legal."""
    game = game if game is not None else game_of(log)[0]
    try:
        state = game.new_state()
    except GameError as err:  # a pack that cannot be dealt for this count (`check` says so too)
        raise _header_error(log, "E-LOG-GAME", f"cannot set the game up again: {err}", "players",
                            f"`wonderforge check {log.pack}` lists the counts the pack cannot be dealt for") from None
    for (seat, data), n in zip(log.actions, log.action_lines):
        action = Action.from_json(data, game.payees)
        if seat not in state.current_players() or action not in state.legal_actions(seat):
            raise LogError(Diagnostic("E-LOG-ILLEGAL", f"seat {seat} cannot play {_short(str(action))} here",
                                      log.file, n, 1, hint="the log does not match this pack version or was edited"))
        try:
            state.apply(seat, action)
        except EndlessGame as err:  # a pack whose effects loop: the engine's error names it
            raise LogError(Diagnostic("E-LOG-GAME", _short(str(err), 400), log.file, n, 1,
                                      hint=f"`wonderforge check {log.pack}` may find the loop")) from None
    return state


def matches(log: GameLog, state: State) -> bool:
    """Whether a replay reproduces the logged result."""
    return log.result is not None and state.is_terminal() and log.result == result_line(state)

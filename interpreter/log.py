"""Game logs in JSON Lines: a header (pack, seed, players, options), one line per action, the result.

A seed and the actions replay a game exactly, so a log is enough to check a result again
(`wonderforge replay`). Lines follow `schemas/log.schema.json`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Iterable

import attrs
import jsonschema

from .. import __version__
from ..dsl.diagnostics import Diagnostic
from .actions import Action
from .game import Game, GameError
from .loading import load_game
from .packs import SCHEMAS, LoadError
from .state import State

_VALIDATOR = jsonschema.Draft202012Validator(json.loads((SCHEMAS / "log.schema.json").read_text(encoding="utf-8")))


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


def header(game: Game, pack: str) -> dict:
    """The first line of a log; `pack` is what `load_game` was given (an id or a folder)."""
    return {"type": "header", "pack": pack, **game.describe(), "engine": f"wonderforge {__version__}"}


def action_line(game: Game, step: int, seat: int, action: Action) -> dict:
    return {"type": "action", "step": step, "player": seat, "action": action.to_json(game.sellers)}


def result_line(state: State) -> dict:
    return {"type": "result", "scores": state.scores(), "winners": state.winners()}


def write(out: IO[str], lines: Iterable[dict]) -> None:
    """Write lines of a log, one JSON object each."""
    for line in lines:
        out.write(json.dumps(line, separators=(",", ":")) + "\n")


def lines_of(state: State, pack: str) -> list[dict]:
    """The whole log of a played game."""
    game = state.game
    lines = [header(game, pack) | {"seed": state.seed}]
    lines += [action_line(game, i, seat, action) for i, (seat, action) in enumerate(state.history)]
    if state.is_terminal():
        lines.append(result_line(state))
    return lines


def read(path: Path) -> GameLog:
    """Read and check a log file; raises LogError at the first bad line."""
    shown = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise LogError(Diagnostic("E-LOG-READ", f"cannot read the log: {err.strerror}", shown)) from None
    head, actions, lines, result = None, [], [], None
    for n, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        line = _parse(raw, n, shown)
        kind = line["type"]
        if head is None and kind != "header":
            raise _bad(shown, n, raw, "a log starts with its header line", 'the first line has "type": "header"')
        if kind == "header":
            if head is not None:
                raise _bad(shown, n, raw, "a second header line", "one log holds one game")
            head = line
        elif kind == "action":
            actions.append((line["player"], line["action"]))
            lines.append(n)
        else:
            result = line
    if head is None:
        raise LogError(Diagnostic("E-LOG-EMPTY", "the log holds no header line", shown))
    pack = head.get("pack") or head["packs"][-1]["id"]
    return GameLog(pack, head["seed"], head["players"], head.get("options") or {}, tuple(actions), result,
                   shown, tuple(lines))


def _parse(raw: str, n: int, shown: str) -> dict:
    try:
        line = json.loads(raw)
    except json.JSONDecodeError as err:
        raise _bad(shown, n, raw, f"not JSON: {err.msg}", "each line of a log is one JSON object", err.colno) from None
    problem = next(iter(sorted(_VALIDATOR.iter_errors(line), key=lambda e: e.path)), None)
    if problem is not None:
        where = "/".join(str(p) for p in problem.absolute_path)
        raise _bad(shown, n, raw, f"not a log line{' at ' + where if where else ''}: {problem.message}",
                   "see schemas/log.schema.json")
    return line


def _bad(shown: str, n: int, raw: str, message: str, hint: str, column: int = 1) -> LogError:
    return LogError(Diagnostic("E-LOG-LINE", message, shown, n, column, hint=hint, source=raw))


def replay(log: GameLog) -> State:
    """Play the logged actions again from the logged seed; raises LogError where one is not legal."""
    try:
        game = load_game(log.pack, players=log.players, seed=log.seed, **log.options)
    except (GameError, LoadError) as err:
        message = str(err) if isinstance(err, GameError) else f"pack {log.pack!r} has errors"
        raise LogError(Diagnostic("E-LOG-GAME", f"cannot set the game up again: {message}", log.file, 1, 1)) from None
    state = game.new_state()
    for (seat, data), n in zip(log.actions, log.action_lines):
        action = Action.from_json(data, game.sellers)
        if seat not in state.current_players() or action not in state.legal_actions(seat):
            raise LogError(Diagnostic("E-LOG-ILLEGAL", f"seat {seat} cannot play {action} here", log.file, n, 1,
                                      hint="the log does not match this pack version or was edited"))
        state.apply(seat, action)
    return state


def matches(log: GameLog, state: State) -> bool:
    """Whether a replay reproduces the logged result."""
    return log.result is not None and state.is_terminal() and log.result == result_line(state)

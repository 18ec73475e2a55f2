"""Game logs for the command-line tests: a logged bot game, and a log edited line by line."""

from __future__ import annotations

import json
from pathlib import Path

from wonderforge.interpreter import State, load_game
from wonderforge.interpreter.files import log as gamelog
from wonderforge.interpreter.bots.registry import play


def logged_game(folder: Path, pack: str, players: int, seed: int, bots: list[str]) -> tuple[Path, State]:
    """A game between bots, written as a log in `folder`."""
    state = play(load_game(pack, players=players, seed=seed), bots)
    path = folder / "bots.jsonl"
    with path.open("w", encoding="utf-8") as out:
        gamelog.write(out, gamelog.lines_of(state, pack))
    return path, state


def edited(path: Path, folder: Path, edit) -> Path:
    """A copy of a log after `edit` changed its lines (parsed JSON objects)."""
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    edit(lines)
    out = folder / "edited.jsonl"
    out.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return out

"""Loading a game: its pack read and checked (check.py), then a `Game` for a player count, a seed
and options. `load_game` is the engine's entry point (`from wonderforge.interpreter import load_game`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from ..core.errors import GameError
from ..flows.kinds import FLOWS
from ..packs.folders import find_pack
from ..packs.model import Pack
from .check import load_pack
from .game import Game


def load_game(pack_or_path: str | Path | Pack, players: int | None = None, seed: int = 0, *,
              wonders: str | Sequence[str] | None = None, **options: Any) -> Game:
    """A game of a shipped pack (by id) or of any pack folder, for `players` players (the pack's
    minimum by default), with `wonders` assigned to seats if given (`WONDER:SIDE,WONDER,*`: see
    choosing.py). Raises `GameError` with a clear message for what cannot be played, and
    `packs.LoadError` (with every diagnostic) for a pack with errors."""
    pack = pack_or_path if isinstance(pack_or_path, Pack) else _pack(pack_or_path)
    kind = (pack.rules.get("flow") or {}).get("kind")
    if kind not in FLOWS:
        raise GameError(f"pack {pack.id!r} cannot be played yet: its rules.yaml gives no flow kind this "
                        f"engine runs (known: {', '.join(FLOWS)})")
    bounds = pack.rules["players"]
    players = bounds["min"] if players is None else players
    if not bounds["min"] <= players <= bounds["max"]:
        raise GameError(f"{pack.id} plays with {bounds['min']} to {bounds['max']} players, not {players}")
    return Game(pack, players, seed, options, FLOWS[kind], wonders)


def _pack(name: str | Path) -> Pack:
    if find_pack(str(name)) is None:
        raise GameError(f"no pack {str(name)!r}: give a shipped pack id or the path of a pack folder")
    return load_pack(name)

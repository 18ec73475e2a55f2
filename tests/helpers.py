"""Helpers every game's tests share: games loaded once, deals, positions set up seat by seat, random games.

The per-game helper modules (sevenwonders_helpers, architects_helpers, dice_helpers) bind these to
their pack and add what only their game needs.
"""

from __future__ import annotations

import random
import shutil
from functools import lru_cache
from pathlib import Path

from wonderforge.interpreter import State, load_game
from wonderforge.interpreter.games.check import check_pack, load_pack
from wonderforge.interpreter.packs.folders import CONTENT
from wonderforge.interpreter.packs.model import Pack


@lru_cache(maxsize=None)
def pack_of(pack: str) -> Pack:
    """A shipped pack (by id), loaded and compiled once: games do not change their pack."""
    return load_pack(pack)


@lru_cache(maxsize=None)
def probe_diagnostics(folder: Path) -> list:
    """`check`'s diagnostics of a test pack whose `probe` counter only the test reads: all but the
    warning that nothing in the game reads it."""
    return [d for d in check_pack(folder)[1] if not (d.code == "W-COUNTER-UNREAD" and "'probe'" in d.message)]


def game_for(pack: str, players: int, seed: int = 0, **options):
    """A game of `pack`, loaded once per (pack, players, seed, options): games are not changed by playing."""
    return load_game(pack_of(pack), players=players, seed=seed, **options)


def dealt(pack: str, players: int, seed: int, **options) -> State:
    """What `load_game(pack, players, seed=seed, **options).new_state()` deals, without loading the pack again."""
    return game_for(pack, players, **options).new_state(seed)


def table(pack: str, seats, set_seat, seed: int = 0, **options) -> State:
    """A fresh deal for `len(seats)` players in which `set_seat(state, seat, seats[seat])` set up each seat."""
    state = dealt(pack, len(seats), seed, **options)
    for seat, spec in enumerate(seats):
        set_seat(state, seat, spec)
    state.legal = {}
    return state


def finished(game, holdings) -> State:
    """A finished position of `game` from what each seat holds (see the flow's `arrange`)."""
    state = State(game, 0)
    game.flow.arrange(state, list(holdings))
    return state


def random_step(state: State, rng: random.Random) -> None:
    """One random legal action, of a seat drawn among those to act (`rng` draws both)."""
    seats = state.current_players()
    assert seats, "nobody is to act in a game that is not over"
    seat = seats[rng.randrange(len(seats))]
    actions = state.legal_actions(seat)
    assert actions, f"seat {seat} is to act but has nothing to do"
    state.apply(seat, actions[rng.randrange(len(actions))])


def random_game(pack: str, players: int, seed: int, choices: int = 0, *, limit: int | None = None,
                watch=None, **options) -> State:
    """A deal played with random legal actions (drawn from seed `choices`) to the end, or for `limit`
    actions; `watch(state)` after each; the actions played are the state's `history`."""
    state = dealt(pack, players, seed, **options)
    rng = random.Random(choices)
    while not state.is_terminal() and (limit is None or len(state.history) < limit):
        random_step(state, rng)
        if watch is not None:
            watch(state)
    return state


def alexandria_worth(tmp: Path, points: int) -> Path:
    """A copy of the Architects pack whose Alexandria scores `points` for its first stage (4 printed):
    a known change for comparing two packs."""
    folder = tmp / f"architects-alexandria-{points}"
    shutil.copytree(CONTENT / "architects", folder)
    wonders = folder / "wonders.yaml"
    text = wonders.read_text()
    stage = text.index("effect: vp 4", text.index("- id: alexandria\n"))
    wonders.write_text(text[:stage] + f"effect: vp {points}" + text[stage + len("effect: vp 4"):])
    return folder

"""What one seat's page is sent: that seat's observation (`State.observation`, what a bot is shown),
the pack's data of the pieces it names, the seat's legal actions as sentences with their prices,
who is awaited, and at the end the scores. Nothing else of the state leaves the server.

The sentences are the terminal's (its screens, per flow), made on a determinization of the seat's
view (bots/view.py): a position that holds only what the seat knows, so that a sentence cannot
carry anything hidden from it.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Callable, Protocol, Sequence

from ...interpreter.bots.view import View
from ...interpreter.core.actions import Action
from ...interpreter.core.state import State
from ...interpreter.games.game import Game

# the fields of a piece's data that its card on a page shows (all of them public: the pack's own)
SHOWN = ("name", "colour", "cost", "effect", "chain_from", "power", "city", "stages", "sides")


class Screen(Protocol):
    """What the terminal's screens do that a page needs: each legal action as a sentence."""

    def labels(self, state: State, actions: list[Action]) -> list[str]: ...


ScreenFor = Callable[[Game, Sequence[str], int], Screen]  # (game, seat names, seat) -> its screen


def seat_names(seats: Sequence[str | None], seat: int) -> list[str]:
    """How a seat's page names the players: `you`, a person's seat, a bot's seat with its name."""
    names = [f"seat {s} ({'person' if b is None else b})" for s, b in enumerate(seats)]
    names[seat] = f"you (seat {seat})"
    return names


def seat_message(table_id: str, state: State, seats: Sequence[str | None], seat: int,
                 screen_for: ScreenFor | None) -> dict:
    """The message that shows the game to `seat`: built from its observation, never from the state's
    hidden parts."""
    game = state.game
    observation = state.observation(seat)
    over = state.is_terminal()
    waiting = [] if over else list(state.current_players())
    actions = state.legal_actions(seat) if seat in waiting else []
    names = seat_names(seats, seat)
    message = {"type": "view", "game": table_id, "pack": game.pack.name, "seat": seat, "names": names,
               "step": len(state.history), "observation": observation, "pieces": pieces(game, observation),
               "actions": labels(state, seat, actions, names, screen_for, table_id), "waiting": waiting,
               "over": over}
    if over:
        message |= {"scores": state.scores(), "winners": state.winners()}
    return message


def labels(state: State, seat: int, actions: list[Action], names: list[str], screen_for: ScreenFor | None,
           key: str) -> list[str]:
    """Each action as the terminal words it, with its price, from what the seat knows alone."""
    if not actions:
        return []
    if screen_for is None:
        return [str(a) for a in actions]
    known = View(state, seat, actions, rng=random.Random(f"{key}/{seat}/{len(state.history)}")).position
    return screen_for(state.game, names, seat).labels(known, actions)


def pieces(game: Game, observation) -> dict[str, dict]:
    """The pack's data of every piece the observation names by id (cards, wonders, tokens...), and
    of the cards they chain from (named on them)."""
    index = _index(game)
    shown = {word: index[word] for word in _words(observation) if word in index}
    chained = {c for piece in shown.values() for c in piece.get("chain_from") or () if c in index}
    return shown | {c: index[c] for c in chained}


@lru_cache(maxsize=16)
def _index(game: Game) -> dict[str, dict]:
    out = {}
    for kind, components in game.pack.components.items():
        for cid, component in components.items():
            data = component.data
            out.setdefault(cid, {"kind": kind, **{k: data[k] for k in SHOWN if k in data}})
    return out


def _words(value) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*map(_words, value.values()), *map(_words, value.keys()))
    if isinstance(value, (list, tuple, set, frozenset)):
        return set().union(*map(_words, value))
    return set()

"""What one seat may know, as a bot is given it (issue 15): a `View`, never the `State`.

A bot is a callable `bot(view, rng) -> Action`, `rng` its own generator. The view holds the seat,
its legal actions, its observation, and a *determinization*: a full position consistent with what
the seat knows, every hidden thing (other hands, deck orders, face-down cards, the draws to come)
resampled. A bot plans on determinizations (`sample`) and on the positions after its own actions
(`preview`); whatever it reads there of others' hidden holdings is a guess, not the truth.
"""

from __future__ import annotations

import random

from .actions import Action
from .state import State


class View:
    """One seat's information state at one decision."""

    def __init__(self, state: State, seat: int, actions: list[Action], detail: bool = True):
        self.seat = seat
        self.actions = actions
        self.step = len(state.history)
        self.players = len(state.players)
        # a determinization of its own, drawn from a generator of the seat and step (the same game
        # gives the same views); the true state is not kept
        self._base = state.determinize(seat, random.Random(f"{state.seed}/{seat}/{self.step}")) if detail else None
        self.observation = state.observation(seat) if detail else None

    def sample(self, rng: random.Random) -> State:
        """Another position consistent with what the seat knows, drawn from `rng`."""
        return self._base.determinize(self.seat, rng)

    def preview(self, action: Action) -> State:
        """The position right after this seat's action alone (others' simultaneous choices unknown),
        on the view's determinization."""
        return self._base.game.flow.preview(self._base, self.seat, action)

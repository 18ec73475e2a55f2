"""What one seat may know, as a bot is given it (issue 15): a `View`, never the `State`.

A bot is a callable `bot(view, rng) -> Action`, `rng` its own generator. The view holds the seat,
its legal actions and, for a bot that asks for detail, its observation and a *determinization*: a
full position consistent with what the seat knows, every hidden thing (other hands, deck orders,
face-down cards, others' committed choices, the draws to come) resampled (`State.determinize`). A
bot plans on determinizations (`sample`) and on the positions after its own actions (`preview`);
whatever it reads there of others' hidden holdings is a guess, not the truth. The view keeps no
reference to the true state: what it was built from cannot be reached from it. Its positions carry a
seed drawn from the bot's own generator, the history the seat witnessed and a game without the true
seed, so neither dealing their game again nor replaying their history tells the truth.

Inside one process a Python bot is trusted code (`gc` reaches anything); what leaves the process,
an observation sent to a player, holds only what `State.observation` gives.
"""

from __future__ import annotations

import random

from ..core.actions import Action
from ..core.hidden import determinize
from ..core.state import State


GUESSES = 4  # determinizations a bot weighs an unseen outcome on (`View.previews`)


class View:
    """One seat's information state at one decision. Without `detail`, only the seat, its legal
    actions and the counts: nothing is copied or resampled (the random bot's view costs nothing)."""

    __slots__ = ("seat", "actions", "step", "players", "observation", "_position", "_guesses", "_key")

    def __init__(self, state: State, seat: int, actions: list[Action], detail: bool = True,
                 rng: random.Random | None = None):
        self.seat = seat
        self.actions = actions
        self.step = len(state.history)
        self.players = len(state.players)
        self.observation: dict | None = None
        self._position: State | None = None
        self._guesses: list[State] = []
        # its determinizations are drawn from generators of their own, keyed by one draw of the bot's
        # generator (`rng`; without one, by the seat and step): never by anything of the true game
        self._key = f"{seat}/{self.step}"
        if detail:  # (a view without detail is made on every decision of a long run: kept lean)
            if rng is not None:
                self._key = str(rng.getrandbits(64))
            self.observation = state.observation(seat)
            self._position = state.determinize(seat, random.Random(self._key))

    @property
    def position(self) -> State:
        """The view's determinization: a full position the seat cannot tell from the true one."""
        if self._position is None:
            raise ValueError("this view was made without detail: its bot declared it needs none")
        return self._position

    def sample(self, rng: random.Random) -> State:
        """Another position consistent with what the seat knows, drawn from `rng`."""
        return determinize(self.position, self.seat, rng, again=True)

    def previews(self, action: Action, guesses: int = GUESSES) -> list[State]:
        """The positions right after this seat's action alone on `guesses` determinizations: one
        for an action that names its piece (what it brings is seen), else as many as asked, as
        what it brings is hidden (a card taken face down) and one guess would mislead."""
        if action.card is not None or guesses <= 1:
            return [self.preview(action)]
        while len(self._guesses) < guesses - 1:
            self._guesses.append(self.sample(random.Random(f"{self._key}/{len(self._guesses) + 1}")))
        flow = self.position.game.flow
        return [self.preview(action)] + [flow.preview(p, self.seat, action) for p in self._guesses[:guesses - 1]]

    def preview(self, action: Action) -> State:
        """The position right after this seat's action alone (others' simultaneous choices unknown),
        on the view's determinization."""
        position = self.position
        return position.game.flow.preview(position, self.seat, action)

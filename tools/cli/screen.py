"""What the terminal shows of a game, one class per flow kind (`flow.kind` in rules.yaml).

`Terminal` (play.py) runs the game loop; a `Screen` turns positions and actions into text: the
lines that open the game, the table shown before the human chooses, each legal action as a
sentence, and what to tell after each action is carried out. `Screen` itself is the plainest
rendering, for a flow without one of its own.
"""

from __future__ import annotations

from typing import Any, Sequence

from ...interpreter.core.actions import Action
from ...interpreter.core.state import State
from ...interpreter.games.game import Game


class Screen:
    """The texts of a game, seen from the human's seat."""

    def __init__(self, game: Game, names: Sequence[str], human: int):
        self.game = game
        self.names = list(names)
        self.human = human

    def intro(self, state: State) -> list[str]:
        """The lines that open the game."""
        game = self.game
        side = state.players[self.human].side if state.players else None
        playing = ""
        if side is not None:
            playing = f", playing {side.name}" + (f" side {side.side}" if side.side else "")
        return [f"{game.pack.name}: {game.players} players, seed {game.seed}. You are seat {self.human}{playing}."]

    def labels(self, state: State, actions: list[Action]) -> list[str]:
        """Each legal action of the human, as a sentence."""
        return [str(a) for a in actions]

    def table(self, state: State, labels: list[str]) -> list[str]:
        """What the human sees before choosing: the position, then the numbered actions."""
        return ["", "Actions:", *(f"  {i}. {line}" for i, line in enumerate(labels, 1))]

    def before(self, state: State, seat: int, action: Action) -> Any:
        """What `after` needs to know of the position before the action (a snapshot)."""
        return None

    def after(self, state: State, seat: int, action: Action, before: Any) -> list[str]:
        """What to tell once the action is carried out."""
        return [f"{self.names[seat]}: {action}"]

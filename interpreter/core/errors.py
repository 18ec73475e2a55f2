"""What can go wrong with a game as a whole: one that cannot be set up as asked, one that cannot be
dealt, one that never ends.
"""

from __future__ import annotations


class GameError(ValueError):
    """A game that cannot be set up as asked: the message says why and what would do."""


class DealError(GameError):
    """A pack that cannot be dealt for the player count asked, though the count is in its declared
    range: a problem of the pack (`check` reports it, E-DEAL), not of the command line. `players`
    is the count, `why` says what runs short, `short` names it: `("dealt", "wonders")` (one each),
    `("round", i, deck)` (round i's deck, from 0)."""

    def __init__(self, message: str, players: int = 0, why: str = "", short: tuple = ()):
        super().__init__(message)
        self.players = players
        self.why = why
        self.short = short


class EndlessGame(RuntimeError):
    """A game that went past the engine's bound on the number of actions, or whose effects set
    each other off without end."""

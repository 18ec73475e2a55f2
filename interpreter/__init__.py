"""The generic engine: it runs any pack's games from their data (see DESIGN.md, "The engine's interface").

    from wonderforge.interpreter import load_game
    game = load_game("7-wonders", players=4, seed=1)
    state = game.new_state()
"""

from .core.actions import Action
from .core.state import State
from .games.game import Game, GameError
from .games.loading import load_game

__all__ = ["Action", "Game", "GameError", "State", "load_game"]

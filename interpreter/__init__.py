"""The generic engine: it runs any pack's games from their data (see DESIGN.md, "The engine's interface").

    from wonderforge.interpreter import load_game
    game = load_game("7-wonders", players=4, seed=1)
    state = game.new_state()
"""

from .actions import Action
from .game import Game, GameError
from .loading import load_game
from .state import State

__all__ = ["Action", "Game", "GameError", "State", "load_game"]

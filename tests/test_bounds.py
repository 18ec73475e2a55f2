"""The engine's bound on the length of a game: past it, a clear error rather than a game that never ends."""

import pytest

from wonderforge.interpreter import load_game
from wonderforge.interpreter.core.errors import EndlessGame


@pytest.mark.parametrize("pack, players", [("7-wonders", 3), ("architects", 2), ("architects-medals", 7)])
def test_games_end_well_within_the_bound(pack, players):
    game = load_game(pack, players=players, seed=3)
    state = game.new_state()
    while not state.is_terminal():
        for seat in state.current_players():
            state.apply(seat, state.legal_actions(seat)[-1])
    assert 0 < len(state.history) < game.max_actions / 10


def test_a_game_past_the_bound_stops_with_a_clear_error():
    game = load_game("architects", players=2, seed=1)
    game.max_actions = 5
    state = game.new_state()
    with pytest.raises(EndlessGame, match="architects passed 5 actions"):
        while not state.is_terminal():
            seat = state.current_players()[0]
            state.apply(seat, state.legal_actions(seat)[0])

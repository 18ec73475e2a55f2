"""Players the computer plays, chosen per seat by name, and a loop that plays a game with them."""

from __future__ import annotations

import random
from typing import Callable, Sequence

from .actions import Action
from .game import Game
from .state import State

Bot = Callable[[State, int, list[Action], random.Random], Action]


def random_bot(state: State, seat: int, actions: list[Action], rng: random.Random) -> Action:
    """Any legal action, uniformly."""
    return actions[rng.randrange(len(actions))]


def greedy_bot(state: State, seat: int, actions: list[Action], rng: random.Random) -> Action:
    """The action after which its own score, counted as if the game ended there, is highest; ties
    go to the one keeping more coins, then to chance."""
    flow, currency = state.game.flow, state.game.currency
    best, best_value = [], None
    for action in actions:
        after = flow.preview(state, seat, action)
        value = (after.game.scoring.score(after, seat)["total"], after.counter(seat, currency) if currency else 0)
        if best_value is None or value > best_value:
            best, best_value = [action], value
        elif value == best_value:
            best.append(action)
    return best[rng.randrange(len(best))]


BOTS: dict[str, Bot] = {"random": random_bot, "greedy": greedy_bot}


def bot_names(spec: str, players: int) -> list[str]:
    """Bots per seat from `random`, `greedy,random` (cycled over the seats)...; ValueError if unknown."""
    names = [n.strip() for n in spec.split(",") if n.strip()]
    if not names:
        raise ValueError(f"no bot named in {spec!r} (bots: {', '.join(BOTS)})")
    unknown = [n for n in names if n not in BOTS]
    if unknown:
        raise ValueError(f"unknown bot {unknown[0]!r} (bots: {', '.join(BOTS)})")
    return [names[i % len(names)] for i in range(players)]


def play(game: Game, bots: Sequence[str], seed: int | None = None,
         on_action: Callable[[State, int, Action], None] | None = None) -> State:
    """Play a whole game with a bot per seat, from `seed` (by default the game's); each bot draws
    from its own generator, seeded from it, so the same seed plays the same game. `on_action` sees
    every action before it applies."""
    state = game.new_state(seed)
    rngs = [random.Random(f"{state.seed}/{seat}") for seat in range(game.players)]
    chooser = [BOTS[name] for name in bots]
    while not state.is_terminal():
        for seat in state.current_players():
            actions = state.legal_actions(seat)
            action = chooser[seat](state, seat, actions, rngs[seat])
            if on_action is not None:
                on_action(state, seat, action)
            state.apply(seat, action)
    return state

"""Any pack as a PettingZoo AEC environment, for reinforcement-learning users (issue 15).

    from wonderforge.tools.study.environment import env
    e = env("7-wonders", players=4)
    e.reset(seed=1)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        mask = observation["action_mask"]
        e.step(None if termination else int(mask.nonzero()[0][0]))

Needs the optional extra: `pip install 'wonderforge[rl]'` (PettingZoo, Gymnasium, NumPy).

Agents are `player_0` .. `player_{n-1}`, the seats. Who acts next is the engine's say: in a
simultaneous phase (the draft, a round of dice) the seats act one after another, each choosing
without seeing the others' committed choices, as at the table.

- **Actions**: `Discrete(slots)`, an index into the seat's legal actions in the engine's stable order
  (`info["actions"]` names them); `observation["action_mask"]` marks the legal ones. `slots` is fixed
  per environment: by default twice the most legal actions seen in a few seeded random games, at
  least 64. A position with more legal actions than slots is an error naming the figure, never a
  silently unreachable action.
- **Observations**: `observation["observation"]`, a vector of `features` numbers: the seat's own
  observation (`State.observation`, all it may see), its keys and values hashed into place, the
  other players listed from the seat's left, so one policy fits every seat. `info["observation"]`
  is the observation itself, for users who encode it their own way.
- **Rewards**: at the game's end, 1 to a winner (1/k each for k tied), 0 otherwise.
- **Seeds**: `reset(seed=S)` deals game S; `reset()` without one deals the next seed after the
  last, from 0, so a run of resets is reproducible.
"""

from __future__ import annotations

import zlib
from typing import Iterator

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as missing:  # an optional extra: say which
    raise ImportError(f"the PettingZoo environment needs the `rl` extra ({missing.name} is missing): "
                      "pip install 'wonderforge[rl]'") from None

from ...interpreter.bots.registry import play
from ...interpreter.core.actions import Action
from ...interpreter.core.state import State
from ...interpreter.games.game import Game
from ...interpreter.games.loading import load_game

FEATURES = 2048  # the observation vector's length: hashing keeps it the same for every pack
PROBE_GAMES = 8  # seeded random games played to size the action slots


def env(pack: str, players: int = 4, **options) -> AECEnv:
    """The environment of a pack (a shipped id or a folder), wrapped as PettingZoo advises: an
    illegal or out-of-range action is an error, and acting after the end is refused."""
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(WonderForgeEnv(pack, players, **options)))


def action_slots(game: Game, probe: int = PROBE_GAMES) -> int:
    """Twice the most legal actions any seat had in `probe` seeded random games, at least 64."""
    most = 1

    def note(state: State, seat: int, action: Action) -> None:
        nonlocal most
        most = max(most, len(state.legal_actions(seat)))

    for seed in range(probe):
        play(game, ["random"] * game.players, seed=seed, on_action=note)
    return max(64, 2 * most)


def features(observation: dict, seat: int, players: int) -> Iterator[tuple[str, float]]:
    """(key, value) of each thing an observation says: numbers under their path, words as
    `path=word` counted once each; the players' list turned so that the seat comes first."""
    def walk(value, path: str) -> Iterator[tuple[str, float]]:
        if isinstance(value, dict):
            for key, item in value.items():
                yield from walk(item, f"{path}/{key}")
        elif isinstance(value, list):
            turned = path.endswith("/players") and len(value) == players
            for i, item in enumerate(value):
                yield from walk(item, f"{path}/{(i - seat) % players}" if turned else path)
        elif isinstance(value, bool):
            yield path, float(value)
        elif isinstance(value, (int, float)):
            yield path, float(value)
        elif isinstance(value, str):
            yield f"{path}={value}", 1.0

    return walk(observation, "")


def encode(observation: dict, seat: int, players: int, size: int = FEATURES) -> np.ndarray:
    """The observation as a vector of `size` numbers (its features hashed into place, summed)."""
    out = np.zeros(size, dtype=np.float32)
    for key, value in features(observation, seat, players):
        out[zlib.crc32(key.encode()) % size] += value
    return out


class WonderForgeEnv(AECEnv):
    """One pack at one player count as an AEC environment (see the module's doc)."""

    metadata = {"name": "wonderforge_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, pack: str, players: int = 4, slots: int | None = None, render_mode: str | None = None):
        super().__init__()
        self.game = load_game(pack, players=players)
        self.slots = slots or action_slots(self.game)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (FEATURES,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.slots,), np.int8),
        })
        self._observation_spaces = {a: space for a in self.possible_agents}
        self._action_spaces = {a: spaces.Discrete(self.slots) for a in self.possible_agents}
        self._next_seed = 0
        self.state_: State | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        seed = self._next_seed if seed is None else seed
        self._next_seed = seed + 1
        self.state_ = self.game.new_state(seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._select()

    def observe(self, agent: str) -> dict:
        seat, state = self._seat[agent], self.state_
        seen = state.observation(seat)
        mask = np.zeros(self.slots, dtype=np.int8)
        legal = self._legal(seat)
        mask[:len(legal)] = 1
        return {"observation": encode(seen, seat, len(state.players)), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat[agent]
        legal = self._legal(seat)
        if action is None or not 0 <= int(action) < len(legal):
            raise ValueError(f"{agent} has {len(legal)} legal actions (indices 0..{len(legal) - 1}), not {action!r}")
        self._cumulative_rewards[agent] = 0.0
        self.state_.apply(seat, legal[int(action)])
        self.rewards = {a: 0.0 for a in self.agents}
        if self.state_.is_terminal():
            winners = self.state_.winners()
            self.rewards = {a: (1 / len(winners) if self._seat[a] in winners else 0.0) for a in self.agents}
            self.terminations = {a: True for a in self.agents}
        self._accumulate_rewards()
        self._select()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        state = self.state_
        scores = ", ".join(f"player_{s}: {r['total']}" for s, r in enumerate(state.scores()))
        who = "game over" if state.is_terminal() else f"to act: {', '.join(f'player_{s}' for s in state.current_players())}"
        return f"{self.game.pack.id}, {len(state.history)} actions, {who}; scores {scores}"

    def close(self) -> None:
        pass

    def _legal(self, seat: int) -> list[Action]:
        legal = self.state_.legal_actions(seat)
        if len(legal) > self.slots:
            raise ValueError(f"player_{seat} has {len(legal)} legal actions, more than the {self.slots} action slots "
                             f"of this environment: make it with slots={2 * len(legal)} or more")
        return legal

    def _select(self) -> None:
        """The agent to act next (any agent, once the game is over: each then steps out)."""
        state = self.state_
        if not state.is_terminal():
            self.agent_selection = f"player_{state.current_players()[0]}"
            seat = self._seat[self.agent_selection]
            self.infos[self.agent_selection] = {"actions": [str(a) for a in self._legal(seat)],
                                                "observation": state.observation(seat)}
        elif self.agents:
            self.agent_selection = self.agents[0]

"""A search bot: single-observer information-set Monte-Carlo tree search (Cowling, Powley &
Whitehouse 2012), generic over every pack and flow.

Each iteration draws a determinization of the bot's information state (`view.sample(rng)`: every
hidden thing and the chance to come resampled), walks a tree of the bot's *own* decisions on it,
then plays the game out to its end with a cheap policy and scores the end. The other seats are part
of the environment: in the determinization they act by the playout policy, also while the bot is in
its tree (open loop). That settles simultaneous moves (the draft, Dice rounds) without a joint
tree: the bot picks its own action, the others' simultaneous ones are drawn, as are the dice. An
action legal in some determinizations only is weighed by UCB1 with *availability* counts (a
child's exploration term counts the times it could have been chosen, not its parent's visits).

The budget is a number of playouts (`ismcts:200`, reproducible: every draw comes from the bot's
generator) or seconds of search (`ismcts:0.5s`, which depends on the machine's speed and load, so
it is not reproducible). The default is a playout count.
"""

from __future__ import annotations

import math
import random
import re
import time
from typing import Callable

import attrs

from ..core.actions import Action
from ..core.state import State

Choose = Callable[..., Action]  # a bot: (view, rng) -> Action
PolicyFor = Callable[[object], Choose]  # the game -> the playout policy for it

DEFAULT_PLAYOUTS = 200
EXPLORATION = 0.7  # UCB1's constant for rewards in [0, 1]
_BUDGET = re.compile(r"^(?:(?P<playouts>\d+)|(?P<seconds>\d+(?:\.\d*)?|\.\d+)s)$")


@attrs.frozen
class Budget:
    """How long a decision searches: `playouts` iterations, or `seconds` of wall time."""

    playouts: int | None = DEFAULT_PLAYOUTS
    seconds: float | None = None

    @classmethod
    def parse(cls, text: str | None) -> "Budget":
        """`None` (the default), `200` (playouts) or `0.5s` (seconds); ValueError otherwise."""
        if text is None:
            return cls()
        found = _BUDGET.match(text.strip())
        if found is None:
            raise ValueError(f"bad budget {text!r}: write a playout count (ismcts:200) or seconds (ismcts:0.5s)")
        if found["playouts"] is not None:
            playouts = int(found["playouts"])
            if playouts < 1:
                raise ValueError(f"bad budget {text!r}: at least 1 playout")
            return cls(playouts=playouts)
        seconds = float(found["seconds"])
        if not 0 < seconds <= 3600:
            raise ValueError(f"bad budget {text!r}: seconds must be more than 0 and at most 3600")
        return cls(playouts=None, seconds=seconds)

    def __str__(self) -> str:
        return f"{self.playouts}" if self.playouts is not None else f"{self.seconds:g}s"

    def spent(self) -> Callable[[int], bool]:
        """A test of whether the search must stop after `n` iterations (at least one always runs)."""
        if self.playouts is not None:
            limit = self.playouts
            return lambda n: n >= limit
        end = time.perf_counter() + self.seconds  # wall time: the one thing here not reproducible
        return lambda n: n >= 1 and time.perf_counter() >= end


class Edge:
    """One of the bot's actions from a node: its statistics and the node it leads to."""

    __slots__ = ("visits", "total", "available", "child")

    def __init__(self):
        self.visits = 0
        self.total = 0.0
        self.available = 0
        self.child: dict[Action, Edge] = {}

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


class Glimpse:
    """The playout policy's view of a seat in a determinization. The position is already a guess
    drawn from the searching bot's information, so the policy reads it as it is (no further
    resampling), which keeps playouts cheap."""

    __slots__ = ("seat", "actions", "position", "observation", "step", "players")

    def __init__(self, state: State, seat: int, actions: list[Action]):
        self.seat, self.actions, self.position = seat, actions, state
        self.observation = None
        self.step, self.players = len(state.history), len(state.players)

    def sample(self, rng: random.Random) -> State:
        return self.position

    def preview(self, action: Action) -> State:
        position = self.position
        return position.game.flow.preview(position, self.seat, action)


def win_share(state: State, seat: int) -> float:
    """1 for a win, 1/k for a win shared by k, else 0."""
    winners = state.game.scoring.winners(state, state.scores())
    return 1 / len(winners) if seat in winners else 0.0


def margin(state: State, seat: int) -> float:
    """The win share, plus a little for the margin over the best other score, relative to the top
    score (a scale-free nudge: packs score on different scales, and it breaks the ties of lost
    playouts, which random playouts give many of)."""
    scores = state.scores()
    winners = state.game.scoring.winners(state, scores)
    totals = [s["total"] for s in scores]
    best_other = max(t for i, t in enumerate(totals) if i != seat)
    top = max(max(totals), 1)
    nudge = max(-1.0, min(1.0, (totals[seat] - best_other) / top))
    share = 1 / len(winners) if seat in winners else 0.0
    return 0.75 * share + 0.25 * (0.5 + 0.5 * nudge)


REWARDS: dict[str, Callable[[State, int], float]] = {"win": win_share, "margin": margin}


class Ismcts:
    """The search bot, a callable `bot(view, rng) -> Action`. `policy_for(game)` gives the playout
    policy (a bot, called with a `Glimpse`). After each decision, `weighed` holds what it weighed:
    `(action, visits, mean reward)` for each root action, most visited first."""

    def __init__(self, budget: Budget = Budget(), policy_for: PolicyFor | None = None,
                 reward: str = "margin", exploration: float = EXPLORATION):
        self.budget = budget
        self.policy_for = policy_for or (lambda game: _random_policy)
        self.reward = REWARDS[reward]
        self.exploration = exploration
        self.weighed: list[tuple[Action, int, float]] = []

    def __repr__(self) -> str:
        return f"Ismcts({self.budget})"

    def __call__(self, view, rng: random.Random) -> Action:
        if len(view.actions) == 1:
            self.weighed = [(view.actions[0], 0, 0.0)]
            return view.actions[0]
        root, spent, n = Edge(), self.budget.spent(), 0
        policy = self.policy_for(view.position.game)
        while not spent(n):
            self.iterate(root, view.sample(rng), view.seat, policy, rng)
            n += 1
        legal = set(view.actions)
        ranked = sorted(((a, e) for a, e in root.child.items() if a in legal),
                        key=lambda ae: (-ae[1].visits, -ae[1].mean, view.actions.index(ae[0])))
        self.weighed = [(a, e.visits, e.mean) for a, e in ranked]
        return ranked[0][0] if ranked else view.actions[rng.randrange(len(view.actions))]

    def iterate(self, root: Edge, state: State, me: int, policy: Choose, rng: random.Random) -> None:
        """One determinization: down the tree of `me`'s decisions, out to the end, the reward back up."""
        node: Edge | None = root
        path: list[Edge] = []
        while not state.is_terminal():
            for seat in state.current_players():
                actions = state.legal_actions(seat)
                if seat == me and node is not None and len(actions) > 1:
                    action, edge, fresh = self.select(node, actions, rng)
                    path.append(edge)
                    node = None if fresh else edge  # a new edge: the tree grows by one, then play out
                else:
                    action = actions[0] if len(actions) == 1 else policy(Glimpse(state, seat, actions), rng)
                state.apply(seat, action)
        reward = self.reward(state, me)
        for edge in path:
            edge.visits += 1
            edge.total += reward

    def select(self, node: Edge, actions: list[Action], rng: random.Random) -> tuple[Action, Edge, bool]:
        """An untried action if any (drawn at random), else the best by UCB1 with availability."""
        untried = []
        for action in actions:
            edge = node.child.get(action)
            if edge is None:
                edge = node.child[action] = Edge()
            edge.available += 1
            if edge.visits == 0:
                untried.append(action)
        if untried:
            action = untried[rng.randrange(len(untried))]
            return action, node.child[action], True
        c = self.exploration
        best, best_value = actions[0], -math.inf
        for action in actions:
            edge = node.child[action]
            value = edge.total / edge.visits + c * math.sqrt(math.log(edge.available) / edge.visits)
            if value > best_value:
                best, best_value = action, value
        return best, node.child[best], False


def _random_policy(view, rng: random.Random) -> Action:
    actions = view.actions
    return actions[rng.randrange(len(actions))]

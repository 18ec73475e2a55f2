"""A search bot: single-observer information-set Monte-Carlo tree search (Cowling, Powley &
Whitehouse 2012), generic over every pack and flow.

Each iteration draws a determinization of the bot's information state (`view.sample(rng)`: every
hidden thing and the chance to come resampled), walks a tree of the bot's *own* decisions on it,
then plays on with a cheap policy until the bot has made `horizon` more decisions (or the game
ends) and scores the position: by the final scores at the end, else by `value_for`'s guess of
them (the pack's learned evaluation, `estimates`). The other seats are part
of the environment: in the determinization they act by the playout policy, also while the bot is in
its tree (open loop). That settles simultaneous moves (the draft, Dice rounds) without a joint
tree: the bot picks its own action, the others' simultaneous ones are drawn, as are the dice. An
action legal in some determinizations only is weighed by UCB1 with *availability* counts (a
child's exploration term counts the times it could have been chosen, not its parent's visits).

What makes it cheap (issue 26): playouts cut at a horizon and valued there; playout moves that
follow, half the time, the action with the best mean reward so far over the playouts of this game
(the move-average sampling technique, MAST: per action, from the side of the seat that played it);
and the subtree of the action the bot took, with those averages, kept for its next decision. All
of it is learned on determinizations of the bot's own views, so it knows nothing the seat did not.

The budget is a number of playouts (`ismcts:100`, reproducible: every draw comes from the bot's
generator) or seconds of search (`ismcts:0.5s`, which depends on the machine's speed and load, so
it is not reproducible). The default is a playout count.
"""

from __future__ import annotations

import math
import random
import re
import time
import weakref
from typing import Callable

import attrs

from ..core.actions import Action
from ..core.state import State

Choose = Callable[..., Action]  # a bot: (view, rng) -> Action
PolicyFor = Callable[[object], Choose]  # the game -> the playout policy for it
ValueFor = Callable[[object], Callable[[State], list[float]]]  # the game -> rewards of a cut playout

# Named settings (`ismcts:NAME`; a bare `ismcts` or `ismcts:BUDGET` plays `DEFAULT_SETTING`), issue 26
# and docs/bots.md: `cut`, playouts cut at a horizon read from the pack's learned evaluation and
# valued there by it (`learned`: the registry's `cut_horizon` and `cut_value`, with thrifty playouts),
# half the playout moves by MAST, the tree kept between decisions; `classic`, the default before
# issue 26: 200 playouts to the game's end.
SETTINGS: dict[str, dict] = {"cut": {"playouts": 100, "reuse": True, "mast": 0.5, "learned": True},
                             "classic": {"playouts": 200}}
DEFAULT_SETTING = "cut"  # 4 to 5 times faster than `classic`, at its strength head to head (docs/bots.md)
DEFAULT_PLAYOUTS = SETTINGS[DEFAULT_SETTING]["playouts"]
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
            raise ValueError(f"bad budget {text!r}: write a playout count (ismcts:200), seconds (ismcts:0.5s) "
                             f"or a setting ({', '.join(f'ismcts:{name}' for name in SETTINGS)})")
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


@attrs.frozen
class Kept:
    """What a seat's last decision leaves the next: the seat, the step, the action and its subtree."""

    seat: int
    step: int
    action: Action
    edge: Edge | None
    table: dict


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


def win_shares(state: State) -> list[float]:
    """Per seat, 1 for a win, 1/k for a win shared by k, else 0."""
    winners = state.game.scoring.winners_by_totals(state, state.totals())
    return [1 / len(winners) if seat in winners else 0.0 for seat in range(len(state.players))]


def margins(state: State) -> list[float]:
    """Per seat, the win share, plus a little for the margin over the best other score, relative
    to the top score (a scale-free nudge: packs score on different scales, and it breaks the ties of
    lost playouts, which random playouts give many of)."""
    totals = state.totals()  # a playout's end: the totals alone, without the breakdowns
    winners = state.game.scoring.winners_by_totals(state, totals)
    return standings(totals, [1 / len(winners) if s in winners else 0.0 for s in range(len(totals))], max(totals))


def standings(totals: list[float], shares: list[float], top: float) -> list[float]:
    """`margins` of these totals, these shares of the win and this top score."""
    top = max(top, 1)
    out = []
    for seat, total in enumerate(totals):
        best_other = max(t for i, t in enumerate(totals) if i != seat)
        out.append(0.75 * shares[seat] + 0.25 * (0.5 + 0.5 * max(-1.0, min(1.0, (total - best_other) / top))))
    return out


# A guess missing by Gumbel noise of scale b (standard deviation b * pi / sqrt(6)) makes each seat's
# chance to finish first a softmax of the guesses at temperature b.
GUMBEL = math.sqrt(6) / math.pi


def estimates(evaluation) -> Callable[[State], list[float]]:
    """The rewards of a position cut short, by a learned evaluation (the expert bot's, expert.py):
    per seat its predicted final margin over the others' mean, read as `margins` reads the final
    scores (the margin relative to the top score now, scaled up by the part of the game still to
    play). The win goes to the seats predicted best or, when training measured how far the guess
    misses (`Evaluation.spread_at`), is shared by each seat's chance to come first given that miss."""
    features = evaluation.features

    def rewards(state: State) -> list[float]:
        seats = range(len(state.players))
        raw = [features.seat(state, s) for s in seats]
        progress = evaluation.progress(state)
        values = [evaluation.value(rel + [x * progress for x in rel]) for rel in features.relatives(state, raw)]
        points = len(features.categories)  # the first features: the points of each category now
        top = max(sum(r[:points]) for r in raw) / max(progress, 0.25)
        return standings(values, win_chances(values, evaluation.spread_at(progress)), top)

    return rewards


def win_chances(values: list[float], spread: float | None) -> list[float]:
    """Each seat's share of the win when the values guess the final margins, missing by `spread`
    (a standard deviation; None: they are sure)."""
    best = max(values)
    if not spread:
        first = [1.0 if v >= best - 1e-9 else 0.0 for v in values]
    else:
        scale = spread * GUMBEL
        first = [math.exp((v - best) / scale) for v in values]
    total = sum(first)
    return [f / total for f in first]


REWARDS: dict[str, Callable[[State], list[float]]] = {"win": win_shares, "margin": margins}


def _best_average(actions: list[Action], table: dict[Action, list[float]]) -> Action:
    """The first of the actions with the best mean reward in the playouts so far (MAST); one never
    played yet counts 1, so it is tried first. (A loop: the playouts' hottest line.)"""
    best, top = actions[0], -math.inf
    for action in actions:
        entry = table.get(action)
        mean = entry[0] / entry[1] if entry else 1.0
        if mean > top:
            best, top = action, mean
    return best


class Ismcts:
    """The search bot, a callable `bot(view, rng) -> Action`. `policy_for(game)` gives the playout
    policy (a bot, called with a `Glimpse`), `value_for(game)` the rewards of a playout cut at the
    horizon (without it, the scores there as if the game ended). The horizon is a number of the
    bot's own decisions, or a function of the game giving one; None plays to the end. After each
    decision, `weighed` holds what it weighed: `(action, visits, mean reward)` for each root
    action, most visited first."""

    def __init__(self, budget: Budget = Budget(), policy_for: PolicyFor | None = None,
                 reward: str = "margin", exploration: float = EXPLORATION,
                 horizon: int | Callable[[object], int | None] | None = None,
                 reuse: bool = False, mast: float | None = None, value_for: ValueFor | None = None):
        self.budget = budget
        self.policy_for = policy_for or (lambda game: _random_policy)
        self.reward = REWARDS[reward]
        self.exploration = exploration
        self.horizon = horizon
        self.reuse = reuse
        self.mast = mast
        self.value_for = value_for
        self.table: dict[Action, list[float]] = {}
        self.weighed: list[tuple[Action, int, float]] = []
        # per game (its generator for this seat, which lives as long as the game): the subtree of the
        # action last chosen, to start the next decision from
        self._kept: "weakref.WeakKeyDictionary[random.Random, Kept]" = weakref.WeakKeyDictionary()

    def __repr__(self) -> str:
        return f"Ismcts({self.budget})"

    def __call__(self, view, rng: random.Random) -> Action:
        if len(view.actions) == 1:
            self.weighed = [(view.actions[0], 0, 0.0)]
            return view.actions[0]
        root, n, self.table = self.resume(view, rng)
        spent = self.budget.spent()
        game = view.position.game
        policy = self.policy_for(game)
        cut = self.value_for(game) if self.value_for is not None else self.reward
        while not spent(n):
            self.iterate(root, view.sample(rng), view.seat, policy, rng, cut)
            n += 1
        legal = set(view.actions)
        ranked = sorted(((a, e) for a, e in root.child.items() if a in legal),
                        key=lambda ae: (-ae[1].visits, -ae[1].mean, view.actions.index(ae[0])))
        self.weighed = [(a, e.visits, e.mean) for a, e in ranked]
        chosen = ranked[0][0] if ranked else view.actions[rng.randrange(len(view.actions))]
        if self.reuse:
            self._kept[rng] = Kept(view.seat, view.step, chosen, root.child.get(chosen), self.table)
        return chosen

    def resume(self, view, rng: random.Random) -> tuple[Edge, int, dict]:
        """The node to search from, the playouts it already holds and the playout statistics: what
        this seat's last decision of this game left (when the game went the way it chose there), or
        a fresh start. All of it was learned on determinizations of the seat's earlier view, so it
        knows nothing the seat did not; at most three quarters of a playout budget come from it."""
        kept = self._kept.pop(rng, None) if self.reuse else None
        if kept is None or kept.seat != view.seat or len(view.position.history) <= kept.step:
            return Edge(), 0, {}
        mine = next((a for s, a in view.position.history[kept.step:] if s == view.seat), None)
        if mine != kept.action:
            return Edge(), 0, {}
        if kept.edge is None:
            return Edge(), 0, kept.table
        held = sum(e.visits for e in kept.edge.child.values())
        limit = self.budget.playouts
        return kept.edge, (min(held, limit - limit // 4) if limit is not None else 0), kept.table

    def iterate(self, root: Edge, state: State, me: int, policy: Choose, rng: random.Random,
                cut: Callable[[State], list[float]] | None = None) -> None:
        """One determinization: down the tree of `me`'s decisions, then played out to the end, or
        until `me` has made `horizon` decisions of the playout and the turn is over; the reward of
        where it stopped back up (`cut`'s, when it stopped before the end; else `reward`'s)."""
        node: Edge | None = root
        path: list[Edge] = []
        left = self.horizon(state.game) if callable(self.horizon) else self.horizon
        played: list[tuple[int, Action]] = []
        mast, table = self.mast, self.table
        while not state.is_terminal():
            for seat in state.current_players():
                actions = state.legal_actions(seat)
                if seat == me and node is not None and len(actions) > 1:
                    action, edge, fresh = self.select(node, actions, rng)
                    path.append(edge)
                    node = None if fresh else edge  # a new edge: the tree grows by one, then play out
                else:
                    if seat == me and node is None and left is not None:
                        left -= 1
                    if len(actions) == 1:
                        action = actions[0]
                    elif mast is None or rng.random() < mast:
                        action = policy(Glimpse(state, seat, actions), rng)
                    else:
                        action = _best_average(actions, table)
                if mast is not None:
                    played.append((seat, action))
                state.apply(seat, action)
            if left is not None and left <= 0:
                break
        rewards = self.reward(state) if cut is None or state.is_terminal() else cut(state)
        for edge in path:
            edge.visits += 1
            edge.total += rewards[me]
        for seat, action in played:  # the playout statistics (MAST): each action, from its player's side
            entry = table.get(action)
            if entry is None:
                entry = table[action] = [0.0, 0]
            entry[0] += rewards[seat]
            entry[1] += 1

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

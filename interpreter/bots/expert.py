"""The `expert` bot: one look ahead, each position valued by a linear evaluation learned per pack.

For each legal action the bot previews the position right after it (`View.previews`, as greedy
does; and through a decision of another kind that the action brings at once, `Expert._best`) and
values it as the sum of generic features of its seat's position, each weighed: the
points of each scoring category as if the game ended now, each counter (coins, shields...), its
production and the kinds of resource it makes, its science symbols, its wonder stages, its tokens,
its cards of each colour, and its lead in the military counter over its neighbours. Each feature
is counted relative to the other seats (the seat's less their mean), once as it is and once
scaled by how far the game has gone (so coins or production may be worth more early than late).
Every feature is read from the engine by the pack's own words: none is a game's constant, so a
pack's new card is valued by what it brings.

The weights come from the pack's `evaluation.yaml` (evaluation.py; `wonderforge train PACK` fits
them to played games, tools/study/training.py); a pack without one, nor a base with one, plays
with `DEFAULT`: the score now, as greedy, and small terms for what makes points later.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Sequence

from ..core.actions import Action
from ..core.scoring import GAIN_TO
from ..core.state import State
from ..packs.catalogue import STAGE
from .view import View

LATE = "@late"  # a feature's name with this suffix: the feature scaled by the game's progress
FOLLOW = 2  # how many of its own decisions in a row the bot looks through (see `Expert._best`)

# The untrained evaluation, by feature family: points as greedy counts them, and a little for what
# brings points later (`currency`: the counter the game trades with, as greedy's tie-break).
DEFAULT = {"points": 1.0, "production": 0.4, "resource_kind": 0.4, "symbol": 0.3, "stages": 0.5,
           "currency": 0.05}


def layout(pack) -> tuple[list[str], list[str], str | None, list[str]]:
    """What a pack's features count: its scoring categories, its counters but the score, its
    military counter (None without battles), its colours."""
    rules = pack.rules
    scoring = rules.get("scoring") or {}
    categories = scoring.get("categories") or {}
    vocab = pack.vocabulary
    counters = vocab.all("counter") if "counter" in vocab.names else ()
    counters = sorted(c for c in counters if c != scoring.get("counter"))
    military = (rules.get("military") or {}).get("counter")
    colours = set(vocab.all("colour") if "colour" in vocab.names else ())
    for how in categories.values():
        if isinstance(how, dict) and isinstance(how.get("colours"), list):
            colours |= set(how["colours"])
    return list(categories), counters, military, sorted(colours - {STAGE})


def feature_names(pack) -> list[str]:
    """The names of a pack's features, before their progress terms (docs/bots.md)."""
    categories, counters, military, colours = layout(pack)
    return ([f"points.{c}" for c in categories] + [f"counter.{c}" for c in counters]
            + ["production", "resource_kind", "symbol", "symbol_kind", "symbol_pair", "stages", "tokens"]
            + [f"cards.{c}" for c in colours] + (["lead"] if military else []))


class Features:
    """The features of one game's positions: their `names`; a seat's raw values (`seat`), and
    those relative to the other seats (`relative`)."""

    def __init__(self, game):
        self.game = game
        self.categories, self.counters, self.military, self.colours = layout(game.pack)
        self.base = feature_names(game.pack)
        self.names = self.base + [n + LATE for n in self.base]
        self._colour_index = {c: i for i, c in enumerate(self.colours)}

    def seat(self, state: State, seat: int) -> list[float]:
        """The raw features of one seat, in the order of `base` less the lead."""
        player = state.players[seat]
        breakdown = state.game.scoring.score(state, seat)["breakdown"]
        colours = [0] * len(self.colours)
        for piece in player.zones.get(self.game.build_zone, ()):
            i = self._colour_index.get(piece.colour)
            if i is not None:
                colours[i] += 1
        symbols = Counter(s[0] for s in player.symbols if len(s) == 1)  # (a choice among several counts as one)
        return ([breakdown.get(c, 0) for c in self.categories] + [state.counter(seat, c) for c in self.counters]
                + [len(player.units), len({r for unit in player.units for r in unit}), len(player.symbols),
                   len(symbols), sum(n // 2 for n in symbols.values()), player.stages, len(player.tokens)] + colours)

    def relative(self, state: State, seat: int, own: list[float], others: Sequence[list[float]]) -> list[float]:
        """The seat's features less the others' mean, with the lead, before the progress terms."""
        n = len(others)
        out = [own[i] - sum(o[i] for o in others) / n for i in range(len(own))] if n else list(own)
        if self.military:
            mine, players = state.counter(seat, self.military), len(state.players)
            near = {(seat - 1) % players, (seat + 1) % players} - {seat}
            theirs = [state.counter(s, self.military) for s in near]
            out.append(sum((mine > t) - (mine < t) for t in theirs))
        return out

    def default(self, name: str) -> float:
        """A feature's untrained weight (`DEFAULT`, by its family: `points.wonder` is `points`)."""
        if name.endswith(LATE):
            return 0.0
        family, _, part = name.partition(".")
        if family == "counter":
            return DEFAULT["currency"] if part == self.game.currency else 0.0
        return DEFAULT.get(family, 0.0)


class Evaluation:
    """A weight per feature and the game's expected length (actions per seat), for one game."""

    def __init__(self, features: Features, weights: dict[str, float], steps: float | None):
        self.features = features
        self.steps = steps
        self.weights = [weights[name] if name in weights else features.default(name) for name in features.names]

    def progress(self, state: State) -> float:
        """How far the game has gone, 0 to 1, by the actions played against the expected length."""
        if not self.steps:
            return 0.0
        return min(1.0, len(state.history) / len(state.players) / self.steps)

    def value(self, features: list[float]) -> float:
        """The weighted sum of a position's features (`Features.relative` and their progress terms)."""
        return sum(w * x for w, x in zip(self.weights, features) if w)


class Expert:
    """The bot: `bot(view, rng)`, its evaluation made once per game from the pack's file."""

    def __init__(self, evaluations, explore: float = 0.0, follow: int = FOLLOW):
        self.evaluations = evaluations  # game -> Evaluation (evaluation.py's cache)
        self.explore = explore          # the chance of a random action instead (training games)
        self.follow = follow

    def __call__(self, view: View, rng: random.Random) -> Action:
        actions = view.actions
        if len(actions) == 1:
            return actions[0]
        if self.explore and rng.random() < self.explore:
            return actions[rng.randrange(len(actions))]
        base = view.position
        evaluation = self.evaluations(base.game)
        features, seat = evaluation.features, view.seat
        # the others' features do not change with this seat's action (but for coins paid them:
        # counters are read again on each position, `_value`), so they are counted once; unless
        # some effect gives to other players (`vp -1 to neighbours`): then on each position
        others = (None if GAIN_TO in base.game.verbs else
                  {s: features.seat(base, s) for s in range(len(base.players)) if s != seat})
        best, best_value = [], None
        verbs = frozenset(a.verb for a in actions)
        for action in actions:
            total = 0.0
            after = view.previews(action)
            for position in after:
                total += self._best(position, seat, evaluation, others, self.follow, verbs)
            value = total / len(after)
            if best_value is None or value > best_value + 1e-9:
                best, best_value = [action], value
            elif value >= best_value - 1e-9:
                best.append(action)
        return best[rng.randrange(len(best))]

    def _best(self, position: State, seat: int, evaluation: Evaluation, others: dict | None, follow: int,
              verbs: frozenset[str]) -> float:
        """The value of a position; when the seat alone must decide again at once, among actions of
        other kinds than those it chose from (a token to choose after a set, a card to take after
        a look), the value of its best choice there, `follow` deep. (Actions of a kind it chose
        from are the next turn's, or a preview letting it choose again: not the action's due.)"""
        if follow and position.current_players() == [seat] and not position.is_terminal():
            actions = position.legal_actions(seat)
            if len(actions) > 1 and not any(a.verb in verbs for a in actions):
                preview = position.game.flow.preview
                return max(self._best(preview(position, seat, a), seat, evaluation, others, follow - 1, verbs)
                           for a in actions)
        return self._value(position, seat, evaluation, others)

    @staticmethod
    def _value(position: State, seat: int, evaluation: Evaluation, others: dict | None) -> float:
        features = evaluation.features
        if others is None:
            seen = [features.seat(position, s) for s in range(len(position.players)) if s != seat]
            return Expert._relative(position, seat, evaluation, seen)
        counters = range(len(features.categories), len(features.categories) + len(features.counters))
        seen = []
        for s, values in others.items():
            values = list(values)
            for i, name in zip(counters, features.counters):
                values[i] = position.counter(s, name)
            seen.append(values)
        return Expert._relative(position, seat, evaluation, seen)

    @staticmethod
    def _relative(position: State, seat: int, evaluation: Evaluation, seen: list) -> float:
        """The value of the seat's features against the others' (`seen`)."""
        features = evaluation.features
        rel = features.relative(position, seat, features.seat(position, seat), seen)
        progress = evaluation.progress(position)
        return evaluation.value(rel + [x * progress for x in rel])

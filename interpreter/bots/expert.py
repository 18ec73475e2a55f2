"""The `expert` bot: one look ahead, each position valued by a linear evaluation learned per pack.

For each legal action the bot previews the position right after it (`View.previews`, as greedy
does; and through a decision of another kind that the action brings at once, `Expert._best`) and
values it as the sum of generic features of its seat's position, each weighed: the
points of each scoring category as if the game ended now, each counter (coins, shields...), its
production and the kinds of resource it makes, its science symbols, its wonder stages, its tokens,
its cards of each colour, its lead in the military counter over its neighbours, and where a pack
has them, the resources it lacks for its next stage and the dice it unlocked. Each feature
is counted relative to the other seats (the seat's less their mean), once as it is and once
scaled by how far the game has gone (so coins or production may be worth more early than late).
Every feature is read from the engine by the pack's own words: none is a game's constant, so a
pack's new card is valued by what it brings. The bot plays the best action most often, one a
little worse now and then (`choose`, `TEMPERATURE`).

The weights come from the pack's `evaluation.yaml` (evaluation.py; `wonderforge train PACK` fits
them to played games, tools/study/training.py); a pack without one, nor a base with one, plays
with `DEFAULT`: the score now, as greedy, and small terms for what makes points later.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Sequence

from ..core.actions import Action
from ..core.scoring import GAIN_TO
from ..core.state import State
# the turns flow's own reckoning of a stage's payments (cached there), not its public interface
from ..flows.turns import paid_stage_actions
from ..packs.boards import Boards
from ..packs.catalogue import STAGE, open_stages
from .view import View

LATE = "@late"  # a feature's name with this suffix: the feature scaled by the game's progress
# How much worse than the best, in points of the evaluation, an action may be and still be played
# now and then: the chance of each action goes as exp(-(best - its value) / TEMPERATURE), so one a
# quarter point worse is played a third as often as the best, one 2 points worse almost never.
# A player as people play, varied, and one that takes every component of a pack in a long study.
# A pack's evaluation file may set its own (Dice: its scores run higher, its chains of boxes longer).
TEMPERATURE = 0.25
FOLLOW = 2  # how many of its own decisions in a row the bot looks through (see `Expert._best`)

# The untrained evaluation, by feature family: points as greedy counts them, and a little for what
# brings points later (`currency`: the counter the game trades with, as greedy's tie-break; a die
# unlocked: the boxes it opens, worth it in Dice, measured in docs/bots.md).
DEFAULT = {"points": 1.0, "production": 0.4, "resource_kind": 0.4, "symbol": 0.3, "stages": 0.5,
           "stage_short": -0.3, "dice": 2.0, "currency": 0.05}


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


def locks_dice(pack) -> bool:
    """Whether some of the pack's dice start in a reserve, to be unlocked (Dice): `dice` counts
    those a seat unlocked, which a box's points now do not show."""
    return any(die.start == "reserve" for die in Boards.read(pack).dice.values())


def pays_stages_with_cards(pack) -> bool:
    """Whether the pack's stages are built from the cards a player holds, as soon as they pay
    (Architects): its players race to their next stage, `stage_short` counts how far they are."""
    return ((pack.rules.get("flow") or {}).get("stages")) == "mandatory"


def feature_names(pack) -> list[str]:
    """The names of a pack's features, before their progress terms (docs/bots.md)."""
    categories, counters, military, colours = layout(pack)
    return ([f"points.{c}" for c in categories] + [f"counter.{c}" for c in counters]
            + ["production", "resource_kind", "symbol", "symbol_kind", "symbol_pair", "stages", "tokens"]
            + (["stage_short"] if pays_stages_with_cards(pack) else []) + (["dice"] if locks_dice(pack) else [])
            + [f"cards.{c}" for c in colours] + (["lead"] if military else []))


def stage_short(state: State, seat: int) -> int:
    """How many more resources the seat needs to pay for a stage it may build next, the cheapest
    (0 with no stage left): what it holds, and as many wild resources as it lacks, paid as the
    flow lets it pay (its powers too)."""
    flow, player = state.game.flow, state.players[seat]
    available = open_stages(player.side.stages, frozenset(player.raised))
    if not available:
        return 0
    have, wild = flow.held(state, seat), flow.wild
    ignore = state.power(seat, "ignore") is not None
    purse = flow.purse(state, seat) if flow.boosting and player.abilities else ()
    costs = [(n, state.price(seat, stage, stage=True) if flow.priced else stage.cost) for n, stage in available]
    most = max(len(cost.resources) + sum(k for _, k in cost.kinds) for _, cost in costs)
    for short in range(most):
        held = tuple(sorted(have + (wild,) * short))
        if any(paid_stage_actions(n, cost, held, wild, ignore, purse) for n, cost in costs):
            return short
    return most


class Features:
    """The features of one game's positions: their `names`; a seat's raw values (`seat`), and
    those relative to the other seats (`relative`)."""

    def __init__(self, game):
        self.game = game
        self.categories, self.counters, self.military, self.colours = layout(game.pack)
        self.base = feature_names(game.pack)
        self.names = self.base + [n + LATE for n in self.base]
        self._colour_index = {c: i for i, c in enumerate(self.colours)}
        self.short = pays_stages_with_cards(game.pack)
        self.dice = locks_dice(game.pack)

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
                   len(symbols), sum(n // 2 for n in symbols.values()), player.stages, len(player.tokens)]
                + ([stage_short(state, seat)] if self.short else [])
                + ([len(state.flow_state.unlocked[seat])] if self.dice else []) + colours)

    def relative(self, state: State, seat: int, own: list[float], others: Sequence[list[float]]) -> list[float]:
        """The seat's features less the others' mean, with the lead, before the progress terms."""
        n = len(others)
        out = [own[i] - sum(o[i] for o in others) / n for i in range(len(own))] if n else list(own)
        return self._lead(state, seat, out)

    def relatives(self, state: State, raw: Sequence[list[float]]) -> list[list[float]]:
        """`relative` of every seat, from all seats' raw features: each less the column's total
        without it (the features count whole things, so the sums are exact)."""
        n = len(raw) - 1
        if not n:
            return [self._lead(state, 0, list(raw[0]))]
        totals = [sum(column) for column in zip(*raw)]
        return [self._lead(state, s, [x - (t - x) / n for x, t in zip(own, totals)]) for s, own in enumerate(raw)]

    def _lead(self, state: State, seat: int, out: list[float]) -> list[float]:
        """`out` with the seat's lead in the military counter over its neighbours, where battles are."""
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
    """A weight per feature (the guess of a seat's final margin, `value`), the game's expected
    length (actions per seat), the bot's temperature (`choose`), how far the guess misses when
    trained (`spread_at`) and, where the expert chooses by other weights, those (`expert_value`),
    for one game."""

    def __init__(self, features: Features, weights: dict[str, float], steps: float | None,
                 temperature: float | None = None, spread: Sequence[float] | None = None,
                 expert_weights: dict[str, float] | None = None):
        self.features = features
        self.steps = steps
        self.temperature = TEMPERATURE if temperature is None else temperature
        self.spread = tuple(spread) if spread else None
        self.weights = self._vector(weights)
        self.expert_weights = self.weights if expert_weights is None else self._vector(expert_weights)

    def _vector(self, weights: dict[str, float]) -> list[float]:
        return [weights[name] if name in weights else self.features.default(name) for name in self.features.names]

    def progress(self, state: State) -> float:
        """How far the game has gone, 0 to 1, by the actions played against the expected length."""
        if not self.steps:
            return 0.0
        return min(1.0, len(state.history) / len(state.players) / self.steps)

    def spread_at(self, progress: float) -> float | None:
        """How far the guess of a final margin misses, in points (a standard deviation), this far
        into the game: the trained line from the start's to the end's; None when not trained."""
        if self.spread is None:
            return None
        start, end = self.spread
        return start + (end - start) * progress

    def value(self, features: list[float]) -> float:
        """The guess of a final margin: the weighted sum of a position's features (`Features.relative`
        and their progress terms)."""
        return _weighed(self.weights, features)

    def expert_value(self, features: list[float]) -> float:
        """What the expert bot chooses by: `value`, or its own weights' sum where the file gives them."""
        return _weighed(self.expert_weights, features)


def _weighed(weights: list[float], features: list[float]) -> float:
    return sum(w * x for w, x in zip(weights, features) if w)


def choose(values: Sequence[float], temperature: float, rng: random.Random) -> int:
    """The index of a value drawn with a chance in proportion to exp((value - best) / temperature)
    (ties alike when the temperature is 0): the best most often, one a little worse now and then,
    one far worse almost never."""
    top = max(values)
    if temperature <= 0:
        best = [i for i, v in enumerate(values) if v >= top - 1e-9]
        return best[rng.randrange(len(best))]
    odds = [math.exp((v - top) / temperature) for v in values]
    draw = rng.random() * sum(odds)
    for i, odd in enumerate(odds):
        draw -= odd
        if draw < 0:
            return i
    return len(values) - 1


class Expert:
    """The bot: `bot(view, rng)`, its evaluation made once per game from the pack's file."""

    def __init__(self, evaluations, explore: float = 0.0, follow: int = FOLLOW, temperature: float | None = None):
        self.evaluations = evaluations  # game -> Evaluation (evaluation.py's cache)
        self.explore = explore          # the chance of a random action instead (training games)
        self.follow = follow
        self.temperature = temperature  # None: the evaluation's (its pack's file, or TEMPERATURE)

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
        verbs = frozenset(a.verb for a in actions)
        values = []
        for action in actions:
            after = view.previews(action)
            values.append(sum(self._best(p, seat, evaluation, others, self.follow, verbs) for p in after) / len(after))
        temperature = evaluation.temperature if self.temperature is None else self.temperature
        return actions[choose(values, temperature, rng)]

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
        return evaluation.expert_value(rel + [x * progress for x in rel])

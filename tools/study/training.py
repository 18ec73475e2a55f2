"""`wonderforge train PACK`: fit the expert bot's evaluation (interpreter/bots/expert.py) to games
the bot plays against itself, and write it to the pack's `evaluation.yaml` with how far its guess
misses (`spread`) and the games' length (`steps`), which the search bot's cut playouts use.

Each round plays games with the weights so far (the first with the untrained default), every
bot taking a random action now and then (`EXPLORE`) so that what it seldom does is seen too, and
the best one otherwise (without the temperature it plays with in a study); each
decision of each seat is a sample: the seat's features then (read from the true position: the
trainer is no player), and the margin it finished with (its final score less the others' mean).
A ridge regression over all the samples so far gives the next weights, the points now held at
one each (`fixed_weights`). Game i of round r is played from a seed drawn from `--seed`, and
the samples come back in game order, so a seed gives the same file on any number of workers.
"""

from __future__ import annotations

import math
import os
import random
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Sequence

from ...dsl.diagnostics import safe
from ...interpreter.bots.evaluation import FILE_NAME, evaluation_file, evaluation_for, read_evaluation, set_evaluation
from ...interpreter.bots.expert import LATE, Expert, Features
from ...interpreter.bots.registry import Bot, bot_rngs
from ...interpreter.games.game import DealError, GameError
from ...interpreter.games.loading import load_game
from ...interpreter.packs.model import LoadError
from ...interpreter.packs.schemas import EVALUATION_KIND, modeline
from ..common import output
from ..common.arguments import Usage, cannot_deal, fail, open_pack, positive_int, whole_number
from ..common.outfile import OutError, OutFile, Refused

EXPLORE = 0.1    # the chance of a random action in a training game
RIDGE = 1e-2     # the ridge penalty, per sample, on standardised features
DIGITS = 4       # significant digits of a weight in the file


def fixed_weights(names: Sequence[str]) -> dict[str, float]:
    """The weights not learned: the points now, each worth a point at any time of the game, as
    greedy counts them; the other features' weights are fitted to the margin they leave, the
    points to come. (Learned, the points' weights came out low, a third of a point early in 7
    Wonders: in self-play, points taken early go with less else built. The bot then passed over
    a designer's card worth 9 points for a red card.)"""
    points = [name for name in names if name.startswith("points.")]
    return {**{name: 1.0 for name in points}, **{name + LATE: 0.0 for name in points}}


Sample = tuple[list[float], float, float]  # features before the progress terms, steps played, final margin


def play_samples(game, seed: int, explore: float = EXPLORE) -> tuple[list[Sample], float]:
    """One training game with the expert bot at every seat: a sample per decision of a seat that
    had a choice, and the actions each seat played."""
    # the best action, but for the random ones: the positions' values are the weights' own
    bot = Bot(Expert(evaluation_for, explore, temperature=0.0), detail=True)
    features = evaluation_for(game).features
    state = game.new_state(seed)
    rngs = bot_rngs(state)
    seen: list[tuple[int, list[float], float]] = []
    while not state.is_terminal():
        for seat in state.current_players():
            actions = state.legal_actions(seat)
            if len(actions) > 1:
                own = features.seat(state, seat)
                others = [features.seat(state, s) for s in range(len(state.players)) if s != seat]
                steps = len(state.history) / len(state.players)
                seen.append((seat, features.relative(state, seat, own, others), steps))
            state.apply(seat, bot.act(state, seat, actions, rngs[seat]))
    totals = [s["total"] for s in state.scores()]
    n = len(totals)
    margin = [t - (sum(totals) - t) / (n - 1) if n > 1 else t for t in totals]
    return [(x, steps, margin[seat]) for seat, x, steps in seen], len(state.history) / n


def _games(game, weights: dict, steps: float | None, seeds: Sequence[int]) -> list[tuple[list[Sample], float]]:
    """Training games played with these weights."""
    set_evaluation(game, weights, steps)
    return [play_samples(game, seed) for seed in seeds]


_GAMES: dict[tuple[str, int], object] = {}  # a worker's game (a pool lives for one `train`)


def _chunk(pack: str, players: int, weights: dict, steps: float | None,
           seeds: Sequence[int]) -> list[tuple[list[Sample], float]]:
    """A worker's games (top level: worker processes import it by this module's path)."""
    game = _GAMES.get((pack, players))
    if game is None:
        game = _GAMES[pack, players] = load_game(pack, players=players)
    return _games(game, weights, steps, seeds)


def fit(names: Sequence[str], samples: Sequence[Sample], steps: float, ridge: float = RIDGE,
        fixed: dict[str, float] | None = None) -> dict[str, float]:
    """The weights of a ridge regression of the final margin on the features (each feature with
    its progress term), solved exactly on standardised features; a feature `fixed` keeps its
    weight there, and the others' are fitted to what it leaves of the margin."""
    all_names = list(names) + [n + LATE for n in names]
    fixed = fixed or {}
    columns = [[x[i] for x, _, _ in samples] for i in range(len(names))]
    columns += [[x[i] * min(1.0, s / steps) for x, s, _ in samples] for i in range(len(names))]
    held = [(fixed[name], columns[i]) for i, name in enumerate(all_names) if name in fixed]
    target = [y - sum(w * col[k] for w, col in held) for k, (_, _, y) in enumerate(samples)]
    n = len(samples)
    kept, scaled = [], []
    for i, col in enumerate(columns):
        mean = sum(col) / n
        sd = math.sqrt(sum((v - mean) ** 2 for v in col) / n)
        if sd > 1e-9 and all_names[i] not in fixed:  # a feature that never varies has no weight to learn
            kept.append((i, sd))
            scaled.append([(v - mean) / sd for v in col])
    y_mean = sum(target) / n
    y = [v - y_mean for v in target]
    d = len(scaled)
    matrix = [[sum(map(float.__mul__, scaled[i], scaled[j])) + (ridge * n if i == j else 0.0) for j in range(d)]
              for i in range(d)]
    rhs = [sum(map(float.__mul__, scaled[i], y)) for i in range(d)]
    beta = dict(zip((i for i, _ in kept), (b / sd for (_, sd), b in zip(kept, solve(matrix, rhs)))))
    return {name: float(f"{fixed.get(name, beta.get(i, 0.0)):.{DIGITS}g}") for i, name in enumerate(all_names)}


def spread(names: Sequence[str], weights: dict[str, float], samples: Sequence[Sample], steps: float) -> list[float]:
    """How far the weights' guess of the final margin misses (a standard deviation), at the game's
    start and at its end: the line of least squares through the sizes of the misses by the part of
    the game played, each size read as a Gaussian miss's (its mean is the deviation times
    sqrt(2 / pi)). The search bot shares a cut playout's win by it (ismcts.estimates)."""
    now = [weights.get(name, 0.0) for name in names]
    late = [weights.get(name + LATE, 0.0) for name in names]
    points = []
    for x, s, y in samples:
        p = min(1.0, s / steps)
        points.append((p, y - sum(w * v for w, v in zip(now, x)) - p * sum(w * v for w, v in zip(late, x))))
    bias = sum(r for _, r in points) / len(points)  # the fit's intercept, not held in the weights
    ps = [p for p, _ in points]
    misses = [abs(r - bias) * math.sqrt(math.pi / 2) for _, r in points]
    p_mean, m_mean = sum(ps) / len(ps), sum(misses) / len(misses)
    var = sum((p - p_mean) ** 2 for p in ps)
    slope = sum((p - p_mean) * (m - m_mean) for p, m in zip(ps, misses)) / var if var > 1e-12 else 0.0
    start = m_mean - slope * p_mean
    return [float(f"{max(0.0, v):.{DIGITS}g}") for v in (start, start + slope)]


def solve(matrix: list[list[float]], rhs: list[float]) -> list[float]:
    """x with matrix . x = rhs, by Gaussian elimination with partial pivoting (the matrix is
    symmetric positive definite: ridge keeps it so)."""
    d = len(rhs)
    a = [row[:] + [r] for row, r in zip(matrix, rhs)]
    for col in range(d):
        pivot = max(range(col, d), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(col + 1, d):
            factor = a[r][col] / a[col][col]
            if factor:
                a[r] = [v - factor * p for v, p in zip(a[r], a[col])]
    x = [0.0] * d
    for r in range(d - 1, -1, -1):
        x[r] = (a[r][d] - sum(a[r][c] * x[c] for c in range(r + 1, d))) / a[r][r]
    return x


def train(pack: str, players: int = 4, games: int = 200, rounds: int = 3, seed: int = 0, workers: int = 1,
          note=lambda line: None) -> dict:
    """The evaluation learned in `rounds` rounds of `games` games each: `{"trained": ..., "steps":
    ..., "spread": ..., "weights": ...}`, what `evaluation.yaml` holds."""
    game = load_game(pack, players=players)
    names = Features(game).base
    weights: dict[str, float] = {}  # the first round plays with the default: a seed alone makes the file
    steps = None
    rng = random.Random(f"train/{seed}")
    samples: list[Sample] = []
    lengths: list[float] = []
    pool = ProcessPoolExecutor(workers) if workers > 1 else None
    try:
        for r in range(rounds):
            seeds = [rng.getrandbits(32) for _ in range(games)]
            parts = [seeds[i::max(workers, 1)] for i in range(max(workers, 1))]
            if pool is None:
                found = [_games(game, weights, steps, seeds)]
            else:
                found = list(pool.map(_chunk, [pack] * len(parts), [players] * len(parts), [weights] * len(parts),
                                      [steps] * len(parts), parts))
            # in game order whatever the workers: part k holds games k, k + workers...
            by_seed = {s: game for part, result in zip(parts, found) for s, game in zip(part, result)}
            for s in seeds:
                samples += by_seed[s][0]
                lengths.append(by_seed[s][1])
            steps = float(f"{sum(lengths) / len(lengths):.4g}")
            weights = fit(names, samples, steps, fixed=fixed_weights(names))
            note(f"round {r + 1}/{rounds}: {len(samples)} positions from {len(lengths)} games")
    finally:
        if pool is not None:
            pool.shutdown()
    return {"trained": {"seed": seed, "games": games, "rounds": rounds, "players": players},
            "steps": steps, "spread": spread(names, weights, samples, steps), "weights": weights}


def evaluation_text(evaluation: dict, folder: Path) -> str:
    """The text of an `evaluation.yaml` in `folder`, with its schema line and a line per weight."""
    trained = evaluation["trained"]
    lines = [modeline(EVALUATION_KIND, folder).rstrip("\n"),
             f"# The expert bot's evaluation, learned by: wonderforge train PACK --seed {trained['seed']} "
             f"--games {trained['games']} --rounds {trained['rounds']} --players {trained['players']}",
             "evaluation:",
             "  trained: {" + ", ".join(f"{k}: {v}" for k, v in trained.items()) + "}",
             f"  steps: {evaluation['steps']}",
             f"  spread: [{', '.join(map(str, evaluation['spread']))}]",
             "  weights:"]
    lines += [f"    {name}: {weight}" for name, weight in evaluation["weights"].items()]
    # not learned: the designer's, kept from the file replaced
    if evaluation.get("temperature") is not None:
        lines.append(f"  temperature: {evaluation['temperature']}")
    chosen_by = evaluation.get("expert_weights")
    if chosen_by is not None:
        lines.append("  # the expert chooses by these instead ({} is the untrained default); the search values by `weights`")
        lines.append("  expert_weights:" + ("" if chosen_by else " {}"))
        lines += [f"    {name}: {weight}" for name, weight in chosen_by.items()]
    return "\n".join(lines) + "\n"


KEPT = ("temperature", "expert_weights")  # what training does not learn: how boldly, and by what, the expert chooses


def kept_settings(pack) -> dict:
    """`KEPT` as the pack's expert plays with them now, set in its evaluation file (or its nearest
    base's): training learns the guess of a margin, not how the bot chooses, so a new file keeps them."""
    path = evaluation_file(pack)
    data = read_evaluation(path, pack, own=path.parent == pack.folder)[0] if path is not None else None
    return {key: (data or {}).get(key) for key in KEPT}


def add_parser(commands) -> None:
    p = commands.add_parser(
        "train", help="learn the expert bot's evaluation of a pack from games it plays",
        description="Fit the expert bot's evaluation of positions to games it plays against itself, in rounds "
                    "(each round's games played with the weights learned so far), with how far its guess of a final "
                    "margin misses and the games' length (the search bot values its playouts by the first two and cuts "
                    "them at a sixth of the length), and write it to the pack's "
                    f"{FILE_NAME} (docs/bots.md). The same seed writes the same file on any number of workers.")
    p.add_argument("pack", metavar="PACK", help="a shipped pack id or a pack folder")
    p.add_argument("--players", type=positive_int, default=4, help="players in the training games (default 4)")
    p.add_argument("--games", type=positive_int, default=150, help="games per round (default 150)")
    p.add_argument("--rounds", type=positive_int, default=3, help="rounds of games and fitting (default 3)")
    p.add_argument("--seed", type=whole_number, default=0, help="the seed the games' seeds are drawn from (default 0)")
    p.add_argument("--workers", type=positive_int, default=1, help="processes playing the games (default 1)")
    p.add_argument("--out", metavar="FILE", help=f"write the evaluation there instead of the pack's {FILE_NAME}")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    p.set_defaults(run=main)


def main(args) -> int:
    """`wonderforge train`; returns the exit status."""
    try:
        pack = open_pack(args.pack)
        load_game(pack, players=args.players)
    except Usage as err:
        return fail("train", str(err), err.hint)
    except DealError as err:
        return cannot_deal("train", err, args.pack)
    except (GameError, ValueError) as err:
        return fail("train", str(err))
    except LoadError as err:
        output.write_text(err.diagnostics, sys.stderr)
        return 1
    try:
        out = OutFile(args.out) if args.out else None  # refused in a pack: the pack's own file is written below
    except Refused as err:
        return fail("train", str(err), err.hint)
    except OutError as err:
        return fail("train", str(err), err.hint or None, status=1)

    def note(line: str) -> None:
        if not args.quiet:
            print(safe(f"train: {line}"), file=sys.stderr, flush=True)

    try:
        evaluation = train(str(pack.folder), args.players, args.games, args.rounds, args.seed,
                           min(args.workers, os.cpu_count() or 1), note)
        evaluation |= kept_settings(pack)
        target = out.given if out is not None else pack.folder / FILE_NAME
        text = evaluation_text(evaluation, Path(target).parent)
        if out is not None:
            out.write(text)
            out.commit()
        else:
            _replace(pack.folder / FILE_NAME, text)
    except OutError as err:
        return fail("train", str(err), err.hint or None, status=1)
    except OSError as err:
        return fail("train", f"cannot write {target}: {err.strerror or err}", status=1)
    finally:
        if out is not None:
            out.discard()
    print(safe(f"wrote {target}"))
    return 0


def _replace(path: Path, text: str) -> None:
    """Write a pack's file whole: a temporary file beside it takes its place."""
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".partial", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(text)
        os.replace(temp, path)
    finally:
        Path(temp).unlink(missing_ok=True)

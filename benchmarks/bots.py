"""The bots' ladder (issue 15): `python benchmarks/bots.py [--packs P,...] [--pairs X/Y,...] [--games N]`.

For each pack at 4 players and each pairing `X/Y`, plays N seeded games (200 by default) with X at
seat 0 against three Y, and prints X's win rate (a win shared by k counts 1/k) with its 95% Wilson
interval, X's mean score and the others'. Games run on `--workers` processes with the simulator's
machinery (tools/study/running.py), so the figures are the same on any number of workers. `--bots
A,B,C` plays every ordered pairing of those bots instead of `--pairs`. `--timing BOT[,BOT...]` times
each decision of each BOT in one game instead, side by side on the same positions.

The default pairings are the targets of issue 15: greedy against random (>= 35%), rules against
greedy (>= 40%), ismcts against greedy (>= 50%) and against rules (>= 40%); in 7 Wonders ismcts
should average 45 points or more.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time

from wonderforge.interpreter import load_game
from wonderforge.interpreter.bots.registry import bot_for, play
from wonderforge.tools.study.running import run
from wonderforge.tools.study.stats import wilson

PACKS = ["7-wonders", "architects", "architects-medals", "dice"]
PAIRS = ["greedy/random", "rules/greedy", "ismcts/greedy", "ismcts/rules"]


def measure(pack: str, bot: str, opponent: str, games: int, seed: int = 0, workers: int = 1,
            players: int = 4) -> dict:
    """`bot` at seat 0 against `players - 1` of `opponent`: its win rate, interval and mean scores."""
    game = load_game(pack, players=players)
    for name in (bot, opponent):
        bot_for(game, name)  # a bad name fails here, before any game is played
    start = time.perf_counter()
    tally = run(game, pack, [bot] + [opponent] * (players - 1), seed, games, workers)
    seat, wins = tally.seats[0], tally.seats[0].wins / tally.unit
    others = [t.score.mean for t in tally.seats[1:] if t.score.n]
    return {"pack": pack, "bot": bot, "against": opponent, "games": tally.games, "win": wins / max(tally.games, 1),
            "ci": wilson(wins, tally.games), "mean": seat.score.mean, "theirs": sum(others) / len(others) if others else None,
            "seconds": time.perf_counter() - start}


def line(r: dict) -> str:
    low, high = r["ci"] or (0.0, 0.0)
    return (f"{r['pack']:18} {r['bot']:>12} vs 3 {r['against']:<8} {r['games']:4d} games  "
            f"win {r['win']:6.1%} [{low:5.1%}, {high:5.1%}]  mean {r['mean']:5.1f} (theirs {r['theirs']:5.1f})  "
            f"{r['seconds']:6.0f} s")


def pairings(args) -> list[tuple[str, str]]:
    if args.bots:
        names = [b.strip() for b in args.bots.split(",") if b.strip()]
        return [(x, y) for x, y in itertools.permutations(names, 2)]
    out = []
    for pair in args.pairs.split(","):
        x, slash, y = pair.strip().partition("/")
        if not slash or not x or not y:
            raise SystemExit(f"bots.py: error: a pairing is written X/Y (X at seat 0 against three Y), not {pair!r}")
        out.append((x, y))
    return out


def decision_times(pack: str, bots: str = "ismcts", seed: int = 3, players: int = 4) -> dict[str, list[float]]:
    """CPU seconds of each decision of each of `bots` (comma-separated) at seat 0 in one game
    against random bots: each bot decides on the same positions, in turn, the first of them first
    at one decision and last at the next (so a loaded machine weighs on each alike)."""
    game = load_game(pack, players=players)
    names = [b.strip() for b in bots.split(",") if b.strip()]
    choosers, times = [bot_for(game, b) for b in names], {b: [] for b in names}
    turn = [0]

    def timed(state, seat, action):  # `play`'s hook: the decision is timed again, on its own
        if seat == 0 and len(state.legal_actions(0)) > 1:
            turn[0] += 1
            order = list(zip(names, choosers))
            for name, chooser in (order if turn[0] % 2 else order[::-1]):
                start = time.process_time()
                chooser.act(state, 0, state.legal_actions(0), random.Random(turn[0]))
                times[name].append(time.process_time() - start)

    play(game, ["random"] * players, seed=seed, on_action=timed)
    return times


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--packs", default=",".join(PACKS), help="packs, comma-separated (default: every shipped one)")
    parser.add_argument("--pairs", default=",".join(PAIRS), help="X/Y pairings, comma-separated (default: issue 15's)")
    parser.add_argument("--bots", help="play every ordered pairing of these bots instead")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--timing", metavar="BOT", help="instead, time each decision of each BOT (comma-separated: side by side, "
                        "on the same positions) in one game (seed 3, seat 0 against random bots, 4 players): the "
                        "longest, the median and the mean, in CPU milliseconds")
    args = parser.parse_args(argv)
    if args.timing:
        for pack in [p.strip() for p in args.packs.split(",") if p.strip()]:
            for bot, times in decision_times(pack, args.timing, args.seed if args.seed else 3).items():
                times = sorted(times) or [0.0]
                print(f"{pack:18} {bot}: {len(times)} decisions, longest {max(times) * 1000:.1f} ms, "
                      f"median {times[len(times) // 2] * 1000:.2f} ms, mean {sum(times) / len(times) * 1000:.2f} ms",
                      flush=True)
        return
    for pack in [p.strip() for p in args.packs.split(",") if p.strip()]:
        for bot, opponent in pairings(args):
            try:
                r = measure(pack, bot, opponent, args.games, args.seed, args.workers)
            except ValueError as err:
                print(f"bots.py: error: {err}", file=sys.stderr)
                raise SystemExit(2) from None
            print(line(r), flush=True)


if __name__ == "__main__":
    main()

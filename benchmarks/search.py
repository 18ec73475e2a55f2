"""The search bot's cheaper setting of issue 26 (`ismcts:cut`) against the default before it
(`ismcts:classic`): decision time side by side, and a head-to-head.

    python benchmarks/search.py time OLD_PYTHON NEW_PYTHON [PACK ...] [--games N] [--old BOT] [--new BOT]
    python benchmarks/search.py versus [PACK ...] [--games N] [--from S] [--workers W] [--jsonl FILE]
                                       [--old BOT] [--new BOT]

`time` plays N games per pack at 4 players (seeds 0..N-1), the bot at seat 0 against three random
bots, with each install (a venv's python, for instance one per commit) in turn, the two interleaved
game by game: OLD_PYTHON's side plays `--old` (default `ismcts`, as an install of an old commit
names its default), NEW_PYTHON's `--new` (default `ismcts:cut`). Give the same python twice with
`--old ismcts:classic` to compare the two in one install. Each game gives the median CPU time of
the bot's decisions (one core), and the median of those is printed per side with their ratio.

`versus` plays `--new` (default `ismcts:cut`) against `--old` (default `ismcts:classic`), two seats
each at 4 players: the new bot at seats 0 and 2 in games of even seed, at 1 and 3 in the others, so
each side sits in each seat equally. A win shared by k counts 1/k; the new side's share of the
wins is printed with its 95% Wilson interval (an even match is 50%), and how many times as fast the
new bot decides (the old side's mean CPU time a decision over the new side's, median of the games;
the two sides share each game's machine load).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from multiprocessing import get_context

PACKS = ["7-wonders", "architects", "architects-medals", "dice"]


def game_median(pack: str, seed: int, bot: str) -> float:
    """The median CPU milliseconds of the bot's decisions at seat 0 in one game."""
    from wonderforge.interpreter import load_game
    from wonderforge.interpreter.bots.registry import bot_for, bot_rngs

    game = load_game(pack, players=4)
    chooser = bot_for(game, bot)
    state, other = game.new_state(seed), bot_for(game, "random")
    rngs, times = bot_rngs(state), []
    while not state.is_terminal():
        for seat in state.current_players():
            actions = state.legal_actions(seat)
            start = time.process_time()
            action = (chooser if seat == 0 else other).act(state, seat, actions, rngs[seat])
            if seat == 0 and len(actions) > 1:
                times.append(time.process_time() - start)
            state.apply(seat, action)
    return 1000 * statistics.median(times)


def timing(args) -> None:
    print(f"{'pack':<18} {'games':>5} {'old ms':>8} {'new ms':>8} {'faster':>7}", flush=True)
    for pack in args.packs:
        got: dict[str, list[float]] = {"old": [], "new": []}
        for seed in range(args.games):
            for side, bot in (("old", args.old_bot), ("new", args.new_bot)):
                out = subprocess.run([getattr(args, side), __file__, "one", pack, str(seed), bot],
                                     capture_output=True, text=True, check=True)
                got[side].append(float(out.stdout))
        old, new = statistics.median(got["old"]), statistics.median(got["new"])
        print(f"{pack:<18} {args.games:>5} {old:>8.1f} {new:>8.1f} {old / new:>6.1f}x", flush=True)


def one_game(job: tuple[str, int, str, str]) -> dict:
    """One game of the head-to-head: the new bot's seats, the winners and the scores."""
    from wonderforge.interpreter import load_game
    from wonderforge.interpreter.bots.registry import bot_for, bot_rngs

    pack, seed, new_bot, old_bot = job
    game = load_game(pack, players=4)
    new, old = bot_for(game, new_bot), bot_for(game, old_bot)
    mine = [0, 2] if seed % 2 == 0 else [1, 3]
    sides = [new if seat in mine else old for seat in range(4)]
    state = game.new_state(seed)
    rngs = bot_rngs(state)
    spent = {True: [0.0, 0], False: [0.0, 0]}  # CPU seconds and decisions (of more than one action), by side
    while not state.is_terminal():
        for seat in state.current_players():
            actions = state.legal_actions(seat)
            start = time.process_time()
            action = sides[seat].act(state, seat, actions, rngs[seat])
            if len(actions) > 1:
                side = spent[seat in mine]
                side[0] += time.process_time() - start
                side[1] += 1
            state.apply(seat, action)
    winners = state.winners()
    return {"pack": pack, "seed": seed, "new_seats": mine, "winners": winners,
            "scores": [s["total"] for s in state.scores()],
            "share": sum(1 / len(winners) for seat in winners if seat in mine),
            "ms_new": 1000 * spent[True][0] / max(1, spent[True][1]),
            "ms_old": 1000 * spent[False][0] / max(1, spent[False][1])}


def versus(args) -> None:
    from wonderforge.tools.study.stats import wilson

    for pack in args.packs:
        jobs = [(pack, seed, args.new_bot, args.old_bot) for seed in range(args.start, args.start + args.games)]
        games = []
        with get_context("fork").Pool(args.workers) as pool:
            for game in pool.imap(one_game, jobs):
                games.append(game)
                if args.jsonl:  # as each game ends: a long run stopped keeps what it played
                    with open(args.jsonl, "a") as f:
                        f.write(json.dumps(game) + "\n")
        share = sum(g["share"] for g in games)
        low, high = wilson(share, len(games))
        new = statistics.mean(g["scores"][s] for g in games for s in g["new_seats"])
        old = statistics.mean(g["scores"][s] for g in games for s in range(4) if s not in g["new_seats"])
        faster = statistics.median(g["ms_old"] / g["ms_new"] for g in games)
        print(f"{pack:<18} {len(games)} games  new wins {share / len(games):6.1%} [{low:5.1%}, {high:5.1%}]  "
              f"mean score new {new:5.1f}, old {old:5.1f}  new {faster:.1f}x as fast", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("time")
    t.add_argument("old")
    t.add_argument("new")
    v = sub.add_parser("versus")
    v.add_argument("--from", dest="start", type=int, default=0, help="the first seed (default 0)")
    v.add_argument("--workers", type=int, default=1)
    v.add_argument("--jsonl", help="also append each game to this file")
    for p in (t, v):
        p.add_argument("packs", nargs="*", default=PACKS)
        p.add_argument("--games", type=int, default=200 if p is v else 5)
        p.add_argument("--old", dest="old_bot", default="ismcts:classic" if p is v else "ismcts")
        p.add_argument("--new", dest="new_bot", default="ismcts:cut")
    one = sub.add_parser("one")  # one game's median, in the install that runs this file
    one.add_argument("pack")
    one.add_argument("seed", type=int)
    one.add_argument("bot")
    args = parser.parse_args()
    if args.command == "one":
        print(game_median(args.pack, args.seed, args.bot))
    else:
        (timing if args.command == "time" else versus)(args)


if __name__ == "__main__":
    sys.exit(main())

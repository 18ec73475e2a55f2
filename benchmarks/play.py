"""Print random-play games per second and the mean score per player, on one core.

    python benchmarks/play.py [PACK] [--games N] [--players 3,5,7]

Reference, 7 Wonders on this kind of machine: the fastest hand-written engine measured plays about
400, 245 and 180 games per second at 3, 5 and 7 players; a hand-written Python one 182, 90 and 54.
Under uniform random play, 1st-edition engines give a mean score of about 26-27 per player.
"""

import argparse
import time

from wonderforge.interpreter import load_game
from wonderforge.interpreter.bots import play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pack", nargs="?", default="7-wonders")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", default="3,5,7")
    args = parser.parse_args()
    for n in (int(p) for p in args.players.split(",")):
        game = load_game(args.pack, players=n)
        warm = max(1, args.games // 10)  # fill the payment caches first, as a long run would
        for seed in range(warm):
            play(game, ["random"] * n, seed=-1 - seed)
        total = 0.0
        start = time.perf_counter()
        for seed in range(args.games):
            state = play(game, ["random"] * n, seed=seed)
            total += sum(s["total"] for s in state.scores()) / n
        elapsed = time.perf_counter() - start
        print(f"{args.pack} {n} players: {args.games / elapsed:6.1f} games/s, mean score {total / args.games:5.2f}")


if __name__ == "__main__":
    main()

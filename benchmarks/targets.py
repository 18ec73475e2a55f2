"""Print the speed targets of random play on one core next to what `wonderforge bench` measures now.

    python benchmarks/targets.py [--games N]

The targets are those of this kind of machine (2 cores): for 7 Wonders, the fastest hand-written
engine measured here (a compiled C# one) plays 406 / 245 / 181 games per second at 3 / 5 / 7 players,
a hand-written Python one 182 / 90 / 54. Run it on a quiet machine: other work on the cores slows it.
"""

import argparse

from wonderforge.interpreter import load_game
from wonderforge.tools.study.bench import measure

TARGETS = [("7-wonders", 3, 400), ("7-wonders", 5, 250), ("7-wonders", 7, 180), ("architects", 4, 500), ("dice", 4, 300)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="timed games per measure (default 1000)")
    args = parser.parse_args()
    print(f"{'pack':<12} {'players':>7} {'games/s':>8} {'target':>7}")
    for pack, players, target in TARGETS:
        measured = measure(load_game(pack, players=players), args.games)["games_per_second"]
        verdict = "met" if measured >= target else f"{measured / target:.0%} of it"
        print(f"{pack:<12} {players:>7} {measured:>8.1f} {target:>7}  {verdict}", flush=True)


if __name__ == "__main__":
    main()

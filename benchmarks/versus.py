"""Compare the speed of two installs of WonderForge side by side, in one run.

    python benchmarks/versus.py OLD_PYTHON NEW_PYTHON [--games N] [--rounds R] [PACK ...]

Each install is a venv's python (for instance one per commit: `git worktree add ../old COMMIT`, a
venv there, `pip install -e .`). For every shipped pack (or those named) at every player count it
declares, `wonderforge bench` runs with the old install and then the new, the two interleaved, R
rounds; the best of each side's rounds is printed with the new one's change. The machine's noise
falls on both sides alike; the best of several rounds is what the code can do.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys


def bench(python: str, pack: str, players: int, games: int) -> float:
    """Games per second of one `wonderforge bench` measure, in a process of its own."""
    out = subprocess.run([python, "-m", "wonderforge.tools.cli.commands", "bench", pack, "--players", str(players),
                          "--games", str(games), "--format", "json"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)["results"][0]["games_per_second"]


def counts(python: str, pack: str) -> list[int]:
    """The player counts a pack declares, as the install reads them."""
    code = ("import sys; from wonderforge.interpreter.games.check import load_pack; r = load_pack(sys.argv[1]).rules['players']; "
            "print(r['min'], r['max'])")
    low, high = subprocess.run([python, "-c", code, pack], capture_output=True, text=True, check=True).stdout.split()
    return list(range(int(low), int(high) + 1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("packs", nargs="*", default=["7-wonders", "architects", "architects-medals", "dice"])
    parser.add_argument("--games", type=int, default=200, help="timed games per measure (default 200)")
    parser.add_argument("--rounds", type=int, default=3, help="measures of each side, interleaved (default 3)")
    args = parser.parse_args()
    print(f"{'pack':<18} {'players':>7} {'old':>8} {'new':>8} {'change':>7}")
    for pack in args.packs:
        for players in counts(args.new, pack):
            best = {"old": 0.0, "new": 0.0}
            for _ in range(args.rounds):
                for side in ("old", "new"):
                    best[side] = max(best[side], bench(getattr(args, side), pack, players, args.games))
            change = best["new"] / best["old"] - 1
            print(f"{pack:<18} {players:>7} {best['old']:>8.1f} {best['new']:>8.1f} {change:>+7.1%}", flush=True)


if __name__ == "__main__":
    sys.exit(main())

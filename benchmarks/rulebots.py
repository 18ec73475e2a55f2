"""The shipped rule-based bots measured (issue 15): `python benchmarks/rulebots.py [PACK...] [--games N]`
plays N games (200 by default) at 4 players of each pack, the pack's `rules` bot at seat 0 against
three `greedy` bots, then three `random` ones, and prints its win rate (a win shared by k counts
1/k) and its mean score, with the opponents' mean score."""

from __future__ import annotations

import argparse

from wonderforge.interpreter import load_game
from wonderforge.interpreter.bots import play


def measure(pack: str, opponent: str, games: int, bot: str = "rules") -> dict:
    game = load_game(pack, players=4)
    wins = mine = theirs = 0.0
    for seed in range(games):
        state = play(game, [bot] + [opponent] * 3, seed=seed)
        winners, scores = state.winners(), state.scores()
        wins += (0 in winners) / len(winners)
        mine += scores[0]["total"]
        theirs += sum(s["total"] for s in scores[1:]) / 3
    return {"pack": pack, "against": opponent, "win": wins / games, "mean": mine / games, "theirs": theirs / games}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("packs", nargs="*", default=["7-wonders", "architects", "architects-medals", "dice"])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--against", default="greedy,random")
    args = parser.parse_args()
    for pack in args.packs:
        for opponent in args.against.split(","):
            r = measure(pack, opponent, args.games)
            print(f"{r['pack']:18} vs 3 {r['against']:7} win {r['win']:6.1%}  mean {r['mean']:5.1f}  (theirs {r['theirs']:5.1f})",
                  flush=True)


if __name__ == "__main__":
    main()

"""Whether this tree plays the very same games as another commit: for every shipped pack at 3 to 7
players, seeded games between random bots (and a few between greedy ones), each game's every action
and final scores compared.

    python benchmarks/same.py --against 7b6fa10                  # 200 seeds a pack and count
    python benchmarks/same.py --against 7b6fa10 --games 50 --packs dice --players 4

A change that only makes the engine faster must print "the same games" here: the same seed gives
the same legal actions in the same order, the same draws and the same results. Each side runs in a
process of its own, on that commit's sources (as `pace.py` takes them).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pace import in_child, side_by_side, sides  # noqa: E402

GREEDY = 5  # games between greedy bots per pack and count: slower, but they look at more of the engine


def child(plan: dict) -> None:
    """Play the plan's games on the sources this process imports; print a digest per game."""
    from wonderforge.interpreter import load_game
    from wonderforge.interpreter.bots.registry import play

    out = {}
    for pack, players in plan["measures"]:
        game = load_game(pack, players=players)
        for bot, games in (("random", plan["games"]), ("greedy", min(GREEDY, plan["games"]))):
            for seed in range(games):
                state = play(game, [bot] * players, seed=seed)
                text = json.dumps([[seat, list(action)] for seat, action in state.history] + [state.scores()],
                                  default=str)
                out[f"{pack} {players}p {bot} seed {seed}"] = hashlib.sha256(text.encode()).hexdigest()
    print(json.dumps(out))


def main() -> None:
    parser = side_by_side(__doc__.splitlines()[0], 200, "seeds per pack and count")
    args = parser.parse_args()
    if args.child:
        return child(json.loads(args.child))
    if not args.against:
        parser.error("--against names the commit to compare with")
    plan = {"measures": [(p, int(n)) for p in args.packs for n in args.players.split(",")], "games": args.games}
    with sides(args.against) as sites:
        this, base = in_child(__file__, sites["this"], plan), in_child(__file__, sites["base"], plan)
    differ = [game for game in base if this.get(game) != base[game]]
    for game in differ[:20]:
        print(f"differs: {game}")
    print(f"{len(base) - len(differ)} of {len(base)} games the same"
          + ("" if differ else ": the same games"))
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()

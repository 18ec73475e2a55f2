"""Write the golden game logs again, after a change that is meant to alter how games play.

    python tests/golden/regenerate.py

Each log is a seeded game between bots; tests/test_golden.py checks that replaying it gives the
recorded result and that the same bots and seed still play exactly these actions.
"""

from pathlib import Path

from wonderforge.interpreter import load_game

from wonderforge.interpreter.files import log
from wonderforge.interpreter.bots.registry import play

HERE = Path(__file__).parent

# (pack, players, seed, bots, options)
GAMES = [
    ("7-wonders", 3, 1, ["random", "random", "random"], {}),
    ("7-wonders", 5, 2, ["greedy", "random", "greedy", "random", "random"], {"side": "b"}),
    ("7-wonders", 7, 3, ["random"] * 7, {"side": "a"}),
    ("architects", 2, 4, ["random", "greedy"], {}),
    ("architects", 5, 5, ["random"] * 5, {}),
    ("architects-medals", 4, 6, ["greedy", "random", "random", "random"], {"experts": True}),
    ("architects-medals", 7, 7, ["random"] * 7, {}),
    ("dice", 2, 8, ["random", "greedy"], {}),
    ("dice", 5, 9, ["random"] * 5, {}),
]


def name(pack: str, players: int, seed: int) -> str:
    return f"{pack}-{players}p-seed{seed}.jsonl"


def main() -> None:
    for pack, players, seed, bots, options in GAMES:
        state = play(load_game(pack, players=players, seed=seed, **options), bots)
        path = HERE / name(pack, players, seed)
        with path.open("w", encoding="utf-8") as out:
            log.write(out, log.lines_of(state, pack))
        print(f"wrote {path}")


if __name__ == "__main__":
    main()

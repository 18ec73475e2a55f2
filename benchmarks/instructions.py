"""The engine's cost in instructions, this tree beside another commit: what N seeded random games
cost beyond loading the pack, counted by valgrind's callgrind, so that a change of a few percent
shows on a machine whose CPU times move by 20% from run to run.

    python benchmarks/instructions.py --against 051a0fb --games 40 --players 4
    python benchmarks/instructions.py --against 7b6fa10 --games 200 --players 4 --simulate
    python benchmarks/instructions.py --against 37fdd5c --search 12 --players 4

Each side runs the same games (the same seeds, the same random players) under callgrind twice:
with N games and with none; the difference is the play. Python's hash seed is fixed (0) on both
sides, as set orders change the count otherwise. Needs valgrind (Debian's `valgrind`).

With `--simulate`, each side also plays the same games as a one-worker `simulate` (running.run:
the records, the summary's sums, the scores after each period in the games a 1,000-game run
scores so), and the last columns are `bench`'s instructions over `simulate`'s: its pace as a
share of `bench`'s.

With `--search N`, each side plays the first N decisions of its default search bot (`ismcts`) at
seat 0 of seed 0 against random bots instead of games: the cost of a search decision, on the same
positions while both sides choose alike.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile

from pace import side_by_side, sides


def search(pack: str, players: int, decisions: int) -> None:
    """Load the pack, then play seed 0 until the search bot at seat 0 has made `decisions` choices."""
    from wonderforge.interpreter import load_game
    from wonderforge.interpreter.bots.registry import bot_for, bot_rngs
    game = load_game(pack, players=players)
    bots = [bot_for(game, "ismcts")] + [bot_for(game, "random")] * (players - 1)
    state = game.new_state(0)
    rngs, made = bot_rngs(state), 0
    while made < decisions and not state.is_terminal():
        for seat in state.current_players():
            actions = state.legal_actions(seat)
            made += seat == 0 and len(actions) > 1
            state.apply(seat, bots[seat].act(state, seat, actions, rngs[seat]))


def child(pack: str, players: int, games: int, simulate: bool) -> None:
    """Load the pack, then play `games` games between random bots, as `bench` does (or as a
    one-worker `simulate` of 1,000 games does: chunks as large, the same games scored after each
    period)."""
    from wonderforge.interpreter import load_game
    from wonderforge.interpreter.bots.registry import play
    if simulate:
        from wonderforge.tools.study import running
        every = getattr(running, "course_every", None)  # a commit without it scores every game
        running.course_every = lambda _, lines: every(1000, lines) if every else 1
        running.CHUNKS_PER_WORKER = max(1, games * running.CHUNKS_PER_WORKER // 1000)  # chunks as large
    game = load_game(pack, players=players)
    if simulate and games:
        running.run(game, pack, ["random"] * players, 0, games)
        return
    for seed in range(games):
        play(game, ["random"] * players, seed=seed).scores()


def count(site, pack: str, players: int, games: int, simulate: bool = False, decisions: int = -1) -> int:
    """The instructions of a child run on `site`'s sources (of a search's `decisions`, if any)."""
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/out", sys.executable,
                               __file__, "--child", f"{pack},{players},{games},{int(simulate)},{decisions}"], capture_output=True, text=True,
                              env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0"}, cwd=site)
        found = re.search(r"Collected : (\d+)", done.stderr)
        if done.returncode or not found:
            sys.exit(f"a side failed:\n{done.stderr[-2000:]}")
        return int(found[1])


def main() -> None:
    parser = side_by_side(__doc__.splitlines()[0], 40, "games played per measure")
    parser.add_argument("--simulate", action="store_true", help="also a one-worker simulate's, as a share of bench's pace")
    parser.add_argument("--search", type=int, metavar="N", help="a search bot's first N decisions instead of games")
    args = parser.parse_args()
    if args.child:
        pack, players, games, simulate, decisions = args.child.split(",")
        if int(decisions) >= 0:
            return search(pack, int(players), int(decisions))
        return child(pack, int(players), int(games), simulate == "1")
    if not args.against or not shutil.which("valgrind"):
        parser.error("--against names the commit to compare with, and valgrind must be installed")
    decisions = -1 if args.search is None else args.search  # -1: games, not a search
    played = f"the search bot's first {decisions} decisions" if decisions >= 0 else f"{args.games} random games"
    print(f"millions of instructions, {played} beyond the load")
    print(f"{'pack':<18} {'players':>7} {args.against[:7]:>9} {'now':>9} {'x':>6} {'load x':>7}"
          + (f" {'simulate/bench then':>20} {'now':>5}" if args.simulate else ""))
    with sides(args.against) as sites:
        for pack in args.packs:
            for players in (int(n) for n in args.players.split(",")):
                for side in sites.values():  # a first run of each side writes its bytecode files
                    count(side, pack, players, 0, args.simulate)
                load = {name: count(site, pack, players, 0, decisions=min(decisions, 0)) for name, site in sites.items()}
                play = {name: count(site, pack, players, args.games, decisions=decisions) - load[name]
                        for name, site in sites.items()}
                line = (f"{pack:<18} {players:>7} {play['base'] / 1e6:>9.0f} {play['this'] / 1e6:>9.0f} "
                        f"{play['this'] / play['base']:>6.3f} {load['this'] / load['base']:>7.3f}")
                if args.simulate:
                    # less a load that imports the study's modules too, as a simulate does
                    pace = {name: play[name] / (count(site, pack, players, args.games, True)
                                                - count(site, pack, players, 0, True))
                            for name, site in sites.items()}
                    line += f" {pace['base']:>20.3f} {pace['this']:>5.3f}"
                print(line, flush=True)


if __name__ == "__main__":
    main()

"""The engine's pace, this tree beside another commit: `bench`'s games per second and, with
`--simulate`, a one-worker `simulate`'s, side by side, in CPU time.

    python benchmarks/pace.py --against 7b6fa10                   # bench, every shipped pack, 3 to 7 players
    python benchmarks/pace.py --against 7b6fa10 --simulate --packs architects dice --players 4 --games 1000

Each side runs in a process of its own on the same Python, the other commit's sources taken from
git (`git archive`), and the runs alternate (A B A B...) `--rounds` times: the figure is the median
of each side's runs, so that other work on a loaded machine weighs on both alike. `simulate`'s pace
is that of `running.run` on one worker after the same warm-up as `bench`'s, so the gap between the
two is what a study pays beyond playing its games: recording each period's scores, the records and
the aggregate.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parent.parent
PACKS = ("7-wonders", "architects", "architects-medals", "dice")
# the top-level folders and the package each stands for (pyproject's package-dir)
FOLDERS = ("dsl", "interpreter", "tools", "content", "schemas", "docs")
SIMULATED = 1_000_000  # the first seed of the simulated games: none that `bench` played


def child(plan: dict) -> None:
    """Measure in this process, on the sources it imports, and print the figures as JSON."""
    import time

    from wonderforge.interpreter import load_game
    try:
        from wonderforge.tools.study.bench import measure
        from wonderforge.tools.study.running import run
    except ImportError:  # before tools/ was split by concern
        from wonderforge.tools.bench import measure
        from wonderforge.tools.simulate import run
    out = []
    for pack, players in plan["measures"]:
        game = load_game(pack, players=players)
        measured = measure(game, plan["games"])
        row = {"pack": pack, "players": players, "bench": measured["games_per_second"], "score": measured["mean_score"]}
        if plan["simulate"]:
            start = time.process_time()  # `measure` warmed the caches up: other seeds than its own, as it does
            run(game, pack, ["random"] * players, SIMULATED, plan["games"], workers=1)
            row["simulate"] = round(plan["games"] / (time.process_time() - start), 1)
        out.append(row)
    print(json.dumps(out))


def sources(commit: str, where: Path) -> Path:
    """A folder to put on PYTHONPATH that imports `wonderforge` from that commit's sources (or from
    this tree when `commit` is empty)."""
    tree = ROOT
    if commit:
        tree = where / "tree"
        tree.mkdir()
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit], check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    site = where / "site" / "wonderforge"
    site.mkdir(parents=True)
    for name in ("__init__.py", "__main__.py"):
        (site / name).symlink_to(tree / "wonderforge" / name)
    for folder in FOLDERS:
        if (tree / folder).is_dir():
            (site / folder).symlink_to(tree / folder)
    return site.parent


@contextmanager
def sides(against: str) -> Iterator[dict[str, Path]]:
    """The sites of both sides: "this" tree and "base", the commit `against` (removed after)."""
    with tempfile.TemporaryDirectory(prefix="wonderforge-sides-") as tmp:
        (Path(tmp) / "a").mkdir()
        (Path(tmp) / "b").mkdir()
        yield {"this": sources("", Path(tmp) / "a"), "base": sources(against, Path(tmp) / "b")}


def in_child(script: str, site: Path, plan: dict):
    """What `script --child PLAN` prints (JSON), run in a process of its own on `site`'s sources."""
    done = subprocess.run([sys.executable, script, "--child", json.dumps(plan)], capture_output=True, text=True,
                          env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"}, cwd=site)
    if done.returncode:
        sys.exit(f"a side failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout)


def side_by_side(description: str, games: int, what: str) -> argparse.ArgumentParser:
    """A command line comparing this tree with a commit: `--against`, `--packs`, `--players`,
    `--games` (`games` by default, `what` they are) and the hidden `--child`."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--against", help="the commit to compare with (any git revision)")
    parser.add_argument("--packs", nargs="+", default=list(PACKS), help="shipped pack ids (default: all)")
    parser.add_argument("--players", default="3,4,5,6,7", help="player counts (default 3,4,5,6,7)")
    parser.add_argument("--games", type=int, default=games, help=f"{what} (default {games})")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    return parser


def main() -> None:
    parser = side_by_side(__doc__.splitlines()[0], 300, "timed games per measure")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each side, alternated (default 3)")
    parser.add_argument("--simulate", action="store_true", help="also a one-worker simulate's pace")
    args = parser.parse_args()
    if args.child:
        return child(json.loads(args.child))
    if not args.against:
        parser.error("--against names the commit to compare with")
    plan = {"measures": [(p, int(n)) for p in args.packs for n in args.players.split(",")],
            "games": args.games, "simulate": args.simulate}
    runs: dict[str, list[list[dict]]] = {"this": [], "base": []}
    with sides(args.against) as sites:
        for i in range(args.rounds):
            for side in ("this", "base") if i % 2 == 0 else ("base", "this"):
                runs[side].append(in_child(__file__, sites[side], plan))
                print(f"round {i + 1}/{args.rounds}: {side} measured", file=sys.stderr, flush=True)
    kinds = ["bench"] + (["simulate"] if args.simulate else [])
    head = f"{'pack':<18} {'players':>7}" + "".join(
        f" {k + ' ' + args.against[:7]:>18} {k + ' now':>14} {'x':>5}" for k in kinds)
    if args.simulate:
        head += f" {'sim/bench then':>14} {'now':>5}"
    print(f"games/s, median of {args.rounds} runs of {args.games} games each, CPU time")
    print(head)
    for i, (pack, players) in enumerate(plan["measures"]):
        med = {side: {k: statistics.median(r[i][k] for r in runs[side]) for k in kinds} for side in runs}
        line = f"{pack:<18} {players:>7}" + "".join(
            f" {med['base'][k]:>18.1f} {med['this'][k]:>14.1f} {med['this'][k] / med['base'][k]:>5.2f}" for k in kinds)
        if args.simulate:
            line += f" {med['base']['simulate'] / med['base']['bench']:>14.2f} " \
                    f"{med['this']['simulate'] / med['this']['bench']:>5.2f}"
        if any(r[i]["score"] != runs["base"][0][i]["score"] for side in runs for r in runs[side]):
            line += "  the mean scores differ: the games are not the same"
        print(line, flush=True)


if __name__ == "__main__":
    main()

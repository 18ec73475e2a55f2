"""`wonderforge bench`: games per second, per pack and player count, on one core.

Each measure loads the game, warms it up on other seeds with as many games as it times up to
WARM_UP, and a tenth as many beyond (so caches are filled, as in a long run), then times `--games`
games in this process, in CPU time, between random bots or those `--bots` names.
"""

from __future__ import annotations

import gc
import json
import sys
import time

from ...dsl.diagnostics import safe
from ...interpreter.bots.registry import BotFileError, bot_names, play
from ...interpreter.games.game import DealError, Game
from ...interpreter.games.loading import load_game
from ...interpreter.packs.folders import shipped_packs
from ...interpreter.packs.model import LoadError
from ..common import output
from ..common.arguments import cannot_deal, fail, positive_int
from . import csvout
from .running import settle
from .simulate import add_wonders_argument


WARM_UP = 100  # games: the payment caches fill over the first hundreds of games of a run


def default_players(game_min: int, game_max: int) -> list[int]:
    """The smallest, middle and largest player counts: 3, 5, 7 for 7 Wonders; 2, 4, 7 for a 2-7 game."""
    return sorted({game_min, (game_min + game_max) // 2, game_max})


def measure(game: Game, games: int, bots: list[str] | None = None) -> dict:
    """Games per second between these bots, random by default (after a warm-up), and the mean score
    per player."""
    bots = bots or ["random"] * game.players
    for seed in range(max(min(games, WARM_UP), games // 10)):
        play(game, bots, seed=-1 - seed)
    total = 0
    settle()  # as `simulate` does between chunks: the collector leaves the warm caches alone
    try:
        start = time.process_time()  # this process's time on its core: other work on the machine barely counts
        for seed in range(games):
            state = play(game, bots, seed=seed)
            total += sum(s["total"] for s in state.scores())
        elapsed = time.process_time() - start
    finally:
        gc.unfreeze()
    return {"games": games, "seconds": round(elapsed, 3), "games_per_second": round(games / elapsed, 1),
            "mean_score": round(total / (games * game.players), 2)}


def add_parser(commands) -> None:
    p = commands.add_parser(
        "bench", help="games per second per pack and player count, on one core",
        description="Measure games per second on one core, per pack and player count, after a warm-up, between "
                    "random bots or those --bots names. By default every shipped pack at its smallest, middle and "
                    "largest player counts.")
    p.add_argument("packs", nargs="*", metavar="PACK", help="shipped pack ids or pack folders (default: all shipped)")
    p.add_argument("--players", help="player counts, e.g. 3,5,7 (default per pack: its min, middle and max)")
    p.add_argument("--games", type=positive_int, default=200, help="timed games per measure (default 200)")
    p.add_argument("--bots", default="random", help="bots per seat, cycled, as simulate takes them (default random)")
    add_wonders_argument(p)
    p.add_argument("--format", choices=("text", "json", "csv"), default="text",
                   help="text (default), json, or csv: one row per measure")
    p.set_defaults(run=main)


def main(args) -> int:
    """`wonderforge bench`; returns the exit status."""
    try:
        counts = [int(p) for p in args.players.split(",") if p.strip()] if args.players else None
    except ValueError:
        return _usage(f"--players takes whole numbers separated by commas, not {args.players!r}")
    if counts is not None and not counts:
        return _usage("--players names no player count")
    packs = args.packs or [p.name for p in shipped_packs()]
    pack = None
    try:
        plan = []
        for pack in packs:
            game = load_game(pack)
            for n in counts or default_players(game.rules.min_players, game.rules.max_players):
                sized = load_game(game.pack, players=n, wonders=args.wonders)
                plan.append((pack, sized, bot_names(args.bots, n, sized)))
    except DealError as err:  # the pack's problem, not the command line's
        return cannot_deal("bench", err, pack)
    except BotFileError as err:
        output.write_errors(err.diagnostics, args.format == "json")
        return 1
    except ValueError as err:  # a bad player count (GameError), an unknown bot, a bad --wonders
        return _usage(str(err), getattr(err, "hint", ""))
    except LoadError as err:
        output.write_text(err.diagnostics, sys.stderr)
        return 1
    results = []
    text = args.format == "text"
    if text:
        if args.bots != "random":
            print(safe(f"bots per seat, cycled: {args.bots}"))
        if args.wonders:
            print(safe(f"wonders assigned: {args.wonders}"))
        print(f"{'pack':<20} {'players':>7} {'games/s':>9} {'mean score':>10}")
    for pack, game, bots in plan:
        result = {"pack": pack, "players": game.players, "bots": bots} | measure(game, args.games, bots)
        results.append(result)
        if text:
            print(f"{safe(pack):<20} {game.players:>7} {result['games_per_second']:>9.1f} {result['mean_score']:>10.2f}",
                  flush=True)
    if args.format == "json":
        print(json.dumps({"results": results}, indent=2))
    elif args.format == "csv":
        print(render_csv(results), end="")
    return 0


CSV_HEADER = ("pack", "players", "bots", "games", "seconds", "games_per_second", "mean_score")


def render_csv(results: list[dict]) -> str:
    """The measures of `--format json` as CSV, one row each, the columns named as its fields (the
    bots of the seats joined by commas, as `--bots` takes them)."""
    return csvout.render(CSV_HEADER, ([",".join(r["bots"]) if k == "bots" else r[k] for k in CSV_HEADER]
                                      for r in results))


def _usage(message: str, hint: str = "") -> int:
    return fail("bench", message, hint)

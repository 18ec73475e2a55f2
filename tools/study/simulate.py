"""`wonderforge simulate`: many seeded games between bots, their statistics, and two packs compared.

The command itself: its arguments and options, the backend they name, and a run from the packs to
what it prints, writes (`--out`) and draws (`--report`); `simulate` does the same from Python.
running.py plays the games, summary.py sums them up, render.py writes the summaries as text and CSV.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import shlex
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Callable, Iterable, Iterator, Sequence

from ...dsl.diagnostics import safe
from ...interpreter.bots.registry import BotFileError, bot_file_paths, bot_names
from ...interpreter.games.check import load_pack
from ...interpreter.games.game import DealError, Game, GameError, check_option_names
from ...interpreter.games.loading import load_game
from ...interpreter.packs.folders import find_pack
from ...interpreter.packs.model import LoadError, Pack
from ..authoring.diff import as_data as diff_data, pack_diff, render as render_diff
from ..common import output
from ..common.outfile import OutError, OutFile, Refused
from ..common.arguments import Usage, cannot_deal, fail, positive_int, short, whole_number
from .page.document import page as report_page
from .page.winners import MAX_SAMPLE_PAGES, sample_seeds
from .paired import Paired, moves as paired_moves
from .progress import Progress
from .render import render, render_csv, render_moves
from .running import BackendError, ChunkLost, Local, RayCluster, SimulationError, first_line, run_packs
from .summary import changed_components, num, summary


def parse_options(items: Iterable[str]) -> dict[str, str]:
    """`key=value` words as a mapping; raises Usage for a word without `=`."""
    out = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise Usage(f"--options takes key=value words, not {item!r}")
        if key.strip() in out:
            raise Usage(f"--options gives {key.strip()} twice: give each option once")
        out[key.strip()] = value.strip()
    return out


TRUE, FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")


def typed_options(pack: Pack, given: dict[str, str]) -> dict:
    """Option values read as the type of the option's default in rules.yaml (true/false, a number,
    a word); raises Usage for a value of the wrong type, GameError for an option the pack lacks
    (before `load_game`, whose own arguments, such as `players`, are no option)."""
    declared = pack.rules.get("options") or {}
    check_option_names(pack, given)
    out = {}
    for key, value in given.items():
        default = (declared.get(key) or {}).get("default") if isinstance(declared.get(key), dict) else None
        if isinstance(default, bool):
            if value.lower() not in TRUE + FALSE:
                raise Usage(f"option {key} of {pack.id} is true or false, not {value!r}")
            out[key] = value.lower() in TRUE
        elif isinstance(default, int):
            try:
                out[key] = int(value)
            except ValueError:
                raise Usage(f"option {key} of {pack.id} is a whole number, not {value!r}") from None
        else:
            out[key] = value
    return out


def open_game(pack: str, players: int | None, options: dict[str, str], wonders: str | None = None) -> Game:
    """The game of a pack argument, with `wonders` assigned to seats (`--wonders`); raises GameError (a bad command line), DealError (a pack that
    cannot be dealt for that count), LoadError (a pack with errors) or Usage."""
    if find_pack(pack) is None:
        raise GameError(f"no pack {pack!r}: give a shipped pack id or the path of a pack folder")
    loaded = load_pack(pack)
    return load_game(loaded, players=players, wonders=wonders, **typed_options(loaded, options))


# The pack `wonderforge simulate` plays when given none: the embedded 7 Wonders.
DEFAULT_PACK = "7-wonders"

# A game as one replay viewer page: (game, bots, seed, title) -> the page. The command line gives
# it (the viewer is a layer above this one); without it a report's sample games are commands only.
SamplePage = Callable[[Game, Sequence[str], int, str], str]


def add_parser(commands, sample_page: SamplePage | None = None) -> None:
    """`simulate`'s parser, its report's sample games written as pages by `sample_page`."""
    p = commands.add_parser(
        "simulate", help="play many seeded games with bots and summarise them",
        description="Play many seeded games between bots (game i from seed S+i) and print their statistics: win "
                    "rate and mean score per wonder (and side) with 95%% confidence intervals, mean score per "
                    "category, how often each card or component was taken and how its takers fared. "
                    "The summary does not depend on --workers or --backend.")
    p.add_argument("pack", metavar="PACK", nargs="?", default=DEFAULT_PACK,
                   help=f"a shipped pack id (7-wonders, architects...) or a pack folder (default {DEFAULT_PACK})")
    p.add_argument("--players", type=positive_int, help="number of players (the pack's minimum by default)")
    p.add_argument("--games", type=positive_int, default=1000, help="games to play (default 1000)")
    p.add_argument("--bots", default="random", help="bots per seat, cycled: random, greedy, expert, ismcts[:budget or :classic], a pack's bot, FILE.yaml[:ID] (default random)")
    p.add_argument("--seed", type=whole_number, default=0, help="the first game's seed; game i uses seed+i (default 0)")
    p.add_argument("--options", nargs="+", action="extend", default=[], metavar="KEY=VALUE",
                   help="the pack's options, e.g. side=a or medals=false")
    add_wonders_argument(p)
    p.add_argument("--workers", type=positive_int, default=None,
                   help=f"processes to play on (default and most: the cores here, {Local().cpus()}; with --backend "
                        f"ray, chunks queued at once, by default the cluster's CPUs)")
    p.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="where the games run: processes on this machine (default) or a Ray cluster "
                        "(needs pip install 'wonderforge[distributed]')")
    p.add_argument("--address", metavar="ADDR",
                   help="with --backend ray: the cluster to join (HOST:6379, ray://HOST:10001 or auto); "
                        "a local Ray instance is started without it")
    p.add_argument("--format", choices=("text", "json", "csv"), default="text",
                   help="text (default), json, or csv: every table as one long CSV of figures, one per row")
    p.add_argument("--out", metavar="FILE", help="write one JSON line per game there, as games finish")
    p.add_argument("--against", metavar="PACK_B",
                   help="also play the same seeds with PACK_B and report what moved, with significance, after "
                        "what PACK_B changes (as `wonderforge diff` lists it; under `diff` in JSON)")
    p.add_argument("--report", metavar="FILE.html",
                   help="also write the balance report there: one self-contained page of charts and tables "
                        "(needs pip install 'wonderforge[report]')")
    p.add_argument("--chunk-timeout", metavar="SECONDS",
                   help="give up a chunk of games whose worker has made no progress for that long: the worker is "
                        "stopped and the chunk played again, as a dead worker's (local workers only)")
    p.add_argument("--quiet", "-q", action="store_true",
                   help="no progress on stderr (a stalled worker is still named)")
    p.set_defaults(run=main, sample_page=sample_page)


def main(args) -> int:
    """`wonderforge simulate`; returns the exit status."""
    game = None
    try:
        options = parse_options(args.options)
        game = open_game(args.pack, args.players, options, args.wonders)
        bots = bot_names(args.bots, game.players, game)
        other = open_game(args.against, game.players, options, args.wonders) if args.against else None
        if other is not None:
            bot_names(args.bots, other.players, other)  # B must know the bots too (its own bots.yaml...)
        backend = open_backend(args.backend, args.address, args.chunk_timeout)
    except DealError as err:
        return cannot_deal("simulate", err, args.pack if game is None else args.against)
    except BotFileError as err:
        output.write_errors(err.diagnostics, args.format == "json")
        return 1
    except (GameError, Usage, ValueError) as err:
        return _usage(err)
    except LoadError as err:
        output.write_text(err.diagnostics, sys.stderr)
        return 1
    except BackendError as err:
        return _backend_error(err)
    try:
        reading = bot_file_paths(bots)
        page = _open_report(args.report, args.out, reading)  # before the games: a report it could not write fails now
        try:
            out = _open_out(args.out, reading)  # before stdout is redirected: it may be /dev/stdout
        except BaseException:
            if page is not None:
                page.discard()
            raise
        with _stdout_to_stderr():  # what libraries print (Ray's workers) stays off the summary's stream
            try:
                outcome = _run(args, game, other, bots, backend, out, page)
            finally:
                backend.close()
    except (Usage, Refused) as err:  # the backend has not connected yet: nothing to close
        return _usage(err)
    except OutError as err:
        return _fail(str(err))
    except BackendError as err:
        return _backend_error(err)
    if isinstance(outcome, tuple):
        text, status = outcome
        print(text, end="" if args.format == "csv" else "\n")  # CSV text ends its last line
        return status
    return outcome


@contextmanager
def _stdout_to_stderr() -> Iterator[None]:
    """File descriptor 1 writes to stderr meanwhile, whoever writes there."""
    sys.stdout.flush()
    kept = os.dup(1)
    os.dup2(2, 1)
    try:
        yield
    finally:
        sys.stdout.flush()
        os.dup2(kept, 1)
        os.close(kept)


def open_backend(name: str, address: str | None, chunk_timeout: str | None = None) -> Local | RayCluster:
    """The backend of `--backend` (and `--address`, `--chunk-timeout`); raises Usage or BackendError
    (Ray missing)."""
    if name == "local":
        if address is not None:
            raise Usage("--address names a Ray cluster: give it with --backend ray")
        return Local(chunk_timeout=None if chunk_timeout is None else _seconds(chunk_timeout))
    if chunk_timeout is not None:
        # this process knows when it queued a task, not when a node started it: a time limit would also
        # give up tasks waiting their turn on a busy cluster (and queue them again, last)
        raise Usage("--chunk-timeout applies to local workers, not to Ray's",
                    "leave it out with --backend ray: a stalled Ray task is still told of")
    if address is not None and not _is_address(address):
        raise Usage(f"--address takes auto, HOST:PORT or ray://HOST:PORT (a port from 1 to 65535), "
                    f"not {address[:60]!r}")
    return RayCluster(address)


def _seconds(text: str) -> float:
    """The seconds of `--chunk-timeout`: a number above 0; raises Usage."""
    try:
        seconds = float(text) if len(text) <= 30 else None
    except ValueError:
        seconds = None
    if seconds is None or not 0 < seconds < math.inf:
        raise Usage(f"--chunk-timeout takes seconds, a number above 0, not {short(text)!r}",
                    "e.g. --chunk-timeout 300: a chunk of games without a result for that long is given up "
                    "and played again")
    return seconds


def _is_address(address: str) -> bool:
    """`auto`, `HOST:PORT` or `ray://HOST:PORT`, the port from 1 to 65535."""
    if address == "auto":
        return True
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    return bool(sep and host.strip("[]") and port.isdigit() and 0 < int(port) < 65536
                and not any(c.isspace() or c in "/@" for c in host))


def _run(args, game: Game, other: Game | None, bots: list[str], backend: Local | RayCluster,
         out: OutFile | None, page: OutFile | None = None) -> int | tuple[str, int]:
    """Play pack A (and B): the summary to print and the exit status (1 if the report could not be
    written), or the exit status of a run that failed."""
    try:
        return _play_and_summarise(args, game, other, bots, backend, out, page)
    finally:
        if page is not None and not page.file.closed:
            page.discard()  # the run or the page failed: the report's target is left as it was


def _play_and_summarise(args, game: Game, other: Game | None, bots: list[str], backend: Local | RayCluster,
                        out: OutFile | None, page: OutFile | None) -> int | tuple[str, int]:
    workers = backend.workers(args.workers)
    if args.workers and workers < args.workers and not args.quiet:
        print(f"wonderforge simulate: note: --workers {args.workers} asks for more processes than the "
              f"{workers} cores here: playing on {workers}", file=sys.stderr)
    targets = [(game, args.pack)] + ([(other, args.against)] if other is not None else [])
    label = f"simulate {args.pack}" + (f" against {args.against}" if other is not None else "")
    try:
        summaries, pairs = simulate_games(targets, bots, args.seed, args.games, workers, out,
                                          Progress(label, args.games, quiet=args.quiet), backend=backend)
        if out is not None:
            out.commit()
    except BaseException as err:
        kept = f"; {out.abandon()}" if out is not None else ""
        if isinstance(err, SimulationError):
            return _fail(f"internal error: {err}{kept}", "this is a WonderForge bug (or one of the pack's effects); "
                         "please report it with the pack and seed")
        if isinstance(err, (ChunkLost, OutError)):
            return _fail(f"{err}{kept}")
        if kept:
            print(safe(f"wonderforge simulate: stopped{kept}"), file=sys.stderr)
        raise
    first, *rest = summaries
    if not rest:
        text = render_csv(first) if args.format == "csv" else \
            json.dumps(first, indent=2) if args.format == "json" else render(first)
        return text, _write_report(page, args, bots, [(game, first)])
    second, = rest
    changes = pack_diff(game.pack, other.pack)  # what B changes, said before what moved
    moves = paired_moves(first, second, pairs, num, changed_components(game, other, changes))
    diff = diff_data(changes, game.pack, other.pack)
    if args.format == "json":
        text = json.dumps(first | {"against": second, "moves": moves, "diff": diff}, indent=2)
    elif args.format == "csv":
        text = render_csv(first, second, moves)
    else:
        text = "\n\n".join([render_diff(changes, game.pack, other.pack, (args.pack, args.against)),
                             render(first), render(second), render_moves(first, second, moves)])
    return text, _write_report(page, args, bots, [(game, first), (other, second)], moves, diff)


def simulate_games(targets: Sequence[tuple[Game, str]], bots: Sequence[str], seed: int, games: int,
                   workers: int = 1, out: IO[str] | None = None, progress: Progress | None = None,
                   context: str | None = None, backend: Local | RayCluster | None = None
                   ) -> tuple[list[dict], Paired | None]:
    """Play the same seeds with each (game, pack name) and summarise: a summary per pack, with the
    run's timings (shared: the packs play side by side), and the paired sums of two packs."""
    workers = max(1, min(workers, games))
    backend = backend or Local(context)
    start = time.perf_counter()
    result = run_packs(targets, bots, seed, games, workers, out, progress.update if progress else None,
                       backend=backend, note=progress.note if progress else None)
    seconds = time.perf_counter() - start
    if progress is not None:
        progress.close()
    played = sum(a.games + a.unfinished for a in result.aggregates)
    timing = {"backend": backend.name, "workers": workers, "seconds": round(seconds, 3),
              "games_per_second": round(played / seconds, 2) if seconds > 0 else None}
    return [summary(game, pack, bots, seed, aggregate) | {"run": timing}
            for (game, pack), aggregate in zip(targets, result.aggregates)], result.paired


def simulate(pack: str, players: int | None = None, games: int = 1000, bots: str | Sequence[str] = "random",
             seed: int = 0, workers: int | None = None, out: IO[str] | None = None, context: str | None = None,
             backend: Local | RayCluster | None = None, **options) -> dict:
    """The summary of a simulation, as `--format json` prints it (from Python); `backend` is
    `Local()` by default, or e.g. `RayCluster("auto")`."""
    game = load_game(pack, players=players, **options)
    seats = bot_names(bots, game.players, game) if isinstance(bots, str) else list(bots)
    backend = backend or Local(context)
    (summary_,), _ = simulate_games([(game, str(pack))], seats, seed, games, backend.workers(workers), out, None,
                                    backend=backend)
    return summary_


def _usage(err: Exception) -> int:
    return fail("simulate", str(err), getattr(err, "hint", ""))


def add_wonders_argument(p) -> None:
    """`--wonders`, as simulate, play and bench take it."""
    p.add_argument("--wonders", metavar="W[:SIDE],...",
                   help="wonders (or Dice boards) for the seats, in seat order: e.g. giza:b,rhodes,* gives seat 0 Giza "
                        "side B, seat 1 Rhodes (side dealt as usual), and deals the other seats (* or past the list) "
                        "at random from the rest, in every game")


def _open_out(path: str | None, reading: Iterable[str]) -> OutFile | None:
    """The `--out` file, or None without one; raises Usage (no name) or OutError (Refused: a pack's
    file or one `reading`; or it cannot be written)."""
    if path is None:
        return None
    if path == "":
        raise Usage("--out names no file")
    return OutFile(path, reading)


def _open_report(path: str | None, out: str | None, reading: Iterable[str]) -> OutFile | None:
    """The `--report` page's file, or None; raises Usage (no name, the `--out` file, the charting
    package missing) or OutError (Refused: a pack's file or one `reading`; or it cannot be written)."""
    if path is None:
        return None
    if importlib.util.find_spec("vl_convert") is None:
        raise Usage("--report draws its charts with Vega-Lite, from the package vl-convert-python, which is "
                    "not installed", "pip install 'wonderforge[report]' (pip install '.[report]' in a clone)")
    if path == "":
        raise Usage("--report names no file")
    if out is not None and _same_file(path, out):
        raise Usage(f"--report and --out both name {path}: give the page and the games' lines a file each")
    return OutFile(path, reading)


def _same_file(a: str, b: str) -> bool:
    try:
        return Path(a).resolve() == Path(b).resolve()
    except RuntimeError:  # a loop of links: OutFile says so
        return False


def _write_report(page: OutFile | None, args, bots: Sequence[str], played: Sequence[tuple[Game, dict]],
                  moves: dict | None = None, diff: dict | None = None) -> int:
    """The balance report of the run (`played`: each pack's game and summary), written whole to its
    file with its sample games' pages (if asked; all or none): the exit status, 1 when it could not
    be (said in one line; the summary is printed all the same)."""
    if page is None:
        return 0
    command = shlex.join(["wonderforge", *getattr(args, "argv", ["simulate"])])
    summaries = [s for _, s in played] + [None]
    samples, files = _sample_names(page, args, played), []
    try:
        page.write(report_page(summaries[0], command, summaries[1], moves, diff, samples))
        reading = [*bot_file_paths(bots), *([args.out] if args.out else [])]
        for (game, s), names in zip(played, samples):
            for seed, name in names.items():
                files.append(OutFile(str(page.target.with_name(name)), reading))
                files[-1].write(args.sample_page(game, bots, seed, f"{s['pack']}, seed {seed} "
                                                 f"(a sample game of {page.target.name})"))
        for file in (*files, page):
            file.commit()
    except OutError as err:
        _fail(str(err))
        return 1
    except Exception as err:  # the charting package failing: the summary still stands
        _fail(f"cannot make the report page: {type(err).__name__}: {first_line(err)}",
              "pip install --force-reinstall 'wonderforge[report]'; if it persists, please report it")
        return 1
    finally:
        for file in files:
            file.discard()
    return 0


def _sample_names(page: OutFile, args, played: Sequence[tuple[Game, dict]]) -> list[dict[int, str]]:
    """The viewer pages of each pack's first MAX_SAMPLE_PAGES sample games, beside the report
    (REPORT-game-S.html, REPORT-b-game-S.html for pack B): per pack, each seed's file name."""
    if getattr(args, "sample_page", None) is None or page.temp is None:  # no viewer, or no file (a pipe)
        return []
    return [{seed: f"{page.target.stem}-{'b-' * n}game-{seed}.html" for seed in sample_seeds(s)[:MAX_SAMPLE_PAGES]}
            for n, (_, s) in enumerate(played)]


def _fail(message: str, hint: str = "") -> int:
    """A run that stopped: one line (and a hint) on stderr, exit status 1."""
    return fail("simulate", message, hint, status=1)


def _backend_error(err: BackendError) -> int:
    print(safe(f"wonderforge simulate: error: {err}") + (f"\n  hint: {err.hint}" if err.hint else ""), file=sys.stderr)
    return 1

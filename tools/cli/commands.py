"""The `wonderforge` command line.

Exit status: 0 clean, 1 errors in what was checked (a pack that cannot be dealt for the player
count asked is one), 2 a bad command line.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import signal
import socket
import sys
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Sequence

from ... import version
from ...dsl.diagnostics import Diagnostic, control_char, safe
from ...interpreter.bots.botfile import read_bots
from ...interpreter.bots.registry import BotFileError, bot_file_paths
from ...interpreter.files import log as gamelog
from ...interpreter.files.scenario import load_scenario
from ...interpreter.games.check import check_pack
from ...interpreter.games.game import DealError, GameError
from ...interpreter.games.loading import load_game
from ...interpreter.packs.folders import CONTENT, find_pack, shipped_packs
from ...interpreter.packs.model import LoadError, Pack
from ...interpreter.packs.schemas import COMPONENT_KINDS
from ..authoring import cards, diff, new
from ..common import output
from ..common.outfile import OutError, OutFile
from ..common.arguments import cannot_deal, fail, positive_int, whole_number
from ..editor import completion, lsp, watch
from ..serve import app as serving
from ..serve import replay as watching
from ..serve.tables import IDLE_HOURS, MAX_GAMES, Tables, default_folder
from ..study import bench, csvout, simulate, training
from .play import Quit, Terminal, bots_for, score_table, screen_for, winners_line


class Terminated(BaseException):
    """SIGTERM or SIGHUP, raised where the program is, so that it stops as it does for Ctrl-C."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


class OutputLost(Exception):
    """Standard output cannot be written (a full disk, a reader gone): `err` says why."""

    def __init__(self, err: OSError):
        super().__init__(err)
        self.err = err


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    problem = _standard_streams()
    if problem:
        return problem
    parser = _parser()
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)  # as typed, for a report to show
    with _signals_raise(), _guarded_stdout():
        try:
            status = args.run(args)
            sys.stdout.flush()  # what is still buffered must reach its reader before we say all went well
            return status
        except KeyboardInterrupt:
            print("interrupted", file=sys.stderr)
            return 130
        except Terminated as stop:
            print("terminated", file=sys.stderr)
            return 128 + stop.signum
        except OutputLost as lost:
            # nothing more can be shown there: say so where it can still be read, and fail
            _silence(sys.stdout)
            reason = "closed before the end (broken pipe)" if isinstance(lost.err, BrokenPipeError) else \
                f"lost: {lost.err.strerror or lost.err}"
            print(f"wonderforge: the output was {reason}", file=sys.stderr)
            return 1


def _silence(stream) -> None:
    """Point a stream's file at /dev/null, so that Python's last flush at exit finds nothing to say."""
    try:
        fd = stream.fileno()
    except (OSError, ValueError, io.UnsupportedOperation):
        return  # not a file (a test's capture)
    os.dup2(os.open(os.devnull, os.O_WRONLY), fd)


def _standard_streams() -> int:
    """A closed stderr becomes /dev/null (progress is then unseen, never mixed into stdout); a
    closed stdout is an error, exit 1: whatever the command found would be lost without a word.
    Text the terminal's encoding cannot show is escaped, not a crash."""
    if sys.stderr is None:
        fd = os.open(os.devnull, os.O_WRONLY)
        if fd != 2:
            os.dup2(fd, 2)
            os.close(fd)
        sys.stderr = open(2, "w", closefd=False)
    if sys.stdout is None:
        print("wonderforge: standard output is closed: nothing could be shown", file=sys.stderr)
        return 1
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    return 0


class _Guarded:
    """Standard output whose write errors are OutputLost, not whichever OSError a print meets."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, text: str) -> int:
        try:
            return self.stream.write(text)
        except OSError as err:
            raise OutputLost(err) from None

    def flush(self) -> None:
        if self.stream.closed:  # the language server's library closes it when the editor leaves
            return
        try:
            self.stream.flush()
        except OSError as err:
            raise OutputLost(err) from None

    def __getattr__(self, name):
        return getattr(self.stream, name)


@contextmanager
def _guarded_stdout():
    before = sys.stdout
    sys.stdout = _Guarded(before)
    try:
        yield
    finally:
        sys.stdout = before


@contextmanager
def _signals_raise():
    """SIGTERM and SIGHUP raise Terminated while the command runs (in the main thread; the
    handlers before are put back after)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    def terminate(signum, frame):
        raise Terminated(signum)
    before = {s: signal.signal(s, terminate) for s in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for s, handler in before.items():
            signal.signal(s, handler)


class _Parser(argparse.ArgumentParser):
    """argparse, with what it quotes of the command line escaped."""

    def error(self, message: str):
        super().error(safe(message))


class _Version(argparse.Action):
    """`--version`: `wonderforge X.Y.Z`, exit 0; the version is looked up only when asked for."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        try:
            print(f"wonderforge {version()}", flush=True)
        except OSError as err:  # before main() guards the output: said here, as main() says it
            parser.exit(1, f"wonderforge: the output was lost: {err.strerror or err}\n")
        parser.exit()


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="wonderforge", description="A rules-as-data engine for the 7 Wonders family.")
    parser.add_argument("--version", action=_Version, help="print the version of wonderforge and exit")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    check = commands.add_parser("check", help="validate packs and report every error",
                                description="Validate packs (folders holding pack.yaml, or shipped pack ids). "
                                            "With no PATH, checks every shipped pack and summarises each.")
    check.add_argument("paths", nargs="*", metavar="PATH")
    check.add_argument("--format", choices=("text", "json"), default="text")
    check.add_argument("--bots", metavar="FILE", help="also check this bot file against each pack given (docs/bots.md)")
    check.add_argument("--watch", action="store_true",
                       help="check again each time a YAML file of the packs (or of what they extend, or the --bots "
                            "file) is saved, until Ctrl-C")
    check.set_defaults(run=_check)

    score = commands.add_parser("score", help="the scores of a position written as a scenario file",
                                description="Score a scenario (a YAML position, see schemas/scenario.schema.json): "
                                            "points by category, totals and winners.")
    score.add_argument("scenario", metavar="SCENARIO")
    score.add_argument("--format", choices=("text", "json", "csv"), default="text",
                       help="text (default), json, or csv: one row per player")
    score.set_defaults(run=_score)

    replay = commands.add_parser("replay", help="replay a game log and check its recorded result",
                                 description="Replay a JSON Lines game log from its seed and actions, with the pack "
                                             "it names (a folder relative to the log's) or --pack; exit 0 when "
                                             "the replay reproduces the recorded scores, 1 when not or when the "
                                             "log is bad.")
    replay.add_argument("log", metavar="LOG")
    replay.add_argument("--pack", metavar="PATH",
                        help="replay against this pack (a shipped pack id or a pack folder) instead of the "
                             "one the log names; a different id or version is a warning")
    replay.add_argument("--format", choices=("text", "json"), default="text")
    replay.add_argument("--html", metavar="FILE",
                        help="write the game's replay viewer there instead: one page that works offline (a log, "
                             "or a `simulate --out` file, its game played again)")
    replay.add_argument("--seed", type=whole_number, help="with --html and a `simulate --out` file: the game of "
                                                          "that seed (the first by default)")
    replay.set_defaults(run=_replay)

    play = commands.add_parser("play", help="play a game in the terminal against bots",
                               description="Play a game in the terminal: you at one seat, bots at the others. "
                                           "Type the number of an action; q leaves.")
    play.add_argument("pack", metavar="PACK", help="a shipped pack id (7-wonders, architects...) or a pack folder")
    play.add_argument("--players", type=positive_int, help="number of players (the pack's minimum by default)")
    play.add_argument("--seed", type=whole_number, help="the game's seed (random by default; it is printed)")
    play.add_argument("--bots", default="greedy",
                      help="bots for the other seats, in seat order, cycled: e.g. expert,greedy (default greedy)")
    play.add_argument("--seat", type=whole_number, default=0, help="your seat, from 0 (default 0)")
    play.add_argument("--side", help="the wonder side every player plays: a, b or random (the pack's default)")
    simulate.add_wonders_argument(play)
    play.add_argument("--log", metavar="FILE", help="write the game's JSON Lines log there")
    play.add_argument("--explain", action="store_true",
                      help="after a search bot's move, show what it weighed: its top actions, their playouts and mean rewards "
                           "(which shows what that bot holds: a way to study bots, not to play them)")
    play.set_defaults(run=_play)

    serve = commands.add_parser("serve", help="play games in the browser: people on their own devices, bots at other seats",
                                description="Serve a page to start games of the shipped packs (and of the PACK "
                                            "folders given) and one page per seat, for people on their own devices; "
                                            "bots play the other seats. Games are kept in --data and go on after a "
                                            "restart. See docs/playing.md.")
    serve.add_argument("packs", nargs="*", metavar="PACK", help="pack folders to offer besides the shipped packs")
    serve.add_argument("--host", default="127.0.0.1",
                       help="the address to listen on (default 127.0.0.1: this machine only); 0.0.0.0 shares on the network")
    serve.add_argument("--port", type=whole_number, default=8000, help="the port (default 8000; 0: any free port)")
    serve.add_argument("--data", metavar="DIR", help=f"the folder games are kept in (default {default_folder()})")
    serve.add_argument("--watch", action="append", default=[], metavar="LOG",
                       help="a log, or a `simulate --out` file (a game by its seed), its watch page may open "
                            "besides the data folder's games (repeat for more)")
    serve.add_argument("--bot-file", action="append", default=[], metavar="FILE",
                       help="a bot file the seats may name (FILE.yaml or FILE.yaml:ID); repeatable")
    serve.add_argument("--max-games", type=positive_int, default=MAX_GAMES,
                       help=f"unfinished games at once (default {MAX_GAMES})")
    serve.add_argument("--idle", type=float, default=IDLE_HOURS, metavar="HOURS",
                       help=f"an unfinished game untouched this long expires (default {IDLE_HOURS:g})")
    serve.set_defaults(run=_serve)

    simulate.add_parser(commands, watching.sample_page)
    bench.add_parser(commands)
    training.add_parser(commands)
    new.add_parser(commands)
    diff.add_parser(commands)
    cards.add_parser(commands)
    lsp.add_parser(commands)
    completion.add_parser(commands, parser)
    return parser


def _check(args) -> int:
    if args.bots and not args.paths:
        print("wonderforge check: error: --bots FILE needs the pack it plays: wonderforge check --bots FILE PACK",
              file=sys.stderr)
        return 2
    if args.bots and not Path(args.bots).is_file():
        print(safe(f"wonderforge check: error: no bot file {args.bots!r}"), file=sys.stderr)
        return 2
    targets = args.paths or [str(p) for p in shipped_packs()]
    as_json = args.format == "json"
    if args.watch:
        watch.run(lambda: _watched_check(targets, args.bots, as_json), watch.watched(targets, [], args.bots), as_json)
    reports = _check_packs(targets, args.bots)
    shown, errors, _ = _check_report(reports, as_json)
    print(output.dumps(shown) if as_json else shown, end="\n" if as_json else "")
    return 1 if errors else 0


def _check_packs(targets: list[str], bots: str | None) -> list[tuple[str, Pack | None, list[Diagnostic]]]:
    """Each target checked (with the bot file, against a pack without errors): the target, its pack
    (None when it could not be read) and its diagnostics."""
    reports = []
    for target in targets:
        try:
            pack, diagnostics = check_pack(target)
            if bots and pack is not None and not any(d.severity == "error" for d in diagnostics):
                diagnostics += [d for d in read_bots(Path(bots), pack)[1] if d not in diagnostics]
        except Exception as err:  # a bug of ours must still not show the user a traceback
            pack, diagnostics = None, [Diagnostic("E-INTERNAL", f"internal error while checking: {err!r}", target,
                                                  hint="this is a WonderForge bug: please report it with this pack")]
        reports.append((target, pack, diagnostics))
    return reports


def _check_report(reports, as_json: bool) -> tuple[str | dict, int, int]:
    """What `check` shows of its reports (the text, or the data of --format json), its errors and
    its warnings."""
    diagnostics = [d for _, _, ds in reports for d in ds]
    errors = sum(d.severity == "error" for d in diagnostics)
    warnings = len(diagnostics) - errors
    if as_json:
        return output.as_data(diagnostics) | {
            "errors": errors, "warnings": warnings,
            "packs": [_summary(pack) | {"path": target, "ok": not any(d.severity == "error" for d in ds)}
                      for target, pack, ds in reports if pack is not None]}, errors, warnings
    text = io.StringIO()
    output.write_text(diagnostics, text)
    for target, pack, ds in reports:
        if pack is not None:
            print(safe(_summary_line(pack, ds)), file=text)
    print(_totals(errors, warnings), file=text)
    return text.getvalue(), errors, warnings


def _watched_check(targets: list[str], bots: str | None, as_json: bool) -> watch.Outcome:
    """One check of `check --watch`."""
    reports = _check_packs(targets, bots)
    shown, errors, warnings = _check_report(reports, as_json)
    return watch.Outcome(_totals(errors, warnings), shown, watch.watched(targets, [p for _, p, _ in reports], bots))


def _score(args) -> int:
    try:
        state, diagnostics, names = load_scenario(args.scenario)
    except Exception as err:  # a bug of ours must still not show the user a traceback
        state, names = None, []
        diagnostics = [Diagnostic("E-INTERNAL", f"internal error while scoring: {err!r}", args.scenario,
                                  hint="this is a WonderForge bug: please report it with this scenario")]
    if state is None:
        output.write_errors(diagnostics, args.format == "json")
        return 1
    scores, winners = state.scores(), state.winners()
    if args.format == "json":
        out = {"players": [{"name": name, "score": s["total"], "breakdown": s["breakdown"]}
                           for name, s in zip(names, scores)],
               "winners": [names[w] for w in winners]}
        print(json.dumps(out, indent=2))
    elif args.format == "csv":
        print(_score_csv(names, scores, winners), end="")
    else:
        print(score_table(names, scores))
        print(winners_line(names, winners))
    return 0


def _score_csv(names: list[str], scores: list[dict], winners: list[int]) -> str:
    """`score --format csv`: a row per player with the fields of `--format json` (name, then the
    breakdown's categories in the pack's order, score) and whether they won."""
    categories = list(dict.fromkeys(c for s in scores for c in s["breakdown"]))
    return csvout.render(["name", *categories, "score", "winner"],
                         ([name, *(s["breakdown"].get(c, 0) for c in categories), s["total"], seat in winners]
                          for seat, (name, s) in enumerate(zip(names, scores))))


def _replay(args) -> int:
    if args.html is not None:
        return _replay_html(args)
    as_json = args.format == "json"
    warnings: list[Diagnostic] = []
    try:
        log = gamelog.read(Path(args.log))
        game, warnings = gamelog.game_of(log, args.pack)
        state = gamelog.replay(log, game)
    except gamelog.LogError as err:
        output.write_errors([*warnings, err.diagnostic], as_json)
        return 1
    except Exception as err:  # a bug of ours must still not show the user a traceback
        output.write_errors([Diagnostic("E-INTERNAL", f"internal error while replaying: {repr(err)[:200]}", args.log,
                                       hint="this is a WonderForge bug: please report it with this log")], as_json)
        return 1
    if not as_json:
        output.write_errors(warnings, False)
    names = [f"seat {s}" for s in range(log.players)]
    scores, winners = state.scores(), state.winners() if state.is_terminal() else []
    ok = gamelog.matches(log, state)
    differences = [] if ok else _differences(log, state, scores, winners)
    if as_json:
        print(json.dumps({"log": args.log, "pack": log.pack, "players": log.players, "seed": log.seed,
                          "options": log.options, **({"wonders": list(log.wonders)} if log.wonders else {}),
                          "actions": len(log.actions), "finished": state.is_terminal(),
                          "matches": ok, "scores": scores, "winners": winners, "recorded": log.result,
                          "differences": differences, "replayed_with": args.pack,
                          "warnings": [d.as_dict() for d in warnings]}, indent=2))
        return 0 if ok else 1
    options = ", ".join(f"{k}={v}" for k, v in log.options.items())
    pack = log.pack + (f" (replayed with {args.pack})" if args.pack else "")
    print(safe(f"{args.log}: {pack}, {log.players} players, seed {log.seed}" + (f", options {options}" if options else "")
               + (f", wonders assigned {','.join(log.wonders)}" if log.wonders else "")))
    print(f"replayed {len(log.actions)} action{'s' * (len(log.actions) != 1)}"
          + ("" if state.is_terminal() else " (the game is not over)"))
    print(score_table(names, scores))
    if winners:
        print(winners_line(names, winners))
    if ok:
        print("ok: the replay reproduces the recorded result")
        return 0
    print("MISMATCH: the replay does not reproduce the recorded result")
    for line in differences:
        print(f"  {safe(line)}")
    return 1


def _replay_html(args) -> int:
    """`replay LOG --html FILE`: the game's replay viewer, as one page."""
    if not args.html:
        return fail("replay", "--html names no file")
    path = Path(args.log)
    try:
        page = OutFile(args.html, [args.log])
    except OutError as err:
        return fail("replay", str(err), err.hint)
    try:
        if watching.is_log(path):
            log = gamelog.read(path)
            watched = watching.of_log(log, gamelog.game_of(log, args.pack)[0])
        else:
            watched = watching.of_record(watching.read_records(path, args.seed), path.parent)
        page.write(watching.page(watched))
        page.commit()
    except gamelog.LogError as err:
        output.write_errors([err.diagnostic], args.format == "json")
        return 1
    except (watching.ReplayError, OutError) as err:
        return fail("replay", str(err), err.hint, 1)
    except (OSError, LoadError, GameError, BotFileError, ValueError) as err:
        return fail("replay", f"cannot replay {args.log}: {str(err)[:200]}", "give a log or a `simulate --out` file", 1)
    finally:
        page.discard()
    kept = f"{watched['kept']} positions of {watched['actions'] + 1}"
    print(json.dumps({"html": args.html, "positions": watched["kept"], "actions": watched["actions"]})
          if args.format == "json" else safe(f"wrote {args.html}: {kept}"))
    return 0


def _differences(log, state, scores: list[dict], winners: list[int]) -> list[str]:
    """What differs between the recorded result and the replay's, as sentences."""
    if log.result is None:
        return ["the log records no result (its game was not finished?)"]
    if not state.is_terminal():
        return ["the log's actions end before the game does"]
    out = []
    recorded = log.result.get("scores") or []
    if len(recorded) != len(scores):
        out.append(f"the log records {len(recorded)} scores for {len(scores)} players")
    for seat, (mine, theirs) in enumerate(zip(scores, recorded)):
        if mine != theirs:
            total = theirs.get("total") if isinstance(theirs, dict) else theirs
            parts = [f"total {total} recorded, {mine['total']} replayed"] if total != mine["total"] else []
            given = theirs.get("breakdown") or {} if isinstance(theirs, dict) else {}
            parts += [f"{c} {given.get(c)} recorded, {v} replayed"
                      for c, v in mine["breakdown"].items() if given.get(c) != v]
            parts += [f"{c} recorded but not scored" for c in given if c not in mine["breakdown"]]
            out.append(f"seat {seat}: " + ("; ".join(parts) or "the entries differ"))
    if log.result.get("winners") != winners:
        out.append(f"winners: {log.result.get('winners')} recorded, {winners} replayed")
    return out or ["the recorded result differs in form"]


def _play(args) -> int:
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    options = {"side": args.side} if args.side else {}
    try:
        game = load_game(args.pack, players=args.players, seed=seed, wonders=args.wonders, **options)
    except DealError as err:
        return cannot_deal("play", err, args.pack)
    except GameError as err:
        return fail("play", str(err), getattr(err, "hint", ""))
    except LoadError as err:
        output.write_errors(err.diagnostics, False)
        return 1
    if not 0 <= args.seat < game.players:
        print(f"wonderforge play: error: --seat must be from 0 to {game.players - 1}, not {args.seat}", file=sys.stderr)
        return 2
    try:
        bots = bots_for(args.bots, game.players, args.seat, game)
    except BotFileError as err:
        output.write_errors(err.diagnostics, False)
        return 1
    except ValueError as err:
        print(safe(f"wonderforge play: error: {err}"), file=sys.stderr)
        return 2
    if args.log == "":
        return fail("play", "--log names no file")
    if args.log is not None and _unloggable(args.pack):
        return fail("play", f"cannot write the log to {args.log}: {_unloggable(args.pack)}")
    try:
        log = OutFile(args.log, bot_file_paths(bots)) if args.log is not None else None  # asked before the game
    except OutError as err:
        return fail("play", str(err), err.hint)
    try:
        return _played(args, game, bots, seed, log)
    finally:
        if log is not None:
            log.discard()  # a game stopped (Ctrl-C, SIGTERM): the target is left as it was


def _played(args, game, bots: list[str | None], seed: int, log: OutFile | None) -> int:
    """The game played at the terminal, then its log written (if asked): the exit status."""
    terminal = Terminal(game, args.seat, bots, explain=args.explain)
    try:
        terminal.run()
    except DealError as err:
        return cannot_deal("play", err, args.pack)
    except Quit:
        print(f"\nGame left unfinished (seed {seed}).")
    if log is not None and terminal.state is not None:
        try:
            gamelog.write(log, gamelog.lines_of(terminal.state, _logged_pack(args.pack, args.log), bots))
            log.commit()
        except OutError as err:
            return fail("play", f"{err}; {log.abandon()}", status=1)
        print(f"log written to {args.log}")
    return 0


def _serve(args) -> int:
    if serving.Starlette is None:
        return fail("serve", "serving needs starlette and uvicorn, which are not installed",
                    "pip install 'wonderforge[serve]' (pip install '.[serve]' in a clone)")
    for pack in args.packs:
        if find_pack(pack) is None:
            return fail("serve", f"no pack {pack!r}", "give the path of a folder holding a pack.yaml")
        try:
            load_game(pack)
        except LoadError as err:  # every error of the pack, as `check` shows them
            output.write_errors(err.diagnostics, False)
            return 1
        except GameError as err:
            return fail("serve", str(err), getattr(err, "hint", ""), status=1)
    for log in args.watch:
        if not Path(log).is_file():
            return fail("serve", f"--watch {log}: no such file", "give a game log (`play --log`, a server's game)")
    for name in args.bot_file:
        if not any(Path(path).is_file() for path in bot_file_paths([name])):
            return fail("serve", f"--bot-file {name}: no such bot file", "give FILE.yaml or FILE.yaml:ID (docs/bots.md)")
    if not 0 <= args.port < 65536 or args.idle <= 0:
        return fail("serve", "--port must be from 0 to 65535 and --idle above 0")
    tables = Tables(Path(args.data) if args.data else default_folder(), args.packs, args.bot_file,
                    args.max_games, args.idle)
    try:
        warnings = tables.open()
        sock = serving.listening(args.host, args.port)
    except OSError as err:
        return fail("serve", f"cannot serve on {args.host}:{args.port} with games in {tables.folder}: "
                             f"{err.strerror or err}", "try another --port or --data", status=1)
    for line in warnings:
        print(f"wonderforge serve: warning: {line}", file=sys.stderr)
    if not serving.loopback(args.host):
        print(safe(f"wonderforge serve: warning: listening on {args.host}: anyone who reaches it may start "
                   "games; only a seat's link (its secret token) lets one play that seat"), file=sys.stderr)
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    anywhere = host in ("0.0.0.0", "::")  # every address of the machine: not one a browser can open
    print(f"WonderForge serving {len(tables.tables)} game(s) from {safe(tables.folder)} "
          f"at http://{'127.0.0.1' if anywhere else shown}:{port}/ (Ctrl-C stops)"
          + (safe(f"; from another device: http://{socket.gethostname()}:{port}/ or this machine's network "
                  "address") if anywhere else ""), flush=True)
    serving.run(serving.create_app(tables, screen_for, logs=args.watch), sock)
    return 0


def _unloggable(pack: str) -> str | None:
    """Why a log could not name the pack (a log refuses control characters in its paths), or None."""
    return "the pack's path holds a control character" if control_char(pack) else None


def _logged_pack(pack: str, log: str) -> str:
    """The pack as the log names it: a shipped pack's id, or its folder relative to the log's
    folder, which is where `replay` looks for it."""
    folder = find_pack(pack)
    if folder is None or folder == CONTENT / pack:
        return pack
    try:
        relative = Path(os.path.relpath(folder.resolve(), Path(log).resolve().parent)).as_posix()
    except ValueError:  # another drive
        return folder.resolve().as_posix()
    return relative if "/" in relative else f"./{relative}"  # never read as a shipped pack's id


def _summary(pack: Pack) -> dict:
    counts = {kind: len(pack.components[kind]) for kind in COMPONENT_KINDS if pack.components[kind]}
    effects = sum(len(c.compiled) for kind in COMPONENT_KINDS for c in pack.components[kind].values())
    players = pack.rules.get("players") or {}
    return {"id": pack.id, "name": pack.name, "version": pack.version,
            "extends": [b.id for b in pack.bases], "components": counts, "compiled_fields": effects,
            "players": [players.get("min"), players.get("max")] if isinstance(players, dict) else None}


def _summary_line(pack: Pack, diagnostics: list[Diagnostic]) -> str:
    s = _summary(pack)
    errors = sum(d.severity == "error" for d in diagnostics)
    status = "ok" if not errors else f"{errors} error{'s' * (errors != 1)}"
    parts = ", ".join(f"{n} {kind}" for kind, n in s["components"].items())
    base = f" (extends {', '.join(s['extends'])})" if s["extends"] else ""
    players = f", {s['players'][0]}-{s['players'][1]} players" if s["players"] and None not in s["players"] else ""
    return f"{s['id']} {s['version']}{base}: {parts}{players}, {s['compiled_fields']} effect texts compiled — {status}"


def _totals(errors: int, warnings: int) -> str:
    if not errors and not warnings:
        return "no problems found"
    return f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"


if __name__ == "__main__":
    sys.exit(main())

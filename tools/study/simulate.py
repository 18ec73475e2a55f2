"""`wonderforge simulate`: many seeded games between bots, their statistics, and two packs compared.

Game i is played from seed S + i, with the bot of each seat cycled from `--bots`. The games run in
chunks of consecutive seeds, in this process (one worker), in a pool of processes that each load
the pack once, or as tasks on a Ray cluster (`--backend ray`) whose workers load it once from its
files, sent with the tasks. A chunk comes back as a compact `Aggregate` of exact sums (and, with
`--out`, its JSON lines, already encoded); chunks are merged and written in seed order. Sums are
integers (a shared win counts in units of 1/lcm(1..players)), so the summary is the same to the last
digit whatever the number of workers or where they run, and memory stays flat however many games
are played.

What a player built is read from the final state (records.py); a card an Architects player spent on
a stage has left the city, so it is not counted.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import importlib.util
import json
import logging
import math
import os
import shlex
import signal
import socket
import sys
import tempfile
import threading
import time
from collections import Counter, deque
from contextlib import closing, contextmanager
from fractions import Fraction
from pathlib import Path
from typing import IO, Callable, Iterable, Iterator, NamedTuple, Sequence

from ...dsl.diagnostics import safe, safe_lines
from ...interpreter.bots.registry import BotFileError, adopt_bot_files, bot_file_paths, bot_files, bot_for, bot_names
from ...interpreter.core.errors import EndlessGame
from ...interpreter.games.check import load_pack
from ...interpreter.games.game import DealError, Game, GameError, check_option_names
from ...interpreter.games.loading import load_game
from ...interpreter.packs.folders import find_pack, is_shipped
from ...interpreter.packs.model import LoadError, Pack
from ..authoring.diff import as_data as diff_data, pack_diff, render as render_diff
from ..common import output
from ..common.outfile import OutError, OutFile, Refused
from ..common.arguments import Usage, cannot_deal, fail, positive_int, short, whole_number
from ..common.text import STAGES, ci_pct as _ci_pct, fig as _fig, option_text as _option_text, pct as _pct
from . import csvout
from .page.document import page as report_page
from .paired import Paired, moves as paired_moves
from .pool import RETRIES, JobLost, Pool, Watch, stall_floor
from .progress import Progress
from .quality import Course, play_game, quality, reached
from .records import boards, record, win_shares
from .stats import Moments, wilson

MAX_CHUNK = 100            # games per chunk at most: a chunk is the unit of work and of progress
CHUNKS_PER_WORKER = 64     # aim for at least this many chunks per worker, to balance them
AHEAD = 2                  # chunks queued per worker beyond the one it plays
UNFINISHED_SEEDS = 10      # seeds of unfinished games the summary lists
CONNECT_TIMEOUT = 10       # seconds to wait for a Ray cluster's head to answer


class SimulationError(RuntimeError):
    """A game failed for another reason than running endlessly (a bug): the message names its seed."""


class ChunkLost(RuntimeError):
    """Games that could not be played, their workers dying (or given up) each time: seeds
    start..start+count-1."""

    def __init__(self, start: int, count: int, reason: str):
        super().__init__(f"seeds {start}-{start + count - 1} were not played: {reason}")
        self.start, self.count = start, count


# ---- exact running statistics ------------------------------------------------------------------


class Tally:
    """Player-games of one kind (a wonder, a side, a seat, a bot, or all): wins in units, scores
    (their moments and how often each), stages, points per category (kept for wonders only), and
    the first seed won."""

    __slots__ = ("wins", "score", "scores", "stages", "points", "example")

    def __init__(self):
        self.wins = 0
        self.score = Moments()
        self.scores: Counter = Counter()
        self.stages = Moments()
        self.points: Counter = Counter()
        self.example: int | None = None

    def add(self, total: int, won: int, seed: int) -> None:
        self.wins += won
        self.score.add(total)
        self.scores[total] += 1
        if won:
            self.example = _first(self.example, seed)

    def merge(self, other: "Tally") -> None:
        self.wins += other.wins
        self.score.merge(other.score)
        self.scores.update(other.scores)
        self.stages.merge(other.stages)
        self.points.update(other.points)
        self.example = _first(self.example, other.example)

    def __getstate__(self):
        return (self.wins, self.score, self.scores, self.stages, self.points, self.example)

    def __setstate__(self, state):
        self.wins, self.score, self.scores, self.stages, self.points, self.example = state


class Taken:
    """The player-games in which a component was taken: their wins in units, scores, copies held,
    and the first seed a taker won."""

    __slots__ = ("wins", "score", "copies", "example")

    def __init__(self):
        self.wins = 0
        self.score = Moments()
        self.copies = 0
        self.example: int | None = None

    def add(self, total: int, won: int, copies: int, seed: int) -> None:
        self.wins += won
        self.score.add(total)
        self.copies += copies
        if won:
            self.example = _first(self.example, seed)

    def merge(self, other: "Taken") -> None:
        self.wins += other.wins
        self.score.merge(other.score)
        self.copies += other.copies
        self.example = _first(self.example, other.example)

    def __getstate__(self):
        return (self.wins, self.score, self.copies, self.example)

    def __setstate__(self, state):
        self.wins, self.score, self.copies, self.example = state


def _first(a: int | None, b: int | None) -> int | None:
    """The smaller of two seeds, either maybe missing."""
    return b if a is None else a if b is None else min(a, b)


class Aggregate:
    """Everything the summary needs, as exact sums: `add` a game's record, `merge` another part."""

    def __init__(self, players: int):
        self.players = players
        self.unit = math.lcm(*range(1, players + 1))  # a win shared by k players is unit // k
        self.games = 0
        self.shared = 0                 # games whose win was shared
        self.actions = Moments()
        self.lengths: Counter = Counter()  # games by their number of actions
        self.course = Course()
        self.all = Tally()
        self.seats = [Tally() for _ in range(players)]
        self.bots: dict[str, Tally] = {}
        self.wonders: dict[str, Tally] = {}
        self.sides: dict[str, Tally] = {}
        self.categories: dict[str, Moments] = {}
        self.components: dict[str, dict[str, Taken]] = {}
        self.unfinished = 0
        self.unfinished_seeds: list[int] = []
        self.unfinished_reason = ""

    def add(self, rec: dict) -> None:
        self.games += 1
        winners = rec["winners"]
        self.shared += len(winners) > 1
        self.actions.add(rec["actions"])
        self.lengths[rec["actions"]] += 1
        self.course.add(rec["periods"], winners)
        seed = rec["seed"]
        categories, components = self.categories, self.components
        shares = win_shares(rec, self.unit)
        for seat, (who, score, built) in enumerate(zip(rec["seats"], rec["scores"], rec["built"])):
            total, won = score["total"], shares[seat]
            groups = [self.all, self.seats[seat], self.bots.get(who["bot"]) or self.bots.setdefault(who["bot"], Tally())]
            staged = [getattr(self, table).get(key) or getattr(self, table).setdefault(key, Tally())
                      for table, key in boards(who)]
            if staged:
                if STAGES in built:
                    for tally in staged:
                        tally.stages.add(len(built[STAGES]))
                staged[0].points.update(score["breakdown"])
                groups += staged
            for tally in groups:
                tally.add(total, won, seed)
            for name, points in score["breakdown"].items():
                moments = categories.get(name)
                if moments is None:
                    moments = categories[name] = Moments()
                moments.add(points)
            for group, ids in built.items():
                table = components.get(group)
                if table is None:
                    table = components[group] = {}
                for cid, copies in Counter(ids).items():
                    cid = str(cid)
                    taken = table.get(cid)
                    if taken is None:
                        taken = table[cid] = Taken()
                    taken.add(total, won, copies, seed)

    def add_unfinished(self, seed: int, reason: str) -> None:
        self.unfinished += 1
        if len(self.unfinished_seeds) < UNFINISHED_SEEDS:
            self.unfinished_seeds.append(seed)
        self.unfinished_reason = self.unfinished_reason or reason

    def merge(self, other: "Aggregate") -> None:
        self.games += other.games
        self.shared += other.shared
        self.actions.merge(other.actions)
        self.lengths.update(other.lengths)
        self.course.merge(other.course)
        self.all.merge(other.all)
        for mine, theirs in zip(self.seats, other.seats):
            mine.merge(theirs)
        for name in ("bots", "wonders", "sides"):
            table = getattr(self, name)
            for key, tally in getattr(other, name).items():
                table.setdefault(key, Tally()).merge(tally)
        for key, moments in other.categories.items():
            self.categories.setdefault(key, Moments()).merge(moments)
        for group, table in other.components.items():
            mine = self.components.setdefault(group, {})
            for key, taken in table.items():
                mine.setdefault(key, Taken()).merge(taken)
        self.unfinished += other.unfinished
        room = UNFINISHED_SEEDS - len(self.unfinished_seeds)
        self.unfinished_seeds += other.unfinished_seeds[:max(room, 0)]
        self.unfinished_reason = self.unfinished_reason or other.unfinished_reason

    def wins(self, units: int) -> Fraction:
        return Fraction(units, self.unit)


# ---- playing: where chunks run (this process, a pool of processes, a Ray cluster) ---------------

_WORKER: dict = {}  # in a worker process: the game, loaded once ("key" says which)


def _worker_start(key: tuple) -> None:
    if _WORKER.get("key") != key:  # a forked worker already holds them; a spawned one loads them
        _WORKER["games"] = tuple(load_game(folder, players=players, wonders=wonders, **dict(options))
                                 for folder, players, options, wonders in key)
        _WORKER["key"] = key


def _worker_chunk(packs: tuple[str, ...], bots: tuple[str, ...], start: int, count: int, lines: bool):
    try:
        return play_chunk(_WORKER["games"], packs, bots, start, count, lines)
    finally:
        settle()


def settle() -> None:
    """Between chunks: collect, then freeze what is left, mostly the engine's caches. They grow to
    their bounds and stay, and the collector would otherwise walk them again and again (a tenth
    of a long 7 Wonders run); what a cache later drops is freed all the same, having no cycles.
    `gc.unfreeze()` gives everything back to the collector."""
    gc.collect()
    gc.freeze()


class Chunk(NamedTuple):
    """What a chunk of seeds gives back: an aggregate per pack, the paired sums of two packs, and
    the `--out` lines when asked (each seed's game of every pack, in seed order)."""

    aggregates: list[Aggregate]
    paired: Paired | None
    text: str | None


def play_chunk(games: Sequence[Game], packs: Sequence[str], bots: Sequence[str], start: int, count: int,
               lines: bool = False) -> Chunk:
    """Play seeds start..start+count-1 with each game; their aggregates (paired for two games)."""
    aggregates = [Aggregate(game.players) for game in games]
    pairs = Paired(games[0].players) if len(games) == 2 else None
    out = [] if lines else None
    for seed in range(start, start + count):
        recs = [_play_one(game, pack, bots, seed, aggregate, out, len(games) > 1)
                for game, pack, aggregate in zip(games, packs, aggregates)]
        if pairs is not None and None not in recs:
            pairs.add(*recs)
    return Chunk(aggregates, pairs, "".join(out) if out is not None else None)


def _play_one(game: Game, pack: str, bots: Sequence[str], seed: int, aggregate: Aggregate,
              out: list[str] | None, named: bool) -> dict | None:
    """One game, added to the aggregate (and its line to `out`); its record, None if it did not end."""
    try:
        state, periods = play_game(game, bots, seed)
        rec = record(state, pack, bots, periods)
    except EndlessGame as err:
        aggregate.add_unfinished(seed, str(err))
        if out is not None:
            out.append(json.dumps({"pack": pack, "seed": seed, "unfinished": str(err)}) + "\n")
        return None
    except Exception as err:
        raise SimulationError(f"{f'{pack}, ' if named else ''}seed {seed}: {type(err).__name__}: {err}") from None
    aggregate.add(rec)
    if out is not None:
        out.append(json.dumps(rec, separators=(",", ":")) + "\n")
    return rec


def chunks(seed: int, games: int, workers: int) -> Iterator[tuple[int, int]]:
    """(first seed, count) of each chunk, in seed order (made as they are needed)."""
    size = max(1, min(MAX_CHUNK, games // (workers * CHUNKS_PER_WORKER)))
    return ((seed + i, min(size, games - i)) for i in range(0, games, size))


Results = Iterator[Chunk]


class BackendError(RuntimeError):
    """A backend that cannot run (Ray missing, a cluster out of reach, a worker that fails): the
    message says what, the hint what to do."""

    def __init__(self, message: str, hint: str = ""):
        super().__init__(message)
        self.hint = hint


class Local:
    """Chunks played on this machine: in this process for one worker, else in a pool of processes
    (started by `context`, the multiprocessing start method; the platform's default if None). A
    worker that stalls is told of; with `chunk_timeout`, its chunk is given up after that many
    seconds and played again (then even one worker is a process of its own, which can be stopped)."""

    name = "local"

    def __init__(self, context: str | None = None, chunk_timeout: float | None = None):
        self.context, self.chunk_timeout = context, chunk_timeout

    def cpus(self) -> int:
        """The cores this process may run on."""
        return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1

    def workers(self, asked: int | None) -> int:
        """As many workers as asked, but no more than cores: more would only share them."""
        return min(asked or self.cpus(), self.cpus())

    def play(self, games: tuple[Game, ...], packs: tuple[str, ...], bots: tuple[str, ...],
             work: Iterable[tuple[int, int]], workers: int, lines: bool, note: Callable[[str], None]) -> Results:
        """The results of the chunks of `work`, in its order, `workers` of them played at once; a
        stalled worker is told of through `note`."""
        if workers <= 1 and self.chunk_timeout is None:
            try:
                for start, count in work:
                    yield play_chunk(games, packs, bots, start, count, lines)
                    settle()
            finally:
                gc.unfreeze()
            return
        key = tuple((str(g.pack.folder), g.players, tuple(sorted(g.options.items())), _assigned(g)) for g in games)
        _WORKER.update(games=games, key=key)  # what a forked worker inherits
        gc.freeze()  # a forked worker's collector then leaves the inherited objects (and their pages) alone
        say = _stall_say(note)
        watch = Watch(lambda what, who, job, seconds: say(what, who, job[2:4], seconds), stall_floor(),
                      self.chunk_timeout)
        pool = Pool(workers, _worker_chunk, _worker_start, (key,), self.context, watch)
        try:
            yield from pool.results(((packs, bots, start, count, lines) for start, count in work),
                                    workers * (1 + AHEAD))
        except JobLost as err:
            _, _, start, count, _ = err.job
            raise ChunkLost(start, count, f"its worker failed {RETRIES + 1} times ({err.reason})") from None
        finally:
            gc.unfreeze()
            pool.close()
            _WORKER.clear()

    def close(self) -> None:
        pass


class RayCluster:
    """Chunks played as Ray tasks: on the cluster at `address` (`auto`, `HOST:6379`,
    `ray://HOST:10001`), or on a Ray instance started here when None (or the one this process
    already joined). The pack travels with the tasks (`pack_files`), so the nodes need WonderForge
    installed, in the same version, but not the pack; results come back to this process, which
    merges them, writes `--out` and shows the progress as with local workers."""

    name = "ray"

    def __init__(self, address: str | None = None):
        try:
            import ray
        except ImportError:
            raise BackendError("--backend ray needs Ray, which is not installed",
                               "pip install 'wonderforge[distributed]' (pip install '.[distributed]' "
                               "in a clone)") from None
        self.ray, self.address, self.started = ray, address, False
        self.task = None

    def connect(self) -> None:
        if self.ray.is_initialized():
            return
        if self.address:
            _check_reachable(self.address)
        sigterm = signal.getsignal(signal.SIGTERM)
        try:
            self.ray.init(address=self.address, logging_level=logging.WARNING)
            # Ray puts a handler of its own on SIGTERM, which dumps a native stack: ours stops the run cleanly
            if sigterm is not None and threading.current_thread() is threading.main_thread():
                signal.signal(signal.SIGTERM, sigterm)
        except Exception as err:  # whatever Ray raises, the user needs its message, not a traceback
            where = f"the Ray cluster at {self.address}" if self.address else "a local Ray instance"
            raise BackendError(f"cannot start or join {where}: {_first_line(err)}",
                               "check the address (HOST:6379, ray://HOST:10001 or auto) and that "
                               "`ray status` sees the cluster") from None
        self.started = True

    def cpus(self) -> int:
        self.connect()
        return max(1, int(self.ray.cluster_resources().get("CPU", 1)))

    def workers(self, asked: int | None) -> int:
        """Chunks queued at once: as asked (the cluster spreads them), or one per CPU of the cluster."""
        return asked or self.cpus()

    def play(self, games: tuple[Game, ...], packs: tuple[str, ...], bots: tuple[str, ...],
             work: Iterable[tuple[int, int]], workers: int, lines: bool, note: Callable[[str], None]) -> Results:
        """The results of the chunks of `work`, in its order, `workers` of them queued at once; a
        task long without result is told of through `note` (named by its id: which process runs it
        is the cluster's to know)."""
        self.connect()
        # one CPU per task: a chunk is one Python thread's work
        # a worker that dies has its chunk played again, as by local workers
        self.task = self.task or self.ray.remote(num_cpus=1, max_retries=RETRIES)(_ray_chunk)
        files, bot_texts = [pack_files(g.pack) for g in games], bot_files(bots)  # the bot files travel too
        bots_key = hashlib.sha256(repr((bots, sorted(bot_texts.items()))).encode()).hexdigest()
        key = tuple((_digest(f), g.players, tuple(sorted(g.options.items())), bots_key, _assigned(g))
                    for f, g in zip(files, games))
        # in a list, so that a worker fetches the files only when it has not loaded these games yet
        shipped = [self.ray.put(files), self.ray.put(bot_texts)]
        pending: deque = deque()
        watch = Watch(_stall_say(note), stall_floor())  # a time from being queued to the result
        try:
            for start, count in work:
                ref = self.task.remote(key, shipped, packs, bots, start, count, lines)
                watch.start(ref)
                pending.append((ref, start, count))
                if len(pending) >= workers * (1 + AHEAD):
                    yield self._result(watch, *pending.popleft())
            while pending:
                yield self._result(watch, *pending.popleft())
        finally:
            for ref, _, _ in pending:  # Ctrl-C or an error: the cluster stops the rest of the run
                self.ray.cancel(ref)

    def _result(self, watch: Watch, ref, start: int, count: int) -> Chunk:
        who = f"Ray task {ref.task_id().hex()}"
        try:
            while not watch.wait(lambda seconds: self.ray.wait([ref], timeout=seconds)[0]):
                watch.late(ref, who, (start, count))
            watch.finish(ref, who, (start, count))
            result = self.ray.get(ref)
        except self.ray.exceptions.WorkerCrashedError as err:
            raise ChunkLost(start, count, f"its Ray worker died {RETRIES + 1} times ({_first_line(err)})") from None
        except self.ray.exceptions.RayError as err:
            cause = getattr(err, "cause", None) or err
            raise BackendError(f"a Ray worker failed: {type(cause).__name__}: {_first_line(cause)}",
                               "every node needs WonderForge installed, in the same version as here") from None
        except SystemError as err:
            # a signal's exception (Ctrl-C, SIGTERM) raised while Ray waits in its own code comes
            # back wrapped in a SystemError: the signal's, unwrapped, stops the run as elsewhere
            if isinstance(err.__cause__, BaseException) and not isinstance(err.__cause__, Exception):
                raise err.__cause__ from None
            raise
        if isinstance(result, SimulationError):
            raise result
        return result

    def close(self) -> None:
        if self.started:
            self.ray.shutdown()
            self.started = False


def _ray_chunk(key: tuple, shipped: list, packs: tuple[str, ...], bots: tuple[str, ...], start: int, count: int,
               lines: bool):
    """A chunk played in a Ray worker, which loads the games from their files once (then keeps them)."""
    if _WORKER.get("key") != key:
        import ray
        gc.unfreeze()  # a Ray worker outlives a run: what the last games' chunks froze may go now
        files, bot_texts = ray.get(shipped[0]), ray.get(shipped[1])
        _WORKER["games"] = tuple(unpack_game(f, k[1], dict(k[2]), bots, bot_texts, wonders=k[4])
                                 for f, k in zip(files, key))
        _WORKER["key"] = key
    try:
        return play_chunk(_WORKER["games"], packs, bots, start, count, lines)
    except SimulationError as err:
        return err  # returned, not raised: the driver prints its one line, not Ray's traceback
    finally:
        settle()


def pack_files(pack: Pack) -> dict:
    """A pack's YAML files and those of every pack it extends, by pack id: what a worker needs to
    load the same pack without this machine's filesystem. Laid out as sibling folders named by id,
    each `extends` finds the same base as here."""
    files: dict[str, dict[str, bytes]] = {}
    for p in pack.lineage():
        if p.id in files:
            raise BackendError(f"{pack.id} extends two different packs with the id {p.id!r}, which cannot "
                               f"be shipped to workers side by side", "rename one of them")
        files[p.id] = {f.name: f.read_bytes() for f in sorted(p.folder.iterdir())
                       if f.suffix in (".yaml", ".yml") and f.is_file()}
    return {"pack": pack.id, "files": files}


def unpack_game(shipped: dict, players: int, options: dict, bots: Sequence[str] = (),
                bot_texts: dict[str, bytes] | None = None, wonders: Sequence[str] | None = None) -> Game:
    """The game of `pack_files`' output, loaded from a temporary folder removed once loaded (a
    loaded pack holds everything it read), with these bots ready: those of bot files from their
    bytes (`bot_files`), the pack's own from its files while they are there."""
    with tempfile.TemporaryDirectory(prefix="wonderforge-pack-") as tmp:
        for pack_id, files in shipped["files"].items():
            folder = Path(tmp, pack_id)
            folder.mkdir()
            for name, data in files.items():
                (folder / name).write_bytes(data)
        game = load_game(Path(tmp, shipped["pack"]), players=players, wonders=wonders, **options)
        adopt_bot_files(game, bots, bot_texts or {})
        for name in bots:
            bot_for(game, name)
        return game


def _assigned(game: Game) -> tuple[str, ...] | None:
    """The wonders assigned to seats, as a worker is given them (part of what it plays)."""
    wonders = game.wonders()
    return tuple(wonders) if wonders else None


def _digest(shipped: dict) -> str:
    h = hashlib.sha256(shipped["pack"].encode())
    for pack_id, files in sorted(shipped["files"].items()):
        for name, data in sorted(files.items()):
            h.update(f"\0{pack_id}/{name}\0{len(data)}\0".encode())
            h.update(data)
    return h.hexdigest()


def _check_reachable(address: str) -> None:
    """Raise BackendError when nothing answers at a cluster's HOST:PORT (Ray itself would retry
    for minutes); `auto` is left to Ray."""
    if address == "auto":
        return
    host, _, port = address.removeprefix("ray://").rpartition(":")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_TIMEOUT).close()
    except OSError as err:
        raise BackendError(f"cannot reach the Ray cluster at {address}: {err.strerror or err}",
                           "is `ray start --head` running there, and the port open to this machine?") from None
    except UnicodeError:  # a label of the host name empty or over 63 characters
        raise BackendError(f"cannot reach the Ray cluster at {address}: not a host name",
                           "check the address: HOST:6379, ray://HOST:10001 or auto") from None


def _first_line(err: BaseException) -> str:
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__


def _stall_say(note: Callable[[str], None]) -> Callable[[str, str, tuple[int, int], float], None]:
    """A Watch's `say` for chunks of seeds (start, count): one line through `note`."""
    def say(what: str, who: str, seeds: tuple[int, int], seconds: float) -> None:
        start, count = seeds
        chunk, waited = f"the chunk of seeds {start}-{start + count - 1}", f"{seconds:.0f} s"
        note("wonderforge simulate: " + {
            "stalled": f"waiting for {who}: no progress for {waited} on {chunk}",
            "answered": f"{who} answered after {waited}, on {chunk}",
            "given up": f"{who} made no progress for {waited} on {chunk}: stopped, its chunk is played again",
        }[what])
    return say


def _note(line: str) -> None:
    """A line for the user on stderr, escaped (where there is no progress to show it)."""
    if sys.stderr is not None:
        print(safe(line), file=sys.stderr, flush=True)


def run(game: Game, pack: str, bots: Sequence[str], seed: int, games: int, workers: int = 1,
        out: IO[str] | None = None, progress: Callable[[int], None] | None = None,
        context: str | None = None, backend: Local | RayCluster | None = None) -> Aggregate:
    """The aggregate of one pack's games (`run_packs` with one pack)."""
    return run_packs([(game, pack)], bots, seed, games, workers, out, progress, context, backend).aggregates[0]


def run_packs(targets: Sequence[tuple[Game, str]], bots: Sequence[str], seed: int, games: int, workers: int = 1,
              out: IO[str] | None = None, progress: Callable[[int], None] | None = None,
              context: str | None = None, backend: Local | RayCluster | None = None,
              note: Callable[[str], None] | None = None) -> Chunk:
    """Play `games` seeds from `seed` on with each (game, pack name) of `targets`, `workers` chunks
    at once on `backend` (this machine's processes by default, started by `context`); merge their
    chunks in seed order, writing their lines to `out` as each is merged and calling
    `progress(seeds done)` after. Any backend plays the same chunks and the merge is exact, so the
    result does not depend on where they ran. A stalled worker is told of with `note(line)` (by
    default on stderr)."""
    backend = backend or Local(context)
    played, packs = zip(*targets)
    total = Chunk([Aggregate(g.players) for g in played], Paired(played[0].players) if len(played) == 2 else None,
                  None)
    done = 0
    with closing(backend.play(tuple(played), tuple(packs), tuple(bots), chunks(seed, games, workers), workers,
                              out is not None, note or _note)) as parts:
        for part in parts:
            if out is not None and part.text:
                out.write(part.text)
                out.flush()
            for mine, theirs in zip(total.aggregates, part.aggregates):
                mine.merge(theirs)
            if total.paired is not None:
                total.paired.merge(part.paired)
            done += part.aggregates[0].games + part.aggregates[0].unfinished
            if progress is not None:
                progress(done)
    return total


# ---- the summary, as data ----------------------------------------------------------------------


def summary(game: Game, pack: str, bots: Sequence[str], seed: int, aggregate: Aggregate) -> dict:
    """What `--format json` prints for one pack (without the `run` timings)."""
    a = aggregate
    out = {
        "pack": pack,
        "folder": None if is_shipped(game.pack.folder) else str(game.pack.folder.resolve()),
        "packs": game.describe()["packs"],
        "games": a.games,
        "players": game.players,
        "seeds": [seed, seed + a.games + a.unfinished - 1],
        "options": dict(game.options),
        **({"wonders_assigned": game.wonders()} if game.assigned else {}),
        "mean_score": _num(a.all.score.mean),
        "mean_score_ci": _pair(a.all.score.interval()),
        "shared_wins": a.shared,
        "mean_actions": _num(a.actions.mean),
        "wonders": {k: _tally(a, t) for k, t in sorted(a.wonders.items())},
    }
    if a.sides:
        out["sides"] = {k: _tally(a, t) for k, t in sorted(a.sides.items())}
    out["seats"] = [{"bot": bot} | _tally(a, t, stages=False) for bot, t in zip(bots, a.seats)]
    out["bots"] = {k: _tally(a, t, stages=False) for k, t in sorted(a.bots.items())}
    out["categories"] = {k: {"mean": _num(m.mean), "ci": _pair(m.interval())} for k, m in a.categories.items()}
    out["components"] = {group: {cid: _taken(a, t) for cid, t in sorted(table.items(), key=_component_order)}
                         for group, table in sorted(a.components.items(), key=lambda kv: (kv[0] == STAGES, kv[0]))}
    out["quality"] = quality(out, a.course, a.wins(a.seats[0].wins) if a.seats else None, _num, _pair)
    out["periods"] = a.course.periods(_num)
    out["histograms"] = {"actions": _histogram(a.lengths), "periods": _histogram(a.course.lengths),
                         "wonders": {k: _histogram(t.scores) for k, t in sorted(a.wonders.items())}}
    if a.sides:
        out["histograms"]["sides"] = {k: _histogram(t.scores) for k, t in sorted(a.sides.items())}
    out["wonder_categories"] = {k: {c: _num(Fraction(t.points[c], t.score.n)) for c in a.categories}
                                for k, t in sorted(a.wonders.items())}
    if a.unfinished:
        out["unfinished"] = {"games": a.unfinished, "seeds": a.unfinished_seeds, "reason": a.unfinished_reason}
    return out


def _histogram(counts: Counter) -> list[list[int]]:
    """[value, how often] pairs, by value."""
    return [[value, n] for value, n in sorted(counts.items())]


def _component_order(item):
    cid = item[0]
    return (0, int(cid), "") if cid.isdigit() else (1, 0, cid)


def _tally(a: Aggregate, t: Tally, stages: bool = True) -> dict:
    n = t.score.n
    wins = a.wins(t.wins)
    out = {"games": n, "wins": _num(wins), "win_rate": _num(wins / n) if n else None,
           "win_rate_ci": _pair(wilson(wins, n)), "mean_score": _num(t.score.mean),
           "mean_score_ci": _pair(t.score.interval())}
    if stages and t.stages.n:
        out["mean_stages"] = _num(t.stages.mean)
    out["example_seed"] = t.example
    return out


def _taken(a: Aggregate, t: Taken) -> dict:
    everyone = a.all.score.n
    n_taken, n_not = t.score.n, everyone - t.score.n
    won_taken, won_not = a.wins(t.wins), a.wins(a.all.wins - t.wins)
    not_score = a.all.score - t.score
    return {
        "taken": n_taken,
        "taken_rate": _num(Fraction(n_taken, everyone)) if everyone else None,
        "taken_rate_ci": _pair(wilson(n_taken, everyone)),
        "mean_copies": _num(Fraction(t.copies, n_taken)) if n_taken else None,
        "win_rate_taken": _num(won_taken / n_taken) if n_taken else None,
        "win_rate_taken_ci": _pair(wilson(won_taken, n_taken)),
        "win_rate_not_taken": _num(won_not / n_not) if n_not else None,
        "win_rate_not_taken_ci": _pair(wilson(won_not, n_not)),
        "mean_score_taken": _num(t.score.mean),
        "mean_score_not_taken": _num(not_score.mean),
        "example_seed": t.example,
    }


def _num(x) -> int | float | None:
    """A figure for the summary: exact integers stay so, others are rounded to 6 decimals."""
    if x is None:
        return None
    if isinstance(x, Fraction) and x.denominator == 1:
        return int(x)
    if isinstance(x, int):
        return x
    return round(float(x), 6)


def _pair(interval) -> list[float] | None:
    return None if interval is None else [round(interval[0], 6), round(interval[1], 6)]


# ---- the summary, as text ----------------------------------------------------------------------


def _ci(ci, digits: int = 2) -> str:
    return "" if ci is None else f"[{ci[0]:.{digits}f}, {ci[1]:.{digits}f}]"


def _wins(x) -> str:
    return str(x) if isinstance(x, int) else f"{x:.2f}"


def table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    """Columns aligned: the first to the left, the others to the right; cells escaped (`safe`), as
    ids and names come from the pack."""
    rows = [list(header), *([safe(c) for c in r] for r in rows)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    return ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip()
            for r in rows]


def render(s: dict) -> str:
    """The summary of one pack's simulation, as text (what comes from the pack escaped)."""
    lines = []
    options = ", ".join(f"{k}={_option_text(v)}" for k, v in s["options"].items())
    version = " ".join(f"{p['id']} {p['version']}" for p in s["packs"])
    folder = f" from {s['folder']}" if s.get("folder") else ""
    lines.append(f"{s['pack']} ({version}){folder}: {s['games']} games of {s['players']} players, seeds {s['seeds'][0]}"
                 f"-{s['seeds'][1]}, bots {', '.join(seat['bot'] for seat in s['seats'])}"
                 + (f"; options {options}" if options else "")
                 + (f"; wonders assigned {', '.join(s['wonders_assigned'])}" if s.get("wonders_assigned") else ""))
    if "run" in s:
        r = s["run"]
        lines.append(f"played in {r['seconds']:.1f}s, {r['games_per_second']:.1f} games/s on "
                     f"{r['workers']}{' Ray' * (r.get('backend') == 'ray')} worker{'s' * (r['workers'] != 1)}")
    if "unfinished" in s:
        u = s["unfinished"]
        lines.append(f"WARNING: {u['games']} games did not end and are left out (seeds "
                     f"{', '.join(map(str, u['seeds']))}{'...' if u['games'] > len(u['seeds']) else ''}): {u['reason']}")
    if not s["games"]:
        return "\n".join(lines)
    lines.append(f"mean score per player {_fig(s['mean_score'])} {_ci(s['mean_score_ci'])}; "
                 f"shared wins in {_pct(s['shared_wins'] / s['games'])} of games; "
                 f"{_fig(s['mean_actions'], 1)} actions per game")
    lines.append(f"Intervals are 95% confidence intervals; a win shared by k players counts 1/k; with "
                 f"{s['players']} players an even share of wins is {_pct(1 / s['players'])}.")
    lines.extend(render_quality(s))

    def tallies(title: str, items, stages: bool) -> None:
        header = [title, "games", "wins", "win rate", "95% CI", "mean score", "95% CI"] + (["stages"] * stages)
        rows = [[k, t["games"], _wins(t["wins"]), _pct(t["win_rate"]), _ci_pct(t["win_rate_ci"]),
                 _fig(t["mean_score"]), _ci(t["mean_score_ci"])] + ([_fig(t.get("mean_stages"))] * stages)
                for k, t in items]
        lines.extend(["", *table(header, rows)])

    by_rate = lambda kv: (-(kv[1]["win_rate"] or 0), kv[0])  # noqa: E731
    stages = any("mean_stages" in t for t in s["wonders"].values())
    tallies("wonder", sorted(s["wonders"].items(), key=by_rate), stages)
    if "sides" in s:
        tallies("side", sorted(s["sides"].items(), key=by_rate), stages)
    tallies("seat", [(f"{i} ({t['bot']})", t) for i, t in enumerate(s["seats"])], False)
    if len(s["bots"]) > 1:
        tallies("bot", sorted(s["bots"].items(), key=by_rate), False)
    lines.extend(["", *table(["category", "mean score", "95% CI"],
                             [[k, _fig(c["mean"]), _ci(c["ci"])] for k, c in s["categories"].items()])])
    for group, items in s["components"].items():
        name = "stage" if group == STAGES else group
        what = ("how often each stage was built, and the win rate of the players who built it" if group == STAGES else
                "how often each was taken (held at the end), and the win rate of the players who took it")
        lines.extend(["", f"{group}: {what} against the others', by the difference"])
        rows = sorted(items.items(), key=lambda kv: (-_lift(kv[1]), _component_order(kv)))
        copies = any((c["mean_copies"] or 0) > 1 for _, c in rows)
        header = [name, "taken", "95% CI"] + (["copies"] * copies) + ["win if taken", "95% CI", "if not", "95% CI",
                                                                       "score if taken", "if not"]
        lines.extend(table(header, [[cid, _pct(c["taken_rate"]), _ci_pct(c["taken_rate_ci"])]
                                    + ([_fig(c["mean_copies"])] * copies)
                                    + [_pct(c["win_rate_taken"]), _ci_pct(c["win_rate_taken_ci"]),
                                       _pct(c["win_rate_not_taken"]), _ci_pct(c["win_rate_not_taken_ci"]),
                                       _fig(c["mean_score_taken"]), _fig(c["mean_score_not_taken"])]
                                    for cid, c in rows]))
    return safe_lines("\n".join(lines))


SHOWN_PERIODS = 12  # periods the text lists one by one (Architects and Dice play twenty or more rounds)


def render_quality(s: dict) -> list[str]:
    """The quality of the game (docs/balance.md), as text lines."""
    q = s["quality"]
    first = q["first_seat_advantage"]
    parts = [f"balance {_fig(q['balance_wonders'])} between wonders, {_fig(q['balance_seats'])} between seats",
             f"first seat {'-' if first is None else f'{100 * first:+.1f}'} pts of win rate {_ci_pct(q['first_seat_advantage_ci'])}".rstrip(),
             f"{_fig(q['lead_changes'])} lead changes per game",
             f"the winner led for good from {_pct(q['decided_from'])} of the game on",
             f"{_fig(q['mean_periods'], 1)} periods per game"]
    if q["skill_gap"] is not None:
        strongest, weakest = q["skill_gap_bots"]
        parts.append(f"skill gap {100 * q['skill_gap']:+.1f} pts of win rate ({strongest} over {weakest})")
    periods = reached(s)
    led = ", ".join(_pct(p["leader_won"]) for p in periods[:SHOWN_PERIODS]) + (", ..." if len(periods) > SHOWN_PERIODS else "")
    return [f"quality: {'; '.join(parts)}",
            f"the final winner was leading after period 1, 2...: {led}"
            + (f" (of the {len(periods)} periods half the games reached)" if len(periods) > SHOWN_PERIODS else "")]


def _lift(c: dict) -> float:
    if c["win_rate_taken"] is None or c["win_rate_not_taken"] is None:
        return -1.0
    return c["win_rate_taken"] - c["win_rate_not_taken"]


def render_moves(a: dict, b: dict, moves: dict) -> str:
    """What moved from pack A to pack B, as text: each figure in A and B, its move and its q-value,
    flagged moves marked `*`, then the games a paired run and two independent runs would need to
    confirm each flagged move; what comes from the packs escaped."""
    lines = [f"A = {a['pack']}, B = {b['pack']}: the same {a['games'] + a.get('unfinished', {}).get('games', 0)} "
             f"seeds, {a['players']} players. Each figure is compared seed by seed: {moves['method']}. "
             f"q is the p-value so adjusted; moves marked * have q < {moves['fdr']}."]

    def fig(m: dict, pct: bool) -> list[str]:
        show = _pct if pct else _fig
        delta = m["delta"]
        sign = "" if delta is None else ("+" if delta >= 0 else "-")
        d = "-" if delta is None else (f"{sign}{100 * abs(delta):.1f}" if pct else f"{sign}{abs(delta):.2f}")
        q = "-" if m["q"] is None else "<1e-16" if m["q"] < 1e-16 else f"{m['q']:.3g}"
        return [show(m["a"]), show(m["b"]), d, q, "*" if m["significant"] else ""]

    flagged: list[tuple[str, dict]] = []

    def note(name: str, *ms: tuple[str, dict]) -> None:
        flagged.extend((f"{name} {what}".strip(), m) for what, m in ms if m["significant"])

    m = moves["mean_score"]
    note("mean score per player", ("", m))
    lines.append(f"mean score per player: {_fig(m['a'])} -> {_fig(m['b'])} ({fig(m, False)[2]}), "
                 f"q = {fig(m, False)[3]} {'*' if m['significant'] else ''}".rstrip())
    for key, title in (("wonders", "wonder"), ("sides", "side")):
        if key not in moves:
            continue
        rows = []
        for k, mv in moves[key].items():
            note(k, ("win rate", mv["win_rate"]), ("mean score", mv["mean_score"]))
            rows.append([k, *fig(mv["win_rate"], True), *fig(mv["mean_score"], False)])
        lines.extend(["", *table([title, "win A", "win B", "Δ pts", "q", "", "score A", "score B", "Δ", "q", ""], rows)])
    rows = []
    for k, mv in moves["categories"].items():
        note(f"category {k}", ("", mv))
        rows.append([k, *fig(mv, False)])
    lines.extend(["", *table(["category", "mean A", "mean B", "Δ", "q", ""], rows)])
    rows = []
    for group, items in moves["components"].items():
        for cid, mv in items.items():
            taken, won = mv["taken_rate"], mv["win_rate_taken"]
            note(f"{group}: {cid}", ("take rate", taken), ("takers' win rate", won))
            if taken["significant"] or won["significant"] or None in (taken["a"], taken["b"]) or 0 in (
                    taken["a"], taken["b"]):
                rows.append([f"{group}: {cid}", *fig(taken, True), *fig(won, True)])
    lines.append("")
    if rows:
        lines.append("components whose take rate or winners' rate moved significantly, or taken in one pack only:")
        lines.extend(table(["component", "taken A", "taken B", "Δ pts", "q", "", "win A", "win B", "Δ pts", "q", ""],
                           rows))
    else:
        lines.append("no component's take rate or win rate moved significantly.")
    lines.append("")
    lines.append(f"{moves['flagged']} of {moves['tests']} tests flagged; among moves so flagged, about "
                 f"{moves['fdr']:.0%} or fewer are expected to be chance.")
    if flagged:
        lines.extend(["", "games to confirm each flagged move (80% power at the 5% level): a paired run as this one, "
                          "and two independent runs",
                      *table(["move", "paired", "independent"],
                             [[name, _count_text(m["games_needed"]), _count_text(m["games_needed_unpaired"])]
                              for name, m in flagged])])
    return safe_lines("\n".join(lines))


def _count_text(n: int | None) -> str:
    return "-" if n is None else f"{n:,}"


# ---- the summary, as CSV ----------------------------------------------------------------------

OVERALL = ("games", "players", "mean_score", "mean_score_ci", "shared_wins", "mean_actions")


def render_csv(first: dict, second: dict | None = None, moves: dict | None = None) -> str:
    """The summaries (and the moves of `--against`) as one long CSV of figures (csvout.SUMMARY_HEADER),
    read from their JSON data, never worked out again: every number is the JSON's."""
    rows = [*_summary_rows(first), *(_summary_rows(second) if second is not None else ())]
    if moves is not None:
        pair = f"{first['pack']} -> {second['pack']}"  # a move's rows name both packs: A -> B
        rows += csvout.figure_rows(pair, "moves", [("", "", {"mean_score": moves["mean_score"]}
                                                    | {k: moves[k] for k in ("tests", "flagged", "fdr")})])
        for table in ("wonders", "sides", "categories"):
            rows += csvout.figure_rows(pair, f"moves.{table}", _keyed(moves.get(table, {}), table == "categories"))
        rows += csvout.figure_rows(pair, "moves.components", _grouped(moves["components"]))
    return csvout.render(csvout.SUMMARY_HEADER, rows)


def _summary_rows(s: dict) -> list[list]:
    """One pack's summary: its overall figures (table `summary`), then a table per JSON key, each
    named as the key (`wonders`, `seats`, `components`...)."""
    pack = s["pack"]
    overall = {k: s[k] for k in OVERALL} | ({"unfinished": s["unfinished"]["games"]} if "unfinished" in s else {})
    rows = [*csvout.figure_rows(pack, "summary", [("", "", overall)])]
    for table in ("wonders", "sides", "seats", "bots", "categories"):
        entries = s.get(table, {})
        keyed = enumerate(entries) if table == "seats" else entries.items()  # a seat's key is its number
        rows += csvout.figure_rows(pack, table, [("", str(key), entry) for key, entry in keyed])
    rows += csvout.figure_rows(pack, "components", _grouped(s["components"]))
    rows += csvout.figure_rows(pack, "quality", [("", "", s["quality"])])
    rows += csvout.figure_rows(pack, "periods", [("", str(p.pop("period")), p) for p in map(dict, s["periods"])])
    rows += csvout.figure_rows(pack, "wonder_categories", [("", k, c) for k, c in s["wonder_categories"].items()])
    for name, counts in s["histograms"].items():  # how often each value: figure `count`
        groups = counts.items() if isinstance(counts, dict) else [("", counts)]
        rows += csvout.figure_rows(pack, f"histograms.{name}", [(group, str(value), {"count": n})
                                                                for group, pairs in groups for value, n in pairs])
    return rows


def _keyed(table: dict, wrap: bool) -> list[tuple[str, str, dict]]:
    """(group, key, entry) of a table of moves keyed by id; `wrap` names a bare move (a category's)
    `mean`, the figure it moves."""
    return [("", key, {"mean": entry} if wrap else entry) for key, entry in table.items()]


def _grouped(groups: dict) -> list[tuple[str, str, dict]]:
    """(group, key, entry) of the components, group by group."""
    return [(group, key, entry) for group, table in groups.items() for key, entry in table.items()]


# ---- the command line --------------------------------------------------------------------------


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


def add_parser(commands) -> None:
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
    p.add_argument("--bots", default="random", help="bots per seat, cycled: e.g. greedy,random (default random)")
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
    p.set_defaults(run=main)


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
        return text, _write_report(page, args, first)
    second, = rest
    moves = paired_moves(first, second, pairs, _num)
    changes = pack_diff(game.pack, other.pack)  # what B changes, said before what moved
    diff = diff_data(changes, game.pack, other.pack)
    if args.format == "json":
        text = json.dumps(first | {"against": second, "moves": moves, "diff": diff}, indent=2)
    elif args.format == "csv":
        text = render_csv(first, second, moves)
    else:
        text = "\n\n".join([render_diff(changes, game.pack, other.pack, (args.pack, args.against)),
                             render(first), render(second), render_moves(first, second, moves)])
    return text, _write_report(page, args, first, second, moves, diff)


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


def _write_report(page: OutFile | None, args, first: dict, second: dict | None = None, moves: dict | None = None,
                  diff: dict | None = None) -> int:
    """The balance report of the run, written whole to its file (if asked): the exit status, 1 when it
    could not be (said in one line; the summary is printed all the same)."""
    if page is None:
        return 0
    command = shlex.join(["wonderforge", *getattr(args, "argv", ["simulate"])])
    try:
        page.write(report_page(first, command, second, moves, diff))
        page.commit()
    except OutError as err:
        _fail(str(err))
        return 1
    except Exception as err:  # the charting package failing: the summary still stands
        _fail(f"cannot make the report page: {type(err).__name__}: {_first_line(err)}",
              "pip install --force-reinstall 'wonderforge[report]'; if it persists, please report it")
        return 1
    return 0


def _fail(message: str, hint: str = "") -> int:
    """A run that stopped: one line (and a hint) on stderr, exit status 1."""
    return fail("simulate", message, hint, status=1)


def _backend_error(err: BackendError) -> int:
    print(safe(f"wonderforge simulate: error: {err}") + (f"\n  hint: {err.hint}" if err.hint else ""), file=sys.stderr)
    return 1

"""Running a study: game i played from seed S + i, with the bot of each seat cycled from the bots
given, in chunks of consecutive seeds. The chunks run in this process (one worker), in a pool of
processes that each load the pack once (a worker that stalls is named, and with a time limit its
chunk is played again), or as tasks on a Ray cluster (`--backend ray`) whose workers load it once
from its files, sent with the tasks. A chunk comes back as a compact `Aggregate` per pack
(summary.py) and, with `--out`, its JSON lines, already encoded; chunks are merged and written in
seed order.

What a worker runs (`_worker_start`, `_worker_chunk`, `_ray_chunk`) is defined at this module's top
level: spawned processes and Ray workers import it by this module's path.
"""

from __future__ import annotations

import gc
import hashlib
import json
import logging
import os
import signal
import socket
import sys
import tempfile
import threading
from collections import deque
from contextlib import closing
from pathlib import Path
from typing import IO, Callable, Iterable, Iterator, NamedTuple, Sequence

from ...dsl.diagnostics import safe
from ...interpreter.bots.registry import adopt_bot_files, bot_files, bot_for
from ...interpreter.core.state import EndlessGame
from ...interpreter.games.game import Game
from ...interpreter.games.loading import load_game
from ...interpreter.packs.model import Pack
from .paired import Paired
from .pool import RETRIES, JobLost, Pool, Watch, stall_floor
from .quality import play_game
from .records import record
from .summary import Aggregate

MAX_CHUNK = 100            # games per chunk at most: a chunk is the unit of work and of progress
CHUNKS_PER_WORKER = 64     # aim for at least this many chunks per worker, to balance them
AHEAD = 2                  # chunks queued per worker beyond the one it plays
CONNECT_TIMEOUT = 10       # seconds to wait for a Ray cluster's head to answer
COURSE_EVERY = 8           # a long run scores one game in this many after each period
COURSE_GAMES = 100         # ... but at least this many games, where the run has them


class SimulationError(RuntimeError):
    """A game failed for another reason than running endlessly (a bug): the message names its seed."""


class ChunkLost(RuntimeError):
    """Games that could not be played, their workers dying (or given up) each time: seeds
    start..start+count-1."""

    def __init__(self, start: int, count: int, reason: str):
        super().__init__(f"seeds {start}-{start + count - 1} were not played: {reason}")
        self.start, self.count = start, count


# ---- playing: where chunks run (this process, a pool of processes, a Ray cluster) ---------------

_WORKER: dict = {}  # in a worker process: the game, loaded once ("key" says which)


def _worker_start(key: tuple) -> None:
    if _WORKER.get("key") != key:  # a forked worker already holds them; a spawned one loads them
        _WORKER["games"] = tuple(load_game(folder, players=players, wonders=wonders, **dict(options))
                                 for folder, players, options, wonders in key)
        _WORKER["key"] = key


def _worker_chunk(packs: tuple[str, ...], bots: tuple[str, ...], start: int, count: int, lines: bool, every: int):
    try:
        return play_chunk(_WORKER["games"], packs, bots, start, count, lines, every)
    finally:
        settle(count)


_UNSETTLED = [0]  # games played since the last `settle` collected


def settle(games: int | None = None) -> None:
    """Between chunks (`games` played in the last): collect, then freeze what is left, mostly the
    engine's caches. They grow to their bounds and stay, and the collector would otherwise walk
    them again and again (a tenth of a long 7 Wonders run); what a cache later drops is freed all
    the same, having no cycles. Once every MAX_CHUNK games is enough (a collection costs a game or
    so); without `games`, at once. `gc.unfreeze()` gives everything back to the collector."""
    _UNSETTLED[0] += games or 0
    if games is not None and _UNSETTLED[0] < MAX_CHUNK:
        return
    _UNSETTLED[0] = 0
    gc.collect()
    gc.freeze()


class Chunk(NamedTuple):
    """What a chunk of seeds gives back: an aggregate per pack, the paired sums of two packs, and
    the `--out` lines when asked (each seed's game of every pack, in seed order)."""

    aggregates: list[Aggregate]
    paired: Paired | None
    text: str | None


def play_chunk(games: Sequence[Game], packs: Sequence[str], bots: Sequence[str], start: int, count: int,
               lines: bool = False, every: int = 1) -> Chunk:
    """Play seeds start..start+count-1 with each game; their aggregates (paired for two games). The
    games of a seed that `every` divides are scored after each period too (`course_every`)."""
    aggregates = [Aggregate(game.players) for game in games]
    pairs = Paired(games[0].players) if len(games) == 2 else None
    out = [] if lines else None
    for seed in range(start, start + count):
        course = seed % every == 0
        recs = [_play_one(game, pack, bots, seed, aggregate, out, len(games) > 1, course)
                for game, pack, aggregate in zip(games, packs, aggregates)]
        if pairs is not None and None not in recs:
            pairs.add(*recs)
    return Chunk(aggregates, pairs, "".join(out) if out is not None else None)


def _play_one(game: Game, pack: str, bots: Sequence[str], seed: int, aggregate: Aggregate,
              out: list[str] | None, named: bool, course: bool) -> dict | None:
    """One game, added to the aggregate (and its line to `out`); its record, None if it did not end."""
    try:
        state, periods = play_game(game, bots, seed, course)
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


def course_every(games: int, lines: bool) -> int:
    """Which games are scored after each period: those whose seed this divides. Every game of a
    short run or of one whose records are written (`--out`), else one in up to COURSE_EVERY, so that
    the course stands on COURSE_GAMES games or more: scoring every seat after each of Architects'
    thirty rounds would cost a long run a tenth of its time."""
    return 1 if lines else max(1, min(COURSE_EVERY, games // COURSE_GAMES))


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
             work: Iterable[tuple[int, int]], workers: int, lines: bool, every: int,
             note: Callable[[str], None]) -> Results:
        """The results of the chunks of `work`, in its order, `workers` of them played at once; a
        stalled worker is told of through `note`."""
        if workers <= 1 and self.chunk_timeout is None:
            gc.freeze()  # what is there now stays (the packs, the warm caches): the collector need not walk it
            try:
                for start, count in work:
                    yield play_chunk(games, packs, bots, start, count, lines, every)
                    settle(count)
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
            yield from pool.results(((packs, bots, start, count, lines, every) for start, count in work),
                                    workers * (1 + AHEAD))
        except JobLost as err:
            _, _, start, count, _, _ = err.job
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
            raise BackendError(f"cannot start or join {where}: {first_line(err)}",
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
             work: Iterable[tuple[int, int]], workers: int, lines: bool, every: int,
             note: Callable[[str], None]) -> Results:
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
                ref = self.task.remote(key, shipped, packs, bots, start, count, lines, every)
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
            raise ChunkLost(start, count, f"its Ray worker died {RETRIES + 1} times ({first_line(err)})") from None
        except self.ray.exceptions.RayError as err:
            cause = getattr(err, "cause", None) or err
            raise BackendError(f"a Ray worker failed: {type(cause).__name__}: {first_line(cause)}",
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
               lines: bool, every: int):
    """A chunk played in a Ray worker, which loads the games from their files once (then keeps them)."""
    if _WORKER.get("key") != key:
        import ray
        gc.unfreeze()  # a Ray worker outlives a run: what the last games' chunks froze may go now
        files, bot_texts = ray.get(shipped[0]), ray.get(shipped[1])
        _WORKER["games"] = tuple(unpack_game(f, k[1], dict(k[2]), bots, bot_texts, wonders=k[4])
                                 for f, k in zip(files, key))
        _WORKER["key"] = key
    try:
        return play_chunk(_WORKER["games"], packs, bots, start, count, lines, every)
    except SimulationError as err:
        return err  # returned, not raised: the driver prints its one line, not Ray's traceback
    finally:
        settle(count)


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


def first_line(err: BaseException) -> str:
    """The first line of an error's message (its type's name when it has none)."""
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
    lines = out is not None
    with closing(backend.play(tuple(played), tuple(packs), tuple(bots), chunks(seed, games, workers), workers,
                              lines, course_every(games, lines), note or _note)) as parts:
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

"""Worker processes that play jobs one at a time and survive each other's deaths.

`multiprocessing.Pool` replaces a worker that dies (`kill -9`, the out-of-memory killer) but never
gives back the job it held, so the run waits forever. Here the parent hands each worker one job at
a time and watches both its pipe and its process: a worker that dies has its job played again by a
new worker, up to `RETRIES` times, after which the run stops with `JobLost`. Jobs are given in
order and their results come back in that order. A worker stops at once, quietly, when its parent
dies or closes the pipe.

A worker that is alive but gives no result (stopped with SIGSTOP, stuck) would stall the run without
a word: a `Watch` tells of it, by name and pid, and may give its job up after a time limit, which
then is played again as a dead worker's is.

Each worker publishes its count of decisions (progress.py) in a small shared array every PUBLISH
seconds, so that the progress of slow games shows before their job ends.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections import deque
from multiprocessing.connection import wait
from typing import Any, Callable, Hashable, Iterable, Iterator, TypeVar

from . import progress

RETRIES = 2          # times a job whose worker died is played again
ORPHAN_CHECK = 0.5   # seconds between a worker's looks at whether its parent is still there

# A job is called stalled after STALL_FACTOR times the mean time of the jobs done so far, and never
# before STALL_FLOOR seconds. The floor is all there is to go by until a first job is done: 30 s is
# far more than a chunk of the quick bots takes, even with a spawned worker's start (it imports the
# engine and loads its pack in a few seconds) on a machine busy with other work, and it leaves room
# to name a stopped worker well within a minute. (A chunk of a slow bot, a search bot playing tens
# of seconds a game, may be named before its time is known; it is then said to have answered.)
# The factor: a job's time varies little from one to the next (a chunk sums many games), but a
# worker may share its core for a while. Tests set the floor lower with WONDERFORGE_STALL_FLOOR.
STALL_FLOOR = 30.0
STALL_FACTOR = 3
TICK = 1.0           # seconds between two looks at the jobs under way
PUBLISH = 0.5        # seconds between two publications of a worker's count of decisions
SLACK = 1.0          # waits ending more than TICK + SLACK apart: this process itself was stopped meanwhile

T = TypeVar("T")


class JobLost(RuntimeError):
    """A job whose workers died (or were given up) `RETRIES + 1` times: `job` is its arguments,
    `reason` the last death."""

    def __init__(self, job: tuple, reason: str):
        super().__init__(reason)
        self.job, self.reason = job, reason


def stall_floor() -> float:
    """STALL_FLOOR, or the seconds of WONDERFORGE_STALL_FLOOR (for tests; a positive number)."""
    try:
        floor = float(os.environ.get("WONDERFORGE_STALL_FLOOR", STALL_FLOOR))
    except ValueError:
        return STALL_FLOOR
    return floor if 0 < floor < float("inf") else STALL_FLOOR


class Watch:
    """Jobs under way (by any key) that go long without a result. A job is stalled after `limit()`
    seconds; `say(what, who, job, seconds)` is told when it first is ("stalled") and each time its
    wait doubles, when it answers after all ("answered"), and when it is given up ("given up") after
    `timeout` seconds, if one is set. Times leave out those in which this process itself was stopped
    (Ctrl-Z and `fg`), during which no worker is to blame."""

    def __init__(self, say: Callable[[str, str, Any, float], None], floor: float = STALL_FLOOR,
                 timeout: float | None = None):
        self.say, self.floor, self.timeout = say, floor, timeout
        self.jobs: dict[Hashable, list] = {}          # key -> [its start, times told of, its last progress]
        self.done, self.seconds = 0, 0.0              # jobs finished, and their time
        self.lost = 0.0                               # seconds this process was stopped
        self.waited = time.monotonic()                # when the last wait ended

    def now(self) -> float:
        return time.monotonic() - self.lost

    def limit(self) -> float:
        """The seconds after which a job is stalled."""
        return max(self.floor, STALL_FACTOR * self.seconds / self.done if self.done else 0.0)

    def wait(self, until: Callable[[float], T]) -> T:
        """What `until(TICK)` gives, a wait of at most TICK seconds. Two such waits ending far more than
        a TICK apart mean this process was stopped (in the wait or between): that time is no job's."""
        result = until(TICK)
        wall = time.monotonic()
        if wall - self.waited > TICK + SLACK:
            self.lost += wall - self.waited - TICK
        self.waited = wall
        return result

    def start(self, key: Hashable) -> None:
        now = self.now()
        self.jobs[key] = [now, 0, now]

    def moved(self, key: Hashable) -> None:
        """The job of `key` made progress short of its result (its worker's games made decisions):
        it is not stalled, and its wait starts again."""
        if key in self.jobs:
            self.jobs[key][2] = self.now()

    def finish(self, key: Hashable, who: str, job: Any) -> None:
        """The job of `key` gave its result."""
        since, told, _ = self.jobs.pop(key)
        seconds = self.now() - since
        self.done, self.seconds = self.done + 1, self.seconds + seconds
        if told:
            self.say("answered", who, job, seconds)

    def drop(self, key: Hashable) -> None:
        """The job of `key` has ended without a result (its worker died)."""
        self.jobs.pop(key, None)

    def late(self, key: Hashable, who: str, job: Any) -> bool:
        """Tells of the job of `key` if it is stalled (no progress for too long); True when it is to be
        given up."""
        _, told, since = self.jobs[key]
        seconds = self.now() - since
        if self.timeout is not None and seconds >= self.timeout:
            self.drop(key)
            self.say("given up", who, job, seconds)
            return True
        if seconds >= self.limit() * 2 ** told:
            self.say("stalled", who, job, seconds)
            self.jobs[key][1] = told + 1
        return False


class Pool:
    """`workers` processes started by `context` (a multiprocessing start method, or None for the
    platform's), each running `initializer(*initargs)` once, then `func(*job)` for each job; `watch`,
    if given, is told of the jobs under way."""

    def __init__(self, workers: int, func: Callable, initializer: Callable, initargs: tuple = (),
                 context: str | None = None, watch: Watch | None = None):
        self.size, self.func, self.start = workers, func, (initializer, initargs)
        self.context = multiprocessing.get_context(context)
        self.watch = watch
        self.idle: list[_Worker] = []
        self.busy: dict[_Worker, tuple[int, tuple]] = {}  # worker -> (index, job) it plays
        self.started = 0                                   # workers started, to number them
        self.counts: list = []                             # each worker's published decisions
        progress.SOURCES.add(self.decisions)

    def decisions(self) -> list[float]:
        """The counts of decisions the workers published (progress.py), summed; the guess of a
        seed's taken once."""
        total = [0.0] * len(progress.counts())
        for shared in self.counts:
            total = progress.combined(total, list(shared))
        return total

    def results(self, jobs: Iterable[tuple], ahead: int) -> Iterator[Any]:
        """The results of `jobs`, in their order; at most `ahead` jobs given beyond the next result.
        Raises JobLost, or the exception a job raised."""
        jobs = enumerate(jobs)
        waiting: deque[tuple[int, tuple]] = deque()   # jobs to give (a dead worker's first)
        done: dict[int, Any] = {}
        given = following = 0
        attempts: dict[int, int] = {}
        while True:
            while following in done:
                result = done.pop(following)
                following += 1
                if isinstance(result, _Failed):
                    raise result.error
                yield result
            while len(self.busy) < self.size:
                if not waiting:
                    if given >= following + ahead or (item := next(jobs, None)) is None:
                        break
                    waiting.append(item)
                    given += 1
                self._give(*waiting.popleft())
            if not self.busy:
                return
            for worker, index, job, outcome in self._wait():
                if isinstance(outcome, _Died):
                    attempts[index] = attempts.get(index, 0) + 1
                    if attempts[index] > RETRIES:
                        raise JobLost(job, outcome.reason)
                    waiting.appendleft((index, job))
                else:
                    done[index] = outcome

    def _give(self, index: int, job: tuple) -> None:
        if self.idle:
            worker = self.idle.pop()
        else:
            self.started += 1
            worker = _Worker(self.context, self.func, self.start, self.started)
            self.counts.append(worker.counts)
        worker.send(job)
        self.busy[worker] = (index, job)
        if self.watch is not None:
            self.watch.start(worker)

    def _wait(self) -> list[tuple]:
        """(worker, index, job, result or _Died) for each worker that answered, died or was given up."""
        by_handle = {h: w for w in self.busy for h in (w.conn, w.process.sentinel)}
        if self.watch is None:
            ready = wait(list(by_handle))
        else:
            ready = self.watch.wait(lambda seconds: wait(list(by_handle), seconds))
        out = []
        for worker in dict.fromkeys(by_handle[h] for h in ready):
            index, job = self.busy.pop(worker)
            outcome = worker.receive()
            if isinstance(outcome, _Died):
                worker.stop()
                if self.watch is not None:
                    self.watch.drop(worker)
            else:
                self.idle.append(worker)
                if self.watch is not None:
                    self.watch.finish(worker, worker.name, job)
            out.append((worker, index, job, outcome))
        if self.watch is not None:
            out += self._given_up()
        return out

    def _given_up(self) -> list[tuple]:
        """The watch told of each job under way (and of the decisions its worker made since the last
        look); those it gives up, their workers stopped."""
        out = []
        for worker, (index, job) in list(self.busy.items()):
            made = worker.counts[progress.MADE]
            if made != worker.made:
                worker.made = made
                self.watch.moved(worker)
            if self.watch.late(worker, worker.name, job):
                del self.busy[worker]
                worker.stop()
                out.append((worker, index, job, _Died(f"no result after {self.watch.timeout:g} s, given up")))
        return out

    def close(self) -> None:
        """Stop every worker (those at work are killed: their jobs are not wanted any more)."""
        for worker in [*self.idle, *self.busy]:
            worker.stop()
        self.idle, self.busy = [], {}
        progress.SOURCES.discard(self.decisions)


class _Failed:
    """A job that raised: the exception travels back to be raised in the parent."""

    def __init__(self, error: BaseException):
        self.error = error


class _Died:
    def __init__(self, reason: str):
        self.reason = reason


class _Worker:
    """One process and the parent's end of its pipe; `name` says which, for the user."""

    def __init__(self, context, func: Callable, start: tuple, number: int):
        self.conn, child = context.Pipe()
        self.counts = context.RawArray("d", len(progress.counts()))  # what it publishes of its decisions
        self.made = 0.0  # its decisions at the parent's last look
        self.process = context.Process(target=_serve, args=(child, func, start, os.getpid(), self.counts),
                                       daemon=True)
        self.process.start()
        child.close()
        self.name = f"worker {number} (pid {self.process.pid})"

    def send(self, job: tuple) -> None:
        try:
            self.conn.send(job)
        except OSError:
            pass  # it died: the wait that follows sees it

    def receive(self) -> Any:
        """The job's result, a _Failed, or _Died when the process is gone."""
        try:
            if self.conn.poll():
                return self.conn.recv()
        except (EOFError, OSError):
            pass
        self.process.join(1)
        return _Died(_death(self.process.exitcode))

    def stop(self) -> None:
        self.conn.close()
        if self.process.is_alive():
            self.process.kill()
        self.process.join()


def _death(code: int | None) -> str:
    if code is not None and code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return "it stopped" if code is None else f"it exited with status {code}"


def _serve(conn, func: Callable, start: tuple, parent: int, counts) -> None:
    """A worker's life: set up once, then play each job the parent sends until the pipe closes,
    publishing its count of decisions in `counts` meanwhile."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    threading.Thread(target=_orphaned, args=(parent,), daemon=True).start()
    progress.reset()  # a forked worker starts with its parent's counts
    threading.Thread(target=_publish, args=(counts,), daemon=True).start()
    initializer, initargs = start
    initializer(*initargs)
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        try:
            result = func(*job)
        except Exception as err:  # the parent raises it
            result = _Failed(err)
        counts[:] = progress.counts()  # up to date when the result arrives
        try:
            conn.send(result)
        except (OSError, ValueError):
            return
        except Exception as err:  # a result or an exception that does not pickle
            conn.send(_Failed(RuntimeError(f"{type(err).__name__}: {err}")))


def _publish(counts) -> None:
    """Copy this worker's count of decisions where the parent reads it, every PUBLISH seconds."""
    while True:
        counts[:] = progress.counts()
        time.sleep(PUBLISH)


def _orphaned(parent: int) -> None:
    """End this worker as soon as its parent is gone (killed, even with SIGKILL)."""
    while os.getppid() == parent:
        time.sleep(ORPHAN_CHECK)
    os._exit(0)

"""Worker processes that play jobs one at a time and survive each other's deaths.

`multiprocessing.Pool` replaces a worker that dies (`kill -9`, the out-of-memory killer) but never
gives back the job it held, so the run waits forever. Here the parent hands each worker one job at
a time and watches both its pipe and its process: a worker that dies has its job played again by a
new worker, up to `RETRIES` times, after which the run stops with `JobLost`. Jobs are given in
order and their results come back in that order. A worker stops at once, quietly, when its parent
dies or closes the pipe.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections import deque
from multiprocessing.connection import wait
from typing import Any, Callable, Iterable, Iterator

RETRIES = 2          # times a job whose worker died is played again
ORPHAN_CHECK = 0.5   # seconds between a worker's looks at whether its parent is still there


class JobLost(RuntimeError):
    """A job whose workers died `RETRIES + 1` times: `job` is its arguments, `reason` the last death."""

    def __init__(self, job: tuple, reason: str):
        super().__init__(reason)
        self.job, self.reason = job, reason


class Pool:
    """`workers` processes started by `context` (a multiprocessing start method, or None for the
    platform's), each running `initializer(*initargs)` once, then `func(*job)` for each job."""

    def __init__(self, workers: int, func: Callable, initializer: Callable, initargs: tuple = (),
                 context: str | None = None):
        self.size, self.func, self.start = workers, func, (initializer, initargs)
        self.context = multiprocessing.get_context(context)
        self.idle: list[_Worker] = []
        self.busy: dict[_Worker, tuple[int, tuple]] = {}  # worker -> (index, job) it plays

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
        worker = self.idle.pop() if self.idle else _Worker(self.context, self.func, self.start)
        worker.send(job)
        self.busy[worker] = (index, job)

    def _wait(self) -> list[tuple]:
        """(worker, index, job, result or _Died) for each worker that answered or died."""
        by_handle = {h: w for w in self.busy for h in (w.conn, w.process.sentinel)}
        out = []
        for worker in dict.fromkeys(by_handle[h] for h in wait(list(by_handle))):
            index, job = self.busy.pop(worker)
            outcome = worker.receive()
            if isinstance(outcome, _Died):
                worker.stop()
            else:
                self.idle.append(worker)
            out.append((worker, index, job, outcome))
        return out

    def close(self) -> None:
        """Stop every worker (those at work are killed: their jobs are not wanted any more)."""
        for worker in [*self.idle, *self.busy]:
            worker.stop()
        self.idle, self.busy = [], {}


class _Failed:
    """A job that raised: the exception travels back to be raised in the parent."""

    def __init__(self, error: BaseException):
        self.error = error


class _Died:
    def __init__(self, reason: str):
        self.reason = reason


class _Worker:
    """One process and the parent's end of its pipe."""

    def __init__(self, context, func: Callable, start: tuple):
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, func, start, os.getpid()), daemon=True)
        self.process.start()
        child.close()

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


def _serve(conn, func: Callable, start: tuple, parent: int) -> None:
    """A worker's life: set up once, then play each job the parent sends until the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    threading.Thread(target=_orphaned, args=(parent,), daemon=True).start()
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
        try:
            conn.send(result)
        except (OSError, ValueError):
            return
        except Exception as err:  # a result or an exception that does not pickle
            conn.send(_Failed(RuntimeError(f"{type(err).__name__}: {err}")))


def _orphaned(parent: int) -> None:
    """End this worker as soon as its parent is gone (killed, even with SIGKILL)."""
    while os.getppid() == parent:
        time.sleep(ORPHAN_CHECK)
    os._exit(0)

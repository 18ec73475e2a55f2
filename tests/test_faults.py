"""Trust under faults (issue 14): a simulation ends whatever happens to its workers, its output
file or its own process, and never loses a finished game; seeds and pack names mean one thing.

Worker deaths are real (SIGKILL from inside a job); a full disk is a file size limit set on the
child process (RLIMIT_FSIZE, which fails a write as a full disk does); signals are sent to real
`wonderforge` processes; a stalled worker is one stopped with SIGSTOP (issue 24), named after a floor
lowered to seconds by WONDERFORGE_STALL_FLOOR, but for one slow test of the default floor. Each case
counts as one "faults" row of the trust report.
"""

from __future__ import annotations

import json
import os
import re
import resource
import signal
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

import pytest
from trust import count

from wonderforge.interpreter import load_game
from wonderforge.interpreter.games.check import check_pack
from wonderforge.interpreter.packs.folders import CONTENT, find_pack
from wonderforge.tools.study import pool as pool_module
from wonderforge.tools.study import running
from wonderforge.tools.cli.commands import main
from wonderforge.tools.study.pool import JobLost, Pool, Watch

WONDERFORGE = [sys.executable, "-m", "wonderforge.tools.cli.commands"]


def run(*argv: str, cwd: Path | None = None, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([*WONDERFORGE, *argv], capture_output=True, text=True, timeout=120, cwd=cwd, **kw)


def whole_lines(path: Path) -> list[dict]:
    """Every line of a JSON Lines file, each of which must be whole."""
    text = path.read_text(encoding="utf-8")
    assert text == "" or text.endswith("\n"), "a half-written last line"
    return [json.loads(line) for line in text.splitlines()]


# ---- the pool: a dead worker's job is played again ------------------------------------------------

def _nothing() -> None:
    pass


def _square(x: int, die_once: str | None = None, die_always: bool = False) -> int:
    """x squared; a worker dies at the first try (a marker file says it tried) or at every try."""
    if die_always or (die_once and not Path(die_once).exists()):
        if die_once:
            Path(die_once).touch()
        os.kill(os.getpid(), signal.SIGKILL)
    if x < 0:
        raise ValueError(f"no square of {x}")
    return x * x


def test_a_job_whose_worker_dies_is_played_again_and_the_results_keep_their_order(tmp_path):
    pool = Pool(2, _square, _nothing)
    try:
        jobs = [(x, str(tmp_path / "died") if x == 3 else None) for x in range(8)]
        assert list(pool.results(jobs, ahead=4)) == [x * x for x in range(8)]
    finally:
        pool.close()
    assert (tmp_path / "died").exists()
    count("faults")


def test_a_job_that_always_kills_its_worker_is_lost_after_its_retries():
    pool = Pool(2, _square, _nothing)
    try:
        with pytest.raises(JobLost) as lost:
            list(pool.results([(1,), (2, None, True), (3,)], ahead=4))
    finally:
        pool.close()
    assert lost.value.job == (2, None, True) and "SIGKILL" in lost.value.reason
    count("faults")


def test_a_job_that_raises_raises_in_the_parent():
    pool = Pool(2, _square, _nothing)
    try:
        with pytest.raises(ValueError, match="no square of -1"):
            list(pool.results([(1,), (-1,)], ahead=4))
    finally:
        pool.close()
    count("faults")


# ---- simulate: killed workers, lost chunks ----------------------------------------------------------

GAMES = ["dice", "--games", "60", "--seed", "5", "--workers", "2", "--format", "json", "--quiet"]


def _dying_chunk(marker: Path | None, seed: int):
    """`_worker_chunk`, whose worker dies on the chunk holding `seed`: once (when `marker` is given)
    or every time."""
    real = running._worker_chunk

    def chunk(pack, bots, start, count, *recorded):
        if start <= seed < start + count and (marker is None or not marker.exists()):
            if marker is not None:
                marker.touch()
            os.kill(os.getpid(), signal.SIGKILL)
        return real(pack, bots, start, count, *recorded)
    return chunk


def test_a_worker_killed_mid_run_changes_nothing(tmp_path, capsys, monkeypatch):
    """The chunk it held is played again: the same summary and the same lines as without the kill."""
    outputs = []
    for name, chunk in (("clean", running._worker_chunk), ("killed", _dying_chunk(tmp_path / "died", 40))):
        monkeypatch.setattr(running, "_worker_chunk", chunk)  # forked workers inherit it
        out = tmp_path / f"{name}.jsonl"
        assert main(["simulate", *GAMES, "--out", str(out)]) == 0
        summary = json.loads(capsys.readouterr().out)
        outputs.append((summary | {"run": None}, out.read_text()))
    assert (tmp_path / "died").exists()
    assert outputs[0] == outputs[1]
    assert [r["seed"] for r in json.loads("[" + ",".join(outputs[1][1].splitlines()) + "]")] == list(range(5, 65))
    count("faults")


def test_a_chunk_whose_workers_always_die_stops_the_run_naming_its_seeds(tmp_path, capsys, monkeypatch):
    out = tmp_path / "games.jsonl"
    out.write_text("kept\n")
    monkeypatch.setattr(running, "_worker_chunk", _dying_chunk(None, 40))
    assert main(["simulate", *GAMES, "--out", str(out)]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and "Traceback" not in captured.err
    (line,) = captured.err.splitlines()
    size = next(running.chunks(5, 60, 2))[1]
    start = 5 + (40 - 5) // size * size  # the chunk holding seed 40
    assert line.startswith("wonderforge simulate: error: seeds ") and "were not played" in line
    assert f"seeds {start}-" in line and "SIGKILL" in line
    assert out.read_text() == "kept\n", "a failed run leaves the target as it was"
    partial = Path(line.rsplit(" are in ", 1)[1])
    assert [r["seed"] for r in whole_lines(partial)] == list(range(5, start)), "every game before the lost chunk"
    count("faults")


# ---- --out: a full disk, a closed pipe, two runs at once, a pack's own files -----------------------

def _file_limit(size: int):
    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails, as on a full disk
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    return limit


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_full_disk_is_one_line_and_keeps_the_whole_lines(tmp_path, workers):
    out = tmp_path / "games.jsonl"
    out.write_text("kept\n")
    done = run("simulate", "dice", "--games", "200", "--workers", workers, "--quiet", "--out", str(out),
               preexec_fn=_file_limit(20_000))
    assert done.returncode == 1 and done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"wonderforge simulate: error: cannot write {out}: File too large")
    assert out.read_text() == "kept\n"
    partial = Path(line.rsplit(" are in ", 1)[1])
    seeds = [r["seed"] for r in whole_lines(partial)]
    assert seeds == list(range(len(seeds))) and 0 < len(seeds) < 200
    count("faults")


def test_a_device_that_is_full_is_one_line():
    done = run("simulate", "dice", "--games", "20", "--quiet", "--out", "/dev/full")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("wonderforge simulate: error: cannot write /dev/full: No space left on device")
    assert len(done.stderr.splitlines()) == 1
    count("faults")


def test_a_reader_that_closes_the_pipe_early_is_told_of():
    read, write = os.pipe()
    os.close(read)  # the reader has gone before the summary is printed
    try:
        done = subprocess.run([*WONDERFORGE, "simulate", "dice", "--games", "30", "--quiet"], stdout=write,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(write)
    assert done.returncode == 1
    assert done.stderr == "wonderforge: the output was closed before the end (broken pipe)\n"
    count("faults")


def test_two_runs_on_one_file_never_interleave(tmp_path):
    out = tmp_path / "games.jsonl"
    runs = [subprocess.Popen([*WONDERFORGE, "simulate", "dice", "--games", "300", "--seed", str(seed), "--workers",
                              "1", "--quiet", "--out", str(out)], stdout=subprocess.DEVNULL) for seed in (0, 1000)]
    assert [r.wait(120) for r in runs] == [0, 0]
    seeds = [r["seed"] for r in whole_lines(out)]
    assert seeds in (list(range(300)), list(range(1000, 1300))), "one run's games, whole"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.jsonl"], "no temporary file left"
    count("faults")


def test_an_out_file_inside_a_pack_played_is_refused(tmp_path, capsys):
    target = CONTENT / "dice" / "cards.yaml"
    assert main(["simulate", "dice", "--games", "2", "--quiet", "--out", str(target)]) == 2
    assert "is inside the pack folder" in capsys.readouterr().err
    assert not target.exists()
    count("faults")


# ---- signals ---------------------------------------------------------------------------------------

def _started(process: subprocess.Popen, out: Path) -> None:
    """Wait until the run has written games (however busy the machine)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not any(p.stat().st_size for p in out.parent.glob(f".{out.name}.*.partial")):
        time.sleep(0.1)


def _children(pid: int) -> list[int]:
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(p) for p in found.split()]


def test_sigterm_stops_a_run_cleanly_with_exit_143(tmp_path):
    out = tmp_path / "games.jsonl"
    process = subprocess.Popen([*WONDERFORGE, "simulate", "7-wonders", "--games", "100000", "--workers", "2",
                                "--quiet", "--out", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _started(process, out)
    workers = _children(process.pid)
    process.send_signal(signal.SIGTERM)
    stdout, stderr = process.communicate(timeout=30)
    assert process.returncode == 143 and stdout == ""
    assert "Traceback" not in stderr and stderr.endswith("terminated\n")
    assert not out.exists()
    partial = Path(stderr.splitlines()[0].rsplit(" are in ", 1)[1])
    assert whole_lines(partial)
    time.sleep(0.5)
    assert not [w for w in workers if Path(f"/proc/{w}").exists()], "workers left running"
    count("faults")


def test_the_workers_of_a_killed_run_stop_at_once(tmp_path):
    out = tmp_path / "games.jsonl"
    process = subprocess.Popen([*WONDERFORGE, "simulate", "7-wonders", "--games", "100000", "--workers", "2",
                                "--quiet", "--out", str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _started(process, out)
    workers = _children(process.pid)
    assert workers
    process.kill()
    process.wait()
    time.sleep(2 * pool_module.ORPHAN_CHECK + 0.5)
    assert not [w for w in workers if Path(f"/proc/{w}").exists() and
                "zombie" not in Path(f"/proc/{w}/status").read_text().lower()]
    assert b"Traceback" not in process.stderr.read()
    count("faults")


# ---- a worker that stalls: told of by name, given up with --chunk-timeout ----------------------------

class Lines:
    """The lines of a pipe, read as they come in a thread of their own, each with the time it came."""

    def __init__(self, pipe):
        self.lines: list[tuple[float, str]] = []
        self.reader = threading.Thread(target=self._read, args=(pipe,), daemon=True)
        self.reader.start()

    def _read(self, pipe) -> None:
        for line in pipe:
            self.lines.append((time.monotonic(), line.rstrip("\n")))

    def wait_for(self, text: str, timeout: float) -> tuple[float, str]:
        """The first line holding `text` and when it came; fails after `timeout` seconds without one."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = [(at, line) for at, line in list(self.lines) if text in line]
            if found:
                return found[0]
            time.sleep(0.1)
        raise AssertionError(f"no line with {text!r} in {timeout} s: {[line for _, line in self.lines]}")

    def text(self) -> str:
        self.reader.join(30)
        return "\n".join(line for _, line in self.lines)


def finished(process: subprocess.Popen) -> str:
    """What the run printed on stdout, once it has ended (its stderr is a `Lines`' to read)."""
    stdout = process.stdout.read()
    process.wait(120)
    return stdout


STALL = ["simulate", "dice", "--games", "300", "--seed", "3", "--format", "json", "--quiet"]


def _stall_env(floor: str | None) -> dict[str, str]:
    """This environment, with the stall floor of tests (in seconds), or without one (the default)."""
    env = {k: v for k, v in os.environ.items() if k != "WONDERFORGE_STALL_FLOOR"}
    return env | {"WONDERFORGE_STALL_FLOOR": floor} if floor else env


def _workers_of(process: subprocess.Popen, n: int) -> list[int]:
    deadline = time.monotonic() + 60
    while len(workers := _children(process.pid)) < n and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(workers) == n, workers
    return workers


@contextmanager
def stopping(process: subprocess.Popen, find: Callable[[], int]) -> Iterator[int]:
    """The run `process` with one of its workers (`find()` waits for it) stopped with SIGSTOP: its
    pid. Whatever happens, the worker is continued after, and the run ended."""
    worker = None
    try:
        worker = find()
        os.kill(worker, signal.SIGSTOP)
        yield worker
    finally:
        if worker is not None and Path(f"/proc/{worker}").exists():
            os.kill(worker, signal.SIGCONT)
        if process.poll() is None:
            process.kill()
        process.wait()


@contextmanager
def stalling(*argv: str, workers: int = 2, floor: str | None = "2") -> Iterator[tuple[subprocess.Popen, Lines, int]]:
    """A `simulate` run of STALL on `workers` workers, one of them stopped with SIGSTOP as soon as it
    is there: the run, its stderr's lines and the stopped worker's pid."""
    process = subprocess.Popen([*WONDERFORGE, *STALL, "--workers", str(workers), *argv], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=_stall_env(floor))
    with stopping(process, lambda: _workers_of(process, workers)[0]) as worker:
        yield process, Lines(process.stderr), worker


@pytest.fixture(scope="module")
def undisturbed() -> dict:
    """The summary of STALL played without a stop (its timings left out)."""
    done = run(*STALL, "--workers", "2")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout) | {"run": None}


def test_a_stopped_worker_is_named_and_when_continued_changes_nothing(undisturbed):
    with stalling() as (process, err, worker):
        stopped = time.monotonic()
        at, line = err.wait_for(f"(pid {worker}): no progress", 30)
        assert at - stopped < 2 + 10, "named within the floor and a few seconds"
        assert re.fullmatch(rf"wonderforge simulate: waiting for worker \d \(pid {worker}\): no progress for \d+ s "
                            r"on the chunk of seeds \d+-\d+", line)
        os.kill(worker, signal.SIGCONT)
        stdout = finished(process)
    assert process.returncode == 0
    assert json.loads(stdout) | {"run": None} == undisturbed, "the JSON whole on stdout, the same summary"
    answered = err.wait_for(f"(pid {worker}) answered after", 1)[1]
    assert answered.endswith(line.rsplit(" on ", 1)[1]), "the same chunk"
    assert len(err.text().splitlines()) <= 6, "a few lines, however long the stop"
    count("faults")


@pytest.mark.slow  # real workers stopped for seconds
@pytest.mark.parametrize("workers", [1, 2])
def test_a_chunk_timeout_plays_a_stopped_workers_chunk_again(undisturbed, workers):
    with stalling("--chunk-timeout", "3", workers=workers) as (process, err, worker):
        stdout = finished(process)
        assert process.returncode == 0
        assert json.loads(stdout) | {"run": None} == undisturbed
        line = err.wait_for(f"(pid {worker}) made no progress", 1)[1]
        assert line.endswith(": stopped, its chunk is played again")
        assert not Path(f"/proc/{worker}").exists() or "zombie" in Path(f"/proc/{worker}/status").read_text()
    count("faults")


@pytest.mark.slow  # real workers stopped for seconds
def test_a_run_stopped_as_a_whole_blames_no_worker(undisturbed):
    """Ctrl-Z then `fg` stops the run and its workers together: no worker stalled, none given up."""
    process = subprocess.Popen([*WONDERFORGE, *STALL, "--workers", "2", "--chunk-timeout", "3"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                               env=_stall_env("2"))
    try:
        _workers_of(process, 2)
        os.killpg(process.pid, signal.SIGSTOP)
        time.sleep(4)  # longer than the floor and the timeout
    finally:
        os.killpg(process.pid, signal.SIGCONT)
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 0 and stderr == ""
    assert json.loads(stdout) | {"run": None} == undisturbed
    count("faults")


@pytest.mark.slow  # half a minute: the default floor
def test_the_default_floor_names_a_stopped_worker_within_a_minute():
    with stalling(floor=None) as (process, err, worker):
        stopped = time.monotonic()
        at, _ = err.wait_for(f"waiting for worker 1 (pid {worker})", 70)
    assert pool_module.STALL_FLOOR <= at - stopped < 60
    count("faults")


@pytest.mark.parametrize("argv, message", [
    (["--chunk-timeout", "0"], "--chunk-timeout takes seconds, a number above 0, not '0'"),
    (["--chunk-timeout", "-5"], "--chunk-timeout takes seconds, a number above 0, not '-5'"),
    (["--chunk-timeout", "soon"], "--chunk-timeout takes seconds, a number above 0, not 'soon'"),
    (["--chunk-timeout", "nan"], "--chunk-timeout takes seconds, a number above 0, not 'nan'"),
    (["--chunk-timeout", "1e999"], "--chunk-timeout takes seconds, a number above 0, not '1e999'"),
    (["--chunk-timeout", "\x1b[2J" + "9" * 100], "--chunk-timeout takes seconds, a number above 0, not "
                                                "'\\x1b[2J9999999999999999... (104 characters)'"),
    (["--chunk-timeout", "60", "--backend", "ray"], "--chunk-timeout applies to local workers, not to Ray's"),
])
def test_a_bad_chunk_timeout_is_one_line_and_a_hint(argv, message, capsys):
    assert main(["simulate", "dice", "--games", "2", "--quiet", *argv]) == 2
    error, hint = capsys.readouterr().err.splitlines()
    assert error == f"wonderforge simulate: error: {message}" and hint.startswith("  hint: ")
    count("faults")


def test_a_chunk_that_always_stalls_stops_the_run_naming_its_seeds(capsys, monkeypatch):
    real = running._worker_chunk

    def stalls_on_seed_40(pack, bots, start, count, *recorded):
        if start <= 40 < start + count:
            time.sleep(600)
        return real(pack, bots, start, count, *recorded)
    monkeypatch.setattr(running, "_worker_chunk", stalls_on_seed_40)  # forked workers inherit it
    monkeypatch.setenv("WONDERFORGE_STALL_FLOOR", "0.5")
    assert main(["simulate", *GAMES, "--chunk-timeout", "1"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    *told, error = captured.err.splitlines()
    assert re.fullmatch(r"wonderforge simulate: error: seeds \d+-\d+ were not played: its worker failed 3 times "
                        r"\(no result after 1 s, given up\)", error)
    chunk = error.split(" ")[4]
    assert [line.endswith(f"on the chunk of seeds {chunk}: stopped, its chunk is played again") for line in told
            if "made no progress" in line] == [True] * 3
    count("faults")


class Clock:
    """A clock for `pool.time`, moved by hand."""

    def __init__(self):
        self.now = 0.0

    def monotonic(self) -> float:
        return self.now


def test_a_job_is_told_of_after_three_times_the_mean_job_or_the_floor_and_as_its_wait_doubles(monkeypatch):
    clock, told = Clock(), []
    monkeypatch.setattr(pool_module, "time", clock)
    watch = Watch(lambda what, who, job, seconds: told.append((what, who, job, seconds)), floor=30)
    watch.start("a")
    clock.now = 29.9
    assert not watch.late("a", "A", 1) and told == [], "the floor, before a job's time is known"
    clock.now = 30
    assert not watch.late("a", "A", 1) and told == [("stalled", "A", 1, 30)]
    watch.finish("a", "A", 1)
    assert told[-1] == ("answered", "A", 1, 30)
    for key in "bc":  # the mean job takes 20 s... once the first is averaged in: (30 + 20 + 20) / 3
        watch.start(key)
    clock.now += 20
    for key in "bc":
        watch.finish(key, key.upper(), 2)
    watch.start("d")
    told.clear()
    for _ in range(300):
        clock.now += 1
        watch.late("d", "D", 3)
    assert [(what, seconds) for what, _, _, seconds in told] == [("stalled", 70), ("stalled", 140), ("stalled", 280)], \
        "three times the mean job, 70 / 3 s, then each time the wait doubles"
    told.clear()
    watch.timeout = 10
    watch.start("e")
    clock.now += 9
    assert not watch.late("e", "E", 4)
    clock.now += 1
    assert watch.late("e", "E", 4) and told == [("given up", "E", 4, 10)]


def test_the_time_this_process_was_stopped_is_no_jobs(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(pool_module, "time", clock)
    watch = Watch(lambda *told: pytest.fail(f"told of {told}"), floor=30, timeout=40)
    watch.start("a")

    def stopped_meanwhile(seconds):
        clock.now += 500  # Ctrl-Z, and `fg` minutes later
        return []
    assert watch.wait(stopped_meanwhile) == []
    clock.now += 28
    assert not watch.late("a", "A", 1), "28 s of the job's, and at most a tick of the stop's"


# ---- seeds and identity ----------------------------------------------------------------------------

def test_every_integer_seed_deals_its_own_game():
    """Python seeds a generator with an integer's absolute value: -k and k must not deal one game."""
    game = load_game("7-wonders", players=3)
    deals = {repr(game.new_state(seed).observation(0)) for seed in range(-40, 41)}
    assert len(deals) == 81
    count("faults")


def test_a_bare_id_means_the_shipped_pack_and_a_path_a_folder(tmp_path, monkeypatch, capsys):
    copy = tmp_path / "7-wonders"
    copy.mkdir()
    (copy / "pack.yaml").write_text((CONTENT / "7-wonders" / "pack.yaml").read_text())
    monkeypatch.chdir(tmp_path)
    assert find_pack("7-wonders") == CONTENT / "7-wonders"
    assert find_pack("./7-wonders") == Path("./7-wonders")
    mod = tmp_path / "my-mod"
    mod.mkdir()
    (mod / "pack.yaml").write_text("id: my_mod\nname: Mine\nversion: 1.0.0\nextends: dice\n")
    assert main(["simulate", "./my-mod", "--games", "2", "--quiet", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["folder"] == str(mod)
    assert main(["simulate", "dice", "--games", "2", "--quiet"]) == 0
    assert capsys.readouterr().out.startswith("dice (dice 1.0.0): ")  # a shipped pack names no folder
    count("faults")


def test_two_files_of_one_kind_in_a_pack_is_an_error(tmp_path):
    mod = tmp_path / "mod"
    mod.mkdir()
    (mod / "pack.yaml").write_text("id: mod\nname: Mod\nversion: 1.0.0\nextends: dice\n")
    for name in ("cards.yaml", "cards.yml"):
        (mod / name).write_text("[]\n")
    _, diagnostics = check_pack(mod)
    (error,) = [d for d in diagnostics if d.severity == "error"]
    assert error.code == "E-PACK-FILE" and error.message == "cards.yaml and cards.yml are both 'cards' files"
    count("faults")


# ---- the small ones --------------------------------------------------------------------------------

@pytest.mark.parametrize("argv, message", [
    (["simulate", "architects-medals", "--options", "experts=true", "medals=false"],
     "option experts=true needs medals=true, not medals=false"),
    (["simulate", "dice", "--options", "x=1", "x=2"], "--options gives x twice"),
    (["simulate", "dice", "--bots", ""], "no bot named in ''"),
    (["simulate", "dice", "--seed", "9" * 5000], "expected a whole number below 2**63 in size, not '99999999999999999999"
                                                 "... (5000 characters)'"),
    (["simulate", "dice", "--backend", "ray", "--address", "127.0.0.1:-5"], "--address takes auto, HOST:PORT"),
    (["play", "dice", "--seed", "1" * 40], "(40 characters)"),
])
def test_a_bad_command_line_is_one_short_error(argv, message, capsys):
    assert exit_status([*argv, "--quiet"] if argv[0] == "simulate" else argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err) < 1000 and "Traceback" not in err
    count("faults")


def exit_status(argv: list[str]) -> int:
    """`main`'s exit status, argparse's included."""
    try:
        return main(argv)
    except SystemExit as exited:
        return exited.code


def test_more_workers_than_cores_play_on_the_cores(capsys):
    assert main(["simulate", "dice", "--games", "4", "--workers", "1000", "--format", "json"]) == 0
    captured = capsys.readouterr()
    cores = running.Local().cpus()
    assert json.loads(captured.out)["run"]["workers"] == min(cores, 4)
    assert f"--workers 1000 asks for more processes than the {cores} cores here" in captured.err
    count("faults")


# ---- what a user may give as --out, stdout and stderr ----------------------------------------------

def test_out_to_dev_stdout_writes_the_games_there_and_leaves_the_link_alone(tmp_path):
    done = subprocess.run(f"{' '.join(WONDERFORGE)} simulate dice --games 3 --quiet --format json --out /dev/stdout "
                          f"2>{tmp_path / 'err'}", shell=True, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0
    assert sum('"seed"' in line and line.startswith("{") for line in done.stdout.splitlines()) == 3
    assert Path("/dev/stdout").is_symlink()
    count("faults")


@pytest.mark.parametrize("make, message", [
    (lambda d: os.mkfifo(d / "pipe") or d / "pipe", "no program reads from that pipe"),
    (lambda d: (d / "a").symlink_to(d / "b") or (d / "b").symlink_to(d / "a") or d / "a", "its links go round in a loop"),
    (lambda d: d, "it is a folder"),
])
def test_an_out_target_that_cannot_be_written_is_one_line_at_once(tmp_path, make, message):
    target = make(tmp_path)
    done = run("simulate", "dice", "--games", "3", "--quiet", "--out", str(target))
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == f"wonderforge simulate: error: cannot write {target}: {message}\n"
    count("faults")


def test_out_through_a_link_replaces_the_file_it_leads_to(tmp_path):
    real, link = tmp_path / "real.jsonl", tmp_path / "link.jsonl"
    real.write_text("old\n")
    link.symlink_to(real)
    assert run("simulate", "dice", "--games", "3", "--quiet", "--out", str(link)).returncode == 0
    assert link.is_symlink() and len(whole_lines(real)) == 3
    count("faults")


def test_out_with_the_longest_name_a_folder_takes(tmp_path):
    target = tmp_path / ("g" * 250)
    assert run("simulate", "dice", "--games", "3", "--quiet", "--out", str(target)).returncode == 0
    assert len(whole_lines(target)) == 3
    count("faults")


@pytest.mark.parametrize("shell, message", [
    (">/dev/full", "wonderforge: the output was lost: No space left on device\n"),
    (">&-", "wonderforge: standard output is closed: nothing could be shown\n"),
])
@pytest.mark.parametrize("command", ["simulate dice --games 3 --quiet", "check dice"])
def test_a_standard_output_that_cannot_be_written_is_one_line_and_exit_1(command, shell, message):
    done = subprocess.run(f"{' '.join(WONDERFORGE)} {command} {shell}", shell=True, stderr=subprocess.PIPE,
                          text=True, timeout=120)
    assert done.returncode == 1 and done.stderr == message
    count("faults")


def test_a_closed_stderr_keeps_the_json_on_stdout_alone():
    done = subprocess.run(f"{' '.join(WONDERFORGE)} simulate dice --games 5 --format json 2>&-", shell=True,
                          stdout=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 0 and json.loads(done.stdout)["games"] == 5
    count("faults")


def test_a_terminal_that_cannot_show_a_character_sees_an_escape():
    done = run("check", "dice", env={**os.environ, "PYTHONIOENCODING": "ascii"})
    assert done.returncode == 0 and "\\u2014" in done.stdout
    count("faults")


@pytest.mark.parametrize("argv, message", [
    (["simulate", "dice", "extra\x1b[2J"], "unrecognized arguments: extra\\x1b[2J"),
    (["simulate", "dice", "--out", ""], "--out names no file"),
    (["simulate", "dice", "--backend", "ray", "--address", "a..b:1"], "at a..b:1: not a host name"),
])
def test_what_the_command_line_says_back_is_short_and_escaped(argv, message):
    done = run(*argv, "--games", "2", "--quiet")
    assert done.returncode in (1, 2) and message in done.stderr and "\x1b" not in done.stderr
    assert "Traceback" not in done.stderr
    count("faults")

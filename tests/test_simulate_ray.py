"""`wonderforge simulate --backend ray`: the same seeded chunks, played as Ray tasks on a local
instance, give the same summary and `--out` lines as one and two local workers; the pack travels to
the workers as files; without Ray, a one-line error with a hint (tools/study/running.py)."""

from __future__ import annotations

import io
import json
import logging
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from contextlib import redirect_stdout
from pathlib import Path

import pytest
from test_faults import stopping
from trust import count

from wonderforge.interpreter import load_game
from wonderforge.interpreter.packs.folders import CONTENT
from wonderforge.tools.study import running
from wonderforge.tools.cli.commands import main

SEVEN = ["7-wonders", "--players", "3", "--games", "40", "--seed", "11", "--bots", "greedy,random"]


def run_cli(capsys, *argv: str) -> str:
    assert main(["simulate", *argv, "--format", "json", "--quiet"]) == 0
    return capsys.readouterr().out


def without_run(data: dict) -> dict:
    """A summary without its timings (`run`), also in the summary of B under `against`."""
    return {k: without_run(v) if isinstance(v, dict) else v for k, v in data.items() if k != "run"}


def medals_mod(folder: Path) -> Path:
    """A user's copy of architects-medals (which extends the shipped architects) whose medals score 9."""
    mod = folder / "my-medals"
    shutil.copytree(CONTENT / "architects-medals", mod)
    medals = mod / "medals.yaml"
    medals.write_text(medals.read_text().replace("at end: vp 4", "at end: vp 9"))
    return mod


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, tuple[str, str]]:
    """Each simulation on 1 and 2 local workers, then on a local Ray instance of 2 CPUs: its printed
    JSON and its `--out` lines, by name. The local runs come first, so that no worker is forked
    from a process that holds Ray's threads."""
    ray = pytest.importorskip("ray")
    folder = tmp_path_factory.mktemp("ray")
    against = ["architects-medals", "--players", "3", "--games", "30", "--against", str(medals_mod(folder))]
    mine = folder / "mine.yaml"
    mine.write_text("bots:\n  - id: rusher\n    rules:\n      - do: build red card\n      - do: discard card\n")
    bots = ["7-wonders", "--players", "3", "--games", "6", "--bots", f"rules,ismcts:2,{mine}:rusher"]
    out = {}

    def cli(name: str, *argv: str) -> None:
        lines, printed = folder / f"{name}.jsonl", io.StringIO()
        with redirect_stdout(printed):
            assert main(["simulate", *argv, "--format", "json", "--quiet", "--out", str(lines)]) == 0
        out[name] = (printed.getvalue(), lines.read_text())

    for workers in ("1", "2"):
        cli(f"seven-{workers}", *SEVEN, "--workers", workers)
        cli(f"against-{workers}", *against, "--workers", workers)
    cli("bots-1", *bots, "--workers", "1")
    ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.WARNING)
    try:
        cli("seven-ray", *SEVEN, "--backend", "ray")
        cli("against-ray", *against, "--backend", "ray")
        cli("bots-ray", *bots, "--backend", "ray")
    finally:
        ray.shutdown()
    return out


@pytest.mark.slow  # a local Ray instance (the `runs` fixture)
def test_ray_prints_the_same_json_as_one_and_two_workers(runs):
    """Byte for byte, up to the timings of `run`, the last key."""
    text, lines = runs["seven-ray"]
    head = text[:text.index('"run"')]
    for workers in ("1", "2"):
        local, local_lines = runs[f"seven-{workers}"]
        assert local[:local.index('"run"')] == head
        assert local_lines == lines
    data = json.loads(text)
    assert data["games"] == 40 and data["seeds"] == [11, 50]
    assert data["run"]["backend"] == "ray" and data["run"]["workers"] == 2
    assert [json.loads(line)["seed"] for line in lines.splitlines()] == list(range(11, 51))


@pytest.mark.slow  # a local Ray instance (the `runs` fixture)
def test_ray_plays_a_user_pack_and_its_base_and_compares_them_as_local_workers(runs):
    """The mod is a folder of this machine extending a shipped pack: its files reach the workers."""
    ray, ray_lines = runs["against-ray"]
    data = json.loads(ray)
    for workers in ("1", "2"):
        local, local_lines = runs[f"against-{workers}"]
        assert without_run(json.loads(local)) == without_run(data)
        assert local_lines == ray_lines
    assert data["moves"]["categories"]["medals"]["delta"] > 0  # the mod's medals, not the shipped ones
    assert data["against"]["run"]["backend"] == "ray"


@pytest.mark.slow  # a local Ray instance (the `runs` fixture)
def test_ray_plays_every_kind_of_bot_as_a_local_worker(runs):
    """A pack's bot, a search bot with a budget and a bot file (its bytes shipped with the pack)."""
    ray, ray_lines = runs["bots-ray"]
    local, local_lines = runs["bots-1"]
    assert without_run(json.loads(local)) == without_run(json.loads(ray)) and local_lines == ray_lines
    assert [s["bot"] for s in json.loads(ray)["seats"]][:2] == ["rules", "ismcts:2"]


def test_a_pack_reaches_workers_as_its_files(tmp_path):
    """What a Ray worker loads needs nothing of this machine's folders: the same games, the same figures."""
    mod = medals_mod(tmp_path)
    game = load_game(mod, players=3, experts=True)
    shipped = running.pack_files(game.pack)
    assert set(shipped["files"]) == {"architects", "architects-medals"} and shipped["pack"] == "architects-medals"
    shutil.rmtree(mod)
    again = running.unpack_game(shipped, 3, dict(game.options))
    assert again.options == game.options and again.describe() == game.describe()
    bots = ["random"] * 3
    assert running.play_chunk([again], ["mod"], bots, 0, 4, True).text == running.play_chunk([game], ["mod"], bots, 0, 4, True).text


# ---- what cannot run -----------------------------------------------------------------------------


def test_without_ray_a_clear_error_and_a_hint(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError
    assert main(["simulate", "--games", "2", "--backend", "ray", "--quiet"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and "Traceback" not in captured.err
    error, hint = captured.err.splitlines()
    assert error == "wonderforge simulate: error: --backend ray needs Ray, which is not installed"
    assert hint.startswith("  hint: pip install") and "[distributed]" in hint


def test_an_unreachable_cluster_is_one_error_at_once(capsys):
    pytest.importorskip("ray")
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert main(["simulate", "--games", "2", "--backend", "ray", "--address", f"127.0.0.1:{port}", "--quiet"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"wonderforge simulate: error: cannot reach the Ray cluster at 127.0.0.1:{port}")
    assert "hint: " in err and "Traceback" not in err


def test_an_address_needs_the_ray_backend(capsys):
    assert main(["simulate", "--games", "2", "--address", "auto", "--quiet"]) == 2
    assert "--address names a Ray cluster" in capsys.readouterr().err


# ---- faults: a worker that dies, SIGTERM -----------------------------------------------------------

def _ray_workers() -> list[int]:
    found = subprocess.run(["pgrep", "-f", "ray::_ray_chunk"], capture_output=True, text=True).stdout
    return [int(p) for p in found.split()]


def _when_playing(process: subprocess.Popen, timeout: float = 90) -> list[int]:
    """The Ray workers playing chunks once the run has started them."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and process.poll() is None:
        if workers := _ray_workers():
            time.sleep(1)
            return workers
        time.sleep(0.2)
    raise AssertionError("no Ray worker started")


RAY_RUN = [sys.executable, "-m", "wonderforge.tools.cli.commands", "simulate", "7-wonders", "--backend", "ray", "--quiet"]


@pytest.mark.slow  # two local Ray instances
def test_on_ray_a_killed_worker_changes_nothing_and_sigterm_ends_cleanly(tmp_path):
    pytest.importorskip("ray")
    games = ["--games", "3000", "--format", "json"]
    process = subprocess.Popen([*RAY_RUN, *games], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    os.kill(_when_playing(process)[0], signal.SIGKILL)
    stdout, stderr = process.communicate(timeout=300)
    assert process.returncode == 0, stderr
    local = subprocess.run([*RAY_RUN[:-3], "--quiet", *games, "--workers", "2"], capture_output=True, text=True)
    assert without_run(json.loads(stdout)) == without_run(json.loads(local.stdout)), "Ray's words stay off stdout"
    count("faults")

    out = tmp_path / "games.jsonl"
    process = subprocess.Popen([*RAY_RUN, "--games", "100000", "--out", str(out)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    _when_playing(process)
    process.send_signal(signal.SIGTERM)
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 143 and stdout == ""
    assert stderr.endswith("terminated\n") and "Traceback" not in stderr and "SIGTERM received" not in stderr
    assert not out.exists()
    count("faults")


@pytest.mark.slow  # a local Ray instance
def test_on_ray_a_stopped_worker_is_named_by_its_task(tmp_path):
    """A Ray worker stopped with SIGSTOP: its task is named as a local worker is, by its id; continued,
    the run ends with the summary of local workers."""
    pytest.importorskip("ray")
    games = ["dice", "--games", "2000", "--format", "json"]
    err = tmp_path / "err"
    with err.open("w") as stream:
        process = subprocess.Popen([*RAY_RUN[:4], *games, "--backend", "ray", "--quiet"], stdout=subprocess.PIPE,
                                   stderr=stream, text=True, env={**os.environ, "WONDERFORGE_STALL_FLOOR": "3"})
    with stopping(process, lambda: _when_playing(process)[0]) as worker:
        deadline = time.monotonic() + 60
        while "waiting for Ray task" not in err.read_text() and time.monotonic() < deadline:
            time.sleep(0.2)
        os.kill(worker, signal.SIGCONT)
        stdout = process.communicate(timeout=300)[0]
    told = [line for line in err.read_text().splitlines() if line.startswith("wonderforge simulate:")]
    assert re.fullmatch(r"wonderforge simulate: waiting for Ray task [0-9a-f]+: no progress for \d+ s "
                        r"on the chunk of seeds \d+-\d+", told[0]), told
    assert process.returncode == 0
    local = subprocess.run([*RAY_RUN[:4], *games, "--quiet", "--workers", "2"], capture_output=True, text=True)
    assert without_run(json.loads(stdout)) == without_run(json.loads(local.stdout))
    count("faults")

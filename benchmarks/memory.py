"""Print the resident memory of `wonderforge simulate --out FILE` as its games go by: the main
process and its workers, at 10%, 50% and 100% of the games, and their peak (Linux: reads /proc).

    python benchmarks/memory.py [PACK] [--games N] [--players P] [--workers W] [SIMULATE OPTIONS...]
    python benchmarks/memory.py 7-wonders --games 1000000          # the million-game run
    python benchmarks/memory.py architects --games 20000 --backend ray

`--out` streams every game to disk and the summary is a merge of exact sums, so memory should stay
flat however many games are played: the figures at 10% and 100% should be about the same. Options
this script does not know go to `simulate` as they are. The games file goes to a temporary folder
and is removed at the end (a million 7 Wonders games take about a GB), unless `--keep FILE`.
Worker figures are the sum over every process below the main one (with Ray started here, Ray's own
processes too); a forked worker shares pages with the main process, which RSS counts in both.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MIB = 1024 * 1024
MARKS = (0.1, 0.5, 1.0)  # fractions of the games at which figures are printed


def rss(pid: int) -> int:
    """Resident bytes of a process (0 once it has gone)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def descendants(pid: int) -> list[int]:
    """Every process below `pid`, from the parent ids in /proc/*/stat."""
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", encoding="ascii", errors="replace") as stat:
                fields = stat.read().rpartition(")")[2].split()  # after "(command name)", which may hold spaces
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


class Lines:
    """Games done so far: the newlines of the growing `--out` file, read from where the last count stopped."""

    def __init__(self, path: Path):
        self.path, self.offset, self.count = path, 0, 0

    def __call__(self) -> int:
        try:
            with open(self.path, "rb") as f:
                f.seek(self.offset)
                while chunk := f.read(1 << 20):
                    self.count += chunk.count(b"\n")
                    self.offset += len(chunk)
        except FileNotFoundError:
            pass
        return self.count


def sample(pid: int, done: int) -> tuple[int, int, int, int]:
    """(games done, main RSS, workers' RSS summed, number of workers)."""
    workers = [rss(p) for p in descendants(pid)]
    return done, rss(pid), sum(workers), sum(1 for r in workers if r)


def watch(command: list[str], games: int, out: Path, interval: float) -> tuple[list[tuple], float, int]:
    """Run `command`, sampling it every `interval` seconds; (samples, seconds, exit status)."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    lines, samples = Lines(out), []
    try:
        while process.poll() is None:
            samples.append(sample(process.pid, lines()))
            time.sleep(interval)
    except KeyboardInterrupt:
        process.terminate()
        process.wait()
        raise
    return samples, time.perf_counter() - start, process.returncode


def report(samples: list[tuple], games: int) -> None:
    """The figures at each mark (the first sample at or past it, so that 100% is taken while the workers
    still run; the last sample if none is) and the peaks."""
    print(f"{'games done':>18}  {'main RSS':>10}  {'workers RSS':>12}  workers")
    rows = []
    for mark in MARKS:
        wanted = mark * games
        row = next((s for s in samples if s[0] >= wanted), samples[-1])
        rows.append(row)
        done = f"{row[0]} ({100 * row[0] // games}%)"
        print(f"{done:>18}  {row[1] / MIB:6.1f} MiB  {row[2] / MIB:8.1f} MiB  {row[3]:7}")
    peak_main, peak_workers = max(s[1] for s in samples), max(s[2] for s in samples)
    print(f"{'peak':>18}  {peak_main / MIB:6.1f} MiB  {peak_workers / MIB:8.1f} MiB")
    first, last = rows[0], rows[-1]
    print(f"from {first[0]} to {last[0]} games: main {(last[1] - first[1]) / MIB:+.1f} MiB, "
          f"workers {(last[2] - first[2]) / MIB:+.1f} MiB")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pack", nargs="?", default="7-wonders")
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--interval", type=float, default=0.25, help="seconds between samples (default 0.25)")
    parser.add_argument("--keep", metavar="FILE", help="write the games there and keep them")
    args, rest = parser.parse_known_args()
    with tempfile.TemporaryDirectory(prefix="wonderforge-memory-") as tmp:
        out = Path(args.keep or Path(tmp) / "games.jsonl")
        command = [sys.executable, "-m", "wonderforge.tools.cli.commands", "simulate", args.pack, "--games", str(args.games),
                   "--players", str(args.players), "--workers", str(args.workers), "--out", str(out),
                   "--quiet", "--format", "json", *rest]
        print(" ".join(["wonderforge", *command[3:]]))
        samples, seconds, status = watch(command, args.games, out, args.interval)
        if status != 0 or not samples:
            print(f"simulate exited with status {status}", file=sys.stderr)
            return 1
        print(f"{Lines(out)()} games in {seconds:.1f}s, {len(samples)} samples")
        report(samples, args.games)
    return 0


if __name__ == "__main__":
    sys.exit(main())

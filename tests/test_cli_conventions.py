"""The command line's conventions: `--version`, `python -m wonderforge`, and the table of
every command's exit statuses (docs/cli.md), held to what each command returns."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import wonderforge
from wonderforge.tools.cli.commands import _parser, main

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]


def test_version_prints_the_name_and_version_and_exits_0(capsys):
    with pytest.raises(SystemExit) as ended:
        main(["--version"])
    assert ended.value.code == 0
    assert capsys.readouterr().out == f"wonderforge {wonderforge.version()}\n"


def test_python_m_wonderforge_runs_the_same_command_line(tmp_path):
    version = subprocess.run([sys.executable, "-m", "wonderforge", "--version"], capture_output=True, text=True,
                             cwd=tmp_path, timeout=60)
    assert (version.returncode, version.stdout, version.stderr) == (0, f"wonderforge {PYPROJECT}\n", "")
    bad = subprocess.run([sys.executable, "-m", "wonderforge", "completion", "tcsh"], capture_output=True,
                         text=True, cwd=tmp_path, timeout=60)
    assert bad.returncode == 2 and bad.stderr.startswith("wonderforge completion: error:")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full, a device every write to fails")
@pytest.mark.parametrize("argv", [["--version"], ["completion", "bash"]])
def test_a_version_or_script_that_cannot_be_written_is_one_line_and_status_1(argv):
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "wonderforge", *argv], stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr == "wonderforge: the output was lost: No space left on device\n"


def test_the_version_is_the_installed_one_else_pyproject_s(monkeypatch):
    import importlib.metadata as metadata
    assert wonderforge.version() == metadata.version("wonderforge") == PYPROJECT

    def not_installed(name):
        raise metadata.PackageNotFoundError(name)
    monkeypatch.setattr(metadata, "version", not_installed)
    monkeypatch.setattr(wonderforge, "__version__", "never read while pyproject.toml is there")
    assert wonderforge.version() == PYPROJECT


def test_the_version_game_logs_record_is_pyproject_s():
    assert wonderforge.__version__ == PYPROJECT


# ---- the exit statuses

def _table() -> dict[str, dict[str, str]]:
    """The table of exit statuses (docs/cli.md): command -> status column -> cell."""
    lines = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| command | 0 | 1 | 2 |"))
    header = [c.strip() for c in lines[start].strip("|").split("|")]
    rows = {}
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        name = re.fullmatch(r"`(\w+)`", cells[0])[1]
        assert name not in rows, f"two rows for {name}"
        rows[name] = dict(zip(header[1:], cells[1:]))
    return rows


def _commands() -> list[str]:
    [commands] = [a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction)]
    return list(commands.choices)


def test_every_command_of_the_parser_has_one_row_of_exit_statuses():
    table = _table()
    assert list(table) == _commands()
    for name, row in table.items():
        assert list(row) == ["0", "1", "2", "130, 143"] and row["0"] and row["2"], name
        assert row["130, 143"].startswith("Ctrl-C, SIGTERM"), name


@pytest.fixture
def broken(tmp_path) -> str:
    """A pack with an error: a mod of Architects with a card whose effect is misspelt."""
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "pack.yaml").write_text("id: broken\nname: Broken\nversion: 1.0.0\nextends: architects\n")
    (folder / "cards.yaml").write_text("- id: blue_vp3\n  name: Blue\n  colour: blue\n  effect: vp four\n")
    return str(folder)


SCENARIO = str(ROOT / "tests" / "scenarios" / "architects.yaml")
LOG = str(ROOT / "tests" / "golden" / "architects-2p-seed4.jsonl")

# (command line, with {broken} a pack with an error and {tmp} a fresh folder) -> the status it ends with
RUNS = [
    (["check", "architects"], 0),
    (["check", "{broken}"], 1),
    (["check", "--bots", "{tmp}/no-bots.yaml", "architects"], 2),
    (["score", SCENARIO], 0),
    (["score", "{tmp}/no-scenario.yaml"], 1),
    (["score", SCENARIO, "--format", "xml"], 2),
    (["replay", LOG], 0),
    (["replay", LOG, "--pack", "{broken}"], 1),
    (["replay"], 2),
    (["play", "architects", "--players", "2", "--seed", "1"], 0),  # left at once with q
    (["play", "{broken}"], 1),
    (["play", "architects", "--seat", "5"], 2),
    (["serve", "--data", "/dev/null/games"], 1),  # cannot make the data folder
    (["serve", "{broken}", "--data", "{tmp}"], 1),
    (["serve", "no-such-pack"], 2),
    (["simulate", "architects", "--players", "2", "--games", "2", "--workers", "1", "--quiet"], 0),
    (["simulate", "{broken}", "--games", "2", "--quiet"], 1),
    (["simulate", "no-such-pack"], 2),
    (["bench", "architects", "--players", "2", "--games", "1"], 0),
    (["bench", "{broken}", "--games", "1"], 1),
    (["bench", "architects", "--players", "two"], 2),
    (["train", "architects", "--players", "2", "--games", "1", "--rounds", "1", "--out", "{tmp}/e.yaml", "--quiet"], 0),
    (["train", "{broken}"], 1),
    (["train", "no-such-pack"], 2),
    (["new", "my-mod", "--extends", "architects", "--out", "{tmp}/my-mod"], 0),
    (["new", "my-mod", "--extends", "architects", "--out", "/dev/null/my-mod"], 1),  # cannot write
    (["new", "My Mod", "--extends", "architects"], 2),
    (["diff", "architects", "architects-medals"], 0),
    (["diff", "architects", "{broken}"], 1),
    (["diff", "architects", "no-such-pack"], 2),
    (["cards", "architects"], 0),
    (["cards", "{broken}"], 1),
    (["cards", "architects", "--players", "9"], 2),
    (["completion", "zsh"], 0),
    (["completion", "tcsh"], 2),
]


@pytest.mark.parametrize("argv, status", RUNS, ids=[f"{argv[0]}-{status}" for argv, status in RUNS])
def test_each_status_the_table_gives_is_what_the_command_ends_with(argv, status, broken, tmp_path, monkeypatch,
                                                                    capsys):
    monkeypatch.setattr("builtins.input", lambda prompt="": "q")
    try:
        got = main([a.format(broken=broken, tmp=tmp_path) for a in argv])
    except SystemExit as ended:  # argparse's usage errors
        got = ended.code
    assert got == status, capsys.readouterr()
    cell = _table()[argv[0]][str(status)]
    assert cell not in ("", "—"), f"docs/cli.md says {argv[0]} never ends with {status}"


def test_the_runs_try_every_status_of_every_command():
    tried = {(argv[0], str(status)) for argv, status in RUNS}
    tried |= {("lsp", "0"), ("lsp", "2")}  # a server on stdio: tests/test_lsp.py and test_assist.py end it so
    listed = {(name, status) for name, row in _table().items() for status in ("0", "1", "2")
              if row[status] not in ("", "—")}
    assert tried == listed

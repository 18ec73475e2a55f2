"""`simulate --against`, seed by seed (tools/paired.py): the paired test of each figure, the false
discovery rate held over the many tests, and the games that would confirm a move. A small change is
flagged with fewer games than two independent samples need."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from wonderforge.interpreter.packs import CONTENT
from wonderforge.tools.cli import main
from wonderforge.tools.stats import Moments, benjamini_hochberg, paired, sample_needed, welch


def stage_one_worth(tmp_path: Path, points: int) -> Path:
    """A copy of the Architects pack whose Alexandria scores `points` for its first stage (4 printed)."""
    folder = tmp_path / f"architects-{points}"
    shutil.copytree(CONTENT / "architects", folder)
    wonders = folder / "wonders.yaml"
    text = wonders.read_text()
    stage = text.index("effect: vp 4", text.index("- id: alexandria\n"))
    wonders.write_text(text[:stage] + f"effect: vp {points}" + text[stage + len("effect: vp 4"):])
    return folder


# ---- the statistics -----------------------------------------------------------------------------


def test_paired_t_test_of_known_differences():
    d = Moments()
    for x in (1, 2, 3, 4, 5):
        d.add(x)
    test = paired(d)
    assert test.statistic == pytest.approx(4.242641, abs=1e-6)   # mean 3, sd 1.5811, n 5
    assert test.p == pytest.approx(0.013236, abs=1e-6)           # scipy.stats.ttest_1samp([1..5], 0)
    same = Moments()
    for _ in range(4):
        same.add(0)
    assert paired(same).p == 1.0


def test_benjamini_hochberg_q_values():
    # R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "BH") gives 0.02 0.04 0.04 0.02
    assert benjamini_hochberg([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.02, 0.04, 0.04, 0.02])
    assert benjamini_hochberg([0.5, 0.9]) == pytest.approx([0.9, 0.9])
    assert benjamini_hochberg([]) == []


def test_games_needed_at_80_percent_power():
    assert sample_needed(1.0, 1.0) == 8      # (1.96 + 0.84)^2 = 7.85
    assert sample_needed(0.5, 1.0) == 32
    assert sample_needed(0.0, 1.0) is None


# ---- the comparison -----------------------------------------------------------------------------


def test_a_small_change_is_flagged_with_fewer_games_than_independent_samples_need(capsys, tmp_path):
    """Alexandria's first stage worth one point more: paired, 300 games flag it; the same two samples
    taken as independent do not, and need thousands of games."""
    mod = stage_one_worth(tmp_path, 5)
    out = tmp_path / "games.jsonl"
    assert main(["simulate", "architects", "--players", "4", "--games", "300", "--bots", "greedy", "--against",
                 str(mod), "--format", "json", "--quiet", "--workers", "1", "--out", str(out)]) == 0
    moves = json.loads(capsys.readouterr().out)["moves"]
    move = moves["wonders"]["alexandria"]["mean_score"]
    assert move["delta"] == pytest.approx(1.0) and move["significant"] and move["q"] < 0.05
    assert move["games_needed"] <= 300 < move["games_needed_unpaired"]
    # The independent test, on the very same games (A's lines, then B's of each seed), does not see it.
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    scores = {str(mod): Moments(), "architects": Moments()}
    for line in lines:
        for seat, who in enumerate(line["seats"]):
            if who["wonder"] == "alexandria":
                scores[line["pack"]].add(line["scores"][seat]["total"])
    assert welch(scores["architects"], scores[str(mod)]).p > 0.05
    assert move["pairs"] == scores["architects"].n
    assert moves["method"].startswith("paired t-tests") and moves["fdr"] == 0.05
    assert moves["flagged"] == sum(1 for m in _all_moves(moves) if m["significant"]) >= 1
    assert moves["tests"] == sum(1 for m in _all_moves(moves) if m["p"] is not None)


def test_no_change_flags_nothing(capsys):
    assert main(["simulate", "architects", "--players", "3", "--games", "40", "--against", "architects",
                 "--format", "json", "--quiet", "--workers", "1"]) == 0
    moves = json.loads(capsys.readouterr().out)["moves"]
    assert moves["flagged"] == 0
    assert all(m["delta"] in (0, None) and m["games_needed"] is None for m in _all_moves(moves))


def test_text_says_the_method_and_the_games_to_confirm(capsys, tmp_path):
    mod = stage_one_worth(tmp_path, 14)
    assert main(["simulate", "architects", "--players", "3", "--games", "60", "--against", str(mod), "--quiet",
                 "--workers", "1"]) == 0
    text = capsys.readouterr().out
    assert "Benjamini-Hochberg" in text and "moves marked * have q < 0.05" in text
    assert "games to confirm each flagged move" in text
    row = next(line for line in text.splitlines() if line.startswith("alexandria mean score"))
    paired_games, independent = (int(x.replace(",", "")) for x in row.split()[-2:])
    assert paired_games < independent


def _all_moves(moves: dict):
    for value in moves.values():
        if isinstance(value, dict):
            yield from ([value] if "significant" in value else _all_moves(value))

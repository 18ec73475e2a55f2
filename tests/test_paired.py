"""`simulate --against`, seed by seed (tools/paired.py): the paired test of each figure, the false
discovery rate held over the many tests, and the games that would confirm a move. A small change is
flagged with fewer games than two independent samples need."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest

from wonderforge.tools.cli.commands import main
from wonderforge.tools.study.paired import MIN_PAIRS, Paired, every_move
from wonderforge.tools.study.summary import NAMED, RARELY_TIMES
from wonderforge.tools.study.stats import Moments, benjamini_hochberg, sample_needed, welch
from helpers import alexandria_worth



# ---- the statistics -----------------------------------------------------------------------------


def record(scores: list[int], wonders: list[str], winners: list[int], built: list[dict] | None = None) -> dict:
    """A game's record as simulate writes it (only what the comparison reads)."""
    return {"seats": [{"wonder": w} for w in wonders], "winners": winners,
            "scores": [{"total": t, "breakdown": {"wonder": t}} for t in scores],
            "built": built or [{} for _ in scores]}


def test_a_figure_in_every_game_is_an_ordinary_paired_t_test():
    """Giza in every game: its mean score's move is judged by the paired t-test of the per-seed
    differences, here 1, 2, 0, 1, 3, 1 (scipy.stats.ttest_rel: t = 3.1623, p = 0.0250)."""
    pairs = Paired(2)
    for a, d in zip((10, 12, 9, 11, 13, 10), (1, 2, 0, 1, 3, 1)):
        pairs.add(record([a, 5], ["giza", "rhodes"], [0]), record([a + d, 5], ["giza", "rhodes"], [0]))
    move = pairs.move(("wonders", "giza", "mean_score"), float)
    assert move["a"] == pytest.approx(65 / 6) and move["delta"] == pytest.approx(8 / 6) and move["pairs"] == 6
    assert move["p"] == pytest.approx(0.0250, abs=5e-4)
    # the same move from two independent samples would need many more games than from pairs
    assert move["games_needed"] < move["games_needed_unpaired"]


def test_a_ratio_counts_the_games_that_hold_it():
    """A take rate counts every player of every seed; a takers' win rate only its takers."""
    pairs = Paired(2)
    took = [{"city": ["altar"]}, {}]
    for seed in range(8):
        a = record([3, 4], ["giza", "rhodes"], [1], took if seed < 2 else None)
        b = record([3, 4], ["giza", "rhodes"], [0], took if seed < 4 else None)
        pairs.add(a, b)
    taken = pairs.move(("components", "city", "altar", "taken_rate"), float)
    assert (taken["a"], taken["b"], taken["pairs"]) == (2 / 16, 4 / 16, 4)
    won = pairs.move(("components", "city", "altar", "win_rate_taken"), float)
    assert (won["a"], won["b"]) == (0, 1)


def test_too_few_pairs_are_not_judged_and_a_move_alike_in_every_pair_is_a_sign_test():
    pairs = Paired(2)
    for _ in range(MIN_PAIRS - 1):
        pairs.add(record([3, 4], ["giza", "rhodes"], [1]), record([4, 4], ["giza", "rhodes"], [0, 1]))
    assert pairs.move(("wonders", "giza", "mean_score"), float)["p"] is None  # five pairs say nothing
    pairs.add(record([3, 4], ["giza", "rhodes"], [1]), record([4, 4], ["giza", "rhodes"], [0, 1]))
    move = pairs.move(("wonders", "giza", "mean_score"), float)
    assert move["delta"] == 1 and move["p"] == pytest.approx(2 * 0.5 ** MIN_PAIRS)  # six pairs, all +1


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


@pytest.mark.slow  # 600 games played twice
def test_a_small_change_is_flagged_with_fewer_games_than_independent_samples_need(capsys, tmp_path):
    """Alexandria's first stage worth one point more: paired, 300 games flag it; the same two samples
    taken as independent do not, and need thousands of games."""
    mod = alexandria_worth(tmp_path, 5)
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
    assert moves["flagged"] == sum(1 for m in every_move(moves) if m["significant"]) >= 1
    assert moves["tests"] == sum(1 for m in every_move(moves) if m["p"] is not None)


def test_no_change_flags_nothing(capsys):
    assert main(["simulate", "architects", "--players", "3", "--games", "40", "--against", "architects",
                 "--format", "json", "--quiet", "--workers", "1"]) == 0
    moves = json.loads(capsys.readouterr().out)["moves"]
    assert moves["flagged"] == 0
    assert all(m["delta"] in (0, None) and m["games_needed"] is None for m in every_move(moves))


def test_text_says_the_method_and_the_games_to_confirm(capsys, tmp_path):
    mod = alexandria_worth(tmp_path, 14)
    assert main(["simulate", "architects", "--players", "3", "--games", "60", "--against", str(mod), "--quiet",
                 "--workers", "1"]) == 0
    text = capsys.readouterr().out
    assert "Benjamini-Hochberg" in text and "moves marked * have q < 0.05" in text
    assert "games to confirm each flagged move" in text
    row = next(line for line in text.splitlines() if line.startswith("alexandria mean score"))
    paired_games, independent = (int(x.replace(",", "")) for x in row.split()[-2:])
    assert paired_games < independent


# ---- what B adds or changes, first ---------------------------------------------------------------

MODS = Path(__file__).parent / "mods"
BAZAAR = str(MODS / "bazaar")        # 7 Wonders with two new yellow cards and a new guild
BLIND = str(MODS / "blind-rules.yaml")  # a rule bot that never builds a yellow or purple card
NEW = ["grand_bazaar", "watchtower", "cartographers_guild"]


def against_bazaar(capsys, bots: str, fmt: str, games: int = 12) -> str:
    assert main(["simulate", "7-wonders", "--players", "4", "--games", str(games), "--bots", bots, "--against",
                 BAZAAR, "--format", fmt, "--quiet", "--workers", "1"]) == 0
    return capsys.readouterr().out


def test_cards_the_bots_never_take_are_said_so_in_json_text_and_csv(capsys):
    data = json.loads(against_bazaar(capsys, BLIND, "json"))
    moves = data["moves"]
    changed = {c["id"]: c for c in moves["changed"]}
    assert list(changed) == NEW  # B's new cards, in its order; the removed ones are not B's content
    for cid in NEW:
        c = changed[cid]
        assert (c["group"], c["kind"], c["status"], c["taken"], c["taken_rate"], c["untaken"]) == \
            ("city", "cards", "added", 0, 0, "never")
        assert c["win_rate_not_taken"] == 0.25 and c["mean_score_not_taken"] == data["against"]["mean_score"]
        assert cid in data["against"]["never_taken"]["city"] and cid not in data["against"]["components"]["city"]
    warning = moves["changed_warning"]
    assert warning == f"never taken by {BLIND}: {', '.join(NEW)}; these figures say nothing about them"
    # the blind bot never builds a stage either: both summaries say so
    for s in (data, data["against"]):
        never = [c if g != "stages" else f"stage {c}" for g, ids in s["never_taken"].items() for c in ids]
        assert s["never_taken"]["stages"] == ["1", "2", "3", "4"] and len(never) > NAMED  # named up to NAMED
        assert s["never_taken_warning"] == (f"never taken by {BLIND}: {', '.join(never[:NAMED])} and "
                                            f"{len(never) - NAMED} more; these figures say nothing about them")

    text = against_bazaar(capsys, BLIND, "text")
    comparison = text[text.index("What B adds or changes"):]
    assert comparison.index(f"WARNING: {warning}.") < comparison.index("paired t-tests")  # first, before the moves
    for cid in NEW:
        assert re.search(rf"^city: {cid} +added +- +0\.0% +0 +- +25\.0%", comparison, re.M)
    assert " pts" not in text  # "pts" would read as a score's points: a rate's move says so in words

    rows = list(csv.DictReader(io.StringIO(against_bazaar(capsys, BLIND, "csv"))))
    said = {(r["pack"], r["figure"]): r["value"] for r in rows if r["table"] == "warnings"}
    assert said[(f"7-wonders -> {BAZAAR}", "changed")] == warning
    assert said[("7-wonders", "never_taken")] == data["never_taken_warning"]
    assert {r["key"] for r in rows if r["table"] == "moves.changed" and r["figure"] == "untaken"
            and r["value"] == "never"} == set(NEW)


def test_a_component_of_one_pack_only_is_not_tested(capsys):
    """Random bots take the new cards: that B's take rate moves from nothing is certain and says
    nothing, so it is not one of the tests (which it would crowd, flagged with q near 0)."""
    data = json.loads(against_bazaar(capsys, "random", "json", games=20))
    moves = data["moves"]
    for cid, only in [*((c, "B") for c in NEW), ("vineyard", "A"), ("lighthouse", "A")]:
        for m in moves["components"]["city"][cid].values():
            assert m["p"] is None and m["q"] is None and not m["significant"] and m["only_in"] == only
    assert moves["tests"] == sum(1 for m in every_move(moves) if m["p"] is not None)
    taken = {c["id"]: c["taken"] for c in moves["changed"]}
    assert all(taken[cid] == data["against"]["components"]["city"][cid]["taken"] > 0 for cid in NEW)
    assert all(c["untaken"] in (None, "rarely") for c in moves["changed"])
    assert (moves["rarely_below"], RARELY_TIMES) == (5, 5)
    rare = [c["id"] for c in moves["changed"] if c["taken"] < 5]
    assert bool(rare) == ("almost never taken by random (fewer than 5 times in 20 games)" in moves["changed_warning"])

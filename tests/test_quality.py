"""The quality of a game as `simulate` measures it (tools/quality.py, docs/balance.md): the course of
each game (its scores after each period), lead changes, the point from which the winner was decided,
balance, first-seat advantage, shared wins, length and the skill gap."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from wonderforge.interpreter import load_game
from wonderforge.interpreter.bots.registry import play
from wonderforge.tools.cli.commands import main
from wonderforge.tools.study.quality import Course, decided_from, lead_changes, play_game
from wonderforge.tools.study.running import course_every, play_chunk


def run_json(capsys, *argv: str) -> dict:
    assert main(["simulate", *argv, "--format", "json", "--quiet", "--workers", "1"]) == 0
    return json.loads(capsys.readouterr().out)


# ---- one game's course --------------------------------------------------------------------------

COURSES = [
    # periods (every player's total after each), winners, lead changes, decided from period
    ([[3, 1, 0], [5, 6, 2], [9, 8, 8]], [0], 2, 3),          # 0 leads, then 1, then 0 again: decided at the end
    ([[3, 1, 0], [5, 4, 2], [9, 8, 8]], [0], 0, 1),          # 0 leads throughout: decided after the first period
    ([[1, 1, 0], [2, 5, 2], [4, 9, 8]], [1], 0, 1),          # 0 and 1 share the lead, then 1 alone: no change
    ([[0, 2, 0], [4, 2, 0], [4, 6, 6], [9, 9, 9]], [2], 2, 3),  # a share of the lead is a lead held
    ([[5, 5]], [0, 1], 0, 1),                               # one period: decided at once
]


@pytest.mark.parametrize("periods, winners, changes, decided", COURSES)
def test_lead_changes_and_the_point_the_winner_was_decided(periods, winners, changes, decided):
    assert lead_changes(periods) == changes
    assert decided_from(periods, winners) == decided


def test_a_course_sums_its_games():
    course = Course()
    for periods, winners, _, _ in COURSES[:3]:
        course.add(periods, winners)
    steps = course.periods(float)
    assert [s["games"] for s in steps] == [3, 3, 3]
    assert [s["leader_won"] for s in steps] == pytest.approx([1, 2 / 3, 1])  # the first game's winner trailed
    assert steps[2]["mean_winner"] == 9 and steps[0]["mean_others"] == pytest.approx((1 + 0 + 1 + 0 + 1 + 0) / 6)
    assert course.changes.mean == pytest.approx(2 / 3) and course.decided.mean == pytest.approx((1 + 1 / 3 + 1 / 3) / 3)


@pytest.mark.parametrize("pack, players", [("7-wonders", 4), ("architects", 3), ("dice", 3)])
def test_a_game_is_scored_after_each_period(pack, players):
    """One entry per period the game went through (7 Wonders: its three ages), the final scores last,
    each the scores of the position the period left."""
    game = load_game(pack, players=players)
    bots = ["random"] * players
    state, periods = play_game(game, bots, seed=3)
    assert state.scores() == play(game, bots, seed=3).scores()  # watching changes nothing
    seen = {}

    def at_period_start(s, seat, action):
        if s.round not in seen:
            seen[s.round] = [p["total"] for p in s.scores()]
    play(game, bots, seed=3, on_action=at_period_start)
    assert periods == [seen[r] for r in sorted(seen)][1:]
    assert len(periods) == len(seen) - 1 >= 1  # every period but the last (its scores are the final ones)
    if pack == "7-wonders":
        assert len(periods) == 2  # after ages I and II


@pytest.mark.parametrize("games, lines, every", [
    (1, False, 1), (199, False, 1), (200, False, 2), (799, False, 7), (1000, False, 8), (10**6, False, 8),
    (1000, True, 1),  # the records written hold every game's course
])
def test_a_long_run_scores_one_game_in_a_few_after_each_period(games, lines, every):
    assert course_every(games, lines) == every


def test_a_game_not_scored_after_each_period_still_counts_its_periods():
    """The course of the sampled seeds is that of those games alone; every game's length counts."""
    game = load_game("architects", players=3)
    bots = ["random"] * 3
    sampled = play_chunk([game], ["architects"], bots, 0, 12, every=4).aggregates[0].course
    whole, lengths = Course(), Counter()
    for seed in range(12):
        state, periods = play_game(game, bots, seed)
        assert play_game(game, bots, seed, course=False)[1] == len(periods)
        lengths[len(periods) + 1] += 1
        if seed % 4 == 0:
            whole.add([*periods, state.totals()], game.scoring.winners(state, state.scores()))
    assert sampled.changes.n == 3 and sampled.periods(float) == whole.periods(float)
    assert sampled.changes == whole.changes and sampled.decided == whole.decided
    assert sampled.lengths == lengths and len(lengths) > 1


@pytest.mark.parametrize("pack, players", [("7-wonders", 5), ("architects", 4), ("architects-medals", 7), ("dice", 4)])
def test_totals_are_the_scores_totals_at_every_step(pack, players):
    """`State.totals`, what a study records after each period, counts as `scores` does, in every
    position a game passes through (a copy at the end: test_seven_wonders.py, Olympia B)."""
    game = load_game(pack, players=players)
    seen = []

    def check(state, seat, action):
        seen.append(state.totals() == [s["total"] for s in state.scores()])
    for seed in range(3):
        state = play(game, ["random"] * players, seed=seed, on_action=check)
        seen.append(state.totals() == [s["total"] for s in state.scores()])
    assert len(seen) > 100 and all(seen)


# ---- the summary's quality figures --------------------------------------------------------------


def test_quality_figures_follow_from_the_summary(capsys):
    data = run_json(capsys, "7-wonders", "--players", "4", "--games", "60", "--bots", "greedy,random")
    q = data["quality"]
    rates = [w["win_rate"] for w in data["wonders"].values()]
    assert q["balance_wonders"] == pytest.approx(1 - (max(rates) - min(rates)), abs=1e-6)
    seats = [s["win_rate"] for s in data["seats"]]
    assert q["balance_seats"] == pytest.approx(1 - (max(seats) - min(seats)), abs=1e-6)
    assert q["first_seat_advantage"] == pytest.approx(seats[0] - 1 / 4, abs=1e-6)
    low, high = q["first_seat_advantage_ci"]
    assert low <= q["first_seat_advantage"] <= high
    assert q["shared_wins_rate"] == pytest.approx(data["shared_wins"] / 60)
    assert q["mean_periods"] == 3 and q["mean_actions"] == data["mean_actions"]
    bots = data["bots"]
    strongest = max(bots, key=lambda b: bots[b]["win_rate"])
    weakest = "random" if strongest != "random" else "greedy"
    assert q["skill_gap_bots"] == [strongest, weakest]
    assert q["skill_gap"] == pytest.approx(bots[strongest]["win_rate"] - bots[weakest]["win_rate"], abs=1e-6)
    # A final winner leads after the last period (ties are broken among the highest totals).
    periods = data["periods"]
    assert [p["period"] for p in periods] == [1, 2, 3] and periods[-1]["leader_won"] == 1
    assert periods[-1]["mean_score"] == pytest.approx(data["mean_score"], abs=1e-6)
    assert 0 < q["decided_from"] <= 1


def test_one_bot_has_no_skill_gap_and_histograms_count_every_game(capsys):
    data = run_json(capsys, "architects", "--players", "3", "--games", "20")
    assert data["quality"]["skill_gap"] is None
    h = data["histograms"]
    assert sum(n for _, n in h["actions"]) == sum(n for _, n in h["periods"]) == 20
    for wonder, counts in h["wonders"].items():
        assert sum(n for _, n in counts) == data["wonders"][wonder]["games"]
        mean = sum(v * n for v, n in counts) / data["wonders"][wonder]["games"]
        assert mean == pytest.approx(data["wonders"][wonder]["mean_score"], abs=1e-6)
    for wonder, points in data["wonder_categories"].items():
        assert sum(points.values()) == pytest.approx(data["wonders"][wonder]["mean_score"], abs=1e-5)


def test_an_example_seed_is_the_first_game_won(capsys, tmp_path):
    out = tmp_path / "games.jsonl"
    data = run_json(capsys, "architects", "--players", "3", "--games", "30", "--out", str(out))
    games = [json.loads(line) for line in out.read_text().splitlines()]
    for wonder, tally in data["wonders"].items():
        won = [g["seed"] for g in games for seat in g["winners"] if g["seats"][seat]["wonder"] == wonder]
        assert tally["example_seed"] == (min(won) if won else None)
    culture = data["components"]["progress"].get("culture")
    if culture:
        won = [g["seed"] for g in games for seat in g["winners"] if "culture" in g["built"][seat].get("progress", [])]
        assert culture["example_seed"] == (min(won) if won else None)


def test_a_long_run_says_what_its_course_stands_on(capsys, tmp_path):
    s = run_json(capsys, "7-wonders", "--games", "200", "--players", "3")
    assert s["quality"]["course_games"] == 100 and s["periods"][0]["games"] == 100
    assert sum(n for _, n in s["histograms"]["periods"]) == 200  # every game's length counts
    assert main(["simulate", "7-wonders", "--games", "200", "--players", "3", "--quiet", "--workers", "1"]) == 0
    assert "score curves from the 100 of the 200 games scored after each period" in capsys.readouterr().out
    written = run_json(capsys, "7-wonders", "--games", "200", "--players", "3", "--out", str(tmp_path / "g.jsonl"))
    assert written["quality"]["course_games"] == 200  # the records hold every game's course

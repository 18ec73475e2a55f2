"""The quality of a game, as many simulated games show it: balance, first-seat advantage, the course
of the scores (lead changes, the point from which the winner was decided), shared wins, length and
the skill gap between bots. docs/balance.md defines each figure.

A game's course is its scores after each period (an age of 7 Wonders, a round of Architects or
Dice): `play_game` records every player's total whenever the game passes into its next period,
and the final scores close the list (a long run does so for some of its games only: running.py's
`course_every`). `Course` keeps what the summary needs of many courses as exact sums, so that it
merges across workers as the rest of a simulation's aggregate does.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Sequence

from ...interpreter.bots.registry import play
from ...interpreter.core.state import State
from ...interpreter.games.game import Game
from .progress import decided
from .stats import Moments, wilson


def play_game(game: Game, bots: Sequence[str], seed: int, course: bool = True) -> tuple[State, list[list[int]] | int]:
    """Play one game; the final state and every player's total after each period but the last (the
    final scores), or without `course` only the number of those periods."""
    periods: list[list[int]] = []
    ended = -1  # the periods ended: the first call is the first period's start

    def at_period(state: State) -> None:  # what the last period left is the position to score
        nonlocal ended
        ended += 1
        if not ended:
            decided(state)  # the progress line counts this game's decisions from now on (progress.py)
        elif course:
            periods.append(state.totals())

    state = play(game, bots, seed=seed, on_period=at_period)
    return state, periods if course else max(ended, 0)  # (a game over before any action: one period)


COURSE_FIGURES = "lead changes, decided from, the winner leading and the score curves"  # what `Course` gives


def leaders(totals: Sequence[int]) -> set[int]:
    """The seats with the highest total."""
    best = max(totals)
    return {seat for seat, total in enumerate(totals) if total == best}


def lead_changes(periods: Sequence[Sequence[int]]) -> int:
    """How often the lead passed to other players: period ends whose leaders include none of the
    previous period's."""
    return _changes([leaders(p) for p in periods])


def decided_from(periods: Sequence[Sequence[int]], winners: Sequence[int]) -> int:
    """The first period (from 1) after which a final winner led at every period end."""
    return _decided([bool(leaders(p) & set(winners)) for p in periods])


def _changes(tops: list[set[int]]) -> int:
    return sum(1 for before, after in zip(tops, tops[1:]) if not before & after)


def _decided(led: list[bool]) -> int:
    """The first period (from 1) from which a final winner led (`led`, per period) to the end."""
    k = len(led)
    while k > 1 and led[k - 2]:
        k -= 1
    return k


class Course:
    """The courses of many games, as exact sums: lead changes, decided-from points, lengths in
    periods, and per period the games that reached it, those whose final winner led then, and the
    scores of everyone, of the final winners and of the others."""

    __slots__ = ("changes", "decided", "lengths", "steps")

    def __init__(self):
        self.changes = Moments()
        self.decided = Moments()      # as a fraction of the game's periods
        self.lengths: Counter = Counter()
        self.steps: list[list] = []   # per period: [games, leader won, all, winners, others] (Moments)

    def add(self, periods: list[list[int]], winners: Sequence[int]) -> None:
        """A game's course: its totals after each period, the final ones last."""
        if not periods or not winners:
            return
        tops = [leaders(p) for p in periods]  # once per period: every figure below reads them
        won = set(winners)
        led = [bool(top & won) for top in tops]
        self.changes.add(_changes(tops))
        self.decided.add(Fraction(_decided(led), len(periods)))
        self.lengths[len(periods)] += 1
        for k, totals in enumerate(periods):
            if k == len(self.steps):
                self.steps.append([0, 0, Moments(), Moments(), Moments()])
            step = self.steps[k]
            step[0] += 1
            step[1] += led[k]
            # everyone's, the winners' and the others' moments, from two sums (a hot path: every period)
            theirs = [totals[seat] for seat in won]
            n, total, squares = len(totals), sum(totals), sum([t * t for t in totals])
            wins, won_total, won_squares = len(theirs), sum(theirs), sum([t * t for t in theirs])
            step[2].grow(n, total, squares)
            step[3].grow(wins, won_total, won_squares)
            step[4].grow(n - wins, total - won_total, squares - won_squares)

    def length(self, periods: int, winners: Sequence[int]) -> None:
        """A game not scored after each period: only its number of periods counts."""
        if periods and winners:
            self.lengths[periods] += 1

    def merge(self, other: "Course") -> None:
        self.changes.merge(other.changes)
        self.decided.merge(other.decided)
        self.lengths.update(other.lengths)
        for k, theirs in enumerate(other.steps):
            if k == len(self.steps):
                self.steps.append([0, 0, Moments(), Moments(), Moments()])
            mine = self.steps[k]
            mine[0] += theirs[0]
            mine[1] += theirs[1]
            for m, t in zip(mine[2:], theirs[2:]):
                m.merge(t)

    def __getstate__(self):
        return (self.changes, self.decided, self.lengths, self.steps)

    def __setstate__(self, state):
        self.changes, self.decided, self.lengths, self.steps = state

    def periods(self, num) -> list[dict]:
        """Per period: the games that reached it, the share whose final winner led then, the mean
        scores of all players, of the final winners and of the others."""
        return [{"period": k + 1, "games": games, "leader_won": num(Fraction(led, games)),
                 "mean_score": num(everyone.mean), "mean_winner": num(won.mean), "mean_others": num(rest.mean)}
                for k, (games, led, everyone, won, rest) in enumerate(self.steps)]


def reached(s: dict) -> list[dict]:
    """The periods of a summary that at least half of the games of its course reached (a game that
    ended earlier is not in a later period's figures, so the last few periods stand on a handful of
    games)."""
    periods = s.get("periods") or []
    return [p for p in periods if 2 * p["games"] >= periods[0]["games"]]  # every game reaches the first


def quality(s: dict, course: Course, first_wins: Fraction | None, num, pair) -> dict:
    """The quality figures of a summary `s` (its wonders, seats and bots), its games' course and the
    first seat's wins (exact); `num` and `pair` round figures and intervals as the summary does."""
    players, games = s["players"], s["games"]
    first = s["seats"][0]["games"] if s["seats"] else 0
    even = Fraction(1, players)
    out = {
        "balance_wonders": _balance(s["wonders"].values()),
        "balance_seats": _balance(s["seats"]),
        "first_seat_advantage": num(first_wins / first - even) if first else None,
        "first_seat_advantage_ci": pair(_shift(wilson(first_wins, first), -float(even))) if first else None,
        "shared_wins_rate": num(Fraction(s["shared_wins"], games)) if games else None,
        "course_games": course.changes.n,
        "lead_changes": num(course.changes.mean), "lead_changes_ci": pair(course.changes.interval()),
        "decided_from": num(course.decided.mean), "decided_from_ci": pair(course.decided.interval()),
        "mean_periods": num(Fraction(sum(k * n for k, n in course.lengths.items()), sum(course.lengths.values())))
        if course.lengths else None,
        "mean_actions": s["mean_actions"],
    }
    out |= _skill_gap(s["bots"], num)
    return out


def _balance(tallies) -> float | None:
    """One minus the largest gap between win rates (1: every group wins as often)."""
    rates = [t["win_rate"] for t in tallies if t["win_rate"] is not None]
    return round(1 - (max(rates) - min(rates)), 6) if len(rates) > 1 else None


def _shift(interval, by: float):
    return None if interval is None else (interval[0] + by, interval[1] + by)


def _skill_gap(bots: dict, num) -> dict:
    """The strongest bot's win rate less the weakest's (random's, when it plays): what skill is worth."""
    rated = {name: t["win_rate"] for name, t in bots.items() if t["win_rate"] is not None}
    if len(rated) < 2:
        return {"skill_gap": None, "skill_gap_bots": None}
    strongest = max(sorted(rated), key=rated.get)
    weakest = "random" if "random" in rated and strongest != "random" else min(sorted(rated), key=rated.get)
    return {"skill_gap": num(rated[strongest] - rated[weakest]), "skill_gap_bots": [strongest, weakest]}

"""Two packs compared seed by seed (`simulate --against`).

Both packs play every seed with the same bots, so the two games of a seed share their deal and
their bots' draws as far as the change lets them: what differs between them is mostly the change.
Each figure compared (the mean score, each wonder's and side's win rate and score, each category,
each component's take rate and its takers' win rate) is tested on its per-seed differences B - A
(a paired t-test), which sees a small move with far fewer games than two independent samples would.
The many tests are held together by the Benjamini-Hochberg procedure: a move is flagged when its
q-value is under the false discovery rate, so that among the moves flagged about that share at most
come by chance. Each move also says how many games a paired run, and two independent runs, would
need to confirm it (80% power at the 5% level).

`Paired` keeps exact sums of the values of A, of B and of their differences, per figure, so that it
merges across workers like the rest of the aggregate.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from typing import Callable

from .stats import Moments, benjamini_hochberg, paired, sample_needed

FDR = 0.05  # the false discovery rate the flagged moves are held to
METHOD = (f"paired t-tests on the per-seed differences B - A; moves flagged where the false discovery rate over "
          f"all the tests stays under {FDR:.0%} (Benjamini-Hochberg q-values)")


class Paired:
    """Per figure, the moments of A's values, B's and their differences over the seeds where both
    games have the figure (a wonder played in both...). A component's take rate is counted over
    every seed, those where neither game took it adding zeros."""

    __slots__ = ("players", "unit", "seeds", "figures", "taken")

    def __init__(self, players: int):
        self.players = players
        self.unit = math.lcm(*range(1, players + 1))  # a win shared by k players is unit // k
        self.seeds = 0
        self.figures: dict[tuple, tuple[Moments, Moments, Moments]] = {}
        self.taken: dict[tuple, tuple[Moments, Moments, Moments]] = {}  # zeros left out

    def add(self, a: dict, b: dict) -> None:
        """The two records of one seed."""
        self.seeds += 1
        fa, ta = self._figures(a)
        fb, tb = self._figures(b)
        for key in fa.keys() & fb.keys():
            _add(self.figures, key, fa[key], fb[key])
        for key in ta.keys() | tb.keys():
            _add(self.taken, key, ta.get(key, 0), tb.get(key, 0))

    def _figures(self, rec: dict) -> tuple[dict, dict]:
        """A record's figures, as integers: sums over its players, wins in units, takers' win rates in
        units of 1/unit² (the takers' count divides unit, so the rate stays whole); and the takers of
        each component."""
        winners = rec["winners"]
        share = self.unit // len(winners) if winners else 0
        figures: dict[tuple, int] = {("mean_score",): 0}
        takers: Counter = Counter()
        won_by: Counter = Counter()
        for seat, (who, score, built) in enumerate(zip(rec["seats"], rec["scores"], rec["built"])):
            total, won = score["total"], share if seat in winners else 0
            figures[("mean_score",)] += total
            wonder = who.get("wonder")
            if wonder is not None:
                figures["wonders", wonder, "win_rate"], figures["wonders", wonder, "mean_score"] = won, total
                if "side" in who:
                    key = f"{wonder}:{who['side']}"
                    figures["sides", key, "win_rate"], figures["sides", key, "mean_score"] = won, total
            for name, points in score["breakdown"].items():
                figures["categories", name] = figures.get(("categories", name), 0) + points
            for group, ids in built.items():
                for cid in set(map(str, ids)):
                    takers[group, cid] += 1
                    won_by[group, cid] += won
        for (group, cid), n in takers.items():
            figures["components", group, cid, "win_rate_taken"] = won_by[group, cid] * self.unit // n
        return figures, {("components", group, cid, "taken_rate"): n for (group, cid), n in takers.items()}

    def merge(self, other: "Paired") -> None:
        self.seeds += other.seeds
        for mine, theirs in ((self.figures, other.figures), (self.taken, other.taken)):
            for key, moments in theirs.items():
                if key not in mine:
                    mine[key] = (Moments(), Moments(), Moments())
                for m, t in zip(mine[key], moments):
                    m.merge(t)

    def __getstate__(self):
        return (self.players, self.unit, self.seeds, self.figures, self.taken)

    def __setstate__(self, state):
        self.players, self.unit, self.seeds, self.figures, self.taken = state

    def moments(self, key: tuple) -> tuple[Moments, Moments, Moments] | None:
        """A figure's moments of A, B and B - A (a take rate's with its zeros put back)."""
        if key in self.taken:
            return tuple(Moments(self.seeds, m.total, m.squares) for m in self.taken[key])
        if key[-1] == "taken_rate" and self.seeds:  # taken in neither pack's games
            return Moments(self.seeds), Moments(self.seeds), Moments(self.seeds)
        return self.figures.get(key)


def _add(table: dict, key: tuple, a: int, b: int) -> None:
    moments = table.get(key)
    if moments is None:
        moments = table[key] = (Moments(), Moments(), Moments())
    moments[0].add(a)
    moments[1].add(b)
    moments[2].add(b - a)


def moves(a: dict, b: dict, pairs: Paired, num: Callable) -> dict:
    """What moved from A's summary to B's: each figure's values in A and B (as their summaries give
    them), its paired test and q-value, and the games that would confirm it."""
    out: dict = {"mean_score": _move(a.get("mean_score"), b.get("mean_score"), pairs, ("mean_score",), num)}
    for table in ("wonders", "sides"):
        if table in a or table in b:
            ta, tb = a.get(table, {}), b.get(table, {})
            out[table] = {k: {f: _move(ta.get(k, {}).get(f), tb.get(k, {}).get(f), pairs, (table, k, f), num)
                              for f in ("win_rate", "mean_score")}
                          for k in sorted(set(ta) | set(tb))}
    ca, cb = a["categories"], b["categories"]
    out["categories"] = {k: _move(ca.get(k, {}).get("mean"), cb.get(k, {}).get("mean"), pairs, ("categories", k), num)
                         for k in dict.fromkeys([*ca, *cb])}
    out["components"] = {}
    for group in dict.fromkeys([*a["components"], *b["components"]]):
        ga, gb = a["components"].get(group, {}), b["components"].get(group, {})
        out["components"][group] = {
            cid: {f: _move(ga.get(cid, {}).get(f), gb.get(cid, {}).get(f), pairs, ("components", group, cid, f), num)
                  for f in ("taken_rate", "win_rate_taken")}
            for cid in dict.fromkeys([*ga, *gb])}
    tested = [m for m in _all(out) if m["p"] is not None]
    for m, q in zip(tested, benjamini_hochberg([m["p"] for m in tested])):
        m["q"] = float(f"{q:.6g}")
        m["significant"] = q < FDR
    out |= {"tests": len(tested), "flagged": sum(m["significant"] for m in tested), "fdr": FDR, "method": METHOD}
    return out


def _move(va, vb, pairs: Paired, key: tuple, num) -> dict:
    """One figure's move: its values, its paired test and the games that would confirm it."""
    out = {"a": va, "b": vb, "delta": num(vb - va) if va is not None and vb is not None else None,
           "p": None, "q": None, "significant": False, "pairs": 0, "games_needed": None,
           "games_needed_unpaired": None}
    moments = pairs.moments(key)
    if moments is None:
        return out
    ma, mb, d = moments
    out["pairs"] = d.n
    test = paired(d)
    if test is None:
        return out
    out["p"] = float(f"{test.p:.6g}")
    if d.total and d.n:
        per_game = Fraction(d.n, pairs.seeds)  # the share of seeds holding a pair of this figure
        mean = Fraction(d.total, d.n)
        out["games_needed"] = _games(sample_needed(mean, d.variance), per_game)
        out["games_needed_unpaired"] = _games(sample_needed(mean, (ma.variance or 0) + (mb.variance or 0)), per_game)
    return out


def _games(values: int | None, per_game: Fraction) -> int | None:
    return None if values is None else math.ceil(values / per_game)


def _all(moves: dict):
    """Every move of a table of moves, in its order."""
    for value in moves.values():
        if isinstance(value, dict):
            if "significant" in value:
                yield value
            else:
                yield from _all(value)

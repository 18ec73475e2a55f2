"""Two packs compared seed by seed (`simulate --against`).

Both packs play every seed with the same bots, so the two games of a seed share their deal and
their bots' draws as far as the change lets them: what differs between them is mostly the change.

Every figure compared is a ratio of sums over the games: the mean score is the points of all
players over their number, a wonder's win rate its wins over the games it was played in, a
component's take rate its takers over the players, its takers' win rate their wins over their
number. Each seed gives, for each pack, the figure's two sums (value, count), zero where the figure
is absent from its game. The move B - A of the ratio is tested with the seeds as pairs: each
seed's contribution to each pack's ratio is linearised (the delta method of a ratio estimator),
and the paired differences of those contributions give the standard error of the move, which a
t-test judges. Noise that both games of a seed share (the deal, the other players' luck) cancels
out, so a small move shows with far fewer games than two independent samples need.

The many tests are held together by the Benjamini-Hochberg procedure: a move is flagged when its
q-value is under the false discovery rate, so that among the moves flagged about that share at most
come by chance. Each move also says how many games a paired run, and two independent runs, would
need to confirm it (80% power at the 5% level).

`Paired` keeps the sums exactly, so that it merges across workers like the rest of the aggregate.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from typing import Callable, Iterator, Sequence

from .records import boards, win_shares
from .stats import Test, benjamini_hochberg, sample_needed, t_two_sided
from .summary import component_label, rarely_below, untaken_warning

FDR = 0.05       # the false discovery rate the flagged moves are held to
MIN_PAIRS = 6    # the fewest seeds holding a figure that a test judges (6 moving one way: p = 0.03)
METHOD = (f"paired t-tests over the seeds both packs played, each figure's move B - A judged against how it "
          f"varies from seed to seed; moves flagged where the false discovery rate over all the tests stays "
          f"under {FDR:.0%} (Benjamini-Hochberg q-values)")

# The sums kept per figure: how many seeds hold it, then for A and for B the sums of the value v,
# of the count c, of v², c² and vc, then the cross sums vA·vB, vA·cB, cA·vB and cA·cB.
HELD, VA, CA, VVA, CCA, VCA, VB, CB, VVB, CCB, VCB, VAVB, VACB, CAVB, CACB = range(15)


class Paired:
    """Per figure, the exact sums of its per-seed values and counts in A and B, over the seeds both
    packs finished. Figures counted per player (the mean score, a category, a take rate) count
    every player of every seed; the others count only where they are (a wonder dealt)."""

    __slots__ = ("players", "unit", "seeds", "sums")

    def __init__(self, players: int):
        self.players = players
        self.unit = math.lcm(*range(1, players + 1))  # a win shared by k players is unit // k
        self.seeds = 0
        self.sums: dict[tuple, list[int]] = {}

    def add(self, a: dict, b: dict) -> None:
        """The two records of one seed."""
        self.seeds += 1
        fa, fb = self._figures(a), self._figures(b)
        for key in fa.keys() | fb.keys():
            (va, ca), (vb, cb) = fa.get(key, (0, 0)), fb.get(key, (0, 0))
            if _per_player(key):
                ca, cb = ca or self.players, cb or self.players
            s = self.sums.get(key)
            if s is None:
                s = self.sums[key] = [0] * 15
            for i, x in enumerate((1, va, ca, va * va, ca * ca, va * ca, vb, cb, vb * vb, cb * cb, vb * cb,
                                   va * vb, va * cb, ca * vb, ca * cb)):
                s[i] += x

    def _figures(self, rec: dict) -> dict[tuple, tuple[int, int]]:
        """A record's figures as (value, count): wins in units, points, takers."""
        shares = win_shares(rec, self.unit)
        total = sum(score["total"] for score in rec["scores"])
        figures: dict[tuple, tuple[int, int]] = {("mean_score",): (total, self.players)}
        points: Counter = Counter()
        takers: Counter = Counter()
        won_by: Counter = Counter()
        for who, score, built, won in zip(rec["seats"], rec["scores"], rec["built"], shares):
            for table, key in boards(who):
                figures[table, key, "win_rate"] = (won, 1)
                figures[table, key, "mean_score"] = (score["total"], 1)
            points.update(score["breakdown"])
            for group, ids in built.items():
                for cid in set(map(str, ids)):
                    takers[group, cid] += 1
                    won_by[group, cid] += won
        for name, n in points.items():
            figures["categories", name] = (n, self.players)
        for (group, cid), n in takers.items():
            figures["components", group, cid, "taken_rate"] = (n, self.players)
            figures["components", group, cid, "win_rate_taken"] = (won_by[group, cid], n)
        return figures

    def merge(self, other: "Paired") -> None:
        self.seeds += other.seeds
        for key, theirs in other.sums.items():
            mine = self.sums.get(key)
            if mine is None:
                self.sums[key] = list(theirs)
            else:
                for i, x in enumerate(theirs):
                    mine[i] += x

    def __getstate__(self):
        return (self.players, self.unit, self.seeds, self.sums)

    def __setstate__(self, state):
        self.players, self.unit, self.seeds, self.sums = state

    def move(self, key: tuple, num: Callable) -> dict:
        """One figure's move: its values in A and B, the move, its test and the games that would
        confirm it (values None where a pack never had the figure)."""
        s = self._sums(key)
        out = {"a": None, "b": None, "delta": None, "p": None, "q": None, "significant": False,
               "pairs": s[HELD] if s else 0, "games_needed": None, "games_needed_unpaired": None}
        if s is None or not s[CA] or not s[CB]:
            if s is not None:  # a figure of one pack only: its value there
                out["a"], out["b"] = (num(self._scale(key, Fraction(s[VA], s[CA]))) if s[CA] else None,
                                      num(self._scale(key, Fraction(s[VB], s[CB]))) if s[CB] else None)
            return out
        ra, rb = Fraction(s[VA], s[CA]), Fraction(s[VB], s[CB])
        delta = rb - ra
        out |= {"a": num(self._scale(key, ra)), "b": num(self._scale(key, rb)), "delta": num(self._scale(key, delta))}
        if s[HELD] < MIN_PAIRS or self.seeds < 2:
            return out
        var_a, var_b, var_d = _variances(s, ra, rb, self.seeds)
        test = _test(delta, var_d, self.seeds, s[HELD])
        out["p"] = float(f"{test.p:.6g}")
        if delta:
            fewest = math.ceil(MIN_PAIRS * self.seeds / s[HELD])  # the games holding enough seeds to judge
            out["games_needed"] = max(sample_needed(delta, var_d), fewest)
            out["games_needed_unpaired"] = max(sample_needed(delta, var_a + var_b), fewest)
        return out

    def _sums(self, key: tuple) -> list[int] | None:
        """A figure's sums, the seeds without it put back for a figure counted per player (nothing
        taken there, of all the players)."""
        s = self.sums.get(key)
        if s is None or not _per_player(key):
            return s
        s, p, k = list(s), self.players, self.seeds - s[HELD]
        for i in (CA, CB):
            s[i] += k * p
        for i in (CCA, CCB, CACB):
            s[i] += k * p * p
        return s

    def _scale(self, key: tuple, x: Fraction) -> Fraction:
        """Wins are counted in units of 1/unit: back to rates."""
        return x / self.unit if key[-1] in ("win_rate", "win_rate_taken") else x


def _per_player(key: tuple) -> bool:
    return key[0] in ("mean_score", "categories") or key[-1] == "taken_rate"


def _variances(s: list[int], ra: Fraction, rb: Fraction, n: int) -> tuple[float, float, float]:
    """The per-seed variances of each pack's linearised contribution to its ratio, and of their
    paired difference: a seed's contribution is (v - r c) / (mean count per seed)."""
    alpha_a, alpha_b = Fraction(n, s[CA]), Fraction(n, s[CB])
    ssa = s[VVA] - 2 * ra * s[VCA] + ra * ra * s[CCA]        # sum of (vA - rA cA)^2
    ssb = s[VVB] - 2 * rb * s[VCB] + rb * rb * s[CCB]
    cross = s[VAVB] - rb * s[VACB] - ra * s[CAVB] + ra * rb * s[CACB]  # sum of (vA - rA cA)(vB - rB cB)
    var_a, var_b = alpha_a * alpha_a * ssa / (n - 1), alpha_b * alpha_b * ssb / (n - 1)
    var_d = (alpha_a * alpha_a * ssa + alpha_b * alpha_b * ssb - 2 * alpha_a * alpha_b * cross) / (n - 1)
    return float(var_a), float(var_b), max(float(var_d), 0.0)


def _test(delta: Fraction, var_d: float, n: int, held: int) -> Test:
    """The paired t-test of a move; where the seeds do not vary at all (every pair moved alike), the
    chance that `held` seeds all moved one way (a sign test)."""
    if var_d <= 0:
        if delta == 0:
            return Test(0.0, 0.0, 1.0)
        return Test(float(delta), math.copysign(math.inf, delta), min(1.0, 2 * 0.5 ** held))
    t = float(delta) / math.sqrt(var_d / n)
    return Test(float(delta), t, t_two_sided(t, n - 1))


def moves(a: dict, b: dict, pairs: Paired, num: Callable, changed: Sequence[dict] = ()) -> dict:
    """What moved from A to B, every figure of either summary in its order: its values in A and B
    over the seeds both packs finished, its paired test and q-value, and the games that would
    confirm it; then how many tests, how many flagged, and the method. `changed` (summary.py's
    `changed_components`) names what B adds, changes and removes: a component of one pack only is
    not tested (its move is certain and says nothing: it is `only_in` that pack), and what B adds
    or changes is listed under `changed` with B's figures and the warning of what was (almost)
    never taken."""
    out: dict = {"mean_score": pairs.move(("mean_score",), num)}
    for table in ("wonders", "sides"):
        if table in a or table in b:
            out[table] = {k: {f: pairs.move((table, k, f), num) for f in ("win_rate", "mean_score")}
                          for k in sorted(set(a.get(table, {})) | set(b.get(table, {})))}
    out["categories"] = {k: pairs.move(("categories", k), num) for k in dict.fromkeys([*a["categories"], *b["categories"]])}
    out["components"] = {
        group: {cid: {f: pairs.move(("components", group, cid, f), num) for f in ("taken_rate", "win_rate_taken")}
                for cid in dict.fromkeys([*a["components"].get(group, {}), *b["components"].get(group, {})])}
        for group in dict.fromkeys([*a["components"], *b["components"]])}
    for c in changed:
        if c["status"] in ("added", "removed") and c["group"] != "wonders":
            for m in out["components"].get(c["group"], {}).get(c["id"], {}).values():
                m |= {"p": None, "games_needed": None, "games_needed_unpaired": None,
                      "only_in": "B" if c["status"] == "added" else "A"}
    tested = [m for m in every_move(out) if m["p"] is not None]
    for m, q in zip(tested, benjamini_hochberg([m["p"] for m in tested])):
        m["q"] = float(f"{q:.6g}")
        m["significant"] = q < FDR
    out |= {"tests": len(tested), "flagged": sum(m["significant"] for m in tested), "fdr": FDR, "method": METHOD}
    return out | _changed(b, out, [c for c in changed if c["status"] != "removed"])


_FIGURES = ("taken", "taken_rate", "win_rate_taken", "win_rate_not_taken", "mean_score_taken", "mean_score_not_taken")


def _changed(b: dict, out: dict, changed: list[dict]) -> dict:
    """What B adds or changes, as B's bots played it: each piece's figures in B (a wonder's win
    rate and mean score), its moves from A, and `untaken` ("never", "rarely" or None); then the
    warning of those (almost) never taken, and the count below which a piece is taken rarely."""
    below, games = rarely_below(b["games"]), b["games"]
    rows, never, rarely = [], [], []
    for c in changed:
        if c["group"] == "wonders":
            w = b["wonders"].get(c["id"]) or {}
            rows.append(c | {f: w.get(f) for f in ("games", "win_rate", "mean_score")}
                        | {"moves": out.get("wonders", {}).get(c["id"]), "untaken": None})
            continue
        taken = b["components"].get(c["group"], {}).get(c["id"]) or {  # never taken: every player is "the others"
            "taken": 0, "taken_rate": 0, "win_rate_not_taken": round(1 / b["players"], 6),
            "mean_score_not_taken": b["mean_score"]}
        untaken = "never" if not taken["taken"] else "rarely" if taken["taken"] < below else None
        (never if untaken == "never" else rarely if untaken else []).append(component_label(c["group"], c["id"]))
        rows.append(c | {f: taken.get(f) for f in _FIGURES}
                    | {"moves": out["components"].get(c["group"], {}).get(c["id"]), "untaken": untaken})
    bots = [seat["bot"] for seat in b["seats"]]
    return {"changed": rows, "rarely_below": below,
            "changed_warning": untaken_warning(bots, never, rarely, below, games) if games else ""}


def every_move(moves: dict) -> Iterator[dict]:
    """Every move of a table of moves, in its order."""
    for value in moves.values():
        if isinstance(value, dict):
            if "significant" in value:
                yield value
            else:
                yield from every_move(value)

"""The figures of a study, aggregated from its games: exact sums per chunk of seeds (`Aggregate`,
merged in seed order whatever played the chunks), and the summary made of them, as `--format json`
prints it.

Sums are integers (a shared win counts in units of 1/lcm(1..players)), so the summary is the same to
the last digit whatever the number of workers or where they run, and memory stays flat however many
games are played. What a player built is read from the final state (records.py); a card an
Architects player spent on a stage has left the city, so it is not counted.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction
from typing import Iterable, Sequence

from ...interpreter.games.game import Game
from ...interpreter.packs.boards import Boards
from ...interpreter.packs.folders import is_shipped
from ..common.text import STAGES
from .quality import Course, quality
from .records import boards, win_shares
from .stats import Moments, wilson

UNFINISHED_SEEDS = 10      # seeds of unfinished games the summary lists
RARELY_TIMES = 5           # a component taken fewer times than this (or than RARELY_SHARE of the games)...
RARELY_SHARE = 0.01        # ...is "almost never taken": its figures stand on too few games to say anything
NAMED = 20                 # components a warning names at most (the rest counted)
_ONES = itertools.repeat(1)


# ---- exact running statistics ------------------------------------------------------------------


class Tally:
    """Player-games of one kind (a wonder, a side, a seat, a bot, or all): wins in units, scores
    (their moments and how often each), stages, points per category (kept for wonders only), and
    the first seed won."""

    __slots__ = ("wins", "score", "scores", "stages", "points", "example")

    def __init__(self):
        self.wins = 0
        self.score = Moments()
        self.scores: Counter = Counter()
        self.stages = Moments()
        self.points: Counter = Counter()
        self.example: int | None = None

    def add(self, total: int, won: int, seed: int) -> None:
        self.wins += won
        self.score.add(total)
        self.scores[total] += 1
        if won:
            self.example = _first(self.example, seed)

    def merge(self, other: "Tally") -> None:
        self.wins += other.wins
        self.score.merge(other.score)
        self.scores.update(other.scores)
        self.stages.merge(other.stages)
        self.points.update(other.points)
        self.example = _first(self.example, other.example)

    def __getstate__(self):
        return (self.wins, self.score, self.scores, self.stages, self.points, self.example)

    def __setstate__(self, state):
        self.wins, self.score, self.scores, self.stages, self.points, self.example = state


class Taken:
    """The player-games in which a component was taken: their wins in units, scores, copies held,
    and the first seed a taker won."""

    __slots__ = ("wins", "score", "copies", "example")

    def __init__(self):
        self.wins = 0
        self.score = Moments()
        self.copies = 0
        self.example: int | None = None

    def add(self, total: int, won: int, copies: int, seed: int) -> None:
        self.wins += won
        self.score.add(total)
        self.copies += copies
        if won:
            self.example = _first(self.example, seed)

    def merge(self, other: "Taken") -> None:
        self.wins += other.wins
        self.score.merge(other.score)
        self.copies += other.copies
        self.example = _first(self.example, other.example)

    def __getstate__(self):
        return (self.wins, self.score, self.copies, self.example)

    def __setstate__(self, state):
        self.wins, self.score, self.copies, self.example = state


def _first(a: int | None, b: int | None) -> int | None:
    """The smaller of two seeds, either maybe missing."""
    return b if a is None else a if b is None else min(a, b)


class Aggregate:
    """Everything the summary needs, as exact sums: `add` a game's record, `merge` another part."""

    def __init__(self, players: int):
        self.players = players
        self.unit = math.lcm(*range(1, players + 1))  # a win shared by k players is unit // k
        self.games = 0
        self.shared = 0                 # games whose win was shared
        self.actions = Moments()
        self.lengths: Counter = Counter()  # games by their number of actions
        self.course = Course()
        self.all = Tally()
        self.seats = [Tally() for _ in range(players)]
        self.bots: dict[str, Tally] = {}
        self.wonders: dict[str, Tally] = {}
        self.sides: dict[str, Tally] = {}
        self.categories: dict[str, Moments] = {}
        self.components: dict[str, dict[str, Taken]] = {}
        self.unfinished = 0
        self.unfinished_seeds: list[int] = []
        self.unfinished_reason = ""

    def add(self, rec: dict) -> None:
        self.games += 1
        winners = rec["winners"]
        self.shared += len(winners) > 1
        self.actions.add(rec["actions"])
        self.lengths[rec["actions"]] += 1
        if "periods" in rec:
            self.course.add(rec["periods"], winners)
        else:
            self.course.length(rec["period_count"], winners)
        seed = rec["seed"]
        categories, components = self.categories, self.components
        shares = win_shares(rec, self.unit)
        for seat, (who, score, built) in enumerate(zip(rec["seats"], rec["scores"], rec["built"])):
            total, won = score["total"], shares[seat]
            groups = [self.all, self.seats[seat], self.bots.get(who["bot"]) or self.bots.setdefault(who["bot"], Tally())]
            staged = [getattr(self, table).get(key) or getattr(self, table).setdefault(key, Tally())
                      for table, key in boards(who)]
            if staged:
                if STAGES in built:
                    for tally in staged:
                        tally.stages.add(len(built[STAGES]))
                staged[0].points.update(score["breakdown"])
                groups += staged
            for tally in groups:
                tally.add(total, won, seed)
            for name, points in score["breakdown"].items():
                moments = categories.get(name)
                if moments is None:
                    moments = categories[name] = Moments()
                moments.add(points)
            for group, ids in built.items():
                table = components.get(group)
                if table is None:
                    table = components[group] = {}
                if group == STAGES:  # numbers: keyed as text, as every component
                    ids = [str(i) for i in ids]
                for cid, copies in (Counter(ids).items() if len(set(ids)) < len(ids) else zip(ids, _ONES)):
                    taken = table.get(cid)
                    if taken is None:
                        taken = table[cid] = Taken()
                    taken.add(total, won, copies, seed)

    def add_unfinished(self, seed: int, reason: str) -> None:
        self.unfinished += 1
        if len(self.unfinished_seeds) < UNFINISHED_SEEDS:
            self.unfinished_seeds.append(seed)
        self.unfinished_reason = self.unfinished_reason or reason

    def merge(self, other: "Aggregate") -> None:
        self.games += other.games
        self.shared += other.shared
        self.actions.merge(other.actions)
        self.lengths.update(other.lengths)
        self.course.merge(other.course)
        self.all.merge(other.all)
        for mine, theirs in zip(self.seats, other.seats):
            mine.merge(theirs)
        for name in ("bots", "wonders", "sides"):
            table = getattr(self, name)
            for key, tally in getattr(other, name).items():
                table.setdefault(key, Tally()).merge(tally)
        for key, moments in other.categories.items():
            self.categories.setdefault(key, Moments()).merge(moments)
        for group, table in other.components.items():
            mine = self.components.setdefault(group, {})
            for key, taken in table.items():
                mine.setdefault(key, Taken()).merge(taken)
        self.unfinished += other.unfinished
        room = UNFINISHED_SEEDS - len(self.unfinished_seeds)
        self.unfinished_seeds += other.unfinished_seeds[:max(room, 0)]
        self.unfinished_reason = self.unfinished_reason or other.unfinished_reason

    def wins(self, units: int) -> Fraction:
        return Fraction(units, self.unit)


# ---- the summary, as data ----------------------------------------------------------------------


def summary(game: Game, pack: str, bots: Sequence[str], seed: int, aggregate: Aggregate) -> dict:
    """What `--format json` prints for one pack (without the `run` timings)."""
    a = aggregate
    out = {
        "pack": pack,
        "folder": None if is_shipped(game.pack.folder) else str(game.pack.folder.resolve()),
        "packs": game.describe()["packs"],
        "games": a.games,
        "players": game.players,
        "seeds": [seed, seed + a.games + a.unfinished - 1],
        "options": dict(game.options),
        **({"wonders_assigned": game.wonders()} if game.assigned else {}),
        "mean_score": num(a.all.score.mean),
        "mean_score_ci": _pair(a.all.score.interval()),
        "shared_wins": a.shared,
        "mean_actions": num(a.actions.mean),
        "wonders": {k: _tally(a, t) for k, t in sorted(a.wonders.items())},
    }
    if a.sides:
        out["sides"] = {k: _tally(a, t) for k, t in sorted(a.sides.items())}
    out["seats"] = [{"bot": bot} | _tally(a, t, stages=False) for bot, t in zip(bots, a.seats)]
    out["bots"] = {k: _tally(a, t, stages=False) for k, t in sorted(a.bots.items())}
    out["categories"] = {k: {"mean": num(m.mean), "ci": _pair(m.interval())} for k, m in a.categories.items()}
    out["components"] = {group: {cid: _taken(a, t) for cid, t in sorted(table.items(), key=component_order)}
                         for group, table in sorted(a.components.items(), key=lambda kv: (kv[0] == STAGES, kv[0]))}
    out["quality"] = quality(out, a.course, a.wins(a.seats[0].wins) if a.seats else None, num, _pair)
    out["periods"] = a.course.periods(num)
    out["histograms"] = {"actions": _histogram(a.lengths), "periods": _histogram(a.course.lengths),
                         "wonders": {k: _histogram(t.scores) for k, t in sorted(a.wonders.items())}}
    if a.sides:
        out["histograms"]["sides"] = {k: _histogram(t.scores) for k, t in sorted(a.sides.items())}
    out["wonder_categories"] = {k: {c: num(Fraction(t.points[c], t.score.n)) for c in a.categories}
                                for k, t in sorted(a.wonders.items())}
    out["never_taken"] = never = never_taken(game, a)
    warning = untaken_warning(bots, [component_label(g, c) for g, ids in never.items() for c in ids])
    if warning:
        out["never_taken_warning"] = warning
    if a.unfinished:
        out["unfinished"] = {"games": a.unfinished, "seeds": a.unfinished_seeds, "reason": a.unfinished_reason}
    return out


# ---- what the bots never took ------------------------------------------------------------------


def takeable(game: Game) -> dict[str, dict[str, tuple[str, str]]]:
    """What a player can take in this game, as the summary groups it: per group (the build zone, a
    zone named after a component kind, the wonder stages), each id and the pack component it
    comes from (kind, id). Cards dealt to no player at this count are left out."""
    pack, players = game.pack, game.players
    cards = {cid: ("cards", cid) for cid, card in game.catalogue.cards.items()
             if not card.copies or any(n <= players for copies in card.copies.values() for n in copies)}
    boards = Boards.read(pack) if pack.components["boards"] or pack.components["buildings"] else None
    if boards is not None:  # a board's boxes, by their buildings: the shared ones, then each board's own
        owners = [(("buildings", bid), b) for bid, b in boards.shared.items()]
        owners += [(("boards", board), b) for board, own in boards.boards.items() for b in own.values()]
        cards |= {box.id: owner for owner, building in owners for track in building.tracks.values() for box in track}
    out = {game.build_zone: cards} if cards else {}
    for kind in pack.components:
        if kind in game.player_zones and kind != game.build_zone and pack.components[kind]:
            out[kind] = {cid: (kind, cid) for cid in pack.components[kind]}
    stages = max((len(side.stages) for side in game.catalogue.sides.values()), default=0)
    if stages:
        out[STAGES] = {str(i): ("wonders", "") for i in range(1, stages + 1)}
    return out


def never_taken(game: Game, a: Aggregate) -> dict[str, list[str]]:
    """The components of the game that no player took in any game played, by group."""
    if not a.games:
        return {}
    out = {group: [cid for cid in ids if cid not in a.components.get(group, {})]
           for group, ids in takeable(game).items()}
    return {group: ids for group, ids in out.items() if ids}


def changed_components(a: Game, b: Game, changes: Iterable) -> list[dict]:
    """What the pack diff `changes` (tools/authoring/diff.py) touches, as the summaries group it:
    for each component B adds or changes, each piece a player can take of it (a card, a board's
    boxes) or, for a wonder, the wonder; then each piece of a component B removes. Each as
    {"group", "id", "kind", "component", "status"}."""
    status: dict[tuple[str, str], str] = {}
    for change in changes:
        if change.id is not None:  # a component's (not a rules key)
            status[change.section, change.id] = change.status if change.field is None else "changed"
    out = []
    for game, wanted in ((b, ("added", "changed")), (a, ("removed",))):
        for group, ids in takeable(game).items():
            out += [{"group": group, "id": pid, "kind": owner[0], "component": owner[1], "status": status[owner]}
                    for pid, owner in ids.items() if status.get(owner) in wanted]
        out += [{"group": "wonders", "id": wid, "kind": "wonders", "component": wid, "status": st}
                for (kind, wid), st in status.items() if kind == "wonders" and st in wanted]
    return out


def rarely_below(games: int) -> int:
    """The count a component is taken fewer times than in `games` games to be "almost never taken"."""
    return max(RARELY_TIMES, math.ceil(RARELY_SHARE * games))


def untaken_warning(bots: Sequence[str], never: Sequence[str], rarely: Sequence[str] = (), below: int = 0,
                    games: int = 0) -> str:
    """The warning of components that these bots never (or almost never) took: `never taken by
    rules: watchtower, grand_bazaar; these figures say nothing about them`; empty when none."""
    who = " and ".join(dict.fromkeys(bots))
    parts = []
    if never:
        parts.append(f"never taken by {who}: {_named(never)}")
    if rarely:
        parts.append(f"almost never taken by {who} (fewer than {below} times in {games:,} games): {_named(rarely)}")
    if not parts:
        return ""
    return "; ".join(parts) + f"; {'these figures say' if len(never) + len(rarely) > 1 else 'its figures say'} " \
                              f"nothing about {'them' if len(never) + len(rarely) > 1 else 'it'}"


def _named(ids: Sequence[str]) -> str:
    return ", ".join(ids[:NAMED]) + (f" and {len(ids) - NAMED} more" if len(ids) > NAMED else "")


def component_label(group: str, cid: str) -> str:
    """A component as a warning names it: by its id, a wonder stage by its number (`stage 2`)."""
    return f"stage {cid}" if group == STAGES else cid


def _histogram(counts: Counter) -> list[list[int]]:
    """[value, how often] pairs, by value."""
    return [[value, n] for value, n in sorted(counts.items())]


def component_order(item: tuple[str, object]) -> tuple[int, int, str]:
    """Where a (component id, entry) pair goes in a table: numbered ids in their order, then the others by name."""
    cid = item[0]
    return (0, int(cid), "") if cid.isdigit() else (1, 0, cid)


def _tally(a: Aggregate, t: Tally, stages: bool = True) -> dict:
    n = t.score.n
    wins = a.wins(t.wins)
    out = {"games": n, "wins": num(wins), "win_rate": num(wins / n) if n else None,
           "win_rate_ci": _pair(wilson(wins, n)), "mean_score": num(t.score.mean),
           "mean_score_ci": _pair(t.score.interval())}
    if stages and t.stages.n:
        out["mean_stages"] = num(t.stages.mean)
    out["example_seed"] = t.example
    return out


def _taken(a: Aggregate, t: Taken) -> dict:
    everyone = a.all.score.n
    n_taken, n_not = t.score.n, everyone - t.score.n
    won_taken, won_not = a.wins(t.wins), a.wins(a.all.wins - t.wins)
    not_score = a.all.score - t.score
    return {
        "taken": n_taken,
        "taken_rate": num(Fraction(n_taken, everyone)) if everyone else None,
        "taken_rate_ci": _pair(wilson(n_taken, everyone)),
        "mean_copies": num(Fraction(t.copies, n_taken)) if n_taken else None,
        "win_rate_taken": num(won_taken / n_taken) if n_taken else None,
        "win_rate_taken_ci": _pair(wilson(won_taken, n_taken)),
        "win_rate_not_taken": num(won_not / n_not) if n_not else None,
        "win_rate_not_taken_ci": _pair(wilson(won_not, n_not)),
        "mean_score_taken": num(t.score.mean),
        "mean_score_not_taken": num(not_score.mean),
        "example_seed": t.example,
    }


def num(x) -> int | float | None:
    """A figure for the summary: exact integers stay so, others are rounded to 6 decimals."""
    if x is None:
        return None
    if isinstance(x, Fraction) and x.denominator == 1:
        return int(x)
    if isinstance(x, int):
        return x
    return round(float(x), 6)


def _pair(interval) -> list[float] | None:
    return None if interval is None else [round(interval[0], 6), round(interval[1], 6)]

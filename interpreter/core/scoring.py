"""Final scores, by the categories that `scoring:` in rules.yaml lists, and the winners.

Points are gains of the score counter (`vp 3`, `vp 1 per brown card in left, right`), counted at the
end; each lands in the category of its piece's colour. Choices left to the end (a wild science
symbol, a copied card) are made to the player's best.
"""

from __future__ import annotations

from collections import Counter
from itertools import product
from typing import Iterable

from ...dsl.compiler import Fixed
from ...dsl.verbs import GainTo
from ..packs.catalogue import STAGE, Piece
from .context import COPY_STAGE
from .events import END
from .holdings import Owned
from .state import State

COPY = "copy"  # the verb copying a neighbour's card at the end
OTHER = "other"  # points from a piece whose colour no category claims
GAIN_TO = GainTo.name  # the verb giving to other players
STAGES = "stages"  # as a tie-break: the number of built stages
PLANS = 1 << 12  # held effects whose points `Scoring.total` keeps worked out (and sets of symbols, `science`)
_UNPLANNED = object()  # `Scoring.plans` has no plan for it yet


class Scoring:
    """The scoring rules of one game."""

    def __init__(self, game):
        rules = game.rules.scoring
        self.game = game
        self.counter = rules.counter
        self.categories = rules.categories
        self.by_colour = {}
        for category in self.categories:
            if category.how == "colours":
                self.by_colour.update({c: category.name for c in category.names})
            elif category.how == "stages":
                self.by_colour[STAGE] = category.name
        science = game.rules.science
        self.squares = science.per_symbol == "square"
        self.set_bonus = science.set_bonus
        self.tie_break = rules.tie_break
        self.copies = bool(game.verbs & {COPY, COPY_STAGE})
        self.given = GAIN_TO in game.verbs  # some effect may give points to other players
        # whether some piece has points printed on it (a box): the pieces of a flow's own boards
        # are not in the catalogue, so only a catalogue without any rules them out
        self.printed = "boxes" in game.kind.provides or any(p.points for p in game.catalogue.pieces())
        self.plans: dict[Owned, tuple | None] = {}  # see `_plan`
        self.sciences: dict[tuple, int] = {}  # see `science`
        self.extra = [(category.how, category.names, [_points(e, self.counter) for e in category.effects]
                       if category.how != "table" else category.table)
                      for category in self.categories if category.how in ("tokens", "science", "effect", "table")]

    def scores(self, state: State) -> list[dict]:
        return [self.score(state, seat) for seat in range(len(state.players))]

    def totals(self, state: State) -> list[int]:
        """Each seat's `total`, as `scores` gives it, without the breakdowns: what a study records
        after every period, so counted without a dictionary per seat, each held effect's points
        worked out once (`_plan`); a seat with cards to copy is scored whole."""
        return [self.score(state, seat)["total"] if self.copies and list(self.copy_choices(state, seat)) != [()]
                else self.total(state, seat) for seat in range(len(state.players))]

    def total(self, state: State, seat: int) -> int:
        """The sum of `breakdown`, counted as it counts."""
        player, plans = state.players[seat], self.plans
        points, once = 0, None
        for owned in player.lasting:
            plan = plans.get(owned, _UNPLANNED)
            if plan is None:
                continue
            if plan is _UNPLANNED:
                plan = self._plan(owned)
                if plan is None:
                    continue
            condition, fixed, amounts, limited = plan
            if condition is not None and not condition(state, seat):
                continue
            if limited:  # `once per player`: however many pieces carry it
                once = once or set()
                if owned.key in once:
                    continue
                once.add(owned.key)
            points += fixed
            for amount in amounts:
                points += amount(state, seat)
        if self.printed:
            points += sum([piece.points for piece in player.zones.get(self.game.build_zone, ())])
        if player.banked:
            points += sum([value for _, value in player.banked])
        if self.given:
            points += sum([value for _, value in self.from_others(state, seat)])
        for how, names, effects in self.extra:
            if how == "tokens":
                points += sum([v for k, v, _ in player.tokens if k in names])
            elif how == "science":
                points += self.science(player.symbols)
            elif how == "table":
                points += by_count(effects, player.tokens, names)
            else:
                for condition, fixed, amounts in effects:
                    if condition is None or condition(state, seat):
                        points += fixed
                        for amount in amounts:
                            points += amount(state, seat)
        return points

    def _plan(self, owned: Owned) -> tuple | None:
        """What a held effect scores, as `breakdown` reads it: None when it scores nothing there
        (it waits for another trigger, or gains no points), else its condition, its fixed points,
        the amounts read from the position and whether it counts once per player."""
        effect = owned.effect
        plan = None
        if effect.trigger in (None, END) and any(a.verb == "gain" and a.args.counter == self.counter
                                                  for a in effect.actions):
            plan = _points(effect, self.counter) + (effect.limit == "player",)
        if len(self.plans) >= PLANS:
            self.plans.clear()  # bounded: held effects are made once per piece, but a pack may have many
        self.plans[owned] = plan
        return plan

    def score(self, state: State, seat: int) -> dict:
        """`total` and `breakdown` of one seat, with the copies that score best: a copied card
        counts as if the seat had built it, a copied stage applies as if it had (not counted as a
        stage of its own)."""
        best = None
        for copied in self.copy_choices(state, seat):
            view = state
            if copied:
                view = state.clone()
                for piece in copied:
                    if piece.colour != STAGE:
                        view.players[seat].zones[self.game.build_zone].append(piece)
                    view.enter(seat, piece)
            breakdown = self.breakdown(view, seat)
            total = sum(breakdown.values())
            if best is None or total > best["total"]:
                best = {"total": total, "breakdown": breakdown}
        return best

    def copy_choices(self, state: State, seat: int) -> Iterable[tuple[Piece, ...]]:
        """Every combination of the cards the seat's `copy` effects may copy, and of the stages its
        `at end: copy stage` effects may (those run in play have copied theirs), whose conditions hold."""
        if not self.copies:  # no pack copies: one choice, nothing copied
            return ((),)
        options = []
        for owned in state.players[seat].lasting:
            if not any(a.verb in (COPY, COPY_STAGE) for a in owned.effect.actions) or not owned.effect.applies(state, seat):
                continue
            for action in owned.effect.actions:
                if action.verb == COPY:
                    test = action.args.cards
                    found = {c.id: c for side in action.args.sides for other in state.seats(seat, side)
                             for c in state.cards(other, None) if test is None or test(c)}
                    options.append(list(found.values()) or [None])
                elif action.verb == COPY_STAGE and owned.effect.trigger == END:
                    options.append(state.stages_to_copy(seat, action.args.sides) or [None])
        return (tuple(p for p in combo if p is not None) for combo in product(*options))

    def breakdown(self, state: State, seat: int) -> dict[str, int]:
        player = state.players[seat]
        points = {c.name: 0 for c in self.categories}
        for owned in _counted(state, seat):
            for action in owned.effect.actions:
                if action.verb == "gain" and action.args.counter == self.counter:
                    category = self.by_colour.get(owned.piece.colour, OTHER)
                    points[category] = points.get(category, 0) + action.args.amount(state, seat)
        for piece in player.zones.get(self.game.build_zone, ()):  # points printed on pieces (boxes)
            if piece.points:
                category = self.by_colour.get(piece.colour, OTHER)
                points[category] = points.get(category, 0) + piece.points
        for colour, value in player.banked + (list(self.from_others(state, seat)) if self.given else []):
            category = self.by_colour.get(colour, OTHER)
            points[category] = points.get(category, 0) + value
        for category in self.categories:
            name = category.name
            if category.how == "tokens":
                points[name] += sum(v for k, v, _ in player.tokens if k in category.names)
            elif category.how == "science":
                points[name] += self.science(player.symbols)
            elif category.how == "table":
                points[name] += by_count(category.table, player.tokens, category.names)
            elif category.how == "effect":
                points[name] += sum(a.args.amount(state, seat) for e in category.effects
                                    if e.applies(state, seat) for a in e.actions
                                    if a.verb == "gain" and a.args.counter == self.counter)
        return points

    def from_others(self, state: State, seat: int) -> Iterable[tuple[str, int]]:
        """(colour of the piece, points) the seat is given by held effects, anyone's (`vp -1 to
        neighbours`, `at end: vp 1 per red card to all`), counted as the owner's own points are: at
        the end, their condition read for their owner, their amount for the seat or the owner."""
        for owner in range(len(state.players)):
            for owned in _counted(state, owner, GAIN_TO):
                for a in owned.effect.actions:
                    if a.verb == GAIN_TO and a.args.counter == self.counter and seat in state.seats(owner, a.args.to):
                        yield owned.piece.colour, a.args.amount(state, seat if a.args.theirs else owner)

    def science(self, symbols: list[tuple[str, ...]]) -> int:
        """Squares per symbol (`science.per_symbol: square`) plus a bonus per full set
        (`set_bonus`), each choice made to the best. Kept by the symbols held: a search scores the
        same few cities again and again."""
        key = tuple(symbols)
        found = self.sciences.get(key)
        if found is None:
            if len(self.sciences) >= PLANS:
                self.sciences.clear()
            found = self.sciences[key] = self._science(symbols)
        return found

    def _science(self, symbols: list[tuple[str, ...]]) -> int:
        fixed = Counter(s[0] for s in symbols if len(s) == 1)
        wild = [s for s in symbols if len(s) > 1]
        best = 0
        for picks in product(*wild):
            counts = fixed + Counter(picks)
            sets = min((counts[s] for s in self.game.symbols), default=0)
            squares = sum(c * c for c in counts.values()) if self.squares else 0
            best = max(best, squares + self.set_bonus * sets)
        return best

    def winners(self, state: State, scores: list[dict]) -> list[int]:
        """The seats with the best total, then the best tie-break counters; several if still tied."""
        return self.winners_by_totals(state, [score["total"] for score in scores])

    def winners_by_totals(self, state: State, totals: list[int]) -> list[int]:
        """`winners` by the seats' totals alone (`totals`, cheaper than `scores`)."""
        def rank(seat):
            return (totals[seat],) + tuple(
                state.stages(seat) if c == STAGES else state.counter(seat, c) for c in self.tie_break)
        best = max(rank(s) for s in range(len(totals)))
        return [s for s in range(len(totals)) if rank(s) == best]


def _counted(state: State, seat: int, verb: str | None = None) -> Iterable[Owned]:
    """The seat's held effects the scoring counts (those running `verb`, if named): without a
    trigger or `at end`, their condition holding; one limited `once per player` once, however many
    pieces carry it."""
    once = set()
    for owned in state.players[seat].lasting:
        effect = owned.effect
        if verb is not None and verb not in effect.verbs or effect.trigger not in (None, END):
            continue
        if not effect.applies(state, seat):
            continue
        if effect.limit == "player":
            if owned.key in once:
                continue
            once.add(owned.key)
        yield owned


def by_count(table: tuple[int, ...], tokens: list[tuple[str, int, int]], kinds: tuple[str, ...]) -> int:
    """The points a table by count gives (`value: [2, 5, 10]`: 2 for one token, 5 for two, 10 for
    three or more; none for none)."""
    held = sum(1 for k, _, _ in tokens if k in kinds)
    return table[min(held, len(table)) - 1] if held else 0


def _points(effect, counter: str) -> tuple:
    """(condition, fixed points, amounts read from the position) of an effect's gains of the
    score counter."""
    gains = [a.args.amount for a in effect.actions if a.verb == "gain" and a.args.counter == counter]
    fixed = sum(a.value for a in gains if isinstance(a, Fixed))
    return effect.condition, fixed, tuple(a for a in gains if not isinstance(a, Fixed))

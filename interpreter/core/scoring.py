"""Final scores, by the categories that `scoring:` in rules.yaml lists, and the winners.

Points are gains of the score counter (`vp 3`, `vp 1 per brown card in left, right`), counted at the
end; each lands in the category of its piece's colour. Choices left to the end (a wild science
symbol, a copied card) are made to the player's best.
"""

from __future__ import annotations

from collections import Counter
from itertools import product
from typing import Iterable

from ..packs.catalogue import STAGE, Piece
from .context import COPY_STAGE
from .events import END
from .state import State

COPY = "copy"  # the verb copying a neighbour's card at the end
OTHER = "other"  # points from a piece whose colour no category claims
STAGES = "stages"  # as a tie-break: the number of built stages


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

    def scores(self, state: State) -> list[dict]:
        return [self.score(state, seat) for seat in range(len(state.players))]

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
        if not self.game.verbs & {COPY, COPY_STAGE}:  # no pack copies: one choice, nothing copied
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
        once = set()  # effects limited `once per player` count once, however many pieces carry them
        for owned in player.lasting:
            effect = owned.effect
            if effect.trigger not in (None, "end") or not effect.applies(state, seat):
                continue
            if effect.limit == "player":
                if owned.key in once:
                    continue
                once.add(owned.key)
            for action in effect.actions:
                if action.verb == "gain" and action.args.counter == self.counter:
                    category = self.by_colour.get(owned.piece.colour, OTHER)
                    points[category] = points.get(category, 0) + action.args.amount(state, seat)
        for piece in player.zones.get(self.game.build_zone, ()):  # points printed on pieces (boxes)
            if piece.points:
                category = self.by_colour.get(piece.colour, OTHER)
                points[category] = points.get(category, 0) + piece.points
        for colour, value in player.banked:
            category = self.by_colour.get(colour, OTHER)
            points[category] = points.get(category, 0) + value
        for category in self.categories:
            name = category.name
            if category.how == "tokens":
                points[name] += sum(v for k, v, _ in player.tokens if k in category.names)
            elif category.how == "science":
                points[name] += self.science(player.symbols)
            elif category.how == "effect":
                points[name] += sum(a.args.amount(state, seat) for e in category.effects
                                    if e.applies(state, seat) for a in e.actions
                                    if a.verb == "gain" and a.args.counter == self.counter)
        return points

    def science(self, symbols: list[tuple[str, ...]]) -> int:
        """Squares per symbol (`science.per_symbol: square`) plus a bonus per full set
        (`set_bonus`), each choice made to the best."""
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
        def rank(seat):
            return (scores[seat]["total"],) + tuple(
                state.stages(seat) if c == STAGES else state.counter(seat, c) for c in self.tie_break)
        best = max(rank(s) for s in range(len(scores)))
        return [s for s in range(len(scores)) if rank(s) == best]

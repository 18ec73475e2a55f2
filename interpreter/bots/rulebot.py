"""Playing a bot written as data (botfile.py): the first rule that matches a legal action chooses.

A rule matches the legal actions of its verb whose piece passes its card filter, when its `if:`
holds on the bot's position, keeping those whose change passes `gives:` and, among them, those
with the best values of `best:` after the action; ties go to the bot's generator. When no rule
matches, any legal action, uniformly. Positions are those of the bot's view (view.py): a
determinization (`sample`) before acting and `preview` after, of which only the bot's own parts
and what is public are read.
"""

from __future__ import annotations

import random
import weakref
from collections import Counter
from typing import Any, Iterable, Sequence

from ..core.actions import Action
from ..core.state import State
from ..packs.catalogue import Piece
from .botfile import BotSpec, Rule
from .botwords import WORDS


class Position:
    """A position as the effect language's `Context` reads it, the bot words counted too."""

    def __init__(self, state: State):
        self.state = state

    def seats(self, me: int, selector: str) -> Sequence[int]:
        return self.state.seats(me, selector)

    def cards(self, seat: int, zone: str | None) -> Iterable[Any]:
        return self.state.cards(seat, zone)

    def stages(self, seat: int) -> int:
        return self.state.stages(seat)

    def tokens(self, seat: int, kind: str, period: str | None) -> int:
        return self.state.tokens(seat, kind, period)

    def boxes(self, seat: int, building, die, tags, period) -> int:
        return self.state.boxes(seat, building, die, tags, period)

    def counter(self, seat: int, name: str) -> int:
        word = WORDS.get(name)
        return word.count(self.state, seat) if word is not None else self.state.counter(seat, name)

    def player_count(self) -> int:
        return self.state.player_count()

    def complete(self, seat: int, name: str) -> bool:
        return self.state.complete(seat, name)


class Change:
    """What an action changes, as a `Context`: every count is the count after less the count
    before, the cards are those that came in, a building is complete when it became so."""

    def __init__(self, before: State, after: State):
        self.before, self.after = Position(before), Position(after)

    def seats(self, me: int, selector: str) -> Sequence[int]:
        return self.after.seats(me, selector)

    def cards(self, seat: int, zone: str | None) -> list:
        return arrived(self.before.cards(seat, zone), self.after.cards(seat, zone))

    def stages(self, seat: int) -> int:
        return self.after.stages(seat) - self.before.stages(seat)

    def tokens(self, seat: int, kind: str, period: str | None) -> int:
        return self.after.tokens(seat, kind, period) - self.before.tokens(seat, kind, period)

    def boxes(self, seat: int, building, die, tags, period) -> int:
        return self.after.boxes(seat, building, die, tags, period) - self.before.boxes(seat, building, die, tags, period)

    def counter(self, seat: int, name: str) -> int:
        return self.after.counter(seat, name) - self.before.counter(seat, name)

    def player_count(self) -> int:
        return self.after.player_count()

    def complete(self, seat: int, name: str) -> bool:
        return self.after.complete(seat, name) and not self.before.complete(seat, name)


def arrived(before: Iterable[Piece], after: Iterable[Piece]) -> list[Piece]:
    """The pieces of `after` beyond those of `before` (by id, copies counted)."""
    left = Counter(p.id for p in before)
    out = []
    for piece in after:
        if left[piece.id]:
            left[piece.id] -= 1
        else:
            out.append(piece)
    return out


class RuleBot:
    """A bot of a bot file, played as `bot(view, rng) -> Action`."""

    def __init__(self, spec: BotSpec):
        self.spec = spec

    def __call__(self, view, rng: random.Random) -> Action:
        turn = _Turn(view, rng)
        for rule in self.spec.rules:
            chosen = turn.matches(rule)
            if chosen:
                return chosen[rng.randrange(len(chosen))]
        return view.actions[rng.randrange(len(view.actions))]  # no rule matched: any legal action

    def __repr__(self) -> str:
        return f"RuleBot({self.spec.id})"


class _Turn:
    """One decision: the positions before and after each action, each computed once, when asked.
    An action bringing what the bot cannot see (a card taken face down) has several positions
    after it (`View.previews`): it passes a filter or `gives:` only if it does on each, and its
    `best:` values are their means."""

    def __init__(self, view, rng: random.Random):
        self.view, self.rng, self.seat = view, rng, view.seat
        self._before: State | None = None
        self._after: dict[Action, list[State]] = {}

    @property
    def before(self) -> State:
        if self._before is None:
            self._before = self.view.sample(self.rng)
        return self._before

    def after(self, action: Action) -> list[State]:
        found = self._after.get(action)
        if found is None:
            found = self._after[action] = self.view.previews(action)
        return found

    def matches(self, rule: Rule) -> list[Action]:
        """The legal actions the rule would choose among (none: it does not fire)."""
        seat = self.seat
        if rule.when is not None and not rule.when(Position(self.before), seat):
            return []
        found = [a for a in self.view.actions if a.verb == rule.verb and
                 (rule.cards is None or all(any(rule.cards(p) for p in pieces) for pieces in self.pieces(a)))]
        if rule.gives is not None:
            found = [a for a in found if all(rule.gives(Change(self.before, after), seat) for after in self.after(a))]
        if rule.best and len(found) > 1:
            values = {a: tuple(sum(n(Position(after), seat) for after in self.after(a)) / len(self.after(a))
                               for n in rule.best) for a in found}
            top = max(values.values())
            found = [a for a in found if values[a] == top]
        return found

    def pieces(self, action: Action) -> list[list[Piece]]:
        """What an action is about, on each position after it: the piece it names (a card, a
        token), else those it brings into the bot's city (a card taken unseen, a box checked)."""
        named = _catalogue(self.before).get(action.card) if action.card is not None else None
        if named is not None:
            return [[named]]
        mine = self.before.cards(self.seat, None)
        return [arrived(mine, after.cards(self.seat, None)) for after in self.after(action)]


_PIECES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # game -> its pieces by id


def _catalogue(state: State) -> dict[str, Piece]:
    """Every card and other piece of a game by id, made once per game."""
    game = state.game
    index = _PIECES.get(game)
    if index is None:
        catalogue = game.catalogue
        index = dict(catalogue.cards)
        for pieces in catalogue.others.values():
            index.update(pieces)
        _PIECES[game] = index
    return index

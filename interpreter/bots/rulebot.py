"""Playing a bot written as data (botfile.py): the first rule that matches a legal action chooses.

A rule matches the legal actions of its verb whose piece passes its card filter, when its `if:`
holds on the bot's position, keeping those whose change passes `gives:` and, among them, those
with the best values of `best:` after the action; ties go to the bot's generator. When no rule
matches, any legal action, uniformly. Positions are those of the bot's view (view.py): its
determinization before acting and `preview` after, of which only the bot's own parts and what is
public are read.
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

    def produced(self, seat: int, resource: str) -> int:
        return self.state.produced(seat, resource)

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

    def produced(self, seat: int, resource: str) -> int:
        return self.after.produced(seat, resource) - self.before.produced(seat, resource)

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
        turn = _Turn(view)
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
    after it (`View.previews`): it passes a filter or `gives:` only if it does on each (the
    others are made only when it does on the first), and its `best:` values are their means."""

    def __init__(self, view):
        self.view, self.seat = view, view.seat
        self.before = view.position  # the determinization the first position after each action starts from
        self._first: dict[Action, State] = {}
        self._after: dict[Action, list[State]] = {}

    def first(self, action: Action) -> State:
        """The position after the action on the view's own determinization."""
        found = self._first.get(action)
        if found is None:
            found = self._first[action] = self.view.preview(action)
        return found

    def after(self, action: Action) -> list[State]:
        """Every position after the action: the first, then the other guesses of what it brings."""
        found = self._after.get(action)
        if found is None:
            guesses = self.view.previews(action)[1:] if action.card is None else []
            found = self._after[action] = [self.first(action)] + guesses
        return found

    def matches(self, rule: Rule) -> list[Action]:
        """The legal actions the rule would choose among (none: it does not fire)."""
        seat = self.seat
        if rule.when is not None and not rule.when(Position(self.before), seat):
            return []
        found = [a for a in self.view.actions if a.verb == rule.verb and self.passes(rule, a)]
        if rule.best and len(found) > 1:
            values = {a: tuple(sum(n(Position(after), seat) for after in self.after(a)) / len(self.after(a))
                               for n in rule.best) for a in found}
            top = max(values.values())
            found = [a for a in found if values[a] == top]
        return found

    def passes(self, rule: Rule, action: Action) -> bool:
        """Whether the action's piece passes the rule's filter and its change `gives:`, on each
        position after it."""
        named = _catalogue(self.before).get(action.card) if action.card is not None else None
        cards = rule.cards
        if named is not None and cards is not None:
            if not cards(named):
                return False
            cards = None  # passed, whatever the position
        if cards is None and rule.gives is None:
            return True
        return self.holds(rule, cards, action, [self.first(action)]) and \
            self.holds(rule, cards, action, self.after(action)[1:])

    def holds(self, rule: Rule, cards, action: Action, afters: list[State]) -> bool:
        """On each of these positions after the action, what it brought passes `cards` (when
        given) and its change passes the rule's `gives:`."""
        seat = self.seat
        for after in afters:
            if cards is not None and not any(cards(p) for p in arrived(self.before.cards(seat, None),
                                                                      after.cards(seat, None))):
                return False
            if rule.gives is not None and not rule.gives(Change(self.before, after), seat):
                return False
        return True


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

"""Static checks of parsed effects and costs against a pack's vocabulary.

Every name is looked up among the kinds its place in a sentence allows; a name of
another kind is a type error, an unknown one gets a did-you-mean. Numbers are
checked for values no game could use.
"""

from __future__ import annotations

import re
from typing import Iterator

import attrs

from . import ast
from .diagnostics import DslError, did_you_mean, one_of
from .limits import MAX_SET_PLACES
from .parser import first_word_hint
from .vocabulary import ANY, CHOSEN, COUNTED, HIT, KINDS, SELF, SIDES, WATCHED, WONDER, Vocabulary

TRADING = ("buy", "sell")  # doings whose own trigger sees the other side of the trade as `chosen`

# The error code for an unknown name, by the first kind its place allows.
_CODES = {
    "resource": "E-DSL-RESOURCE", "resource_class": "E-DSL-RESOURCE", "colour": "E-DSL-COLOUR",
    "card": "E-DSL-COLOUR", "player_zone": "E-DSL-ZONE", "shared_zone": "E-DSL-ZONE",
    "building": "E-DSL-ZONE", "selector": "E-DSL-SELECTOR", "symbol": "E-DSL-SYMBOL",
    "counter": "E-DSL-VERB",
}


# First words designers guess for a gain or a loss (`gain 3 coins`, `lose 2 coins`): the
# language writes the counter first and the amount after it, negative for a loss.
_LOSS_WORDS = frozenset({"lose", "pay", "remove", "minus", "subtract", "discard"})


def unknown_first_word(err: DslError, vocab: Vocabulary) -> DslError | None:
    """A parse error whose sentence starts with a word that is neither a verb nor one of the
    pack's counters (`gain 3 coins`), as an unknown first word at that word: the nearest verbs
    and counters, the right form when the rest reads as an amount and a counter, and the verbs
    a sentence may start with. None when the first word is a counter (the parse error stands)."""
    if not err.first_word or vocab.resolve(err.first_word[0], "counter"):
        return None
    word, span = err.first_word
    return DslError("E-DSL-VERB", f"unknown verb or counter '{word}'", span,
                    first_word_hint(word, vocab.all("counter"), _right_form(word, err.action_text, vocab)))


_AMOUNT = re.compile(r"-?[0-9]{1,9}")  # an amount as the language writes one (ASCII digits, bounded)


def _right_form(word: str, action: str, vocab: Vocabulary) -> str | None:
    """`coins 3` for `gain 3 coins` (`coins -2` for `lose 2 coins`), keeping what follows; `coins
    -1 to others` for `others coins -1`."""
    parts = action.split(None, 3)
    if word in HIT and len(parts) >= 3 and _AMOUNT.fullmatch(parts[2]) and vocab.resolve(parts[1], "counter"):
        rest = f" {parts[3]}" if len(parts) > 3 else ""
        form = f"{parts[1]} {parts[2]}{rest} to {word}"
        return form if len(form) <= 60 else f"{parts[1]} {parts[2]} ... to {word}"
    if len(parts) < 3 or not _AMOUNT.fullmatch(parts[1]):
        return None
    if vocab.resolve(parts[2], "counter") is None:
        return None
    counter = parts[2]  # as the author wrote it (`coins`, `coin`): both name the counter
    amount = int(parts[1])
    if word in _LOSS_WORDS and amount > 0:
        amount = -amount
    rest = f" {parts[3]}" if len(parts) > 3 else ""
    form = f"{counter} {amount}{rest}"
    return form if len(form) <= 60 else f"{counter} {amount} ..."


def check_effects(effects: ast.Effects, vocab: Vocabulary) -> list[DslError]:
    """All errors in an `effect:` field; empty when it is sound."""
    return list(_Checker(vocab).effects(effects))


def check_cost(cost: ast.Cost, vocab: Vocabulary) -> list[DslError]:
    """All errors in a `cost:` field; empty when it is sound."""
    return list(_Checker(vocab, in_cost=True).cost(cost))


def check_condition(condition, vocab: Vocabulary) -> list[DslError]:
    """All errors in a condition (a medal's objective)."""
    return list(_Checker(vocab).condition(condition))


def check_count(count: ast.Count, vocab: Vocabulary) -> list[DslError]:
    """All errors in a count (a bot's value to maximise)."""
    return list(_Checker(vocab).count(count))


def check_card_filter(card_filter: ast.CardFilter, vocab: Vocabulary) -> list[DslError]:
    """All errors in a card filter (a bot's rule)."""
    return list(_Checker(vocab).card_filter(card_filter))


class _Checker:
    """Checks of names, numbers and the shared parts of sentences; a verb checks itself with them
    (`Verb.check`, dsl/verbs.py)."""

    def __init__(self, vocab: Vocabulary, in_cost: bool = False):
        self.vocab = vocab
        self.in_cost = in_cost  # a `cost:` field: its counts lower a term (`5 coins minus yellow card`)
        self.event: str | None = None  # the trigger's event of the sentence being checked

    # -- names and numbers
    def name(self, name: ast.Name, *kinds: str, extra: tuple[str, ...] = ()) -> Iterator[DslError]:
        word = name.text
        if word in extra or self.vocab.resolve(word, *kinds):
            return
        wanted = " or ".join(KINDS[k] for k in kinds)
        other = self.vocab.kind_of(word)
        if other and other not in kinds:
            yield DslError("E-DSL-TYPE", f"'{word}' is a {KINDS[other]}, not a {wanted}", name.span,
                           f"expected a {wanted}: {one_of(self.vocab.all(*kinds) | set(extra))}")
            return
        code = _CODES.get(kinds[0], "E-DSL-NAME")
        choices = self.vocab.all(*kinds) | set(extra)
        if code == "E-DSL-VERB":
            yield DslError(code, f"unknown verb or counter '{word}'", name.span, first_word_hint(word, choices))
            return
        hint = did_you_mean(word, choices) or f"known: {one_of(choices) or 'none'}"
        if kinds[0] == "token":
            hint += f" (a pack declares token kinds of its own under rules.yaml `tokens:`, as '{word}: {{value: -1}}')"
        yield DslError(code, f"unknown {wanted} '{word}'", name.span, hint)

    def names(self, names: ast.Names, *kinds: str, extra: tuple[str, ...] = ()) -> Iterator[DslError]:
        for n in names:
            yield from self.name(n, *kinds, extra=extra)

    @staticmethod
    def at_least(value: int, low: int, what: str, node) -> Iterator[DslError]:
        if value < low:
            yield DslError("E-DSL-VALUE", f"{what} must be at least {low}, not {value}", node.span, needle=str(value))

    # -- structure
    def effects(self, effects: ast.Effects) -> Iterator[DslError]:
        for effect in effects.items:
            yield from self.effect(effect)

    def effect(self, e: ast.Effect) -> Iterator[DslError]:
        self.event = e.trigger.event if e.trigger is not None else None
        if e.trigger is not None:
            yield from self.trigger(e.trigger)
        for action in e.actions:
            yield from action.check(self)
        if e.condition is not None:
            yield from self.condition(e.condition)
        if e.limit is not None:
            yield from self.name(e.limit, "period")
        yield from self.chosen(e)

    def chosen(self, e: ast.Effect) -> Iterator[DslError]:
        """`chosen` names the player an earlier action of the same sentence chose (`take card from
        city of opponent`), or the player a trigger saw act (`on left take ...`); the condition is
        read before any action."""
        chose = e.trigger is not None and (e.trigger.who is not None or e.trigger.event in TRADING)
        for part in ((e.condition,) if e.condition is not None else ()) + e.actions:
            for name in _names(part):
                if not chose and self.vocab.resolve(name.text, "selector") == CHOSEN:
                    yield DslError("E-DSL-SELECTOR", "'chosen' names the player chosen earlier in the same "
                                   "sentence, and nothing before it here chooses one", name.span,
                                   "choose one first, as 'take card from city of opponent then give top card of "
                                   "discard to chosen', or name the player (left, right, others...)")
            chose = chose or (part is not e.condition and part.chooses())

    def trigger(self, t: ast.Trigger) -> Iterator[DslError]:
        if t.who is not None:
            yield from self.watched(t.who)
        if t.filter is not None:
            yield from self.card_filter(t.filter)
        yield from self.names(t.dice, "die")
        for name in t.kinds:
            if t.event == "gain" and not self.vocab.kind_of(name.text):  # not said as a sentence's first word
                counters = self.vocab.all("counter")
                yield DslError("E-DSL-NAME", f"unknown counter '{name.text}' after 'gain'", name.span,
                               did_you_mean(name.text, counters) or f"counters: {one_of(counters) or 'none'}")
            else:
                yield from self.name(name, "counter" if t.event == "gain" else "token")
        if t.period is not None:
            yield from self.name(t.period, "period")

    def watched(self, who: ast.Name) -> Iterator[DslError]:
        """The players a trigger watches (`on left take ...`): a set fixed relative to the owner."""
        yield from self.players(who, WATCHED, "a trigger watches its owner when it names no players",
                                "leave 'self' out: 'on take red card:', 'on stage:'",
                                f"'{who.text}' names no players a trigger can watch: it watches players fixed "
                                "relative to its owner")

    def hit(self, who: ast.Name) -> Iterator[DslError]:
        """The players a gain goes to (`coins -1 to others`): fixed relative to the owner, or the
        sentence's `chosen` player (whether one was chosen: see `chosen`)."""
        yield from self.players(who, HIT, "a gain goes to its owner when it names no players", "leave 'to self' out",
                                f"'{who.text}' names a player to be chosen, and a gain chooses none",
                                "; or choose one first, as 'take card from city of opponent then coins -1 to chosen'")

    def players(self, who: ast.Name, allowed: tuple[str, ...], owner: str, owner_hint: str, other: str,
                other_hint: str = "") -> Iterator[DslError]:
        """A selector where only some fit (`allowed`): the owner alone (`self`) and the others
        are said so (`owner`, `other`), an unknown word gets a did-you-mean."""
        word, choices = self.vocab.resolve(who.text, "selector"), f"write one of: {', '.join(allowed)}"
        kind = self.vocab.kind_of(who.text)
        if word in allowed:
            return
        if word == SELF:
            yield DslError("E-DSL-SELECTOR", owner, who.span, owner_hint)
        elif word:
            yield DslError("E-DSL-SELECTOR", other, who.span, choices + other_hint)
        elif kind:
            yield DslError("E-DSL-TYPE", f"'{who.text}' is a {KINDS[kind]}, not a player selector", who.span, choices)
        else:
            yield DslError("E-DSL-SELECTOR", f"unknown player selector '{who.text}'", who.span,
                           did_you_mean(who.text, allowed) or choices)

    def card_filter(self, f: ast.CardFilter) -> Iterator[DslError]:
        for name in f.kinds:
            if name.text in ("chain", "chained") and not self.vocab.kind_of(name.text):
                yield DslError("E-DSL-COLOUR", f"'{name.text}' is no colour or card: a card built through its chain "
                               "is a doing, watched with 'on chain'", name.span,
                               "write 'on chain:', 'on chain red card:' or 'on left chain:'")
            else:
                yield from self.name(name, "colour", "card")
        yield from self.names(f.icons, "icon")

    def thing(self, t: ast.Thing) -> Iterator[DslError]:
        kinds = {"stage": (), "token": ("token",), "box": ("box_tag",), "icon": ("icon",), "science set": (),
                 "counter": ("counter", "pawn", "token", "resource")}[t.noun]
        if t.noun == "stage" and t.kinds:
            yield DslError("E-DSL-TYPE", "stages have no kinds: write 'stage'", t.span)
        for name in t.kinds if kinds else ():
            if t.noun == "counter" and not self.vocab.kind_of(name.text):
                yield self.unknown_counted(name, kinds)
            else:
                yield from self.name(name, *kinds)

    def unknown_counted(self, name: ast.Name, kinds: tuple[str, ...]) -> DslError:
        """An unknown word where a count names a counter: said as a count's (of a cost term, in a
        cost), not as a sentence's first word."""
        where = "the count of a cost term ('5 coins minus yellow card')" if self.in_cost else "a count"
        choices = self.vocab.all(*kinds)
        return DslError("E-DSL-VERB", f"unknown counter '{name.text}' in {where}", name.span,
                        did_you_mean(name.text, choices) or "count cards ('yellow card'), stages, tokens, boxes, "
                        f"icons or one of: {one_of(choices) or 'none'}")

    def place(self, p) -> Iterator[DslError]:
        if isinstance(p, ast.ShownBuilding):
            yield from self.name(p.die, "die")
        elif isinstance(p, ast.UnderStage):
            pass  # `under stage [of <owner>]`: the owner, below
        elif p.owner is None:
            yield from self.name(p.name, "selector", "player_zone", "building", extra=(WONDER,))
            if self.vocab.resolve(p.name.text, "selector"):
                yield from self.counted(p.name)
        else:
            yield from self.name(p.name, "player_zone", "building", extra=(WONDER,))
        if p.owner is not None:
            yield from self.name(p.owner, "selector")
            yield from self.counted(p.owner)

    def counted(self, who: ast.Name) -> Iterator[DslError]:
        """The players whose pieces a count adds up, or a comparison compares with: known players,
        never one still to be chosen (`any`, `opponent`), which a count cannot choose."""
        word = self.vocab.resolve(who.text, "selector")
        if word in COUNTED or word in (None, CHOSEN):  # unknown: reported as such; chosen: see `chosen`
            return
        yield DslError("E-DSL-SELECTOR", f"'{who.text}' names a player to be chosen, and a count chooses none",
                       who.span, f"count in one of: {', '.join(COUNTED)}; or 'chosen' after an action of the "
                       "same sentence that chose a player")

    def count(self, c: ast.Count) -> Iterator[DslError]:
        what = c.what
        if isinstance(what, ast.CardFilter):
            yield from self.card_filter(what)
        elif isinstance(what, ast.CardSet):
            yield from self.card_set(what)
        elif isinstance(what, ast.CostOf):
            yield from self.names(what.names, "resource", "counter")
            yield from self.card_filter(what.filter)
        else:
            yield from self.thing(what)
        for p in c.places:
            yield from self.place(p)
        if c.divisor is not None:
            yield from self.at_least(c.divisor, 1, "a count", c)
        yield from self.period(c)
        yield from self.where_counted(c)

    def card_set(self, s: ast.CardSet) -> Iterator[DslError]:
        for f in s.filters:
            yield from self.card_filter(f)
        if len(s.filters) > MAX_SET_PLACES:
            yield DslError("E-DSL-VALUE", f"a set of {len(s.filters)} cards: at most {MAX_SET_PLACES} can be counted",
                           s.span, "name fewer cards in the set, or count them apart")

    def where_counted(self, c: ast.Count) -> Iterator[DslError]:
        """Science symbols belong to a city, not to a zone; only cards lie under a stage."""
        science = isinstance(c.what, ast.Thing) and c.what.noun == "science set"
        for p in c.places:
            player = isinstance(p, ast.Place) and p.owner is None and self.vocab.resolve(p.name.text, "selector")
            if science and not player and not isinstance(p, ast.UnderStage):
                yield DslError("E-DSL-TYPE", "science sets are counted in players' cities, not in a zone", p.span,
                               "name players: 'science set in self, left'")
            if isinstance(p, ast.UnderStage) and isinstance(c.what, ast.Thing):
                yield DslError("E-DSL-TYPE", "only cards lie under a stage", p.span,
                               "count cards there: 'red card under stage', 'coin cost of card under stage'")

    def period(self, c: ast.Count) -> Iterator[DslError]:
        """`before this round` counts boxes, `from one battle` and (in `at battle:`) `from this battle`
        tokens: elsewhere they would mean nothing."""
        what = c.what
        if c.within is not None:
            yield from self.name(c.within, "period")
            if self.in_cost:
                yield DslError("E-DSL-TYPE", f"a cost reads the city as it stands: 'this {c.within.text}' counts "
                               "in a sentence only", c.span, "leave it out")
            elif not isinstance(what, ast.CardFilter) or not all(isinstance(p, ast.Place) and p.owner is None and
                                                                self.vocab.resolve(p.name.text, "selector") for p in c.places):
                yield DslError("E-DSL-TYPE", f"'this {c.within.text}' counts the cards come into players' cities "
                               "in that period", c.span, f"count cards in players (`red card in self, left this "
                               f"{c.within.text}`), or leave it out")
        if c.period == "before_round" and not (isinstance(what, ast.Thing) and what.noun == "box"):
            yield DslError("E-DSL-TYPE", "'before this round' counts boxes only", c.span,
                           "count boxes (`box in agora before this round`), or leave it out")
        tokens = isinstance(what, ast.Thing) and (what.noun == "token" or what.noun == "counter" and all(
            self.vocab.resolve(n.text, "token") for n in what.kinds))
        battle = {"one_battle": "from one battle", "this_battle": "from this battle"}.get(c.period)
        if battle and not tokens:
            yield DslError("E-DSL-TYPE", f"'{battle}' counts tokens only", c.span,
                           f"count tokens (`victory token {battle}`), or leave it out")
        elif c.period == "this_battle" and self.event != "battle":
            yield DslError("E-DSL-EVENT", "'from this battle' counts the tokens of the battle just fought, "
                           "and only an `at battle:` sentence runs then", c.span,
                           "write it after `at battle:`, or count `from one battle` (the most won in one)")
        elif c.period == "one_battle" and self.event == "battle":
            yield DslError("E-DSL-TYPE", "in an `at battle:` sentence, 'from one battle' counts the most tokens "
                           "won in any one battle so far, not in this one", c.span,
                           "write 'from this battle' for the battle just fought")

    def amount(self, a: ast.Amount) -> Iterator[DslError]:
        if a.count is not None:
            yield from self.count(a.count)

    def zones(self, zones: ast.Zones) -> Iterator[DslError]:
        for z in zones:
            if z.owner is None:
                yield from self.name(z.name, "shared_zone", "player_zone")
                if self.vocab.resolve(z.name.text, "player_zone") and not self.vocab.resolve(z.name.text, "shared_zone"):
                    yield DslError("E-DSL-ZONE", f"'{z.name.text}' belongs to a player: say whose",
                                   z.span, f"write '{z.name.text} of self' (or left, right, ...)")
            else:
                yield from self.name(z.name, "player_zone")
                yield from self.name(z.owner, "selector")

    def sides(self, sides: ast.Names) -> Iterator[DslError]:
        for s in sides:
            if s.text not in SIDES:
                yield from self.name(s, "selector")
                if self.vocab.resolve(s.text, "selector"):
                    yield DslError("E-DSL-SELECTOR", f"'{s.text}' is not a neighbour", s.span,
                                   f"write one of: {', '.join(SIDES)}")

    # -- conditions
    def condition(self, c) -> Iterator[DslError]:
        if isinstance(c, (ast.AllOf, ast.AnyOf)):
            for item in c.items:
                yield from self.condition(item)
        elif isinstance(c, ast.AtLeast):
            yield from self.count(c.count)
        elif isinstance(c, ast.Compare):
            yield from self.count(c.count)
            yield from self.names(c.sides, "selector")
            for side in c.sides:
                yield from self.counted(side)
        elif isinstance(c, ast.Bound):
            yield from self.count(c.count)
        elif isinstance(c, ast.Players):
            yield from self.at_least(c.value, 1, "a number of players", c)
        elif isinstance(c, ast.Complete):
            yield from self.name(c.name, "building", extra=(WONDER,))

    # -- costs
    def cost(self, cost: ast.Cost) -> Iterator[DslError]:
        named: dict[str, ast.CostTerm] = {}
        for term in cost.terms:
            yield from self.at_least(term.count, 1, "a cost", term)
            if term.name is not None:
                yield from self.cost_name(term)
            if term.less is not None:
                yield from self.count(term.less)
                yield from self.unchosen(term.less)
            key = term.kind or self.vocab.resolve(term.name.text, "resource", "counter") or term.name.text
            first = named.setdefault(key, term)
            if first is not term and (term.less is not None or first.less is not None):
                # one term per name when one varies: which of them the count lowers would be unclear
                yield DslError("E-DSL-VALUE", f"'{key}' has two terms in this cost, and one of them varies",
                               term.span, f"write one term for '{key}', as '5 coins minus yellow card'")

    def unchosen(self, count: ast.Count) -> Iterator[DslError]:
        """`chosen` in a cost's count: no action of a cost chooses a player."""
        for name in _names(count):
            if self.vocab.resolve(name.text, "selector") == CHOSEN:
                yield DslError("E-DSL-SELECTOR", "'chosen' names the player an earlier action of the same sentence "
                               "chose, and a cost has no action", name.span, f"count in one of: {', '.join(COUNTED)}")

    def cost_name(self, term: ast.CostTerm) -> Iterator[DslError]:
        word = term.name.text
        if word == ANY or self.vocab.resolve(word, "resource", "counter") or self.vocab.kind_of(word):
            yield from self.name(term.name, "resource", "counter", extra=(ANY,))  # fine, or a type error
            return
        after = f" after '{term.count}'" if term.count != 1 else ""
        choices = self.vocab.all("resource", "counter")
        yield DslError("E-DSL-PARSE", f"expected a resource{after}, found '{word}'", term.name.span,
                       did_you_mean(word, choices) or f"resources: {one_of(self.vocab.all('resource'))}")


def _names(node) -> Iterator[ast.Name]:
    """Every name written in a part of a sentence."""
    if isinstance(node, ast.Name):
        yield node
    elif isinstance(node, tuple):
        for item in node:
            yield from _names(item)
    elif attrs.has(type(node)) and not isinstance(node, ast.Span):
        for field in attrs.fields(type(node)):
            yield from _names(getattr(node, field.name))

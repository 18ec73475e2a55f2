"""The names an effect may use, by kind.

A pack declares its words (resources, colours, counters, zones...) in `rules.yaml`
and its components add their ids (cards, dice, buildings). The engine's own words
(player selectors, periods, cost kinds) are mechanisms, listed here once.
"""

from __future__ import annotations

from typing import Iterable, Mapping

import attrs

# Engine words: who an effect looks at or acts on.
SELECTORS = ("self", "left", "right", "neighbours", "all", "others", "opponent", "any", "chosen")
SIDES = ("left", "right", "neighbours")  # the players one trades with or copies from
WATCHED = ("left", "right", "neighbours", "others", "all")  # the players a trigger may watch (`on left stage`)
HIT = WATCHED + ("chosen",)  # the players a gain may go to (`coins -1 to others`)
COUNTED = ("self", "left", "right", "neighbours", "all", "others")  # whose pieces a count may add up
ENGINE_PERIODS = ("turn", "round", "game", "player")
COST_KINDS = ("different", "identical")
CHOSEN = "chosen"  # the player an earlier action of the same sentence chose
SELF = "self"  # the player an effect belongs to
ANY = "any"  # `science any`, `produce any`: a free choice among all of the kind
WONDER = "wonder"  # `wonder complete`, `box in wonder`: every player's own wonder

# Kinds of names, and how an error calls them.
KINDS = {
    "resource": "resource",
    "resource_class": "resource class",
    "colour": "colour",
    "symbol": "science symbol",
    "counter": "counter",
    "token": "token kind",
    "icon": "icon",
    "pawn": "pawn",
    "player_zone": "player zone",
    "shared_zone": "shared zone",
    "period": "period",
    "card": "card",
    "die": "die",
    "building": "building",
    "box_tag": "box kind",
    "selector": "player selector",
    "cost_kind": "cost kind",
}


def word_forms(word: str) -> tuple[str, ...]:
    """The word and its possible singulars, or its plural, so `coin`, `coins` and `boxes` all
    resolve. A word ending in s gets no plural: `compas` must not pass for `compass`."""
    if not word.endswith("s"):
        return (word, word + "s")
    return (word, word[:-1]) + ((word[:-2],) if word.endswith("es") else ())


@attrs.frozen
class Vocabulary:
    """Names by kind (see `KINDS`); `resolve` finds the canonical name of a word."""

    names: Mapping[str, frozenset[str]]

    @classmethod
    def build(cls, **kinds: Iterable[str]) -> "Vocabulary":
        """A vocabulary from iterables of names by kind, with the engine's words added."""
        names = {kind: frozenset(kinds.get(kind, ())) for kind in KINDS}
        names["selector"] = frozenset(SELECTORS)
        names["period"] = names["period"] | frozenset(ENGINE_PERIODS)
        names["cost_kind"] = frozenset(COST_KINDS)
        return cls(names)

    def resolve(self, word: str, *kinds: str) -> str | None:
        """The canonical name of `word` among these kinds, or None."""
        for form in word_forms(word):
            for kind in kinds:
                if form in self.names[kind]:
                    return form
        return None

    def kind_of(self, word: str) -> str | None:
        """The first kind that knows `word`, for 'x is a colour, not a resource' messages."""
        for kind in KINDS:
            if self.resolve(word, kind):
                return kind
        return None

    def all(self, *kinds: str) -> set[str]:
        """Every name of these kinds."""
        return set().union(*(self.names[k] for k in kinds))

"""Every flow, declared once: the only place that names a flow kind (`flow.kind` in rules.yaml).

A declaration says what a flow is to the rest of the engine and the tools: its class and the class
reading its `flow:` section, the events it fires, what it provides beyond what every game has (so
the verbs that need it run: dsl/verbs.py `needs`), the verbs it uses as powers, the rules.yaml keys
it reads beyond the core's (`rules.CORE_KEYS`), what a scenario gives a player of it, and its bound
on a game's length. `check`, `scenario`, `simulate`, the screens and the bench ask the declaration;
nothing else branches on a flow's kind.
"""

from __future__ import annotations

from typing import Callable, NamedTuple

import attrs

from ...dsl.verbs import VERBS
from ..core.events import EVENTS
from .draft import Draft, DraftRules
from .rolls import Rolls, RollsRules
from .turns import Turns, TurnsRules

# Events every flow fires; the draft's own: buying from neighbours, a card built through its chain, a discard.
DRAFT_EVENTS = frozenset({"buy", "sell", "chain", "discard"})
CORE_EVENTS = frozenset(EVENTS) - {"choose_die"} - DRAFT_EVENTS
# The verbs of the actions answering the choices every flow offers (decisions.py): a card taken
# from the top of a zone or from where it lies (`look`: the zone whose top cards to take from), a
# token taken, a card built free, a side of a choice between effects.
CORE_ACTIONS = frozenset({"take", "look", "token", "build", "choice"})
# What a flow may provide beyond what every game has (`FlowKind.provides`, dsl/verbs.py `needs`), as
# `check` says it when a verb needs it.
PROVISIONS = {"trade": "buying from neighbours", "hands": "hands of cards", "spent cards": "costs paid with cards",
              "boxes": "boards of boxes", "dice": "dice", "stages": "wonder boards with stages (not buildings of boxes)",
              "tucked": "cards tucked under wonder stages", "coin purchases": "resources bought for coins"}


class Arranged(NamedTuple):
    """What a flow's `arrange` builds a position from: the plain fields of the scenario schema it
    reads (the annotated ones apply wherever the pack's data has what they name), what `holding`
    parts it takes (stages as the numbers built)."""

    fields: tuple[str, ...]
    takes: frozenset[str]
    unique_cards: bool = False      # a city never holds two cards of one name


def _length(game) -> int:
    """No game of the family needs more than a few actions per card; past this, something loops."""
    return 20 * (sum(len(c.copies) + 1 for c in game.catalogue.cards.values()) * game.players + 100)


@attrs.frozen
class FlowKind:
    """One flow, as the engine and the tools know it."""

    name: str
    flow: type
    rules: type
    summary: str
    events: frozenset[str]
    provides: frozenset[str]
    reads: tuple[str, ...]
    scenario: Arranged
    length: Callable = _length
    powers: frozenset[str] = frozenset()  # verbs it uses as powers (`... once per age` with no trigger)
    costs: frozenset[str] = frozenset({"resources"})  # the terms of a cost it pays: resources, counters, kinds
    pays: frozenset[str] = frozenset()    # the kinds of components whose costs it pays (`check` refuses others')
    spent_production: bool = False        # resources are paid by spending the cards that produce them
    resource_kinds: bool = True           # a cost's resources are told apart (else only how many count)
    fixed_city: bool = False              # what enters a city stays there (checked boxes)
    spent_at_round_end: str = ""          # what an extra action would act with, spent when a round ends
    moves: frozenset[str] = frozenset()   # the verbs of its own actions and of the choices only it offers, for bots

    @property
    def actions(self) -> frozenset[str]:
        """Every verb an action of a game of this flow may have: its own and the decisions'."""
        return self.moves | CORE_ACTIONS

    @property
    def verbs(self) -> frozenset[str]:
        """The verbs it runs: those that need nothing it does not provide."""
        return frozenset(name for name, verb in VERBS.items() if verb.needs <= self.provides)


DRAFT = FlowKind(
    "draft", Draft, DraftRules,
    "all players pick a card of their hand at once, then the hands pass on",
    CORE_EVENTS | DRAFT_EVENTS, frozenset({"trade", "hands", "stages", "tucked", "coin purchases"}),
    ("flow.rounds", "flow.hand_size", "flow.turns_per_round", "flow.hand_zone", "flow.discard", "flow.prelude",
     "flow.recruit", "setup.wonders",
     "setup.sides", "setup.random_cards", "trade"),
    Arranged(("name", "wonder", "side", "stages", "under_stages", "copies", "cards", "kept", "military", "conflicts"),
             frozenset({"counters", "tokens"}),
             unique_cards=True),
    powers=frozenset({"build_free", "stage_free", "play_last"}),
    costs=frozenset({"resources", "counters"}),
    pays=frozenset({"cards", "wonders"}),
    spent_at_round_end="the hands",
    moves=frozenset({"build", "stage", "discard", "copy"}),
)
TURNS = FlowKind(
    "turns", Turns, TurnsRules,
    "one player at a time, clockwise",
    CORE_EVENTS, frozenset({"spent cards", "stages"}),
    ("flow.turn", "flow.stages", "flow.end", "setup.wonders", "setup.sides", "setup.wonder_decks",
     "science.sets", "science.reward"),
    Arranged(("name", "wonder", "stages", "copies", "cards", "conflicts"),
             frozenset({"counters", "tokens", "pieces", "pawns"})),
    powers=frozenset({"produce", "ignore", "spend_as"}),
    costs=frozenset({"resources", "kinds"}),
    pays=frozenset({"wonders"}),  # cards are taken, never bought
    spent_production=True,
    moves=frozenset({"take", "stage", "token", "set", "copy"}),
)
ROLLS = FlowKind(
    "rolls", Rolls, RollsRules,
    "the Forum's dice are rolled each round, then all players act at once",
    CORE_EVENTS | {"choose_die"}, frozenset({"boxes", "dice", "coin purchases"}),
    ("flow.currency", "flow.slots", "flow.missing_resource", "flow.pass", "flow.replaces", "flow.end",
     "setup.boards", "bonuses"),
    Arranged(("name",), frozenset({"counters", "city", "checked", "unlocked", "bonuses", "firsts", "tokens"})),
    costs=frozenset({"resources", "kinds"}),
    pays=frozenset({"buildings", "boards"}),  # the boxes checked
    resource_kinds=False,
    fixed_city=True,
    spent_at_round_end="the round's dice",
    moves=frozenset({"check", "pass", "skip", "bonus"}),
)

FLOWS: dict[str, FlowKind] = {kind.name: kind for kind in (DRAFT, TURNS, ROLLS)}

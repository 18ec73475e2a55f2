"""The words a bot file adds to the effect language, in one registry: what a position holds for
one seat that the language does not count (its score, its production, its science symbols).

A bot file's conditions and values use them as counters (`gives: 2 production`, `best: points`);
checking knows them by this table (`vocabulary`), playing counts them with it (rulebot.py). A word
of a pack's own vocabulary with the same name is hidden in bot files.
"""

from __future__ import annotations

from typing import Callable

import attrs

from ...dsl.vocabulary import Vocabulary
from ..core.state import State


@attrs.frozen
class BotWord:
    """One word: its name, what it means (docs/bots.md lists these), and how it is counted."""

    name: str
    means: str
    count: Callable[[State, int], int]


def _resources(state: State, seat: int) -> int:
    return len({r for unit in state.players[seat].units for r in unit})


WORDS: dict[str, BotWord] = {w.name: w for w in (
    BotWord("points", "the seat's score as the pack's scoring counts it, as if the game ended now",
            lambda state, seat: state.game.scoring.score(state, seat)["total"]),
    BotWord("production", "units of resources the city makes (a choice among several is one unit)",
            lambda state, seat: len(state.players[seat].units)),
    BotWord("resource_kind", "different resources the city can make",
            _resources),
    BotWord("symbol", "science symbols held (a choice among several is one)",
            lambda state, seat: len(state.players[seat].symbols)),
)}


def vocabulary(pack_words: Vocabulary) -> Vocabulary:
    """A pack's vocabulary with the bot words added as counters."""
    names = dict(pack_words.names)
    names["counter"] = names["counter"] | frozenset(WORDS)
    return Vocabulary(names)

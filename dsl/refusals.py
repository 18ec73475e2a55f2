"""Sentences the language cannot say, recognised where they fail to parse, to name what is missing.

A designer reaching for a rule the language lacks ("3 points per set of ...", "at most 5", "move
the ship") gets from the grammar only "expected X, found Y". `REFUSALS` is a table of labelled bad
sentences, in the spirit of lark's `match_examples`: a parse error is classified by the example
that fails the same way, in the same parser state, with one of the row's words in the sentence
(the unexpected word or one near it: the state alone is often shared, by `prodce wood` and `move
ship 1`). The same table drives the tests (tests/test_refusals.py): each example gets its label.

A row whose examples come to parse (the concept made sayable) can no longer match anything and
its test says so: drop the row, and its bullet of docs/language.md "What cannot be said yet".
"""

from __future__ import annotations

import re
from typing import Callable

import attrs
import lark

DOCS = "docs/language.md#what-cannot-be-said-yet"


@attrs.frozen
class Refusal:
    """One concept the language lacks, with bad sentences that reach for it."""

    label: str                  # the row's name, for tests and to drop it
    concept: str                # what is missing, as the message says it (and the docs' bullet)
    hint: str                   # the nearest thing that can be said
    words: tuple[str, ...]      # one of them (a word or phrase) in a sentence tells this row from another failing alike
    examples: tuple[str, ...]   # `effect:` texts that fail to parse where the concept is missing

    def message(self) -> str:
        """The error's message: the concept, and where the docs say what to write instead."""
        return f"{self.concept} is not in the language yet (see {DOCS})"


REFUSALS: tuple[Refusal, ...] = (
    # said another way
    Refusal("set nouns", "a set of filters sharing one noun", "give each filter its noun: 'vp 3 per set of red "
            "card, blue card, green card'", ("set", "sets"), ("vp 3 per set of red, blue, green card",)),
    Refusal("cost of a player", "a player's costs counted", "count the cost of their cards: 'vp 1 per coin cost "
            "of card in left'", ("cost", "costs"), ("vp 2 per coin cost of chosen", "vp 2 per cost of left")),
    # still missing
    Refusal("token number", "a token given without its number",
            "write 'give 1 <kind> token to <players>', or 'give top card of <zones> to <player>' for a card",
            ("give",), ("give defeat token to chosen", "give victory token to left")),
    Refusal("resource paid", "a resource paid outside a build",
            "'pay' pays counters ('may pay 2 coins then shields 1'), 'spend' tokens; resources pay costs only",
            ("pay", "pays"), ("may pay ore then ships 1", "pay wood then vp 2")),
    Refusal("discount to others", "a discount given to other players",
            "a discount is its owner's; give them coins as they build: 'on neighbours build white card: coins 1 to chosen'",
            ("to",), ("discount 1 coin for white card to neighbours", "discount 1 any for stage to left")),
    Refusal("ceiling", "a ceiling on an amount ('at most', 'up to')",
            "a table of amounts stops rising: 'vp 1, 2, 3, 4, 5 by red card' is 5 for 5 red cards and more",
            ("at most", "up to", "max", "maximum", "no more than"),
            ("vp 1 per red card at most 5", "coins 1 per brown card up to 4", "vp 1 per red card max 5",
             "coins 1 per brown card in left, right up to 4", "vp 2 per red card, at most 10")),
    Refusal("most", "the player with the most (or the fewest) of something",
            "compare a count with players': 'vp 2 if red card > left, right'",
            ("most", "fewest", "least", "more", "fewer", "richest", "poorest"),
            ("vp 2 per red card in neighbour with most red card", "coins 3 if most red card",
             "coins -2 if neighbours have more shields")),
    Refusal("absence", "a condition that something is absent ('no', 'not', 'unless')",
            "compare a count with a number: 'vp 2 if red card = 0'",
            ("no", "not", "unless", "none", "without"),
            ("vp 2 if no red card", "coins 3 if not red card", "vp 2 unless red card")),
    Refusal("arithmetic", "arithmetic between counts ('times', 'plus', 'half')",
            "the number in front divides ('vp 1 per 2 coin'); a sum is two sentences: 'vp 1 per red card; vp 1 per blue card'",
            ("times", "plus", "half", "twice", "double"),
            ("vp 1 per red card times 2", "vp 1 per red card plus blue card", "vp 1 per half coin")),
    Refusal("instead", "an effect replacing another ('instead')", "offer both as a choice: 'coins 2 or vp 1'",
            ("instead", "rather"), ("coins 2 instead of vp 1", "at battle: give 1 defeat token to left instead")),
    Refusal("steal", "taking coins from another player",
            "a loss and a gain: 'coins -2 to left then coins 2' (what a loss cannot take: rules.yaml `shortfall`)",
            ("steal", "steals", "from"), ("steal 2 coins from left", "take 2 coins from left")),
    Refusal("project", "a project all players contribute to",
            "each player's own pieces count: 'vp 1 per stage in self, left, right'",
            ("contribute", "contributes", "project", "projects"),
            ("contribute 1 wood to project", "on project complete: vp 2")),
    Refusal("others act", "other players discarding or destroying cards",
            "the owner moves a neighbour's card to a shared zone: 'lay red card from city of left on discard'",
            ("discard", "discards", "destroy", "destroys", "remove", "removes"),
            ("neighbours discard 1 card", "discard red card from city of left", "destroy red card in left",
             "coins 1 then discard card from hand of self")),
    Refusal("track", "moving a pawn or a ship along a track",
            "a position on a track is a counter of the vocabulary: 'ship 1' moves it one step",
            ("move", "moves", "advance", "advances", "step", "steps"),
            ("move ship 1", "ship moves 1 step", "on left take card: move ship 1")),
    Refusal("swap", "exchanging pieces between players",
            "take, then give back: 'take card from city of opponent then give top card of central_deck to chosen'",
            ("swap", "swaps", "exchange", "exchanges"), ("swap card with left", "exchange coins with left")),
    Refusal("roll", "rolling dice in an effect", "dice are rolled by the game (flow kind 'rolls'), not by an effect",
            ("roll", "rolls"), ("roll die then coins 1", "roll 1 die")),
    Refusal("when", "a trigger written 'when' or 'each time'",
            "a trigger starts with 'on' or 'at': 'on left build red card: coins 1'",
            ("when", "whenever", "time"),
            ("when left builds red card: coins 1", "each time left builds red card: coins 1",
             "whenever you build a red card: coins 1")),
    Refusal("for each", "counting with 'for each'", "write 'per': 'vp 1 per red card'",
            ("each", "every"), ("vp 1 for each red card", "coins 2 for every yellow card")),
    Refusal("equal", "an amount written 'equal to' a count", "write 'per': 'vp 1 per coin'",
            ("equal", "equals"), ("vp equal to coins", "vp equals red card in left")),
    Refusal("end of", "a period's end written 'at the end of'",
            "write 'at age end:' (the pack's word for its rounds), or 'at end:' for the game's end",
            ("of",), ("at end of age: coins 1", "at the end of each age: coins 1")),
)


def example_states(parse: Callable[[str], object]) -> dict[int, tuple[Refusal, ...]]:
    """The parser states the table's examples fail in, each with its rows (in the table's order);
    `parse` parses an `effect:` text. An example that parses adds nothing."""
    states: dict[int, list[Refusal]] = {}
    for row in REFUSALS:
        for example in row.examples:
            state = failing_state(parse, example)
            if state is not None and row not in states.setdefault(state, []):
                states[state].append(row)
    return {state: tuple(rows) for state, rows in states.items()}


def failing_state(parse: Callable[[str], object], text: str) -> int | None:
    """The parser state a text fails to parse in, or None when it parses (or fails in the lexer)."""
    try:
        parse(text)
    except lark.exceptions.UnexpectedToken as err:
        return error_state(err)
    except lark.exceptions.LarkError:
        pass
    return None


def error_state(err: lark.exceptions.UnexpectedInput) -> int | None:
    """The LALR state a parse error happened in (its position in the table, not the stack's depth,
    so that a sentence fails alike with a trigger before it or without)."""
    state = getattr(err, "state", None)
    return getattr(state, "position", None)


def classify(states: dict[int, tuple[Refusal, ...]], state: int | None, sentence: str,
             at: int) -> tuple[Refusal, int, int] | None:
    """The row a parse error in `state` belongs to, with where its word (or phrase) is in the
    sentence (offset, length); None when no row fails alike. The word is looked for near the
    unexpected token at offset `at` of the sentence: two words either side, in the same action (a
    word of another says nothing of this error: `prodce wood then discard ...`). Rows are tried
    in the table's order: a row of phrases ('at most') goes before one of their words ('most')."""
    words = list(re.finditer(r"\S+", sentence))
    if not words:
        return None
    held = next((i for i, w in enumerate(words) if w.end() > at), len(words) - 1)
    first = max(held - 2, 0)
    last = min(held + 2, len(words) - 1)
    for i in range(first, held):  # the action starts after a trigger's ':', a 'then' or an 'or'
        if words[i].group().endswith(":") or words[i].group() in _BETWEEN:
            first = i + 1
    last = next((i - 1 for i in range(held + 1, last + 1) if words[i].group() in _BETWEEN), last)
    low, high = words[first].start(), words[last].end()
    near = sentence[low:high]
    for row in states.get(state, ()):
        for word in row.words:
            found = re.search(rf"\b{re.escape(word)}\b", near)
            if found:
                return row, low + found.start(), len(word)
    return None


_BETWEEN = ("then", "or")  # the words between two actions of a sentence

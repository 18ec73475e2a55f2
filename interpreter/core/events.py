"""The engine's events: what happens in a game that a triggered sentence can wait for.

They are the same in every flow; a flow fires those that happen in it (its declaration in
`flows.py` lists them) and `check` refuses a sentence waiting for one its pack's flow never fires.
"""

from __future__ import annotations

import attrs


@attrs.frozen
class Event:
    """One event: its name (a compiled trigger's `event`), how a sentence says it, what it is."""

    name: str
    words: str
    means: str


_EVENTS = (
    Event("build", "on build", "the piece comes into its owner's city (built, taken, checked)"),
    Event("take", "on take", "a card or box comes into the owner's city"),
    Event("stage", "on stage", "the owner builds a wonder stage (or checks a box of their wonder)"),
    Event("turn_start", "at turn start", "one of the owner's turns starts"),
    Event("turn_end", "at turn end", "one of the owner's turns ends"),
    Event("round_start", "at round start", "a round (a pack's period, such as an age) starts, before its first turn"),
    Event("round_end", "at round end", "a round (a pack's period, such as an age) ends"),
    Event("battle", "at battle", "a battle between neighbours is fought"),
    Event("choose_die", "on choose ... die", "the owner uses one of these dice"),
    Event("end", "at end", "the game ends"),
    Event("buy", "on buy", "the owner buys resources from another player"),
    Event("sell", "on sell", "another player buys resources from the owner"),
    Event("chain", "on chain", "the owner builds a card through its chain"),
    Event("discard", "on discard", "the owner discards a card (for what a discard gives)"),
    Event("take_token", "on take ... token", "the owner takes a token of these kinds (won, given, taken)"),
    Event("lose_token", "on lose ... token", "a token of these kinds leaves the owner (given, returned, spent)"),
    Event("gain", "on gain", "the owner gains some of these counters"),
)
EVENTS: dict[str, Event] = {e.name: e for e in _EVENTS}
(BUILD, TAKE, STAGE, TURN_START, TURN_END, ROUND_START, ROUND_END, BATTLE, CHOOSE_DIE, END,
 BUY, SELL, CHAIN, DISCARD, TAKE_TOKEN, LOSE_TOKEN, GAIN) = EVENTS


def words(names) -> str:
    """The trigger words of some events, in the engine's order: `on build, at end`."""
    return ", ".join(e.words for e in _EVENTS if e.name in names)

"""Wonders chosen for seats: `WONDER:SIDE,WONDER,*` gives seat 0 a wonder on a side, seat 1 a wonder on
a side dealt as usual, seat 2 (and every seat past the list) one dealt at random from the rest.

The rules let players choose their wonder (or board); a designer studying one new wonder puts it
in every game. Nothing here names a wonder: the ids and sides come from the pack, through the
flow (`Flow.dealt`: what it deals one of to each seat, wonders or boards).

An assignment is part of a game, as its options are: a log's header and a simulation's summary
record it (`Game.describe`), and the same seed with the same assignment deals the same game.
"""

from __future__ import annotations

from typing import Sequence

from ...dsl.diagnostics import did_you_mean, one_of
from .errors import GameError

RANDOM_SEAT = "*"


class ChoiceError(GameError):
    """A bad assignment: the message says what, the hint what to do."""

    def __init__(self, message: str, hint: str = ""):
        super().__init__(message)
        self.hint = hint


def entries(spec: str | Sequence[str] | None) -> list[str]:
    """The entries of an assignment as given: a comma-separated text or a list of texts."""
    if spec is None:
        return []
    if isinstance(spec, str):
        return [e.strip() for e in spec.split(",")] if spec.strip() else []
    if not isinstance(spec, (list, tuple)) or not all(isinstance(e, str) for e in spec):
        raise ChoiceError("the wonders assigned are texts, one per seat", "e.g. WONDER:SIDE,WONDER,*")
    return [e.strip() for e in spec]


def resolve(spec, players: int, noun: str, dealt: dict[str, list[str]]) -> tuple[tuple[str | None, str | None], ...]:
    """Per seat, the (id, side) assigned, None for what is dealt at random; () for no assignment.
    `dealt` maps each id the flow deals (a `noun`: wonder, board) to the sides it may be played on
    ([] for one without sides). Raises ChoiceError for an entry that cannot be honoured."""
    given = entries(spec)
    example = ",".join([*list(dealt)[:1], RANDOM_SEAT]) or RANDOM_SEAT
    if len(given) > players:
        raise ChoiceError(f"{len(given)} {noun}s assigned for {players} players",
                          f"give at most one entry per seat, in seat order ({RANDOM_SEAT} for a seat dealt at random)")
    out, seen = [], {}
    for seat, entry in enumerate(given):
        if entry == RANDOM_SEAT:
            out.append((None, None))
            continue
        if not entry:
            raise ChoiceError(f"seat {seat} is assigned no {noun}", f"write {RANDOM_SEAT} for a seat dealt at "
                              f"random, e.g. {example}")
        name, colon, side = (p.strip() for p in entry.partition(":"))
        if name not in dealt:
            close = did_you_mean(name, dealt)
            raise ChoiceError(f"unknown {noun} {name!r} for seat {seat}",
                              (close + " " if close else "") + f"the {noun}s: {one_of(dealt)}")
        if name in seen:
            raise ChoiceError(f"{noun} {name} is assigned twice (seats {seen[name]} and {seat})",
                              f"each {noun} is dealt once: give it to one seat")
        seen[name] = seat
        sides = dealt[name]
        if colon and side not in sides:
            if not sides:
                hint = f"{name} has no sides: write {name} alone"
            else:
                close = did_you_mean(side, sides)
                hint = (close + " " if close else "") + f"{name}'s sides: {', '.join(sides)}"
            raise ChoiceError(f"unknown side {side!r} of {noun} {name} for seat {seat}", hint)
        out.append((name, side if colon else None))
    while out and out[-1] == (None, None):
        out.pop()
    return tuple(out)


def written(assigned: tuple[tuple[str | None, str | None], ...]) -> list[str]:
    """An assignment as its entries are written (what a log's header and a summary record)."""
    return [RANDOM_SEAT if w is None else w + (f":{s}" if s else "") for w, s in assigned]


def place(shuffled: list[str], assigned: tuple[tuple[str | None, str | None], ...], players: int) -> list[str]:
    """Each seat's id: the assigned ones at their seats, the others from `shuffled` (the ids dealt,
    shuffled by the game's generator) in order, leaving out those assigned."""
    taken = {w for w, _ in assigned if w is not None}
    rest = iter(w for w in shuffled if w not in taken)
    return [assigned[seat][0] if seat < len(assigned) and assigned[seat][0] is not None else next(rest)
            for seat in range(players)]


def side_of(assigned: tuple[tuple[str | None, str | None], ...], seat: int) -> str | None:
    """The side assigned to a seat, None when it is dealt as the game's options say."""
    return assigned[seat][1] if seat < len(assigned) else None

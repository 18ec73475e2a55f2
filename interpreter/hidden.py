"""What a seat may not see, and a determinization: the same position with all of it resampled.

A flow lists what is hidden from a seat as `Hidden` spans (`Flow.hidden`): a run of pieces of one
place (a hand, a deck under its face-up top, a card given face down), with the *pool* it belongs to.
Pieces of one pool may be where any other is as far as the seat knows, so `determinize` gathers
each pool, shuffles it and deals it back, every span keeping its size; pieces never cross pools
(an age II card never lands in an age I hand, a token never in a card deck). Then the flow
resamples what is not a piece in a place (`Flow.resample`: others' choices committed but not
revealed, decks not dealt yet), and the generator is reseeded, so the draws to come differ too.
"""

from __future__ import annotations

import random

import attrs

from .catalogue import Piece


@attrs.frozen(eq=False)
class Hidden:
    """Pieces `cards[lo:hi]` of a place, face down to the seat; `pool` names what they may swap with."""

    cards: list[Piece]
    lo: int
    hi: int
    pool: str

    @classmethod
    def under_top(cls, cards: list[Piece], shown: int, pool: str) -> "Hidden":
        """A pile whose top `shown` pieces (the list's end) the seat sees, the rest face down."""
        return cls(cards, 0, max(0, len(cards) - shown), pool)

    @classmethod
    def whole(cls, cards: list[Piece], pool: str) -> "Hidden":
        return cls(cards, 0, len(cards), pool)


def unseen(spans: list[Hidden], shown: list[tuple[list[Piece], int]]) -> list[Hidden]:
    """The spans less the top cards the seat looks at (`Flow.shown`)."""
    seen: dict[int, int] = {}
    for cards, count in shown:
        seen[id(cards)] = max(seen.get(id(cards), 0), count)
    out = []
    for span in spans:
        top = len(span.cards) - seen.get(id(span.cards), 0)
        out.append(span if span.hi <= top else attrs.evolve(span, hi=max(span.lo, top)))
    return out


def pools(spans: list[Hidden]) -> dict[str, list[Hidden]]:
    """The spans grouped by pool, in the order first named (so a generator's draws are reproducible)."""
    out: dict[str, list[Hidden]] = {}
    for span in spans:
        if span.hi > span.lo:
            out.setdefault(span.pool, []).append(span)
    return out


def reshuffle(spans: list[Hidden], rng: random.Random) -> None:
    """Shuffle each pool's pieces among its spans, each span keeping its size."""
    for group in pools(spans).values():
        # sorted first: the draw hangs on which pieces are hidden, never on where they truly lie
        pieces = sorted((p for span in group for p in span.cards[span.lo:span.hi]), key=_by_id)
        rng.shuffle(pieces)
        at = 0
        for span in group:
            size = span.hi - span.lo
            span.cards[span.lo:span.hi] = pieces[at:at + size]
            at += size


def _by_id(piece: Piece) -> str:
    return piece.id


def determinize(state: State, seat: int, rng: random.Random) -> State:  # noqa: F821 (state.py imports this module)
    """A full position consistent with what `seat` knows of `state`, its hidden parts drawn from `rng`."""
    new = state.clone()
    new.rng.seed(rng.getrandbits(64))  # the chance to come is unknown too
    flow = new.game.flow
    reshuffle(unseen(flow.hidden(new, seat), flow.shown(new, seat)), rng)
    flow.resample(new, seat, rng)
    return new

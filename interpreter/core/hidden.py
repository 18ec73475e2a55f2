"""What a seat may not see, and a determinization: the same position with all of it resampled.

A flow lists what is hidden from a seat as `Hidden` spans (`Flow.hidden`): a run of pieces of one
place (a hand, a deck under its face-up top, a card given face down), with the *pool* it belongs to.
Pieces of one pool may be where any other is as far as the seat knows, so `determinize` gathers
each pool, shuffles it and deals it back, every span keeping its size; pieces never cross pools
(an age II card never lands in an age I hand, a token never in a card deck). Then the flow
resamples what is not a piece in a place (`Flow.resample`: others' choices committed but not
revealed, decks not dealt yet). The copy is dealt a fresh seed and played on the game without its
seed (`Game.unseeded`), so the draws to come differ too and the true game cannot be dealt again from
it; and its history is the one the seat witnessed (`witnessed`), so replaying it tells nothing more.
"""

from __future__ import annotations

import random
from operator import attrgetter

import attrs

from ..packs.catalogue import Piece
from .actions import Action

UNSEEN = Action("unseen")  # in a determinization's history: another seat's choice not revealed yet


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
        pieces = sorted((p for span in group for p in span.cards[span.lo:span.hi]), key=_BY_ID)
        shuffle(pieces, rng)
        at = 0
        for span in group:
            size = span.hi - span.lo
            span.cards[span.lo:span.hi] = pieces[at:at + size]
            at += size


_BY_ID = attrgetter("id")


def shuffle(items: list, rng: random.Random) -> None:
    """`rng.shuffle(items)`, the same draws and the same order, without its two calls per item (a
    search shuffles every hidden pile of thousands of determinizations)."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        k = (i + 1).bit_length()
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def witnessed(history: list[tuple[int, Action]], seat: int, committed, conceals: frozenset[str]) -> list:
    """`history` as `seat` saw it: its own actions whole; another's as the table saw it, without the
    card of a verb in `conceals` (that card went face down); and the last choice of each seat in
    `committed`, made but not revealed yet, as `UNSEEN`."""
    out = list(history)
    unrevealed = set(committed) - {seat}
    for i in range(len(out) - 1, -1, -1):
        if not unrevealed:
            break
        if out[i][0] in unrevealed:
            unrevealed.discard(out[i][0])
            out[i] = (out[i][0], UNSEEN)
    if conceals:
        out = [(s, a._replace(card=None)) if s != seat and a.verb in conceals and a.card is not None else (s, a)
               for s, a in out]
    return out


def determinize(state: State, seat: int, rng: random.Random, again: bool = False) -> State:  # noqa: F821 (state.py imports this module)
    """A full position consistent with what `seat` knows of `state`, its hidden parts drawn from `rng`:
    nothing in it leads back to the truth (its seed, its generator, others' unrevealed choices).
    `again`: `state` is itself a determinization for `seat`, its history already the one witnessed
    (a search draws thousands of them from one view)."""
    flow = state.game.flow
    new = state.clone()
    new.game = state.game.unseeded()
    new.seed = rng.getrandbits(63)  # the chance to come is unknown too
    new.rng = random.Random(new.seed)
    if not again:  # (else the clone's history is already the witnessed one)
        new.history = witnessed(state.history, seat, flow.committed(state), flow.conceals)
    flow = new.game.flow
    reshuffle(unseen(flow.hidden(new, seat), flow.shown(new, seat)), rng)
    flow.resample(new, seat, rng)
    return new

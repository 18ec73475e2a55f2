"""The random parts of a draft's decks (rules.yaml `setup.random_cards`, one or a list): of one
deck's cards of one colour, a game keeps `keep_per_player` × players + `keep_players_plus`, drawn
from the state's generator, part after part in the order written (7 Wonders' guilds in Age III; a
mod's black cards, one per player in every age)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Iterator

from ..core.state import State
from ..packs.catalogue import Piece
from ..packs.rules import RandomCards
from .flow import Group


def kept_cards(cards: list[Piece], parts: tuple[RandomCards, ...], deck: str, players: int,
               rng: random.Random | None) -> list[Piece]:
    """A deck's cards with each of its random parts cut to what a game keeps: shuffled with `rng`,
    or without one, the first ones (for counting)."""
    for part in parts:
        if part.deck != deck:
            continue
        drawn = [c for c in cards if c.colour == part.colour]
        if rng is not None:
            rng.shuffle(drawn)
        cards = [c for c in cards if c.colour != part.colour] + drawn[:part.kept(players)]
    return cards


def short_part(cards: list[Piece], parts: tuple[RandomCards, ...], deck: str, players: int) -> tuple | None:
    """(the part's index, why) of a random part of the deck that cannot keep what it should."""
    for i, part in enumerate(parts):
        held = sum(c.colour == part.colour for c in cards)
        if part.deck == deck and held < part.kept(players):
            return i, (f"{part.rule()}, {part.kept(players)} {part.colour} cards of deck {deck}, and that deck "
                       f"has {held} for {players} players")
    return None


def groups(cards: list[Piece], parts: tuple[RandomCards, ...], players: int) -> list[Group]:
    """The cards of the random parts dealt at that count, of which a game keeps some (for `score`'s
    checks): a group per part, parts sharing cards (one colour in several decks) as one group
    keeping what they keep together."""
    out: list[tuple[frozenset, list[RandomCards]]] = []
    for part in parts:
        ids = frozenset(c.id for c in cards if c.colour == part.colour
                        and any(least <= players for least in c.copies.get(part.deck, ())))
        joined = [g for g in out if g[0] & ids]
        out = [g for g in out if not g[0] & ids] + \
            [(ids.union(*(g[0] for g in joined)), [p for g in joined for p in g[1]] + [part])]
    return [Group(ids, sum(p.kept(players) for p in together),
                  f"{together[0].colour} card of deck {' or '.join(p.deck for p in together)}",
                  "; ".join(p.rule() for p in together)) for ids, together in out]


def redraw(state: State, parts: tuple[RandomCards, ...], deck: str, hand: str, seat: int,
           rng: random.Random) -> None:
    """In the round dealing a deck with random parts, which of each part's cards the other hands
    hold is drawn again from those hands' and the ones left in the box."""
    n = len(state.players)
    for part in (p for p in parts if p.deck == deck):
        colour = part.colour
        every = Counter(c for c in state.game.catalogue.cards.values() if c.colour == colour
                        for least in c.copies.get(deck, ()) if least <= n)
        placed = [*state.shared.values(), *(z for p in state.players for z in p.zones.values()),
                  *(p.tucked for p in state.players)]
        boxed = every - Counter(c for cards in placed for c in cards if c.colour == colour)
        slots = [(cards, i) for s, p in enumerate(state.players) if s != seat
                 for cards in (p.zones[hand],) for i, c in enumerate(cards) if c.colour == colour]
        drawn = sorted([cards[i] for cards, i in slots] + list(boxed.elements()), key=lambda c: c.id)
        rng.shuffle(drawn)
        for (cards, i), card in zip(slots, drawn):
            cards[i] = card


def overlaps(rules: dict) -> Iterator[tuple[tuple, str, str]]:
    """(path, message, hint) of a random part drawing the cards an earlier part of its deck draws
    (one deck and colour). `rules` is rules.yaml as read, maybe broken."""
    setup = rules.get("setup") if isinstance(rules.get("setup"), dict) else {}
    parts = setup.get("random_cards")
    first: dict = {}
    for i, part in enumerate(parts if isinstance(parts, list) else ()):
        key = (part.get("deck"), part.get("colour")) if isinstance(part, dict) else None
        if key in first:
            yield (("setup", "random_cards", i), f"random part {i + 1} draws the {key[1]} cards of deck {key[0]}, as "
                   f"part {first[key] + 1} does", "one part per colour of a deck: add up what they keep in one part")
        if key is not None:
            first.setdefault(key, i)

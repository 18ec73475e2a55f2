"""A draft's kept cards: a draft before the first round whose every pick a player keeps in a
zone of their own, seen by them alone (`flow.prelude`: a draft of leaders), and each round's first
turn played from those cards (`flow.recruit`). The `Draft` flow takes these turns from `Kept`.
"""

from __future__ import annotations

import attrs

from ..core.hidden import Hidden
from ..core.state import State

# Turns that are no round's: the draft before the first round (each pick kept), and a round's
# first turn played from the kept zone (`flow.recruit`)
PRELUDE, RECRUIT = "prelude", "recruit"
KEEP = "keep"  # the prelude's action: the card picked is kept
KEPT = "kept"  # the pool of the kept cards, the prelude deck's, in a determinization


@attrs.frozen
class Prelude:
    """`flow.prelude`: a draft before the first round, from a deck of its own, whose every pick the
    player keeps in a zone of their own (`keep`), seen by them alone (a draft of leaders)."""

    deck: str
    hand_size: int
    pass_to: str
    keep: str


class Kept:
    """The turns of kept cards, for the `Draft` flow (which has the hand, the deal, the turns, and
    `pick`: a turn without its events)."""

    def open_prelude(self, state: State) -> None:
        """Deal each player the prelude's hand (the cards left in its deck stay there, unseen) and
        let them pick: a prelude's turn is no round's, so no turn or round event happens."""
        prelude = self.rules.prelude
        deck = state.shared[f"deck {prelude.deck}"] = self.deck(state, prelude.deck)
        state.rng.shuffle(deck)
        for player in state.players:
            player.zones[self.hand], player.zones[prelude.keep] = [deck.pop() for _ in range(prelude.hand_size)], []
        state.flow_state.part = PRELUDE
        self.pick(state)

    def start_round(self, state: State) -> None:
        """A round starts: with a turn played from the kept zone (`flow.recruit`), then its deal."""
        zone = self.rules.recruit
        if zone is None:
            self.deal(state)
            return
        for player in state.players:
            player.zones[self.hand], player.zones[zone] = player.zones.get(zone, []), []
        state.flow_state.part = RECRUIT
        self.begin_turn(state)

    def next_kept_turn(self, state: State) -> None:
        """After a prelude's turn, the hands pass on until every card is kept, then the first round
        starts; after a recruit turn, the cards left go back to the kept zone and the round is dealt."""
        own = state.flow_state
        if own.part == PRELUDE:
            if any(p.zones[self.hand] for p in state.players):
                self.pass_hands(state, self.rules.prelude.pass_to)
                own.turn += 1
                self.pick(state)
                return
            own.part, own.turn = None, 0
            self.start_round(state)
            return
        for player in state.players:
            player.zones[self.rules.recruit], player.zones[self.hand] = player.zones[self.hand], []
        own.part = None
        self.deal(state)

    @staticmethod
    def pool_round(state: State) -> int:
        """The round a card laid face down is pooled with: this one, or -1 for a kept card (laid in a
        prelude or recruit turn), which only the kept cards can be swapped with."""
        return state.round if state.flow_state.part is None else -1

    def kept_hidden(self, state: State, others: list[int]) -> list[Hidden]:
        """The others' kept cards, and the prelude deck's left: one pool."""
        prelude, out = self.rules.prelude, []
        for zone in sorted(self.rules.zones - {self.hand}):
            out += [Hidden.whole(state.players[s].zones.get(zone, []), KEPT) for s in others]
        if prelude is not None and f"deck {prelude.deck}" in state.shared:
            out.append(Hidden.whole(state.shared[f"deck {prelude.deck}"], KEPT))
        return out


def kept_problems(flow: dict, rules: dict, decks: dict):
    """(path, message, hint) of a prelude or recruit zone that cannot hold kept cards: not a player
    zone of the vocabulary, or the hand or the city; a prelude dealing a round's deck."""
    zones = ((rules.get("vocabulary") or {}).get("zones") or {}).get("player") or []
    prelude = flow.get("prelude") if isinstance(flow.get("prelude"), dict) else {}
    for path, zone in ((("flow", "prelude", "keep"), prelude.get("keep")), (("flow", "recruit"), flow.get("recruit"))):
        if zone is None:
            continue
        if zone in (flow.get("hand_zone"), flow.get("build_zone")) or zone not in zones:
            yield (path, f"'{zone}' cannot hold the kept cards: it must be a player zone of vocabulary.zones "
                   "other than the hand and the city", "declare a zone of its own, as `player: [hand, city, leaders]`")
    if prelude.get("deck") in decks:
        yield (("flow", "prelude", "deck"), f"the prelude deals deck {prelude['deck']}, as round "
               f"{decks[prelude['deck']] + 1} does", "give the prelude's cards copies under a deck of their own")

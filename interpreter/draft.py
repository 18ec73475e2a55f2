"""The draft flow (`flow.kind: draft`): every player picks a card from their hand at once, all are
revealed, then the hands pass on; a round ends when the hands are spent, with a battle.

Each picked card is built (paying its cost, or free by a chain or a power), spent on the next wonder
stage, or discarded for what `flow.discard.effect` gives. Coins a player earns during a turn reach
them only once every payment of that turn is made.
"""

from __future__ import annotations


from typing import TYPE_CHECKING

from .actions import Action, recurring
from .catalogue import Piece
from .military import battle
from .payment import payments
from .state import Decision, Owned, Player, State, rule_effects

if TYPE_CHECKING:
    from .game import Game

# Phases of a turn: players choose; the cards left at a round's end are played or discarded;
# effects waiting for the turn's end run; then the hands pass on.
CHOOSE, LAST, TURN_END, OVER = "choose", "last", "turn_end", "over"


class Draft:
    """The flow's rules, read once from `flow:` in rules.yaml."""

    def __init__(self, game: "Game"):
        flow = game.rules["flow"]
        self.game = game
        self.rounds = flow["rounds"]
        self.hand_size = flow["hand_size"]
        self.turns = flow["turns"]
        self.hand, self.city, self.discard = flow["hand_zone"], flow["build_zone"], flow["discard_zone"]
        self.on_discard = rule_effects("discard", game.pack.compiled_rules.get(("flow", "discard", "effect"), ()))
        n, wonders = game.players, len(game.catalogue.wonders())
        if wonders < n:
            raise game.cannot_deal(f"each is dealt a wonder, and it has {wonders}")
        for i, spec in enumerate(self.rounds):
            size = len(self.deck(None, str(spec["deck"])))
            if size < self.hand_size * n:
                raise game.cannot_deal(f"round {i + 1} deals {self.hand_size} cards of deck {spec['deck']} to each "
                                       f"({self.hand_size * n} in all), and that deck has {size} for {n} players")

    # -- setup
    def setup(self, state: State) -> None:
        game, rng = self.game, state.rng
        n = game.players
        for side in game.deal_wonders(rng):
            player = Player(dict(game.start_counters), {self.hand: [], self.city: []}, side=side,
                            prices=game.start_prices)
            state.players.append(player)
        for seat in range(n):
            state.enter(seat, state.players[seat].side.board)
        state.shared = {self.discard: []}
        for spec in self.rounds:
            key = str(spec["deck"])
            state.shared.setdefault(f"deck {key}", self.deck(state, key))
        self.deal(state)

    def arrange(self, state: State, holdings: list[dict]) -> None:
        """A finished position from what each player holds: `wonder`, `side`, `stages` (built),
        `cards` (ids, in the city), `counters` and `tokens` ((kind, value) pairs). Ids must be known;
        `scenario.py` checks them first."""
        game = self.game
        for seat, held in enumerate(holdings):
            side = game.catalogue.sides[held["wonder"], held["side"]]
            state.players.append(Player({}, {self.hand: [], self.city: []}, side=side, prices=game.start_prices))
        for seat, held in enumerate(holdings):
            player = state.players[seat]
            state.enter(seat, player.side.board)
            for piece in player.side.stages[:held.get("stages", 0)]:
                player.stages += 1
                state.enter(seat, piece)
            for card_id in held.get("cards", ()):
                card = game.catalogue.cards[card_id]
                self.place(state, seat, Action("build", card_id), card)
                state.enter(seat, card)
            # What the scenario gives replaces what entering gave; other counters (shields) stay.
            player.counters.update({**game.start_counters, **held.get("counters", {})})
            player.tokens = [(kind, value, 0) for kind, value in held.get("tokens", ())]
        state.shared = {self.discard: []}
        state.round = len(self.rounds)
        state.phase = OVER

    def deck(self, state: State | None, key: str) -> list[Piece]:
        """A round's cards for this player count, with the random part kept (`setup.random_cards`),
        drawn from the state's generator (without a state, the first ones: for counting)."""
        n = self.game.players
        cards = [card for card in self.game.catalogue.cards.values()
                 for least in card.copies.get(key, ()) if least <= n]
        spec = self.game.rules.get("setup", {}).get("random_cards")
        if spec and str(spec["deck"]) == key:
            drawn = [c for c in cards if c.colour == spec["colour"]]
            if state is not None:
                state.rng.shuffle(drawn)
            kept = drawn[:n + spec["keep_players_plus"]]
            cards = [c for c in cards if c.colour != spec["colour"]] + kept
        return cards

    def deal(self, state: State) -> None:
        deck = state.shared.pop(f"deck {self.rounds[state.round]['deck']}")
        state.rng.shuffle(deck)
        for seat, player in enumerate(state.players):
            player.zones[self.hand] = deck[seat * self.hand_size:(seat + 1) * self.hand_size]
        state.turn = 0
        state.phase = CHOOSE

    # -- who acts, and how
    def current_players(self, state: State) -> list[int]:
        if state.phase == CHOOSE:
            return [s for s in range(len(state.players)) if s not in state.pending]
        if state.queue:
            return [state.queue[0].seat]
        return []

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if state.phase == CHOOSE:
            return [] if seat in state.pending else self.hand_actions(state, seat)
        if state.queue and state.queue[0].seat == seat:
            return self.decision_actions(state, state.queue[0])
        return []

    def hand_actions(self, state: State, seat: int) -> list[Action]:
        """Build, spend on a stage or discard each distinct card of the hand, with every undominated
        payment; a free-build power is offered only where the card would cost something."""
        player = state.players[seat]
        hand = sorted({c.id: c for c in player.zones[self.hand]}.values(), key=lambda c: c.id)
        power = self.free_power(state, seat) is not None
        out = []
        for card in hand:
            if card.id in player.built:
                continue
            if card.chains & player.built:
                out.append(recurring("build", card.id))
                continue
            pays = self.payments(state, seat, card.cost)
            out += [recurring("build", card.id, pay) for pay in pays]
            if power and (pays != [()] or card.cost.counters):
                out.append(Action("build", card.id, free=True))
        if player.stages < len(player.side.stages):
            pays = self.payments(state, seat, player.side.stages[player.stages].cost)
            out += [recurring("stage", card.id, pay) for card in hand for pay in pays]
        out += [recurring("discard", card.id) for card in hand]
        return out

    def payments(self, state: State, seat: int, cost) -> list[tuple[int, ...]]:
        """Every undominated payment of a cost the seat can afford with the coins it holds now
        (`()` when its own production suffices)."""
        game, player = self.game, state.players[seat]
        counters = player.counters
        coins = counters.get(game.currency, 0)
        for name, amount in cost.counters:
            if counters.get(name, 0) < amount:
                return []
            if name == game.currency:
                coins -= amount
        if not cost.resources:
            return [()]
        sellers = tuple([state.players[s].public for s in game.seller_seats[seat]])
        found = payments(cost.resources, player.units, sellers, player.prices)
        return [pay if any(pay) else () for pay in found if sum(pay) <= coins] if found else []

    def free_power(self, state: State, seat: int) -> Owned | None:
        """An unspent `build free` power of the seat."""
        for owned in state.players[seat].abilities:
            if "build_free" in owned.effect.verbs and state.available(seat, owned):
                return owned
        return None

    def decision_actions(self, state: State, decision: Decision) -> list[Action]:
        if decision.kind == "play_last":
            return self.hand_actions(state, decision.seat)
        player = state.players[decision.seat]
        test = decision.args.get("cards")
        cards = {c.id for zone in self.zones(state, decision) for c in zone
                 if c.id not in player.built and (test is None or test(c))}
        return [Action("build", cid, free=True) for cid in sorted(cards)]

    def zones(self, state: State, decision: Decision) -> list[list[Piece]]:
        """The card lists a decision's `from` zones name."""
        out = []
        for zone, owner in decision.args.get("zones", ()):
            if zone in state.shared:
                out.append(state.shared[zone])
            else:
                out += [state.players[s].zones[zone] for s in state.seats(decision.seat, owner or "self")]
        return out

    # -- carrying out
    def apply(self, state: State, seat: int, action: Action) -> None:
        if state.phase == CHOOSE:
            state.pending[seat] = action
            if len(state.pending) == len(state.players):
                self.reveal(state)
            return
        decision = state.queue.pop(0)
        if decision.kind == "play_last":
            self.reveal(state, {seat: action}, end_turn=False)
        else:
            zone = next(z for z in self.zones(state, decision) if any(c.id == action.card for c in z))
            card = _take(zone, action.card)
            self.place(state, seat, action, card)
            state.enter(seat, card)
        self.advance(state)

    def reveal(self, state: State, chosen: dict[int, Action] | None = None, end_turn: bool = True) -> None:
        """Carry out the chosen actions as if at once: every card is paid for and placed before any
        effect runs, and coins paid to other players arrive last."""
        chosen = chosen if chosen is not None else state.pending
        income = [0] * len(state.players)
        placed = []
        for seat in sorted(chosen):
            action = chosen[seat]
            card = _take(state.players[seat].zones[self.hand], action.card)
            self.pay(state, seat, action, card, income)
            placed.append((seat, action, self.place(state, seat, action, card)))
        for seat, action, piece in placed:
            if action.verb == "discard":
                for owned in self.on_discard:
                    state.run(seat, owned)
            else:
                state.enter(seat, piece)
        currency = self.game.currency
        for seat, coins in enumerate(income):
            if coins:
                counters = state.players[seat].counters
                counters[currency] = counters.get(currency, 0) + coins
        if end_turn:
            state.pending = {}
            self.end_turn(state)

    def pay(self, state: State, seat: int, action: Action, card: Piece, income: list[int]) -> None:
        player = state.players[seat]
        if action.verb == "discard":
            return
        if action.free:
            state.spend(seat, self.free_power(state, seat))
            return
        if action.verb == "build":
            if card.chains & player.built:
                return
            cost = card.cost
        else:
            cost = player.side.stages[player.stages].cost
        for name, amount in cost.counters:
            player.counters[name] -= amount
        if action.pay:
            player.counters[self.game.currency] -= sum(action.pay)
            for to, coins in zip(self.game.seller_seats[seat], action.pay):
                income[to] += coins

    def place(self, state: State, seat: int, action: Action, card: Piece) -> Piece:
        """Put the card where the action sends it; returns the piece whose effects apply."""
        player = state.players[seat]
        if action.verb == "discard":
            state.shared[self.discard].append(card)
            return card
        if action.verb == "stage":
            player.tucked.append(card)
            player.stages += 1
            return player.side.stages[player.stages - 1]
        player.zones[self.city].append(card)
        player.built.add(card.id)
        return card

    # -- the end of a turn and of a round
    def end_turn(self, state: State) -> None:
        """After the last turn of a round, a player with a `play last card` power plays their last
        card; everyone else's is discarded, for nothing."""
        state.phase = LAST
        if state.turn == self.turns - 1:
            for seat, player in enumerate(state.players):
                plays = [o for o in player.abilities if any(a.verb == "play_last" for a in o.effect.actions)]
                if plays and player.zones[self.hand]:
                    state.queue.append(Decision(seat, "play_last", {}, plays[0]))
                else:
                    state.shared[self.discard] += player.zones[self.hand]
                    player.zones[self.hand] = []
        self.advance(state)

    def advance(self, state: State) -> None:
        """Go on until a player owes a decision (one with no possible choice lapses)."""
        while True:
            while state.queue and not self.decision_actions(state, state.queue[0]):
                state.made(state.queue.pop(0))
            if state.queue:
                return
            if state.phase == LAST:
                state.phase = TURN_END
                state.fire("turn_end", range(len(state.players)))
            else:
                self.next_turn(state)
                return

    def next_turn(self, state: State) -> None:
        state.turns_played += 1
        if state.turn < self.turns - 1:
            self.pass_hands(state)
            state.turn += 1
            state.phase = CHOOSE
            return
        battle(state)
        state.round += 1
        if state.round == len(self.rounds):
            state.phase = OVER
        else:
            self.deal(state)

    def pass_hands(self, state: State) -> None:
        direction = self.rounds[state.round]["pass"]
        hands = [p.zones[self.hand] for p in state.players]
        for seat, hand in enumerate(hands):
            state.players[state.seats(seat, direction)[0]].zones[self.hand] = hand

    def preview(self, state: State, seat: int, action: Action) -> State:
        """The position right after this seat's action alone, the others' choices unknown (for bots)."""
        after = state.clone()
        if state.phase == CHOOSE:
            self.reveal(after, {seat: action}, end_turn=False)
        else:
            after.apply(seat, action)
        return after

    # -- what a seat sees
    def observation(self, state: State, seat: int) -> dict:
        decision = state.queue[0] if state.phase in (LAST, TURN_END) and state.queue else None
        return {
            "seat": seat,
            "round": min(state.round + 1, len(self.rounds)),
            "turn": state.turn + 1,
            "phase": state.phase,
            "to_act": self.current_players(state),
            "committed": sorted(state.pending),
            "hand": sorted(c.id for c in state.players[seat].zones[self.hand]),
            "decision": decision.kind if decision is not None and decision.seat == seat else None,
            "discard": len(state.shared[self.discard]),
            "players": [self.public(state, s) for s in range(len(state.players))],
        }

    def public(self, state: State, seat: int) -> dict:
        player = state.players[seat]
        return {
            "seat": seat,
            "wonder": player.side.wonder,
            "side": player.side.side,
            "stages": player.stages,
            "counters": dict(player.counters),
            "city": [c.id for c in player.zones[self.city]],
            "tokens": [[kind, value] for kind, value, _ in player.tokens],
            "hand_size": len(player.zones[self.hand]),
        }


def _take(cards: list[Piece], card_id: str) -> Piece:
    """Remove and return the first card of that id."""
    for i, card in enumerate(cards):
        if card.id == card_id:
            return cards.pop(i)
    raise ValueError(f"no card {card_id!r} there")

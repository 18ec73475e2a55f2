"""The draft flow: every player picks a card from their hand at once, all are revealed, then the
hands pass on; a round ends when the hands are spent, with the end of the round's events.

Each picked card is built (paying its cost, or free by a chain or a power), spent on the next wonder
stage, or discarded for what `flow.discard.effect` gives. Coins a player earns during a turn reach
them only once every payment of that turn is made. A turn goes: its start (`at turn start`, and the
choices it asks), the picks, the cards left at a round's last turn (played with `play last card`,
else discarded), its end (`at turn end`), then the next turn or the round's end.
"""

from __future__ import annotations

import random
from typing import Iterable

import attrs

from ..core.actions import Action, recurring
from ..core.decisions import Decider
from ..core.events import BUY, CHAIN, DISCARD, SELL, STAGE, TURN_END as TURN_END_EVENT
from ..core.hidden import Hidden
from ..core.holdings import Decision, Owned, Player, rule_effects
from ..core.payment import kept_payments, reach
from ..core.runtime import OVER
from ..core.state import State
from ..packs.catalogue import Piece, copied_sides, open_stages
from . import parts
from .flow import Flow, FlowState, Supply, reads_prices, take_card
from .prelude import KEEP, KEPT, PRELUDE, Kept, Prelude, kept_problems

# Phases of a turn: its start; players choose; the cards left at a round's end are played or
# discarded; effects waiting for the turn's end run; then the hands pass on.
START, CHOOSE, LAST, TURN_END = "start", "choose", "last", "turn_end"
PLAY_LAST, EXTRA = "play_last", "extra_action"  # the decisions this flow answers: a card of the hand played
NO_MARKET = ((), None)  # `Context.market` of a player with no first-purchase price in a game whose bank sells nothing


@attrs.frozen
class DraftRules:
    """`flow:` of a draft: the rounds (deck, pass direction), the hand, the turns of a round, the
    zones; a draft before the first round (`prelude`), and the zone each round's first turn is
    played from (`recruit`)."""

    rounds: tuple[tuple[str, str], ...]
    hand_size: int
    turns_per_round: int
    hand_zone: str
    build_zone: str
    discard_zone: str
    discard: tuple
    prelude: Prelude | None = None
    recruit: str | None = None

    @property
    def zones(self) -> frozenset[str]:
        """The zones of its own that cards lie in: the hands, and the kept ones."""
        return frozenset({self.hand_zone} | {z for z in (self.recruit, self.prelude and self.prelude.keep) if z})

    @classmethod
    def read(cls, flow: dict, compiled: dict) -> "DraftRules":
        first = flow.get("prelude")
        prelude = Prelude(str(first["deck"]), first["hand_size"], first["pass"], first["keep"]) if first else None
        return cls(tuple((str(r["deck"]), r["pass"]) for r in flow["rounds"]), flow["hand_size"],
                   flow["turns_per_round"], flow["hand_zone"], flow["build_zone"], flow["discard_zone"],
                   compiled.get(("flow", "discard", "effect"), ()), prelude, flow.get("recruit"))

    sells_missing = False  # a resource missing is bought from neighbours, never from the bank

    @staticmethod
    def problems(rules: dict):
        """(path, message, hint) of what its `flow:` says that cannot be played: a deck dealt by two
        rounds, more turns than cards in a hand. `rules` is rules.yaml as read, maybe broken."""
        flow = rules.get("flow") if isinstance(rules.get("flow"), dict) else {}
        first: dict = {}
        for i, spec in enumerate(flow.get("rounds") if isinstance(flow.get("rounds"), list) else ()):
            deck = spec.get("deck") if isinstance(spec, dict) else None
            if deck in first:
                yield (("flow", "rounds", i, "deck"), f"round {i + 1} deals deck {deck} again, as round {first[deck] + 1} does",
                       "each round deals its own deck: give these cards copies under another deck number")
            first.setdefault(deck, i)
        turns, hand = flow.get("turns_per_round"), flow.get("hand_size")
        if isinstance(turns, int) and isinstance(hand, int) and turns > hand:
            yield (("flow", "turns_per_round"), f"flow.turns_per_round is {turns}, but a hand holds {hand} cards "
                   "(flow.hand_size): hands run out before the round ends", f"write at most {hand} turns")
        yield from kept_problems(flow, rules, first)
        yield from parts.overlaps(rules)


@attrs.define
class DraftState(FlowState):
    """The draft's own part of a game: the turn within the round, and the picks not yet revealed."""

    turn: int = 0
    pending: dict[int, Action] = attrs.field(factory=dict)
    pickers: int = 0  # the seats holding cards when the picks began
    # the cards laid face down, with the round they came from (what a determinization pools): for
    # each card of the discard pile, (id, round, seat) of its discarding (`laid_where`), and per
    # seat the round of each card tucked under its stages
    laid: list[tuple[str, int, int] | None] = attrs.field(factory=list)
    tucked: dict[int, list[int]] = attrs.field(factory=dict)
    part: str | None = None  # PRELUDE or RECRUIT during those turns, else None

    def clone(self) -> "DraftState":
        return DraftState(self.turn, dict(self.pending), self.pickers, list(self.laid),
                          {s: list(r) for s, r in self.tucked.items()}, self.part)


class Draft(Kept, Flow):
    """The flow's rules, read once."""

    conceals = frozenset({"stage", "discard"})  # the card goes under a stage, or to the discard pile, face down

    def __init__(self, game):
        super().__init__(game)
        rules: DraftRules = game.rules.flow
        self.rules = rules
        self.rounds = rules.rounds
        self.turns = rules.turns_per_round
        self.hand, self.city, self.discard = rules.hand_zone, rules.build_zone, rules.discard_zone
        self.kept = rules.recruit or (rules.prelude.keep if rules.prelude else None)  # the zone of kept cards
        self.on_discard = rule_effects("discard", rules.discard)
        stages = [stage for side in game.catalogue.sides.values() for stage in side.stages]
        self.priced = reads_prices(game, [*game.catalogue.cards.values(), *stages])
        self.stages = {stage.id: stage for stage in stages}
        self.copying = {stage.id: sides for stage in stages if (sides := copied_sides(stage.effects)) is not None}
        self.seen: dict[int, tuple] = {}  # per seat, what `known` keeps
        self.forbidding, self.stage_free = "forbid" in game.verbs, "stage_free" in game.verbs  # most packs: neither
        self.decisions = {PLAY_LAST: Decider(self.hand_decision, self.play_from_hand),
                          EXTRA: Decider(self.hand_decision, self.play_from_hand)}
        n, wonders = game.players, len(game.catalogue.wonders())
        if wonders < n:
            raise game.cannot_deal(f"each is dealt a wonder, and it has {wonders}", ("dealt", "wonders"))
        self.parts = game.rules.setup.random_cards
        for deck in [d for d, _ in self.rounds] + ([rules.prelude.deck] if rules.prelude else []):
            short = parts.short_part(self.printed(deck), self.parts, deck, n)
            if short:
                raise game.cannot_deal(short[1], ("part", short[0]))
        for i, (deck, _) in enumerate(self.rounds):
            size = len(self.deck(None, deck))
            if size < rules.hand_size * n:
                raise game.cannot_deal(f"round {i + 1} deals {rules.hand_size} cards of deck {deck} to each "
                                       f"({rules.hand_size * n} in all), and that deck has {size} for {n} players",
                                       ("round", i, deck))
        prelude = rules.prelude
        if prelude is not None and len(self.deck(None, prelude.deck)) < prelude.hand_size * n:
            raise game.cannot_deal(f"the prelude deals {prelude.hand_size} cards of deck {prelude.deck} to each "
                                   f"({prelude.hand_size * n} in all), and that deck has "
                                   f"{len(self.deck(None, prelude.deck))} for {n} players", ("prelude", prelude.deck))

    def new_state(self) -> DraftState:
        return DraftState()

    # -- setup
    def setup(self, state: State) -> None:
        game = self.game
        for side in game.deal_wonders(state.rng):
            state.players.append(self.new_player(side))
        self.welcome_players(state)
        self.lay_out(state)
        for deck, _ in self.rounds:
            state.shared.setdefault(f"deck {deck}", self.deck(state, deck))
        if self.rules.prelude is None:
            self.start_round(state)
        else:
            self.open_prelude(state)

    def arrange(self, state: State, holdings: list[dict]) -> None:
        """A finished position from what each player holds: `wonder`, `side`, `stages` (the numbers
        built, or a count from the first), `cards` (ids, in the city), `kept` (ids, out of it),
        `counters` and `tokens` ((kind, value) pairs). Ids: `scenario_players.py` checks them first."""
        game = self.game
        for held in holdings:
            player = self.new_player(game.catalogue.sides[held["wonder"], held["side"]])
            player.counters = {}
            state.players.append(player)
        for seat, held in enumerate(holdings):
            player = state.players[seat]
            state.enter(seat, player.side.board)
            built = held.get("stages", ())
            for number in range(1, built + 1) if isinstance(built, int) else built:
                player.raised.add(number - 1)
                player.stages += 1
                state.enter(seat, player.side.stages[number - 1])
            for card_id in held.get("cards", ()):
                card = game.catalogue.cards[card_id]
                self.place(state, seat, Action("build", card_id), card)
                state.enter(seat, card)
            if self.kept:
                player.zones[self.kept] = [game.catalogue.cards[c] for c in held.get("kept", ())]
            # What the scenario gives replaces what entering gave; other counters (shields) stay.
            player.counters.update({**game.start_counters, **held.get("counters", {})})
            player.tokens = [(kind, value, 0) for kind, value in held.get("tokens", ())]
        state.shared = {self.discard: []}
        state.round = len(self.rounds)
        state.phase = OVER

    def printed(self, key: str) -> list[Piece]:
        """A deck's copies for this player count (cards.yaml `copies`, one least player count per copy)."""
        n = self.game.players
        return [card for card in self.game.catalogue.cards.values() for least in card.copies.get(key, ()) if least <= n]

    def deck(self, state: State | None, key: str) -> list[Piece]:
        """A round's cards for this player count, with its random parts kept (`setup.random_cards`),
        drawn from the state's generator (without a state, the first ones: for counting)."""
        return parts.kept_cards(self.printed(key), self.parts, key, self.game.players,
                                state.rng if state is not None else None)

    def round_count(self) -> int:
        """A round per deck dealt."""
        return len(self.rounds)

    def supply(self, sides) -> Supply:
        """Besides what every flow lays out, each round's deck for this player count (cards.yaml
        `copies`, one least player count per copy), of whose random part (`setup.random_cards`)
        a game keeps only some; and the turns each player plays of a round's hand."""
        out, game, n = super().supply(sides), self.game, self.game.players
        period = game.rules.round_period or "round"
        prelude = (("prelude", self.rules.prelude.deck),) if self.rules.prelude else ()
        decks = [(f"{period} {i + 1}", key) for i, (key, _) in enumerate(self.rounds)] + list(prelude)
        for where, key in decks:
            for card in game.catalogue.cards.values():
                out.add(card.id, where, sum(least <= n for least in card.copies.get(key, ())))
        for card in game.catalogue.cards.values():
            later = [least for _, key in decks for least in card.copies.get(key, ()) if least > n]
            if later and card.id not in out.sources:
                out.more_players[card.id] = min(later)
        if not (self.rules.prelude or self.rules.recruit):  # kept cards may be played at other turns
            out.turns.update((where, self.turns) for where, _ in decks)
        out.groups.extend(parts.groups(list(game.catalogue.cards.values()), self.parts, n))
        return out

    def deal(self, state: State) -> None:
        deck = state.shared.pop(f"deck {self.rounds[state.round][0]}")
        state.rng.shuffle(deck)
        size = self.rules.hand_size
        for seat, player in enumerate(state.players):
            player.zones[self.hand] = deck[seat * size:(seat + 1) * size]
        state.flow_state.turn = 0
        self.begin_turn(state)

    # -- who acts, and how
    def current_players(self, state: State) -> list[int]:
        if state.phase == CHOOSE:
            pending = state.flow_state.pending
            return [s for s, p in enumerate(state.players) if s not in pending and p.zones[self.hand]]
        if state.queue:
            return [state.queue[0].seat]
        return []

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if state.phase == CHOOSE:
            return [] if seat in state.flow_state.pending else self.hand_actions(state, seat)
        if state.queue and state.queue[0].seat == seat:
            return state.decision_actions(state.queue[0])
        return []

    def hand_actions(self, state: State, seat: int) -> list[Action]:
        """Build, spend on a stage or discard each distinct card of the hand, with every undominated
        payment; a free-build power is offered only where the card would cost something."""
        player = state.players[seat]
        hand = sorted({c.id: c for c in player.zones[self.hand]}.values(), key=lambda c: c.id)
        if state.flow_state.part == PRELUDE:
            return [recurring(KEEP, card.id) for card in hand]
        power = self.free_power(state, seat) is not None
        forbids = self.forbidding and state.forbids  # `forbid trade`, `forbid chains`: rare, so looked for only then
        sellers = state.sellers(seat) if forbids else tuple([state.players[s].public for s in self.game.seller_seats[seat]])
        known = self.known(player, sellers, seat, state.market(seat) if player.first or self.game.banked else NO_MARKET)
        unique, out, chains = self.game.unique_cards, [], not (forbids and forbids(seat, "chains"))
        priced = self.priced  # else every piece costs what it says: most games
        for card in hand:
            if unique and card.id in player.built:  # `State.may_hold`, inline: a hot path
                continue
            if chains and card.chains & player.built:
                out.append(recurring("build", card.id))
                continue
            cost = state.price(seat, card) if priced else card.cost
            pays = self.payments(player, cost, sellers, known)
            out += [recurring("build", card.id, pay) for pay in pays]
            if power and (pays != [()] or cost.counters):
                out.append(Action("build", card.id, free=True))
        side = player.side
        if player.stages < len(side.stages):
            # stages built in any order (`requires`): each open one, its action naming it
            ready = ((None, side.stages[player.stages]),) if side.in_order else \
                open_stages(side.stages, frozenset(player.raised))
            free = self.stage_free and state.power(seat, "stage_free") is not None  # `build stage free`
            for number, stage in ready:  # a stage may be built as a copy of a neighbour's, at its cost
                sides = self.copying.get(stage.id) if self.copying else None
                for paid in (stage,) if sides is None else state.stages_to_copy(seat, sides):
                    choice = paid.id if sides is not None else None if number is None else str(number)
                    cost = state.price(seat, paid, stage=True) if priced else paid.cost
                    pays = self.payments(player, cost, sellers, known)
                    out += [recurring("stage", card.id, pay, choice) for card in hand for pay in pays]
                    if free and (pays != [()] or cost.counters):
                        out += [Action("stage", card.id, free=True, choice=choice) for card in hand]
        out += [recurring("discard", card.id) for card in hand]
        return out

    def known(self, player: Player, sellers: tuple, seat: int, market: tuple) -> tuple:
        """What a seat's production, its sellers', its prices and its `market` give every cost, kept
        from one look at the hand to the next while none of them changes (most turns): (those, their
        `reach`, the undominated payments found so far by cost, the market). A pure function of
        them, so shared by every position of the game (a search's too)."""
        position = (player.units, sellers, player.prices, market)
        known = self.seen.get(seat)
        if known is None or known[0] != position:  # the same tuples, mostly: compared at once
            known = self.seen[seat] = (position, reach(player.units, sellers, market[1]), {}, market)
        return known

    def payments(self, player: Player, cost, sellers: tuple, known: tuple) -> list[tuple[int, ...]]:
        """Every undominated payment of a cost the player can afford with the coins it holds now
        (`()` when its own production suffices), buying from `sellers` (what each neighbour sells)
        and the bank; `known`, what `known` keeps for the player, sellers and market."""
        counters, currency = player.counters, self.game.currency
        coins = counters.get(currency, 0)
        for name, amount in cost.counters:
            if counters.get(name, 0) < amount:
                return []
            if name == currency:
                coins -= amount
        if not cost.resources:
            return [()]
        found = kept_payments(cost.resources, cost.spare, player.units, sellers, player.prices, known)
        return [pay if any(pay) else () for pay in found if sum(pay) <= coins] if found else []

    def free_power(self, state: State, seat: int) -> Owned | None:
        """An unspent power of building a card of the hand free (`build free once per age`)."""
        for owned in state.players[seat].abilities:
            if "build_free" in owned.effect.verbs and state.available(seat, owned) and not any(
                    a.args.zones for a in owned.effect.actions if a.verb == "build_free"):
                return owned
        return None

    def hand_decision(self, state: State, decision: Decision) -> list[Action]:
        """A card of the hand played now (the round's last card, an extra action)."""
        return self.hand_actions(state, decision.seat) if state.players[decision.seat].zones[self.hand] else []

    def play_from_hand(self, state: State, decision: Decision, action: Action) -> None:
        self.reveal(state, {decision.seat: action}, end_turn=False)

    def extra_action(self, state: State, seat: int, args) -> None:
        """`extra action`: a card of the hand played at once, paid as in a turn."""
        state.ask(seat, EXTRA, args)

    # -- carrying out
    def apply(self, state: State, seat: int, action: Action) -> None:
        if state.phase == CHOOSE:
            own = state.flow_state
            own.pending[seat] = action
            if len(own.pending) == own.pickers:
                self.reveal(state)
            return
        state.answer(seat, action)
        self.advance(state)

    def reveal(self, state: State, chosen: dict[int, Action] | None = None, end_turn: bool = True) -> None:
        """Carry out the chosen actions as if at once: every card is paid for, at the price its
        player saw when choosing, and placed before any effect runs; coins paid to other players
        arrive last."""
        chosen = chosen if chosen is not None else state.flow_state.pending
        income = [0] * len(state.players)
        placed, deferred = [], self.priced
        # a price may hang on hands and coins that the others' actions change: all read first
        seen = {seat: self.price_seen(state, seat, chosen[seat]) for seat in chosen} if deferred else {}
        for seat in sorted(chosen):
            action = chosen[seat]
            card = take_card(state.players[seat].zones[self.hand], action.card)
            self.pay(state, seat, action, card, income, seen.get(seat))
            placed.append((seat, action, card, None if deferred else self.place(state, seat, action, card)))
        if deferred:  # a price may hang on what others place: every card is placed once all are paid
            placed = [(seat, action, card, self.place(state, seat, action, card)) for seat, action, card, _ in placed]
        for seat, action, card, piece in placed:
            if action.verb == KEEP:
                continue
            if action.verb == "discard":
                for owned in self.on_discard:
                    state.run(seat, owned)
                if DISCARD in self.game.doings:
                    state.happen(DISCARD, seat, card)
            elif action.verb == "stage":
                state.enter(seat, piece)
                if action.choice in self.stages:  # built as a copy of this stage (`with cost`)
                    state.enter(seat, self.stages[action.choice])
                state.fire(STAGE, (seat,))
            else:
                state.gain_card(seat, card, placed=True)
                if CHAIN in self.game.doings and state.chained(seat, card):
                    state.happen(CHAIN, seat, card)
        currency = self.game.currency
        for seat, coins in enumerate(income):
            if coins:
                state.gain(seat, currency, coins)
        for seat in chosen if BUY in self.game.doings or SELL in self.game.doings else ():
            state.traded(seat, self.game.seller_seats[seat], chosen[seat].pay)
        if self.game.rules.objectives is not None:
            state.claim(sorted(chosen))
        if end_turn:
            state.flow_state.pending = {}
            self.end_turn(state)

    def price_seen(self, state: State, seat: int, action: Action):
        """What the action's card or stage costs the seat as it chose it (`State.price`)."""
        player = state.players[seat]
        if action.verb == "build":
            return state.price(seat, next(c for c in player.zones[self.hand] if c.id == action.card))
        return state.price(seat, self.paid_stage(player, action), stage=True) if action.verb == "stage" else None

    def paid_stage(self, player: Player, action: Action) -> Piece:
        """The stage a `stage` action pays for: the one it builds, or the neighbour's it copies."""
        return self.stages.get(action.choice) or player.side.stages[stage_index(player, action)]

    def pay(self, state: State, seat: int, action: Action, card: Piece, income: list[int], seen=None) -> None:
        """Pay for the action: the piece's cost (`seen`, its price as chosen, in a pack whose prices
        vary), and the coins of its trades."""
        player = state.players[seat]
        if action.verb in ("discard", KEEP):
            return
        if action.free:
            state.spend(seat, self.free_power(state, seat) if action.verb == "build" else state.power(seat, "stage_free"))
            return
        if action.verb == "build":
            if state.chained(seat, card):
                return
            piece = card
        else:
            piece = self.paid_stage(player, action)
        cost = seen or piece.cost
        for name, amount in cost.counters:
            player.counters[name] -= amount
        if action.pay:
            player.counters[self.game.currency] -= sum(action.pay)
            for to, coins in zip(self.game.seller_seats[seat], action.pay):  # what the bank takes goes nowhere
                income[to] += coins
            if player.first and any(c for c, cheaper in zip(action.pay, player.first) if cheaper):
                player.bought = state.turns_played  # the turn's first purchase is made

    def place(self, state: State, seat: int, action: Action, card: Piece) -> Piece:
        """Put the card where the action sends it; returns the piece whose effects apply."""
        player = state.players[seat]
        if action.verb == KEEP:
            player.zones[self.rules.prelude.keep].append(card)
            return card
        if action.verb == "discard":
            self.lay_face_down(state, seat, [card])
            return card
        if action.verb == "stage":
            player.tucked.append(card)
            state.flow_state.tucked.setdefault(seat, []).append(self.pool_round(state))
            index = stage_index(player, action)
            player.raised.add(index)
            player.stages += 1
            return player.side.stages[index]
        player.zones[self.city].append(card)
        player.built.add(card.id)
        return card

    # -- the end of a turn and of a round
    def begin_turn(self, state: State) -> None:
        state.phase = START
        state.begin_turn(range(len(state.players)))
        self.advance(state)

    def pick(self, state: State) -> None:
        """A turn of picks without a turn's events (a prelude's)."""
        state.phase = START
        self.advance(state)

    def end_turn(self, state: State) -> None:
        """After the last turn of a round, a player with a `play last card` power plays their last
        card, one with an extra action still to take keeps theirs for it (what is left goes once
        the turn is over); everyone else's is discarded at once, for nothing (so a choice made at
        this turn's end, `build card from discard free`, sees it)."""
        state.phase = LAST
        if state.flow_state.turn == self.turns - 1 and state.flow_state.part is None:
            for seat, player in enumerate(state.players):
                plays = state.power(seat, PLAY_LAST)
                if plays is not None and player.zones[self.hand]:
                    state.queue.append(Decision(seat, PLAY_LAST, {}, plays))
                elif not self.acts_again(state, seat):
                    self.discard_hand(state, seat)
        self.advance(state)

    def acts_again(self, state: State, seat: int) -> bool:
        """Whether the seat has an extra action to take this turn: asked, or held `at turn end`."""
        return any(d.seat == seat and d.kind == EXTRA for d in state.queue) or any(
            "extra_action" in o.effect.verbs and state.available(seat, o)
            for o in state.players[seat].waiting.get(TURN_END_EVENT, ()))

    def discard_hand(self, state: State, seat: int) -> None:
        player = state.players[seat]
        self.lay_face_down(state, seat, player.zones[self.hand])
        player.zones[self.hand] = []

    def lay_face_down(self, state: State, seat: int, cards: list[Piece]) -> None:
        """Cards of the seat's onto the discard pile, face down, their round and seat recorded."""
        pile, own = state.shared[self.discard], state.flow_state
        own.laid = laid_where(pile, own.laid) + [(card.id, self.pool_round(state), seat) for card in cards]
        pile += cards

    def advance(self, state: State) -> None:
        """Go on until a player owes a decision (one with no possible choice lapses), or must pick."""
        while state.lapse() is None and state.phase != OVER:
            if state.phase == START:
                state.phase = CHOOSE
                state.flow_state.pickers = sum(1 for p in state.players if p.zones[self.hand])
                if state.flow_state.pickers:
                    return
                self.end_turn(state)  # nobody holds a card: the turn passes
                return
            if state.phase == LAST:
                state.phase = TURN_END
                if state.flow_state.part != PRELUDE:
                    state.end_turn(range(len(state.players)))
            else:
                if state.flow_state.turn == self.turns - 1 and state.flow_state.part is None:
                    for seat in range(len(state.players)):
                        self.discard_hand(state, seat)  # what an extra action left
                state.fight()
                self.next_turn(state)
                return

    def next_turn(self, state: State) -> None:
        state.turns_played += 1
        own = state.flow_state
        if own.part is not None:
            self.next_kept_turn(state)
            return
        if own.turn < self.turns - 1:
            self.pass_hands(state)
            own.turn += 1
            self.begin_turn(state)
            return
        state.end_round()
        state.round += 1
        if state.round == len(self.rounds):
            state.finish()
        else:
            self.start_round(state)

    def pass_hands(self, state: State, direction: str | None = None) -> None:
        direction = direction or self.rounds[state.round][1]
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

    # -- what a seat sees, and what it does not
    def hidden(self, state: State, seat: int) -> list[Hidden]:
        """Besides what every game hides: the other hands (one pool: all were dealt from this
        round's deck) and the cards the others laid face down, discarded or tucked under a stage,
        each in the pool of the round it was laid in (this round's: with the hands). A card that
        came to the discard pile otherwise keeps its contents, its order only hidden. The decks of
        later rounds are not pieces to swap: `resample` makes them again from the pack."""
        out = super().hidden(state, seat)
        others = [s for s in range(len(state.players)) if s != seat]
        kept = state.flow_state.part is not None  # the hands hold kept cards (a prelude's, or recruits)
        out += [Hidden.whole(state.players[s].zones[self.hand], KEPT if kept else self.hand) for s in others]
        out += self.kept_hidden(state, others)
        pool = {r: self.hand if r == state.round else f"laid@{r}" for r in range(state.round + 1)}
        pool[-1] = KEPT
        pile = state.shared[self.discard]
        for i, origin in enumerate(laid_where(pile, state.flow_state.laid)):
            if origin is None:
                out.append(Hidden(pile, i, i + 1, self.discard))
            elif origin[2] != seat:
                out.append(Hidden(pile, i, i + 1, pool[origin[1]]))
        for s in others:  # (a card never leaves from under a stage: the rounds stay in step)
            tucked = state.players[s].tucked
            out += [Hidden(tucked, i, i + 1, pool[r]) for i, r in enumerate(state.flow_state.tucked.get(s, ()))]
        return out

    def committed(self, state: State) -> Iterable[int]:
        return state.flow_state.pending

    def resample(self, state: State, seat: int, rng: random.Random) -> None:
        """The decks of later rounds made again (their random part too), the cards of the random
        part in other hands drawn again with those left in the box, and the others' committed
        picks chosen again from their new hands."""
        for deck, _ in self.rounds[state.round + 1:]:
            if f"deck {deck}" in state.shared:
                state.shared[f"deck {deck}"] = self.deck(state, deck)
        if state.round < len(self.rounds):
            parts.redraw(state, self.parts, self.rounds[state.round][0], self.hand, seat, rng)
        own = state.flow_state
        for other in [s for s in own.pending if s != seat]:
            del own.pending[other]
            own.pending[other] = rng.choice(self.hand_actions(state, other))
        own.pending = dict(sorted(own.pending.items()))

    def observation(self, state: State, seat: int) -> dict:
        decision = state.queue[0] if state.phase in (LAST, TURN_END) and state.queue else None
        return {
            "seat": seat,
            "round": min(state.round + 1, len(self.rounds)),
            "turn": state.flow_state.turn + 1,
            "phase": state.phase,
            "to_act": self.current_players(state),
            "committed": sorted(state.flow_state.pending),
            "hand": sorted(c.id for c in state.players[seat].zones[self.hand]),
            **({"kept": sorted(c.id for c in state.players[seat].zones.get(self.kept, ()))} if self.kept else {}),
            **({"part": state.flow_state.part} if state.flow_state.part else {}),
            "decision": decision.kind if decision is not None and decision.seat == seat else None,
            "discard": len(state.shared[self.discard]),
            "players": [self.public(state, s, seat) for s in range(len(state.players))],
        }

    def public(self, state: State, seat: int, viewer: int) -> dict:
        player = state.players[seat]
        return {
            "seat": seat,
            "wonder": player.side.wonder,
            "side": player.side.side,
            "stages": player.stages,
            "counters": dict(player.counters),
            "city": [c.id for c in player.zones[self.city]],
            "tokens": [[kind, value] for kind, value, _ in state.shown_tokens(seat, viewer)],
            "hand_size": len(player.zones[self.hand]),
            **({"kept_size": len(player.zones.get(self.kept, ()))} if self.kept else {}),
        }


def laid_where(pile: list[Piece], laid: list) -> list[tuple[str, int, int] | None]:
    """For each card of the pile, the (id, round, seat) it was laid face down with, None for a card
    that came there otherwise: `laid` itself while it is in step with the pile, place by place (a
    determinization changes which card lies where, not where each was laid from); else, a card
    having left the pile or come to it another way, matched again by id in the order laid."""
    if len(laid) == len(pile):
        return laid
    waiting: dict[str, list] = {}
    for entry in reversed(laid):
        if entry is not None:
            waiting.setdefault(entry[0], []).append(entry)
    return [waiting[c.id].pop() if waiting.get(c.id) else None for c in pile]


def stage_index(player: Player, action: Action) -> int:
    """The index of the stage a `stage` action builds: the one it names (stages built in any order),
    else the next."""
    return int(action.choice) - 1 if action.choice is not None and action.choice.isdigit() else player.stages


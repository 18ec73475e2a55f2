"""The turns flow: one player at a time, clockwise from seat 0.

A turn starts (`at turn start`) with `flow.turn.effect` (take a card); then the player carries out,
in the order they choose, every duty the turn holds: the choices effects asked for (take a card, a
token), every wonder stage they can pay for with cards of their city (`flow.stages: mandatory`),
every science set they can turn in (`science.sets`, for `science.reward`). The turn ends when none
is left (`at turn end`): a battle follows if one was called, and the game ends after a turn in which
`flow.end.condition` holds for a player. A round ends once every player has had a turn.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import combinations, repeat

import attrs

from ...dsl import ast
from ...dsl.vocabulary import WONDER
from ..core.actions import Action
from ..core.decisions import DECIDERS
from ..core.events import STAGE
from ..core.hidden import Hidden
from ..core.holdings import GIVEN, Decision, Owned, rule_effects
from ..core.payment import lighter_needs, spendings
from ..core.runtime import OVER
from ..core.state import State
from ..packs.catalogue import ONE_SIDE, Cost, Piece, open_stages
from .flow import Flow, FlowState, reads_prices

TURN = "turn"
TURN_KEY = "turn"  # the pseudo-piece carrying `flow.turn.effect`: its choice comes before any other


@attrs.frozen
class TurnsRules:
    """`flow:` of a game in turns: the zones, what a turn starts with, the stages, the end."""

    build_zone: str
    discard_zone: str
    turn: tuple
    mandatory_stages: bool
    end: object
    zones = frozenset()  # it lays out cards only as the core does
    sells_missing = False  # a resource is paid with a card that produces it

    @staticmethod
    def problems(rules: dict):
        return iter(())

    @classmethod
    def read(cls, flow: dict, compiled: dict) -> "TurnsRules":
        return cls(flow["build_zone"], flow["discard_zone"], compiled.get(("flow", "turn", "effect"), ()),
                   flow.get("stages") == "mandatory", compiled.get(("flow", "end", "condition")))


@attrs.define
class TurnsState(FlowState):
    """Whose turn it is, how many actions had been played when it began, turns in a row with
    nothing to do, and whether this turn's end has come."""

    active: int = 0
    turn_began: int = 0
    idle: int = 0
    ending: bool = False

    def clone(self) -> "TurnsState":
        return attrs.evolve(self)


class Turns(Flow):
    """The flow's rules, read once."""

    def __init__(self, game):
        super().__init__(game)
        rules: TurnsRules = game.rules.flow
        self.city, self.discard = rules.build_zone, rules.discard_zone
        self.turn_effects = rule_effects(TURN_KEY, rules.turn)
        self.end = rules.end
        # The game ends after the first turn in which someone meets its end condition; one that reads
        # only the player's own wonder (`wonder complete`, maybe with `players ...`) changes only in
        # their own turn, as only the player whose turn it is builds stages: at most one player meets
        # it as a game ends. Not so of others (a battle, say, may give several at once what it reads).
        self.sole_end = rules.end if rules.end is not None and _own_wonder(rules.end.tree) else None
        self.mandatory_stages = rules.mandatory_stages
        science = game.rules.science
        self.identical, self.different = science.identical, science.different
        self.smallest_set = min((n for n in (science.identical, science.different) if n), default=0)
        self.reward = rule_effects("science reward", science.reward)
        self.reward_choice = _first_choice(science.reward)
        self.reward_asks = [Decision(seat, *self.reward_choice) for seat in range(game.players)] if self.reward_choice else []
        self.wild = game.rules.wild
        self.objectives = game.rules.objectives is not None  # objectives are claimed as each turn ends
        self.boosting = "spend_as" in game.verbs  # some card may pay more than it produces (`purse`)
        self.priced = reads_prices(game, [stage for side in game.catalogue.sides.values() for stage in side.stages])
        wonders = len(game.catalogue.wonders())
        if wonders < game.players:
            raise game.cannot_deal(f"each is dealt a wonder, and it has {wonders}", ("dealt", "wonders"))

    def new_state(self) -> TurnsState:
        return TurnsState()

    # -- setup
    def setup(self, state: State) -> None:
        game, rng, decks = self.game, state.rng, self.game.rules.setup.wonder_decks
        for side in game.deal_wonders(rng):
            player = self.new_player(side)
            if decks:
                player.zones[decks] = game.cards(side.deck)
                rng.shuffle(player.zones[decks])
            state.players.append(player)
        self.lay_out(state)
        self.welcome_players(state)
        self.start_turn(state, 0)

    def arrange(self, state: State, holdings: list[dict]) -> None:
        """A finished position from what each player holds: `wonder`, `stages` (built stage numbers),
        `cards` (ids, in the city), `counters`, `tokens` ((kind, value) pairs), `pieces` (component
        kind -> ids held: progress tokens, medals) and `pawns` (names held). `scenario_players.py` checks ids."""
        game = self.game
        for held in holdings:
            state.players.append(self.new_player(game.catalogue.sides[held["wonder"], held.get("side", ONE_SIDE)]))
        state.shared = {self.discard: []}
        state.pawns = {pawn: None for pawn in game.pack.vocabulary.all("pawn")}
        self.welcome_players(state)
        for seat, held in enumerate(holdings):
            player = state.players[seat]
            for number in held.get("stages", ()):
                player.raised.add(number - 1)
                player.stages += 1
                state.enter(seat, player.side.stages[number - 1])
            for card_id in held.get("cards", ()):
                card = game.catalogue.cards[card_id]
                player.zones[self.city].append(card)
                state.enter(seat, card)
            for kind, ids in held.get("pieces", {}).items():
                for pid in ids:
                    piece = game.catalogue.others[kind][pid]
                    player.zones.setdefault(kind, []).append(piece)
                    state.enter(seat, piece)
            player.counters.update(held.get("counters", {}))
            player.tokens = [(kind, value, 0) for kind, value in held.get("tokens", ())]
        state.pawns = {pawn: None for pawn in state.pawns}  # where the holdings say, whatever stages did
        for seat, held in enumerate(holdings):
            for pawn in held.get("pawns", ()):
                state.pawns[pawn] = seat
        state.queue = []
        state.phase = OVER

    # -- a turn
    def start_turn(self, state: State, seat: int) -> None:
        own = state.flow_state
        own.active, own.turn_began, own.ending = seat, len(state.history), False
        state.turns_played += 1
        state.phase = TURN
        state.begin_turn((seat,))
        for owned in self.turn_effects:
            state.run(seat, owned)
        self.settle(state)

    def extra_action(self, state: State, seat: int, args) -> None:
        """`extra action`: the player takes a card once more, as a turn starts (a choice of the
        effect asking for it)."""
        for owned in self.turn_effects:
            if owned.effect.applies(state, seat):
                state.carry_out(seat, state.source, owned.effect.actions)

    def current_players(self, state: State) -> list[int]:
        """Who acts now: a player owing the first choice in another's turn (after a battle, say),
        else the player whose turn it is."""
        if state.phase == OVER:
            return []
        return [state.queue[0].seat if state.queue else state.flow_state.active]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        active, queue = state.flow_state.active, state.queue
        if state.phase == OVER:
            return []
        if queue and queue[0].seat != active:  # as `current_players` says
            return state.decision_actions(queue[0]) if seat == queue[0].seat else []
        if seat != active:
            return []
        mine = [d for d in state.queue if d.seat == seat]
        if mine and _first(mine[0]):
            return state.decision_actions(mine[0])  # the turn's own take, a choice's second step, come first
        out: list[Action] = []
        for decision in mine:
            out += [a for a in state.decision_actions(decision) if a not in out]
        if state.flow_state.ending:
            return out
        return out + self.stage_actions(state, seat) + self.science_actions(state, seat)

    def stage_actions(self, state: State, seat: int) -> list[Action]:
        """Each available stage with each way to pay for it with cards of the city (and the units a
        limited power produces); with an `ignore` power, the ways that ignore the cost's kind too;
        with a `spend ... as` power, the ways paying with cards worth more (fewer cards, then)."""
        if not self.mandatory_stages:
            return []
        player = state.players[seat]
        available = open_stages(player.side.stages, frozenset(player.raised))
        if not available:
            return []
        have, ignore = self.held(state, seat), state.power(seat, "ignore") is not None
        purse = self.purse(state, seat) if self.boosting and player.abilities else ()
        out = []
        priced = self.priced
        for number, stage in available:
            cost = state.price(seat, stage, stage=True) if priced else stage.cost
            out += paid_stage_actions(number, cost, have, self.wild, ignore, purse)
        return out

    def science_actions(self, state: State, seat: int) -> list[Action]:
        """Every set of symbols of the city's cards the seat can turn in, each with every answer to
        the first choice its reward asks (a set is not turned in when that choice has none)."""
        player = state.players[seat]
        if not self.smallest_set or len(player.symbols) < self.smallest_set:
            return []
        if not _sets(tuple(player.symbols), self.identical, self.different):
            return []  # most looks: no set even counting every symbol held
        held = tuple(s for card in player.zones[self.city] for s in _symbols(card))  # only cards are turned in
        sets = _sets(held, self.identical, self.different)
        if not sets:
            return []
        if self.reward_choice is None:
            return [Action("set", spend=spend) for spend in sets]
        decision = self.reward_asks[seat]
        answers = DECIDERS[decision.kind].actions(state, decision)
        return [a._replace(spend=spend) for spend in sets for a in answers]

    # -- carrying out
    def apply(self, state: State, seat: int, action: Action) -> None:
        if action.verb == "stage":
            self.build_stage(state, seat, action)
        elif action.spend:
            self.turn_in(state, seat, action)
        else:
            state.answer(seat, action)
        self.settle(state)

    def build_stage(self, state: State, seat: int, action: Action) -> None:
        """Spend the cards, build, run its effects. A way that only cards worth more (`spend ...
        as`) pay uses those powers and spends the cards worth most; any other spends a power's unit
        first where it gives what is spent."""
        player = state.players[seat]
        index = int(action.choice) - 1
        stage = player.side.stages[index]
        cost = state.price(seat, stage, stage=True) if self.priced else stage.cost
        have, spend = self.held(state, seat), list(action.spend)
        ignore = state.power(seat, "ignore")
        boosts = self.boosts(state, seat) if self.boosting and player.abilities else []
        purse = self.purse(state, seat, boosts) if boosts else ()
        # a way the cards' own worth pays is paid so, leaving the `spend ... as` powers unused
        boosted = bool(purse) and action.spend not in _ways(cost, have, self.wild, ignore is not None)
        if ignore is not None and action.spend not in (_boosted_ways(cost, purse, self.wild, False) if boosted
                                                       else _ways(cost, have, self.wild, False)):
            state.spend(seat, ignore)
        city = player.zones[self.city]
        if boosted:
            used = []  # the powers that valued a card spent (the first that matches it, as `_worth`)
            units = self.powers(state, seat)  # (power, resource) of the limited powers' units
            for resource in spend:
                at = max(range(len(city)), key=lambda i: _worth(city[i], boosts, resource), default=None)
                unit = next((u for u in units if u[1] == resource), None)
                if unit is not None and (at is None or _worth(city[at], boosts, resource) <= 1):
                    units.remove(unit)  # worth what a card of 1 is: the card is kept
                    state.spend(seat, unit[0])
                    continue
                used += [o for o, args in boosts if args.cards(city[at])][:1]
                self.discard_card(state, seat, at)
            for owned, _ in boosts:
                if owned in used:
                    state.spend(seat, owned)
        else:
            for owned, resource in self.powers(state, seat):
                if resource in spend:
                    spend.remove(resource)
                    state.spend(seat, owned)
            for resource in spend:
                self.discard_card(state, seat, next(i for i, c in enumerate(city) if resource in _produces(c)))
        player.raised.add(index)
        player.stages += 1
        state.enter(seat, stage)
        state.fire(STAGE, (seat,))

    def turn_in(self, state: State, seat: int, action: Action) -> None:
        """A science set: its cards are discarded, its reward runs, and the reward's first choice is
        made as the action says."""
        city = state.players[seat].zones[self.city]
        for symbol in action.spend:
            self.discard_card(state, seat, next(i for i, c in enumerate(city) if _symbols(c) == ((symbol,),)))
        asked = len(state.queue)
        for owned in self.reward:
            state.run(seat, owned)
        if self.reward_choice is not None and len(state.queue) > asked:
            state.answer(seat, action._replace(spend=()), state.queue[asked])

    def discard_card(self, state: State, seat: int, index: int) -> None:
        """The card at `index` of the seat's city leaves it for the discard."""
        card = state.players[seat].zones[self.city].pop(index)
        state.leave(seat, card)
        state.shared[self.discard].append(card)

    def held(self, state: State, seat: int) -> tuple[str, ...]:
        """The resources the seat could spend now, sorted: its cards' (what they produce: only cards
        produce in this flow, check.py says so), and those its limited powers produce."""
        player = state.players[seat]
        have = _spendable(player.units)
        if player.abilities:
            return tuple(sorted(have + tuple(r for _, r in self.powers(state, seat))))
        return have

    def boosts(self, state: State, seat: int) -> list[tuple[Owned, object]]:
        """(power, its args) of each unspent `spend <cards> as N <resource>` whose condition holds."""
        return [(o, a.args) for o in state.players[seat].abilities
                if "spend_as" in o.effect.verbs and state.available(seat, o) and o.effect.applies(state, seat)
                for a in o.effect.actions if a.verb == "spend_as"]

    def purse(self, state: State, seat: int, boosts: list | None = None) -> tuple[tuple[str, int], ...]:
        """(resource, worth) of each card of the city as the seat's `spend ... as` powers make it
        when spent, and of each unit its limited powers produce, sorted; () without such a power
        (the cards are then worth what they produce)."""
        boosts = self.boosts(state, seat) if boosts is None else boosts
        if not boosts:
            return ()
        out = [(r, 1) for _, r in self.powers(state, seat)]
        for card in state.players[seat].zones[self.city]:
            worth = next(((args.resource, args.count) for _, args in boosts if args.cards(card)), None)
            out += [worth] if worth is not None else [(r, 1) for r in _produces(card)]
        return tuple(sorted(out))

    def powers(self, state: State, seat: int) -> list[tuple[Owned, str]]:
        """(power, resource) of each unspent `produce ... once per turn` whose condition holds."""
        return [(o, r) for o in state.players[seat].abilities
                if "produce" in o.effect.verbs and state.available(seat, o) and o.effect.applies(state, seat)
                for a in o.effect.actions if a.verb == "produce" for r in a.args.resources[:1]]

    def settle(self, state: State) -> None:
        """Go on until someone must act; once the turn's duties are done, end it: `at turn end`,
        the battle it called, then the end check and the next player's turn."""
        own, n = state.flow_state, len(state.players)
        if self.objectives:
            state.claim([own.active])
        while True:
            owed = state.owed() if state.queue else None
            if owed is not None and owed[0].seat != own.active:
                return
            if not own.ending:
                first = owed is not None and _first(owed[0])
                actions = owed[1] if first else self.legal_actions(state, own.active)  # the turn's take first
                if actions:
                    state.legal[own.active] = actions  # worked out anyway: kept for the player's next look
                    return
                own.ending = True
                state.end_turn((own.active,))
                if state.queue:
                    continue  # the turn's end asked for choices
            elif owed is not None:
                return
            if not state.battle:
                break
            state.fight(own.active)
        # A turn with nothing to do (every deck empty) is idle; a round of them ends the game too.
        own.idle = own.idle + 1 if len(state.history) == own.turn_began else 0
        if self.ended(state) or own.idle >= n:
            state.finish()
            return
        following = (own.active + 1) % n
        if following == 0:
            state.end_round()
            state.round += 1
        self.start_turn(state, following)

    def ended(self, state: State) -> bool:
        """Whether `flow.end.condition` holds for some player."""
        n = len(state.players)
        return self.end is not None and any(map(self.end, repeat(state, n), range(n)))

    # -- what a seat sees, and what it does not
    def hidden(self, state: State, seat: int) -> list[Hidden]:
        """Besides what every game hides: each wonder's deck under its face-up top card, its own
        pool (what a wonder's deck holds is in the pack, less the cards seen taken from it)."""
        decks, out = self.game.rules.setup.wonder_decks, super().hidden(state, seat)
        if decks:
            out += [Hidden.under_top(p.zones[decks], 1, f"{decks}@{s}") for s, p in enumerate(state.players)]
        return out

    def observation(self, state: State, seat: int) -> dict:
        offer = self.game.rules.setup.offer
        shared = {}
        for zone, cards in state.shared.items():
            if offer is not None and zone == offer.stack:
                shared[zone] = {"size": len(cards)}  # face down: not even its order shows
            elif zone in self.game.face_down:
                peeking = seat == state.flow_state.active and not state.hidden(seat, zone)
                shared[zone] = {"size": len(cards), "top": cards[-1].id if peeking and cards else None}
            else:
                shared[zone] = [c.id for c in cards]
        return {
            "seat": seat,
            "active": state.flow_state.active,
            "phase": state.phase,
            "to_act": self.current_players(state),
            "shared": shared,
            "flips": {k: list(v) for k, v in state.flips.items()},
            "pawns": dict(state.pawns),
            "players": [self.public(state, s, seat) for s in range(len(state.players))],
        }

    def public(self, state: State, seat: int, viewer: int) -> dict:
        """A player's holdings as `viewer` sees them: a deck shows its top card, a card given face
        down shows only to its receiver."""
        player = state.players[seat]
        zones = {}
        for zone, cards in player.zones.items():
            if zone == self.game.rules.setup.wonder_decks:
                zones[zone] = {"size": len(cards), "top": cards[-1].id if cards else None}
            elif zone == GIVEN and viewer != seat:
                zones[zone] = {"size": len(cards)}
            else:
                zones[zone] = [c.id for c in cards]
        return {
            "seat": seat,
            "wonder": player.side.wonder,
            "stages": sorted(i + 1 for i in player.raised),
            "counters": dict(player.counters),
            "zones": zones,
            "tokens": [kind for kind, _, _ in state.shown_tokens(seat, viewer)],
        }


def _first(decision: Decision) -> bool:
    """Whether the decision is answered alone, before the turn's other duties: the turn's own take,
    or the second step of a choice (after a `look`)."""
    return decision.within is not None or decision.owned.piece.id == TURN_KEY


def _first_choice(effects) -> tuple[str, dict] | None:
    """(kind, arguments) of the choice a reward asks first, if its first action asks one."""
    for effect in effects[:1]:
        action = effect.actions[0]
        kind = action.node.asks(action.args)
        if effect.condition is None and kind in DECIDERS:
            return kind, action.args
    return None


@lru_cache(maxsize=1 << 14)
def paid_stage_actions(number: int, cost: Cost, have: tuple[str, ...], wild: str | None, ignore: bool,
                        purse: tuple[tuple[str, int], ...] = ()) -> tuple[Action, ...]:
    """The actions building stage `number`, one per way to pay its cost (with a `purse`, the ways
    paying with cards as it values them too). Keyed by cost, not stage: wonders often share their
    stage costs, and so the same few holdings recur across games."""
    ways = _ways(cost, have, wild, ignore)
    if purse:
        ways = tuple(sorted(set(ways) | set(_boosted_ways(cost, purse, wild, ignore))))
    return tuple(Action("stage", spend=way, choice=str(number)) for way in ways)


@lru_cache(maxsize=1 << 14)
def _ways(cost, have: tuple[str, ...], wild: str | None, ignore: bool) -> tuple[tuple[str, ...], ...]:
    """Every way to pay a stage's `cost` from the resources held (see `spendings`), leaving out
    the `spare` resources the player chooses; with `ignore`, also the ways that ignore the kind
    the cost asks for. The same few holdings recur all game long."""
    held, ways = Counter(have), set()
    for fixed in lighter_needs(cost.resources, cost.spare):
        ways.update(spendings(fixed, cost.kinds, held, wild))
        if ignore:
            ways.update(spendings(fixed, cost.kinds, held, wild, ignore_kinds=True))
    return tuple(sorted(ways))


@lru_cache(maxsize=1 << 12)
def _boosted_ways(cost, purse: tuple[tuple[str, int], ...], wild: str | None, ignore: bool) -> tuple[tuple[str, ...], ...]:
    """Every way to pay a stage's `cost` with cards worth what `purse` says ((resource, worth) a
    card): the ways to give up that many resources, each then paid with the fewest cards, those
    worth most first (a card worth 2 paying for 1 missing gives up the other). A way names
    a resource once per card spent."""
    if not purse:
        return ()
    units, worths = Counter(), {}
    for resource, worth in purse:
        units[resource] += worth
        worths.setdefault(resource, []).append(worth)
    for found in worths.values():
        found.sort(reverse=True)
    ways = set()
    for way in _ways(cost, tuple(sorted(units.elements())), wild, ignore):
        cards = []
        for resource, n in Counter(way).items():
            paid = 0
            for worth in worths[resource]:
                if paid >= n:
                    break
                paid += worth
                cards.append(resource)
        ways.add(tuple(sorted(cards, key=str)))
    return tuple(sorted(ways))


def _worth(card: Piece, boosts: list, resource: str) -> int:
    """What a card gives of `resource` when spent under these `spend ... as` powers (0: none)."""
    for _, args in boosts:
        if args.cards(card):
            return args.count if args.resource == resource else 0
    return int(resource in _produces(card))


@lru_cache(maxsize=4096)
def _sets(held: tuple[tuple[str, ...], ...], identical: int | None, different: int | None) -> tuple[tuple[str, ...], ...]:
    """The sets of symbols that can be turned in, sorted: `identical` alike or `different` unlike
    ones, from the symbols held that are not a choice."""
    symbols = Counter(s[0] for s in held if len(s) == 1)
    sets = set()
    if identical:
        sets |= {(s,) * identical for s, c in symbols.items() if c >= identical}
    if different and len(symbols) >= different:
        sets |= set(combinations(sorted(symbols), different))
    return tuple(sorted(sets))


@lru_cache(maxsize=1 << 14)
def _spendable(units: tuple) -> tuple[str, ...]:
    """The resources of production units, each resource a unit may give listed (as `_produces`)."""
    return tuple(sorted(r for unit in units for r in unit))


@lru_cache(maxsize=None)
def _produces(card: Piece) -> tuple[str, ...]:
    """The resources a card gives when spent (Architects' grey and yellow cards)."""
    return tuple(r for e in card.effects if e.trigger is None for a in e.actions if a.verb == "produce"
                 for r in a.args.resources)


@lru_cache(maxsize=None)
def _symbols(card: Piece) -> tuple[tuple[str, ...], ...]:
    """The science symbols a card bears, a tuple of choices each."""
    return tuple(tuple(a.args.symbols) for e in card.effects if e.trigger is None for a in e.actions
                 if a.verb == "science")


def _own_wonder(condition) -> bool:
    """Whether a condition turns true only as the player's own wonder is completed: `wonder
    complete`, all of parts among which such a one and the rest `players ...`, or any of such."""
    if isinstance(condition, ast.Complete):
        return condition.name.text == WONDER
    if isinstance(condition, ast.AllOf):
        return any(map(_own_wonder, condition.items)) and \
            all(_own_wonder(c) or isinstance(c, ast.Players) for c in condition.items)
    return isinstance(condition, ast.AnyOf) and all(map(_own_wonder, condition.items))

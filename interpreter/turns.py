"""The turns flow (`flow.kind: turns`): one player at a time, clockwise from seat 0.

A turn starts with `flow.turn.effect` (take a card); then the player carries out, in the order they
choose, every duty the turn holds: the choices effects asked for (take a card, a token), every
wonder stage they can pay for with cards of their city (`flow.stages: mandatory`), every science set
they can turn in for a token. The turn ends when none is left: a battle follows if one was called,
and the game ends after a turn in which `flow.end.condition` holds for a player.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import chain, combinations, repeat
from typing import TYPE_CHECKING

from ..dsl.vocabulary import ANY
from .actions import Action, recurring
from .catalogue import ONE_SIDE, Cost, Piece
from .military import battle
from .payment import spendings
from .state import Decision, Owned, Player, State, rule_effects
from .verbs import GIVEN

if TYPE_CHECKING:
    from .game import Game

TURN, OVER = "turn", "over"
SELF = "self"
TAKES = ("take_top", "take_from")  # the decisions a `take` action answers
TURN_KEY = "turn"  # the pseudo-piece carrying `flow.turn.effect`: its choice comes before any other


class Turns:
    """The flow's rules, read once from rules.yaml."""

    def __init__(self, game: "Game"):
        rules, flow = game.rules, game.rules["flow"]
        self.game = game
        self.city, self.discard = flow["build_zone"], flow["discard_zone"]
        compiled = game.pack.compiled_rules
        self.turn_effects = rule_effects(TURN_KEY, compiled.get(("flow", "turn", "effect"), ()))
        self.end = compiled.get(("flow", "end", "condition"))
        self.mandatory_stages = flow.get("stages") == "mandatory"
        self.icons = {icon: rule_effects(f"icon {icon}", compiled.get(("icons", icon), ()))
                      for icon in (rules.get("icons") or {})}
        bonuses = [e for i in range(len(rules.get("bonuses") or ())) for e in compiled.get(("bonuses", i), ())]
        self.bonuses = Piece("bonuses", "bonuses", "", effects=tuple(bonuses))
        science = rules.get("science") or {}
        self.sets = science.get("sets") or {}
        self.smallest_set = min(self.sets.values(), default=0)
        self.setup_rules = rules.get("setup") or {}
        self.wild = next(iter(rules["vocabulary"].get("wild") or ()), None)
        self.objectives = rules.get("objectives")
        self.face_down = frozenset(self.setup_rules.get("decks") or ())
        self.places: dict[tuple, tuple] = {}  # zones a sentence names, resolved per seat (see `resolve`)
        wonders = len(game.catalogue.wonders())
        if wonders < game.players:
            raise game.cannot_deal(f"each is dealt a wonder, and it has {wonders}")
        vocab = game.pack.vocabulary
        self.shared_zones, self.player_zones = sorted(vocab.all("shared_zone")), sorted(vocab.all("player_zone"))

    # -- setup
    def setup(self, state: State) -> None:
        game, rng, rules = self.game, state.rng, self.setup_rules
        decks = rules.get("wonder_decks")
        for side in game.deal_wonders(rng):
            zones = {self.city: []} | ({decks: self.cards(side.deck)} if decks else {})
            for cards in zones.values():
                rng.shuffle(cards)
            for zone in self.player_zones:  # every zone the pack names exists, if only empty
                zones.setdefault(zone, [])
            state.players.append(Player(dict(game.start_counters), zones, side=side, prices=game.start_prices))
        state.shared = {self.discard: []}
        for zone in rules.get("decks") or ():
            state.shared[zone] = self.cards((game.rules.get("decks") or {}).get(zone, {}).items())
            rng.shuffle(state.shared[zone])
        offer = rules.get("offer")
        if offer:
            stack = [p for p in game.catalogue.others.get(offer["kind"], {}).values() for _ in p.copies.get("", (0,))]
            rng.shuffle(stack)
            state.shared[offer["shown"]] = stack[:offer["face_up"]]
            state.shared[offer["stack"]] = stack[offer["face_up"]:]
        for kind, by_players in (rules.get("tokens") or {}).items():
            state.flips[kind] = (by_players.get(game.players, by_players.get(str(game.players), 0)), 0)
        state.pawns = {pawn: None for pawn in game.pack.vocabulary.all("pawn")}
        self.lay_objectives(state)
        for zone in self.shared_zones:
            state.shared.setdefault(zone, [])
        for seat, player in enumerate(state.players):
            state.enter(seat, self.bonuses)
            state.enter(seat, player.side.board)
        self.start_turn(state, 0)

    def arrange(self, state: State, holdings: list[dict]) -> None:
        """A finished position from what each player holds: `wonder`, `stages` (built stage numbers),
        `cards` (ids, in the city), `counters`, `tokens` ((kind, value) pairs), `pieces` (component
        kind -> ids held: progress tokens, medals) and `pawns` (names held). `scenario.py` checks ids."""
        game = self.game
        for held in holdings:
            side = game.catalogue.sides[held["wonder"], held.get("side", ONE_SIDE)]
            state.players.append(Player(dict(game.start_counters), {self.city: []}, side=side, prices=game.start_prices))
        state.shared = {self.discard: []}
        state.pawns = {pawn: None for pawn in game.pack.vocabulary.all("pawn")}
        for seat, held in enumerate(holdings):
            player = state.players[seat]
            state.enter(seat, self.bonuses)
            state.enter(seat, player.side.board)
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

    def lay_objectives(self, state: State) -> None:
        """`objectives`: one drawn at random between each pair of neighbours (`kind@i` lies between
        seat i and seat i+1), and with its option some in the middle (`kind`), open to all."""
        spec = self.game.rules.get("objectives")
        if not spec or not self.game.options.get(spec["option"], True):
            return
        pool = list(self.game.catalogue.others.get(spec["kind"], {}).values())
        state.rng.shuffle(pool)
        for i in range(len(state.players)):
            state.shared[f"{spec['kind']}@{i}"] = [pool.pop()]
        central = spec.get("central")
        if central and self.game.options.get(central["option"]):
            state.shared[spec["kind"]] = [pool.pop() for _ in range(central["count"])]

    def claim(self, state: State, seats: list[int]) -> None:
        """Every objective still on the table that one of these seats meets goes to the first of
        them who may reach it; one in the middle goes to each of them at once."""
        spec = self.objectives
        if not spec:
            return
        kind, n = spec["kind"], len(state.players)
        for zone, pieces in state.shared.items():
            name, _, at = zone.partition("@")
            if name != kind or not pieces:
                continue
            reach = set(range(n)) if not at else {int(at), (int(at) + 1) % n}
            for piece in list(pieces):
                winners = [s for s in seats if s in reach and piece.condition(state, s)]
                for seat in winners if not at else winners[:1]:
                    state.players[seat].zones.setdefault(kind, []).append(piece)
                    state.enter(seat, piece)
                if winners:
                    pieces.remove(piece)

    def cards(self, counts) -> list[Piece]:
        catalogue = self.game.catalogue.cards
        return [catalogue[card] for card, n in counts for _ in range(n)]

    # -- a turn
    def start_turn(self, state: State, seat: int) -> None:
        state.active = seat
        state.turn_began = len(state.history)
        state.turns_played += 1
        state.peeks = set()
        state.phase = TURN
        state.fire("turn_start", (seat,))
        if GIVEN in state.players[seat].zones:  # given face down: placed now, besides the turn
            for card in state.players[seat].zones.pop(GIVEN):
                self.gain_card(state, seat, card)
        for owned in self.turn_effects:
            state.run(seat, owned)
        self.settle(state)

    def current_players(self, state: State) -> list[int]:
        return [] if state.phase == OVER else [state.active]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if state.phase == OVER or seat != state.active:
            return []
        if state.queue and state.queue[0].owned.piece.id == TURN_KEY:
            return self.decision_actions(state, state.queue[0])  # the turn's own take comes first
        out: list[Action] = []
        for decision in state.queue:
            out += [a for a in self.decision_actions(state, decision) if a not in out]
        return out + self.stage_actions(state, seat) + self.science_actions(state, seat)

    def decision_actions(self, state: State, decision: Decision) -> list[Action]:
        if decision.kind == "take_top":
            return self.take_actions(state, decision)
        if decision.kind == "take_from":
            test = decision.args.get("cards")
            return [Action("take", cid, choice=name) for name, cards in self.zones(state, decision.seat, decision.args["zones"])
                    for cid in sorted({c.id for c in cards if test is None or test(c)})]
        if decision.kind == "take_token":
            return self.token_actions(state)
        return []

    def take_actions(self, state: State, decision: Decision) -> list[Action]:
        """A card from the top of each named deck that is not empty (`take 1 of top 5`: any of them)."""
        args, seat, out = decision.args, decision.seat, []
        depth = args.get("depth") or 1
        for name, zone, owner in self.located(state, seat, args["zones"]):
            cards = state.shared[zone] if owner is None else state.players[owner].zones[zone]
            if not cards:
                continue
            if zone in self.face_down and (seat, name, len(cards)) not in state.peeks:  # as `hidden` says
                out.append(recurring("take", None, (), name))
            elif depth == 1:
                out.append(recurring("take", cards[-1].id, (), name))
            else:
                out += [recurring("take", card, (), name) for card in sorted({c.id for c in cards[-depth:]})]
        return out

    def hidden(self, state: State, seat: int, name: str) -> bool:
        """Whether a zone's top card is face down for the seat: a shared deck filled at setup, unless
        the seat looked at the card now on top."""
        return name in self.face_down and (seat, name, len(state.shared[name])) not in state.peeks

    def zones(self, state: State, seat: int, zones) -> list[tuple[str, list[Piece]]]:
        """(name, cards) of each zone a sentence names: shared ones by name, a player's as `zone@seat`."""
        return [(name, state.shared[zone] if owner is None else state.players[owner].zones[zone])
                for name, zone, owner in self.located(state, seat, zones)]

    def zone(self, state: State, seat: int, zones, name: str) -> list[Piece]:
        """The cards of the zone called `name` among those a sentence names."""
        for place, zone, owner in self.located(state, seat, zones):
            if place == name:
                return state.shared[zone] if owner is None else state.players[owner].zones[zone]
        raise KeyError(name)

    def located(self, state: State, seat: int, zones) -> tuple[tuple[str, str, int | None], ...]:
        """`resolve`'s answer, kept for the game (per seat, sentence and chosen player)."""
        key = (seat, zones, state.chosen)
        places = self.places.get(key)
        if places is None:
            places = self.places[key] = self.resolve(state, seat, zones)
        return places

    def resolve(self, state: State, seat: int, zones) -> tuple[tuple[str, str, int | None], ...]:
        """(name, zone, owner seat or None when shared) of each zone a sentence names, each once; the
        shared zones are fixed at setup, so this holds for the whole game."""
        out = {}
        for zone, owner in zones:
            if zone in state.shared:
                out[zone] = (zone, zone, None)
                continue
            owners = range(len(state.players)) if owner == ANY else state.seats(seat, owner or SELF)
            out |= {f"{zone}@{s}": (f"{zone}@{s}", zone, s) for s in owners}
        return tuple(out.values())

    def token_actions(self, state: State, spend: tuple[str, ...] = ()) -> list[Action]:
        offer = self.setup_rules.get("offer")
        if not offer:
            return []
        out = [Action("token", tid, spend=spend, choice=offer["shown"])
               for tid in sorted({p.id for p in state.shared[offer["shown"]]})]
        if state.shared[offer["stack"]]:
            out.append(Action("token", None, spend=spend, choice=offer["stack"]))
        return out

    def stage_actions(self, state: State, seat: int) -> list[Action]:
        """Each available stage with each way to pay for it with cards of the city (and the units a
        limited power produces); with an `ignore` power, the ways that ignore the cost's kind too."""
        if not self.mandatory_stages:
            return []
        player = state.players[seat]
        available = _available(player.side.stages, frozenset(player.raised))
        if not available:
            return []
        have, ignore = self.held(state, seat), self.power(state, seat, "ignore") is not None
        out = []
        for number, stage in available:
            out += _stage_actions(number, stage.cost, have, self.wild, ignore)
        return out

    def science_actions(self, state: State, seat: int) -> list[Action]:
        """Every set of symbols the seat can turn in, with every token it could take for it."""
        held = state.players[seat].symbols
        if len(held) < self.smallest_set:
            return []
        sets = _sets(tuple(held), self.sets.get("identical"), self.sets.get("different"))
        return [a for spend in sets for a in self.token_actions(state, spend)]

    def power(self, state: State, seat: int, verb: str) -> Owned | None:
        for owned in state.players[seat].abilities:
            if verb in owned.effect.verbs and state.available(seat, owned):
                return owned
        return None

    # -- carrying out
    def apply(self, state: State, seat: int, action: Action) -> None:
        if action.verb == "take":
            takes = [d for d in state.queue if d.kind in TAKES]
            decision = takes[0] if len(takes) == 1 else next(
                d for d in takes if action in self.decision_actions(state, d))
            state.queue.remove(decision)
            if decision.kind == "take_from":
                self.take_from(state, seat, action)
            else:
                self.take(state, seat, decision, action)
            state.made(decision)
        elif action.verb == "stage":
            self.build_stage(state, seat, action)
        elif action.verb == "token":
            if action.spend:
                self.spend_symbols(state, seat, action.spend)
                self.take_token(state, seat, action)
            else:
                decision = next(d for d in state.queue if d.kind == "take_token")
                state.queue.remove(decision)
                self.take_token(state, seat, action)
                state.made(decision)
        self.settle(state)

    def take(self, state: State, seat: int, decision: Decision, action: Action) -> None:
        cards = self.zone(state, seat, decision.args["zones"], action.choice)
        depth = decision.args.get("depth") or 1
        index = len(cards) - 1 if action.card is None or depth == 1 else max(
            i for i in range(max(0, len(cards) - depth), len(cards)) if cards[i].id == action.card)
        card = cards.pop(index)
        if depth > 1:  # the cards looked at but not kept are shuffled back into their deck
            state.rng.shuffle(cards)
        self.gain_card(state, seat, card)

    def take_from(self, state: State, seat: int, action: Action) -> None:
        """A card taken from another player's city: it leaves theirs, and they are `chosen`."""
        zone, owner = action.choice.split("@")
        victim = state.players[int(owner)]
        card = next(c for c in victim.zones[zone] if c.id == action.card)
        victim.zones[zone].remove(card)
        state.leave(int(owner), card)
        state.chosen = int(owner)
        self.gain_card(state, seat, card)

    def gain_card(self, state: State, seat: int, card: Piece) -> None:
        """A card comes into the city: its effects, then what its icons do, then `on take` triggers."""
        state.players[seat].zones[self.city].append(card)
        state.enter(seat, card)
        for icon in card.icons:
            for owned in self.icons.get(icon, ()):
                state.run(seat, owned)
        for owned in [o for o in state.players[seat].lasting if o.effect.trigger == "take"]:
            test = owned.effect.trigger_cards
            if (test is None or test(card)) and state.spend(seat, owned):
                state.run(seat, owned)

    def build_stage(self, state: State, seat: int, action: Action) -> None:
        """Spend the cards (a power's unit first where it gives what is spent), build, run its effects."""
        player = state.players[seat]
        index = int(action.choice) - 1
        stage = player.side.stages[index]
        ignore = self.power(state, seat, "ignore")
        if ignore is not None and action.spend not in _ways(stage.cost, self.held(state, seat), self.wild, False):
            state.spend(seat, ignore)
        spend = list(action.spend)
        for owned, resource in self.powers(state, seat):
            if resource in spend:
                spend.remove(resource)
                state.spend(seat, owned)
        for resource in spend:
            card = next(c for c in player.zones[self.city] if resource in _produces(c))
            player.zones[self.city].remove(card)
            state.leave(seat, card)
            state.shared[self.discard].append(card)
        player.raised.add(index)
        player.stages += 1
        state.enter(seat, stage)
        state.fire("stage", [seat])

    def held(self, state: State, seat: int) -> tuple[str, ...]:
        """The resources the seat could spend now, sorted: its cards', and those its limited powers
        produce."""
        have = list(chain.from_iterable(map(_produces, state.players[seat].zones[self.city])))
        if state.players[seat].abilities:
            have += [r for _, r in self.powers(state, seat)]
        have.sort()
        return tuple(have)

    def powers(self, state: State, seat: int) -> list[tuple[Owned, str]]:
        """(power, resource) of each unspent `produce ... once per turn` whose condition holds."""
        return [(o, r) for o in state.players[seat].abilities
                if "produce" in o.effect.verbs and state.available(seat, o) and o.effect.applies(state, seat)
                for a in o.effect.actions if a.verb == "produce" for r in a.args["resources"][:1]]

    def spend_symbols(self, state: State, seat: int, symbols: tuple[str, ...]) -> None:
        player = state.players[seat]
        for symbol in symbols:
            card = next(c for c in player.zones[self.city] if _symbols(c) == (symbol,))
            player.zones[self.city].remove(card)
            state.leave(seat, card)
            state.shared[self.discard].append(card)

    def take_token(self, state: State, seat: int, action: Action) -> None:
        offer = self.setup_rules["offer"]
        if action.choice == offer["stack"]:
            token = state.shared[offer["stack"]].pop(0)
        else:
            shown = state.shared[offer["shown"]]
            token = shown.pop(next(i for i, t in enumerate(shown) if t.id == action.card))
            if state.shared[offer["stack"]]:
                shown.append(state.shared[offer["stack"]].pop(0))
        state.players[seat].zones.setdefault(offer["kind"], []).append(token)
        state.enter(seat, token)

    def settle(self, state: State) -> None:
        """End the turn once nothing is left to do; run the battle and the end check."""
        if self.objectives:
            self.claim(state, [state.active])
        actions = None
        while state.queue:
            first = self.decision_actions(state, state.queue[0])
            if first:
                if state.queue[0].owned.piece.id == TURN_KEY:
                    actions = first  # the turn's own take comes first (as in `legal_actions`)
                break
            state.made(state.queue.pop(0))  # nothing to choose from: it lapses, the rest of its effect goes on
        if actions is None:
            actions = self.legal_actions(state, state.active)
        if actions:
            state.legal[state.active] = actions  # worked out anyway: kept for the player's next look
            return
        if state.battle:
            battle(state)
            n = len(state.players)
            self.claim(state, [(state.active + i) % n for i in range(n)])
        # A turn with nothing to do (every deck empty) is idle; a round of them ends the game too.
        state.idle = state.idle + 1 if len(state.history) == state.turn_began else 0
        if self.ended(state) or state.idle >= len(state.players):
            state.phase = OVER
            return
        self.start_turn(state, (state.active + 1) % len(state.players))

    def ended(self, state: State) -> bool:
        """Whether `flow.end.condition` holds for some player."""
        n = len(state.players)
        return self.end is not None and any(map(self.end, repeat(state, n), range(n)))

    # -- what a seat sees
    def observation(self, state: State, seat: int) -> dict:
        offer = self.setup_rules.get("offer") or {}
        shared = {}
        for zone, cards in state.shared.items():
            if zone == offer.get("stack"):
                shared[zone] = {"size": len(cards)}  # face down: not even its order shows
            elif zone in (self.setup_rules.get("decks") or ()):
                peeking = seat == state.active and not self.hidden(state, seat, zone)
                shared[zone] = {"size": len(cards), "top": cards[-1].id if peeking and cards else None}
            else:
                shared[zone] = [c.id for c in cards]
        return {
            "seat": seat,
            "active": state.active,
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
            if zone == self.setup_rules.get("wonder_decks"):
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
            "tokens": [kind for kind, _, _ in player.tokens],
        }

    def preview(self, state: State, seat: int, action: Action) -> State:
        after = state.clone()
        after.apply(seat, action)
        return after


@lru_cache(maxsize=4096)
def _available(stages: tuple[Piece, ...], raised: frozenset[int]) -> tuple[tuple[int, Piece], ...]:
    """(number, stage) of each stage not built yet whose `requires` all are."""
    return tuple((i + 1, stage) for i, stage in enumerate(stages) if i not in raised and set(stage.requires) <= raised)


@lru_cache(maxsize=1 << 14)
def _stage_actions(number: int, cost: Cost, have: tuple[str, ...], wild: str | None, ignore: bool) -> tuple[Action, ...]:
    """The actions building stage `number`, one per way to pay its cost. Keyed by cost, not stage:
    wonders often share their stage costs, and so the same few holdings recur across games."""
    return tuple(Action("stage", spend=way, choice=str(number)) for way in _ways(cost, have, wild, ignore))


@lru_cache(maxsize=1 << 14)
def _ways(cost, have: tuple[str, ...], wild: str | None, ignore: bool) -> tuple[tuple[str, ...], ...]:
    """Every way to pay a stage's `cost` from the resources held (see `spendings`); with `ignore`,
    also the ways that ignore the kind the cost asks for. The same few holdings recur all game long."""
    held = Counter(have)
    ways = set(spendings(cost.resources, cost.kinds, held, wild))
    if ignore:
        ways |= set(spendings(cost.resources, cost.kinds, held, wild, ignore_kinds=True))
    return tuple(sorted(ways))


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


@lru_cache(maxsize=None)
def _produces(card: Piece) -> tuple[str, ...]:
    """The resources a card gives when spent (Architects' grey and yellow cards)."""
    return tuple(r for e in card.effects if e.trigger is None for a in e.actions if a.verb == "produce"
                 for r in a.args["resources"])


@lru_cache(maxsize=None)
def _symbols(card: Piece) -> tuple[str, ...]:
    return tuple(s for e in card.effects for a in e.actions if a.verb == "science" for s in a.args["symbols"])

"""The `Context` compiled effects read and run (dsl/compiler.py), mixed into `State` (state.py),
whose attributes it reads and sets: what a condition or an amount reads of a position (seats,
cards, stages, tokens, boxes, counters), and the engine's services that verbs run (`gain`,
`produce`, `trade`, `buy`, `science`, `ask`, `hold`, `choose`, `give`, `take_pawn`, `flip`, `look`,
`extra_action`, `unlock`, `copy_stage`, `discount`, the tokens of a pack's own kinds, a choice
between effects), with a card gained and the price a player pays, the same in every flow. Also the
places a sentence names (`places`, `cards_at`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable, Sequence

from ...dsl.compiler import full_sets
from ...dsl.verbs import CopyStage
from ...dsl.verbs.gains import HELD
from ...dsl.verbs.tokens import CHOICE, ChoiceArgs, doable
from ...dsl.vocabulary import ANY, CHOSEN, SELF, WONDER
from ..packs.catalogue import Cost, Piece, price
from .events import GAIN, LOSE_TOKEN, TAKE, TAKE_TOKEN
from .holdings import GIVEN, Decision
from .runtime import OVER

ONE_BATTLE = "one_battle"  # the count period `from one battle`
THIS_BATTLE = "this_battle"  # the count period `from this battle`
UNLIMITED = 1 << 30  # the tokens left of a kind without a supply
COPY_STAGE = CopyStage.name  # the verb copying a neighbour's stage, and the decision it asks


class Context:
    """What compiled effects ask of a position; see the module's docstring."""

    # -- what conditions and amounts read
    def seats(self, me: int, selector: str) -> Sequence[int]:
        if selector == CHOSEN:
            return () if self.chosen is None else (self.chosen,)
        return self.game.seat_table[selector][me]

    def cards(self, seat: int, zone: str | None) -> Iterable[Any]:
        return self.players[seat].zones.get(zone or self.game.build_zone, ())

    def stages(self, seat: int) -> int:
        return self.players[seat].stages

    def tokens(self, seat: int, kind: str, period: str | None) -> int:
        """Tokens won in battles, and token pieces held: in a zone of that kind, or of that id."""
        player, build = self.players[seat], self.game.build_zone
        if kind in self.game.piece_ids:
            pieces = sum(len(cards) if zone == kind else sum(c.id == kind for c in cards)
                         for zone, cards in player.zones.items() if zone != build)
        else:  # no piece bears that id: only a zone of that kind holds them (a hot path: `vp 3 per victory token`)
            pieces = len(player.zones.get(kind, ())) if kind != build else 0
        if period == ONE_BATTLE:
            return max(Counter(b for k, _, b in player.tokens if k == kind).values(), default=0)
        if period == THIS_BATTLE:  # read by `at battle:` sentences, after the battle is counted
            return sum(1 for k, _, b in player.tokens if k == kind and b == self.battles - 1)
        return pieces + sum(1 for k, _, _ in player.tokens if k == kind)

    def boxes(self, seat: int, building: str | None, die: str | None, tags: frozenset[str], period: str | None) -> int:
        return self.game.flow.boxes(self, seat, building, die, tags, period)

    def counter(self, seat: int, name: str) -> int:
        if name in self.pawns:
            return int(self.pawns[name] == seat)
        return self.players[seat].counters.get(name, 0)

    def came(self, seat: int, period: str) -> list[Piece]:
        """The cards come into a seat's city in this turn, round (or the pack's word for it) or game;
        once the game is over, in the last one any card came in."""
        came = self.players[seat].came
        if period in ("game", "player"):
            return [card for *_, card in came]
        at = 0 if period == "turn" else 1
        now = self.period(period) if self.phase != OVER else max((c[at] for p in self.players for c in p.came), default=-1)
        return [card for *when, card in came if when[at] == now]

    def produced(self, seat: int, resource: str) -> int:
        return sum(resource in unit for unit in self.players[seat].units)

    def player_count(self) -> int:
        return len(self.players)

    def complete(self, seat: int, name: str) -> bool:
        """Whether the seat's wonder (`wonder`) has every stage, or a building of theirs every box."""
        if name == WONDER:
            player = self.players[seat]
            return player.stages == player.wonder_size
        return self.game.flow.complete(self, seat, name)

    def under_stages(self, seat: int) -> list[Piece]:
        """The cards tucked under the seat's wonder stages (the draft's)."""
        return self.players[seat].tucked

    def science_sets(self, seat: int) -> int:
        """Full sets of the pack's science symbols (one of each) the seat holds, each symbol in one
        set, a choice among several (`science any`) filling whichever place makes the most."""
        symbols = self.game.symbols
        masks = Counter(sum(1 << i for i, s in enumerate(symbols) if s in held) for held in self.players[seat].symbols)
        masks.pop(0, None)
        return full_sets(masks, len(symbols)) if symbols else 0

    @staticmethod
    def cost_units(piece: Piece, names: frozenset[str]) -> int:
        """What a piece's printed cost asks of those resources or counters; with none named, of every
        resource (`3 different` as 3). A term that varies counts as printed (`5 coins minus ...`: 5)."""
        cost = piece.cost
        if not names:
            return (len(cost.resources) + sum(n for _, n in cost.kinds)
                    + sum(term.value for part, _, term in cost.varying if part != "counters"))
        return (sum(r in names for r in cost.resources) + sum(n for c, n in cost.counters if c in names)
                + sum(term.value for _, name, term in cost.varying if name in names))

    # -- the engine's services, the same in every flow
    def may_hold(self, seat: int, card: Piece) -> bool:
        """Whether the card may come into the seat's city: with `flow.unique_cards`, not a second
        card of one name. Every way a card comes in asks this (choices offer only such cards)."""
        return not (self.game.unique_cards and card.id in self.players[seat].built)

    def gain_card(self, seat: int, card: Piece, placed: bool = False) -> None:
        """A card (or box) comes into a player's city (unless the flow `placed` it there already):
        its effects apply, then what its icons do (rules.yaml `icons`), then the owner's `on take`
        triggers that match it, then those of the players watching the owner (`on left take ...`).
        A card the city may not hold (taken unseen, given) is discarded."""
        if not placed:
            player = self.players[seat]
            if self.game.unique_cards and not self.may_hold(seat, card):  # the test inline first: a hot path
                if self.game.discard_zone:
                    self.shared[self.game.discard_zone].append(card)
                return
            player.zones[self.game.build_zone].append(card)
            if self.game.unique_cards:
                player.built.add(card.id)
        if self.game.keeps_came:
            self.players[seat].came += ((self.turns_played, self.round, card),)
        self.enter(seat, card)
        icons = self.game.icons
        for icon in card.icons:
            for owned in icons.get(icon, ()):
                self.run(seat, owned)
        if TAKE in self.game.doings and (TAKE in self.game.watched or self.players[seat].waiting.get(TAKE)):
            self.happen(TAKE, seat, card)  # looked for first: a hot path

    def ask(self, seat: int, kind: str, args) -> None:
        """Ask a seat a choice (a decision of `kind`, see decisions.py) for the effect being run."""
        self.queue.append(Decision(seat, kind, args, self.source, chosen=self.chosen))

    def gain(self, me: int, counter: str, value: int) -> None:
        """Add to a counter, up to its cap (`setup.caps`: what a player gains beyond it is lost).
        Points scored during play (`on build: vp 2 minus ...`) are kept with the colour of their
        piece, for the scoring's categories. A loss never takes a counter but points below zero:
        each one short runs the rules' `shortfall` sentence of the counter for the player, if any."""
        player = self.players[me]
        score = counter == self.game.score_counter
        if score and self.source is not None:
            player.banked.append((self.source.piece.colour, value))
        held = player.counters.get(counter, 0) + value
        if held < 0 and not score:
            player.counters[counter] = 0
            if self.source is not None and self.source.key in self.game.shortfall_keys:
                return  # a shortfall's own loss costs nothing more: one could set off another without end
            for _ in range(-held):
                for owned in self.game.shortfall.get(counter, ()):
                    self.run(me, owned)
            return
        most = self.game.caps.get(counter)
        player.counters[counter] = held if most is None or held <= most else most
        if value > 0 and GAIN in self.game.doings:
            self.happen(GAIN, me, counter)

    def gain_from(self, me: int, seat: int, counter: str, value: int) -> None:
        """What another player's effect (`me`'s) gives a seat. A loss of a counter the rules let be
        owed (`owing`) is the seat's choice, when it holds some: pay any part it can, owe the rest
        (each unit owed runs the counter's `shortfall`)."""
        owe = self.game.owing.get(counter) if value < 0 and seat != me else None
        held = self.counter(seat, counter) if owe else 0
        if not held:
            self.gain(seat, counter, value)
            return
        (pay, owed), loss = owe, -value
        paid = range(min(held, loss), -1, -1)
        self.ask(seat, CHOICE, ChoiceArgs(tuple((pay,) * k + owed * (loss - k) for k in paid),
                                          tuple(f"pay {k} {counter}, owe {loss - k}" for k in paid)))

    def produce(self, me: int, resources: tuple[str, ...], count: int, private: bool, held: str | None = None) -> None:
        """`count` units, each one of the resources a turn (`any`: all of them); others may buy
        them unless they are private. A negative count takes units back. `held` (`unheld`): of
        those resources, the ones the rest of the city's production makes (does not), worked out
        again whenever that changes."""
        player = self.players[me]
        if held is None and not player.relative:
            _add_units(player, tuple(sorted(self.game.resources if ANY in resources else resources)), count, private)
            return
        for unit, hidden in player.derived:  # what held production gave is worked out afresh below
            _add_units(player, unit, -1, hidden)
        if held is None:
            _add_units(player, tuple(sorted(self.game.resources if ANY in resources else resources)), count, private)
        else:
            options = tuple(sorted(self.game.resources if ANY in resources else self.game.expand(resources)))
            entry = ((held, options, private),)
            for _ in range(abs(count)):
                player.relative = player.relative + entry if count > 0 else _without(player.relative, entry[0])
        made = {r for unit in player.units for r in unit}
        player.derived = tuple((unit, hidden) for kind, options, hidden in player.relative
                               if (unit := tuple(r for r in options if (r in made) == (kind == HELD))))
        for unit, hidden in player.derived:
            _add_units(player, unit, 1, hidden)

    def trade(self, me: int, resources: tuple[str, ...], price: int, sides: tuple[str, ...], first: bool = False,
              count: int = 1) -> None:
        """A lower price for these resources (or classes of them) from these sellers; `first`: for
        the first resource the player buys from them each turn only. A negative count takes it back
        (its piece left): the prices are worked out again from the others the player holds."""
        player, grant = self.players[me], (resources, price, sides, first)
        if count > 0:
            player.trades += (grant,)
            self._price(player, grant)
            return
        player.trades = _without(player.trades, grant)
        player.prices, player.first = self.game.start_prices, ()
        for held in player.trades:
            self._price(player, held)

    def _price(self, player, grant: tuple) -> None:
        """A trade's prices laid over the player's."""
        resources, price, sides, first = grant
        game = self.game
        wanted, sides = game.expand(resources), game.sides(sides)
        if first:
            held = player.first or tuple(() for _ in game.sellers)
            player.first = tuple(_cheaper(prices, wanted, price) if seller in sides else prices
                                 for seller, prices in zip(game.sellers, held))
            return
        player.prices = tuple(
            tuple((r, min(c, price) if r in wanted else c) for r, c in prices) if seller in sides else prices
            for seller, prices in zip(game.sellers, player.prices))

    def buy(self, me: int, args, count: int) -> None:
        """The player may buy those resources from the bank at that price when paying a cost (at
        most `args.most` for each cost); a negative count takes the offer back."""
        player = self.players[me]
        resources = self.game.resources if ANY in args.resources else self.game.expand(args.resources)
        offer = (tuple(sorted(resources)), args.price, args.most or 0)
        player.bank = tuple(sorted(player.bank + (offer,))) if count > 0 else _without(player.bank, offer)

    def forbids(self, seat: int, what: str) -> bool:
        """Whether a power the seat holds takes a rule away from it (`forbid trade`)."""
        return "forbid" in self.game.verbs and any(
            what in a.args.what for owned in self.players[seat].abilities for a in owned.effect.actions if a.verb == "forbid")

    def sellers(self, seat: int) -> tuple:
        """What each of the seat's sellers sells it (nothing, trade forbidden), by `seller_seats`."""
        trade = not self.forbids(seat, "trade")
        return tuple([self.players[s].public if trade else () for s in self.game.seller_seats[seat]])

    def chained(self, seat: int, card: Piece) -> frozenset:
        """The cards built that let the seat build this one free by a chain (none, chains forbidden)."""
        built = card.chains & self.players[seat].built
        return built if not built or not self.forbids(seat, "chains") else frozenset()

    def market(self, seat: int) -> tuple:
        """What else the seat may buy at, now: (the first-purchase prices in force, none once it
        bought this turn; the bank's offers to it, None where the bank sells nothing in this game),
        as `payment.payments` takes them."""
        player = self.players[seat]
        first = player.first if player.first and player.bought != self.turns_played else ()
        return first, player.bank if self.game.banked else None

    def science(self, me: int, symbols: tuple[str, ...], count: int) -> None:
        """A science symbol (a choice among several, `any`: all); a negative count takes it back."""
        symbols = self.game.symbols if ANY in symbols else tuple(symbols)
        if count > 0:
            self.players[me].symbols.append(symbols)
        else:
            self.players[me].symbols.remove(symbols)

    def hold(self, me: int) -> None:
        """The effect being run becomes a power the flow offers when it applies."""
        self.players[me].abilities.append(self.source)

    def choose(self, seat: int | None) -> None:
        self.chosen = seat

    def give(self, me: int, zones, to: str, face_down: bool) -> None:
        """The top card of the first zone named that holds one goes to the receivers' cities; face
        down, it waits beside the city, seen by its receiver only, and is placed at the start of
        their next turn."""
        receivers = self.seats(me, to)
        if not receivers:
            return
        for place in places(self, me, zones):
            cards = cards_at(self, place)
            if not cards:
                continue
            card = cards.pop()
            if place[2] is not None and place[1] == self.game.build_zone:
                self.leave(place[2], card)
            # a card from a face-down deck stays one of that deck's to the others (`hidden_places`)
            origin = place[1] if place[2] is None and place[1] in self.game.face_down else None
            for seat in receivers:
                if face_down:
                    self.players[seat].zones.setdefault(GIVEN, []).append(card)
                    self.given_from.setdefault(seat, []).append(origin)
                else:
                    self.gain_card(seat, card)
            return

    def take_pawn(self, me: int, pawn: str) -> None:
        """The pawn moves to the player, wherever it was."""
        self.pawns[pawn] = me

    def flip(self, kind: str, count: int) -> None:
        """Turn tokens of a kind to their other side; turning the last one calls a battle at the
        end of the turn. Flips beyond the last are lost."""
        total, flipped = self.flips.get(kind, (0, 0))
        turned = min(count, total - flipped)
        self.flips[kind] = (total, flipped + turned)
        if turned and flipped + turned == total:
            self.battle = True

    def look(self, me: int, zones) -> None:
        """The player sees the top card of these zones, while it stays on top."""
        self.peeks |= {(me, zone, len(self.shared[zone])) for zone, _ in zones if zone in self.shared}

    def extra_action(self, me: int, args) -> None:
        """The player acts once more, as the flow's turns go."""
        self.game.flow.extra_action(self, me, args)

    def unlock(self, me: int, die: str) -> None:
        """The player may pick that die (a flow with dice keeps which)."""
        self.game.flow.unlock(self, me, die)

    def copy_stage(self, me: int, args) -> None:
        """A wonder stage one of the neighbours named (`args.sides`) built applies to the player as
        if they had built it, without counting as theirs (`stages`, `on stage`): asked when several
        may be copied (decisions.py), none when none. At the end the scoring copies the one that
        scores best (scoring.py)."""
        if self.phase == OVER or args.with_cost:
            return  # `with cost`: the flow copied the stage paid for as the stage was built
        stages = self.stages_to_copy(me, args.sides)
        if len(stages) == 1:
            self.enter(me, stages[0])
        elif stages:
            self.ask(me, COPY_STAGE, args)

    def stages_to_copy(self, seat: int, sides: tuple[str, ...]) -> list[Piece]:
        """The wonder stages those players built, by seat, but those copying a stage themselves:
        a copy of a copy could go on without end."""
        seats = dict.fromkeys(other for side in sides for other in self.seats(seat, side))
        stages = [self.players[other].side.stages[i] for other in seats for i in sorted(self.players[other].raised)]
        return [stage for stage in stages if not any(COPY_STAGE in e.verbs for e in stage.effects)]

    # -- a pack's own token kinds (rules.yaml `tokens:`), and choices between effects
    def take_tokens(self, me: int, args) -> None:
        """`args.count` tokens of a kind the pack declares from its supply, as many as are left; of
        a kind on offer (`setup.offer`), a choice of one, that many times."""
        kind = self.game.token_kinds.get(args.kind)
        if kind is None:
            for _ in range(args.count):
                self.ask(me, "take_token", args)
            return
        count = min(args.count, self.tokens_left(args.kind))
        self.players[me].tokens.extend([(args.kind, kind.value, self.battles)] * count)
        self.tokens_moved(None, me, args.kind, count)

    def tokens_left(self, kind: str) -> int:
        """How many tokens of a kind may still be taken: of a declared kind, its supply less those
        held (`UNLIMITED` without one); of a kind on offer, those on offer."""
        declared = self.game.token_kinds.get(kind)
        if declared is None:
            offer = self.game.rules.setup.offer
            return len(self.shared[offer.shown]) + len(self.shared[offer.stack]) if offer and offer.kind == kind else 0
        if declared.supply is None:
            return UNLIMITED
        return declared.supply - sum(1 for p in self.players for k, _, _ in p.tokens if k == kind)

    def move_tokens(self, giver: int, to: int | None, kind: str, count: int) -> None:
        """Up to `count` of the giver's tokens of a kind go to the seat `to`, or back to the supply
        (None), the last taken first."""
        tokens, moved = self.players[giver].tokens, 0
        for i in range(len(tokens) - 1, -1, -1):
            if moved == count:
                break
            if tokens[i][0] == kind:
                token = tokens.pop(i)
                moved += 1
                if to is not None:
                    self.players[to].tokens.append(token)
        self.tokens_moved(giver, to, kind, moved)

    def tokens_moved(self, giver: int | None, to: int | None, kind: str, count: int) -> None:
        """`on lose ... token` for the giver and `on take ... token` for the receiver, once a token
        (None: the supply)."""
        if TAKE_TOKEN in self.game.doings or LOSE_TOKEN in self.game.doings:
            for _ in range(count):
                if giver is not None:
                    self.happen(LOSE_TOKEN, giver, kind)
                if to is not None:
                    self.happen(TAKE_TOKEN, to, kind)

    def shown_tokens(self, seat: int, viewer: int) -> list[tuple[str, int, int]]:
        """The tokens of a seat that the viewer sees: all but, to the others, those of the pack's
        kinds seen by their holder alone (`seen: self`)."""
        tokens, hidden = self.players[seat].tokens, self.game.hidden_tokens
        return tokens if seat == viewer or not hidden else [t for t in tokens if t[0] not in hidden]

    def affords(self, me: int, counter: str, loss: int) -> bool:
        """Whether a player can lose that much of a counter (as a side of a choice): the score may
        fall below zero, nothing else."""
        return counter == self.game.score_counter or self.counter(me, counter) >= loss

    def choose_side(self, me: int, args) -> None:
        """`A or B`: the sides that can be done now; with several, the player chooses (a decision),
        with one, it is done, with none, nothing is."""
        sides = [side for side in args.sides if doable(self, me, side)]
        if len(sides) > 1:
            self.ask(me, CHOICE, args)
        elif sides:
            self.carry_out(me, self.source, sides[0], self.chosen)

    def discount(self, me: int, args, count: int) -> None:
        """A lasting discount on the costs the player pays, read when paying (`price`); a negative
        count takes it back."""
        player = self.players[me]
        player.discounts = player.discounts + (args,) if count > 0 else _without(player.discounts, args)

    def price(self, seat: int, piece: Piece, stage: bool = False) -> Cost:
        """What the seat pays for a piece now (a wonder stage's when `stage`): its cost, with the
        terms that vary read for the seat and its discounts taken off; every flow pays this."""
        cost, discounts = piece.cost, self.players[seat].discounts
        if not discounts and not cost.varying:
            return cost  # most pieces, most players: the printed cost
        return price(cost, self, seat, piece, stage, discounts)


Place = tuple[str, str, "int | None"]  # (name, zone, owner seat or None when shared)


def places(state: Context, seat: int, zones) -> tuple[Place, ...]:
    """(name, zone, owner) of each zone a sentence names, each once; kept for the game (per seat,
    sentence and chosen player), as the shared zones are fixed at setup."""
    key = (seat, zones, state.chosen)
    found = state.game.places.get(key)
    if found is None:
        out = {}
        for zone, owner in zones:
            if zone in state.shared:
                out[zone] = (zone, zone, None)
                continue
            owners = range(len(state.players)) if owner == ANY else state.seats(seat, owner or SELF)
            out |= {f"{zone}@{s}": (f"{zone}@{s}", zone, s) for s in owners}
        found = state.game.places[key] = tuple(out.values())
    return found


def cards_at(state: Context, place: Place) -> list[Piece]:
    """The cards of a place."""
    _, zone, owner = place
    return state.shared[zone] if owner is None else state.players[owner].zones[zone]


def _without(units: tuple, unit: tuple) -> tuple:
    i = units.index(unit)
    return units[:i] + units[i + 1:]


def _add_units(player, unit: tuple[str, ...], count: int, private: bool) -> None:
    """`count` units of production (taken back when negative), sellable unless private."""
    if count > 0:
        player.units = tuple(sorted(player.units + (unit,) * count))
        if not private:
            player.public = tuple(sorted(player.public + (unit,) * count))
    for _ in range(-count):
        player.units = _without(player.units, unit)
        if not private:
            player.public = _without(player.public, unit)


def _cheaper(prices: tuple, wanted: set[str], price: int) -> tuple:
    """A seller's first-purchase prices with `price` for the wanted resources, where lower."""
    out = dict(prices)
    for r in wanted:
        out[r] = min(out.get(r, price), price)
    return tuple(sorted(out.items()))

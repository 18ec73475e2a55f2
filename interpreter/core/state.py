"""A game in progress, and the engine's core: what every game has, whatever its flow.

`State` is the engine's interface (`current_players`, `legal_actions`, `apply`...), the `Context`
that compiled effects run against, and the effect runtime every flow shares: a piece entering or
leaving a city, events fired, limits spent, decisions asked and answered, a card gained. What
happens when is the flow's business (`draft.py`, `turns.py`, `rolls.py`), what each verb does is
`verbs.py`'s, how each decision is offered and carried out `decisions.py`'s; what only one flow
needs lives in that flow's own state, `state.flow_state`.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Iterable, Sequence

import attrs

from ...dsl.compiler import CompiledEffect
from ...dsl.verbs import CopyStage
from ...dsl.vocabulary import ANY, CHOSEN, WONDER
from ..packs.catalogue import Cost, Piece, Side, price
from . import military
from .actions import Action
from .events import BATTLE, END, ROUND_END, TAKE, TURN_END, TURN_START
from .hidden import Hidden, determinize as _determinize


class GameError(ValueError):
    """A game that cannot be set up as asked: the message says why and what would do."""


class DealError(GameError):
    """A pack that cannot be dealt for the player count asked, though the count is in its declared
    range: a problem of the pack (`check` reports it, E-DEAL), not of the command line. `players`
    is the count, `why` says what runs short, `short` names it: `("dealt", "wonders")` (one each),
    `("round", i, deck)` (round i's deck, from 0)."""

    def __init__(self, message: str, players: int = 0, why: str = "", short: tuple = ()):
        super().__init__(message)
        self.players = players
        self.why = why
        self.short = short


class EndlessGame(RuntimeError):
    """A game that went past the engine's bound on the number of actions, or whose effects set
    each other off without end."""


def _suspects(state: "State") -> str:
    """The pieces whose effects were running or are asking for a choice: where to look."""
    pieces = [state.source.piece.id] if state.source is not None else []
    pieces += [d.owned.piece.id for d in state.queue if d.owned is not None]
    pieces = list(dict.fromkeys(pieces))[:5]
    return f"; its effects now come from: {', '.join(pieces)}" if pieces else ""


SELF = "self"
ONE_BATTLE = "one_battle"  # the count period `from one battle`
OVER = "over"              # the phase of a finished game
GIVEN = "given"            # the player zone of cards given face down, placed on the receiver's next turn
COPY_STAGE = CopyStage.name  # the verb copying a neighbour's stage, and the decision it asks


@attrs.frozen(slots=True, eq=False)
class Owned:
    """An effect a player holds, with its piece; `key` names it for `once per ...` limits. Made once
    per piece (or rules field) when a game loads, so one is itself alone: compared by identity,
    which is what finding it among a player's holdings needs, and fast."""

    key: str
    piece: Piece
    effect: CompiledEffect


def rule_effects(key: str, effects, piece: Piece | None = None) -> list[Owned]:
    """Effects written in rules.yaml (or a building's) held as if by a piece named `key`."""
    piece = piece or Piece(key, key, "", effects=tuple(effects))
    return [Owned(f"{key}#{i}", piece, e) for i, e in enumerate(effects)]


LASTING, POWER, SCORED, RUN = "lasting", "power", "scored", "run"  # what entering does with an effect


def _entry(piece: Piece, score: str | None) -> tuple[tuple[Owned, str, bool, tuple], ...]:
    """What entering a city does with each of a piece's effects: keep it for its trigger (LASTING),
    as a `once per ...` power whose condition is checked when used (POWER), or run it now, keeping
    it too when it scores points, which are counted at the end (SCORED). The flag says whether what
    running it gave must be remembered for leaving: when it had a condition (it may not have run)
    or gave an amount read from the position; otherwise leaving gives back what its words say.
    Last, the actions entering runs: without the points, counted at the end from what is held."""
    out = []
    for i, effect in enumerate(piece.effects):
        owned = Owned(f"{piece.id}#{i}", piece, effect)
        runs = unscored(effect.actions, score) if effect.trigger is None else effect.actions
        remember = effect.trigger is None and (effect.condition is not None or any(a.node.varies(a.args) for a in runs))
        if effect.trigger not in (None, "build"):
            out.append((owned, LASTING, False, ()))
        elif effect.trigger is None and effect.limit is not None:
            out.append((owned, POWER, False, ()))
        elif len(runs) < len(effect.actions):
            out.append((owned, SCORED, remember, runs))
        else:
            out.append((owned, RUN, remember, runs))
    return tuple(out)


def unscored(actions: tuple, score: str | None) -> tuple:
    """The actions but those scoring points (`gain` of the score counter)."""
    return tuple(a for a in actions if not (a.verb == "gain" and a.args.counter == score))


# Not frozen, though nothing changes one (`attrs.evolve` makes another): several are made each turn,
# and a frozen class's __init__ costs three times as much.
@attrs.define(slots=True, unsafe_hash=True)
class Decision:
    """A choice an effect asks of one player in the middle of a turn (`kind` is its verb)."""

    seat: int
    kind: str
    args: dict = attrs.field(eq=False)
    owned: Owned | None = None
    rest: tuple = attrs.field(default=(), eq=False)  # the effect's actions after this one, run once it is made
    chosen: int | None = attrs.field(default=None, eq=False)  # the player its sentence had chosen when it asked
    # the place its player chose to look into, a choice's first step (decisions.py `look`): the
    # second is made before anything else
    within: str | None = None


@attrs.define(slots=True)
class Player:
    """What one seat holds."""

    counters: dict[str, int]
    zones: dict[str, list[Piece]]
    built: set[str] = attrs.field(factory=set)          # ids in the build zone
    side: Side | None = None
    stages: int = 0
    wonder_size: int = 0                                # how many stages (or steps) the wonder has
    raised: set[int] = attrs.field(factory=set)         # which stages are built (0-based)
    tucked: list[Piece] = attrs.field(factory=list)     # cards spent on stages, face down
    tokens: list[tuple[str, int, int]] = attrs.field(factory=list)  # (kind, value, battle won in)
    units: tuple = ()                                   # production, sorted (see payment.py)
    public: tuple = ()                                  # the part of it others may buy
    prices: tuple = ()                                  # per seller: ((resource, coins), ...)
    symbols: list[tuple[str, ...]] = attrs.field(factory=list)  # science, a tuple of choices each
    lasting: list[Owned] = attrs.field(factory=list)    # effects kept for later: triggers, end scores
    waiting: dict[str, list[Owned]] = attrs.field(factory=dict)  # those with a trigger, by it: an event finds its own at once
    abilities: list[Owned] = attrs.field(factory=list)  # powers used as a choice (free build, play last)
    used: set[tuple] = attrs.field(factory=set)         # (key, period) of limited effects spent
    banked: list[tuple[str, int]] = attrs.field(factory=list)  # (colour, points) scored during play
    given: list[tuple[Owned, tuple]] = attrs.field(factory=list)  # untriggered effects that applied on entry, with args fixed then
    discounts: tuple = ()                               # lasting discounts on costs (`discount ...`), their args

    def clone(self) -> "Player":
        return Player(dict(self.counters), {z: list(v) for z, v in self.zones.items()}, set(self.built),
                      self.side, self.stages, self.wonder_size, set(self.raised), list(self.tucked), list(self.tokens), self.units,
                      self.public, self.prices, list(self.symbols), list(self.lasting),
                      {e: list(v) for e, v in self.waiting.items()}, list(self.abilities), set(self.used), list(self.banked),
                      list(self.given), self.discounts)


def generator(seed: int) -> random.Random:
    """The generator a seed deals from. Python seeds a generator with an integer's absolute value,
    so a negative seed is given as its text instead: every integer deals its own game, and the
    seeds from 0 up keep the games they always dealt."""
    return random.Random(seed if seed >= 0 else str(seed))


class State:
    """One game's position. Seats are 0..n-1, listed clockwise; see DESIGN.md for the interface.
    `game` is the game it belongs to (game.py)."""

    def __init__(self, game, seed: int):
        self.game = game
        self.seed = seed
        self.rng = generator(seed)
        self.players: list[Player] = []
        self.shared: dict[str, list[Piece]] = {}
        self.round = 0
        self.turns_played = 0
        self.phase = "setup"
        self.queue: list[Decision] = []        # decisions owed before the flow goes on
        self.history: list[tuple[int, Action]] = []
        self.source: Owned | None = None       # the effect being run
        self.legal: dict[int, list[Action]] = {}  # legal actions by seat, until the next apply
        self.chosen: int | None = None         # the player the running sentence chose (`to chosen`)
        self.battles = 0                       # battles fought so far
        self.battle = False                    # a battle is due at the end of this turn
        self.pawns: dict[str, int | None] = {}  # pawn -> the seat holding it
        self.flips: dict[str, tuple[int, int]] = {}  # token kind -> (tokens, turned to their other side)
        self.peeks: set[tuple[int, str, int]] = set()  # (seat, zone, its size): the top card a seat looked at
        self.given_from: dict[int, list[str | None]] = {}  # per receiver, each given card's face-down origin
        self.flow_state = game.flow.new_state()  # what the flow alone keeps

    # -- the engine's interface
    def current_players(self) -> list[int]:
        """The seats that must act now."""
        return self.game.flow.current_players(self)

    def legal_actions(self, player: int) -> list[Action]:
        """That seat's legal actions, in a stable order (empty when it need not act)."""
        actions = self.legal.get(player)
        if actions is None:
            actions = self.legal[player] = self.game.flow.legal_actions(self, player)
        return list(actions)

    def apply(self, player: int, action: Action) -> None:
        """Carry out one legal action; raises ValueError for an illegal one."""
        if action.pay and not any(action.pay):
            action = action._replace(pay=())  # paying nobody is written ()
        legal = self.legal.get(player)
        if action not in (legal if legal is not None else self.legal_actions(player)):
            raise ValueError(f"seat {player} cannot {action} now")
        if len(self.history) >= self.game.max_actions:
            raise EndlessGame(f"a game of {self.game.pack.id} passed {self.game.max_actions} actions without "
                              f"ending: some effect must keep it going (seed {self.seed}){_suspects(self)}")
        self.history.append((player, action))
        self.legal = {}
        try:
            self.game.flow.apply(self, player, action)
        except RecursionError:  # effects setting each other off, deeper than Python goes
            raise EndlessGame(f"in a game of {self.game.pack.id} (seed {self.seed}), effects set each other off "
                              f"without end{_suspects(self)}") from None

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def scores(self) -> list[dict]:
        """Per seat, `total` and `breakdown` (category -> points), as if the game ended now."""
        return self.game.scoring.scores(self)

    def winners(self) -> list[int]:
        """The seats with the best score after the tie-breaks (several when still tied)."""
        return self.game.scoring.winners(self, self.scores())

    def observation(self, player: int) -> dict:
        """What that seat may see: its own hand and everything public."""
        return self.game.flow.observation(self, player)

    def determinize(self, seat: int, rng: random.Random) -> "State":
        """A full position consistent with what `seat` knows, everything hidden from it (others'
        hands, decks' orders, face-down cards, committed choices, the draws to come) resampled
        from `rng`; see hidden.py."""
        return _determinize(self, seat, rng)

    def clone(self) -> "State":
        """An independent copy."""
        new = State.__new__(State)
        new.game, new.seed = self.game, self.seed
        new.rng = random.Random()
        new.rng.setstate(self.rng.getstate())
        new.players = [p.clone() for p in self.players]
        new.shared = {z: list(v) for z, v in self.shared.items()}
        new.round, new.turns_played, new.phase = self.round, self.turns_played, self.phase
        new.queue = list(self.queue)
        new.history = list(self.history)
        new.source = None
        new.legal = {}
        new.chosen, new.battles, new.battle = self.chosen, self.battles, self.battle
        new.pawns, new.flips, new.peeks = dict(self.pawns), dict(self.flips), set(self.peeks)
        new.given_from = {s: list(v) for s, v in self.given_from.items()}
        new.flow_state = self.flow_state.clone()
        return new

    # -- the effect runtime
    def enter(self, seat: int, piece: Piece) -> None:
        """A piece comes into a player's city: its effects apply or wait for their trigger."""
        player = self.players[seat]
        plan = self.game.entries.get(piece)  # `_plan`, inline: a hot path
        for owned, how, remember, runs in self._plan(piece) if plan is None else plan:
            if how == LASTING:
                player.lasting.append(owned)
                player.waiting.setdefault(owned.effect.trigger, []).append(owned)
            elif how == POWER:
                player.abilities.append(owned)
            else:
                if how == SCORED:
                    player.lasting.append(owned)
                effect = owned.effect
                if effect.condition is not None and not effect.condition(self, seat):
                    continue
                if remember:  # so that leaving gives back exactly this
                    player.given.append((owned, tuple(a.node.fixed(self, seat, a.args) for a in runs)))
                self.carry_out(seat, owned, runs)

    def _plan(self, piece: Piece) -> tuple[tuple[Owned, str, bool, tuple], ...]:
        plan = self.game.entries.get(piece)
        if plan is None:
            plan = self.game.entries[piece] = _entry(piece, self.game.score_counter)
        return plan

    def leave(self, seat: int, piece: Piece) -> None:
        """A piece leaves a player's city: what it gave on entry for as long as it stayed goes with
        it, exactly (one copy's, when the city holds several)."""
        player = self.players[seat]
        if self.game.unique_cards and piece.id in player.built:
            player.built.discard(piece.id)
        for owned, how, remember, runs in self._plan(piece):
            if how != RUN:
                held = player.abilities if how == POWER else player.lasting
                if owned in held:
                    held.remove(owned)
                    if how == LASTING:
                        player.waiting[owned.effect.trigger].remove(owned)
            if how in (LASTING, POWER) or owned.effect.trigger is not None:
                continue  # it gave nothing lasting: what it did on its trigger stays done
            given = (None,) * len(runs)
            if remember:
                entry = next((g for g in player.given if g[0] is owned), None)
                if entry is None:
                    continue  # its condition failed on entry: it gave nothing
                player.given.remove(entry)
                given = entry[1]
            for action, fixed in zip(runs, given):
                action.node.undo(self, seat, action.args if fixed is None else fixed)

    def run(self, seat: int, owned: Owned, skip_score: bool = False) -> None:
        """Carry out an effect's actions for a seat, if its condition holds (but the points it
        scores when `skip_score`: the scoring counts them)."""
        effect = owned.effect
        if effect.condition is not None and not effect.condition(self, seat):
            return
        self.carry_out(seat, owned, unscored(effect.actions, self.game.score_counter) if skip_score else effect.actions)

    def carry_out(self, seat: int, owned: Owned, actions: tuple, chosen: int | None = None) -> None:
        """Run actions in order; one that asks the player a choice holds the rest until it is made.
        `chosen` is the sentence's own: none when it starts, what it chose when it goes on."""
        outer, self.source = self.source, owned
        outer_chosen, self.chosen = self.chosen, chosen
        if len(actions) == 1:  # most sentences: nothing can be held back
            action = actions[0]
            action.node.run(self, seat, action.args)  # `action.run`, one call fewer: the hot path
        else:
            for i, action in enumerate(actions):
                asked = len(self.queue)
                action.node.run(self, seat, action.args)
                if len(self.queue) > asked and i + 1 < len(actions):
                    self.queue[-1] = attrs.evolve(self.queue[-1], rest=actions[i + 1:])
                    break
        self.source = outer  # an effect run by another's action (a card it made enter) hands back
        self.chosen = outer_chosen

    def made(self, decision: Decision, chosen: int | None = None) -> None:
        """A decision was made: the rest of its effect goes on, with the player its sentence chose."""
        if decision.rest:
            self.carry_out(decision.seat, decision.owned, decision.rest, chosen=chosen)

    def fire(self, event: str, seats: Iterable[int], skip_score: bool = False) -> None:
        """Run every held effect that waits for `event` of these seats, within its limit; then those
        of the players watching them (`on left stage:`)."""
        if event in self.game.triggers:  # most events of most games: nothing in the pack waits for it
            for seat in seats:
                for owned in list(self.players[seat].waiting.get(event, ())):
                    if self.spend(seat, owned):
                        self.run(seat, owned, skip_score)
        if event in self.game.watched:
            for seat in seats:
                self.watch(event, seat)

    def watch(self, event: str, actor: int, card: Piece | None = None) -> None:
        """Run the effects of the players watching `actor` for `event` (`on neighbours take red
        card:`), the card matching, each for its owner within its limit, with `actor` as its sentence's
        `chosen` player (its condition too reads it so)."""
        table = self.game.seat_table
        for seat, player in enumerate(self.players):
            for owned in list(player.waiting.get(self.game.watched[event], ())):
                effect = owned.effect
                test = effect.trigger_cards
                if actor not in table[effect.watch][seat] or test is not None and not test(card):
                    continue
                if not self.spend(seat, owned):  # spent before the condition is read, as `fire` does
                    continue
                outer, self.chosen = self.chosen, actor
                holds = effect.applies(self, seat)
                self.chosen = outer
                if holds:
                    self.carry_out(seat, owned, effect.actions, chosen=actor)

    def spend(self, seat: int, owned: Owned) -> bool:
        """Whether a limited effect may run now, marking it used; unlimited ones always may."""
        limit = owned.effect.limit
        if limit is None:
            return True
        mark = (owned.key, self.period(limit))
        used = self.players[seat].used
        if mark in used:
            return False
        used.add(mark)
        return True

    def available(self, seat: int, owned: Owned) -> bool:
        """Whether a limited effect is still unused in its period."""
        limit = owned.effect.limit
        return limit is None or (owned.key, self.period(limit)) not in self.players[seat].used

    def period(self, name: str) -> int:
        """Which instance of a period the game is in: `turn`, `round` (or the pack's word for it,
        `flow.round_period`), `game` and `player` (one for the whole game)."""
        if name == "turn":
            return self.turns_played
        if name in ("game", "player"):
            return 0
        return self.round

    def power(self, seat: int, verb: str) -> Owned | None:
        """An unspent power of the seat doing `verb` (`build_free`, `ignore`...)."""
        for owned in self.players[seat].abilities:
            if verb in owned.effect.verbs and self.available(seat, owned):
                return owned
        return None

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
        self.enter(seat, card)
        icons = self.game.icons
        for icon in card.icons:
            for owned in icons.get(icon, ()):
                self.run(seat, owned)
        if TAKE in self.game.triggers:
            for owned in list(self.players[seat].waiting.get(TAKE, ())):
                test = owned.effect.trigger_cards
                if (test is None or test(card)) and self.spend(seat, owned):
                    self.run(seat, owned)
        if TAKE in self.game.watched:
            self.watch(TAKE, seat, card)

    def ask(self, seat: int, kind: str, args) -> None:
        """Ask a seat a choice (a decision of `kind`, see decisions.py) for the effect being run."""
        self.queue.append(Decision(seat, kind, args, self.source, chosen=self.chosen))

    def gain(self, me: int, counter: str, value: int) -> None:
        """Add to a counter, up to its cap (`setup.caps`: what a player gains beyond it is lost).
        Points scored during play (`on build: vp 2 minus ...`) are kept with the colour of their
        piece, for the scoring's categories."""
        player = self.players[me]
        if counter == self.game.score_counter and self.source is not None:
            player.banked.append((self.source.piece.colour, value))
        held = player.counters.get(counter, 0) + value
        most = self.game.caps.get(counter)
        player.counters[counter] = held if most is None or held <= most else most

    def produce(self, me: int, resources: tuple[str, ...], count: int, private: bool) -> None:
        """`count` units, each one of the resources a turn (`any`: all of them); others may buy
        them unless they are private. A negative count takes units back."""
        player = self.players[me]
        unit = tuple(sorted(self.game.resources if ANY in resources else resources))
        if count > 0:
            player.units = tuple(sorted(player.units + (unit,) * count))
            if not private:
                player.public = tuple(sorted(player.public + (unit,) * count))
        for _ in range(-count):
            player.units = _without(player.units, unit)
            if not private:
                player.public = _without(player.public, unit)

    def trade(self, me: int, resources: tuple[str, ...], price: int, sides: tuple[str, ...]) -> None:
        """A lower price for these resources (or classes of them) from these sellers."""
        player, game = self.players[me], self.game
        wanted, sides = game.expand(resources), game.sides(sides)
        player.prices = tuple(
            tuple((r, min(c, price) if r in wanted else c) for r, c in prices) if seller in sides else prices
            for seller, prices in zip(game.sellers, player.prices))

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
        if self.phase == OVER:
            return
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

    def decision_actions(self, decision: Decision) -> list[Action]:
        """The actions that answer a decision (none: it lapses)."""
        return self.game.decisions[decision.kind].actions(self, decision)

    def answer(self, seat: int, action: Action, decision: Decision | None = None) -> bool:
        """Carry out the first decision of this seat that the action (a legal one) answers, or the
        one given; False if none does."""
        queue = self.queue
        mine = (queue if len(queue) == 1 else [d for d in queue if d.seat == seat]) if decision is None else [decision]
        for decision in mine:
            if decision.seat == seat and (len(mine) == 1 or action in self.decision_actions(decision)):
                self.queue.remove(decision)
                outer, self.source = self.source, decision.owned  # the effect whose choice it is
                outer_chosen, self.chosen = self.chosen, decision.chosen
                follow = self.game.decisions[decision.kind].apply(self, decision, action)  # may choose a player
                self.source = outer
                if follow is not None:
                    self.queue.insert(0, follow)  # its second step, first of all: the effect goes on after it
                else:
                    self.made(decision, self.chosen)
                self.chosen = outer_chosen
                return True
        return False

    def lapse(self) -> Decision | None:
        """The first decision owed that has a choice, those before it lapsing (the rest of their
        effect goes on); None when nothing is owed."""
        owed = self.owed()
        return owed[0] if owed is not None else None

    def owed(self) -> tuple[Decision, list[Action]] | None:
        """`lapse`'s decision with the actions that answer it."""
        while self.queue:
            actions = self.decision_actions(self.queue[0])
            if actions:
                return self.queue[0], actions
            decision = self.queue.pop(0)
            self.made(decision, decision.chosen)
        return None

    def begin_turn(self, seats: Sequence[int]) -> None:
        """A turn starts for these seats: `at turn start` effects run, and the cards given to them
        face down are placed, as if taken."""
        if self.peeks:
            self.peeks = set()
        self.fire(TURN_START, seats)
        if not self.given_from:
            return  # most turns, nobody was given anything
        for seat in seats:
            zones = self.players[seat].zones
            if GIVEN in zones:
                self.given_from.pop(seat, None)
                for card in zones.pop(GIVEN):
                    self.gain_card(seat, card)

    def end_turn(self, seats: Sequence[int]) -> None:
        """A turn ends for these seats: `at turn end` effects run."""
        if TURN_END in self.game.triggers:
            self.fire(TURN_END, seats)

    def fight(self, first: int = 0) -> None:
        """The battle called by the last flip, if one is due; see `battle`."""
        if self.battle:
            self.battle_now(first)

    def battle_now(self, first: int = 0) -> None:
        """A battle (military.py), `at battle` effects, what leaves after it; then the objectives
        met are claimed, seat `first` first."""
        military.battle(self)
        n = len(self.players)
        self.fire(BATTLE, range(n))
        military.after(self)
        self.claim([(first + i) % n for i in range(n)])

    def end_round(self) -> None:
        """A round ends: its battle, when battles are fought at every round's end (`military`
        without `flip`); then `at round end`."""
        rules = self.game.rules.military
        if rules is not None and rules.flip is None:
            self.battle_now()
        self.fire(ROUND_END, range(len(self.players)))

    def finish(self) -> None:
        """The game ends: `at end` effects run (their points are counted by the scoring)."""
        self.phase = OVER
        self.fire(END, range(len(self.players)), skip_score=True)
        self.queue = []

    def claim(self, seats: Iterable[int]) -> None:
        """Every objective still on the table that one of these seats meets goes to the first of
        them who may reach it; one in the middle goes to each of them at once."""
        spec = self.game.rules.objectives
        if spec is None:
            return
        seats, kind = list(seats), spec.kind
        laid = tuple(self.shared)  # the zones a position holds: the same in most positions of a game
        zones = self.game.objective_zones.get(laid)
        if zones is None:
            zones = self.game.objective_zones[laid] = _objective_zones(laid, kind, len(self.players))
        for zone, reach, one in zones:
            pieces = self.shared[zone]
            for piece in list(pieces) if pieces else ():
                winners = [s for s in seats if s in reach and piece.condition(self, s)]
                for seat in winners[:1] if one else winners:
                    self.players[seat].zones.setdefault(kind, []).append(piece)
                    self.enter(seat, piece)
                if winners:
                    pieces.remove(piece)

    def hidden_places(self, seat: int) -> list[Hidden]:
        """What every game may hide from a seat, whatever its flow: the face-down decks (`setup.decks`)
        under the top card it looked at, the offer's face-down stack, and the cards given face down
        to others from a face-down deck (of that deck's pool)."""
        out = [Hidden.under_top(self.shared[zone], int(not self.hidden(seat, zone)), zone)
               for zone in sorted(self.game.face_down) if zone in self.shared]
        offer = self.game.rules.setup.offer
        if offer is not None and offer.stack in self.shared:
            out.append(Hidden.whole(self.shared[offer.stack], offer.stack))
        for receiver, origins in self.given_from.items():
            if receiver != seat:
                cards = self.players[receiver].zones.get(GIVEN, [])
                out += [Hidden(cards, i, i + 1, zone) for i, zone in enumerate(origins) if zone is not None]
        return out

    def hidden(self, seat: int, zone: str) -> bool:
        """Whether a shared zone's top card is face down for the seat: a deck filled at setup
        (`setup.decks`), unless the seat looked at the card now on top."""
        return zone in self.game.face_down and (seat, zone, len(self.shared[zone])) not in self.peeks

    # -- the Context that compiled effects read (dsl/compiler.py)
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
        player = self.players[seat]
        pieces = sum(len(cards) if zone == kind else sum(c.id == kind for c in cards)
                     for zone, cards in player.zones.items() if zone != self.game.build_zone)
        if period == ONE_BATTLE:
            return max(Counter(b for k, _, b in player.tokens if k == kind).values(), default=0)
        return pieces + sum(1 for k, _, _ in player.tokens if k == kind)

    def boxes(self, seat: int, building: str | None, die: str | None, tags: frozenset[str], period: str | None) -> int:
        return self.game.flow.boxes(self, seat, building, die, tags, period)

    def counter(self, seat: int, name: str) -> int:
        if name in self.pawns:
            return int(self.pawns[name] == seat)
        return self.players[seat].counters.get(name, 0)

    def player_count(self) -> int:
        return len(self.players)

    def complete(self, seat: int, name: str) -> bool:
        """Whether the seat's wonder (`wonder`) has every stage, or a building of theirs every box."""
        if name == WONDER:
            player = self.players[seat]
            return player.stages == player.wonder_size
        return self.game.flow.complete(self, seat, name)


Place = tuple[str, str, "int | None"]  # (name, zone, owner seat or None when shared)


def places(state: State, seat: int, zones) -> tuple[Place, ...]:
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


def _objective_zones(shared: tuple[str, ...], kind: str, n: int) -> list[tuple[str, frozenset[int], bool]]:
    """(zone, seats that may claim there, whether only the first of them) of each shared zone of
    objectives: `kind` for every seat, `kind@i` between seat i and the next."""
    out = []
    for zone in shared:
        name, _, at = zone.partition("@")
        if name == kind:
            out.append((zone, between(int(at), n) if at else frozenset(range(n)), bool(at)))
    return out


def between(i: int, n: int) -> frozenset[int]:
    """The seats that may claim an objective laid between seat i and its left neighbour (`kind@i`)."""
    return frozenset({i, (i + 1) % n})


def cards_at(state: State, place: Place) -> list[Piece]:
    """The cards of a place."""
    _, zone, owner = place
    return state.shared[zone] if owner is None else state.players[owner].zones[zone]



def _without(units: tuple, unit: tuple) -> tuple:
    i = units.index(unit)
    return units[:i] + units[i + 1:]

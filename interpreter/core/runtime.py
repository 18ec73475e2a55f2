"""The effect runtime every flow shares, mixed into `State` (state.py), whose attributes it reads
and sets: a piece entering a city (its effects run, wait for their trigger, or become powers) or
leaving it (what it gave goes back), effects carried out, events fired and watched, `once per`
limits spent, decisions answered or lapsing, the moments of every game (a turn's start and end, a
battle, a round's end, the end) and the objectives claimed. These run millions of times in a
simulation: they stay methods of the state itself, called without a layer between.
"""

from __future__ import annotations

from typing import Iterable, Sequence

import attrs

from ..packs.catalogue import Piece
from . import military
from .actions import Action
from .events import BATTLE, BUY, END, ROUND_END, ROUND_START, SELL, TURN_END, TURN_START
from .holdings import GIVEN, LASTING, POWER, RUN, SCORED, Decision, Owned, entry, unscored

OVER = "over"              # the phase of a finished game


class Runtime:
    """How effects run in a position; see the module's docstring."""

    # -- pieces entering and leaving, effects run
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
                if remember:  # so that leaving gives back exactly this: what the actions that ran gave
                    given = tuple(a.node.fixed(self, seat, a.args) for a in runs)
                    player.given.append((owned, given[:self.carry_out(seat, owned, runs)]))
                else:
                    self.carry_out(seat, owned, runs)

    def _plan(self, piece: Piece) -> tuple[tuple[Owned, str, bool, tuple], ...]:
        plan = self.game.entries.get(piece)
        if plan is None:
            plan = self.game.entries[piece] = entry(piece, self.game.score_counter)
        return plan

    def leave(self, seat: int, piece: Piece) -> None:
        """A piece leaves a player's city: what it gave on entry for as long as it stayed goes with
        it, exactly (one copy's, when the city holds several)."""
        player = self.players[seat]
        if self.game.unique_cards and piece.id in player.built:
            player.built.discard(piece.id)
        for owned, how, remember, runs in self._plan(piece):
            if owned in player.abilities:  # a power it held (`forbid trade`, `ignore different`) goes too
                player.abilities.remove(owned)
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

    def carry_out(self, seat: int, owned: Owned, actions: tuple, chosen: int | None = None) -> int:
        """Run actions in order; one that asks the player a choice holds the rest until it is made.
        `chosen` is the sentence's own: none when it starts, what it chose when it goes on. How
        many of the actions run (those held included): all, but for those after one that stopped
        them (a payment that could not be made)."""
        outer, self.source = self.source, owned
        outer_chosen, self.chosen = self.chosen, chosen
        if len(actions) == 1:  # most sentences: nothing can be held back
            action = actions[0]
            # `action.run`, one call fewer: the hot path
            done = 0 if action.node.run(self, seat, action.args) is False else 1
        else:
            done = len(actions)
            for i, action in enumerate(actions):
                asked = len(self.queue)
                if action.node.run(self, seat, action.args) is False:
                    done = i  # what the rest needed was not spent (`spend 2 tile tokens then ...`)
                    break
                if len(self.queue) > asked and i + 1 < len(actions):
                    self.queue[-1] = attrs.evolve(self.queue[-1], rest=actions[i + 1:])
                    break
        self.source = outer  # an effect run by another's action (a card it made enter) hands back
        self.chosen = outer_chosen
        return done

    def made(self, decision: Decision, chosen: int | None = None) -> None:
        """A decision was made: the rest of its effect goes on, with the player its sentence chose."""
        if decision.rest:
            self.carry_out(decision.seat, decision.owned, decision.rest, chosen=chosen)

    def fire(self, event: str, seats: Iterable[int], skip_score: bool = False) -> None:
        """`event` happens to each of these seats (`happen`)."""
        if event in self.game.doings:  # most events of most games: nothing in the pack waits for it
            watched, players = event in self.game.watched, self.players
            for seat in seats:
                if watched or players[seat].waiting.get(event):  # most seats: nothing of theirs waits
                    self.happen(event, seat, skip_score=skip_score)

    def happen(self, event: str, seat: int, what=None, other: int | None = None, skip_score: bool = False) -> None:
        """An event of one seat's (its turn's end, a card coming in, a purchase, a token taken...;
        `what` is what it concerns: the card, the token kind, the counter): the seat's effects
        waiting for it whose test `what` passes run, within their limit (their points left to the
        scoring when `skip_score`), with `other` (the other side of a trade) as their `chosen`
        player; then those of the players watching the seat (`on left stage:`)."""
        waiting = self.players[seat].waiting.get(event)
        if waiting:
            for owned in list(waiting):
                test = owned.effect.trigger_cards
                if (test is None or test(what)) and self.spend(seat, owned):
                    if other is None:
                        self.run(seat, owned, skip_score)
                    else:
                        self.seeing(seat, owned, other)
        if event in self.game.watched:
            self.watch(event, seat, what)

    def traded(self, buyer: int, sellers: Sequence[int], pay: Sequence[int]) -> None:
        """A purchase from other players (`pay`: the coins each seller got): `on buy` for the buyer
        and `on sell` for each seller paid, each seeing the other as its `chosen` player."""
        for seller, coins in zip(sellers, pay):
            if coins:
                self.happen(BUY, buyer, other=seller)
                self.happen(SELL, seller, other=buyer)

    def watch(self, event: str, actor: int, what=None) -> None:
        """Run the effects of the players watching `actor` for `event` (`on neighbours take red
        card:`), what it concerns (`what`: a card, a token kind...) matching, each for its owner
        within its limit, with `actor` as its sentence's `chosen` player."""
        table = self.game.seat_table
        for seat, player in enumerate(self.players):
            for owned in list(player.waiting.get(self.game.watched[event], ())):
                effect = owned.effect
                test = effect.trigger_cards
                if actor not in table[effect.watch][seat] or test is not None and not test(what):
                    continue
                if self.spend(seat, owned):  # spent before the condition is read, as `fire` does
                    self.seeing(seat, owned, actor)

    def seeing(self, seat: int, owned: Owned, chosen: int) -> None:
        """Run an effect for a seat with `chosen` as its sentence's chosen player (its condition
        too reads it so)."""
        outer, self.chosen = self.chosen, chosen
        holds = owned.effect.applies(self, seat)
        self.chosen = outer
        if holds:
            self.carry_out(seat, owned, owned.effect.actions, chosen=chosen)

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

    # -- decisions owed
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

    def enforce(self) -> None:
        """The laws in force are the top pieces of the laws' zone (rules.yaml `laws`): each one that
        came there takes effect for every player, as if it came into each city; each one covered or
        gone leaves every player as a piece leaving a city does. Read after each action."""
        zone, top = self.game.rules.laws
        now = tuple(self.shared.get(zone, ())[-top:])
        if now == self.in_force:
            return
        gone, came = list(self.in_force), []
        for piece in now:
            if piece in gone:
                gone.remove(piece)
            else:
                came.append(piece)
        self.in_force = now
        for seat in range(len(self.players)):
            for piece in gone:
                self.leave(seat, piece)
            for piece in came:
                self.enter(seat, piece)

    # -- the moments of every game
    def begin_turn(self, seats: Sequence[int]) -> None:
        """A turn starts for these seats: `at round start` effects run first if it is the round's
        first, then `at turn start` effects, and the cards given to them face down are placed, as if
        taken."""
        if self.peeks:
            self.peeks = set()
        if self.begun != self.round:
            self.begun = self.round
            self.fire(ROUND_START, range(len(self.players)))
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
        """A round ends: its battle, when battles are fought at every round's end (conflicts, and
        no `military.flip`); then `at round end`."""
        if self.game.rules.battles_each_round:
            self.battle_now()
        self.fire(ROUND_END, range(len(self.players)))

    def finish(self) -> None:
        """The game ends: `at end` effects run (their points are counted by the scoring)."""
        self.phase = OVER
        self.fire(END, range(len(self.players)), skip_score=True)
        self.queue = []

    def claim(self, seats: Iterable[int]) -> None:
        """Every objective still on the table that one of these seats meets goes to the first of
        them who may reach it; one in the middle goes to each of them at once if it is `shareable`."""
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
            near = [s for s in seats if s in reach] if pieces else ()
            for piece in list(pieces) if near else ():  # most zones, after a turn: none of its seats
                winners = [s for s in near if piece.condition(self, s)]
                for seat in winners[:1] if one or not piece.shareable else winners:
                    self.players[seat].zones.setdefault(kind, []).append(piece)
                    self.enter(seat, piece)
                if winners:
                    pieces.remove(piece)


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



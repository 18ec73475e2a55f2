"""The rolls flow: boards of boxes filled with the dice of a shared Forum.

Every round each die in the Forum lands on a random face in a random slot (its cost). The round
starts (`at turn start`, for everyone); then all players act at once, each checking the next box of
the building a die names (paying the die's cost and the box's resources, a coin per resource
missing), a box of a building that needs no die (the wonder: its boxes are its stages), or passing.
Effects may ask for more (an extra action, a free box, a bonus when a building is complete): those
choices follow, player by player. The round ends (`at turn end`, then `at round end`); a first
unlock of a reserve die swaps it into the Forum; the game ends some rounds after a player has taken
enough bonuses.
"""

from __future__ import annotations

import random
from typing import Iterable

import attrs

from ..core.actions import Action, recurring
from ..core.decisions import Decider
from ..core.events import CHOOSE_DIE, STAGE
from ..core.holdings import Decision, rule_effects
from ..core.runtime import OVER
from ..core.state import State
from ..packs.boards import Boards, Building
from ..packs.catalogue import Piece
from .flow import Flow, FlowState, reads_prices

START, CHOOSE, DECIDE = "start", "choose", "decide"
PASS = Action("pass")
BONUS, EXTRA, CHECK = "bonus", "extra_action", "check"
BEFORE_ROUND = "before_round"  # the count period `before this round`
_NONE: dict = {}  # no discount by die (read, never written)
FORUMS = 1 << 12  # Forums whose labels are kept


@attrs.frozen
class RollsRules:
    """`flow:` of a game of rolls: the Forum's slots, what a missing resource costs, what a pass
    gives, the die a first unlock replaces, the end."""

    build_zone: str
    currency: str
    slots: tuple[int, ...]
    missing_resource: int
    passing: tuple
    replaces: str | None
    end_bonuses: int
    extra_rounds: int
    zones = frozenset()  # it lays out cards only as the core does

    @property
    def sells_missing(self) -> bool:
        """Whether a resource missing is bought for coins (`missing_resource` each)."""
        return self.missing_resource > 0

    @staticmethod
    def problems(rules: dict):
        """(path, message, hint) of an end that can never come: more bonuses than listed."""
        end = (rules.get("flow") or {}).get("end")
        needed = end.get("bonuses") if isinstance(end, dict) else None
        given = len(rules["bonuses"]) if isinstance(rules.get("bonuses"), list) else 0
        if isinstance(needed, int) and needed > given:
            yield (("flow", "end", "bonuses"), f"the game ends when a player has taken {needed} bonuses, but rules.yaml "
                   f"lists {given}: it would never end", f"write at most {given}")

    @classmethod
    def read(cls, flow: dict, compiled: dict) -> "RollsRules":
        end = flow["end"]
        return cls(flow["build_zone"], flow["currency"], tuple(flow["slots"]), flow.get("missing_resource", 1),
                   compiled.get(("flow", "pass", "effect"), ()), flow.get("replaces"), end["bonuses"],
                   end.get("extra_rounds", 0))


@attrs.define
class RollsState(FlowState):
    """Each seat's board, the boxes it checked (box id -> round), the dice it unlocked and the
    bonuses it took; the Forum ([die, face, slot] each); the dice unlocked for the first time this
    round and those brought into the Forum; the buildings someone completed first (-> the round they
    were: everyone completing one in that round is first, as all act at once); the last round
    once the end is called; the choices committed, not yet revealed; whether the round's end came."""

    boards: list[str] = attrs.field(factory=list)
    checked: list[dict[str, int]] = attrs.field(factory=list)
    unlocked: list[set[str]] = attrs.field(factory=list)
    bonuses: list[set[int]] = attrs.field(factory=list)
    forum: list[list] = attrs.field(factory=list)
    unlocking: set[str] = attrs.field(factory=set)
    released: set[str] = attrs.field(factory=set)
    firsts: dict[str, int] = attrs.field(factory=dict)
    last_round: int | None = None
    pending: dict[int, Action] = attrs.field(factory=dict)
    ending: bool = False

    def clone(self) -> "RollsState":
        return RollsState(list(self.boards), [dict(c) for c in self.checked], [set(u) for u in self.unlocked],
                          [set(b) for b in self.bonuses], [list(d) for d in self.forum], set(self.unlocking),
                          set(self.released), dict(self.firsts), self.last_round, dict(self.pending), self.ending)

    def add_seat(self, board: str) -> None:
        self.boards.append(board)
        self.checked.append({})
        self.unlocked.append(set())
        self.bonuses.append(set())


class Rolls(Flow):
    """The flow's rules, read once from rules.yaml; the boards and dice from the pack."""

    def __init__(self, game):
        super().__init__(game)
        rules: RollsRules = game.rules.flow
        self.boards = Boards.read(game.pack)
        self.zone = rules.build_zone
        self.currency = rules.currency
        self.slots = rules.slots
        self.missing = rules.missing_resource
        self.replaces = rules.replaces
        self.rules = rules
        self.passing = rule_effects("pass", rules.passing)
        self.bonuses = [rule_effects(f"bonus {i}", effects) for i, effects in enumerate(game.rules.bonuses)]
        self.board_buildings = {board: self.boards.buildings(board) for board in self.boards.boards}
        self.dieless = {board: [b for b in buildings.values() if b.die is None]  # checked without a die: wonders
                        for board, buildings in self.board_buildings.items()}
        self.wonder_boxes = {board: sum(len(b.boxes()) for b in dieless) for board, dieless in self.dieless.items()}
        self.boxes_of = {board: {box.id: box for b in buildings.values() for box in b.boxes()}
                         for board, buildings in self.board_buildings.items()}
        self.needs = {box: _size(box.cost)  # resources a box asks for, as printed
                      for boxes in self.boxes_of.values() for box in boxes.values()}
        self.varies = any(box.cost.varying for box in self.needs)  # some box's cost is read when paid
        self.priced = reads_prices(game, self.needs)
        self.stage_boxes = frozenset(box for dieless in self.dieless.values() for b in dieless for box in b.boxes())
        self.reserve = {d.id for d in self.boards.dice.values() if d.start == "reserve"}
        self.forums: dict[tuple, tuple] = {}  # the Forum's dice -> `usable`'s labels of them all
        self.openings: dict[tuple, tuple] = {}  # (board, die, face) -> what it opens (see `opened`)
        self.decisions = {EXTRA: Decider(self.extra_actions, self.decide),
                          BONUS: Decider(self.bonus_actions, self.take_bonus),
                          CHECK: Decider(self.check_actions, self.decide)}
        if len(self.boards.boards) < game.players:
            raise game.cannot_deal(f"each is dealt a board, and it has {len(self.boards.boards)}", ("dealt", "boards"))

    def new_state(self) -> RollsState:
        return RollsState()

    def dealt(self) -> tuple[str, dict[str, list[str]]]:
        """Each seat is dealt a board, without sides."""
        return "city board", {board: [] for board in self.boards.boards}

    # -- setup and rounds
    def setup(self, state: State) -> None:
        game, rng = self.game, state.rng
        boards = game.deal_boards(list(self.boards.boards), rng)
        own = state.flow_state
        for seat in range(game.players):
            state.players.append(self.new_player(wonder_size=self.wonder_boxes[boards[seat]]))
            own.add_seat(boards[seat])
        self.lay_out(state)
        self.welcome_players(state)
        dice = self.boards.dice.values()
        own.forum = [[d.id, "", 0] for d in dice if d.start != "reserve" for _ in range(d.copies)]
        state.round = 0
        self.roll(state)

    def roll(self, state: State) -> None:
        for die in state.flow_state.forum:
            die[1] = state.rng.choice(self.boards.dice[die[0]].faces)
            die[2] = state.rng.choice(self.slots)
        state.turns_played += 1
        state.flow_state.ending = False
        state.phase = START
        state.begin_turn(range(len(state.players)))
        self.advance(state)

    def current_players(self, state: State) -> list[int]:
        if state.phase == CHOOSE:
            return [s for s in range(len(state.players)) if s not in state.flow_state.pending]
        return [state.queue[0].seat] if state.queue else []

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if state.phase == CHOOSE:
            return [] if seat in state.flow_state.pending else self.turn_actions(state, seat)
        if state.queue and state.queue[0].seat == seat:
            return state.decision_actions(state.queue[0])
        return []

    # -- what a player may do
    def turn_actions(self, state: State, seat: int, die_cost: bool = True) -> list[Action]:
        """Check a box with each usable die, or a box of a building without a die, or pass."""
        coins, out, player = state.counter(seat, self.currency), {}, state.players[seat]
        every, some = self.discounts(state, seat) if player.abilities else (0, _NONE)
        produced, needs, missing = len(player.units), self.needs, self.missing
        if self.varies or player.discounts:
            needs = self.priced_needs(state, seat)
        board, openings = state.flow_state.boards[seat], self.openings
        bank = player.bank
        for label, die_id, face, slot in self.usable(state, seat):
            cost = max(0, slot - every - some.get(die_id, 0)) if die_cost else 0
            if cost > coins:
                continue  # no box is cheaper than nothing
            building, track = openings.get((board, die_id, face)) or self.opened(state, seat, die_id, face)
            left = coins - cost
            for box in self.next_boxes(state, seat, building, track):
                short = needs[box] - produced
                if short <= 0 or (self.bought(bank, short) if bank else missing * short) <= left:  # a hot path
                    out[recurring("check", box.id, (), label)] = None
        for building in self.dieless[state.flow_state.boards[seat]]:
            out |= {recurring("check", box.id): None for box in self.next_boxes(state, seat, building, None)
                    if (self.bought(bank, needs[box] - produced) if bank else missing * max(0, needs[box] - produced))
                    <= coins}
        return [*out, PASS]

    def usable(self, state: State, seat: int) -> list[tuple[str, str, str, int]]:
        """(label, die, face, slot) of each die in the Forum the seat may pick: a reserve die only
        once unlocked."""
        own = state.flow_state
        forum = tuple(map(tuple, own.forum))
        labels = self.forums.get(forum)
        if labels is None:  # the Forum is the same for everyone in a round, and often across games
            if len(self.forums) >= FORUMS:
                self.forums.clear()
            labels = self.forums[forum] = tuple(sorted({(f"{die_id}@{slot}:{face}", die_id, face, slot)
                                                        for die_id, face, slot in forum}))
        reserve, unlocked = self.reserve, own.unlocked[seat]
        return [label for label in labels if label[1] not in reserve or label[1] in unlocked]

    def opened(self, state: State, seat: int, die_id: str, face: str) -> tuple[Building | None, str | None]:
        """The building (and track) a die's face opens: the one the face names, if a wild die's or
        one this die opens; else the building this die opens; on the track the face names."""
        key = (state.flow_state.boards[seat], die_id, face)
        found = self.openings.get(key)
        if found is None:
            found = self.openings[key] = self.opening(self.buildings(state, seat), die_id, face)
        return found

    def opening(self, buildings: dict[str, Building], die_id: str, face: str) -> tuple[Building | None, str | None]:
        if self.boards.dice[die_id].wild:
            return buildings.get(face.split(".")[0]), None
        named = buildings.get(face.split(".")[0])
        building = named if named is not None and named.die == die_id else next(
            (b for b in buildings.values() if b.die == die_id), None)  # a face may name something else (purple)
        track = face.split(".", 1)[1] if "." in face else None
        return building, track if building is not None and track in building.tracks else None

    def openers(self, board: str) -> dict[str, set[str]]:
        """For each building of a board, the dice with a face that opens it (as `opening` reads faces)."""
        buildings, out = self.board_buildings[board], {}
        for die in self.boards.dice.values():
            for face in die.faces:
                building, _ = self.opening(buildings, die.id, face)
                if building is not None:
                    out.setdefault(building.id, set()).add(die.id)
        return out

    def next_boxes(self, state: State, seat: int, building: Building | None, track: str | None) -> list[Piece]:
        """The boxes of a building that may be checked next (on one track, or any), whose condition holds."""
        if building is None:
            return []
        done = state.flow_state.checked[seat]
        out = []
        for boxes in building.tracks.values() if track is None else (building.tracks[track],):
            for box in boxes:
                if box.id in done:
                    continue
                if box.condition is None or box.condition(state, seat):
                    out.append(box)
                if building.in_order:
                    break  # the first box not checked is the only one open on its track
        return out

    def box_cost(self, state: State, seat: int, box: Piece) -> int:
        """Coins for the resources a box needs beyond what the seat produces (never spent)."""
        need = self.need(state, seat, box) if self.priced else self.needs[box]
        player = state.players[seat]
        short = need - len(player.units)
        return self.bought(player.bank, short) if player.bank else self.missing * max(0, short)

    def bought(self, bank: tuple, short: int) -> int:
        """Coins for `short` missing resources: from the bank's offers to the seat (`buy ... from
        bank`, each of every resource: check.py), cheapest first, the rest at `missing_resource`."""
        if short <= 0:
            return 0
        coins = 0
        for _, price, most in sorted(bank, key=lambda offer: offer[1]):
            if price >= self.missing or not short:
                break
            n = min(most or short, short)
            coins, short = coins + n * price, short - n
        return coins + self.missing * short

    def need(self, state: State, seat: int, box: Piece) -> int:
        """The resources a box asks of the seat now: its cost as the seat pays it (`State.price`)."""
        return _size(state.price(seat, box, box in self.stage_boxes))

    def priced_needs(self, state: State, seat: int) -> dict[Piece, int]:
        """`need` of every box of the seat's board."""
        return {box: self.need(state, seat, box) for box in self.boxes_of[state.flow_state.boards[seat]].values()}

    def die_cost(self, state: State, seat: int, die_id: str, slot: int) -> int:
        """A die's cost, its slot, less the seat's lasting discounts on it."""
        every, some = self.discounts(state, seat)
        return max(0, slot - every - some.get(die_id, 0))

    def discounts(self, state: State, seat: int) -> tuple[int, dict[str, int]]:
        """The seat's lasting discounts: on every die, and by die."""
        every, some = 0, {}
        for owned in state.players[seat].abilities:
            for a in owned.effect.actions:
                if a.verb != "discount":
                    continue
                every += 0 if a.args.only else a.args.amount
                for die in a.args.only:
                    some[die] = some.get(die, 0) + a.args.amount
        return every, some

    def buildings(self, state: State, seat: int) -> dict[str, Building]:
        return self.board_buildings[state.flow_state.boards[seat]]

    # -- the choices effects ask, and the dice unlocked
    def extra_actions(self, state: State, decision: Decision) -> list[Action]:
        return self.turn_actions(state, decision.seat, die_cost=not decision.args.free_die)

    def bonus_actions(self, state: State, decision: Decision) -> list[Action]:
        used = state.flow_state.bonuses[decision.seat]
        return [Action("bonus", choice=str(i + 1)) for i in range(len(self.bonuses)) if i not in used]

    def check_actions(self, state: State, decision: Decision) -> list[Action]:
        """A free box in one of the buildings named (or none, with `up to`)."""
        seat, buildings = decision.seat, self.buildings(state, decision.seat)
        boxes = [b for name in decision.args.buildings for b in self.next_boxes(state, seat, buildings.get(name), None)]
        skip = [Action("skip")] if decision.args.up_to else []
        return [Action("check", b.id) for b in boxes] + skip

    def decide(self, state: State, decision: Decision, action: Action) -> None:
        """An extra action (paying the die unless `without die cost`) or a free box; `check 2 boxes`
        asks again for the second."""
        seat = decision.seat
        self.act(state, seat, action, die_cost=decision.kind == EXTRA and not decision.args.free_die,
                 box_cost=decision.kind != CHECK)
        if decision.kind == CHECK and decision.args.count > 1:
            args = attrs.evolve(decision.args, count=decision.args.count - 1)
            state.queue.insert(0, Decision(seat, CHECK, args, decision.owned))

    def take_bonus(self, state: State, decision: Decision, action: Action) -> None:
        index = int(action.choice) - 1
        state.flow_state.bonuses[decision.seat].add(index)
        for owned in self.bonuses[index]:
            state.run(decision.seat, owned)

    def extra_action(self, state: State, seat: int, args) -> None:
        """`extra action`: the player acts once more this round."""
        state.ask(seat, EXTRA, args)

    def unlock(self, state: State, me: int, die: str) -> None:
        """`unlock black die`: the player may pick it; the first unlock brings it into the Forum at the
        end of the round."""
        own = state.flow_state
        own.unlocked[me].add(die)
        if die not in own.released:
            own.unlocking.add(die)

    # -- carrying out
    def apply(self, state: State, seat: int, action: Action) -> None:
        own = state.flow_state
        if state.phase == CHOOSE:
            own.pending[seat] = action
            if len(own.pending) == len(state.players):
                chosen, own.pending = own.pending, {}
                state.phase = DECIDE
                if self.priced:  # a price may hang on what others check: all are worked out first
                    costs = {s: self.charge(state, s, chosen[s]) for s in chosen}
                    for s in sorted(chosen):
                        self.act(state, s, chosen[s], die_cost=True, box_cost=True, cost=costs[s])
                else:
                    for s in sorted(chosen):
                        self.act(state, s, chosen[s], die_cost=True, box_cost=True)
                self.advance(state)
            return
        state.answer(seat, action)
        self.advance(state)

    def act(self, state: State, seat: int, action: Action, die_cost: bool, box_cost: bool,
            cost: int | None = None) -> None:
        """Carry out a check, paying what the die and the box cost as asked (`cost`, when worked out
        before), or a pass."""
        if action.verb == "skip":
            return
        if action.verb == "pass":
            for owned in self.passing:
                state.run(seat, owned)
            return
        box = self.box(state, seat, action.card)
        die_id = action.choice.split("@")[0] if action.choice else None
        if cost is None:
            cost = self.charge(state, seat, action, die_cost, box_cost)
        counters = state.players[seat].counters
        counters[self.currency] = counters.get(self.currency, 0) - cost
        self.check(state, seat, box)
        if die_id is not None and CHOOSE_DIE in state.game.triggers:
            for owned in list(state.players[seat].waiting.get(CHOOSE_DIE, ())):
                if die_id in owned.effect.trigger_dice and state.spend(seat, owned):
                    state.run(seat, owned)

    def charge(self, state: State, seat: int, action: Action, die_cost: bool = True, box_cost: bool = True) -> int:
        """What `act` charges for an action now: a check's box and die, as asked."""
        if action.verb != "check":
            return 0
        cost = self.box_cost(state, seat, self.box(state, seat, action.card)) if box_cost else 0
        if action.choice and die_cost:
            die_id, place = action.choice.split("@")
            cost += self.die_cost(state, seat, die_id, int(place.split(":")[0]))
        return cost

    def box(self, state: State, seat: int, box_id: str) -> Piece:
        return self.boxes_of[state.flow_state.boards[seat]][box_id]

    def check(self, state: State, seat: int, box: Piece) -> None:
        """Check a box: it comes into the city (a box of the wonder is a stage built); a completed city
        building gives a bonus, and the first to complete one may take its first bonus: the players
        act at once, so all those completing it in the first round anyone does are first."""
        own, player = state.flow_state, state.players[seat]
        own.checked[seat][box.id] = state.round
        building = self.buildings(state, seat)[box.colour]
        player.stages += building.die is None
        state.gain_card(seat, box)
        if building.die is None:
            state.fire(STAGE, (seat,))
        if building.complete(own.checked[seat]):
            if building.first_bonus and own.firsts.setdefault(building.id, state.round) == state.round:
                for owned in rule_effects(f"first {building.id}", building.first_bonus, box):
                    state.run(seat, owned)
            if building.completion_bonus and len(own.bonuses[seat]) < len(self.bonuses):
                state.queue.append(Decision(seat, BONUS, None))

    def advance(self, state: State) -> None:
        """Go on until a player owes a choice; then end the round."""
        own = state.flow_state
        while state.lapse() is None and state.phase != OVER:
            if state.phase == START:
                state.phase = CHOOSE
                return
            if not own.ending:
                own.ending = True
                if self.game.rules.objectives is not None:
                    state.claim(range(len(state.players)))
                state.end_turn(range(len(state.players)))
                continue
            self.end_round(state)
            return

    def end_round(self, state: State) -> None:
        own = state.flow_state
        for die_id in sorted(own.unlocking):
            grey = [i for i, d in enumerate(own.forum) if d[0] == self.replaces]
            if grey:
                own.forum[state.rng.choice(grey)] = [die_id, "", 0]
            own.released.add(die_id)
        own.unlocking = set()
        state.end_round()
        needed = self.rules.end_bonuses
        if own.last_round is None and any(len(b) >= needed for b in own.bonuses):
            own.last_round = state.round + self.rules.extra_rounds
        if own.last_round is not None and state.round >= own.last_round:
            state.finish()
            return
        state.round += 1
        self.roll(state)

    # -- the core's questions
    def board(self, state: State, seat: int) -> tuple[str, str]:
        return state.flow_state.boards[seat], ""

    def complete(self, state: State, seat: int, building: str) -> bool:
        found = self.buildings(state, seat).get(building)
        return found is not None and found.complete(state.flow_state.checked[seat])

    def boxes(self, state: State, seat: int, building: str | None, die: str | None, tags: frozenset[str],
              period: str | None) -> int:
        """Boxes checked in a building (or the one a die in the Forum shows), of these tags, and
        with `before this round`, checked in earlier rounds only."""
        own = state.flow_state
        if die is not None:
            building = next((face.split(".")[0] for d, face, _ in own.forum if d == die), None)
            if building is None:
                return 0  # that die is not in the Forum: it shows no building
        earlier, checked, city = period == BEFORE_ROUND, own.checked[seat], state.players[seat].zones.get(self.zone, ())
        if not tags and not earlier:  # most counts, at every score (`vp 1 per box in market`)
            return len(city) if building is None else [box.colour for box in city].count(building)
        return sum(1 for box in city
                   if (building is None or box.colour == building) and tags <= set(box.icons)
                   and not (earlier and checked.get(box.id, -1) >= state.round))

    # -- what a seat sees, and what it does not
    def committed(self, state: State) -> Iterable[int]:
        return state.flow_state.pending

    def resample(self, state: State, seat: int, rng: random.Random) -> None:
        """Others' choices committed this round, not yet revealed, are chosen again; every board and
        the Forum are public, and the rolls to come hang on the reseeded generator."""
        pending = state.flow_state.pending
        for other in sorted(pending):
            if other != seat:
                pending[other] = rng.choice(self.turn_actions(state, other))

    def observation(self, state: State, seat: int) -> dict:
        own = state.flow_state
        return {
            "seat": seat,
            "round": state.round + 1,
            "phase": state.phase,
            "to_act": self.current_players(state),
            "committed": sorted(own.pending),
            "forum_dice": [{"die": d, "face": f, "cost": c} for d, f, c in own.forum],
            "decision": state.queue[0].kind if state.queue and state.queue[0].seat == seat else None,
            "players": [{
                "seat": s,
                "city": own.boards[s],
                "counters": dict(p.counters),
                "checked": sorted(own.checked[s]),
                "unlocked": sorted(own.unlocked[s]),
                "bonuses": sorted(i + 1 for i in own.bonuses[s]),
                "tokens": [kind for kind, _, _ in state.shown_tokens(s, seat)],
            } for s, p in enumerate(state.players)],
        }

    def preview(self, state: State, seat: int, action: Action) -> State:
        after = state.clone()
        if state.phase == CHOOSE:
            after.phase = DECIDE
            self.act(after, seat, action, die_cost=True, box_cost=True)
            after.queue = []
        else:
            after.apply(seat, action)
        return after

    def arrange(self, state: State, holdings: list[dict]) -> None:
        """A finished position from what each player holds: `city` (the board's id), `checked`
        (building -> a number of boxes from the first, their numbers from 1, or track -> either),
        `counters`, `unlocked` (dice), `bonuses` (their numbers, from 1) and `firsts` (buildings the
        player completed before anyone else). Every box is placed, as checked in an earlier round,
        before any box's effect applies, so an attack scores against the neighbours' defence as given;
        the choices effects ask for are not asked (what they gave is in the holdings), nor are the
        bonuses' effects run. `scenario_boards.py` checks ids and numbers first."""
        game, own = self.game, state.flow_state
        for held in holdings:
            state.players.append(self.new_player(wonder_size=self.wonder_boxes[held["city"]]))
            own.add_seat(held["city"])
        state.round = 1
        placed: list[list[Piece]] = []
        for seat, held in enumerate(holdings):
            player, buildings, mine = state.players[seat], self.buildings(state, seat), []
            for building_id, given in (held.get("checked") or {}).items():
                tracks = buildings[building_id].tracks
                for track, boxes in (given if isinstance(given, dict) else {"": given}).items():
                    numbers = range(1, boxes + 1) if isinstance(boxes, int) else sorted(set(boxes))
                    mine += [tracks[track][n - 1] for n in numbers]
            for box in mine:
                own.checked[seat][box.id] = 0
                player.zones[self.zone].append(box)
                player.stages += buildings[box.colour].die is None
            placed.append(mine)
        for seat, mine in enumerate(placed):
            for box in mine:
                state.enter(seat, box)
        for seat, held in enumerate(holdings):
            player = state.players[seat]
            for building_id in held.get("firsts", ()):
                building = self.buildings(state, seat)[building_id]
                own.firsts[building_id] = 0  # in an earlier round, as its boxes were checked
                for owned in rule_effects(f"first {building_id}", building.first_bonus, building.boxes()[-1]):
                    state.run(seat, owned)
            own.unlocked[seat] |= set(held.get("unlocked", ()))
            own.bonuses[seat] = {n - 1 for n in held.get("bonuses", ())}
            player.tokens = [(kind, value, 0) for kind, value in held.get("tokens", ())]
            # What the scenario gives replaces what the boxes gave; other counters stay.
            player.counters.update({**game.start_counters, **held.get("counters", {})})
        own.released = {d for u in own.unlocked for d in u}
        own.unlocking = set()
        own.forum = []
        state.queue = []
        state.phase = OVER


def _size(cost) -> int:
    """How many resources a cost asks for, whatever their kinds (less those the payer may leave out)."""
    return max(0, len(cost.resources) + sum(n for _, n in cost.kinds) - cost.spare)

"""The rolls flow (`flow.kind: rolls`): boards of boxes filled with the dice of a shared Forum.

Every round each die in the Forum lands on a random face in a random slot (its cost). Then all
players act at once, each checking the next box of the building a die names (paying the die's cost
and the box's resources, a coin per resource missing), a box of a building that needs no die (the
wonder), or passing. Effects may ask for more (an extra action, a free box, a bonus when a building
is complete): those choices follow, player by player. A first unlock of a reserve die swaps it into
the Forum at the round's end; the game ends some rounds after a player has taken enough bonuses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import Action, recurring
from .boards import Boards, Building
from .catalogue import Piece
from .state import Decision, Player, State, rule_effects

if TYPE_CHECKING:
    from .game import Game

CHOOSE, DECIDE, OVER = "choose", "decide", "over"
PASS = Action("pass")
BONUS, EXTRA, CHECK = "bonus", "extra_action", "check"


class Rolls:
    """The flow's rules, read once from rules.yaml; the boards and dice from the pack."""

    def __init__(self, game: "Game"):
        rules, flow = game.rules, game.rules["flow"]
        self.game = game
        self.boards = Boards.read(game.pack)
        self.zone = flow["build_zone"]
        self.currency = flow["currency"]
        self.slots = flow["slots"]
        self.missing = flow.get("missing_resource", 1)
        self.replaces = flow.get("replaces")
        self.end = flow.get("end") or {}
        compiled = game.pack.compiled_rules
        self.passing = rule_effects("pass", compiled.get(("flow", "pass", "effect"), ()))
        self.bonuses = [rule_effects(f"bonus {i}", compiled.get(("bonuses", i), ())) for i in range(len(rules.get("bonuses") or ()))]
        self.caps = (rules.get("setup") or {}).get("caps") or {}
        self.board_buildings = {board: self.boards.buildings(board) for board in self.boards.boards}
        self.dieless = {board: [b for b in buildings.values() if b.die is None]  # checked without a die: wonders
                        for board, buildings in self.board_buildings.items()}
        self.boxes = {board: {box.id: box for b in buildings.values() for box in b.boxes()}
                      for board, buildings in self.board_buildings.items()}
        self.needs = {box: len(box.cost.resources) + sum(n for _, n in box.cost.kinds)  # resources a box asks for
                      for boxes in self.boxes.values() for box in boxes.values()}
        self.reserve = {d.id for d in self.boards.dice.values() if d.start == "reserve"}
        self.labels: dict[tuple, tuple] = {}  # (die, face, slot) -> (its label, die, face, slot)
        self.openings: dict[tuple, tuple] = {}  # (board, die, face) -> what it opens (see `opened`)
        if len(self.boards.boards) < game.players:
            raise game.cannot_deal(f"each is dealt a board, and it has {len(self.boards.boards)}")

    # -- setup and rounds
    def setup(self, state: State) -> None:
        game, rng = self.game, state.rng
        boards = list(self.boards.boards)
        rng.shuffle(boards)
        for seat in range(game.players):
            player = Player(dict(game.start_counters), {self.zone: []}, prices=game.start_prices)
            state.players.append(player)
            state.boards.append(boards[seat])
        dice = self.boards.dice.values()
        state.forum = [[d.id, "", 0] for d in dice if d.start != "reserve" for _ in range(d.copies)]
        state.round = 0
        self.roll(state)

    def roll(self, state: State) -> None:
        for die in state.forum:
            die[1] = state.rng.choice(self.boards.dice[die[0]].faces)
            die[2] = state.rng.choice(self.slots)
        state.phase = CHOOSE
        state.turns_played += 1

    def current_players(self, state: State) -> list[int]:
        if state.phase == CHOOSE:
            return [s for s in range(len(state.players)) if s not in state.pending]
        return [state.queue[0].seat] if state.queue else []

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if state.phase == CHOOSE:
            return [] if seat in state.pending else self.turn_actions(state, seat)
        if state.queue and state.queue[0].seat == seat:
            return self.decision_actions(state, state.queue[0])
        return []

    # -- what a player may do
    def turn_actions(self, state: State, seat: int, die_cost: bool = True) -> list[Action]:
        """Check a box with each usable die, or a box of a building without a die, or pass."""
        coins, out = state.counter(seat, self.currency), {}
        every, some = self.discounts(state, seat)
        produced, needs, missing = len(state.players[seat].units), self.needs, self.missing
        for label, die_id, face, slot in self.usable(state, seat):
            cost = max(0, slot - every - some.get(die_id, 0)) if die_cost else 0
            if cost > coins:
                continue  # no box is cheaper than nothing
            building, track = self.opened(state, seat, die_id, face)
            for box in self.next_boxes(state, seat, building, track):
                if cost + missing * max(0, needs[box] - produced) <= coins:  # as `box_cost`
                    out[recurring("check", box.id, (), label)] = None
        for building in self.dieless[state.boards[seat]]:
            out |= {recurring("check", box.id): None for box in self.next_boxes(state, seat, building, None)
                    if missing * max(0, needs[box] - produced) <= coins}
        return [*out, PASS]

    def usable(self, state: State, seat: int) -> list[tuple[str, str, str, int]]:
        """(label, die, face, slot) of each die in the Forum the seat may pick: a reserve die only
        once unlocked."""
        out, labels, reserve, unlocked = set(), self.labels, self.reserve, state.players[seat].unlocked
        for die_id, face, slot in state.forum:
            if die_id in reserve and die_id not in unlocked:
                continue
            label = labels.get((die_id, face, slot))
            if label is None:
                label = labels[die_id, face, slot] = (f"{die_id}@{slot}:{face}", die_id, face, slot)
            out.add(label)
        return sorted(out)

    def opened(self, state: State, seat: int, die_id: str, face: str) -> tuple[Building | None, str | None]:
        """The building (and track) a die's face opens: the one the face names, if a wild die's or
        one this die opens; else the building this die opens; on the track the face names."""
        key = (state.boards[seat], die_id, face)
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

    def next_boxes(self, state: State, seat: int, building: Building | None, track: str | None) -> list[Piece]:
        """The boxes of a building that may be checked next (on one track, or any), whose condition holds."""
        if building is None:
            return []
        done = state.players[seat].checked
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
        return self.missing * max(0, self.needs[box] - len(state.players[seat].units))

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
                every += 0 if a.args["only"] else a.args["amount"]
                for die in a.args["only"]:
                    some[die] = some.get(die, 0) + a.args["amount"]
        return every, some

    def buildings(self, state: State, seat: int) -> dict[str, Building]:
        return self.board_buildings[state.boards[seat]]

    def decision_actions(self, state: State, decision: Decision) -> list[Action]:
        seat = decision.seat
        if decision.kind == EXTRA:
            return self.turn_actions(state, seat, die_cost=not decision.args.get("free_die"))
        if decision.kind == BONUS:
            used = state.players[seat].bonuses
            return [Action("bonus", choice=str(i + 1)) for i in range(len(self.bonuses)) if i not in used]
        if decision.kind == CHECK:  # a free box in one of the buildings named
            buildings = self.buildings(state, seat)
            boxes = [b for name in decision.args["buildings"] for b in self.next_boxes(state, seat, buildings.get(name), None)]
            skip = [Action("skip")] if decision.args.get("up_to") else []
            return [Action("check", b.id) for b in boxes] + skip
        return []

    # -- carrying out
    def apply(self, state: State, seat: int, action: Action) -> None:
        if state.phase == CHOOSE:
            state.pending[seat] = action
            if len(state.pending) == len(state.players):
                chosen, state.pending = state.pending, {}
                state.phase = DECIDE
                for s in sorted(chosen):
                    self.act(state, s, chosen[s], die_cost=True, box_cost=True)
                self.advance(state)
            return
        decision = state.queue.pop(0)
        if decision.kind == BONUS:
            index = int(action.choice) - 1
            state.players[seat].bonuses.add(index)
            for owned in self.bonuses[index]:
                state.run(seat, owned)
        else:
            self.act(state, seat, action, die_cost=decision.kind == EXTRA and not decision.args.get("free_die"),
                     box_cost=decision.kind != CHECK)
            if decision.kind == CHECK and decision.args.get("count", 1) > 1:
                args = dict(decision.args, count=decision.args["count"] - 1)
                state.queue.insert(0, Decision(seat, CHECK, args, decision.owned))
        state.made(decision)
        self.advance(state)

    def act(self, state: State, seat: int, action: Action, die_cost: bool, box_cost: bool) -> None:
        """Carry out a check (paying what the die and the box cost, as asked) or a pass."""
        if action.verb == "skip":
            return
        if action.verb == "pass":
            for owned in self.passing:
                state.run(seat, owned)
            return
        box = self.box(state, seat, action.card)
        die_id = action.choice.split("@")[0] if action.choice else None
        cost = self.box_cost(state, seat, box) if box_cost else 0
        if die_id is not None and die_cost:
            cost += self.die_cost(state, seat, die_id, int(action.choice.split("@")[1].split(":")[0]))
        self.gain(state, seat, -cost)
        self.check(state, seat, box)
        if die_id is not None:
            for owned in list(state.players[seat].lasting):
                if owned.effect.trigger == "choose_die" and die_id in owned.effect.trigger_dice:
                    state.run(seat, owned)

    def box(self, state: State, seat: int, box_id: str) -> Piece:
        return self.boxes[state.boards[seat]][box_id]

    def check(self, state: State, seat: int, box: Piece) -> None:
        """Check a box: its effects apply; a completed city building gives a bonus (and the first
        to complete one may take its first bonus)."""
        player = state.players[seat]
        player.checked[box.id] = state.round
        player.zones[self.zone].append(box)
        state.enter(seat, box)
        building = self.buildings(state, seat)[box.colour]
        if all(b.id in player.checked for b in building.boxes()):
            if building.first_bonus and building.id not in state.firsts:
                state.firsts.add(building.id)
                for owned in rule_effects(f"first {building.id}", building.first_bonus, box):
                    state.run(seat, owned)
            if building.completion_bonus and len(player.bonuses) < len(self.bonuses):
                state.queue.append(Decision(seat, BONUS, {}))

    def gain(self, state: State, seat: int, amount: int) -> None:
        counters = state.players[seat].counters
        counters[self.currency] = counters.get(self.currency, 0) + amount

    def advance(self, state: State) -> None:
        """Go on until a player owes a choice; then end the round."""
        while state.queue and not self.decision_actions(state, state.queue[0]):
            state.made(state.queue.pop(0))
        for seat, player in enumerate(state.players):  # the gold reserve holds so much
            for name, cap in self.caps.items():
                player.counters[name] = min(player.counters.get(name, 0), cap)
        if state.queue:
            return
        self.end_round(state)

    def end_round(self, state: State) -> None:
        for die_id in sorted(state.unlocking):
            grey = [i for i, d in enumerate(state.forum) if d[0] == self.replaces]
            if grey:
                state.forum[state.rng.choice(grey)] = [die_id, "", 0]
            state.released.add(die_id)
        state.unlocking = set()
        needed = self.end.get("bonuses")
        if state.last_round is None and needed and any(len(p.bonuses) >= needed for p in state.players):
            state.last_round = state.round + self.end.get("extra_rounds", 0)
        if state.last_round is not None and state.round >= state.last_round:
            state.phase = OVER
            return
        state.round += 1
        self.roll(state)

    # -- what a seat sees
    def observation(self, state: State, seat: int) -> dict:
        return {
            "seat": seat,
            "round": state.round + 1,
            "phase": state.phase,
            "to_act": self.current_players(state),
            "committed": sorted(state.pending),
            "forum_dice": [{"die": d, "face": f, "cost": c} for d, f, c in state.forum],
            "decision": state.queue[0].kind if state.queue and state.queue[0].seat == seat else None,
            "players": [{
                "seat": s,
                "city": state.boards[s],
                "counters": dict(p.counters),
                "checked": sorted(p.checked),
                "unlocked": sorted(p.unlocked),
                "bonuses": sorted(i + 1 for i in p.bonuses),
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
        bonuses' effects run. `scenario.py` checks ids and numbers first."""
        game = self.game
        for held in holdings:
            player = Player(dict(game.start_counters), {self.zone: []}, prices=game.start_prices)
            state.players.append(player)
            state.boards.append(held["city"])
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
                player.checked[box.id] = 0
                player.zones[self.zone].append(box)
            placed.append(mine)
        for seat, mine in enumerate(placed):
            for box in mine:
                state.enter(seat, box)
        for seat, held in enumerate(holdings):
            player = state.players[seat]
            for building_id in held.get("firsts", ()):
                building = self.buildings(state, seat)[building_id]
                state.firsts.add(building_id)
                for owned in rule_effects(f"first {building_id}", building.first_bonus, building.boxes()[-1]):
                    state.run(seat, owned)
            player.unlocked |= set(held.get("unlocked", ()))
            player.bonuses = {n - 1 for n in held.get("bonuses", ())}
            # What the scenario gives replaces what the boxes gave; other counters stay.
            player.counters.update({**game.start_counters, **held.get("counters", {})})
        state.released = {d for p in state.players for d in p.unlocked}
        state.unlocking = set()
        state.forum = []
        state.queue = []
        state.phase = OVER

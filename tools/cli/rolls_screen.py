"""The screen of a game of dice and boards of boxes (`flow.kind: rolls`, 7 Wonders Dice).

Every round the Forum's dice are rolled and all players choose at once. Before the human chooses,
the screen shows the Forum (each die, the face it shows, what it opens for you and what it costs),
your board (each building's boxes checked out of its total, the next box with what it needs and
gives, your coins, the resources you make, the dice you unlocked, the bonuses), your neighbours in
short, and the actions as sentences with their price ("check Agora (symbol a) box 2 with the blue
die — 2 coins for the die + 1 for a missing resource"). The choices effects ask for (a bonus, a
free box, an extra action) say where they come from. Once a round is over, what everyone did is told
with the coins they went from and to and the points they scored, the dice that joined the Forum and
the call of the end.

Every word of the game comes from the pack: building, track and die names, the currency, the score
counter, the bonuses and what passing gives are read from its data.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, NamedTuple, Sequence

from ...interpreter.core.actions import Action
from ...interpreter.core.holdings import Decision
from ...interpreter.core.state import State
from ...interpreter.games.game import Game
from ...interpreter.packs.catalogue import Piece
from ..common.text import count, one_line, plural
from .screen import Screen

BONUS, EXTRA, CHECK = "bonus", "extra_action", "check"   # the decisions of the rolls flow


class Snapshot(NamedTuple):
    """What a round's summary compares: coins and points scored during play, per seat; the dice
    brought into the Forum; the round the end was called for."""

    coins: list[int]
    banked: list[int]
    released: frozenset
    last_round: int | None


class Done(NamedTuple):
    """One action as it was played: who, what, and the decision it answered (None for the round's
    own choice)."""

    seat: int
    action: Action
    decision: Decision | None


class RollsScreen(Screen):
    """Texts of a rolls game, from the human's seat."""

    def __init__(self, game: Game, names: Sequence[str], human: int):
        super().__init__(game, names, human)
        rules = game.pack.rules
        self.flow = game.flow
        self.currency = game.rules.flow.currency
        self.vp = game.rules.scoring.counter or "vp"
        self.replaces = game.rules.flow.replaces
        self.bonus_texts = [one_line(b) for b in rules.get("bonuses") or ()]
        self.caps = dict(game.rules.setup.caps)
        shared = ((rules.get("vocabulary") or {}).get("zones") or {}).get("shared") or []
        self.forum = shared[0].replace("_", " ").capitalize() if shared else "Dice"
        self.components = game.pack.components
        self.round: list[Done] = []        # this round's actions so far
        self.start: Snapshot | None = None  # the position as this round began
        self.shown_round = 0

    # ---- names ------------------------------------------------------------------------------
    def who(self, seat: int) -> str:
        return "you" if seat == self.human else self.names[seat]

    def board_name(self, board: str) -> str:
        component = self.components.get("boards", {}).get(board)
        return component.data.get("name", board) if component is not None else board

    def die_name(self, die: str, definite: bool = True) -> str:
        """`the blue die`, `a grey die` (when the Forum holds several), `the black die (Spy)`."""
        component = self.components.get("dice", {}).get(die)
        name = component.data.get("name", f"{die} die") if component is not None else f"{die} die"
        name = name[0].lower() + name[1:]
        copies = self.flow.boards.dice[die].copies if die in self.flow.boards.dice else 1
        return f"{'the' if definite and copies == 1 else 'a'} {name}"

    def buildings(self, state: State, seat: int):
        return self.flow.buildings(state, seat)

    def building_name(self, state: State, seat: int, building: str, track: str | None = None) -> str:
        found = self.buildings(state, seat).get(building)
        name = found.name if found is not None else building
        if not track:
            return name
        words = track.replace("_", " ")
        return f"{name[:-1]}, {words})" if name.endswith(")") else f"{name} ({words})"

    @staticmethod
    def parts(box_id: str) -> tuple[str, str, int]:
        """A box id's building, track ('' for none) and number: `agora.symbol_a.2`."""
        words = box_id.split(".")
        return words[0], words[1] if len(words) == 3 else "", int(words[-1])

    def box_name(self, state: State, seat: int, box_id: str) -> str:
        """`Agora (symbol a) box 2`."""
        building, track, number = self.parts(box_id)
        return f"{self.building_name(state, seat, building, track or None)} box {number}"

    def box_data(self, state: State, seat: int, box_id: str) -> dict:
        """A box as the pack writes it (`cost`, `effect`, `vp`): on the board's own buildings, or
        the shared ones."""
        building, track, number = self.parts(box_id)
        board = self.components.get("boards", {}).get(state.flow_state.boards[seat])
        own = [b for b in (board.data.get("buildings") or []) if b.get("id") == building] if board else []
        shared = self.components.get("buildings", {}).get(building)
        data = own[0] if own else (shared.data if shared is not None else {})
        if track:
            data = next((t for t in data.get("tracks") or [] if t.get("id") == track), {})
        boxes = data.get("boxes") or []
        return boxes[number - 1] if 0 < number <= len(boxes) and isinstance(boxes[number - 1], dict) else {}

    def gives(self, state: State, seat: int, box: Piece) -> str:
        """What a box gives: its points and its effect, as the pack writes them."""
        data = self.box_data(state, seat, box.id)
        out = [f"{box.points} {self.vp}"] if box.points else []
        effect = one_line(data.get("effect"))
        if effect:
            out.append(effect)
        return "; ".join(out)

    # ---- costs ------------------------------------------------------------------------------
    def missing(self, state: State, seat: int, box: Piece) -> tuple[int, int]:
        """(resources the box needs, coins for those the seat lacks)."""
        return self.flow.need(state, seat, box), self.flow.box_cost(state, seat, box)

    def price(self, die: int, coins: int, lacking: int, note: str = "") -> str:
        """`2 coins for the die + 1 for a missing resource`, `free`; `note` follows the die's part."""
        paid = []
        if die:
            paid.append((die, "for the die" + (f" ({note})" if note else "")))
        if coins:
            paid.append((coins, "for a missing resource" if lacking == 1 else f"for {lacking} missing resources"))
        if not paid:
            return "free"
        (n, words), rest = paid[0], paid[1:]
        return " + ".join([f"{count(n, self.currency)} {words}", *(f"{k} {w}" for k, w in rest)])

    def need_text(self, state: State, seat: int, box: Piece) -> str:
        """`2 resources, free for you`, `5 resources, 1 coin for you`."""
        need, coins = self.missing(state, seat, box)
        if not need:
            return "no resource"
        price = "free for you" if not coins else f"{count(coins, self.currency)} for you"
        return f"{plural(need, 'resource')}, {price}"

    # ---- actions ----------------------------------------------------------------------------
    def decision(self, state: State, seat: int | None = None) -> Decision | None:
        seat = self.human if seat is None else seat
        return state.queue[0] if state.queue and state.queue[0].seat == seat and not state.is_terminal() else None

    def labels(self, state: State, actions: list[Action]) -> list[str]:
        return [self.action(state, self.human, a, self.decision(state)) for a in actions]

    def action(self, state: State, seat: int, action: Action, decision: Decision | None = None) -> str:
        """A legal action as its player reads it, with its price and what it gives."""
        if action.verb == "choice":  # a side of `A or B`, as the language writes it
            return f"choose: {action.choice}"
        if action.verb == "pass":
            return f"pass: {self.pass_gain(state, seat)}"
        if action.verb == "skip":
            return "check no box"
        if action.verb == BONUS:
            number = int(action.choice)
            text = self.bonus_texts[number - 1] if number <= len(self.bonus_texts) else ""
            return f"take bonus {number}" + (f": {text}" if text else "")
        if action.verb != CHECK or action.card is None:
            return str(action)
        box = self.flow.box(state, seat, action.card)
        gives = self.gives(state, seat, box)
        scored = self.scored(state, seat, action)
        if scored:
            gives += f"{'; ' if gives else ''}scores {scored} {self.vp} now"
        tail = f" ({gives})" if gives else ""
        need, coins = self.missing(state, seat, box)
        lacking = max(0, need - len(state.players[seat].units))
        name = self.box_name(state, seat, action.card)
        if decision is not None and decision.kind == CHECK:
            return f"check {name}, free{tail}"
        if action.choice is None:
            return f"check {name} — {self.price(0, coins, lacking)}{tail}"
        die, slot, _ = _die_choice(action.choice)
        free_die = decision is not None and decision.kind == EXTRA and decision.args.free_die
        paid = 0 if free_die else self.flow.die_cost(state, seat, die, slot)
        price = self.price(paid, coins, lacking, f"slot {slot}, less your discount" if 0 < paid < slot else "")
        if free_die and slot:
            price += " (the die costs nothing this time)"
        elif not free_die and paid == 0 < slot:
            price += f" (your discount pays the die's slot {slot})"
        return f"check {name} with {self.die_name(die)} — {price}{tail}"

    def scored(self, state: State, seat: int, action: Action) -> int:
        """The points an action scores at once (an attack), worked out on a copy."""
        after = self.flow.preview(state, seat, action)
        return sum(v for _, v in after.players[seat].banked) - sum(v for _, v in state.players[seat].banked)

    def pass_gain(self, state: State, seat: int) -> str:
        """What passing gives, from its gains: `+3 coins`, and what the cap keeps of it."""
        gains: dict[str, int] = {}
        for owned in self.flow.passing:
            if owned.effect.applies(state, seat):
                for a in owned.effect.actions:
                    if a.verb == "gain":
                        gains[a.args.counter] = gains.get(a.args.counter, 0) + a.args.amount(state, seat)
        gains = [(name, n) for name, n in gains.items() if n]
        out = ", ".join(f"{n:+d} {name}" for name, n in gains) or "nothing"
        cap = self.caps.get(self.currency)
        held = state.players[seat].counters.get(self.currency, 0)
        gained = dict(gains).get(self.currency, 0)
        if cap is not None and gained and held + gained > cap:
            out += f" (you may hold {cap} at most: {max(0, cap - held)} kept)"
        return out

    # ---- the table --------------------------------------------------------------------------
    def intro(self, state: State) -> list[str]:
        game = self.game
        board = state.flow_state.boards[self.human]
        self.start = self.snapshot(state)
        wonder = next((b.name for b in self.flow.boards.boards.get(board, {}).values()), None)
        playing = self.board_name(board) + (f" ({wonder})" if wonder else "")
        return [f"{game.pack.name}: {game.players} players, seed {game.seed}. You are seat {self.human}, "
                f"playing {playing}."]

    def table(self, state: State, labels: list[str]) -> list[str]:
        seat = self.human
        decision = self.decision(state)
        head = f"=== Round {state.round + 1} ==="
        if decision is not None:
            head = f"=== Round {state.round + 1} (continued): {self.reason(state, decision)} ==="
        out = ["", head, *self.forum_lines(state, seat), *self.board_lines(state, seat),
               *self.neighbour_lines(state, seat)]
        if decision is not None and self.round:  # the round's choices are revealed: what happened so far
            out.append("This round so far: " + "; ".join(
                f"{self.who(d.seat)} {self.done(state, d)}" for d in self.round) + ".")
        elif state.flow_state.pending:  # chosen, face down until everyone has
            out.append("Chosen already, hidden until all have: "
                       + ", ".join(self.names[s] for s in sorted(state.flow_state.pending)))
        out.append("Actions:")
        out += [f"  {i}. {line}" for i, line in enumerate(labels, 1)]
        return ["\n".join(out)]

    def reason(self, state: State, decision: Decision) -> str:
        """Why the human owes a choice now."""
        source = self.source(state, decision)
        if decision.kind == BONUS:
            return "you completed a building: take one of the bonuses left"
        if decision.kind == EXTRA:
            free = " without paying for the die" if decision.args.free_die else ""
            return f"{source} gives you an extra action{free}"
        if decision.kind == CHECK:
            n = decision.args.count
            where = " / ".join(self.building_name(state, decision.seat, b) for b in decision.args.buildings)
            up_to = "up to " if decision.args.up_to else ""
            return f"{source} lets you check {up_to}{_many(n, 'box', 'boxes')} in {where}, free"
        return decision.kind.replace("_", " ")

    def source(self, state: State, decision: Decision) -> str:
        """Where a decision comes from: `your Gallery of Leaders box 2`, `bonus 1`."""
        piece = decision.owned.piece if decision.owned is not None else None
        if piece is not None and piece.colour and piece.colour in self.buildings(state, decision.seat):
            return self.box_name(state, decision.seat, piece.id)
        bonus = [d for d in self.round if d.seat == decision.seat and d.action.verb == BONUS]
        if bonus:
            return f"bonus {bonus[-1].action.choice}"
        return "an effect"

    def forum_lines(self, state: State, seat: int) -> list[str]:
        out = [f"The {self.forum}:"]
        usable = {d for _, d, _, _ in self.flow.usable(state, seat)}
        for die, face, slot in state.flow_state.forum:
            spec = self.flow.boards.dice[die]
            building, track = self.flow.opened(state, seat, die, face)
            shown, _, shown_track = face.partition(".")
            opens = self.building_name(state, seat, building.id, track) if building is not None else "nothing of yours"
            if spec.wild:
                opens += " (any of its tracks)" if building is not None and len(building.tracks) > 1 else ""
            elif building is not None and shown != building.id:
                opens += f"; it shows {self.building_name(state, seat, shown, shown_track or None)}"
            cost = self.flow.die_cost(state, seat, die, slot)
            price = f"costs {slot}" + (f" ({cost} for you)" if cost != slot else "")
            locked = "" if die in usable else " — not unlocked by you"
            out.append(f"  {self.die_name(die, False)[2:]}: {opens} — {price}{locked}")
        return out

    def board_lines(self, state: State, seat: int) -> list[str]:
        player = state.players[seat]
        coins = player.counters.get(self.currency, 0)
        cap = self.caps.get(self.currency)
        facts = [count(coins, self.currency) + (f" (of {cap} at most)" if cap is not None else ""),
                 f"{plural(len(player.units), 'resource')} made"] + self.tokens(state, seat)
        own = state.flow_state
        unlocked = sorted(own.unlocked[seat])
        facts.append("dice unlocked: " + (", ".join(self.die_name(d, False)[2:] for d in unlocked) or "none"))
        facts += [f"the bank sells you {plural(most, 'missing resource') + ' a box' if most else 'missing resources'} "
                  f"at {price} each" for _, price, most in player.bank]
        out = [f"Your board — {self.board_name(state.flow_state.boards[seat])}: " + "; ".join(facts)]
        for building in self.buildings(state, seat).values():
            out.append("  " + self.building_line(state, seat, building))
        if self.bonus_texts:
            taken = own.bonuses[seat]
            out.append("  Bonuses: " + "; ".join(
                f"{i}. {text} ({'taken' if i - 1 in taken else 'open'})" for i, text in enumerate(self.bonus_texts, 1)))
        return out

    def building_line(self, state: State, seat: int, building) -> str:
        """`Agora (blue die) — symbol a 2/4, next: box 3, 2 resources, free for you (3 vp); ...`."""
        done = state.flow_state.checked[seat]
        how = [self.die_name(building.die, False)[2:] if building.die else "no die"]
        if not building.in_order:
            how.append("any order")
        boxes = building.boxes()
        checked = sum(b.id in done for b in boxes)
        head = f"{building.name}, {', '.join(how)}: {checked}/{len(boxes)}"
        if checked == len(boxes):
            return head + ", complete"
        tracks = []
        for track, row in building.tracks.items():
            open_boxes = [b for b in row if b.id not in done]
            shown = open_boxes[:1] if building.in_order else open_boxes
            words = "; ".join(self.next_box(state, seat, b) for b in shown) or "complete"
            label = "next" if building.in_order else "open"
            if track:
                tracks.append(f"{track.replace('_', ' ')} {len(row) - len(open_boxes)}/{len(row)}, {label}: {words}")
            else:
                tracks.append(f"{label}: {words}")
        return head + " — " + " | ".join(tracks)

    def next_box(self, state: State, seat: int, box: Piece) -> str:
        number = self.parts(box.id)[2]
        gives = self.gives(state, seat, box)
        held = "" if box.condition is None or box.condition(state, seat) else " — its condition is not met now"
        return f"box {number}, {self.need_text(state, seat, box)}" + (f" ({gives})" if gives else "") + held

    def tokens(self, state: State, seat: int) -> list[str]:
        """The tokens of a seat, by kind, that the human sees (a pack's own kinds: Dice has none)."""
        held = Counter(k for k, _, _ in state.shown_tokens(seat, self.human))
        return [plural(n, f"{kind} token") for kind, n in held.items()]

    def short_board(self, state: State, seat: int) -> str:
        player, own = state.players[seat], state.flow_state
        facts = [count(player.counters.get(self.currency, 0), self.currency),
                 f"{plural(len(player.units), 'resource')} made",
                 _many(len(own.bonuses[seat]), "bonus", "bonuses")] + self.tokens(state, seat)
        if own.unlocked[seat]:
            facts.append("unlocked " + ", ".join(sorted(own.unlocked[seat])))
        done = own.checked[seat]
        parts = []
        for building in self.buildings(state, seat).values():
            boxes = building.boxes()
            n = sum(b.id in done for b in boxes)
            if not n:
                continue
            text = f"{building.name} {n}/{len(boxes)}"
            if len(building.tracks) > 1:
                text += " (" + ", ".join(f"{t.replace('_', ' ')} {sum(b.id in done for b in row)}/{len(row)}"
                                         for t, row in building.tracks.items() if t) + ")"
            parts.append(text)
        return (f"{self.board_name(state.flow_state.boards[seat])}: {', '.join(facts)}; "
                + ("; ".join(parts) or "no box checked"))

    def neighbour_lines(self, state: State, seat: int) -> list[str]:
        table = self.game.seat_table
        left, right = table["left"][seat][0], table["right"][seat][0]
        out = ["Neighbours:"]
        if left == right:
            out.append(f"  left and right, {self.names[left]} — {self.short_board(state, left)}")
        else:
            out.append(f"  left, {self.names[left]} — {self.short_board(state, left)}")
            out.append(f"  right, {self.names[right]} — {self.short_board(state, right)}")
        others = [s for s in range(len(state.players)) if s not in (seat, left, right)]
        if others:
            out.append("Other boards:")
            out += [f"  {self.names[s]} — {self.short_board(state, s)}" for s in others]
        return out

    # ---- what happened ----------------------------------------------------------------------
    def snapshot(self, state: State) -> Snapshot:
        return Snapshot([p.counters.get(self.currency, 0) for p in state.players],
                        [sum(v for _, v in p.banked) for p in state.players],
                        frozenset(state.flow_state.released), state.flow_state.last_round)

    def before(self, state: State, seat: int, action: Action) -> Any:
        if self.start is None:
            self.start = self.snapshot(state)
        return Done(seat, action, self.decision(state, seat))

    def after(self, state: State, seat: int, action: Action, before: Any) -> list[str]:
        self.round.append(before)
        if state.round == self.shown_round and not state.is_terminal():
            return []
        out = self.summary(state)
        self.shown_round = state.round
        self.round = []
        self.start = self.snapshot(state)
        if state.is_terminal():
            out.append("The game is over.")
        return out

    def summary(self, state: State) -> list[str]:
        """A round told: per player what they did, their coins and the points they scored."""
        start = self.start
        out = ["", f"--- Round {self.shown_round + 1} ---"]
        for seat in range(len(state.players)):
            mine = [d for d in self.round if d.seat == seat]
            did = "; then ".join(self.done(state, d) for d in mine) or "nothing"
            coins = state.players[seat].counters.get(self.currency, 0)
            facts = [f"{self.currency} {start.coins[seat]} → {coins}" if coins != start.coins[seat] else
                     f"{self.currency} {coins}"]
            scored = sum(v for _, v in state.players[seat].banked) - start.banked[seat]
            if scored:
                facts.append(f"scored {scored} {self.vp}")
            out.append(f"  {self.who(seat)}: {did} — {', '.join(facts)}")
        for die in sorted(state.flow_state.released - start.released):
            instead = f", in place of a {self.replaces} die" if self.replaces else ""
            out.append(f"  {self.die_name(die)[0].upper()}{self.die_name(die)[1:]} joins the {self.forum}{instead}.")
        if start.last_round is None and state.flow_state.last_round is not None:
            needed = self.game.rules.flow.end_bonuses
            callers = [s for s, b in enumerate(state.flow_state.bonuses) if needed and len(b) >= needed]
            who = " and ".join(self.who(s) for s in callers) or "someone"
            rounds = state.flow_state.last_round - self.shown_round
            then = f"{plural(rounds, 'more round')}, then the game ends" if rounds > 0 else "the game ends now"
            out.append(f"  {who} took {_many(needed or 0, 'bonus', 'bonuses')}: {then} "
                       f"(after round {state.flow_state.last_round + 1}).")
        return out

    def done(self, state: State, done: Done) -> str:
        """What a seat did, in the past tense."""
        seat, action, decision = done
        if action.verb == "pass":
            return "passed"
        if action.verb == "skip":
            return "checked no box"
        if action.verb == BONUS:
            number = int(action.choice)
            text = self.bonus_texts[number - 1] if number <= len(self.bonus_texts) else ""
            return f"took bonus {number}" + (f" ({text})" if text else "")
        if action.verb != CHECK or action.card is None:
            return str(action)
        name = self.box_name(state, seat, action.card)
        extra = "as an extra action, " if decision is not None and decision.kind == EXTRA else ""
        if decision is not None and decision.kind == CHECK:
            return f"checked {name}, free"
        if action.choice is None:
            return f"{extra}checked {name}"
        die, _, _ = _die_choice(action.choice)
        return f"{extra}checked {name} with {self.die_name(die)}"


def _die_choice(choice: str) -> tuple[str, int, str]:
    """`blue@2:agora.symbol_a`: the die, its slot and its face."""
    die, _, rest = choice.partition("@")
    slot, _, face = rest.partition(":")
    return die, int(slot), face


def _many(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"

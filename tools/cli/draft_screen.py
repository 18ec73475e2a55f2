"""7 Wonders' screen (`flow.kind: draft`): your city, your neighbours and what they sell you, your
hand with what each card would cost you and how to pay it (or why you cannot build it), the battles
at the end of each round. What a card costs is explained from the flow's data (`View.explain`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Sequence

from ...interpreter.core.actions import Action
from ...interpreter.core.payment import bank_units, lighter_needs, payments_sparing, remainders
from ...interpreter.core.state import State
from ...interpreter.games.game import Game
from ...interpreter.flows.draft import stage_index
from ...interpreter.flows.prelude import KEEP, PRELUDE, RECRUIT
from ...interpreter.packs.catalogue import Cost, Piece, open_stages
from ..common.text import copy_text, cost_text, count, one_line, pay_text, plural, units_text
from .screen import Screen


class View:
    """Texts about a game, from one seat's point of view."""

    def __init__(self, game: Game, names: Sequence[str]):
        self.game = game
        self.names = list(names)
        written, flow = game.pack.rules, game.rules.flow
        self.colours = list((written.get("vocabulary") or {}).get("colours") or [])
        self.period = game.rules.round_period or "round"
        self.rounds = len(flow.rounds)
        self.turns = flow.turns_per_round
        self.hand, self.city_zone, self.discard = flow.hand_zone, flow.build_zone, flow.discard_zone
        self.discard_effect = one_line((written["flow"].get("discard") or {}).get("effect"))
        conflicts = game.rules.conflicts
        self.shields = list(dict.fromkeys(c.counter for c in conflicts))  # each conflict's strength
        self.conflicts = [(c.name, {c.victory_token, c.defeat_token}) for c in conflicts]
        self.components = game.pack.components

    # -- pieces
    def card_data(self, card_id: str) -> dict:
        component = self.components.get("cards", {}).get(card_id)
        return component.data if component is not None else {}

    def name(self, card_id: str) -> str:
        card = self.game.catalogue.cards.get(card_id)
        return card.name if card is not None else card_id

    def stage_data(self, side, index: int) -> dict:
        component = self.components.get("wonders", {}).get(side.wonder)
        stages = ((component.data.get("sides") or {}).get(side.side) or {}).get("stages") if component else None
        return stages[index] if stages and index < len(stages) else {}

    # -- a city
    def city(self, state: State, seat: int, short: bool = False, viewer: int | None = None) -> list[str]:
        """A seat's city as the viewer (by default its own player) sees it."""
        game, player = self.game, state.players[seat]
        side = player.side
        counters = player.counters
        facts = [f"stages {player.stages}/{len(side.stages)}"]
        if game.currency:
            facts.append(count(counters.get(game.currency, 0), game.currency))
        for strength in self.shields:
            facts.append(count(counters.get(strength, 0), strength))
        for name, kinds in self.conflicts:
            tokens = [v for k, v, _ in player.tokens if k in kinds]
            if tokens:
                facts.append(f"{name} tokens {' '.join(f'{v:+d}' for v in tokens)} (= {sum(tokens):+d})")
        seen = state.shown_tokens(seat, seat if viewer is None else viewer)
        own = Counter(k for k, _, _ in seen if k in game.token_kinds)
        facts += [plural(n, f"{kind} token") for kind, n in own.items()]
        lines = [f"{side.name}, side {side.side}: " + ", ".join(facts)]
        groups = self.by_colour(player.zones.get(self.city_zone, ()))
        if short:
            lines.append("  cards: " + ("; ".join(f"{colour}: {', '.join(names)}" for colour, names in groups)
                                        or "none"))
        else:
            lines += [f"  {colour}: {', '.join(names)}" for colour, names in groups] or ["  no cards yet"]
            lines.append(f"  production: {units_text(player.units, player.public)}")
            if player.symbols:
                lines.append("  science: " + ", ".join("/".join(s) if len(s) > 1 else s[0] for s in player.symbols))
        return lines

    def by_colour(self, cards: Sequence[Piece]) -> list[tuple[str, list[str]]]:
        order = {c: i for i, c in enumerate(self.colours)}
        colours = sorted({c.colour for c in cards}, key=lambda c: (order.get(c, len(order)), c))
        return [(colour, [c.name for c in cards if c.colour == colour]) for colour in colours]

    def neighbour(self, state: State, seat: int, index: int) -> list[str]:
        """A neighbour's city, shorter, with what you may buy from them and at what price."""
        game = self.game
        other = game.seller_seats[seat][index]
        seller = game.sellers[index]
        lines = self.city(state, other, short=True, viewer=seat)
        lines[0] = f"{seller} neighbour, {self.names[other]} — {lines[0]}"
        public = state.players[other].public
        if public:
            prices = dict(state.players[seat].prices[index])
            by_price: dict[int, list[str]] = {}
            for unit in dict.fromkeys(public):
                price = max(prices.get(r, 0) for r in unit)
                n = public.count(unit)
                by_price.setdefault(price, []).append((f"{n} " if n > 1 else "") + "/".join(unit))
            sells = "; ".join(f"{', '.join(units)} at {price} each" for price, units in sorted(by_price.items()))
            lines.append(f"  sells you: {sells}")
            first = state.market(seat)[0]
            if first and first[index]:
                lines.append("  the first you buy this turn: " + "; ".join(f"{r} at {c}" for r, c in first[index]))
        return lines

    def bank(self, state: State, seat: int) -> list[str]:
        """What the bank sells the seat (`buy ... from bank`), at what price: none, mostly."""
        offers = [f"{'/'.join(resources)} at {price} each" + (f" (at most {most} a cost)" if most else "")
                  for resources, price, most in state.players[seat].bank]
        return [f"The bank sells you: {'; '.join(offers)}"] if offers else []

    # -- costs
    def explain(self, state: State, seat: int, cost: Cost) -> tuple[bool, str]:
        """Whether the seat can pay this cost now, and how (or why not)."""
        game, player = self.game, state.players[seat]
        counters = player.counters
        currency = game.currency
        coins = counters.get(currency, 0) if currency else 0
        fixed = 0
        for name, n in cost.counters:
            if name == currency:
                fixed += n
            elif counters.get(name, 0) < n:
                return False, f"needs {count(n, name)}, you have {counters.get(name, 0)}"
        bank = f"{count(fixed, currency)} to the bank" if fixed else ""
        if fixed > coins:
            return False, f"not enough {currency}: it costs {fixed}, you have {coins}"
        if not cost.resources:
            return True, f"pay {bank}" if fixed else "free"
        if any(() in remainders(need, player.units) for need in lighter_needs(cost.resources, cost.spare)):
            return True, "your city produces it" + (f"; pay {bank}" if bank else "")
        sellers = state.sellers(seat)
        found = payments_sparing(cost.resources, cost.spare, player.units, sellers, player.prices, *state.market(seat))
        if not found:
            spare = f" (you may leave out {count(cost.spare, 'resource')})" if cost.spare else ""
            sold = bank_units(player.bank, len(cost.resources))
            return False, self.lacking(cost.resources, player.units + sum(sellers, ()) + sold) + spare
        afford = [p for p in found if sum(p) + fixed <= coins]
        if not afford:
            cheapest = min(sum(p) for p in found) + fixed
            return False, f"not enough {currency}: the cheapest way costs {cheapest}, you have {coins}"
        options = " or ".join(pay_text(game, p) for p in afford)
        return True, f"buy: {options}" + (f"; and pay {bank}" if bank else "")

    @staticmethod
    def lacking(need: tuple[str, ...], pool: tuple[tuple[str, ...], ...]) -> str:
        """Why what a seat and its sellers produce together cannot cover a cost."""
        missing = Counter(min(remainders(need, tuple(sorted(pool))), key=len))
        if not missing:
            return "your neighbours cannot sell you what you lack"
        nobody = [r for r in missing if not any(r in unit for unit in pool)]
        short = [r for r in missing if r not in nobody]
        parts = []
        if nobody:
            parts.append(f"neither you nor your neighbours produce {' or '.join(sorted(nobody))}")
        if short:
            parts.append("you and your neighbours together are "
                         + " and ".join(f"{missing[r]} {r}" for r in sorted(short)) + " short")
        return "; ".join(parts)

    def for_you(self, printed: Cost, paid: Cost) -> str:
        """` (2 coins for you)` where what the seat pays is not the printed cost."""
        return "" if paid == printed else f" ({cost_text(self.game, paid)} for you)"

    def hand_line(self, state: State, seat: int, card: Piece) -> str:
        player = state.players[seat]
        data = self.card_data(card.id)
        effect = one_line(data.get("effect"))
        cost = one_line(data.get("cost")) or (cost_text(self.game, card.cost) if not card.cost.free else "")
        head = f"{card.name} ({card.colour}{'; ' + effect if effect else ''})"
        if card.id in player.built:
            return f"{head} — cannot be built: your city already holds one (no two structures of one name)"
        chains = state.chained(seat, card)
        if chains:
            return f"{head} — free: you built {', '.join(self.name(c) for c in sorted(chains))}"
        paid = state.price(seat, card)
        ok, how = self.explain(state, seat, paid)
        price = f"costs {cost}{self.for_you(card.cost, paid)}: " if cost else ""
        return f"{head} — {price}{how}" if ok else f"{head} — {price}cannot be built: {how}"

    def stage_line(self, state: State, seat: int) -> str | None:
        """The stage the seat may build next (each, where stages are built in any order)."""
        player = state.players[seat]
        side = player.side
        if player.stages >= len(side.stages):
            return None
        ready = open_stages(side.stages, frozenset(player.raised)) if not side.in_order else \
            ((player.stages + 1, side.stages[player.stages]),)
        lines = []
        for number, stage in ready:
            data = self.stage_data(side, number - 1)
            paid = state.price(seat, stage, stage=True)
            ok, how = self.explain(state, seat, paid)
            text = (one_line(data.get("cost")) or cost_text(self.game, stage.cost)) + self.for_you(stage.cost, paid)
            effect = one_line(data.get("effect"))
            head = f"next wonder stage {number}/{len(side.stages)}" + (f" ({effect})" if effect else "")
            lines.append(f"{head} — costs {text}: {how}" if ok else f"{head} — costs {text}: cannot be built: {how}")
        return "; ".join(lines)

    # -- actions
    def action(self, state: State, seat: int, action: Action, decision: str | None = None) -> str:
        """A legal action as the player reads it: `build Baths — pay 2 coins to right`."""
        game, player = self.game, state.players[seat]
        name = self.name(action.card) if action.card else ""
        if action.verb == "choice":  # a side of `A or B`, as the language writes it
            return f"choose: {action.choice}"
        if action.verb == "discard":
            return f"discard {name}" + (f" — {self.discard_effect}" if self.discard_effect else "")
        if action.verb == KEEP:
            return f"keep {name}, to play at the start of an {self.period}"
        if action.verb == "copy":
            return copy_text(game, action.card)
        if action.verb == "stage":
            index = stage_index(player, action)
            effect = one_line(self.stage_data(player.side, index).get("effect"))
            head = f"build wonder stage {index + 1}/{len(player.side.stages)} with {name}" + (f" ({effect})" if effect else "")
            paid = game.flow.paid_stage(player, action)
            head += f", as a copy of {paid.id}" if paid is not player.side.stages[index] else ""
            if action.free:
                power = state.power(seat, "stage_free")
                limit = power.effect.limit if power is not None else None
                return f"{head} — free, with your power" + (f" (once per {limit})" if limit else "")
            return f"{head} — {self.paying(state.price(seat, paid, stage=True), action)}"
        if action.verb == "build":
            card = game.catalogue.cards.get(action.card)
            if decision == "build_free":
                return f"build {name} from the {self.discard or 'discard'}, free"
            if action.free:
                power = game.flow.free_power(state, seat)
                limit = power.effect.limit if power is not None else None
                return f"build {name} free, with your wonder's power" + (f" (once per {limit})" if limit else "")
            if card is not None and state.chained(seat, card):
                chained = ", ".join(self.name(c) for c in sorted(state.chained(seat, card)))
                return f"build {name} — free, chained from {chained}"
            return f"build {name} — {self.paying(state.price(seat, card) if card else Cost(), action)}"
        return str(action)

    def paying(self, cost: Cost, action: Action) -> str:
        game = self.game
        parts = [f"{count(n, name)} to the bank" for name, n in cost.counters]
        if any(action.pay):
            parts.append(pay_text(game, action.pay))
        if parts:
            return "pay " + " and ".join(parts)
        return "nothing to pay" if cost.free else "your city produces it all"

    def done(self, seat: int, action: Action) -> str:
        """What others saw a seat do: cards spent on stages or discarded stay face down."""
        who = self.names[seat]
        paid = f", paying {pay_text(self.game, action.pay)}" if any(action.pay) else ""
        if action.verb == "build":
            how = " free" if action.free else ""
            return f"{who} built {self.name(action.card)}{how}{paid}"
        if action.verb == "stage":
            return f"{who} built a wonder stage{paid}"
        if action.verb == "discard":
            return f"{who} discarded a card" + (f" ({self.discard_effect})" if self.discard_effect else "")
        return f"{who}: {action}"


class DraftScreen(Screen):
    """The draft: every seat picks at once; a turn is told once all of its picks are revealed."""

    def __init__(self, game: Game, names: Sequence[str], human: int):
        super().__init__(game, names, human)
        self.view = View(game, names)
        self.shown_round = 0
        self.shown_actions = 0
        self.shown_turn = 0

    def decision(self, state: State) -> str | None:
        """The kind of a choice the human owes in the middle of a turn, if any."""
        return state.queue[0].kind if state.queue and state.queue[0].seat == self.human else None

    def labels(self, state: State, actions: list[Action]) -> list[str]:
        decision = self.decision(state)
        return [self.view.action(state, self.human, a, decision) for a in actions]

    def table(self, state: State, labels: list[str]) -> list[str]:
        view, seat = self.view, self.human
        player = state.players[seat]
        decision = self.decision(state)
        out = [""]
        part, kept = state.flow_state.part, self.game.rules.flow.recruit
        turn = f", turn {state.flow_state.turn + 1}" + (f" of {view.turns}" if view.turns else "")
        if part == PRELUDE:
            out.append(f"=== Before {view.period} 1: the draft of the {kept or 'kept cards'}, pick {state.flow_state.turn + 1} ===")
        else:
            turn = f", first turn: play one of your {kept}" if part == RECRUIT else turn
            out.append(f"=== {view.period.capitalize()} {state.round + 1}"
                       f"{f' of {view.rounds}' if view.rounds else ''}{turn} ===")
        out.append("Your city — " + "\n".join(view.city(state, seat)))
        if kept and part != RECRUIT:
            held = sorted(view.name(c.id) for c in player.zones.get(kept, ()))
            out.append(f"  your {kept} (you alone see them): {', '.join(held) if held else 'none'}")
        for index in range(len(self.game.sellers)):
            out += view.neighbour(state, seat, index)
        out += view.bank(state, seat)
        if decision == "build_free":
            out.append("Your wonder lets you build one card of the discard pile, free:")
        elif decision == "copy_stage":
            out.append("Copy one of the stages your neighbours built, as if you had built it:")
        else:
            if decision == "play_last":
                out.append(f"Your wonder lets you play the last card of this {view.period}:")
            hand = sorted({c.id: c for c in player.zones.get(view.hand, ())}.values(), key=lambda c: c.name)
            out.append("Your hand:")
            out += [f"  {view.hand_line(state, seat, card)}" for card in hand]
            stage = view.stage_line(state, seat)
            if stage:
                out.append(f"  ({stage})")
        out.append("Actions:")
        out += [f"  {i}. {line}" for i, line in enumerate(labels, 1)]
        return ["\n".join(out)]

    def after(self, state: State, seat: int, action: Action, before: Any) -> list[str]:
        """Tell what happened once a turn is revealed, and the battles once a round is over."""
        out = []
        if state.turns_played != self.shown_turn or state.is_terminal():
            self.shown_turn = state.turns_played
            new = state.history[self.shown_actions:]
            self.shown_actions = len(state.history)
            if new:
                out += ["", "This turn: " + "; ".join(self.view.done(s, a) for s, a in new) + "."]
        while self.shown_round < state.round:
            out += self.battles(state, self.shown_round)
            self.shown_round += 1
        return out

    def battles(self, state: State, round_: int) -> list[str]:
        view = self.view
        out = ["", f"--- Battles at the end of {view.period} {round_ + 1} ---"]
        for seat, player in enumerate(state.players):
            won = [f"{kind} {value:+d}" for kind, value, r in player.tokens
                   if r == round_ and kind not in self.game.token_kinds]
            shown = " and ".join(count(player.counters.get(c, 0), c) for c in view.shields)
            strength = f" with {shown}" if shown else ""
            out.append(f"  {self.names[seat]}{strength}: {', '.join(won) or 'no token'}")
        return out

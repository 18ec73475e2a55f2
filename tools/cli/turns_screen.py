"""The screen of a game played in turns (`flow.kind: turns`, 7 Wonders Architects).

One player acts at a time. Before the human chooses, the screen shows whose turn it is, their city
(cards by colour, the resources and science symbols they hold, shields, tokens, pawns, the stages of
their wonder built and those available next with their cost), the other cities in short, the decks
on offer (the top of their own deck, of their right neighbour's and of the shared decks, face down
unless the observation shows the top), the tokens the flow flips, who holds each pawn, and the
pieces on offer (progress tokens). Every action of every seat is then told as it is carried out,
with what it revealed, the battles it called and the end of the game.

Every word of the game comes from the pack: zones, colours, counters, token kinds, pawns and the
component kind on offer are read from rules.yaml.
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple, Sequence

from ...interpreter.core.actions import Action
from ...interpreter.core.state import State
from ...interpreter.games.game import Game
from ...interpreter.packs.catalogue import Piece
from ..common.text import copy_text, count, one_line, plural, tally
from .screen import Screen


class Snapshot(NamedTuple):
    """What the narration compares before and after an action."""

    turn: int
    cities: list[Counter]
    pieces: list[Counter]
    tokens: list[int]
    pawns: dict
    flips: dict
    counters: list[dict]


class TurnsScreen(Screen):
    """Texts of a turns game, from the human's seat."""

    def __init__(self, game: Game, names: Sequence[str], human: int):
        super().__init__(game, names, human)
        rules, written = game.rules, game.pack.rules
        setup = written.get("setup") or {}
        vocabulary = written.get("vocabulary") or {}
        self.city, self.discard = rules.build_zone, rules.discard_zone
        self.own_deck = rules.setup.wonder_decks             # each player's deck, `zone@seat`
        self.decks = list(rules.setup.decks)                 # shared decks, face down
        self.offer = setup.get("offer") or {}                # pieces on offer: kind, shown, stack
        military = written.get("military") or {}
        self.shields = military.get("counter")
        self.flip = military.get("flip")
        self.battle_discard = military.get("discard_after")
        self.colours = list(vocabulary.get("colours") or ())
        self.wild = set(vocabulary.get("wild") or ())
        self.components = game.pack.components
        self.shown_turn = 0

    # ---- names ------------------------------------------------------------------------------
    def piece_name(self, pid: str | None, kind: str | None = None) -> str:
        catalogue = self.game.catalogue
        if pid is None:
            return "?"
        if kind is None and pid in catalogue.cards:
            return catalogue.cards[pid].name
        for k, pieces in catalogue.others.items():
            if (kind is None or k == kind) and pid in pieces:
                return pieces[pid].name
        return pid

    def piece_effect(self, kind: str, pid: str) -> str:
        component = self.components.get(kind, {}).get(pid)
        return one_line(component.data.get("effect")) if component is not None else ""

    def piece_text(self, kind: str, pid: str) -> str:
        """A piece on the table with what claims it: `Three blue cards (objective: 3 blue card)`."""
        component = self.components.get(kind, {}).get(pid)
        objective = one_line(component.data.get("objective")) if component is not None else ""
        return self.piece_name(pid, kind) + (f" (objective: {objective})" if objective else "")

    def who(self, seat: int) -> str:
        """`you` for the human (as the subject), else the seat's name."""
        return "you" if seat == self.human else self.names[seat]

    def whose(self, seat: int, actor: int) -> str:
        """A possessive seen from the actor: `your`, `their`, `seat 2 (random)'s`."""
        if seat == actor:
            return "your" if actor == self.human else "their"
        return "your" if seat == self.human else f"{self.names[seat]}'s"

    def right(self, seat: int) -> int:
        return self.game.seat_table["right"][seat][0]

    def zone_name(self, zone: str, actor: int) -> str:
        """A zone as the actor reads it: `your left deck`, `their right deck`, `the central deck`."""
        name, _, owner = zone.partition("@")
        words = name.replace("_", " ")
        if not owner:
            return f"the {words}"
        seat = int(owner)
        if name == self.own_deck:  # a player's own deck lies on their left, their right neighbour's on their right
            if seat == actor:
                return f"{self.whose(actor, actor)} left deck"
            if seat == self.right(actor):
                mine = " (yours)" if seat == self.human else ""
                return f"{self.whose(actor, actor)} right deck{mine}"
        return f"{self.whose(seat, actor)} {words}"

    def token_noun(self) -> str:
        return f"{self.offer.get('kind', 'piece')} token"

    def stage_data(self, state: State, seat: int, number: int) -> dict:
        """A stage as wonders.yaml writes it (its `cost` and `effect` texts)."""
        side = state.players[seat].side
        component = self.components.get("wonders", {}).get(side.wonder)
        if component is None:
            return {}
        data = ((component.data.get("sides") or {}).get(side.side) or {}) if side.side else component.data
        stages = data.get("stages") or ()
        return stages[number - 1] if 0 < number <= len(stages) and isinstance(stages[number - 1], dict) else {}

    def stage_effect(self, state: State, seat: int, number: int) -> str:
        return one_line(self.stage_data(state, seat, number).get("effect"))

    def stage_cost(self, state: State, seat: int, number: int) -> str:
        return one_line(self.stage_data(state, seat, number).get("cost"))

    # ---- actions ----------------------------------------------------------------------------
    def labels(self, state: State, actions: list[Action]) -> list[str]:
        return [self.action(state, self.human, a) for a in actions]

    def depth(self, state: State, seat: int, action: Action) -> int:
        """How deep in its deck a take may reach (`take 1 of top 5 cards`: 5)."""
        for decision in state.queue:
            if decision.seat == seat and decision.kind == "take_top" and action in state.decision_actions(decision):
                return decision.args.depth
        return 1

    def action(self, state: State, seat: int, action: Action) -> str:
        """A legal action as its player reads it."""
        if action.verb == "choice":  # a side of `A or B`, as the language writes it
            return f"choose: {action.choice}"
        if action.verb == "look":
            depth = self.depth(state, seat, action)
            return f"look at the top {depth} cards of {self.zone_name(action.choice, seat)} and take one of them"
        if action.verb == "take":
            where = self.zone_name(action.choice, seat) if action.choice else "a deck"
            if action.card is None:
                return f"take the top card of {where}, face down"
            depth = self.depth(state, seat, action)
            among = f" (one of its top {depth})" if depth > 1 else ""
            return f"take {self.piece_name(action.card)} from {where}{among}"
        if action.verb == "copy":
            return copy_text(self.game, action.card)
        if action.verb == "stage":
            number = int(action.choice)
            effect = self.stage_effect(state, seat, number)
            spend = f" spending {', '.join(action.spend)}" if action.spend else ""
            return f"build stage {number}{spend}" + (f" ({effect})" if effect else "")
        if action.verb == "token":
            noun = self.token_noun()
            turning = f", turning in {', '.join(action.spend)}" if action.spend else ""
            if action.card is None:
                return f"take the top {noun} of the {self.zone_words(action.choice)}, face down{turning}"
            kind = self.offer.get("kind")
            effect = self.piece_effect(kind, action.card) if kind else ""
            return f"take {noun} {self.piece_name(action.card, kind)}{turning}" + (f" ({effect})" if effect else "")
        words = [action.verb.replace("_", " ")]
        if action.card:
            words.append(self.piece_name(action.card))
        if action.choice:
            zone = "@" in action.choice or action.choice in state.shared
            words.append(f"from {self.zone_name(action.choice, seat)}" if zone else action.choice)
        if action.spend:
            words.append(f"spending {', '.join(action.spend)}")
        return " ".join(words)

    @staticmethod
    def zone_words(zone: str | None) -> str:
        return (zone or "stack").replace("_", " ")

    # ---- the table --------------------------------------------------------------------------
    def table(self, state: State, labels: list[str]) -> list[str]:
        seat = self.human
        seen = state.observation(seat)
        going_on = " (continued)" if state.history and len(state.history) > state.flow_state.turn_began else ""
        self.shown_turn = 0  # what the human does next is told under its own heading
        out = ["", f"=== Turn {state.turns_played}: your turn{going_on} ===", *self.city_lines(state, seat)]
        others = [s for s in range(len(state.players)) if s != seat]
        if others:
            out.append("Other cities:")
            out += [f"  {self.short_city(state, s)}" for s in others]
        out += self.offer_lines(state, seen)
        out.append("Actions:")
        out += [f"  {i}. {line}" for i, line in enumerate(labels, 1)]
        return ["\n".join(out)]

    def facts(self, state: State, seat: int) -> list[str]:
        """Shields, tokens and pawns of a seat."""
        player = state.players[seat]
        out = []
        if self.shields:
            out.append(count(player.counters.get(self.shields, 0), self.shields))
        for kind, n in Counter(k for k, _, _ in state.shown_tokens(seat, self.human)).items():
            out.append(plural(n, f"{kind} token"))
        out += [f"the {pawn}" for pawn, holder in state.pawns.items() if holder == seat]
        return out

    def wonder_line(self, state: State, seat: int, full: bool) -> str:
        player = state.players[seat]
        stages = player.side.stages
        built = sorted(i + 1 for i in player.raised)
        text = (f"stage{'s' * (len(built) > 1)} {', '.join(map(str, built))} of {len(stages)} built" if built
                else f"no stage of {len(stages)} built")
        if not full:
            return text
        ready = [i + 1 for i, stage in enumerate(stages) if i not in player.raised and set(stage.requires) <= player.raised]
        nexts = []
        for number in ready:
            cost = self.stage_cost(state, seat, number)
            effect = self.stage_effect(state, seat, number)
            nexts.append(f"stage {number}" + (f" costs {cost}" if cost else "") + (f" ({effect})" if effect else ""))
        return text + ("; available next: " + "; ".join(nexts) if nexts else "")

    def by_colour(self, cards: Sequence[Piece]) -> list[tuple[str, str]]:
        order = {c: i for i, c in enumerate(self.colours)}
        colours = sorted({c.colour for c in cards}, key=lambda c: (order.get(c, len(order)), c))
        return [(colour, tally([c.name for c in cards if c.colour == colour])) for colour in colours]

    def extra_zones(self, state: State, seat: int, mine: bool) -> list[tuple[str, list[Piece]]]:
        """A player's other zones worth showing: pieces held (progress tokens, medals); for the human
        also the cards kept aside for them."""
        player = state.players[seat]
        skip = {self.city, self.own_deck}
        pieces = set(self.game.catalogue.others)
        return [(zone, cards) for zone, cards in player.zones.items()
                if zone not in skip and cards and (mine or zone in pieces)]

    def city_lines(self, state: State, seat: int) -> list[str]:
        player = state.players[seat]
        cards = player.zones.get(self.city, ())
        facts = self.facts(state, seat)
        out = [f"Your city — {player.side.name}" + (f": {', '.join(facts)}" if facts else "")]
        out += [f"  {colour}: {names}" for colour, names in self.by_colour(cards)] or ["  no cards yet"]
        produced = [r for card in cards for r in _produces(card)]
        if produced:
            counts = Counter(produced)
            out.append("  resources: " + ", ".join(
                (f"{n} {r}" if n > 1 else r) + (" (wild)" if r in self.wild else "") for r, n in sorted(
                    counts.items(), key=lambda rn: (rn[0] in self.wild, rn[0]))))
        if player.symbols:
            out.append("  science: " + tally(["/".join(s) for s in player.symbols]))
        for zone, pieces in self.extra_zones(state, seat, True):
            out.append(f"  {zone.replace('_', ' ')}: " + tally([p.name for p in pieces]))
        out.append(f"  wonder: {self.wonder_line(state, seat, True)}")
        return out

    def short_city(self, state: State, seat: int) -> str:
        player = state.players[seat]
        parts = [self.wonder_line(state, seat, False), *self.facts(state, seat)]
        cards = self.by_colour(player.zones.get(self.city, ()))
        parts.append("cards: " + ("; ".join(f"{colour}: {names}" for colour, names in cards) or "none"))
        parts += [f"{zone.replace('_', ' ')}: {tally([p.name for p in pieces])}"
                  for zone, pieces in self.extra_zones(state, seat, False)]
        return f"{self.names[seat]} — {player.side.name}: " + "; ".join(parts)

    def offer_lines(self, state: State, seen: dict) -> list[str]:
        seat = self.human
        out = ["On offer:"]
        decks = []
        if self.own_deck:
            decks += [(f"{self.own_deck}@{s}", seen["players"][s]["zones"].get(self.own_deck))
                      for s in dict.fromkeys((seat, self.right(seat)))]
        decks += [(zone, seen["shared"].get(zone)) for zone in self.decks]
        for zone, shown in decks:
            if not isinstance(shown, dict):
                continue
            size = shown.get("size", 0)
            top = shown.get("top")
            if not size:
                what = "empty"
            elif top is not None:
                what = self.piece_name(top) + ("" if "@" in zone else " (you see it)")
            else:
                what = "face down"
            out.append(f"  {self.zone_name(zone, seat)} ({plural(size, 'card')}): {what}")
        for kind, (total, turned) in state.flips.items():
            battle = "; turning the last calls a battle" if kind == self.flip else ""
            if kind == self.flip and state.battle:
                battle = ": a battle at the end of this turn"
            out.append(f"{kind.capitalize()} tokens: {turned} of {total} turned{battle}")
        for pawn, holder in state.pawns.items():
            where = "nobody holds it" if holder is None else \
                ("you hold it" if holder == seat else f"{self.names[holder]} holds it")
            out.append(f"{pawn.capitalize()}: {where}")
        kind = self.offer.get("kind")
        if kind:
            shown = state.shared.get(self.offer.get("shown"), [])
            stack = state.shared.get(self.offer.get("stack"), [])
            items = [p.name + (f" ({e})" if (e := self.piece_effect(kind, p.id)) else "") for p in shown]
            out.append(f"{self.token_noun().capitalize()}s on offer: " + ("; ".join(items) or "none")
                       + f"; {len(stack)} face down in the stack")
        known = {self.discard, self.offer.get("shown"), self.offer.get("stack"), *self.decks}
        for zone, pieces in state.shared.items():
            if zone in known:
                continue
            name, _, owner = zone.partition("@")
            where = ""
            if owner:
                a, b = int(owner), (int(owner) + 1) % len(state.players)
                where = f" between {self.who(a)} and {self.who(b)}"
            out.append(f"{name.replace('_', ' ').capitalize()}{where}: "
                       + ("; ".join(self.piece_text(name, p.id) for p in pieces) or "none left"))
        discard = state.shared.get(self.discard)
        if discard is not None:
            out.append(f"{self.discard.replace('_', ' ').capitalize()}: {plural(len(discard), 'card')}")
        return out

    # ---- what happened ----------------------------------------------------------------------
    def before(self, state: State, seat: int, action: Action) -> Snapshot:
        players = state.players
        city = self.city
        return Snapshot(
            state.turns_played,
            [Counter(c.id for c in p.zones.get(city, ())) for p in players],
            [Counter((z, c.id) for z, cs in p.zones.items() if z not in (city, self.own_deck) for c in cs)
             for p in players],
            [len(p.tokens) for p in players],
            dict(state.pawns),
            dict(state.flips),
            [dict(p.counters) for p in players],
        )

    def after(self, state: State, seat: int, action: Action, before: Snapshot) -> list[str]:
        out = []
        if before.turn != self.shown_turn:
            self.shown_turn = before.turn
            out += ["", f"Turn {before.turn} — {self.who(seat)}:"]
        out.append(f"  {self.done(state, seat, action, before)}")
        for kind, (total, turned) in state.flips.items():
            was = before.flips.get(kind, (total, 0))[1]
            if turned > was:
                out.append(f"  {self.who(seat)} turned {plural(turned - was, f'{kind} token')} "
                           f"({turned} of {total} turned)")
        for pawn, holder in state.pawns.items():
            if holder != before.pawns.get(pawn) and holder is not None:
                out.append(f"  {self.who(holder)} took the {pawn}")
        battle = any(len(p.tokens) != n for p, n in zip(state.players, before.tokens))  # it tells its own
        for s in range(len(state.players)) if not battle else ():  # what the seat's effects gave the others
            moved = self.counters_moved(before.counters[s], state.players[s].counters) if s != seat else None
            if moved:
                out.append(f"  {self.who(s)} {moved}")
        for s in range(len(state.players)):
            gained = self.gained_pieces(state, s, before)
            if gained and not (s == seat and action.verb == "token"):
                out.append(f"  {self.who(s)} gained {', '.join(gained)}")
        for s in range(len(state.players)):
            aside = self.aside(state, s) - Counter({k: n for k, n in before.pieces[s].items()
                                                     if k[0] not in self.game.catalogue.others})
            for (zone, _), n in aside.items():
                out.append(f"  {self.who(s)} received {plural(n, 'card')} face down")
            if s != seat:
                placed = Counter(c.id for c in state.players[s].zones.get(self.city, ())) - before.cities[s]
                if placed:
                    names = tally([self.piece_name(c) for c, n in placed.items() for _ in range(n)])
                    out.append(f"  {self.who(s)} put {names} into {self.whose(s, s)} city")
        if battle:
            out += self.battle(state, before)
        if state.is_terminal():
            done = [s for s, p in enumerate(state.players) if len(p.raised) == len(p.side.stages)]
            why = (f": {' and '.join(self.who(s) for s in done)} completed "
                   f"{'your' if done == [self.human] else 'their'} wonder") if done else ""
            out.append(f"The game is over{why}.")
        return out

    @staticmethod
    def counters_moved(before: dict, now: dict) -> str:
        """`lost 2 coins, gained 1 vp`: how a seat's counters changed, or '' when none did."""
        moved = [(name, now.get(name, 0) - before.get(name, 0)) for name in dict.fromkeys([*before, *now])]
        return ", ".join(f"{'gained' if n > 0 else 'lost'} {count(abs(n), name)}" for name, n in moved if n)

    def gained_pieces(self, state: State, seat: int, before: Snapshot) -> list[str]:
        """Pieces (tokens, medals) that came to a seat, named."""
        now = Counter((z, c.id) for z, cs in state.players[seat].zones.items()
                      if z not in (self.city, self.own_deck) and z in self.game.catalogue.others for c in cs)
        new = now - before.pieces[seat]
        return [f"{self.noun(zone)} {self.piece_name(pid, zone)}" for (zone, pid), n in new.items() for _ in range(n)]

    def aside(self, state: State, seat: int) -> Counter:
        """Cards a seat holds outside its city and deck that are no pieces (given face down)."""
        others = self.game.catalogue.others
        return Counter((z, c.id) for z, cs in state.players[seat].zones.items()
                       if z not in (self.city, self.own_deck) and z not in others for c in cs)

    def noun(self, kind: str) -> str:
        """What one piece of a kind is called: `progress token`, `medal`."""
        if kind == self.offer.get("kind"):
            return self.token_noun()
        return kind[:-1] if kind.endswith("s") else kind

    def done(self, state: State, seat: int, action: Action, before: Snapshot) -> str:
        """What a seat did, in the past tense, with what it revealed."""
        who = self.who(seat)
        if action.verb == "take":
            where = self.zone_name(action.choice, seat) if action.choice else "a deck"
            card = action.card
            if card is None:
                new = Counter(c.id for c in state.players[seat].zones.get(self.city, ())) - before.cities[seat]
                card = next(iter(new), None)
                return f"{who} took {self.piece_name(card) if card else 'a card'} from the top of {where}"
            return f"{who} took {self.piece_name(card)} from {where}"
        if action.verb == "stage":
            spend = f", spending {', '.join(action.spend)}" if action.spend else ""
            effect = self.stage_effect(state, seat, int(action.choice))
            return f"{who} built stage {action.choice} of {self.whose(seat, seat)} wonder{spend}" + \
                (f" ({effect})" if effect else "")
        if action.verb == "token":
            turning = f", turning in {', '.join(action.spend)}" if action.spend else ""
            gained = self.gained_pieces(state, seat, before)
            what = gained[0] if gained else self.token_noun()
            how = " from the stack" if action.card is None else ""
            return f"{who} took {what}{how}{turning}"
        return f"{who}: {self.action(state, seat, action)}"

    def battle(self, state: State, before: Snapshot) -> list[str]:
        out = ["  --- Battle! ---"]
        for s, player in enumerate(state.players):
            won = Counter(k for k, _, _ in player.tokens[before.tokens[s]:])
            text = ", ".join(plural(n, f"{k} token") for k, n in won.items()) or "nothing"
            shields = f"; {count(player.counters.get(self.shields, 0), self.shields)} now" if self.shields else ""
            lost = ""
            spec = self.battle_discard
            if spec:
                gone = before.cities[s] - Counter(c.id for c in player.zones.get(self.city, ()))
                cards = self.game.catalogue.cards
                names = [cards[c].name for c, n in gone.items() for _ in range(n) if c in cards
                         and cards[c].colour == spec.get("colour") and spec.get("icon") in cards[c].icons]
                lost = f"; discarded {tally(names)}" if names else ""
            out.append(f"  {self.who(s)}: won {text}{lost}{shields}")
        return out


def _produces(card: Piece) -> list[str]:
    """The resources a card gives, from its `produce` effects."""
    return [r for e in card.effects if e.trigger is None for a in e.actions if a.verb == "produce"
            for r in a.args.resources]

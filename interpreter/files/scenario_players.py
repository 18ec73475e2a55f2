"""The checks of what each player of a scenario holds, item by item (`holding`, as the flow's
`arrange` takes it): names and wonders each once, the fields that apply to the game, the side and
stages of the wonder, the cards, the pieces (progress tokens, medals), pawns, counters and military
tokens, each known and within what the game has. Boards of boxes are scenario_boards.py's.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterator

from ...dsl.diagnostics import did_you_mean, one_of
from ..core.context import COPY_STAGE
from ..flows.kinds import Arranged
from ..games.game import SIDE_OPTION, Game
from .scenario_fields import (BOARD, BOARD_NOTES, CARD, COUNTER, DUPLICATE, FIELD, HOLDS, KINDS_NAMED, MILITARY, NEEDS,
                              NOUN, OPTION, PAWN, PIECE, PIECES, PLAYER_FIELDS, SIDE, STAGES, TOKEN, WONDER, Checks,
                              is_count, objectives_in_middle, rule)

OWN_TOKENS = "tokens"  # the scenario field of the tokens of a pack's own kinds
COPIES = "copies"  # the scenario field of the stages copied in play


class PlayerChecks(Checks):
    """Each player's holding, checked; mixed into the scenario's reader (scenario.py)."""

    def check_names(self, players: list[dict]) -> None:
        seen: dict[str, int] = {}
        for i, player in enumerate(players):
            name = player.get("name")
            if isinstance(name, str):
                if name in seen:
                    self.error(DUPLICATE, f"two players are named '{name}'", ("players", i, "name"),
                               f"the first is player {seen[name] + 1}; give each player their own name")
                seen.setdefault(name, i)

    def check_wonders(self, game: Game, players: list[dict], names: list[str]) -> None:
        seen: dict[str, int] = {}
        for i, player in enumerate(players):
            wonder = player.get("wonder")
            if isinstance(wonder, str) and wonder in game.catalogue.wonders():
                if wonder in seen:
                    self.error(DUPLICATE, f"{names[seen[wonder]]} and {names[i]} both play {wonder}",
                               ("players", i, "wonder"), "the game has one board of each wonder")
                seen.setdefault(wonder, i)

    def holding(self, game: Game, i: int, player: dict, name: str) -> dict:
        """What one player holds, as the flow's `arrange` takes it."""
        at = ("players", i)
        arranged = game.kind.scenario
        held: dict = {"counters": {}, "cards": [], "tokens": [], "pieces": {}, "pawns": []}
        for field, value in player.items():
            spec = PLAYER_FIELDS.get(field)
            if spec is None:
                continue  # the schema reports an unknown key
            why = self.why_not(game, arranged, field, spec)
            if why is not None:
                self.error(FIELD, f"'{field}' does not apply to {game.pack.id}", at + (field,),
                           f"{why}; a scenario of {game.pack.id} gives: {', '.join(self.fields_of(game, arranged))}",
                           key=True)
            elif field == OWN_TOKENS and isinstance(value, dict):
                held["tokens"] += self.own_tokens(game, at + (field,), value)
            elif any(note in spec for note in BOARD_NOTES):
                continue  # read below, once the board is known
            elif COUNTER in spec and is_count(value):
                counter = rule(game.pack.rules, spec[COUNTER])
                cap = ((game.pack.rules.get("setup") or {}).get("caps") or {}).get(counter)
                if is_count(cap) and value > cap:
                    self.error(FIELD, f"{name} holds {value} {counter}, more than the {cap} there is room for",
                               at + (field,), f"rules.yaml `setup.caps` allows at most {cap} {counter}")
                held["counters"][counter] = value
            elif TOKEN in spec and is_count(value):
                token = rule(game.pack.rules, spec[TOKEN])
                held["tokens"] += [(token["token"], token["values"][0])] * value
                self.tokens.setdefault(i, []).extend([(at + (field,), token["token"], token["values"][0])] * value)
            elif PIECES in spec:
                kind = rule(game.pack.rules, spec[PIECES])
                held["pieces"].setdefault(kind, []).extend(self.pieces(game, at, field, value, spec, kind, name))
            elif PAWN in spec and value is True:
                pawn = spec[PAWN]
                if pawn in self.pawns:
                    self.error(DUPLICATE, f"{self.pawns[pawn]} and {name} both hold the {pawn}", at + (field,),
                               f"there is one {pawn}: give `{field}: true` to one player")
                else:
                    self.pawns[pawn] = name
                    held["pawns"].append(pawn)
        if "wonder" in arranged.fields:
            side = self.side(game, arranged, at, player, name)
            if side is not None:
                held["wonder"], held["side"] = side
                stages = self.stages(game, at, player, side)
                held["stages"] = stages
                copies = player.get(COPIES) if COPY_STAGE in game.verbs else None  # checked in scenario.py
                held["copies"] = [c for c in copies if isinstance(c, str)] if isinstance(copies, list) else []
                if "under_stages" in arranged.fields:
                    held["under_stages"] = self.under_stages(game, at, player, len(stages))
        if "cards" in arranged.fields:
            held["cards"] = self.cards(game, arranged, at, player, name)
        if "kept" in player and "kept" in arranged.fields and game.flow.kept is not None:
            held["kept"] = self.kept(game, at, player)
        if HOLDS[BOARD] in arranged.takes:
            held.update(self.board(game, at, player, name))
        if "military" in player and "military" in arranged.fields:
            held["tokens"] += self.military(game, at, player, i)
        if "conflicts" in player and "conflicts" in arranged.fields:
            held["tokens"] += self.conflicts(game, at, player)
        return {part: v for part, v in held.items() if part not in HOLDS.values() or part in arranged.takes}

    def own_tokens(self, game: Game, at: tuple, held: dict) -> list[tuple[str, int]]:
        """(kind, value) of each token of the pack's own kinds a player holds (`tokens: {debt: 2}`),
        of kinds the pack declares, within their supply."""
        out = []
        for kind, count in held.items():
            declared = game.token_kinds.get(kind)
            if declared is None:
                own = ", ".join(sorted(game.token_kinds)) or "none (rules.yaml `tokens:` declares them)"
                near = did_you_mean(kind, game.token_kinds)
                self.error(FIELD, f"{game.pack.id} has no token kind {kind!r} of its own", at + (kind,),
                           (near + " " if near else "") + f"its own token kinds: {own}", key=True)
            elif is_count(count):
                before = self.own_held.get(kind, 0)
                if declared.supply is not None and before + count > declared.supply:
                    others = f" ({before} held by the players before)" if before else ""
                    self.error(FIELD, f"{count} {kind} tokens held, more than the {declared.supply - before} there "
                               f"are left{others}", at + (kind,),
                               f"rules.yaml `tokens.{kind}.supply` is {declared.supply}")
                    continue
                self.own_held[kind] = before + count
                out += [(kind, declared.value)] * count
        return out

    def why_not(self, game: Game, arranged: Arranged, field: str, spec: dict) -> str | None:
        """Why a field of the schema does not apply to this game (None when it does): a plain field
        must be one its flow arranges, an annotated one must name something the pack has."""
        if field == OWN_TOKENS:
            return None if game.token_kinds else "it declares no token kinds of its own (rules.yaml `tokens:`)"
        if field == COPIES and COPY_STAGE not in game.verbs:
            return "no sentence of it copies a stage (`copy stage`)"
        notes = [n for n in HOLDS if n in spec]
        if NEEDS in spec and rule(game.pack.rules, spec[NEEDS]) is None:
            needs = spec[NEEDS] if isinstance(spec[NEEDS], list) else [spec[NEEDS]]
            return f"its rules give no {' or '.join(needs)}"
        if not notes:
            return None if field in arranged.fields else f"the {game.kind.name} flow arranges no {field}"
        note = notes[0]
        flow = None if HOLDS[note] in arranged.takes else f"the {game.kind.name} flow arranges no {field}"
        if note == PAWN:
            return flow if spec[PAWN] in game.pack.vocabulary.all("pawn") else f"it has no {spec[PAWN]} pawn"
        if note in KINDS_NAMED:
            return flow if game.pack.components.get(spec[note]) else f"it has no {spec[note]}"
        found = rule(game.pack.rules, spec[note])
        if found is None:
            paths = [spec[note]] if isinstance(spec[note], str) else spec[note]
            return f"its rules give no {' or '.join(paths)}"
        if note == TOKEN:
            values = sorted(set(found.get("values") or ())) if isinstance(found, dict) else []
            if not isinstance(found, dict) or "token" not in found or len(values) != 1:
                kind = found.get("token", "") if isinstance(found, dict) else ""
                worth = ", ".join(map(str, values[:-1])) + " or " + str(values[-1]) if len(values) > 1 else "nothing"
                return f"its {kind} tokens are worth {worth}".replace("  ", " ") \
                    + (": list them by value under `military:`" if "military" in arranged.fields else "")
        if note == PIECES:
            if not game.catalogue.others.get(found):
                return f"it has no {found}"
            option = rule(game.pack.rules, spec[OPTION]) if OPTION in spec else None
            if option is not None and not game.options.get(option, True):
                return f"its option {option} is off"
        return flow

    def fields_of(self, game: Game, arranged: Arranged) -> list[str]:
        """The fields a scenario of this game may give."""
        return [f for f, spec in PLAYER_FIELDS.items() if self.why_not(game, arranged, f, spec) is None]

    def side(self, game: Game, arranged: Arranged, at: tuple, player: dict, name: str) -> tuple[str, str] | None:
        wonder = player.get("wonder")
        known = game.catalogue.wonders()
        if wonder is None:
            self.error(FIELD, f"{name} has no wonder", at, f"add `wonder:`, one of: {one_of(known)}")
            return None
        if not isinstance(wonder, str):
            return None
        if wonder not in known:
            self.error(WONDER, f"unknown wonder '{wonder}'", at + ("wonder",),
                       did_you_mean(wonder, known) or f"known: {one_of(known)}")
            return None
        sides = [s for w, s in game.catalogue.sides if w == wonder]
        default = _default_side(game, sides)
        side = player.get("side", default) if "side" in arranged.fields else default
        if side is None:
            self.error(SIDE, f"{wonder} has no sides in {game.pack.id}", at + ("wonder",))
            return None
        if not isinstance(side, str):
            return None
        if side not in sides:
            self.error(SIDE, f"{wonder} has no side '{side}'", at + ("side",), f"its sides: {', '.join(sides)}")
            return None
        return wonder, side

    def stages(self, game: Game, at: tuple, player: dict, side: tuple[str, str]) -> list[int]:
        """The numbers of the built stages (from 1): the first N for `stages: N`, else the listed ones,
        each known, once, and with the stages its `requires` names built too."""
        built = player.get("stages", 0)
        stages = game.catalogue.sides[side].stages
        count = len(stages)
        board = f"{side[0]} side {side[1]}" if side[1] else side[0]
        if isinstance(built, bool):
            return []
        if isinstance(built, int):
            if built > count:
                self.error(STAGES, f"{board} has {count} stage{'s' * (count != 1)}, not {built}", at + ("stages",))
                return []
            return list(range(1, built + 1))
        if not isinstance(built, list):
            return []
        listed: dict[int, int] = {}  # stage number -> its item
        for j, number in enumerate(built):
            if not isinstance(number, int) or isinstance(number, bool) or number < 1:
                continue  # the schema reports it
            if number > count:
                self.error(STAGES, f"{board} has no stage {number}: its stages are 1 to {count}",
                           at + ("stages", j))
            elif number in listed:
                self.error(DUPLICATE, f"stage {number} is listed twice", at + ("stages", j),
                           f"the first is item {listed[number] + 1}; a stage is built once")
            else:
                listed[number] = j
        for number, j in listed.items():
            missing = [r + 1 for r in stages[number - 1].requires if r + 1 not in listed]
            if missing:
                rests = " and ".join(f"stage {m}" for m in missing)
                self.error(STAGES, f"{board}'s stage {number} cannot be built before {rests}", at + ("stages", j),
                           f"a stage is built once every stage it rests on is; add {rests} or remove stage {number}")
        return sorted(listed)

    def cards(self, game: Game, arranged: Arranged, at: tuple, player: dict, name: str) -> list[str]:
        cards = player.get("cards")
        if not isinstance(cards, list):
            return []
        known = game.catalogue.cards
        held: list[str] = []
        first: dict[str, int] = {}  # card -> its first item, in a city of unique cards
        times = Counter(c for c in cards if isinstance(c, str))
        for j, card in enumerate(cards):
            if not isinstance(card, str):
                continue
            if card not in known:
                self.error(CARD, f"unknown card '{card}'", at + ("cards", j),
                           did_you_mean(card, known) or f"known: {one_of(known)}")
            elif arranged.unique_cards and card in first:
                if times[card]:  # one error for all the copies of a card
                    many = f" (listed {times[card]:,} times)" if times[card] > 2 else ""
                    self.error(DUPLICATE, f"{name}'s city already holds {card}: no two structures of one name{many}",
                               at + ("cards", j), f"remove all but one; the first is item {first[card] + 1}")
                    times[card] = 0
            else:
                held.append(card)
                first.setdefault(card, j)
                self.cities.setdefault(at[1], []).append((at + ("cards", j), card))
        return held

    def known_cards(self, game: Game, at: tuple, player: dict, field: str) -> Iterator[tuple[int, str]]:
        """(index, id) of each known card of a list field; an unknown one is refused at its place."""
        cards, known = player.get(field), game.catalogue.cards
        for j, card in enumerate(cards if isinstance(cards, list) else ()):
            if isinstance(card, str) and card not in known:
                self.error(CARD, f"unknown card '{card}'", at + (field, j),
                           did_you_mean(card, known) or f"known: {one_of(known)}")
            elif isinstance(card, str):
                yield j, card

    def kept(self, game: Game, at: tuple, player: dict) -> list[str]:
        """The cards a player keeps out of the city: cards of the prelude's deck (when there is
        one), counted with the cities against the copies the game deals."""
        prelude, held = game.flow.rules.prelude, []
        for j, card in self.known_cards(game, at, player, "kept"):
            if prelude is not None and not game.catalogue.cards[card].copies.get(prelude.deck):
                self.error(CARD, f"{card} is not a card of the prelude's deck {prelude.deck}", at + ("kept", j),
                           "the kept cards are those the draft before the first round deals "
                           "(rules.yaml `flow.prelude.deck`)")
            else:
                held.append(card)
                self.cities.setdefault(at[1], []).append((at + ("kept", j), card))
        return held

    def under_stages(self, game: Game, at: tuple, player: dict, built: int) -> list[str]:
        """The cards tucked under the built stages (`under_stages`): known cards, one a stage at most."""
        listed, held = player.get("under_stages"), []
        for j, card in self.known_cards(game, at, player, "under_stages"):
            where = at + ("under_stages", j)
            if len(held) == built:
                self.error(STAGES, f"{len(listed)} cards under {built} built stage{'s' * (built != 1)}: a stage "
                           "holds one", where, "list one card per built stage at most")
            else:
                held.append(card)
                self.cities.setdefault(at[1], []).append((where, card))
        return held

    def pieces(self, game: Game, at: tuple, field: str, ids: Any, spec: dict, kind: str, name: str) -> list[str]:
        """Ids of pieces of a kind (progress tokens, medals): known ones, no more of one than the game
        has copies of, counting every player's (one error for a player's copies too many); but
        objectives in the middle go to several players at once, and `check_table` sees to them."""
        if not isinstance(ids, list):
            return []
        known = game.catalogue.others[kind]
        noun = spec.get(NOUN, kind)
        held: list[str] = []
        told: set[str] = set()
        shared = objectives_in_middle(game)[0] and game.rules.objectives.kind == kind
        for j, pid in enumerate(ids):
            if not isinstance(pid, str):
                continue
            if pid not in known:
                self.error(PIECE, f"unknown {noun} '{pid}'", at + (field, j),
                           did_you_mean(pid, known) or f"known: {one_of(known)}")
                continue
            if shared:
                self.placed.setdefault(kind, {}).setdefault(at[1], []).append((at + (field, j), pid))
                held.append(pid)
                continue
            copies = len(known[pid].copies.get("", (0,)))
            holders = self.held.setdefault((kind, pid), [])
            if len(holders) >= copies:
                if pid in told:
                    continue
                told.add(pid)
                if copies == 1:
                    self.error(DUPLICATE, f"{holders[0]} already holds the {noun} '{pid}'", at + (field, j),
                               f"{game.pack.id} has one {noun} '{pid}'")
                else:
                    by = ", ".join(f"{who} {n}" for who, n in Counter(holders).items())
                    self.error(DUPLICATE, f"more {noun}s '{pid}' than {game.pack.id} has", at + (field, j),
                               f"it has {copies}, already held ({by})")
                continue
            holders.append(name)
            held.append(pid)
            self.placed.setdefault(kind, {}).setdefault(at[1], []).append((at + (field, j), pid))
        return held

    def military(self, game: Game, at: tuple, player: dict, seat: int) -> list[tuple[str, int]]:
        """Tokens from their values: positive ones are victories, negative ones defeats, each a value
        the pack's `military:` rules give. How many the battles give `check_table` sees to (reach.py),
        once it knows the table."""
        rules = game.pack.rules.get("military")
        values = player.get("military")
        if not isinstance(values, list):
            return []
        if not isinstance(rules, dict):
            self.error(MILITARY, f"{game.pack.id} has no military rules: there are no tokens to hold",
                       at + ("military",), key=True)
            return []
        victory, defeat = rules["victory"], rules.get("defeat") or {}
        won, lost = game.rules.military.values(), game.rules.military.defeats()
        tokens: list[tuple[str, int]] = []
        told: set[int] = set()  # each value refused once, however many tokens repeat it
        for j, value in enumerate(values):
            if not is_count(value):
                continue
            if value not in (won if value > 0 else lost):
                if value not in told:
                    told.add(value)
                    self.error(MILITARY, f"no military token is worth {value} in {game.pack.id}",
                               at + ("military", j),
                               f"victories are worth {', '.join(map(str, won))}, a defeat {', '.join(map(str, lost)) or 'none'}")
                continue
            token = (victory["token"], value) if value > 0 else (defeat["token"], value)
            tokens.append(token)
            self.tokens.setdefault(seat, []).append((at + ("military", j), *token))
        return tokens

    def conflicts(self, game: Game, at: tuple, player: dict) -> list[tuple[str, int]]:
        """Tokens of the conflicts of `conflicts:` from their values: one a victory of the conflict
        may have is a victory token, its defeat's value a defeat token. What battles give is not
        checked for these (reach.py judges `military:` only)."""
        tokens: list[tuple[str, int]] = []
        known = {c.name: c for c in game.rules.conflicts if c is not game.rules.military}
        for name, values in (player.get("conflicts") or {}).items():
            here = at + ("conflicts", name)
            conflict = known.get(name)
            if conflict is None:
                self.error(MILITARY, f"{game.pack.id} has no conflict '{name}'", here,
                           f"its conflicts: {', '.join(known) or 'none'}", key=True)
                continue
            won, lost = conflict.values(), conflict.defeats()
            for j, value in enumerate(values if isinstance(values, list) else ()):
                if not is_count(value):
                    continue
                if value in won:
                    tokens.append((conflict.victory_token, value))
                elif value in lost:
                    tokens.append((conflict.defeat_token, value))
                else:
                    self.error(MILITARY, f"no {name} token is worth {value} in {game.pack.id}", here + (j,),
                               f"victories are worth {', '.join(map(str, won))}"
                               + (f", a defeat {', '.join(map(str, lost))}" if lost else ""))
        return tokens


def _default_side(game: Game, sides: list[str]) -> str | None:
    """The side a player without `side:` plays: the option's, else the first that rules.yaml lists."""
    chosen = game.options.get(SIDE_OPTION)
    if chosen in sides:
        return chosen
    listed = [s for s in (game.pack.rules.get("setup") or {}).get("sides") or () if s in sides]
    return (listed or sides or [None])[0]

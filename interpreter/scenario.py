"""Scenario files: a finished position written as YAML, read into a state to score.

    game: 7-wonders
    players:                      # clockwise: the left neighbour of players[i] is players[i+1]
      - name: alice
        wonder: alexandria
        side: a
        stages: 3
        coins: 14
        cards: [altar, aqueduct, town_hall]
        military: [1, 3, 5, -1, -1, -1]

    game: architects
    players:
      - name: bob
        wonder: giza
        stages: [1, 2, 3]         # the numbers of the built stages
        cards: [blue_vp3, blue_vp2_cat, gold, gold]
        progress: [culture, education]
        victory_tokens: 2
        cat: true

`load_scenario` checks the whole file against `schemas/scenario.schema.json` and the pack it names,
reports every problem at once as diagnostics pointing at the exact line and column, and builds the
position with the flow's `arrange` when there are none. Which fields a flow kind arranges is
`ARRANGED`; the schema's `x-` annotations say what the other fields are in the pack's data (`x-counter`
for `coins:`: the rules.yaml path naming the counter; `x-token`, `x-pieces`, `x-pawn` likewise), so
they apply to any pack that has what they name. The military tokens come from the pack's `military:`
rules: nothing here knows a game."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any, NamedTuple

import jsonschema

from ..dsl.diagnostics import Diagnostic, did_you_mean, one_of
from .game import SIDE_OPTION, Game, GameError, load_game
from .packs import SCHEMAS, LoadError, schema_diagnostic, find_pack, load_pack, shipped_packs
from .state import State
from .yamlsource import Source, YamlProblem, load

_SCHEMA = json.loads((SCHEMAS / "scenario.schema.json").read_text(encoding="utf-8"))
_VALIDATOR = jsonschema.Draft202012Validator(_SCHEMA)
PLAYER_FIELDS: dict[str, dict] = _SCHEMA["properties"]["players"]["items"]["properties"]

class Arranged(NamedTuple):
    """What a flow kind's `arrange` builds a position from: the plain fields of the schema it reads
    (the annotated ones apply wherever the pack's data has what they name), what `holding` parts it
    takes, and how it wants stages (a count from the first, or the numbers built)."""

    fields: tuple[str, ...]
    takes: frozenset[str]
    stage_numbers: bool = False
    unique_cards: bool = False      # a city never holds two cards of one name


ARRANGED = {
    "draft": Arranged(("name", "wonder", "side", "stages", "cards", "military"),
                      frozenset({"counters", "tokens"}), unique_cards=True),
    "turns": Arranged(("name", "wonder", "stages", "cards"),
                      frozenset({"counters", "tokens", "pieces", "pawns"}), stage_numbers=True),
}

# The schema's annotations and the part of a holding each fills.
COUNTER, TOKEN, PIECES, PAWN, OPTION, NOUN = "x-counter", "x-token", "x-pieces", "x-pawn", "x-option", "x-noun"
HOLDS = {COUNTER: "counters", TOKEN: "tokens", PIECES: "pieces", PAWN: "pawns"}

FIELD = "E-SCENARIO-FIELD"
GAME = "E-SCENARIO-GAME"
PLAYERS = "E-SCENARIO-PLAYERS"
WONDER = "E-SCENARIO-WONDER"
SIDE = "E-SCENARIO-SIDE"
STAGES = "E-SCENARIO-STAGES"
CARD = "E-SCENARIO-CARD"
DUPLICATE = "E-SCENARIO-DUPLICATE"
MILITARY = "E-SCENARIO-MILITARY"
PIECE = "E-SCENARIO-PIECE"


class Scenario(NamedTuple):
    """A read scenario: the position (None when there are errors), every diagnostic, the player names
    in seating order."""

    state: State | None
    diagnostics: list[Diagnostic]
    names: list[str]


def load_scenario(path: str | Path) -> Scenario:
    """Read, check and set up a scenario file; all of its problems come back at once."""
    path = Path(path)
    try:
        data, source = load(path)
    except YamlProblem as problem:
        return Scenario(None, [problem.diagnostic], [])
    return _Reader(path, data, source).read()


class _Reader:
    def __init__(self, path: Path, data: Any, source: Source):
        self.path, self.data, self.source = path, data, source
        self.diagnostics: list[Diagnostic] = []
        self.pawns: dict[str, str] = {}                      # pawn -> the name of its holder
        self.held: dict[tuple[str, str], list[str]] = {}     # (kind, piece id) -> holders' names, a copy each

    def error(self, code: str, message: str, path: tuple, hint: str | None = None, key: bool = False) -> None:
        self.diagnostics.append(self.source.diagnostic(code, message, path, hint, key=key))

    def read(self) -> Scenario:
        data = self.data
        for err in _VALIDATOR.iter_errors(data):
            where = _where(data, tuple(err.absolute_path))
            message = _bound(err, where)
            if message is not None:
                self.error(FIELD, message, tuple(err.absolute_path))
            else:
                found = schema_diagnostic(err, self.source, where)
                self.diagnostics.append(Diagnostic(FIELD, *_fields(found)))
        if not isinstance(data, dict):
            return Scenario(None, self.diagnostics, [])
        listed = data.get("players")
        players = [p if isinstance(p, dict) else {} for p in listed] if isinstance(listed, list) else []
        names = [p["name"] if isinstance(p.get("name"), str) else f"player {i + 1}" for i, p in enumerate(players)]
        self.check_names(players)
        game = self.game(data, len(players)) if isinstance(data.get("game"), str) and players else None
        holdings = []
        if game is not None:
            self.check_wonders(game, players, names)
            # an item that is not a mapping already has its schema error
            holdings = [self.holding(game, i, p, names[i]) if isinstance(listed[i], dict) else {}
                        for i, p in enumerate(players)]
        if self.diagnostics or game is None:
            here = self.source.path
            ordered = sorted(self.diagnostics, key=lambda d: (d.file != here, d.line, d.column))
            return Scenario(None, ordered, names)
        state = State(game, game.seed)
        game.flow.arrange(state, holdings)
        return Scenario(state, [], names)

    # -- the game
    def game(self, data: dict, players: int) -> Game | None:
        """The game the scenario names, for its player count; None (with a diagnostic) if unusable."""
        name = data["game"]
        beside = self.path.parent / name  # a pack folder named relative to the scenario file
        target = str(beside) if find_pack(str(beside)) is not None else name
        if find_pack(target) is None:
            shipped = [p.name for p in shipped_packs()]
            self.error(GAME, f"no pack '{name}'", ("game",),
                       did_you_mean(name, shipped) or f"give a pack folder or one of: {', '.join(shipped)}")
            return None
        try:
            pack = load_pack(target)
        except LoadError as err:
            errors = [d for d in err.diagnostics if d.severity == "error"]
            self.error(GAME, f"pack '{name}' has {len(errors)} error{'s' * (len(errors) != 1)}", ("game",),
                       f"run `wonderforge check {target}`; its errors follow")
            self.diagnostics += err.diagnostics
            return None
        bounds = pack.rules.get("players") or {}
        least, most = bounds.get("min", 1), bounds.get("max", players)
        if not least <= players <= most:
            self.error(PLAYERS, f"{pack.id} plays with {least} to {most} players, not {players}", ("players",))
            players = min(max(players, least), most)
        try:
            game = load_game(pack, players=players)
        except GameError as err:
            self.error(GAME, str(err), ("game",))
            return None
        options = data.get("options")
        if isinstance(options, dict) and options:
            try:
                game = load_game(pack, players=players, **options)
            except GameError as err:
                self.error(GAME, str(err), ("options",))
        if not hasattr(game.flow, "arrange") or game.rules["flow"]["kind"] not in ARRANGED:
            self.error(GAME, f"positions of {pack.id} cannot be set up yet: its flow "
                             f"'{game.rules['flow']['kind']}' has no way to arrange one", ("game",))
            return None
        return game

    # -- the players
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
        arranged = ARRANGED[game.rules["flow"]["kind"]]
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
            elif COUNTER in spec and _count(value):
                held["counters"][_rule(game.rules, spec[COUNTER])] = value
            elif TOKEN in spec and _count(value):
                token = _rule(game.rules, spec[TOKEN])
                held["tokens"] += [(token["token"], token["values"][0])] * value
            elif PIECES in spec:
                kind = _rule(game.rules, spec[PIECES])
                held["pieces"].setdefault(kind, []).extend(self.pieces(game, at, field, spec, kind, name))
            elif PAWN in spec and value is True:
                pawn = spec[PAWN]
                if pawn in self.pawns:
                    self.error(DUPLICATE, f"{self.pawns[pawn]} and {name} both hold the {pawn}", at + (field,),
                               f"there is one {pawn}: give `{field}: true` to one player")
                else:
                    self.pawns[pawn] = name
                    held["pawns"].append(pawn)
        side = self.side(game, arranged, at, player, name)
        if side is not None:
            held["wonder"], held["side"] = side
            stages = self.stages(game, at, player, side)
            held["stages"] = stages if arranged.stage_numbers else len(stages)
        held["cards"] = self.cards(game, arranged, at, player, name)
        if "military" in player and "military" in arranged.fields:
            held["tokens"] += self.military(game, at, player, name, i)
        return {part: v for part, v in held.items() if part not in HOLDS.values() or part in arranged.takes}

    def why_not(self, game: Game, arranged: Arranged, field: str, spec: dict) -> str | None:
        """Why a field of the schema does not apply to this game (None when it does): a plain field
        must be one its flow arranges, an annotated one must name something the pack has."""
        notes = [n for n in HOLDS if n in spec]
        if not notes:
            return None if field in arranged.fields else f"the {game.rules['flow']['kind']} flow arranges no {field}"
        note = notes[0]
        flow = None if HOLDS[note] in arranged.takes else f"the {game.rules['flow']['kind']} flow arranges no {field}"
        if note == PAWN:
            return flow if spec[PAWN] in game.pack.vocabulary.all("pawn") else f"it has no {spec[PAWN]} pawn"
        found = _rule(game.rules, spec[note])
        if found is None:
            return f"its rules give no {spec[note]}"
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
            option = _rule(game.rules, spec[OPTION]) if OPTION in spec else None
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
        for j, card in enumerate(cards):
            if not isinstance(card, str):
                continue
            if card not in known:
                self.error(CARD, f"unknown card '{card}'", at + ("cards", j),
                           did_you_mean(card, known) or f"known: {one_of(known)}")
            elif arranged.unique_cards and card in held:
                self.error(DUPLICATE, f"{name}'s city already holds {card}: no two structures of one name",
                           at + ("cards", j), f"remove one of the two; the first is item {held.index(card) + 1}")
            else:
                held.append(card)
        return held

    def pieces(self, game: Game, at: tuple, field: str, spec: dict, kind: str, name: str) -> list[str]:
        """Ids of pieces of a kind (progress tokens, medals): known ones, no more of one than the game
        has copies of, counting every player's."""
        ids = (self.data["players"][at[1]] or {}).get(field)
        if not isinstance(ids, list):
            return []
        known = game.catalogue.others[kind]
        noun = spec.get(NOUN, kind)
        held: list[str] = []
        for j, pid in enumerate(ids):
            if not isinstance(pid, str):
                continue
            if pid not in known:
                self.error(PIECE, f"unknown {noun} '{pid}'", at + (field, j),
                           did_you_mean(pid, known) or f"known: {one_of(known)}")
                continue
            copies = len(known[pid].copies.get("", (0,)))
            holders = self.held.setdefault((kind, pid), [])
            if len(holders) >= copies:
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
        return held

    def military(self, game: Game, at: tuple, player: dict, name: str, seat: int) -> list[tuple[str, int]]:
        """Tokens from their values: positive ones are victories, negative ones defeats, each a value
        the pack's `military:` rules give, no more of them than its battles can."""
        rules = game.rules.get("military")
        values = player.get("military")
        if not isinstance(values, list):
            return []
        if not isinstance(rules, dict):
            self.error(MILITARY, f"{game.pack.id} has no military rules: there are no tokens to hold",
                       at + ("military",), key=True)
            return []
        victory, defeat = rules["victory"], rules["defeat"]
        won = list(victory.get("values") or ())
        neighbours = len(game.seat_table["neighbours"][seat])
        rounds = len((game.rules.get("flow") or {}).get("rounds") or ()) or 1
        by_round = [won[min(r, len(won) - 1)] for r in range(rounds)] if won else []
        limits = {(victory["token"], v): neighbours * by_round.count(v) for v in set(by_round)}
        limits[defeat["token"], defeat["value"]] = neighbours * rounds
        tokens: list[tuple[str, int]] = []
        for j, value in enumerate(values):
            if not isinstance(value, int) or isinstance(value, bool):
                continue
            token = (victory["token"], value) if value > 0 else (defeat["token"], value)
            if token not in limits:
                self.error(MILITARY, f"no military token is worth {value} in {game.pack.id}", at + ("military", j),
                           f"victories are worth {', '.join(map(str, sorted(set(won))))}, "
                           f"a defeat {defeat['value']}")
                continue
            if Counter(tokens)[token] == limits[token]:
                self.error(MILITARY, f"{name} holds more tokens of {value} than {game.pack.id}'s battles give",
                           at + ("military", j),
                           f"{rounds} battle round{'s' * (rounds != 1)} against {neighbours} neighbour"
                           f"{'s' * (neighbours != 1)} give at most {limits[token]}")
                continue
            if len(tokens) == neighbours * rounds:
                self.error(MILITARY, f"{name} holds more military tokens than {game.pack.id}'s battles give",
                           at + ("military", j), f"at most {neighbours * rounds}: one per neighbour and round")
                continue
            tokens.append(token)
        return tokens


def _default_side(game: Game, sides: list[str]) -> str | None:
    """The side a player without `side:` plays: the option's, else the first that rules.yaml lists."""
    chosen = game.options.get(SIDE_OPTION)
    if chosen in sides:
        return chosen
    listed = [s for s in (game.rules.get("setup") or {}).get("sides") or () if s in sides]
    return (listed or sides or [None])[0]


def _rule(rules: dict, dotted: str) -> Any:
    """The value at a dotted path of rules.yaml (`trade.currency`), or None."""
    value: Any = rules
    for step in dotted.split("."):
        value = value.get(step) if isinstance(value, dict) else None
    return value


def _bound(err: jsonschema.ValidationError, where: str) -> str | None:
    """Messages for the schema's bounds, in the words of the others."""
    n = err.validator_value
    if err.validator == "minItems":
        return f"{where} needs at least {n} item{'s' * (n != 1)}"
    if err.validator == "maxItems":
        return f"{where} holds at most {n} items, not {len(err.instance)}"
    if err.validator == "minimum":
        return f"{where} must be at least {n}, not {err.instance}"
    if err.validator == "minLength":
        return f"{where} must not be empty"
    return None


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _fields(d: Diagnostic) -> tuple:
    return (d.message, d.file, d.line, d.column, d.end_line, d.end_column, d.hint, d.severity, d.source)


def _where(data: Any, path: tuple) -> str:
    """A path as the author reads it: `alice.coins`, `players[2].cards[1]`."""
    out = ""
    for step in path:
        if isinstance(data, list) and isinstance(step, int) and step < len(data):
            data = data[step]
            label = data.get("name") if isinstance(data, dict) else None
            out = label if out == "players" and isinstance(label, str) else f"{out}[{step}]"
        elif isinstance(data, dict):
            data = data.get(step)
            out += f".{step}"
        out = out.lstrip(".")
    return out or "the scenario"


__all__ = ["Scenario", "load_scenario"]

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

    game: dice
    players:
      - name: ana
        board: giza
        boxes: {wonder: 3, agora: {symbol_a: 4, symbol_b: 4}, market: [1, 4], university: {black: 3}}
        coins: 9
        dice: [black]             # unlocked
        bonuses: [1, 3]           # taken, by number
        first: [agora]            # completed before anyone else

`load_scenario` checks the whole file against `schemas/scenario.schema.json` and the pack it names,
reports every problem at once as diagnostics pointing at the exact line and column, and builds the
position with the flow's `arrange` when there are none. Which fields a flow kind arranges its
declaration says (flows.py, `scenario`); the schema's `x-` annotations say what the other fields are in the pack's data (`x-counter`
for `coins:`: the rules.yaml path naming the counter; `x-token`, `x-pieces`, `x-pawn` likewise), so
they apply to any pack that has what they name. The military tokens come from the pack's `military:`
rules, the boards, buildings and dice from the pack's components named by `x-board`, `x-boxes`,
`x-dice` and `x-first`: nothing here knows a game. Once every holding is read, `check_table` (and,
on the position built, `check_end`) refuses what no game reaches though each holding may: see reach.py.
One mistake is one error: nothing is checked across a table of a size the pack refuses, and what an
item refused might have given is taken as given by the checks that follow (`unsure`, `doubts`). The
position is built, and its end checked, whenever every player has a wonder or board, errors or not."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any, NamedTuple

import jsonschema

from ...dsl.diagnostics import Diagnostic, did_you_mean, one_of
from ...dsl.limits import MAX_SCENARIO_ITEMS
from ...dsl.printer import show
from ..core.state import State
from ..flows.kinds import Arranged
from ..games.check import load_pack
from ..games.game import SIDE_OPTION, Game, GameError
from ..games.loading import load_game
from ..packs.boards import Boards, Building
from ..packs.folders import SCHEMAS, find_pack, shipped_packs
from ..packs.model import LoadError
from ..packs.schemas import schema_diagnostic
from ..packs.yamlsource import Source, YamlProblem, load
from .reach import Battles, Layout, impossible_tokens, over_supply, unplaced_objectives, unreached_boxes

_SCHEMA = json.loads((SCHEMAS / "scenario.schema.json").read_text(encoding="utf-8"))
_VALIDATOR = jsonschema.Draft202012Validator(_SCHEMA)
PLAYER_FIELDS: dict[str, dict] = _SCHEMA["properties"]["players"]["items"]["properties"]
MAX_PLAYERS: int = _SCHEMA["properties"]["players"]["maxItems"]  # more than any pack plays with

# The schema's annotations and the part of a holding each fills.
COUNTER, TOKEN, PIECES, PAWN, OPTION, NOUN = "x-counter", "x-token", "x-pieces", "x-pawn", "x-option", "x-noun"
BOARD, BOXES, DICE, BONUSES, FIRST = "x-board", "x-boxes", "x-dice", "x-bonuses", "x-first"
HOLDS = {COUNTER: "counters", TOKEN: "tokens", PIECES: "pieces", PAWN: "pawns",
         BOARD: "city", BOXES: "checked", DICE: "unlocked", BONUSES: "bonuses", FIRST: "firsts"}
BOARD_NOTES = (BOARD, BOXES, DICE, BONUSES, FIRST)   # read together, once the board is known
KINDS_NAMED = (BOARD, BOXES, DICE, FIRST)            # their value is a component kind

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
BOARD_CODE = "E-SCENARIO-BOARD"
BOX = "E-SCENARIO-BOX"
DIE = "E-SCENARIO-DIE"
BONUS = "E-SCENARIO-BONUS"
FIRST_CODE = "E-SCENARIO-FIRST"


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
        self.boards: dict[str, int] = {}                     # board id -> the first seat playing it
        self.completed: dict[int, set[str]] = {}             # seat -> the buildings all of whose boxes it checked
        self.claims: dict[int, list[tuple[int, str]]] = {}   # seat -> (item, building) it says it completed first
        # seat -> what the items refused may have given, taken as given by the later checks so that one
        # mistake is one error: the tracks whose boxes are unknown (building -> tracks), effects of bonuses
        self.unsure: dict[int, dict[str, set[str]]] = {}
        self.doubts: dict[int, list] = {}
        self.read_boards: Boards | None = None               # the pack's boards of boxes, read once
        self.exact = True  # whether the game was loaded as the scenario says (player count, options)
        # what each seat holds, item by item (path, id), for the checks across the table (reach.py)
        self.cities: dict[int, list[tuple[tuple, str]]] = {}
        self.placed: dict[str, dict[int, list[tuple[tuple, str]]]] = {}  # piece kind -> seat -> items
        self.tokens: dict[int, list[tuple[tuple, str, int]]] = {}       # seat -> (path, token, value)

    def error(self, code: str, message: str, path: tuple, hint: str | None = None, key: bool = False) -> None:
        self.diagnostics.append(self.source.diagnostic(code, message, path, hint, key=key))

    def refuse(self, refusals) -> None:
        """Diagnostics for reach.py's refusals."""
        for r in refusals:
            self.error(r.code, r.message, r.path, r.hint, key=r.key)

    def read(self) -> Scenario:
        data = self.data
        listed = data.get("players") if isinstance(data, dict) else None
        crowded = isinstance(listed, list) and len(listed) > MAX_PLAYERS
        for err in _VALIDATOR.iter_errors(data):
            if crowded and len(err.absolute_path) > 1 and err.absolute_path[0] == "players":
                continue  # the count is the one error to report: the rest would repeat it per player
            where = _where(data, tuple(err.absolute_path))
            message = _bound(err, where)
            if message is not None:
                self.error(FIELD, message, tuple(err.absolute_path))
            else:
                found = schema_diagnostic(err, self.source, lambda path: _where(data, path))
                self.diagnostics.append(Diagnostic(FIELD, *_fields(found)))
        if not isinstance(data, dict) or crowded:
            return Scenario(None, self.diagnostics, [])
        players = [p if isinstance(p, dict) else {} for p in listed] if isinstance(listed, list) else []
        names = [p["name"] if isinstance(p.get("name"), str) else f"player {i + 1}" for i, p in enumerate(players)]
        players = [self.bounded(i, p, names[i]) for i, p in enumerate(players)]
        self.check_names(players)
        game = self.game(data, len(players)) if isinstance(data.get("game"), str) and players else None
        holdings = []
        if game is not None:
            self.check_wonders(game, players, names)
            # an item that is not a mapping already has its schema error
            holdings = [self.holding(game, i, p, names[i]) if isinstance(listed[i], dict) else {}
                        for i, p in enumerate(players)]
            if self.exact:  # the checks across the table need the table the scenario gives
                if HOLDS[FIRST] in game.kind.scenario.takes:
                    self.check_firsts(game, holdings, names)
                self.check_table(game, holdings, names)
        state = self.position(game, holdings) if game is not None and self.exact else None
        if state is not None:
            self.check_end(game, state, names)
        if self.diagnostics or state is None:
            return Scenario(None, self.ordered(), names)
        return Scenario(state, [], names)

    def position(self, game: Game, holdings: list[dict]) -> State | None:
        """The position, when every player has what a flow seats a player with (a wonder, a board),
        though other parts may have been refused: what is left of them is known to the pack."""
        arranged = game.kind.scenario
        seated_by = {"wonder"} & set(arranged.fields) | {HOLDS[BOARD]} & arranged.takes
        if not all(seated_by <= held.keys() for held in holdings):
            return None
        state = State(game, game.seed)
        game.flow.arrange(state, holdings)
        return state

    def ordered(self) -> list[Diagnostic]:
        here = self.source.path
        return sorted(self.diagnostics, key=lambda d: (d.file != here, d.line, d.column))

    # -- across the table (reach.py)
    def check_table(self, game: Game, holdings: list[dict], names: list[str]) -> None:
        """What the players hold together: no more copies of a card than the game deals, objectives
        some laying out let them win, military tokens some battles give. Run on the table the
        scenario gives only (`exact`): the game is loaded for its player count."""
        n = game.players
        if self.cities and (all("wonder" in h for h in holdings) or not game.rules.setup.wonder_decks):
            sides = [game.catalogue.sides[h["wonder"], h["side"]] for h in holdings if "wonder" in h]
            self.refuse(over_supply(game.flow.supply(sides), n,
                                    [(names[s], self.cities.get(s, [])) for s in range(n)]))
        spec = game.rules.objectives
        if spec is not None and spec.kind in self.placed:
            middle, option = _middle(game)
            noun = next((p.get(NOUN, spec.kind) for p in PLAYER_FIELDS.values()
                         if p.get(PIECES) and _rule(game.pack.rules, p[PIECES]) == spec.kind), spec.kind)
            self.refuse(unplaced_objectives(Layout.around(names, spec.between_neighbours, middle, noun, option),
                                            [self.placed[spec.kind].get(s, []) for s in range(n)]))
        # tokens of a value refused are left out: the battles are judged on all of them or not at all
        if game.rules.military is not None and self.tokens and not any(d.code == MILITARY for d in self.diagnostics):
            self.refuse(impossible_tokens(Battles.of(game), names, [self.tokens.get(s, []) for s in range(n)]))

    def check_end(self, game: Game, state: State, names: list[str]) -> None:
        """At most one player meets an end condition that only one player's own turn can meet."""
        ending = game.flow.sole_end
        if ending is None:
            return
        seats = [s for s in range(len(state.players)) if ending(state, s)]
        if len(seats) < 2:
            return
        text = show(ending.tree)
        who = ", ".join(names[s] for s in seats[:-1]) + f" and {names[seats[-1]]}"
        for seat in seats[1:]:
            here = ("players", seat) + (("stages",) if "stages" in self.data["players"][seat] else ())
            self.error(STAGES, f"{who} {'both' if len(seats) == 2 else 'all'} meet the game's end, `{text}`: the "
                               "game ends at the end of the turn in which the first of them does", here,
                       f"a turn is one player's, and only they build stages in it: leave `{text}` to "
                       f"{names[seats[0]]} alone, say")

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
            players = min(max(players, least), most)  # to check each holding on its own
            self.exact = False
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
                self.exact = False
        return game

    # -- the players
    def bounded(self, i: int, player: dict, name: str) -> dict:
        """The player without the lists longer than any position holds, each of them one error:
        read item by item, a list of thousands would give thousands of errors."""
        out = dict(player)
        for field, value in player.items():
            if isinstance(value, (list, dict)) and len(value) > MAX_SCENARIO_ITEMS:
                self.error(FIELD, f"{name}'s {field} lists {len(value):,} items: no position holds more than "
                                  f"{MAX_SCENARIO_ITEMS:,}", ("players", i, field),
                           f"list what {name} holds, each piece once per copy held")
                del out[field]
        return out

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
            elif any(note in spec for note in BOARD_NOTES):
                continue  # read below, once the board is known
            elif COUNTER in spec and _count(value):
                counter = _rule(game.pack.rules, spec[COUNTER])
                cap = ((game.pack.rules.get("setup") or {}).get("caps") or {}).get(counter)
                if _count(cap) and value > cap:
                    self.error(FIELD, f"{name} holds {value} {counter}, more than the {cap} there is room for",
                               at + (field,), f"rules.yaml `setup.caps` allows at most {cap} {counter}")
                held["counters"][counter] = value
            elif TOKEN in spec and _count(value):
                token = _rule(game.pack.rules, spec[TOKEN])
                held["tokens"] += [(token["token"], token["values"][0])] * value
                self.tokens.setdefault(i, []).extend([(at + (field,), token["token"], token["values"][0])] * value)
            elif PIECES in spec:
                kind = _rule(game.pack.rules, spec[PIECES])
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
                held["stages"] = stages if arranged.stage_numbers else len(stages)
        if "cards" in arranged.fields:
            held["cards"] = self.cards(game, arranged, at, player, name)
        if HOLDS[BOARD] in arranged.takes:
            held.update(self.board(game, at, player, name))
        if "military" in player and "military" in arranged.fields:
            held["tokens"] += self.military(game, at, player, i)
        return {part: v for part, v in held.items() if part not in HOLDS.values() or part in arranged.takes}

    def why_not(self, game: Game, arranged: Arranged, field: str, spec: dict) -> str | None:
        """Why a field of the schema does not apply to this game (None when it does): a plain field
        must be one its flow arranges, an annotated one must name something the pack has."""
        notes = [n for n in HOLDS if n in spec]
        if not notes:
            return None if field in arranged.fields else f"the {game.kind.name} flow arranges no {field}"
        note = notes[0]
        flow = None if HOLDS[note] in arranged.takes else f"the {game.kind.name} flow arranges no {field}"
        if note == PAWN:
            return flow if spec[PAWN] in game.pack.vocabulary.all("pawn") else f"it has no {spec[PAWN]} pawn"
        if note in KINDS_NAMED:
            return flow if game.pack.components.get(spec[note]) else f"it has no {spec[note]}"
        found = _rule(game.pack.rules, spec[note])
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
            option = _rule(game.pack.rules, spec[OPTION]) if OPTION in spec else None
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
        shared = _middle(game)[0] and game.rules.objectives.kind == kind
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
        victory, defeat = rules["victory"], rules["defeat"]
        won = sorted(set(victory.get("values") or ()))
        tokens: list[tuple[str, int]] = []
        told: set[int] = set()  # each value refused once, however many tokens repeat it
        for j, value in enumerate(values):
            if not _count(value):
                continue
            if value not in (won if value > 0 else [defeat["value"]]):
                if value not in told:
                    told.add(value)
                    self.error(MILITARY, f"no military token is worth {value} in {game.pack.id}",
                               at + ("military", j),
                               f"victories are worth {', '.join(map(str, won))}, a defeat {defeat['value']}")
                continue
            token = (victory["token"], value) if value > 0 else (defeat["token"], value)
            tokens.append(token)
            self.tokens.setdefault(seat, []).append((at + ("military", j), *token))
        return tokens

    # -- boards of boxes
    def board(self, game: Game, at: tuple, player: dict, name: str) -> dict:
        """A player's board, the boxes checked on it, the dice unlocked, the bonuses taken and the
        buildings completed first, as the flow's `arrange` takes them."""
        field = {note: _field(note) for note in BOARD_NOTES}
        kind = PLAYER_FIELDS[field[BOARD]][BOARD]
        boards = self.boards_of(game)
        seat, held = at[1], {}
        board = player.get(field[BOARD])
        if board is None:
            self.error(FIELD, f"{name} has no {field[BOARD]}", at,
                       f"add `{field[BOARD]}:`, one of: {one_of(boards.boards)}")
        elif isinstance(board, str) and board not in boards.boards:
            self.error(BOARD_CODE, f"unknown {field[BOARD]} '{board}'", at + (field[BOARD],),
                       did_you_mean(board, boards.boards) or f"the {kind} of {game.pack.id}: {one_of(boards.boards)}")
        elif isinstance(board, str):
            if board in self.boards:
                first = self.data["players"][self.boards[board]].get("name", f"player {self.boards[board] + 1}")
                self.error(DUPLICATE, f"{first} and {name} both play {board}", at + (field[BOARD],),
                           f"the game has one {field[BOARD]} of each city")
            self.boards.setdefault(board, seat)
            held[HOLDS[BOARD]] = board
        known = HOLDS[BOARD] in held
        buildings = boards.buildings(board) if known else dict(boards.shared)
        where = board if known else None
        held[HOLDS[BOXES]] = self.boxes(at + (field[BOXES],), player.get(field[BOXES]), buildings, where, seat)
        held[HOLDS[DICE]] = self.dice(game, at + (field[DICE],), player.get(field[DICE]), boards)
        held[HOLDS[BONUSES]] = self.bonuses(game, at, field[BONUSES], player.get(field[BONUSES]), buildings,
                                            seat, name, known)
        claims = self.claims[seat] = []
        firsts = player.get(field[FIRST])
        for j, building in enumerate(firsts if isinstance(firsts, list) else ()):
            if not isinstance(building, str):
                continue
            item = at + (field[FIRST], j)
            found = buildings.get(building)
            if found is None:
                if known or building in boards.shared:
                    self.error(FIRST_CODE, f"{where or 'the board'} has no building '{building}'", item,
                               did_you_mean(building, buildings) or f"its buildings: {one_of(buildings)}")
            elif not found.first_bonus:
                firsts = [b for b, f in buildings.items() if f.first_bonus]
                self.error(FIRST_CODE, f"{building} gives nothing to the first player to complete it", item,
                           f"buildings with a first bonus: {one_of(firsts) if firsts else 'none'}")
            elif building in self.unsure[seat].keys() - self.completed[seat]:
                self.doubts.setdefault(seat, []).extend(found.first_bonus)  # its boxes were refused: not judged
            elif building not in self.completed[seat]:
                self.error(FIRST_CODE, f"{name} has not completed {building}: not all of its boxes are checked",
                           item, f"check all {len(found.boxes())} of its boxes under `{field[BOXES]}:`")
            elif building in (b for _, b in claims):
                self.error(DUPLICATE, f"{building} is listed twice", item, "a building is completed once")
            else:
                claims.append((j, building))
        if known:
            given = player.get(field[DICE]) if isinstance(player.get(field[DICE]), list) else []
            listed = [(at + (field[DICE], given.index(die)), die) for die in held[HOLDS[DICE]]]
            extra = [e for n in held[HOLDS[BONUSES]] for e in game.rules.bonuses[n - 1]] + \
                [e for _, b in claims for e in buildings[b].first_bonus] + self.doubts.get(seat, []) + \
                [e for b, tracks in self.unsure[seat].items() for t in tracks for box in buildings[b].tracks[t]
                 for e in box.effects]
            self.refuse(unreached_boxes(name, at + (field[BOXES],), buildings, held[HOLDS[BOXES]],
                                        game.flow.openers(board), set(boards.dice) - game.flow.reserve, listed, extra))
        return held

    def boards_of(self, game: Game) -> Boards:
        if self.read_boards is None:
            self.read_boards = Boards.read(game.pack)
        return self.read_boards

    def boxes(self, at: tuple, given: Any, buildings: dict[str, Building], board: str | None, seat: int) -> dict:
        """The boxes checked per building (and track), each within what the building has; a building
        in sequence from its first box. Notes the buildings completed."""
        completed = self.completed[seat] = set()
        unsure = self.unsure[seat] = {}
        if not isinstance(given, dict):
            return {}
        checked: dict = {}
        for building_id, value in given.items():
            where = at + (building_id,)
            building = buildings.get(building_id)
            if building is None:
                if board is not None:
                    self.error(BOX, f"{board} has no building '{building_id}'", where,
                               did_you_mean(building_id, buildings) or f"its buildings: {one_of(buildings)}", key=True)
                    unsure.update((b, set(other.tracks)) for b, other in buildings.items())  # it may be any
                continue
            found, doubtful = self.building_boxes(where, value, building)
            if doubtful:
                unsure[building_id] = doubtful
            if found is None:
                continue
            checked[building_id] = found
            picked = found if isinstance(found, dict) else {"": found}
            if all(len(_numbers(picked.get(t, 0))) == len(boxes) for t, boxes in building.tracks.items()):
                completed.add(building_id)
        return checked

    def building_boxes(self, where: tuple, value: Any, building: Building) -> tuple[Any, set[str]]:
        """One building's boxes checked: a count or numbers, or either by track (None when wrong);
        and the tracks of which some boxes given were refused (all of them when it is unknown which)."""
        tracks, bid = building.tracks, building.id
        if isinstance(value, dict):
            if set(tracks) == {""}:
                self.error(BOX, f"{bid} has no tracks: give the number of its boxes checked, or their numbers",
                           where, f"e.g. `{bid}: 2` for its first 2 boxes")
                return None, set(tracks)
            by_track, doubtful = {}, set()
            for track, boxes in value.items():
                if track not in tracks or track == "":
                    named = [t for t in tracks if t]
                    self.error(BOX, f"{bid} has no track '{track}'", where + (track,),
                               did_you_mean(str(track), named) or f"its tracks: {', '.join(named)}", key=True)
                    doubtful |= set(tracks)
                    continue
                numbers = self.numbers(where + (track,), boxes, building, track)
                if numbers is None:
                    doubtful.add(track)
                else:
                    by_track[track] = numbers
            return by_track, doubtful
        if "" not in tracks:
            self.error(BOX, f"{bid}'s boxes lie on tracks ({', '.join(tracks)}): give them track by track", where,
                       f"e.g. `{bid}: {{{next(iter(tracks))}: 2}}` for the first 2 boxes of that track")
            return None, set(tracks)
        numbers = self.numbers(where, value, building, "")
        if numbers is None:
            return None, {""}
        return (numbers if set(tracks) == {""} else {"": numbers}), set()

    def numbers(self, where: tuple, value: Any, building: Building, track: str) -> int | list[int] | None:
        """Boxes of one track: a count from the first, or their numbers (from the first, none
        skipped, when the building goes in sequence); None when wrong."""
        size = len(building.tracks[track])
        label = f"{building.id}'s track {track}" if track else building.id
        if _count(value):
            if value > size:
                self.error(BOX, f"{label} has {size} box{'es' * (size != 1)}, not {value}", where)
                return None
            return value
        if not isinstance(value, list):
            return None  # the schema reports it
        listed: dict[int, int] = {}
        ok = True
        for j, number in enumerate(value):
            if not _count(number) or number < 1:
                ok = False
                continue  # the schema reports it
            if number > size:
                self.error(BOX, f"{label} has no box {number}: its boxes are 1 to {size}", where + (j,))
                ok = False
            elif number in listed:
                self.error(DUPLICATE, f"box {number} is listed twice", where + (j,),
                           f"the first is item {listed[number] + 1}; a box is checked once")
                ok = False
            else:
                listed[number] = j
        if building.in_order:
            gap = next((n for n in range(1, size + 1) if n not in listed), None)
            later = sorted(n for n in listed if gap is not None and n > gap)
            if later:
                self.error(BOX, f"{label}'s boxes are checked in order: box {later[0]} cannot be checked "
                                f"before box {gap}", where + (listed[later[0]],),
                           f"add box {gap}; a number N stands for the first N boxes")
                ok = False
        return sorted(listed) if ok else None

    def dice(self, game: Game, at: tuple, given: Any, boards: Boards) -> list[str]:
        """Dice unlocked: known, each once, and such that some box unlocks them."""
        if not isinstance(given, list):
            return []
        every = [b for building in (*boards.shared.values(), *(b for own in boards.boards.values()
                                                               for b in own.values())) for b in building.boxes()]
        unlockable = sorted({a.args.die for box in every for e in box.effects for a in e.actions
                             if a.verb == "unlock"})
        held: list[str] = []
        for j, die in enumerate(given):
            if not isinstance(die, str):
                continue
            if die not in boards.dice:
                self.error(DIE, f"unknown die '{die}'", at + (j,),
                           did_you_mean(die, boards.dice) or f"the dice of {game.pack.id}: {one_of(boards.dice)}")
            elif die not in unlockable:
                self.error(DIE, f"the {die} die is never unlocked: no box unlocks it", at + (j,),
                           f"dice that boxes unlock: {', '.join(unlockable) or 'none'}")
            elif die in held:
                self.error(DUPLICATE, f"the {die} die is listed twice", at + (j,), "a die is unlocked once")
            else:
                held.append(die)
        return held

    def bonuses(self, game: Game, at: tuple, field: str, given: Any, buildings: dict[str, Building], seat: int,
                name: str, known: bool) -> list[int]:
        """Bonuses taken, by number: each once, no more than the completed buildings that give one
        (or than those whose boxes were refused may give: such bonuses are doubts, not refused)."""
        if not isinstance(given, list):
            return []
        bonuses = _rule(game.pack.rules, PLAYER_FIELDS[field][BONUSES]) or []
        earned = sorted(b for b in self.completed[seat] if buildings[b].completion_bonus)
        maybe = [b for b in self.unsure[seat].keys() - self.completed[seat] if buildings[b].completion_bonus]
        taken: list[int] = []
        doubted: list[int] = []
        doubts = self.doubts.setdefault(seat, [])
        for j, number in enumerate(given):
            if not _count(number) or number < 1:
                continue  # the schema reports it
            if number > len(bonuses):
                self.error(BONUS, f"there is no bonus {number}: the bonuses are 1 to {len(bonuses)}", at + (field, j),
                           "; ".join(f"{i}. {_one_line(b)}" for i, b in enumerate(bonuses, 1)))
                doubts += [e for bonus in game.rules.bonuses for e in bonus]  # it may be any of them
            elif number in taken or number in doubted:
                self.error(DUPLICATE, f"bonus {number} is listed twice", at + (field, j), "a bonus is taken once")
            elif known and len(taken) >= len(earned) and len(taken) + len(doubted) < len(earned) + len(maybe):
                doubted.append(number)
                doubts += game.rules.bonuses[number - 1]
            elif known and len(taken) >= len(earned):
                message = (f"{name} has {len(earned)} bonus{'es' * (len(earned) != 1)} to take from completed "
                           f"buildings ({', '.join(earned)}), not {len(taken) + 1}" if earned else
                           f"{name} took a bonus without completing a building that gives one")
                self.error(BONUS, message, at + (field, j),
                           "a bonus is taken on completing a building that gives one: check all of its boxes "
                           "under `boxes:`, or remove the bonus")
            else:
                taken.append(number)
        return taken

    def check_firsts(self, game: Game, holdings: list[dict], names: list[str]) -> None:
        """Who completed each building with a first bonus first: the one player who completed it,
        or those who say so when several did (several may: all who completed it in the same round,
        the first round anyone did, were first, as the players act at once)."""
        field = _field(FIRST)
        boxes = _field(BOXES)
        boards = self.boards_of(game)
        claimed = {building for claims in self.claims.values() for _, building in claims}
        for building_id, building in boards.shared.items():
            if not building.first_bonus:
                continue
            done = [s for s, built in sorted(self.completed.items()) if building_id in built]
            if building_id in claimed or not done:
                continue
            if len(done) == 1:
                holdings[done[0]].setdefault(HOLDS[FIRST], []).append(building_id)
                continue
            who = ", ".join(names[s] for s in done[:-1]) + f" and {names[done[-1]]}"
            self.error(FIRST_CODE, f"{who} {'both' if len(done) == 2 else 'all'} completed {building_id}: "
                                   f"say who was first",
                       ("players", done[-1], boxes, building_id),
                       f"give `{field}: [{building_id}]` to the player who completed it first (to each, if "
                       "several did in the same round)", key=True)
        for seat, held in enumerate(holdings):
            if seat in self.claims:
                held.setdefault(HOLDS[FIRST], []).extend(b for _, b in self.claims[seat])


def _middle(game: Game) -> tuple[int, tuple[str, int] | None]:
    """How many objectives lie in the middle in this game; and the option that would lay some there
    when it is off, with their count."""
    spec = game.rules.objectives
    if spec is None or spec.central_option is None:
        return 0, None
    if game.options.get(spec.central_option):
        return spec.central_count, None
    return 0, (spec.central_option, spec.central_count)


def _default_side(game: Game, sides: list[str]) -> str | None:
    """The side a player without `side:` plays: the option's, else the first that rules.yaml lists."""
    chosen = game.options.get(SIDE_OPTION)
    if chosen in sides:
        return chosen
    listed = [s for s in (game.pack.rules.get("setup") or {}).get("sides") or () if s in sides]
    return (listed or sides or [None])[0]


def _rule(rules: dict, dotted: str | list[str]) -> Any:
    """The value at a dotted path of rules.yaml (`trade.currency`), or None; of a list of paths,
    the first one the rules have."""
    if isinstance(dotted, list):
        return next((v for v in (_rule(rules, d) for d in dotted) if v is not None), None)
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


def _field(note: str) -> str:
    """The scenario field that an annotation marks."""
    return next(f for f, spec in PLAYER_FIELDS.items() if note in spec)


def _numbers(value: Any) -> list[int]:
    """Box numbers from a count (the first N) or a list."""
    return list(range(1, value + 1)) if _count(value) else list(value or ())


def _one_line(text: Any) -> str:
    return "; ".join(line.strip() for line in str(text or "").splitlines() if line.strip())


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

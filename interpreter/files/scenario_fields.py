"""What a scenario's fields mean, and what checking them keeps: the schema with its annotations
(what each field is in the pack's data, the part of a holding it fills), the diagnostics' codes, and
`Checks`, the diagnostics and notes that every check of a scenario (scenario.py, scenario_players.py,
scenario_boards.py) adds to as it reads, so that what one item refused is not refused again.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema

from ...dsl.diagnostics import Diagnostic
from ..games.game import Game
from ..packs.boards import Boards
from ..packs.folders import SCHEMAS
from ..packs.yamlsource import Source

_SCHEMA = json.loads((SCHEMAS / "scenario.schema.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(_SCHEMA)
PLAYER_FIELDS: dict[str, dict] = _SCHEMA["properties"]["players"]["items"]["properties"]
MAX_PLAYERS: int = _SCHEMA["properties"]["players"]["maxItems"]  # more than any pack plays with

# The schema's annotations and the part of a holding each fills.
COUNTER, TOKEN, PIECES, PAWN, OPTION, NOUN = "x-counter", "x-token", "x-pieces", "x-pawn", "x-option", "x-noun"
NEEDS = "x-needs"  # a plain field that applies only when rules.yaml has this key
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


class Checks:
    """A scenario being checked: its file, the diagnostics so far, and what the items read so far
    noted for the checks that follow."""

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
        self.own_held: dict[str, int] = {}  # a token kind of the pack's own -> how many the players before hold
        self.blamed: set[tuple] = set()  # the paths reach.py's refusals are at: not judged again

    def error(self, code: str, message: str, path: tuple, hint: str | None = None, key: bool = False) -> None:
        self.diagnostics.append(self.source.diagnostic(code, message, path, hint, key=key))

    def refuse(self, refusals) -> None:
        """Diagnostics for reach.py's refusals."""
        for r in refusals:
            self.blamed.add(r.path)
            self.error(r.code, r.message, r.path, r.hint, key=r.key)


def objectives_in_middle(game: Game) -> tuple[int, tuple[str, int] | None]:
    """How many objectives lie in the middle in this game; and the option that would lay some there
    when it is off, with their count."""
    spec = game.rules.objectives
    if spec is None or spec.central_option is None:
        return 0, None
    if game.options.get(spec.central_option):
        return spec.central_count, None
    return 0, (spec.central_option, spec.central_count)


def rule(rules: dict, dotted: str | list[str]) -> Any:
    """The value at a dotted path of rules.yaml (`trade.currency`), or None; of a list of paths,
    the first one the rules have."""
    if isinstance(dotted, list):
        return next((v for v in (rule(rules, d) for d in dotted) if v is not None), None)
    value: Any = rules
    for step in dotted.split("."):
        value = value.get(step) if isinstance(value, dict) else None
    return value


def field_for(note: str) -> str:
    """The scenario field that an annotation marks."""
    return next(f for f, spec in PLAYER_FIELDS.items() if note in spec)


def is_count(value: Any) -> bool:
    """Whether a value is a whole number (YAML's `true` is not one)."""
    return isinstance(value, int) and not isinstance(value, bool)


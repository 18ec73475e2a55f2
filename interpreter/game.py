"""A game: one pack, a player count, a seed and options, with everything read from the pack once.

`load_game` is the entry point; `game.new_state()` deals a fresh position.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .catalogue import ONE_SIDE, Catalogue
from .draft import Draft
from .packs import Pack, find_pack, load_pack
from .scoring import Scoring
from .state import GameError, State
from .rolls import Rolls
from .turns import Turns
from .verbs import UNDO, VERBS

# How a game runs, by `flow.kind` in rules.yaml.
FLOWS = {"draft": Draft, "turns": Turns, "rolls": Rolls}

# The option that picks the side of every wonder board (`setup.sides`).
SIDE_OPTION = "side"
RANDOM = "random"


class Game:
    """The fixed part of a game; `new_state()` gives positions to play."""

    def __init__(self, pack: Pack, players: int, seed: int = 0, options: dict | None = None):
        self.pack = pack
        self.rules = pack.rules
        self.seed = seed
        self.players = players
        self.options = _options(pack, options or {})
        self.catalogue = Catalogue.read(pack)
        vocab = pack.vocabulary
        self.resources = tuple(sorted(vocab.all("resource")))
        self.symbols = tuple(sorted(vocab.all("symbol")))
        self.classes = {k: tuple(v) for k, v in (self.rules["vocabulary"].get("resources") or {}).items()}
        self.verbs, self.undo = VERBS, UNDO
        self.build_zone = self.rules["flow"]["build_zone"]
        self.discard_zone = self.rules["flow"].get("discard_zone")
        self.seat_table = _seat_table(players)
        setup, trade = self.rules.get("setup") or {}, self.rules.get("trade") or {}
        self.start_counters = dict(setup.get("counters") or {})
        self.currency = trade.get("currency") or self.rules["flow"].get("currency")
        self.sellers = tuple(trade.get("sellers") or ())
        self.seller_seats = [tuple(self.seat_table[s][seat][0] for s in self.sellers) for seat in range(players)]
        price = tuple((r, trade.get("price", 0)) for r in self.resources)
        self.start_prices = tuple(price for _ in self.sellers)
        sides = list(setup.get("sides") or [ONE_SIDE])  # wonders written without sides have one
        chosen = self.options.get(SIDE_OPTION, RANDOM)
        self.side_choices = sides if chosen == RANDOM else [chosen]
        self.score_counter = (self.rules.get("scoring") or {}).get("counter")
        # No game of the family needs more than a few actions per card; past this, something loops.
        self.max_actions = 20 * (sum(len(c.copies) + 1 for c in self.catalogue.cards.values()) * players + 100)
        self.entries: dict = {}  # piece -> what entering a city does with its effects (State.enter)
        self.scoring = Scoring(self)
        self.flow = FLOWS[self.rules["flow"]["kind"]](self)

    def new_state(self, seed: int | None = None) -> State:
        """A new position, dealt from `seed` (by default the game's)."""
        state = State(self, self.seed if seed is None else seed)
        self.flow.setup(state)
        return state

    def deal_wonders(self, rng) -> list:
        """One wonder side for each seat, the wonders shuffled, each side as `side_choices` says."""
        wonders = self.catalogue.wonders()
        rng.shuffle(wonders)
        sides = self.side_choices
        return [self.catalogue.sides[wonders[seat], rng.choice(sides) if len(sides) > 1 else sides[0]]
                for seat in range(self.players)]

    def cannot_deal(self, why: str) -> GameError:
        """The error for a pack that cannot be dealt for this many players."""
        players = f"{self.players} player{'s' if self.players != 1 else ''}"
        return GameError(f"{self.pack.id} cannot be played by {players}: {why}")

    def expand(self, names) -> set[str]:
        """Resources named directly or by their class (`raw`)."""
        return {r for n in names for r in self.classes.get(n, (n,))}

    def sides(self, selectors) -> set[str]:
        """Seller selectors named directly or together (`neighbours`)."""
        return {s for sel in selectors for s in (("left", "right") if sel == "neighbours" else (sel,))}

    def describe(self) -> dict:
        """The pack ids and versions, players, seed and options: what a log's header records."""
        return {"packs": [{"id": p.id, "version": p.version} for p in self.pack.lineage()],
                "players": self.players, "seed": self.seed, "options": dict(self.options)}


def load_game(pack_or_path: str | Path | Pack, players: int | None = None, seed: int = 0, **options: Any) -> Game:
    """A game of a shipped pack (by id) or of any pack folder, for `players` players (the pack's
    minimum by default). Raises `GameError` with a clear message for what cannot be played, and
    `packs.LoadError` (with every diagnostic) for a pack with errors."""
    pack = pack_or_path if isinstance(pack_or_path, Pack) else _pack(pack_or_path)
    kind = (pack.rules.get("flow") or {}).get("kind")
    if kind not in FLOWS:
        raise GameError(f"pack {pack.id!r} cannot be played yet: its rules.yaml gives no flow kind this "
                        f"engine runs (known: {', '.join(FLOWS)})")
    unknown = sorted(_verbs(pack) - set(VERBS))
    if unknown:
        raise GameError(f"pack {pack.id!r} uses verbs this engine cannot run yet: {', '.join(unknown)}")
    bounds = pack.rules["players"]
    players = bounds["min"] if players is None else players
    if not bounds["min"] <= players <= bounds["max"]:
        raise GameError(f"{pack.id} plays with {bounds['min']} to {bounds['max']} players, not {players}")
    return Game(pack, players, seed, options)


def _pack(name: str | Path) -> Pack:
    if find_pack(str(name)) is None:
        raise GameError(f"no pack {str(name)!r}: give a shipped pack id or the path of a pack folder")
    return load_pack(name)


def _options(pack: Pack, given: dict) -> dict:
    declared = pack.rules.get("options") or {}
    unknown = sorted(set(given) - set(declared))
    if unknown:
        known = ", ".join(declared) or "none"
        raise GameError(f"unknown option {unknown[0]!r} for {pack.id} (its options: {known})")
    options = {name: spec.get("default") for name, spec in declared.items()}
    options.update(given)
    if SIDE_OPTION in declared:
        sides = (pack.rules.get("setup") or {}).get("sides") or []
        if options[SIDE_OPTION] not in [RANDOM, *sides]:
            raise GameError(f"option side must be one of {', '.join([RANDOM, *sides])}, not {options[SIDE_OPTION]!r} "
                            f"(the sides {pack.id} deals)")
    return options


def _verbs(pack: Pack) -> set[str]:
    effects = [e for kind in pack.components.values() for c in kind.values()
               for v in c.compiled.values() if isinstance(v, tuple) for e in v]
    effects += [e for v in pack.compiled_rules.values() if isinstance(v, tuple) for e in v]
    return {a.verb for e in effects for a in e.actions}


def _seat_table(n: int) -> dict[str, list[tuple[int, ...]]]:
    """For each selector, the seats it names from each seat. Seats are clockwise: left is +1."""
    def unique(*seats):
        return tuple(dict.fromkeys(seats))
    table = {
        "self": [(s,) for s in range(n)],
        "left": [((s + 1) % n,) for s in range(n)],
        "right": [((s - 1) % n,) for s in range(n)],
        "neighbours": [unique((s + 1) % n, (s - 1) % n) for s in range(n)],
        "all": [tuple(range(n)) for _ in range(n)],
        "others": [tuple(o for o in range(n) if o != s) for s in range(n)],
    }
    table["opponent"] = table["others"]
    return table

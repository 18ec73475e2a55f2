"""A game: one pack, a player count, a seed and options, with everything read from the pack once.

`loading.load_game` makes one; `game.new_state()` deals a fresh position.
"""

from __future__ import annotations

import copy
import weakref

from ...dsl.ast import Count, nodes
from ...dsl.compiler import CompiledAction, Fixed, watched
from ...dsl.verbs import Buy
from ...dsl.verbs.gains import Gain, GainArgs
from ..core import choosing
from ..core.decisions import DECIDERS
from ..core.errors import DealError, GameError
from ..core.events import EVENTS
from ..core.holdings import rule_effects
from ..core.payment import BANK
from ..core.scoring import Scoring
from ..core.state import State
from ..flows.kinds import FLOWS, FlowKind
from ..packs.catalogue import ONE_SIDE, Catalogue, Piece
from ..packs.model import Pack, sentences
from ..packs.rules import Rules

# each game's twin without its seed (`Game.unseeded`), and those twins
_TWINS: "weakref.WeakKeyDictionary[Game, Game]" = weakref.WeakKeyDictionary()
_UNSEEDED: "weakref.WeakSet[Game]" = weakref.WeakSet()

# The option that picks the side of every wonder board (`setup.sides`).
SIDE_OPTION = "side"
RANDOM = "random"


class Game:
    """The fixed part of a game; `new_state()` gives positions to play."""

    def __init__(self, pack: Pack, players: int, seed: int = 0, options: dict | None = None,
                 kind: FlowKind | None = None, wonders=None):
        self.pack = pack
        self.kind = kind or FLOWS[pack.rules["flow"]["kind"]]
        self.rules = rules = Rules.read(pack, self.kind.rules)
        self.seed = seed
        self.players = players
        self.options = _options(pack, options or {})
        self.catalogue = Catalogue.read(pack)
        # the ids a piece held outside a city may bear: what `tokens` counts by id (a token's)
        self.piece_ids = frozenset(p.id for p in self.catalogue.pieces())
        vocab = pack.vocabulary
        self.resources = tuple(sorted(vocab.all("resource")))
        self.symbols = tuple(sorted(vocab.all("symbol")))
        self.classes = dict(rules.classes)
        self.player_zones = sorted(vocab.all("player_zone") | {rules.build_zone})
        self.shared_zones = sorted(vocab.all("shared_zone"))
        self.build_zone, self.discard_zone = rules.build_zone, rules.discard_zone
        self.unique_cards = rules.unique_cards
        self.seat_table = _seat_table(players)
        self.start_counters = dict(rules.setup.counters)
        self.caps = dict(rules.setup.caps)
        self.face_down = frozenset(rules.setup.decks)
        self.currency = rules.trade.currency
        self.sellers = rules.trade.sellers
        self.seller_seats = [tuple(self.seat_table[s][seat][0] for s in self.sellers) for seat in range(players)]
        price = tuple((r, rules.trade.price) for r in self.resources)
        self.start_prices = tuple(price for _ in self.sellers)
        sides = list(rules.setup.sides or [ONE_SIDE])  # wonders written without sides have one
        chosen = self.options.get(SIDE_OPTION, RANDOM)
        self.side_choices = sides if chosen == RANDOM else [chosen]
        self.score_counter = rules.scoring.counter
        self.token_kinds = {t.kind: t for t in rules.tokens}  # the pack's own (rules.yaml `tokens:`)
        self.hidden_tokens = frozenset(t.kind for t in rules.tokens if not t.public)  # seen by their holder alone
        self.icons = {icon: rule_effects(f"icon {icon}", effects) for icon, effects in rules.icons}
        # counter -> what each one a player is short of costs them (rules.yaml `shortfall`)
        self.shortfall = {vocab.resolve(name, "counter") or name: rule_effects(f"shortfall {name}", effects)
                          for name, effects in rules.shortfall}
        self.shortfall_keys = frozenset(o.key for held in self.shortfall.values() for o in held)
        # counter -> (paying one, owing one) for a loss another player's effect deals (rules.yaml `owing`)
        self.owing = {name: (CompiledAction("gain", GainArgs(name, Fixed(-1)), Gain),
                             tuple(a for o in self.shortfall.get(name, ()) for a in o.effect.actions))
                      for name in (vocab.resolve(n, "counter") or n for n in rules.owing)}
        self.triggers = frozenset(s.effect.trigger for s in sentences(pack))  # the events some effect waits for
        # event -> the trigger of the effects watching other players for it (`on left stage:`), if any
        self.watched = {event: watched(event) for event in EVENTS if watched(event) in self.triggers}
        self.doings = self.triggers | frozenset(self.watched)  # the events some effect waits for, own or watched
        # whether a count reads the cards come into a city in a period (`this age`): then each is recorded
        self.keeps_came = any(isinstance(n, Count) and n.within for s in sentences(pack) for n in nodes(s.effect.node))
        self.verbs = frozenset(v for s in sentences(pack) for v in s.effect.verbs)  # the verbs some effect runs
        self.banked = Buy.name in self.verbs  # the bank sells resources: every payment pays it last
        self.payees = self.sellers + (BANK,) * self.banked  # whom a payment pays (`Action.pay`), in order
        self.max_actions = self.kind.length(self)
        self.entries: dict = {}  # piece -> what entering a city does with its effects (State.enter)
        self.places: dict = {}   # zones a sentence names, resolved (decisions.places)
        self.objective_zones: dict = {}  # shared zones -> (zone, who may claim there, first only) of the objectives (State.claim)
        self.scoring = Scoring(self)
        self.flow = self.kind.flow(self)
        self.decisions = DECIDERS | self.flow.decisions
        # the wonders (boards) chosen for seats, (id, side or None) per seat; () deals all at random
        try:
            self.assigned = choosing.resolve(wonders, players, *self.flow.dealt()) if wonders else ()
        except choosing.ChoiceError as err:  # a command may open several packs: say which refused
            raise choosing.ChoiceError(f"{err} in {pack.id}", err.hint) from None

    def unseeded(self) -> "Game":
        """This game without its seed: the game a view's positions are played on (view.py). The
        same rules, pieces and seats, its own flow and scoring, and nothing that leads back to this
        game, so a bot cannot deal the true game again from what it is shown."""
        if self in _UNSEEDED:
            return self
        twin = _TWINS.get(self)
        if twin is None:
            twin = copy.copy(self)
            twin.seed = 0
            twin.entries, twin.places, twin.objective_zones = {}, {}, {}
            twin.scoring = Scoring(twin)
            twin.flow = twin.kind.flow(twin)
            twin.decisions = DECIDERS | twin.flow.decisions
            _TWINS[self] = twin
            _UNSEEDED.add(twin)
        return twin

    def new_state(self, seed: int | None = None) -> State:
        """A new position, dealt from `seed` (by default the game's)."""
        state = State(self, self.seed if seed is None else seed)
        self.flow.setup(state)
        if self.rules.laws is not None:
            state.enforce()
        return state

    def deal_wonders(self, rng) -> list:
        """One wonder side for each seat, the wonders shuffled, each side as `side_choices` says;
        the wonders and sides assigned to seats (`assigned`) as they are."""
        wonders = self.catalogue.wonders()
        rng.shuffle(wonders)
        if self.assigned:
            wonders = choosing.place(wonders, self.assigned, self.players)
        sides = self.side_choices
        return [self.catalogue.sides[wonders[seat], choosing.side_of(self.assigned, seat) or
                                     (rng.choice(sides) if len(sides) > 1 else sides[0])]
                for seat in range(self.players)]

    def deal_boards(self, boards: list[str], rng) -> list[str]:
        """Each seat's board of these, shuffled; those assigned to seats (`assigned`) as they are."""
        boards = list(boards)
        rng.shuffle(boards)
        return choosing.place(boards, self.assigned, self.players) if self.assigned else boards[:self.players]

    def cards(self, counts) -> list[Piece]:
        """Cards by (id, copies)."""
        catalogue = self.catalogue.cards
        return [catalogue[card] for card, n in counts for _ in range(n)]

    def cannot_deal(self, why: str, short: tuple) -> DealError:
        """The error for a pack that cannot be dealt for this many players (a problem of the pack,
        which `check` reports: see dealing.py); `short` names what runs short (`DealError`)."""
        players = f"{self.players} player{'s' if self.players != 1 else ''}"
        return DealError(f"{self.pack.id} cannot be played by {players}: {why}", self.players, why, short)

    def expand(self, names) -> set[str]:
        """Resources named directly or by their class (`raw`)."""
        return {r for n in names for r in self.classes.get(n, (n,))}

    def sides(self, selectors) -> set[str]:
        """Seller selectors named directly or together (`neighbours`)."""
        return {s for sel in selectors for s in (("left", "right") if sel == "neighbours" else (sel,))}

    def describe(self) -> dict:
        """The pack ids and versions, players, seed and options (and the wonders assigned to seats,
        if any): what a log's header records."""
        return {"packs": [{"id": p.id, "version": p.version} for p in self.pack.lineage()],
                "players": self.players, "seed": self.seed, "options": dict(self.options)} | \
            ({"wonders": self.wonders()} if self.assigned else {})

    def wonders(self) -> list[str] | None:
        """The wonders assigned to seats as written (`WONDER:SIDE`, `*`), None without an assignment."""
        return choosing.written(self.assigned) if self.assigned else None


def check_option_names(pack: Pack, given) -> None:
    """Raises GameError for a name the pack declares no option by."""
    declared = pack.rules.get("options") or {}
    unknown = sorted(set(given) - set(declared))
    if unknown:
        known = ", ".join(declared) or "none"
        raise GameError(f"unknown option {unknown[0]!r} for {pack.id} (its options: {known})")


def _options(pack: Pack, given: dict) -> dict:
    declared = pack.rules.get("options") or {}
    check_option_names(pack, given)
    options = {name: spec.get("default") for name, spec in declared.items()}
    options.update(given)
    for name, spec in declared.items():
        for other, wanted in (spec.get("requires") or {}).items():
            if options[name] != spec.get("default") and options.get(other) != wanted:
                raise GameError(f"option {name}={_word(options[name])} needs {other}={_word(wanted)}, "
                                f"not {other}={_word(options.get(other))}")
    if SIDE_OPTION in declared:
        sides = (pack.rules.get("setup") or {}).get("sides") or []
        if options[SIDE_OPTION] not in [RANDOM, *sides]:
            raise GameError(f"option side must be one of {', '.join([RANDOM, *sides])}, not {options[SIDE_OPTION]!r} "
                            f"(the sides {pack.id} deals)")
    return options


def _word(value) -> str:
    """An option's value as written on a command line."""
    return str(value).lower() if isinstance(value, bool) else str(value)


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

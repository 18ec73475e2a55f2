"""rules.yaml, read once into typed objects: what every flow reads (the setup, battles, science,
scoring, objectives, what icons do, the effects every player has) and, through the flow's own
class, its `flow:` section.

`Rules.read` takes a loaded pack whose rules passed the schema; what a section leaves out reads as
its absence (no battles, no trade...), never as a game's constant. `CORE_KEYS` lists the key paths
read in every game; a flow adds its own (`flows.py`), and `check` warns of any other key a pack
writes (a key no engine code reads would otherwise pass unseen).
"""

from __future__ import annotations

from typing import Any

import attrs

from ...dsl.compiler import CompiledEffect

Effects = tuple[CompiledEffect, ...]

# Key paths of rules.yaml read in a game of any flow (a path covers everything under it).
CORE_KEYS = (
    "vocabulary", "players", "options", "reconstructed", "reason", "decks",
    "setup.counters", "setup.caps", "setup.decks", "setup.offer", "setup.tokens",
    "icons", "shortfall", "owing", "player_effects", "objectives", "military", "conflicts", "scoring", "laws", "flow.kind",
    "flow.build_zone", "flow.discard_zone", "flow.round_period", "flow.unique_cards", "tokens",
)
# Read only when the scoring counts science (a category `science: true`).
SCIENCE_SCORING_KEYS = ("science.per_symbol", "science.set_bonus")


def _dig(data: Any, *path: str) -> Any:
    for step in path:
        data = data.get(step) if isinstance(data, dict) else None
    return data


@attrs.frozen
class Offer:
    """`setup.offer`: pieces of a component kind shuffled face down, `face_up` of them shown."""

    kind: str
    stack: str
    shown: str
    face_up: int


@attrs.frozen
class RandomCards:
    """A random part of a deck (`setup.random_cards`, one or a list): of one deck's cards of a
    colour, `keep_per_player` × players + `keep_players_plus` are kept; `at` is where rules.yaml
    writes it."""

    deck: str
    colour: str
    keep_players_plus: int
    keep_per_player: int = 1
    at: tuple = ("setup", "random_cards")

    def kept(self, players: int) -> int:
        """How many of its cards a game of that many players keeps."""
        return self.keep_per_player * players + self.keep_players_plus

    def rule(self) -> str:
        """The rule, as messages say it: `keeps players + 2 of them`."""
        per, plus = self.keep_per_player, self.keep_players_plus
        terms = [("players" if per == 1 and plus else f"{per} per player")] if per else []
        terms += [str(plus)] if plus or not per else []
        return f"rules.yaml `{'.'.join(map(str, self.at))}` keeps {' + '.join(terms)} of them"


@attrs.frozen
class Setup:
    """How a game starts, whatever its flow."""

    counters: tuple[tuple[str, int], ...] = ()
    caps: tuple[tuple[str, int], ...] = ()
    sides: tuple[str, ...] = ()
    random_cards: tuple[RandomCards, ...] = ()  # the random parts of decks, in the order drawn
    wonder_decks: str | None = None
    decks: tuple[str, ...] = ()
    offer: Offer | None = None
    tokens: tuple[tuple[str, tuple[tuple[int, int], ...]], ...] = ()  # kind -> (players, count)...

    def tokens_for(self, kind: str, players: int) -> int:
        """How many tokens of a kind are laid out to flip at this player count."""
        return dict(dict(self.tokens).get(kind, ())).get(players, 0)


@attrs.frozen
class Trade:
    """`trade:`: buying resources from other players."""

    currency: str | None = None
    price: int = 0
    sellers: tuple[str, ...] = ()


NEIGHBOURS, ALL = "neighbours", "all"  # who fights whom in a conflict (`among`)


@attrs.frozen
class Military:
    """One conflict: `military:` (the base game's, named `military`) or one of `conflicts:`.
    Among `neighbours`, each pair of neighbours compares `counter`; among `all`, every player is
    ranked by it and `places` gives each round's values by rank. `flip` names the tokens whose last
    flip calls a battle (without it, one is fought at the end of every round); every conflict is
    fought at that moment. A player holding `skip` sits the battle out (spending one); one holding
    `give_defeats` hands the defeat tokens they would take to the neighbour who beat them."""

    counter: str
    victory_token: str
    victory_values: tuple[int, ...]
    defeat_token: str | None = None
    defeat_value: int = 0
    flip: str | None = None
    duel_times: int | None = None      # `two_players`: with two players, `duel_tokens` tokens for
    duel_tokens: int = 1               # at least `duel_times` the opponent's strength
    discard_colour: str | None = None  # `discard_after`: these cards leave the cities after a battle
    discard_icon: str | None = None
    name: str = "military"
    among: str = NEIGHBOURS
    places: tuple[tuple[int, ...], ...] = ()  # among all: each round's victory values, by rank
    defeat_values: tuple[int, ...] = ()       # a defeat's value each round, when `defeat.values` says
    skip: str | None = None
    give_defeats: str | None = None

    def defeat_at(self, round_: int) -> int:
        """A defeat token's value in this round."""
        values = self.defeat_values
        return values[min(round_, len(values) - 1)] if values else self.defeat_value

    def values(self) -> tuple[int, ...]:
        """Every value a victory token of this conflict may have."""
        return tuple(sorted({v for row in self.places for v in row} | set(self.victory_values)))

    def defeats(self) -> tuple[int, ...]:
        """Every value a defeat token of this conflict may have (none without defeat tokens)."""
        return tuple(sorted({*self.defeat_values, self.defeat_value})) if self.defeat_token else ()


@attrs.frozen
class Science:
    """`science:`: how symbols score (`per_symbol: square`, `set_bonus` per set of every symbol),
    and the sets turned in during play for `reward`."""

    per_symbol: str | None = None
    set_bonus: int = 0
    identical: int | None = None
    different: int | None = None
    reward: Effects = ()


@attrs.frozen
class Category:
    """One scoring category: `how` it counts (`tokens`, `effect`, `stages`, `colours`, `science`,
    `table`: a pack's token kind scored by how many are held)."""

    name: str
    how: str
    names: tuple[str, ...] = ()   # the tokens or colours it counts
    effects: Effects = ()         # its sentence, for `effect`
    table: tuple[int, ...] = ()   # the points by how many tokens of `names` are held, for `table`


@attrs.frozen
class TokenKind:
    """`tokens.<kind>`: a token kind of the pack's own, held by players: whether every player sees
    how many one holds, each token's points (`value`) or the points by how many are held
    (`table`), and how many there are (`supply`, None: as many as needed)."""

    kind: str
    public: bool = True
    value: int = 0
    table: tuple[int, ...] = ()
    supply: int | None = None


@attrs.frozen
class Scoring:
    counter: str | None = None
    categories: tuple[Category, ...] = ()
    tie_break: tuple[str, ...] = ()


@attrs.frozen
class Objectives:
    """`objectives:`: pieces of a kind laid on the table, `between_neighbours` of them between each
    pair of neighbours, and with `central_option` on, `central_count` more in the middle."""

    kind: str
    option: str | None
    between_neighbours: int
    central_option: str | None = None
    central_count: int = 0


@attrs.frozen
class Rules:
    """Everything rules.yaml says, typed; `flow` is the flow's own reading of `flow:`."""

    kind: str
    min_players: int
    max_players: int
    options: tuple[tuple[str, Any], ...]
    build_zone: str
    discard_zone: str | None
    round_period: str | None
    unique_cards: bool
    setup: Setup
    trade: Trade
    military: Military | None
    conflicts: tuple[Military, ...]  # every conflict, `military` first
    science: Science
    scoring: Scoring
    objectives: Objectives | None
    icons: tuple[tuple[str, Effects], ...]
    shortfall: tuple[tuple[str, Effects], ...]
    owing: tuple[str, ...]  # counters of `shortfall` a loss to another player's effect may be owed in
    player_effects: Effects
    bonuses: tuple[Effects, ...]
    decks: tuple[tuple[str, tuple[tuple[str, int], ...]], ...]
    wild: str | None
    classes: tuple[tuple[str, tuple[str, ...]], ...]
    flow: Any = None
    laws: tuple[str, int] | None = None  # (shared zone, how many of its top pieces are in force)
    tokens: tuple[TokenKind, ...] = ()

    @classmethod
    def read(cls, pack, flow_rules: type | None = None) -> "Rules":
        """The typed rules of a loaded pack; `flow_rules` reads its `flow:` section."""
        raw, compiled = pack.rules, pack.compiled_rules
        flow = raw.get("flow") or {}
        vocab = raw.get("vocabulary") or {}
        tokens = _tokens(raw.get("tokens") or {})
        return cls(
            kind=flow.get("kind", ""),
            min_players=_dig(raw, "players", "min") or 1,
            max_players=_dig(raw, "players", "max") or 1,
            options=tuple((name, (spec or {}).get("default")) for name, spec in (raw.get("options") or {}).items()),
            build_zone=flow.get("build_zone", ""),
            discard_zone=flow.get("discard_zone"),
            round_period=flow.get("round_period"),
            unique_cards=flow.get("unique_cards", False),
            setup=_setup(raw.get("setup") or {}),
            trade=_trade(raw.get("trade") or {}, flow),
            military=_military(raw.get("military")),
            conflicts=_conflicts(raw),
            science=_science(raw.get("science") or {}, compiled),
            scoring=_scoring(raw.get("scoring") or {}, compiled, raw.get("tokens") or {}),
            objectives=_objectives(raw.get("objectives")),
            icons=tuple((icon, compiled.get(("icons", icon), ())) for icon in (raw.get("icons") or {})),
            shortfall=tuple((name, compiled.get(("shortfall", name), ())) for name in (raw.get("shortfall") or {})),
            owing=tuple(raw.get("owing") or ()),
            player_effects=tuple(e for i in range(len(raw.get("player_effects") or ()))
                                 for e in compiled.get(("player_effects", i), ())),
            bonuses=tuple(compiled.get(("bonuses", i), ()) for i in range(len(raw.get("bonuses") or ()))),
            decks=tuple((zone, tuple(cards.items())) for zone, cards in (raw.get("decks") or {}).items()),
            wild=next(iter(vocab.get("wild") or ()), None),
            classes=tuple((k, tuple(v)) for k, v in (vocab.get("resources") or {}).items()),
            flow=flow_rules.read(flow, compiled) if flow_rules is not None else None,
            laws=(raw["laws"]["zone"], raw["laws"].get("top", 1)) if raw.get("laws") else None,
            tokens=tokens,
        )

    def zones(self) -> frozenset[str]:
        """The zones cards (or pieces) may ever lie in: the cities, the discard, the decks laid
        out, the tokens on offer, the wonders' own decks, and the flow's own zones."""
        offer = (self.setup.offer.stack, self.setup.offer.shown) if self.setup.offer else ()
        laws = (self.laws[0],) if self.laws else ()
        return frozenset({self.build_zone, self.discard_zone, *self.setup.decks, *offer, self.setup.wonder_decks,
                          *self.flow.zones, *laws}) - {None}

    @property
    def battles_each_round(self) -> bool:
        """Whether a battle is fought at every round's end: there are conflicts, and no `flip` calls them."""
        return bool(self.conflicts) and (self.military is None or self.military.flip is None)

    def reads(self, flow_keys: tuple[str, ...]) -> tuple[str, ...]:
        """Every key path of rules.yaml that a game of these rules reads."""
        science = any(c.how == "science" for c in self.scoring.categories)
        return CORE_KEYS + flow_keys + (SCIENCE_SCORING_KEYS if science else ())


def _setup(setup: dict) -> Setup:
    offer, cards = setup.get("offer"), setup.get("random_cards")
    return Setup(
        counters=tuple((setup.get("counters") or {}).items()),
        caps=tuple((setup.get("caps") or {}).items()),
        sides=tuple(setup.get("sides") or ()),
        random_cards=_random_parts(cards),
        wonder_decks=setup.get("wonder_decks"),
        decks=tuple(setup.get("decks") or ()),
        offer=Offer(offer["kind"], offer["stack"], offer["shown"], offer["face_up"]) if offer else None,
        tokens=tuple((kind, tuple((int(n), count) for n, count in by.items()))
                     for kind, by in (setup.get("tokens") or {}).items()),
    )


def _random_parts(cards: dict | list | None) -> tuple[RandomCards, ...]:
    """`setup.random_cards`: one part (a mapping) or several (a list), each with where it is written."""
    at = ("setup", "random_cards")
    parts = [(at, cards)] if isinstance(cards, dict) else [(at + (i,), c) for i, c in enumerate(cards or ())]
    return tuple(RandomCards(str(c["deck"]), c["colour"], c.get("keep_players_plus", 0), c.get("keep_per_player", 1),
                             path) for path, c in parts)


def _trade(trade: dict, flow: dict) -> Trade:
    return Trade(trade.get("currency") or flow.get("currency"), trade.get("price", 0), tuple(trade.get("sellers") or ()))


def _military(spec: dict | None, name: str = "military") -> Military | None:
    if not spec:
        return None
    defeat, duel, spent = spec.get("defeat") or {}, spec.get("two_players") or {}, spec.get("discard_after") or {}
    values = spec["victory"]["values"]
    among = spec.get("among", NEIGHBOURS)
    places = tuple(tuple(v) if isinstance(v, list) else (v,) for v in values) if among == ALL else ()
    lost = tuple(defeat.get("values") or ())
    return Military(spec["counter"], spec["victory"]["token"],
                    tuple(v for v in values if isinstance(v, int)) if among != ALL else (),
                    defeat.get("token"), defeat.get("value", lost[0] if lost else 0), spec.get("flip"),
                    duel.get("times"), duel.get("tokens", 1), spent.get("colour"), spent.get("icon"),
                    name, among, places, lost, spec.get("skip"), spec.get("give_defeats"))


def _conflicts(raw: dict) -> tuple[Military, ...]:
    """Every conflict: the base game's `military`, then `conflicts:` in the order written."""
    base = _military(raw.get("military"))
    more = [_military(spec, name) for name, spec in (raw.get("conflicts") or {}).items()]
    return tuple(c for c in (base, *more) if c is not None)


def _science(spec: dict, compiled: dict) -> Science:
    sets = spec.get("sets") or {}
    return Science(spec.get("per_symbol"), spec.get("set_bonus", 0), sets.get("identical"), sets.get("different"),
                   compiled.get(("science", "reward", "effect"), ()))


def _tokens(spec: dict) -> tuple[TokenKind, ...]:
    out = []
    for kind, about in spec.items():
        value = about.get("value", 0)
        out.append(TokenKind(kind, about.get("seen", "all") == "all", value if isinstance(value, int) else 0,
                             tuple(value) if isinstance(value, list) else (), about.get("supply")))
    return tuple(out)


def _scoring(spec: dict, compiled: dict, tokens: dict) -> Scoring:
    categories = []
    for name, how in (spec.get("categories") or {}).items():
        (key, value), = how.items()
        names = tuple(value) if isinstance(value, list) else ()
        categories.append(Category(name, key, names, compiled.get(("scoring", "categories", name, "effect"), ())))
    for kind, about in tokens.items():  # a pack's token kind worth points: a category of its name, last
        value = about.get("value")
        if "effect" in about:
            categories.append(Category(kind, "effect", (kind,), compiled.get(("tokens", kind, "effect"), ())))
        elif isinstance(value, list):
            categories.append(Category(kind, "table", (kind,), table=tuple(value)))
        elif value:
            categories.append(Category(kind, "tokens", (kind,)))
    return Scoring(spec.get("counter"), tuple(categories), tuple(spec.get("tie_break") or ()))


def _objectives(spec: dict | None) -> Objectives | None:
    if not spec:
        return None
    central = spec.get("central") or {}
    return Objectives(spec["kind"], spec.get("option"), spec["between_neighbours"],
                      central.get("option"), central.get("count", 0))

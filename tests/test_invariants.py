"""Invariants every game keeps, whatever the pack, its options and its player count (issue 7).

hypothesis deals games of every shipped pack, with every combination of its options (rules.yaml
`options`) and every player count it allows, from random seeds, and plays random legal actions,
a random seat first when several must act. At every step:

- every piece is in exactly one place: counted by id over every shared zone and every player's
  zones and tucked cards, the census never changes, except that a box checked on a Dice board joins
  it (and a middle medal met by several players at once is copied from the box); the first census
  is the catalogue's copies for the player count, less the pieces the rules leave in the box
  (7 Wonders' undrawn guilds, Architects' undrawn medals); the Dice Forum keeps its size, a
  reserve die joining it only by taking a grey die's place;
- no counter is negative or over its cap (`setup.caps`), no token is flipped beyond its count, a
  pawn is held by a seat or by nobody;
- no 7 Wonders city holds two structures of one name, no Dice box is checked twice;
- a game that is not over waits for someone, and each seat that must act has legal actions, with
  no repeat, while the others have none;
- the game stays within the engine's bound on its length (`Game.max_actions`).

At a few random steps (`COSTLY`) and at the end of every game, the costlier ones:

- every score's total is the sum of its breakdown;
- a clone is the same position, and what is done to it (random actions, hidden parts changed)
  leaves the original's state, observations, legal actions and scores as they were;
- `observation(p)` is unchanged when only what p may not see changes: other hands, face-down decks
  and discards, cards tucked under others' stages, others' committed choices, the generator;
  and `state.determinize(p, rng)` shows p the same observation and legal actions;

and at the end, the game's log (interpreter/log.py), written and read back, replays to the same
state, scores and result.

The CI plays `GAMES` games, a share for each pack, spread over its cases; WONDERFORGE_TRUST_SCALE
multiplies them. A failure names its case and hypothesis's `seed` and `choices`; this plays it again:
`play_checked(dealt(pack, n, seed, **options), pack, random.Random(choices), path)` (tests/helpers.py's `dealt`).
"""
from __future__ import annotations

import random
from collections import Counter
from itertools import chain, product
from operator import attrgetter
from types import SimpleNamespace
from unittest import mock

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import dealt, random_step
from trust import budget, count
from wonderforge.interpreter import Action, State, load_game
from wonderforge.interpreter.files import log as gamelog
from wonderforge.interpreter.packs.catalogue import Piece, Side
from wonderforge.interpreter.games.check import load_pack
from wonderforge.interpreter.games.game import RANDOM, SIDE_OPTION
from wonderforge.interpreter.packs.folders import shipped_packs
from wonderforge.interpreter.core.holdings import GIVEN, Decision, Owned

GAMES = 2000          # random games in CI, over every case
COSTLY = 1 / 40       # chance that a step also gets the costly checks
CLONE_ACTIONS = 6     # random actions played on a clone to see that its original does not move
VALIDATED = 10        # one game in this many has its log checked against its JSON Schema

ID = attrgetter("id")

PACKS = {folder.name: load_pack(folder) for folder in shipped_packs()}


def option_sets(pack) -> list[dict]:
    """Every combination of a pack's options: both values of a yes/no option, every side and
    `random` for the side option. An option of another kind is refused, so that none goes untested."""
    values = {}
    for name, spec in (pack.rules.get("options") or {}).items():
        if isinstance(spec.get("default"), bool):
            values[name] = [True, False]
        elif name == SIDE_OPTION:
            values[name] = [RANDOM, *pack.rules["setup"]["sides"]]
        else:
            raise ValueError(f"option {name!r} of {pack.id}: say here which values the invariants try")
    combos = [dict(zip(values, combo)) for combo in product(*values.values())]
    return [c for c in combos if _allowed(pack, c)]


def _allowed(pack, options: dict) -> bool:
    """Whether every option away from its default has the options it `requires`."""
    declared = pack.rules.get("options") or {}
    return all(options[name] == spec.get("default") or
               all(options.get(other) == wanted for other, wanted in (spec.get("requires") or {}).items())
               for name, spec in declared.items())


CASES = [(pid, n, options) for pid, pack in PACKS.items()
         for n in range(pack.rules["players"]["min"], pack.rules["players"]["max"] + 1)
         for options in option_sets(pack)]
# Each pack has its share of the games, spread evenly over its player counts and options.
PER_CASE = {pid: -(-GAMES // len(PACKS) // sum(c[0] == pid for c in CASES)) for pid in PACKS}


def case_id(case) -> str:
    pid, n, options = case
    return "-".join([pid, f"{n}p", *(f"{k}={v}" for k, v in options.items())])


@pytest.fixture(scope="session")
def log_file(tmp_path_factory):
    return tmp_path_factory.mktemp("invariants") / "game.jsonl"


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_random_games_keep_the_invariants(case, log_file):
    pid, players, options = case

    @settings(max_examples=budget(PER_CASE[pid]), derandomize=True, database=None, deadline=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(seed=st.integers(0, 2**32 - 1), choices=st.integers(0, 2**32 - 1))
    def random_games(seed, choices):
        checks = play_checked(dealt(pid, players, seed, **options), pid, random.Random(choices), log_file)
        count("random games with invariants", 1)
        count("invariant checks", checks)

    random_games()


def test_the_cases_cover_every_pack_option_and_player_count():
    for pid, pack in PACKS.items():
        cases = [(n, options) for p, n, options in CASES if p == pid]
        bounds = pack.rules["players"]
        assert {n for n, _ in cases} == set(range(bounds["min"], bounds["max"] + 1))
        for name, spec in (pack.rules.get("options") or {}).items():
            assert spec.get("default") in {options[name] for _, options in cases}
    assert sum(PER_CASE[pid] for pid, _, _ in CASES) >= GAMES


def play_checked(state: State, pid: str, rng: random.Random, log_file) -> int:
    """Play random legal actions from a deal to the end, checking every invariant; returns the checks made."""
    start = census(state)
    boxed = check_dealt(state, start)
    table = table_of(state, boxed)
    checks = 1
    while not state.is_terminal():
        if rng.random() < COSTLY:
            checks += check_costly(state, rng)
        random_step(state, rng)
        checks += check_step(state, start, table)
    check_replay(state, pid, rng, log_file)
    return checks + 1 + check_costly(state, rng)


# ---------------------------------------------------------------- where the pieces are

def census(state: State) -> Counter:
    """Every piece by id, wherever it lies: shared zones, each player's zones (hands, cities, decks,
    cards given face down, tokens, medals, boxes checked) and cards tucked under stages."""
    places = [*state.shared.values()]
    for player in state.players:
        places += [*player.zones.values(), player.tucked]
    return Counter(map(ID, chain.from_iterable(places)))


def _own(state: State, name: str, default):
    """A part of the flow's own state, where the flow has it (the rolls flow's Forum...)."""
    return getattr(state.flow_state, name, default)


def checked_boxes(state: State) -> Counter:
    """The boxes checked on every board: the only pieces a game adds to its census."""
    return Counter(box for checked in _own(state, "checked", ()) for box in checked)


def check_dealt(state: State, start: Counter) -> Counter:
    """The first census is what the catalogue holds for this player count, less the pieces the
    rules leave in the box, of the colours (or kinds) and in the numbers they say; every seat
    plays its own wonder (or board), on the side the options ask. Returns what is left in the
    box, by colour."""
    game = state.game
    expected, boxed = DEALT[game.pack.rules["flow"]["kind"]](state)
    colour = {p.id: p.colour for kind in (game.catalogue.cards, *game.catalogue.others.values()) for p in kind.values()}
    assert not start - expected, f"pieces the catalogue does not hold: {start - expected}"
    left = Counter(colour[pid] for pid in (expected - start).elements())
    assert left == boxed, f"left in the box: {dict(left)}, the rules say {dict(boxed)}"
    wonders = [p.side.wonder for p in state.players if p.side] or list(_own(state, "boards", ()))
    assert len(set(wonders)) == len(state.players), f"a wonder dealt twice: {wonders}"
    side = game.options.get(SIDE_OPTION, RANDOM)
    assert side == RANDOM or all(p.side.side == side for p in state.players), "a side the option did not ask"
    return boxed


def dealt_draft(state: State) -> tuple[Counter, Counter]:
    """7 Wonders: each round's deck holds the copies of its cards whose least player count is met;
    of one colour of a deck (each part of `setup.random_cards`), `keep_per_player` × players + N are kept."""
    game, n = state.game, state.game.players
    decks = [str(spec["deck"]) for spec in game.pack.rules["flow"]["rounds"]]
    expected = Counter({c.id: sum(least <= n for d in decks for least in c.copies.get(d, ()))
                        for c in game.catalogue.cards.values()})
    boxed = Counter()
    for part in game.rules.setup.random_cards:
        drawn = sum(least <= n for c in game.catalogue.cards.values() if c.colour == part.colour
                    for least in c.copies.get(part.deck, ()))
        boxed[part.colour] += drawn - part.keep_per_player * n - part.keep_players_plus
    return +expected, +boxed


def dealt_turns(state: State) -> tuple[Counter, Counter]:
    """Architects: the shared decks (rules.yaml `decks`), the dealt wonders' own decks, every token
    on offer and every objective; of the objectives, one per pair of neighbours (and the experts'
    ones in the middle) is drawn when its option is on, the rest stay in the box."""
    game, rules = state.game, state.game.pack.rules
    setup = rules.get("setup") or {}
    expected = Counter()
    for zone in setup.get("decks") or ():
        expected.update(rules["decks"][zone])
    for player in state.players:
        expected.update(dict(player.side.deck))
    kinds = [spec["kind"] for spec in (setup.get("offer"), rules.get("objectives")) if spec]
    for kind in kinds:
        expected.update({pid: len(p.copies.get("", (0,))) for pid, p in game.catalogue.others.get(kind, {}).items()})
    boxed = Counter()
    spec = rules.get("objectives")
    if spec:
        central = spec.get("central") or {}
        drawn = 0
        if game.options.get(spec["option"], True):
            drawn = game.players + (central.get("count", 0) if game.options.get(central.get("option")) else 0)
        boxed[spec["kind"]] = len(game.catalogue.others.get(spec["kind"], {})) - drawn
    return expected, +boxed


def dealt_rolls(state: State) -> tuple[Counter, Counter]:
    """Dice: no box is checked yet."""
    return Counter(), Counter()


DEALT = {"draft": dealt_draft, "turns": dealt_turns, "rolls": dealt_rolls}


# ---------------------------------------------------------------- the cheap checks, at every step

# 7 Wonders never lets a city build a structure twice; a Dice box is checked once. Architects
# cities hold several copies of a card.
UNIQUE_CITIES = {"draft", "rolls"}


@attrs.frozen
class Table:
    """What the cheap checks compare with, read from the deal and the rules once per game."""

    caps: dict          # counter -> the most a player may hold
    flips: dict         # token kind -> how many there are
    forum: Counter      # the dice in the Forum at the deal
    replaces: str | None  # the die a reserve die takes the place of
    unique: str | None  # the zone that never holds two pieces of one id
    middle: tuple       # the objectives dealt in the middle, open to every player
    spare: int          # how many objectives are left in the box


def table_of(state: State, boxed: Counter) -> Table:
    rules = state.game.pack.rules
    flow, kind = rules["flow"], (rules.get("objectives") or {}).get("kind")
    return Table(dict((rules.get("setup") or {}).get("caps") or {}),
                 {kind: total for kind, (total, _) in state.flips.items()},
                 Counter(die for die, _, _ in _own(state, "forum", ())), flow.get("replaces"),
                 flow["build_zone"] if flow["kind"] in UNIQUE_CITIES else None,
                 tuple(p.id for p in state.shared.get(kind, ())), boxed[kind])


def check_step(state: State, start: Counter, table: Table) -> int:
    """The invariants checked after every action; returns how many were checked."""
    check_pieces(state, start, table)
    check_counters(state, table)
    check_cities(state, table)
    check_actors(state)
    assert len(state.history) <= state.game.max_actions, "past the engine's bound"
    return 5


def check_pieces(state: State, start: Counter, table: Table) -> None:
    """Nothing created or lost: the census is the first one plus the boxes checked since, and a
    copy of an objective in the middle for each more player who met it at the same moment, taken
    from those left in the box (Medals: "utilisez les Médailles hors jeu pour que chacun d'entre eux
    dispose de la récompense"). The Forum keeps its size, each reserve die brought in taking the
    place of a die it replaces."""
    now = census(state)
    copies = Counter({m: now[m] - start[m] for m in table.middle if now[m] > start[m]})
    assert sum(copies.values()) <= table.spare, f"more copies of middle objectives than the box holds: {copies}"
    for m in copies:
        held = [sum(p.id == m for ps in player.zones.values() for p in ps) for player in state.players]
        assert max(held) <= 1, f"a player holds {m} twice: {held}"
    boxes = checked_boxes(state)
    expected = start + boxes + copies if boxes or copies else start
    assert dict.__eq__(now, expected), f"created: {dict(now - expected)}, lost: {dict(expected - now)}"
    forum = _own(state, "forum", ())
    if forum or table.forum:
        released = Counter(state.flow_state.released)
        assert Counter(d for d, _, _ in forum) == table.forum - Counter({table.replaces: len(released)}) + released


def check_counters(state: State, table: Table) -> None:
    """No counter below zero or above its cap; flips within their tokens; pawns held by a seat or nobody."""
    for seat, player in enumerate(state.players):
        for name, value in player.counters.items():
            assert 0 <= value <= table.caps.get(name, value), f"seat {seat} holds {value} {name}"
    for kind, (total, flipped) in state.flips.items():
        assert total == table.flips[kind] and 0 <= flipped <= total, f"{kind} tokens {flipped}/{total}"
    assert all(holder is None or 0 <= holder < len(state.players) for holder in state.pawns.values())


def check_cities(state: State, table: Table) -> None:
    """No city holds two structures of one name (a Dice board, two checks of one box)."""
    if table.unique is None:
        return
    for seat, player in enumerate(state.players):
        ids = [p.id for p in player.zones.get(table.unique, ())]
        assert len(ids) == len(set(ids)), f"seat {seat}: {sorted(i for i, n in Counter(ids).items() if n > 1)} twice"


def check_actors(state: State) -> None:
    """A game not over waits for someone; each seat that must act can, the others cannot."""
    seats = state.current_players()
    assert bool(seats) != state.is_terminal(), f"terminal {state.is_terminal()} with {seats} to act"
    for seat in range(len(state.players)):
        actions = state.legal_actions(seat)
        if seat in seats:
            assert actions, f"seat {seat} must act and has no legal action"
            assert len(set(actions)) == len(actions), f"seat {seat} is offered an action twice"
        else:
            assert not actions, f"seat {seat} need not act and is offered {actions[:3]}"


def check_scores(state: State, scores: list[dict]) -> None:
    """Every total is the sum of its breakdown, which names every category of the pack."""
    categories = set((state.game.pack.rules.get("scoring") or {}).get("categories") or ())
    for seat, entry in enumerate(scores):
        assert entry["total"] == sum(entry["breakdown"].values()), f"seat {seat}: {entry}"
        assert categories <= set(entry["breakdown"]), f"seat {seat}: {entry}"


# ---------------------------------------------------------------- the costly checks, now and then

def check_costly(state: State, rng: random.Random) -> int:
    """Scores, clone independence and hidden information at this step; returns the checks made."""
    before = looks(state)
    check_scores(state, before[3])
    check_clone(state, before, rng)
    check_hidden(state, before, rng)
    return 3


def looks(state: State) -> tuple:
    """Everything one may ask of a position: its state, each seat's observation and legal actions, the scores."""
    seats = range(len(state.players))
    return (snapshot(state), [state.observation(s) for s in seats], [state.legal_actions(s) for s in seats],
            state.scores())


def check_hidden(state: State, before: tuple, rng: random.Random) -> None:
    """Each seat's observation stays the same when what it may not see is changed."""
    for viewer, seen in enumerate(before[1]):
        copy = state.clone()
        hide(copy, viewer, rng)
        assert copy.observation(viewer) == seen, f"seat {viewer} sees something hidden from it"
        other = state.determinize(viewer, rng)  # the engine's own: the same to the seat
        assert other.observation(viewer) == seen, f"seat {viewer} tells its determinization from the truth"
        assert other.legal_actions(viewer) == state.legal_actions(viewer)
    assert snapshot(state) == before[0], "changing a clone's hidden parts changed its original"


def check_clone(state: State, before: tuple, rng: random.Random) -> None:
    """A clone is the same position; playing it and changing its hidden parts leaves the original,
    and everything asked of it, as it was."""
    copy = state.clone()
    assert snapshot(copy) == before[0], "a clone differs from its original"
    for _ in range(CLONE_ACTIONS):
        if copy.is_terminal():
            break
        random_step(copy, rng)
    hide(copy, rng.randrange(len(state.players)), rng)
    assert looks(state) == before, "what was done to a clone changed its original"


def check_replay(state: State, pid: str, rng: random.Random, log_file) -> None:
    """The game's log, written and read back, replays to the same state, scores and result."""
    with log_file.open("w", encoding="utf-8") as out:
        gamelog.write(out, gamelog.lines_of(state, pid))
    # Each line's JSON Schema check costs more than playing the game: one game in VALIDATED has it.
    schema = gamelog._VALIDATOR if rng.random() < 1 / VALIDATED else NO_SCHEMA
    # `replay` loads the pack by id, a tenth of a second each time; here it is loaded once.
    with mock.patch.object(gamelog, "_VALIDATOR", schema), \
            mock.patch.object(gamelog, "load_game", lambda p, **kw: load_game(PACKS[p], **kw)):
        recorded = gamelog.read(log_file)
        replayed = gamelog.replay(recorded)
    assert snapshot(replayed) == snapshot(state), "the replay reached another state"
    assert replayed.scores() == state.scores(), "the replay scores otherwise"
    assert gamelog.matches(recorded, replayed), "the replay gives another result"


NO_SCHEMA = SimpleNamespace(iter_errors=lambda line: iter(()))  # a validator that finds nothing wrong


def hide(state: State, viewer: int, rng: random.Random) -> None:
    """Change what `viewer` may not see: the hidden pieces shuffled together (each place keeps its
    size), the other seats' committed choices replaced by others they could have made, the
    generator reseeded."""
    places = HIDDEN[state.game.pack.rules["flow"]["kind"]](state, viewer)
    pooled = [p for cards, lo, hi in places for p in cards[lo:hi]]
    rng.shuffle(pooled)
    for cards, lo, hi in places:
        cards[lo:hi], pooled = pooled[:hi - lo], pooled[hi - lo:]
    pending = _own(state, "pending", {})
    for seat in [s for s in sorted(pending) if s != viewer]:
        chosen = pending.pop(seat)
        pending[seat] = rng.choice(state.legal_actions(seat) or [chosen])
    state.rng.seed(rng.getrandbits(64))


def hidden_draft(state: State, viewer: int) -> list[tuple[list[Piece], int, int]]:
    """7 Wonders: the other hands, the decks of later rounds and the discard pile (face down), the
    cards others tucked face down under their stages."""
    hand = state.game.pack.rules["flow"]["hand_zone"]
    places = [cards for cards in state.shared.values()]
    for seat, player in enumerate(state.players):
        if seat != viewer:
            places += [player.zones[hand], player.tucked]
    return [(cards, 0, len(cards)) for cards in places]


def hidden_turns(state: State, viewer: int) -> list[tuple[list[Piece], int, int]]:
    """Architects: the face-down decks (but a top card the viewer looks at), the face-down stack of
    tokens, the wonders' decks under their face-up top card, the cards given face down to others."""
    setup = state.game.pack.rules.get("setup") or {}
    shown = state.observation(viewer)["shared"]
    places = [(state.shared[z], 0, len(state.shared[z]) - (shown[z].get("top") is not None))
              for z in setup.get("decks") or ()]
    offer = setup.get("offer")
    if offer:
        places.append((state.shared[offer["stack"]], 0, len(state.shared[offer["stack"]])))
    for seat, player in enumerate(state.players):
        deck = player.zones.get(setup.get("wonder_decks"), [])
        places.append((deck, 0, max(0, len(deck) - 1)))
        if seat != viewer:
            places.append((player.zones.get(GIVEN, []), 0, len(player.zones.get(GIVEN, []))))
    return places


def hidden_rolls(state: State, viewer: int) -> list[tuple[list[Piece], int, int]]:
    """Dice: every board and the Forum are public; only committed choices are hidden."""
    return []


HIDDEN = {"draft": hidden_draft, "turns": hidden_turns, "rolls": hidden_rolls}


# ---------------------------------------------------------------- a position as plain data

# The game itself, the cache of legal actions and the effect being run are not the position.
NOT_POSITION = {"game", "legal", "source"}


def snapshot(state: State) -> dict:
    """A position as plain data, to compare two: every field of the state and of its players,
    pieces by id, effects by key, the generator by its state."""
    return {name: plain(value) for name, value in fields(state) if name not in NOT_POSITION and not name.startswith("_")}


def fields(obj) -> list[tuple[str, object]]:
    if attrs.has(type(obj)):
        return [(f.name, getattr(obj, f.name)) for f in attrs.fields(type(obj))]
    names = [*getattr(obj, "__dict__", {}), *(s for c in type(obj).__mro__ for s in getattr(c, "__slots__", ()))]
    return [(n, getattr(obj, n)) for n in dict.fromkeys(names) if hasattr(obj, n)]


def plain(value):
    convert = PLAIN.get(type(value))
    if convert is not None:
        return convert(value)
    if attrs.has(type(value)):
        return {name: plain(v) for name, v in fields(value)}
    return value


def _items(values) -> list:
    return [plain(v) for v in values]


def _same(value):
    return value


PLAIN = {
    str: _same, int: _same, bool: _same, float: _same, type(None): _same,
    Piece: ID,
    Side: lambda side: (side.wonder, side.side),
    Owned: attrgetter("key"),
    # A decision's arguments are compiled sentences: its effect and what is left of it say enough.
    Decision: lambda d: (d.seat, d.kind, plain(d.owned), len(d.rest)),
    random.Random: random.Random.getstate,
    Action: tuple,
    list: _items, tuple: _items,
    dict: lambda d: {plain(k): plain(v) for k, v in d.items()},
    set: lambda s: sorted(_items(s), key=repr), frozenset: lambda s: sorted(_items(s), key=repr),
}

"""Every trigger and every verb in every flow (issue 13): a game of the flow shows the effect
happening, or `check` refuses the sentence at its position.

Each case is a pack extending a shipped pack (one per flow) whose rules.yaml gives every player one
more effect (`player_effects`), the sentence under test, and a counter of its own, `probe`. Either
`check` reports a diagnostic on that sentence's line, and nothing else, or random games are played
and must show the effect:

- a trigger's sentence is `<trigger>: probe 1`: the probe counter must move;
- a verb's sentence runs the verb for the probe's piece: the verb (dsl/verbs/), run for that
  piece, must change the game through the engine's services, and a choice it asks must be
  answered (decisions.py); a power must be held; `copy` must find something to copy at the end,
  `keep` must keep a card a battle discards.

The tables say which is expected, so a sentence that starts or stops running is noticed.
"""

from __future__ import annotations

import random
from pathlib import Path

import attrs
import pytest
import yaml

from helpers import pack_of, probe_diagnostics
from wonderforge.dsl.parser import parse_effects
from wonderforge.interpreter import State, load_game
from wonderforge.interpreter.core.actions import Action
from wonderforge.interpreter.games.check import check_pack
from wonderforge.interpreter.core.events import EVENTS
from wonderforge.interpreter.flows.flow import PLAYER_EFFECTS
from wonderforge.interpreter.flows.kinds import FLOWS as DECLARED

RUNS, REFUSED = "runs", "refused"
GAMES = 4  # random games per case that runs; every case below shows its effect within the first

# pack, players: one shipped pack per flow
FLOWS = {"draft": ("7-wonders", 3), "turns": ("architects", 3), "rolls": ("dice", 3)}

# (trigger, {flow: expected}): the sentence is `<trigger>: probe 1`
TRIGGERS = [
    ("on build", {"draft": RUNS, "turns": RUNS, "rolls": RUNS}),
    ("on take card", {"draft": RUNS, "turns": RUNS, "rolls": RUNS}),
    ("on stage", {"draft": RUNS, "turns": RUNS, "rolls": RUNS}),
    ("at turn start", {"draft": RUNS, "turns": RUNS, "rolls": RUNS}),
    ("at turn end", {"draft": RUNS, "turns": RUNS, "rolls": RUNS}),
    ("at round start", {"draft": RUNS, "turns": RUNS, "rolls": RUNS}),
    ("at round end", {"draft": RUNS, "turns": RUNS, "rolls": RUNS}),
    ("at battle", {"draft": RUNS, "turns": RUNS, "rolls": REFUSED}),  # Dice has no military rules
    ("at end", {"draft": RUNS, "turns": RUNS, "rolls": RUNS}),
    ("on choose grey die", {"draft": REFUSED, "turns": REFUSED, "rolls": RUNS}),
    ("on left take card", {"draft": RUNS, "turns": RUNS, "rolls": RUNS}),
    ("on others build card", {"draft": RUNS, "turns": RUNS, "rolls": RUNS}),
    ("on neighbours stage", {"draft": RUNS, "turns": RUNS, "rolls": RUNS}),
    ("on buy", {"draft": RUNS, "turns": REFUSED, "rolls": REFUSED}),  # only the draft buys from neighbours
    ("on left sell", {"draft": RUNS, "turns": REFUSED, "rolls": REFUSED}),
    ("on chain", {"draft": RUNS, "turns": REFUSED, "rolls": REFUSED}),  # only the draft has chains
    ("on neighbours discard card", {"draft": RUNS, "turns": REFUSED, "rolls": REFUSED}),
    ("on take {token} token", {"draft": RUNS, "turns": RUNS, "rolls": REFUSED}),  # Dice has no tokens
    # no shipped pack has tokens of its own, which alone leave a player (tests/test_watched_doings.py)
    ("on others lose {token} token", {"draft": REFUSED, "turns": REFUSED, "rolls": REFUSED}),
    ("on gain {counter}", {"draft": RUNS, "turns": RUNS, "rolls": RUNS}),
]
# the words of a trigger above that differ from game to game
WORDS = {"draft": {"token": "defeat", "counter": "coins"}, "turns": {"token": "progress", "counter": "shields"},
         "rolls": {"token": "victory", "counter": "coins"}}

# (verb, {flow: (sentence, expected)}): names differ from game to game
VERBS = [
    ("gain", {"draft": ("at turn end: coins 2", RUNS), "turns": ("at turn end: vp 2", RUNS),
              "rolls": ("at turn end: coins 2", RUNS)}),
    ("gain to", {"draft": ("at turn end: coins 1 to left", RUNS), "turns": ("on build: vp -1 to others", RUNS),
                 "rolls": ("at turn end: coins 1 per card to neighbours", RUNS)}),
    ("produce", {"draft": ("produce glass / wood", RUNS), "turns": ("produce wood", REFUSED),
                 "rolls": ("produce resource", RUNS)}),
    ("produce power", {"draft": ("produce wood once per age", REFUSED), "turns": ("produce wood once per turn", RUNS),
                       "rolls": ("produce resource once per round", REFUSED)}),
    ("trade", {"draft": ("trade wood at 0 from left", RUNS), "turns": ("trade wood at 0 from left", REFUSED),
               "rolls": ("trade resource at 0 from left", REFUSED)}),
    ("trade first", {"draft": ("trade first raw at 1 from left, right", RUNS),
                     "turns": ("trade first wood at 0 from left", REFUSED),
                     "rolls": ("trade first resource at 0 from left", REFUSED)}),
    ("buy", {"draft": ("buy 1 raw from bank at 2", RUNS), "turns": ("buy wood from bank at 1", REFUSED),
             "rolls": ("buy resource from bank at 0", RUNS)}),
    ("produce held", {"draft": ("produce private held raw", RUNS), "turns": ("produce held wood", REFUSED),
                      "rolls": ("produce held resource", RUNS)}),
    ("produce unheld", {"draft": ("produce unheld manufactured", RUNS), "turns": ("produce unheld wood", REFUSED),
                        "rolls": ("produce unheld resource", RUNS)}),
    ("science", {"draft": ("science compass / gear", RUNS), "turns": ("science gear", REFUSED),
                 "rolls": ("science any", REFUSED)}),
    ("icon", {"draft": ("icon horn", REFUSED), "turns": ("icon horn", REFUSED), "rolls": ("icon horn", REFUSED)}),
    ("take top", {"draft": ("at turn end: take top card of discard", RUNS),
                  "turns": ("at turn end: take top card of central_deck", RUNS),
                  "rolls": ("at turn end: take top card of forum", REFUSED)}),
    ("take pawn", {"draft": ("on build: take cat", REFUSED), "turns": ("on build: take cat", RUNS),
                   "rolls": ("on build: take cat", REFUSED)}),
    ("take token", {"draft": ("at turn end: take victory token", REFUSED),
                    "turns": ("at turn end: take progress token", RUNS),
                    "rolls": ("at turn end: take victory token", REFUSED)}),
    ("take from", {"draft": ("at turn end: take card from city of left", RUNS),
                   "turns": ("at turn end: take card from city of left", RUNS),
                   "rolls": ("at turn end: take card from board of left", REFUSED)}),
    ("lay", {"draft": ("at turn end: lay card from city of self on discard", RUNS),
             "turns": ("at turn end: lay card from city of self on discard", RUNS),
             "rolls": ("at turn end: lay card from city of self on forum", REFUSED)}),  # a box checked stays
    ("give", {"draft": ("at turn end: give top card of discard to left face down", RUNS),
              "turns": ("at turn end: give top card of central_deck to left face down", RUNS),
              "rolls": ("at turn end: give top card of forum to left", REFUSED)}),
    ("copy", {"draft": ("at end: copy card from left, right", RUNS), "turns": ("at end: copy card from left, right", RUNS),
              "rolls": ("at end: copy card from left, right", RUNS)}),
    ("copy stage", {"draft": ("at turn end: copy stage from left, right", RUNS),
                    "turns": ("at turn end: copy stage from left, right", RUNS),
                    "rolls": ("at turn end: copy stage from left, right", REFUSED)}),
    ("build from a zone", {"draft": ("at turn end: build card from discard free", RUNS),
                           "turns": ("at turn end: build card from discard free", RUNS),
                           "rolls": ("at turn end: build card from forum free", REFUSED)}),
    ("build free", {"draft": ("build free once per age", RUNS), "turns": ("build free once per turn", REFUSED),
                    "rolls": ("build free once per round", REFUSED)}),
    ("play last", {"draft": ("play last card", RUNS), "turns": ("play last card", REFUSED),
                   "rolls": ("play last card", REFUSED)}),
    ("flip", {"draft": ("at turn end: flip 1 victory token", REFUSED),
              "turns": ("at turn end: flip 1 conflict token", RUNS),
              "rolls": ("at turn end: flip 1 victory token", REFUSED)}),
    ("check", {"draft": ("at turn end: check 1 box in wonder", REFUSED),
               "turns": ("at turn end: check 1 box in wonder", REFUSED),
               "rolls": ("at turn end: check 1 box in agora", RUNS)}),
    ("unlock", {"draft": ("unlock black die", REFUSED), "turns": ("unlock black die", REFUSED),
                "rolls": ("on build: unlock black die", RUNS)}),
    ("discount", {"draft": ("die discount 1", REFUSED), "turns": ("die discount 1", REFUSED),
                  "rolls": ("die discount 1", RUNS)}),
    ("cost discount", {"draft": ("discount 1 any", RUNS), "turns": ("discount 1 coin", REFUSED),
                       "rolls": ("discount 1 resource for stage", RUNS)}),
    ("extra action", {"draft": ("at turn end: extra action", RUNS), "turns": ("at turn end: extra action", RUNS),
                      "rolls": ("at turn end: extra action", RUNS)}),
    ("ignore", {"draft": ("ignore different", REFUSED), "turns": ("ignore different / identical", RUNS),
                "rolls": ("ignore different", REFUSED)}),
    ("stage free", {"draft": ("build stage free once per game", RUNS), "turns": ("build stage free", REFUSED),
                    "rolls": ("build stage free once per game", REFUSED)}),
    ("forbid", {"draft": ("forbid trade / chains", RUNS), "turns": ("forbid trade", REFUSED),
                "rolls": ("forbid chains", REFUSED)}),
    ("spend as", {"draft": ("spend yellow card as 2 wood", REFUSED), "turns": ("spend yellow card as 2 gold", RUNS),
                  "rolls": ("spend card as 2 resource", REFUSED)}),
    ("keep", {"draft": ("at battle: keep red card", REFUSED), "turns": ("at battle: keep red card with horn", RUNS),
              "rolls": ("at battle: keep red card", REFUSED)}),
    # a token kind of the pack's own (`chit`, declared by `probe_pack`), and a choice between effects
    ("take own token", {f: ("at turn end: take 2 chit tokens", RUNS) for f in FLOWS}),
    ("give tokens", {f: ("at turn end: take chit token then give 1 chit token to left", RUNS) for f in FLOWS}),
    ("return tokens", {f: ("at turn end: take 2 chit tokens then return 1 chit token", RUNS) for f in FLOWS}),
    ("spend tokens", {f: ("at turn end: take chit token then spend 1 chit token then probe 1", RUNS) for f in FLOWS}),
    ("choice", {f: ("at turn end: probe 1 or take chit token", RUNS) for f in FLOWS}),
    # a payment of a counter, and one the player may decline (`may`: a choice of paying or not)
    ("pay", {"draft": ("at turn end: pay 1 coins", RUNS), "turns": ("at turn end: pay 1 shields", RUNS),
             "rolls": ("at turn end: pay 1 coins", RUNS)}),
    ("optional payment", {"draft": ("at turn end: may pay 1 coins then probe 1", RUNS),
                          "turns": ("at turn end: may pay 1 shields then probe 1", RUNS),
                          "rolls": ("at turn end: may pay 1 coins then probe 1", RUNS)}),
    ("look", {"draft": ("at turn start: look at top card of discard", REFUSED),
              "turns": ("at turn start: look at top card of central_deck", RUNS),
              "rolls": ("at turn start: look at top card of forum", REFUSED)}),
]


def probe_pack(folder: Path, base: str, sentence: str) -> Path:
    """A pack extending `base` whose players all hold `sentence`, with a `probe` counter."""
    rules = pack_of(base).rules
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pack.yaml").write_text(f"# yaml-language-server: $schema=../../schemas/pack.schema.json\n"
                                      f"id: probe\nname: Probe\nversion: 1.0.0\nextends: {base}\n", encoding="utf-8")
    words = rules["vocabulary"]
    own = {"vocabulary": {"colours": words["colours"], "counters": [*words["counters"], "probe"]},
           "player_effects": [*rules.get("player_effects", []), sentence]}
    if "chit" in sentence:  # a token kind of the pack's own
        own["tokens"] = {"chit": {"value": 1, "supply": 30}}
    (folder / "rules.yaml").write_text("# yaml-language-server: $schema=../../schemas/rules.schema.json\n"
                                       + yaml.safe_dump(own, sort_keys=False), encoding="utf-8")
    return folder


def refusal(folder: Path, sentence: str) -> list:
    """The diagnostics of the probe pack, each of which must be at the sentence's line (but the
    warning that nothing in the game reads the probe counter: the test reads it)."""
    diagnostics = probe_diagnostics(folder)
    line = next(n for n, text in enumerate((folder / "rules.yaml").read_text().splitlines(), 1) if sentence in text)
    for d in diagnostics:
        assert d.file.endswith("rules.yaml") and d.line == line, f"a diagnostic off the sentence: {d.render()}"
    return diagnostics


@attrs.define
class Watch:
    """What the probe's sentence did in a game: its handlers' calls that changed the game, the
    choices it asked and had answered."""

    changed: set = attrs.field(factory=set)
    answered: set = attrs.field(factory=set)


def snapshot(state) -> str:
    """The parts of a position an effect may change."""
    players = [(p.counters, {z: [c.id for c in cs] for z, cs in p.zones.items()}, p.units, p.prices, p.first, p.bank,
                p.relative, p.symbols,
                sorted(o.key for o in p.abilities), sorted(p.used), p.tokens, p.discounts) for p in state.players]
    shared = {z: [c.id for c in cs] for z, cs in state.shared.items()}
    return repr((players, shared, state.pawns, state.flips, sorted(state.peeks), attrs.asdict(state.flow_state)))


def watched(game, watch: Watch, monkeypatch):
    """The game with its verbs and decisions reporting to `watch` when the probe's piece runs them."""
    carry_out = State.carry_out

    def verbs(state, seat, owned, actions, chosen=None):
        mine = owned is not None and owned.piece.id == PLAYER_EFFECTS
        before = snapshot(state) if mine else None
        carry_out(state, seat, owned, actions, chosen)
        if mine and snapshot(state) != before:
            watch.changed.update(a.verb for a in actions)

    def decider(kind, found):
        def apply(state, decision, action):
            before = snapshot(state)
            follow = found.apply(state, decision, action)
            if decision.owned is not None and decision.owned.piece.id == PLAYER_EFFECTS and snapshot(state) != before:
                watch.answered.add(kind)
            return follow  # a choice's second step, if it has one
        return found._replace(apply=apply)

    monkeypatch.setattr(State, "carry_out", verbs)
    game.decisions = {kind: decider(kind, found) for kind, found in game.decisions.items()}
    return game


def play(folder: Path, players: int, games: int, seen, monkeypatch) -> bool:
    """Whether `seen(state, watch)` holds at some step of some random game."""
    for seed in range(games):
        watch = Watch()
        game = watched(load_game(folder, players=players, seed=seed), watch, monkeypatch)
        state, rng = game.new_state(), random.Random(seed)
        if seen(state, watch):
            return True
        while not state.is_terminal():
            seats = state.current_players()
            seat = seats[rng.randrange(len(seats))]
            actions = state.legal_actions(seat)
            state.apply(seat, actions[rng.randrange(len(actions))])
            if seen(state, watch):
                return True
    return False


def held(state, watch) -> bool:
    """A power of the probe's piece is held."""
    return any(o.piece.id == PLAYER_EFFECTS for p in state.players for o in p.abilities)


def copied(state, watch) -> bool:
    """At the end, the scoring finds a card to copy."""
    return state.is_terminal() and any(any(combo) for seat in range(len(state.players))
                                       for combo in state.game.scoring.copy_choices(state, seat))


def kept(state, watch) -> bool:
    """After a battle, a red card with a horn is still in a city."""
    return state.battles > 0 and any(c.colour == "red" and "horn" in c.icons for p in state.players
                                     for c in p.zones["city"])


def did(name: str):
    def seen(state, watch) -> bool:
        return name in watch.changed or name in watch.answered
    return seen


def acted_again(state, watch) -> bool:
    """An extra action was taken: the flow's own choice (a card of the hand, a die), or a take."""
    return bool({"extra_action", "take_top"} & watch.answered)


SEEN = {"copy": copied, "keep": kept, "produce power": held, "build free": held, "play last": held,
        "ignore": held, "spend as": held, "discount": held, "extra action": acted_again,
        "stage free": held, "forbid": held}
HANDLER = {"gain to": "gain_to", "take top": "take_top", "take pawn": "take_pawn", "take token": "take_token", "take from": "take_from",
           "build from a zone": "build_free", "build free": "build_free", "extra action": "extra_action",
           "play last": "play_last", "produce power": "produce", "spend as": "spend_as", "copy stage": "copy_stage",
           "cost discount": "cost_discount", "take own token": "take_token", "give tokens": "give_tokens",
           "return tokens": "return_tokens", "spend tokens": "spend_tokens", "optional payment": "choice",
           "stage free": "stage_free"}


@pytest.mark.parametrize("flow", FLOWS)
@pytest.mark.parametrize("trigger, expected", TRIGGERS, ids=[t for t, _ in TRIGGERS])
def test_a_trigger_fires_in_every_flow_or_is_refused(tmp_path, monkeypatch, flow, trigger, expected):
    base, players = FLOWS[flow]
    sentence = f"{trigger.format(**WORDS[flow])}: probe 1"
    folder = probe_pack(tmp_path / "probe", base, sentence)
    diagnostics = refusal(folder, sentence)
    if expected[flow] == REFUSED:
        assert any(d.severity == "error" for d in diagnostics), f"{sentence!r} checks clean in {flow}"
        return
    assert diagnostics == [], [d.render() for d in diagnostics]
    assert play(folder, players, GAMES, lambda state, watch: any(p.counters.get("probe") for p in state.players),
                monkeypatch)


@pytest.mark.parametrize("flow", FLOWS)
@pytest.mark.parametrize("verb, cases", VERBS, ids=[v for v, _ in VERBS])
def test_a_verb_acts_in_every_flow_or_is_refused(tmp_path, monkeypatch, flow, verb, cases):
    base, players = FLOWS[flow]
    sentence, expected = cases[flow]
    folder = probe_pack(tmp_path / "probe", base, sentence)
    diagnostics = refusal(folder, sentence)
    if expected == REFUSED:
        assert diagnostics, f"{sentence!r} checks clean in {flow}"
        return
    assert diagnostics == [], [d.render() for d in diagnostics]
    seen = SEEN.get(verb) or did(HANDLER.get(verb, verb.split()[0]))
    assert play(folder, players, GAMES, seen, monkeypatch), f"{sentence!r} did nothing in {GAMES} games of {flow}"


def test_the_tables_cover_every_verb_and_trigger():
    assert set(FLOWS) == set(DECLARED)
    verbs = set().union(*(kind.verbs for kind in DECLARED.values()))
    assert verbs == {HANDLER.get(v, v.split()[0]) for v, _ in VERBS}
    assert {parse_effects(f"{t.format(**WORDS['draft'])}: probe 1").items[0].trigger.event for t, _ in TRIGGERS} == set(EVENTS)


# -- every trigger with every verb, on every kind of piece: refused at its place, or played without fault

def rewritten(folder: Path, base: str, where: str, sentence: str) -> Path:
    """A pack extending `base` in which one card (`cards`), the first stage of every wonder
    (`wonders`) or the first box of the first building (`buildings`) says `sentence` instead."""
    pack = pack_of(base)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pack.yaml").write_text(f"# yaml-language-server: $schema=../../schemas/pack.schema.json\n"
                                      f"id: probe\nname: Probe\nversion: 1.0.0\nextends: {base}\n", encoding="utf-8")
    kind = where
    items = [dict(c.data) for c in pack.components[kind].values()]
    if kind == "cards":
        items = [dict(items[0], effect=sentence)]
    elif kind == "wonders":
        for item in items:
            for side in (item.get("sides") or {"": item}).values():
                side["stages"] = [dict(side["stages"][0], effect=sentence), *side["stages"][1:]]
    else:
        first = items[0]
        boxes = first.get("boxes") or first["tracks"][0]["boxes"]
        boxes[0] = dict(boxes[0], effect=sentence)
        items = [first]
    (folder / f"{kind}.yaml").write_text(f"# yaml-language-server: $schema=../../schemas/{kind}.schema.json\n"
                                         + yaml.safe_dump(items, sort_keys=False), encoding="utf-8")
    return folder


# the pieces a sentence is written on, each in turn: every pair of a trigger and a verb is tried on
# one of them (a card, a wonder stage, a box), so that each piece sees a share of every pair
CARRIERS = {"draft": ("cards", "wonders"), "turns": ("cards", "wonders"), "rolls": ("buildings",)}


def _action(sentence: str) -> str:
    return sentence.split(": ", 1)[1] if ": " in sentence else sentence


@pytest.mark.slow
@pytest.mark.parametrize("flow", FLOWS)
def test_every_trigger_with_every_verb_on_every_piece_is_refused_or_plays(tmp_path, flow):
    base, players = FLOWS[flow]
    played = refused = 0
    for n, (trigger, verb) in enumerate((t, v) for t, _ in TRIGGERS for v, cases in VERBS):
        action = _action(dict(VERBS)[verb][flow][0])
        where = CARRIERS[flow][n % len(CARRIERS[flow])]
        sentence = f"{trigger.format(**WORDS[flow])}: {action}"
        folder = rewritten(tmp_path / f"p{n}{where}", base, where, sentence)
        _, diagnostics = check_pack(folder)
        errors = [d for d in diagnostics if d.severity == "error"]
        for d in diagnostics:
            assert d.file.endswith(f"{where}.yaml") and d.line > 0, d.render()
        if errors:
            refused += 1
            continue
        game = load_game(folder, players=players, seed=n)
        state, rng = game.new_state(), random.Random(n)
        while not state.is_terminal():
            seats = state.current_players()
            assert seats, f"{sentence!r}: nobody is to act"
            seat = seats[rng.randrange(len(seats))]
            actions = state.legal_actions(seat)
            assert actions, f"{sentence!r}: seat {seat} is to act with nothing to do"
            state.apply(seat, actions[rng.randrange(len(actions))])
        played += 1
    assert played and refused


def test_the_science_reward_is_what_rules_yaml_says(tmp_path):
    """`science.reward.effect` runs when a set is turned in: here 100 points, not a token."""
    folder = tmp_path / "reward"
    folder.mkdir()
    (folder / "pack.yaml").write_text("# yaml-language-server: $schema=../../schemas/pack.schema.json\n"
                                      "id: reward\nname: Reward\nversion: 1.0.0\nextends: architects\n", encoding="utf-8")
    (folder / "rules.yaml").write_text("# yaml-language-server: $schema=../../schemas/rules.schema.json\n"
                                       "science:\n  reward:\n    effect: vp 100\n", encoding="utf-8")
    sets = 0
    for seed in range(10):
        state = play_to_end(load_game(folder, players=3, seed=seed), seed)
        turned = [(seat, a) for seat, a in state.history if a.spend and a.verb == "set"]
        sets += len(turned)
        assert not [a for _, a in state.history if a.spend and a.verb == "token"]  # no token for a set
        for seat in range(3):
            assert state.scores()[seat]["total"] >= 100 * sum(s == seat for s, _ in turned)
    assert sets


def play_to_end(game, seed: int, each=None):
    """A random game played to its end; `each(state)` after every action."""
    state, rng = game.new_state(), random.Random(seed)
    while not state.is_terminal():
        seats = state.current_players()
        seat = seats[rng.randrange(len(seats))]
        actions = state.legal_actions(seat)
        state.apply(seat, actions[rng.randrange(len(actions))])
        if each is not None:
            each(state)
    return state


# -- issue 13: what a card entering or leaving a city does, whatever brings it

@pytest.mark.parametrize("sentence", [
    "at turn end: take top card of discard",
    "at turn end: take card from city of left",
    "at turn end: build card from discard free",
    "at turn end: give top card of discard to left",
    "at turn end: give top card of discard to left face down",
])
def test_no_way_in_gives_a_city_two_cards_of_one_name(tmp_path, monkeypatch, sentence):
    """`flow.unique_cards`: a city never holds two cards of one name, whatever brings the card in
    (`State.may_hold`); the sentences still bring cards in."""
    folder = probe_pack(tmp_path / "probe", "7-wonders", sentence)
    assert refusal(folder, sentence) == []
    gain_card, came = State.gain_card, []

    def counted(state, seat, card, placed=False):
        came.append(placed)
        gain_card(state, seat, card, placed)
    monkeypatch.setattr(State, "gain_card", counted)
    for seed in range(3):
        play_to_end(load_game(folder, players=3, seed=seed), seed, each=_unique_cities)
    assert False in came  # cards did come in besides those built from hands


def _unique_cities(state) -> None:
    for seat, player in enumerate(state.players):
        ids = [c.id for c in player.zones["city"]]
        assert len(ids) == len(set(ids)), f"seat {seat} holds {sorted(ids)}"


# (sentence, red cards in the city when it enters, red cards when it leaves, shields while held)
LEAVING = [
    ("shields 1 if 1 red card", 0, 1, 0),
    ("shields 1 if 1 red card", 1, 0, 1),
    ("shields 1 per red card", 1, 2, 1),
    ("shields 2", 0, 1, 2),
]


@pytest.mark.parametrize("sentence, before, after, held", LEAVING)
def test_what_leaves_gives_back_exactly_what_it_gave(tmp_path, sentence, before, after, held):
    """A piece leaving a city takes back what its entry gave, not what its sentence would give now."""
    folder = rewritten(tmp_path / "probe", "architects", "cards", sentence)
    assert [d.render() for d in check_pack(folder)[1] if d.severity == "error"] == []
    game = load_game(folder, players=3, seed=0)
    state = game.new_state()
    card = game.catalogue.cards[next(iter(pack_of("architects").components["cards"]))]  # the one rewritten
    red = game.catalogue.cards["red_0_horn"]
    city = state.players[0].zones["city"]
    city.clear()
    shields = lambda: state.players[0].counters.get("shields", 0)  # noqa: E731
    for _ in range(before):
        state.gain_card(0, red)
    start = shields()
    state.gain_card(0, card)
    assert shields() - start == held
    while len([c for c in city if c.colour == "red"]) < after:
        state.gain_card(0, red)
    while len([c for c in city if c.colour == "red"]) > after:
        city.remove(red)
        state.leave(0, red)
    middle = shields()
    city.remove(card)
    state.leave(0, card)
    assert middle - shields() == held


@pytest.mark.parametrize("sentence, held", [
    ("pay 1 coins then shields 2", 2),
    ("pay 9 coins then shields 2", 0),  # three coins: the payment stops the rest
    ("shields 1 then pay 9 coins then shields 2", 1),
])
def test_what_a_payment_stopped_is_not_taken_back(tmp_path, sentence, held):
    """A payment that cannot be made (`pay`, `spend`) stops the rest of its sentence: a piece
    leaving a city takes back what its entry gave, not what the rest would have given."""
    folder = rewritten(tmp_path / "probe", "7-wonders", "cards", sentence)
    assert [d.render() for d in check_pack(folder)[1] if d.severity == "error"] == []
    game = load_game(folder, players=3, seed=0)
    state = game.new_state()
    card = game.catalogue.cards[next(iter(pack_of("7-wonders").components["cards"]))]  # the one rewritten
    shields = lambda: state.players[0].counters.get("shields", 0)  # noqa: E731
    state.players[0].counters["shields"] = start = 5  # (a counter does not fall below zero)
    state.gain_card(0, card)
    assert shields() - start == held
    state.players[0].zones["city"].remove(card)
    state.leave(0, card)
    assert shields() == start


@pytest.mark.parametrize("sentence", ["extra action", "on build: extra action", "at turn end: extra action"])
def test_an_extra_action_on_a_rounds_last_turn_plays_the_last_card(tmp_path, sentence):
    """Draft: a card giving an extra action, built on a round's last turn, lets its owner play the
    card they hold instead of losing it to the round's end: here discarded for what a discard
    gives (flow.discard.effect), which the round's end does not give."""
    folder = rewritten(tmp_path / "probe", "7-wonders", "cards", sentence)
    assert refusal_free(folder)
    game = load_game(folder, players=3, seed=0)
    card = game.catalogue.cards[next(iter(pack_of("7-wonders").components["cards"]))]
    state, rng = game.new_state(), random.Random(0)
    while not (state.phase == "choose" and state.flow_state.turn == game.flow.turns - 1
               and not state.flow_state.pending):
        seat = state.current_players()[0]
        actions = state.legal_actions(seat)
        state.apply(seat, next((a for a in actions if a.verb == "discard"), actions[0]))
    hand = state.players[0].zones["hand"]
    hand[0] = card
    state.players[0].built.discard(card.id)
    state.players[0].zones["city"] = [c for c in state.players[0].zones["city"] if c.id != card.id]
    state.legal = {}
    state.apply(0, next(a for a in state.legal_actions(0) if a.verb == "build" and a.card == card.id and not a.free))
    for seat in (1, 2):
        state.apply(seat, next(a for a in state.legal_actions(seat) if a.verb == "discard"))
    assert state.current_players() == [0] and state.queue[0].kind == "extra_action"
    coins = state.players[0].counters["coins"]
    state.apply(0, next(a for a in state.legal_actions(0) if a.verb == "discard"))
    assert state.players[0].counters["coins"] == coins + 3 and state.round == 1


def refusal_free(folder: Path) -> bool:
    return not [d for d in check_pack(folder)[1] if d.severity == "error"]


# (flow, trigger of `extra action`, expected): at a round's end the draft's hands and the rolls'
# dice are spent, so nothing is left to act with (a battle at every round's end comes then too);
# in turns, an extra action takes a card, whenever it comes
EXTRA_AT_ROUND_END = [
    ("draft", "at round end", REFUSED), ("draft", "at battle", REFUSED), ("draft", "at turn end", RUNS),
    ("rolls", "at round end", REFUSED), ("rolls", "at turn end", RUNS),
    ("turns", "at round end", RUNS), ("turns", "at battle", RUNS),
]


@pytest.mark.parametrize("flow, trigger, expected", EXTRA_AT_ROUND_END)
def test_an_extra_action_comes_only_where_there_is_something_to_act_with(tmp_path, monkeypatch, flow, trigger, expected):
    base, players = FLOWS[flow]
    sentence = f"{trigger}: extra action"
    folder = probe_pack(tmp_path / "probe", base, sentence)
    diagnostics = refusal(folder, sentence)
    if expected == REFUSED:
        assert [d.code for d in diagnostics] == ["E-DSL-EVENT"] and "spent when a round ends" in diagnostics[0].message
        return
    assert diagnostics == [], [d.render() for d in diagnostics]
    assert play(folder, players, GAMES, acted_again, monkeypatch)


def test_coins_gained_at_the_end_count_where_the_scoring_counts_coins(tmp_path):
    """`at end:` changes what the scoring still counts: coins gained then count in 7 Wonders'
    treasury (1 point per 3 coins), as docs/language.md says."""
    folder = probe_pack(tmp_path / "probe", "7-wonders", "at end: coins 5")
    assert refusal(folder, "at end: coins 5") == []
    base = play_to_end(load_game("7-wonders", players=3, seed=1), 1)
    probed = play_to_end(load_game(folder, players=3, seed=1), 1)
    assert [a for _, a in base.history] == [a for _, a in probed.history]
    for seat in range(3):
        coins = base.players[seat].counters["coins"]
        assert probed.players[seat].counters["coins"] == coins + 5
        assert probed.scores()[seat]["breakdown"]["treasury"] == (coins + 5) // 3


# (sentence, refused): `chosen` names a player an earlier action of the same sentence chose
CHOSEN = [
    ("at turn end: give top card of discard to chosen face down", True),
    ("at turn end: take card from discard then give top card of discard to chosen", True),  # no player's
    ("at turn end: give top card of discard to chosen then take card from city of left", True),
    ("at turn end: coins 1 per card in chosen if 1 card in chosen", True),
    ("at turn end: take card from city of left then give top card of discard to chosen", False),
    ("at turn end: take card from city of left then coins 1 per card in chosen", False),
    ("at turn end: coins -1 to chosen", True),
    ("at turn end: take card from city of left then coins -1 to chosen", False),
]


@pytest.mark.parametrize("sentence, refused", CHOSEN)
def test_chosen_needs_an_earlier_choice_of_a_player_in_its_sentence(tmp_path, sentence, refused):
    folder = probe_pack(tmp_path / "probe", "7-wonders", sentence)
    diagnostics = refusal(folder, sentence)
    if not refused:
        assert diagnostics == [], [d.render() for d in diagnostics]
        return
    assert diagnostics and {d.code for d in diagnostics} == {"E-DSL-SELECTOR"}
    line = (folder / "rules.yaml").read_text().splitlines()[diagnostics[0].line - 1]
    assert line[diagnostics[0].column - 1:].startswith("chosen")


def test_the_chosen_player_is_the_running_sentences_own(tmp_path):
    """A card taken into a city runs its own sentence, which chooses another player; the taking
    sentence's `chosen` is still the player it took from."""
    sentence = "at turn end: take card from city of left then give top card of discard to chosen"
    folder = probe_pack(tmp_path / "probe", "7-wonders", sentence)
    rewritten(folder, "7-wonders", "cards", "on build: take card from city of right")
    assert refusal_free(folder)
    game = load_game(folder, players=3, seed=0)
    state = game.new_state()
    taken = game.catalogue.cards[next(iter(pack_of("7-wonders").components["cards"]))]
    given = next(c for c in game.catalogue.cards.values() if c is not taken)
    for player in state.players:
        player.zones["city"], player.built = [], set()
    state.players[1].zones["city"].append(taken)
    state.players[2].zones["city"].append(given)  # something for the taken card's own choice
    state.shared["discard"].append(given)
    state.chosen = 2  # left over from another sentence
    state.fire("turn_end", (0,))
    state.answer(0, Action("take", taken.id, choice="city@1"))
    assert [c.id for c in state.players[1].zones["city"]] == [given.id]
    assert state.queue and state.queue[0].kind == "take_from"  # the taken card's choice, still owed


# (flow, sentence, warned): a lasting property (no trigger, no limit) reads its condition once,
# when its piece comes in; `check` says so at the condition (W-DSL-ONCE), and the game does so
READ_ONCE = [
    ("draft", "trade raw at 1 from left if 2 red card", True),
    ("draft", "science gear if 1 green card", True),
    ("rolls", "produce 2 resource if agora complete", True),
    ("draft", "coins 3 if 2 red card", False),                    # a gain happens once: on entry is when
    ("draft", "at turn end: coins 1 if 2 red card", False),       # read at each turn's end
    ("turns", "produce gold if 1 yellow card in self once per turn", False),  # a power: read when used
]


@pytest.mark.parametrize("flow, sentence, warned", READ_ONCE)
def test_a_lasting_propertys_condition_is_read_when_its_piece_enters(tmp_path, flow, sentence, warned):
    base, players = FLOWS[flow]
    folder = probe_pack(tmp_path / "probe", base, sentence)
    diagnostics = refusal(folder, sentence)
    if not warned:
        assert diagnostics == [], [d.render() for d in diagnostics]
        return
    assert [(d.code, d.severity) for d in diagnostics] == [("W-DSL-ONCE", "warning")]
    line = (folder / "rules.yaml").read_text().splitlines()[diagnostics[0].line - 1]
    assert line[diagnostics[0].column - 1:].startswith(sentence.split(" if ")[1])


def test_a_lasting_property_stays_as_its_condition_was_on_entry(tmp_path):
    """`science gear if 1 green card` on a player's board (entered at the start, with no green
    card): no symbol, however many green cards come later."""
    folder = probe_pack(tmp_path / "probe", "7-wonders", "science gear if 1 green card")
    state = play_to_end(load_game(folder, players=3, seed=0), 0)
    base = play_to_end(load_game("7-wonders", players=3, seed=0), 0)
    assert any(c.colour == "green" for p in state.players for c in p.zones["city"])
    assert [p.symbols for p in state.players] == [p.symbols for p in base.players]


# (rules.yaml of a mod over 7 Wonders, the errors): a mod writes only the keys it changes; the
# keys the schema requires are looked for in the rules merged over the base's
MOD_RULES = [
    ("flow: {round_period: age}\n", []),
    ("vocabulary:\n  periods: [age, era]\nflow: {round_period: age}\n", []),
    ("flow: {unique_cards: false}\nvocabulary: {counters: [coins, vp, shields, probe]}\n",
     [("W-COUNTER-UNREAD", 3, "probe")]),  # nothing reads the new counter
    ("vocabulary: {counters: [coins, vp, shields, probe]}\nplayer_effects: ['vp 1 per 2 probe']\n", []),
    ("tokens: {favour: {supply: 5}}\n", [("W-COUNTER-UNREAD", 2, "favour")]),  # a token kind worth nothing, unread
    ("tokens: {favour: {value: 1}}\n", []),
    ("tokens: {favour: {supply: 5}}\nplayer_effects: ['vp 1 if 2 favour token']\n", []),
    ("flow: {kind: rolls}\n", [("E-SCHEMA", 2, "currency"), ("E-SCHEMA", 2, "slots"), ("E-SCHEMA", 2, "end")]),
    # a vocabulary list replaces the base's: leaving its names out is said at the list, first
    ("vocabulary: {counters: [probe]}\nplayer_effects: ['vp 1 per 2 probe']\n",
     [("W-RULES-REPLACED", 2, "coins, shields, vp"), ("E-DSL-VERB", 3, "vp")]),  # vp is no counter now
    ("vocabulary: {counters: [coin, vp, shield, probe]}\nplayer_effects: ['vp 1 per 2 probe']\n", []),  # other forms
    ("vocabulary: {zones: {player: [hand]}}\n", [("W-RULES-REPLACED", 2, "vocabulary.zones.player")]),
    # a value the schema rejects is left out: the counter it names is not said to be unread
    ("vocabulary: {counters: [coins, vp, shields, debt]}\nowing: debt\n", [("E-SCHEMA", 3, "owing")]),
]


@pytest.mark.parametrize("rules, errors", MOD_RULES)
def test_a_mod_writes_only_the_rules_keys_it_changes(tmp_path, rules, errors):
    folder = tmp_path / "mod"
    folder.mkdir()
    (folder / "pack.yaml").write_text("# yaml-language-server: $schema=../../schemas/pack.schema.json\n"
                                      "id: mod\nname: Mod\nversion: 1.0.0\nextends: 7-wonders\n", encoding="utf-8")
    (folder / "rules.yaml").write_text("# yaml-language-server: $schema=../../schemas/rules.schema.json\n" + rules,
                                       encoding="utf-8")
    found = [d for d in check_pack(folder)[1] if d.code == "E-SCHEMA" or d.file.endswith("mod/rules.yaml")]
    assert [(d.code, d.line) for d in found] == [(code, line) for code, line, _ in errors], [d.render() for d in found]
    for d, (_, _, word) in zip(found, errors):
        assert d.file.endswith("mod/rules.yaml") and word in d.message


def test_taking_one_of_the_top_cards_of_a_face_down_deck_looks_at_them(tmp_path):
    """`take 1 of top 3 cards of <face-down deck>`: the seat sees the top three and keeps the one it
    picks (the top card alone is taken unseen); its view keeps those three where they lie."""
    from wonderforge.interpreter.bots.view import View
    sentence = "at turn start: take 1 of top 3 cards of central_deck"
    folder = probe_pack(tmp_path / "probe", "architects", sentence)
    assert refusal(folder, sentence) == []
    state = load_game(folder, players=3, seed=4).new_state()
    (seat,) = state.current_players()
    assert state.queue and state.queue[0].kind == "take_top"
    top = [c.id for c in state.shared["central_deck"][-3:]]
    actions = state.legal_actions(seat)
    # beside the turn's own take of the deck's top card, unseen (card None)
    assert {a.card for a in actions if a.choice == "central_deck"} == {*top, None}
    for guess in range(5):
        drawn = View(state, seat, actions).sample(random.Random(guess))
        assert [c.id for c in drawn.shared["central_deck"][-3:]] == top
    wanted = next(a for a in actions if a.card == top[0])
    state.apply(seat, wanted)
    assert top[0] in [c.id for c in state.players[seat].zones["city"]]


def test_a_draft_game_lays_out_a_face_down_deck_of_its_own(tmp_path):
    """`setup.decks` in a 7 Wonders mod: a shared deck of islands, face down; a card explores it,
    looking at its top three and keeping one (Armada's exploration)."""
    folder = tmp_path / "islands"
    folder.mkdir()
    (folder / "pack.yaml").write_text("id: islands\nname: Islands\nversion: 1.0.0\nextends: 7-wonders\n")
    words = pack_of("7-wonders").rules["vocabulary"]
    (folder / "rules.yaml").write_text(yaml.safe_dump({
        "vocabulary": {"colours": [*words["colours"], "island"], "zones": {"shared": ["discard", "islands"]}},
        "setup": {"decks": ["islands"]}, "decks": {"islands": {"cove": 2, "fort": 2}}}))
    (folder / "cards.yaml").write_text(yaml.safe_dump([
        {"id": "cove", "name": "Cove", "colour": "island", "effect": "produce glass"},
        {"id": "fort", "name": "Fort", "colour": "island", "effect": "shields 2"},
        {"id": "explorer", "name": "Explorer", "colour": "green", "effect": "take 1 of top 3 cards of islands"}]))
    assert [d for d in check_pack(folder)[1] if d.severity == "error"] == []
    state = load_game(folder, players=3, seed=2).new_state()
    deck = state.shared["islands"]
    assert sorted(c.id for c in deck) == ["cove", "cove", "fort", "fort"]
    top = {c.id for c in deck[-3:]}
    state.gain_card(0, state.game.catalogue.cards["explorer"])
    offered = state.decision_actions(state.queue[0])
    assert {a.card for a in offered} == top
    state.answer(0, offered[0])
    assert len(state.shared["islands"]) == 3 and any(c.colour == "island" for c in state.players[0].zones["city"])


def test_a_stage_built_free_once_is_offered_until_used(tmp_path):
    """`build stage free once per game` (Cities' Architect Cabinet): the next stage is offered free,
    with any card of the hand, once; it costs nothing, and then stages are paid again."""
    folder = tmp_path / "cabinet"
    folder.mkdir()
    (folder / "pack.yaml").write_text("id: cabinet\nname: Cabinet\nversion: 1.0.0\nextends: 7-wonders\n")
    (folder / "cards.yaml").write_text(yaml.safe_dump([{"id": "pawnshop", "name": "Architect Cabinet", "colour": "blue",
                                                        "copies": {1: [4, 7]}, "effect": "build stage free once per game"}]))
    assert [d for d in check_pack(folder)[1] if d.severity == "error"] == []
    state = load_game(folder, players=3, seed=0).new_state()
    player = state.players[0]
    player.counters["coins"], player.units = 0, ()  # nothing to pay any stage with
    state.legal = {}
    assert not any(a.verb == "stage" for a in state.legal_actions(0))
    state.gain_card(0, state.game.catalogue.cards["pawnshop"])
    state.legal = {}
    free = [a for a in state.legal_actions(0) if a.verb == "stage"]
    assert free and all(a.free for a in free) and len(free) == len({c.id for c in player.zones["hand"]})
    state.apply(0, free[0])
    for seat in state.current_players():
        state.apply(seat, next(a for a in state.legal_actions(seat) if a.verb == "discard"))
    assert player.stages == 1 and player.counters["coins"] == 0
    assert not any(a.verb == "stage" for a in state.legal_actions(0))  # used: the next stage is paid


@pytest.mark.parametrize("flow", ["draft", "turns"])
def test_a_resource_counted_is_what_the_city_produces_of_it(tmp_path, flow):
    """`per stone` counts the units of the city's production that can yield stone (a choice of
    stone or another resource counts once), in every flow whose cities produce."""
    base, players = FLOWS[flow]
    sentence = "at end: probe 1 per stone"
    folder = probe_pack(tmp_path / "probe", base, sentence)
    assert refusal(folder, sentence) == []
    counted = []
    for seed in range(3):
        state, rng = load_game(folder, players=players, seed=seed).new_state(), random.Random(seed)
        while not state.is_terminal():
            seat = state.current_players()[0]
            actions = state.legal_actions(seat)
            state.apply(seat, actions[rng.randrange(len(actions))])
        for player in state.players:
            assert player.counters.get("probe", 0) == sum("stone" in unit for unit in player.units)
            counted.append(player.counters.get("probe", 0))
    assert any(counted)


def test_this_battle_counts_the_tokens_of_the_battle_just_fought(tmp_path):
    """`at battle: probe 1 per victory token from this battle` adds up, over the game, to every
    victory token won (`from one battle` would count the best battle again after a lost one)."""
    sentence = "at battle: probe 1 per victory token from this battle"
    folder = probe_pack(tmp_path / "probe", "7-wonders", sentence)
    assert refusal(folder, sentence) == []
    state, rng = load_game(folder, players=4, seed=2).new_state(), random.Random(2)
    while not state.is_terminal():
        for seat in state.current_players():
            actions = state.legal_actions(seat)
            if actions:
                state.apply(seat, actions[rng.randrange(len(actions))])
    won = [sum(1 for kind, _, _ in p.tokens if kind == "victory") for p in state.players]
    assert [p.counters.get("probe", 0) for p in state.players] == won and any(won)


@pytest.mark.parametrize("flow, sentence", [("draft", "at age start: probe 1"), ("turns", "at round start: probe 1"),
                                            ("rolls", "at round start: probe 1")])
def test_a_period_start_comes_once_a_round_before_its_first_turn(tmp_path, flow, sentence):
    """`at age start:` (the pack's word for its rounds) runs once for every player at the start of
    each round, the first included, before any turn of it: as many times as rounds were begun."""
    base, players = FLOWS[flow]
    folder = probe_pack(tmp_path / "probe", base, sentence)
    assert refusal(folder, sentence) == []
    state, rng = load_game(folder, players=players, seed=1).new_state(), random.Random(1)
    assert [p.counters.get("probe") for p in state.players] == [1] * players and not state.history
    while not state.is_terminal():
        seat = state.current_players()[0]
        actions = state.legal_actions(seat)
        state.apply(seat, actions[rng.randrange(len(actions))])
        assert [p.counters.get("probe") for p in state.players] == [state.begun + 1] * players
    assert state.begun == state.round - (flow == "draft")  # the draft's last round ends with the game: round = 3


# ---- the counts of issue 28 (tests/test_counts.py holds the rest): each in every flow, what it reads
# worked out here from the final position, or refused at its position


def _city(state, player):
    return player.zones.get(state.game.build_zone, [])


def _science_sets(state, player) -> int:
    """The most full sets of every symbol, each wild symbol tried as each of its symbols."""
    from itertools import product
    symbols = state.game.symbols
    return max((min(sum(1 for s in picks if s == want) for want in symbols)
                for picks in product(*player.symbols)), default=0) if symbols else 0


COUNTS = [
    ("set of card, card", {f: (lambda state, p: len(_city(state, p)) // 2) for f in FLOWS}),
    ("set of red card, yellow card", {"rolls": "W-DSL-NEVER"} | {  # Dice's pieces are its buildings' boxes
        f: (lambda state, p: min(sum(c.colour == k for c in _city(state, p)) for k in ("red", "yellow")))
        for f in ("draft", "turns")}),
    ("science set", {"draft": _science_sets, "turns": REFUSED, "rolls": REFUSED}),
    ("cost of card", {"turns": "W-DSL-NEVER"} | {f: (lambda state, p: sum(
        len(c.cost.resources) + sum(n for _, n in c.cost.kinds) for c in _city(state, p))) for f in ("draft", "rolls")}),
    ("card under stage", {"draft": lambda state, p: len(p.tucked), "turns": REFUSED, "rolls": REFUSED}),
]


@pytest.mark.parametrize("flow", sorted(FLOWS))
@pytest.mark.parametrize("count, expected", COUNTS, ids=[c for c, _ in COUNTS])
def test_a_count_reads_the_position_in_every_flow_or_is_refused(tmp_path, flow, count, expected):
    """`at end: probe 1 per <count>` gives every player what the count reads of the final position,
    in some game; or `check` refuses it at its line."""
    base, players = FLOWS[flow]
    sentence = f"at end: probe 1 per {count}"
    folder = probe_pack(tmp_path / "probe", base, sentence)
    diagnostics = refusal(folder, sentence)
    if not callable(expected[flow]):  # refused, or warned that it reads nothing in this flow
        assert {d.code for d in diagnostics} == {{REFUSED: "E-DSL-FLOW"}.get(expected[flow], expected[flow])}
        return
    assert diagnostics == []
    seen = []
    for seed in range(GAMES):
        state, rng = load_game(folder, players=players, seed=seed).new_state(), random.Random(seed)
        while not state.is_terminal():
            seat = state.current_players()[0]
            actions = state.legal_actions(seat)
            state.apply(seat, actions[rng.randrange(len(actions))])
        probes = [p.counters.get("probe", 0) for p in state.players]
        if callable(expected[flow]):
            assert probes == [expected[flow](state, p) for p in state.players]
        seen += probes
    assert any(seen), "the count never read anything: the test shows nothing"

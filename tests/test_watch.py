"""Issue 16: reacting to what other players do (`on left take red card:`, `on neighbours stage:`)
and copying a neighbour's wonder stage (`copy stage from left, right`).

Watchers are tried in every game: by hand in 7 Wonders (left against right, the filter, `once per
turn`, the `chosen` player), and in random games of every flow against an independent count of
the cards and stages that came into the watched cities. Copies are tried in 7 Wonders with the
example mod tests/mods/rivalry, which `check` passes and whose games show both constructs.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
import yaml

import sevenwonders_helpers as sw
from helpers import pack_of, probe_diagnostics, random_step
from wonderforge.dsl.diagnostics import DslError
from wonderforge.dsl.parser import parse_effects
from wonderforge.interpreter import Action, State, load_game
from wonderforge.interpreter.core.events import STAGE
from wonderforge.tools.cli.commands import main
from wonderforge.tools.cli.draft_screen import DraftScreen

RIVALRY = Path(__file__).parent / "mods" / "rivalry"
# Four seats, clockwise: seat 1 is seat 0's left, seat 3 its right. Rhodes builds a Barracks (ore)
# free, Babylon a Guard Tower (clay), Giza a Lumber Yard (wood: bought) or nothing.
SEATS = "olympia:a,rhodes:a,giza:a,babylon:a"


def mod(folder: Path, base: str, sentences: list[str]) -> Path:
    """A pack extending `base` whose players all hold `sentences`, with a counter `probe` of its own."""
    words = pack_of(base).rules["vocabulary"]
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pack.yaml").write_text("# yaml-language-server: $schema=../../schemas/pack.schema.json\n"
                                      f"id: watch\nname: Watch\nversion: 1.0.0\nextends: {base}\n", encoding="utf-8")
    rules = {"vocabulary": {"colours": words["colours"], "counters": [*words["counters"], "probe"]},
             "player_effects": [*pack_of(base).rules.get("player_effects", []), *sentences]}
    (folder / "rules.yaml").write_text("# yaml-language-server: $schema=../../schemas/rules.schema.json\n"
                                       + yaml.safe_dump(rules, sort_keys=False), encoding="utf-8")
    return folder


def probes(state: State) -> list[int]:
    return [p.counters.get("probe", 0) for p in state.players]


# ---- 7 Wonders, by hand -----------------------------------------------------------------


def seven(tmp_path: Path, sentence: str, hands: dict[int, list[str]]) -> State:
    """A 4-player 7 Wonders deal (SEATS) in which every player holds `sentence`, and these hands."""
    game = load_game(mod(tmp_path / "watch", "7-wonders", [sentence]), players=4, seed=0, wonders=SEATS)
    state = game.new_state()
    for seat, cards in hands.items():
        sw.set_hand(state, seat, *cards, *["altar"] * (7 - len(cards)))
    return state


BUILDS = {1: "barracks", 3: "guard_tower"}  # red, both free for their builder

# (sentence, who builds (seat -> card), probes after the turn)
WATCHERS = [
    ("on left take red card: probe 1", {1: "barracks"}, [1, 0, 0, 0]),      # seat 1 is seat 0's left
    ("on right take red card: probe 1", {1: "barracks"}, [0, 0, 1, 0]),     # ... and seat 2's right
    ("on neighbours build red card: probe 1", {1: "barracks"}, [1, 0, 1, 0]),
    ("on others take card: probe 1", {1: "barracks"}, [1, 0, 1, 1]),
    ("on all take card: probe 1", {1: "barracks"}, [1, 1, 1, 1]),
    ("on left take blue card: probe 1", {1: "barracks"}, [0, 0, 0, 0]),     # the filter
    ("on left take lumber_yard card: probe 1", {1: "barracks"}, [0, 0, 0, 0]),  # a card id
    ("on neighbours build red card: probe 1", {1: "barracks", 3: "guard_tower"}, [2, 0, 2, 0]),
    ("on neighbours build red card: probe 1 once per turn", {1: "barracks", 3: "guard_tower"}, [1, 0, 1, 0]),
    ("on others take card: probe 1 if red card in chosen", {1: "barracks", 2: "altar"}, [1, 0, 1, 1]),
    ("on left take card: probe 1 per shield in chosen", {1: "barracks"}, [1, 0, 0, 0]),
    ("on left stage: probe 1", {}, [0, 0, 0, 0]),                            # nobody builds a stage
]


@pytest.mark.parametrize(("sentence", "builds", "expected"), WATCHERS, ids=[f"{s} {sorted(b)}" for s, b, _ in WATCHERS])
def test_a_watcher_gains_when_those_it_watches_build_a_matching_card(tmp_path, sentence, builds, expected):
    state = seven(tmp_path, sentence, {seat: [card] for seat, card in builds.items()})
    sw.play_turn(state, {seat: Action("build", card) for seat, card in builds.items()})
    assert probes(state) == expected


def test_a_watcher_sees_a_discard_as_nothing(tmp_path):
    state = seven(tmp_path, "on others take card: probe 1", {1: ["barracks"]})
    sw.play_turn(state, {})  # everyone discards: no card comes into a city
    assert probes(state) == [0, 0, 0, 0]


def test_once_per_turn_is_per_turn(tmp_path):
    state = seven(tmp_path, "on neighbours take card: probe 1 once per turn", {1: ["barracks", "altar"], 3: ["guard_tower"]})
    sw.play_turn(state, {1: Action("build", "barracks"), 3: Action("build", "guard_tower")})
    sw.play_turn(state, {1: Action("build", "altar")})
    assert probes(state)[0] == 2


def test_a_watcher_of_stages_gains_when_a_neighbour_builds_one(tmp_path):
    state = seven(tmp_path, "on left stage: probe 1", {})
    state.produce(1, ("any",), 4, private=True)
    stage = next(a for a in state.legal_actions(1) if a.verb == "stage")
    sw.play_turn(state, {1: stage})
    assert probes(state) == [1, 0, 0, 0]
    assert state.players[0].stages == 0 and state.players[1].stages == 1


# ---- every flow: random games against a count of their own ----------------------------------

GAMES = {"7-wonders": 4, "architects": 4, "dice": 4}


def entries(monkeypatch) -> Counter:
    """(seat, colour) of every card that comes into a city from now on, counted as the engine's
    `gain_card` is called (a card a city may not hold is discarded instead)."""
    seen: Counter = Counter()
    gain_card = State.gain_card

    def counted(state, seat, card, placed=False):
        if placed or state.may_hold(seat, card):
            seen[seat, card.colour] += 1
        gain_card(state, seat, card, placed)
    monkeypatch.setattr(State, "gain_card", counted)
    return seen


def _left(state, s):
    return (s + 1) % len(state.players)


def _right(state, s):
    return (s - 1) % len(state.players)


# (sentence, the probe of seat s at the end: f(state, entries, s, colour)); `{kind}` is a colour of
# the game's cards, or nothing in Dice, whose boxes have their building for colour.
COUNTED = [
    ("on left take card: probe 1", lambda st, seen, s, c: sum(n for (seat, _), n in seen.items() if seat == _left(st, s))),
    ("on right take {kind}card: probe 1",
     lambda st, seen, s, c: sum(n for (seat, colour), n in seen.items() if seat == _right(st, s) and c in (None, colour))),
    ("on others build card: probe 2", lambda st, seen, s, c: 2 * sum(n for (seat, _), n in seen.items() if seat != s)),
    ("on neighbours stage: probe 1", lambda st, seen, s, c: sum(st.players[o].stages for o in {_left(st, s), _right(st, s)})),
]
COLOURS = {"7-wonders": "red", "architects": "grey", "dice": None}


@pytest.mark.parametrize("pack", GAMES)
@pytest.mark.parametrize(("sentence", "expected"), COUNTED, ids=[s for s, _ in COUNTED])
def test_a_watcher_counts_exactly_what_comes_into_the_cities_it_watches(tmp_path, monkeypatch, pack, sentence, expected):
    colour = COLOURS[pack]
    sentence = sentence.format(kind=f"{colour} " if colour else "")
    folder = mod(tmp_path / "watch", pack, [sentence])
    diagnostics = probe_diagnostics(folder)
    assert diagnostics == [], [d.render() for d in diagnostics]
    game = load_game(folder, players=GAMES[pack], seed=3)
    state, rng = game.new_state(), random.Random(3)
    seen = entries(monkeypatch)
    while not state.is_terminal():
        seats = state.current_players()
        seat = seats[rng.randrange(len(seats))]
        actions = state.legal_actions(seat)
        state.apply(seat, actions[rng.randrange(len(actions))])
    wanted = [expected(state, seen, s, colour) for s in range(len(state.players))]
    assert probes(state) == wanted
    assert any(wanted), "nothing happened to watch"


def test_packs_without_watchers_look_for_none(tmp_path):
    """The guard: a pack that watches nobody has no watched events, and `watch` is never called."""
    assert load_game("7-wonders", players=3).watched == {}
    game = load_game(mod(tmp_path / "watch", "7-wonders", ["on left stage: probe 1"]), players=3)
    assert set(game.watched) == {STAGE}


# ---- copying a neighbour's stage (7 Wonders, the example mod) ----------------------------------


def mirrors(*built: int, side: str = "b") -> State:
    """A 4-player game of the mod: seat 0 the Palace of Mirrors (side b: its first stage copies), its
    left Alexandria A and its right Babylon A with `built` stages each (left, right); seat 0 also
    produces what its stages cost (clay, wood, glass), but no ore."""
    game = load_game(RIVALRY, players=4, seed=0, wonders=f"mirrors:{side},alexandria:a,giza:a,babylon:a")
    state = game.new_state()
    for seat, count in zip((1, 3), built):
        sw.stages(state, seat, count)
    state.produce(0, ("clay",), 2, private=True)
    state.produce(0, ("wood",), 2, private=True)
    state.produce(0, ("glass",), 1, private=True)
    return state


def build_stage(state: State, seat: int = 0) -> None:
    """The seat's next stage, built in a turn (paid with its own production), the others discarding."""
    sw.play_turn(state, {seat: next(a for a in state.legal_actions(seat) if a.verb == "stage" and not a.pay)})


def copies_offered(state: State) -> list[Action]:
    return [a for a in state.legal_actions(0) if a.verb == "copy"]


def test_a_copied_stage_produces_for_the_copier():
    state = mirrors(2, 1)  # Alexandria A: vp 3, then any raw resource (private); Babylon A: vp 3
    build_stage(state)
    assert state.current_players() == [0]
    assert state.legal_actions(0) == [Action("copy", "alexandria:a:1"), Action("copy", "alexandria:a:2"),
                                      Action("copy", "babylon:a:1")]
    state.apply(0, Action("copy", "alexandria:a:2"))
    assert ("clay", "ore", "stone", "wood") in state.players[0].units
    assert state.players[0].stages == 1  # the copy is no stage of the copier's
    sw.set_hand(state, 0, "barracks", *["altar"] * 6)
    assert (0, 0) in sw.payments(state, 0, "build", "barracks")  # its ore: the copied stage's


def test_the_terminal_says_which_stage_a_copy_takes():
    state = mirrors(2, 0)
    build_stage(state)
    screen = DraftScreen(state.game, ["you", "b", "c", "d"], 0)
    labels = screen.labels(state, state.legal_actions(0))
    assert labels == ["copy The Lighthouse of Alexandria, stage 1 (vp 3)",
                      "copy The Lighthouse of Alexandria, stage 2 (produce private wood / stone / ore / clay)"]
    assert "Copy one of the stages your neighbours built" in screen.table(state, labels)[0]


def test_without_the_copy_the_ore_must_be_found_elsewhere():
    state = mirrors(2, 1)
    build_stage(state)
    state.apply(0, Action("copy", "babylon:a:1"))
    sw.set_hand(state, 0, "barracks", *["altar"] * 6)
    assert not sw.can(state, 0, "build", "barracks")  # nobody sells ore to seat 0


def test_a_copied_stage_scores_its_points_in_the_wonder_category():
    state = mirrors(2, 1)
    build_stage(state)
    state.apply(0, Action("copy", "babylon:a:1"))
    assert state.scores()[0]["breakdown"]["wonder"] == 3
    assert state.players[0].stages == 1


def test_one_stage_to_copy_is_copied_without_a_choice():
    state = mirrors(0, 1)
    build_stage(state)
    assert state.queue == [] and copies_offered(state) == []
    assert state.scores()[0]["breakdown"]["wonder"] == 3


def test_no_stage_to_copy_copies_nothing():
    state = mirrors(0, 0)
    build_stage(state)
    assert state.queue == [] and copies_offered(state) == []
    assert state.scores()[0]["breakdown"]["wonder"] == 0
    assert state.players[0].stages == 1


def test_a_copy_at_the_end_takes_the_best_stage_the_neighbours_built():
    state = mirrors(0, 0)
    build_stage(state)       # side b, stage 1: nothing to copy yet
    sw.stages(state, 0)      # stage 2: `at end: copy stage from left, right`
    sw.stages(state, 1, 3)   # then Alexandria A builds vp 3, a resource, vp 7
    sw.stages(state, 3, 1)   # and Babylon A vp 3
    assert state.scores()[0]["breakdown"]["wonder"] == 7
    assert state.players[0].stages == 2


@pytest.mark.parametrize(("condition", "points"), [("players > 3", 7), ("5 blue card", 0)])
def test_a_copy_at_the_end_copies_only_if_its_condition_holds(tmp_path, condition, points):
    (tmp_path / "pack.yaml").write_text("id: cond\nname: Cond\nversion: 1.0.0\nextends: 7-wonders\n")
    (tmp_path / "rules.yaml").write_text(f'player_effects:\n  - "at end: copy stage from left, right if {condition}"\n')
    state = load_game(str(tmp_path), players=4, seed=0, wonders="olympia:a,giza:a,rhodes:a,babylon:a").new_state()
    sw.stages(state, 1, 3)   # Giza A: 3, 5 and 7 points
    assert state.scores()[0]["breakdown"]["wonder"] == points


def test_a_copy_at_the_end_copies_once():
    state = mirrors(0, 0)
    build_stage(state)
    sw.stages(state, 0)
    sw.stages(state, 3, 1)   # one stage to copy: Babylon A's vp 3
    state.finish()           # `at end` effects run: the scoring copies, the sentence itself does not
    assert state.queue == [] and not any(o.piece.id == "babylon:a:1" for o in state.players[0].lasting)
    assert state.scores()[0]["breakdown"]["wonder"] == 3


def test_a_stage_that_copies_is_never_copied():
    state = load_game(RIVALRY, players=4, seed=0, wonders="giza:a,mirrors:a,olympia:a,babylon:a").new_state()
    sw.stages(state, 1, 3)  # the Palace (side a) on seat 0's left: vp 3, a copy, vp 7
    assert [s.id for s in state.stages_to_copy(0, ("left", "right"))] == ["mirrors:a:1", "mirrors:a:3"]


# ---- check: what is refused, where ------------------------------------------------------------

# (base, sentence, code, in the message)
REFUSED = [
    ("dice", "on build: copy stage from left, right", "E-DSL-FLOW", "wonder boards with stages"),
    ("7-wonders", "on build: copy stage from self", "E-DSL-SELECTOR", "not a neighbour"),
    ("7-wonders", "on opponent take card: coins 1", "E-DSL-SELECTOR", "names no players a trigger can watch"),
    ("architects", "on self stage: coins 1", "E-DSL-SELECTOR", "watches its owner"),
    ("dice", "on lefft take card: coins 1", "E-DSL-SELECTOR", "unknown player selector 'lefft'"),
    ("7-wonders", "on left take card: copy card from left, right", "E-DSL-EVENT", "applies only at the end"),
    ("7-wonders", "on neighbours take card: take top card of discard", "E-DSL-LOOP", "without end"),
    ("architects", "on take card: copy stage from left, right", "E-DSL-LOOP", "without end"),
    ("7-wonders", "on left bild red card: coins 1", "E-DSL-TRIGGER", "after 'on left'"),
    ("architects", "on left choose red die: coins 1", "E-DSL-TRIGGER", "after 'on left'"),
    ("dice", "on all stage: keep card", "E-DSL-EVENT", "applies only at a battle"),
]


@pytest.mark.parametrize(("base", "sentence", "code", "message"), REFUSED, ids=[f"{b}: {s}" for b, s, _, _ in REFUSED])
def test_check_refuses_at_the_sentence(tmp_path, base, sentence, code, message):
    folder = mod(tmp_path / "watch", base, [sentence])
    diagnostics = probe_diagnostics(folder)
    line = next(n for n, text in enumerate((folder / "rules.yaml").read_text().splitlines(), 1) if sentence in text)
    found = [d for d in diagnostics if d.code == code]
    assert found, [d.render() for d in diagnostics]
    assert message in found[0].message
    assert found[0].file.endswith("rules.yaml") and found[0].line == line and found[0].hint


# (sentence, column of the error, hint): a watcher's words the grammar alone would not explain
PARSE_HINTS = [
    ("on left build: coins 1", 14, "a watched build names the cards: 'on left build card:'; 'on build:' is the owner's own"),
    ("on others take: coins 1", 15, "a watched take names the cards: 'on others take card:'"),
]


@pytest.mark.parametrize(("sentence", "column", "hint"), PARSE_HINTS, ids=[r[0] for r in PARSE_HINTS])
def test_a_watcher_without_cards_is_told_to_name_them(sentence, column, hint):
    with pytest.raises(DslError) as caught:
        parse_effects(sentence)
    assert (caught.value.code, caught.value.span.column, caught.value.hint) == ("E-DSL-PARSE", column, hint)


def test_check_warns_of_a_copy_when_nothing_is_built_yet(tmp_path):
    diagnostics = probe_diagnostics(mod(tmp_path / "watch", "architects", ["copy stage from left, right"]))
    assert [(d.code, d.severity) for d in diagnostics] == [("W-DSL-NEVER", "warning")]
    assert "as the game starts" in diagnostics[0].message


@pytest.mark.parametrize("sentence", ["on left take card: coins 1 once per turn", "on others stage: vp 1",
                                      "on take card: copy stage from left, right once per turn",
                                      "at end: copy stage from neighbours",
                                      "on neighbours take card: give top card of discard to chosen once per turn"])
def test_check_accepts(tmp_path, sentence):
    diagnostics = probe_diagnostics(mod(tmp_path / "watch", "7-wonders", [sentence]))
    assert diagnostics == [], [d.render() for d in diagnostics]


# ---- the example mod -----------------------------------------------------------------------------


def test_the_example_mod_checks_clean(capsys):
    assert main(["check", str(RIVALRY)]) == 0
    assert "no problems found" in capsys.readouterr().out


def test_the_example_mod_reads_as_written_in_the_catalogue(capsys):
    assert main(["cards", str(RIVALRY)]) == 0
    out = capsys.readouterr().out
    assert "effect: on neighbours build red card: coins 1" in out
    assert "side b, stage 1: cost 2 clay; copy stage from left, right" in out
    assert "on others stage: coins 1; at end: copy stage from left, right" in out


def test_the_example_mod_shows_both_constructs_in_play(monkeypatch):
    """In random games with the Palace of Mirrors at seat 0, the Watchtower's owners gain coins
    and the Palace copies its neighbours' stages."""
    watched, copied = 0, 0
    carry_out = State.carry_out

    def counted(state, seat, owned, actions, chosen=None):
        nonlocal watched
        before = state.players[seat].counters.get("coins", 0)
        carry_out(state, seat, owned, actions, chosen)
        if owned is not None and owned.piece.id == "watchtower":
            watched += state.players[seat].counters.get("coins", 0) - before
    monkeypatch.setattr(State, "carry_out", counted)
    for seed in range(6):
        game = load_game(RIVALRY, players=5, seed=seed, wonders="mirrors:a,*,*,*,*")
        state, rng = game.new_state(), random.Random(seed)
        while not state.is_terminal():
            random_step(state, rng)
        palace = state.players[0]
        copied += any(o.piece.colour == "stage" and not o.piece.id.startswith("mirrors:") for o in palace.lasting)
    assert watched > 0
    assert copied > 0

"""A draft before the first round whose picks each player keeps, seen by them alone, and every
round's first turn played from those kept cards (`flow.prelude`, `flow.recruit`): the example mod
tests/mods/leaders, a sketch of the Leaders expansion over 7 Wonders."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
import yaml

from helpers import finished, random_step
from wonderforge.interpreter import load_game
from wonderforge.interpreter.bots.view import View
from wonderforge.interpreter.files.scenario import load_scenario
from wonderforge.interpreter.games.check import check_pack

LEADERS = Path(__file__).parent / "mods" / "leaders"


def game(players: int, seed: int = 0):
    return load_game(LEADERS, players=players, seed=seed)


def play_through(state, rng, stop=lambda state: False):
    while not state.is_terminal() and not stop(state):
        random_step(state, rng)
    return state


def test_the_example_mod_checks_clean():
    assert [d.render() for d in check_pack(LEADERS)[1]] == []


@pytest.mark.parametrize("players", [3, 5, 7])
def test_each_player_keeps_every_card_of_the_prelude_before_any_round_begins(players):
    state = game(players, seed=players).new_state()
    rng = random.Random(players)
    assert state.begun == -1 and all(len(p.zones["hand"]) == 4 for p in state.players)
    play_through(state, rng, lambda s: s.flow_state.part != "prelude")
    assert [a.verb for _, a in state.history] == ["keep"] * 4 * players
    # the prelude over, the first age starts with its recruit turn: the kept cards are the hands
    assert state.flow_state.part == "recruit" and state.begun == 0
    assert all(len(p.zones["hand"]) == 4 and {c.colour for c in p.zones["hand"]} == {"white"} for p in state.players)
    assert len(state.shared["deck 0"]) == 16 * (1 + (players >= 5)) - 4 * players  # the rest stay unseen


def test_every_age_starts_with_one_leader_played_and_the_others_kept():
    state = game(4, seed=3).new_state()
    rng = random.Random(3)
    kept = []
    while not state.is_terminal():
        if state.flow_state.part is None and state.flow_state.turn == 0 and state.phase == "choose" \
                and len(kept) == state.round:
            kept.append([len(p.zones["leaders"]) for p in state.players])
            assert all(len(p.zones["hand"]) == 7 for p in state.players)  # then the age's own hand
        random_step(state, rng)
    assert kept == [[3] * 4, [2] * 4, [1] * 4]
    leaders_played = sum(c.colour == "white" for p in state.players for c in p.zones["city"] + p.tucked)
    assert leaders_played + sum(1 for c in state.shared["discard"] if c.colour == "white") == 12


def test_a_seat_sees_its_own_kept_cards_alone():
    state = game(4, seed=5).new_state()
    play_through(state, random.Random(5), lambda s: s.round == 1 and s.flow_state.part is None)
    mine = sorted(c.id for c in state.players[0].zones["leaders"])
    observed = state.game.flow.observation(state, 0)
    assert observed["kept"] == mine and all("kept" not in p for p in observed["players"])
    assert [p["kept_size"] for p in observed["players"]] == [len(p.zones["leaders"]) for p in state.players]
    seat = state.current_players()[0]
    view = View(state, seat, state.legal_actions(seat))
    truth = [sorted(c.id for c in p.zones["leaders"]) for p in state.players]
    changed = False
    for guess in range(20):
        drawn = view.sample(random.Random(guess))
        held = [sorted(c.id for c in p.zones["leaders"]) for p in drawn.players]
        assert held[seat] == truth[seat]  # its own, as they are
        assert all(c.colour == "white" for p in drawn.players for c in p.zones["leaders"])  # leaders for leaders
        changed = changed or held != truth
    assert changed  # the others' are drawn again


def test_a_recruited_leader_scores_in_its_category():
    held = [{"wonder": "giza", "side": "a", "cards": ["cleopatra", "pericles", "barracks", "stockade"]},
            {"wonder": "rhodes", "side": "a"}, {"wonder": "babylon", "side": "a"}]
    scores = finished(game(3), held).scores()
    assert scores[0]["breakdown"]["leaders"] == 5 + 2 * 2


def scenario(tmp_path: Path, players: list[dict], effect: str | None = None) -> Path:
    """A scenario of three players of the leaders mod (a copy whose Caesar says `effect`)."""
    pack = LEADERS
    if effect is not None:
        pack = tmp_path / "leaders"
        shutil.copytree(LEADERS, pack)
        cards = yaml.safe_load((pack / "cards.yaml").read_text(encoding="utf-8"))
        next(c for c in cards if c["id"] == "caesar")["effect"] = effect
        (pack / "cards.yaml").write_text(yaml.safe_dump(cards), encoding="utf-8")
    wonders = ["giza", "rhodes", "babylon"]
    path = tmp_path / "kept.yaml"
    path.write_text(yaml.safe_dump({"game": str(pack), "players": [
        {"name": name, "wonder": wonder, **held} for name, wonder, held in zip("abc", wonders, players)]}))
    return path


def test_a_scenario_gives_each_player_their_kept_cards(tmp_path):
    held = [{"cards": ["caesar"], "kept": ["hiram", "midas"]}, {"kept": ["varro"]}, {}]
    loaded = load_scenario(scenario(tmp_path, held, effect="at end: vp 3 per card in leaders of self"))
    assert loaded.diagnostics == []
    kept = [sorted(c.id for c in p.zones["leaders"]) for p in loaded.state.players]
    assert kept == [["hiram", "midas"], ["varro"], []]
    assert loaded.state.scores()[0]["breakdown"]["leaders"] == 3 * 2  # Caesar, built, counts the kept two
    assert loaded.state.observation(0)["players"][1]["kept_size"] == 1


def test_kept_cards_score_nothing_of_themselves(tmp_path):
    path = LEADERS.parents[1] / "scenarios" / "leaders.yaml"  # docs/scoring.md's example
    loaded = load_scenario(path)
    assert loaded.diagnostics == [] and [len(p.zones["leaders"]) for p in loaded.state.players] == [2, 1, 0]
    data = yaml.safe_load(path.read_text())
    data["game"] = str(LEADERS)
    for player in data["players"]:
        player.pop("kept", None)
    (tmp_path / "none.yaml").write_text(yaml.safe_dump(data))
    assert loaded.state.scores() == load_scenario(tmp_path / "none.yaml").state.scores()


@pytest.mark.parametrize("held, message", [
    ({"kept": ["barracks"]}, "barracks is not a card of the prelude's deck 0"),
    ({"kept": ["cesar"]}, "unknown card 'cesar'"),
    ({"cards": ["hiram"], "kept": ["hiram"]}, "hiram"),  # one copy at 3 players: in a city or kept, not both
])
def test_a_scenario_keeping_what_no_game_deals_is_refused_at_the_card(tmp_path, held, message):
    path = scenario(tmp_path, [held, {}, {}])
    loaded = load_scenario(path)
    assert loaded.state is None and len(loaded.diagnostics) == 1
    found = loaded.diagnostics[0]
    assert found.code == "E-SCENARIO-CARD" and message in found.message
    assert path.read_text().splitlines()[found.line - 2].endswith("kept:")  # at the kept card


def test_a_scenario_of_a_game_without_kept_cards_refuses_the_field(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump({"game": "7-wonders", "players": [
        {"name": "a", "wonder": "giza", "kept": ["barracks"]}, {"name": "b", "wonder": "rhodes"},
        {"name": "c", "wonder": "babylon"}]}))
    found = load_scenario(path).diagnostics
    assert [d.code for d in found] == ["E-SCENARIO-FIELD"]
    assert "its rules give no flow.recruit or flow.prelude.keep" in found[0].hint


@pytest.mark.parametrize("players", range(3, 8))
def test_seeded_games_play_to_the_end(players):
    for seed in range(5):
        state = play_through(game(players, seed).new_state(), random.Random(seed))
        assert state.is_terminal() and all(len(p.zones["leaders"]) == 1 for p in state.players)


# (flow lines of the mod's rules.yaml, what `check` says of them)
BAD_FLOWS = [
    ("  prelude: {deck: 0, hand_size: 4, pass: left, keep: vault}\n  recruit: vault\n",
     "'vault' cannot hold the kept cards"),
    ("  prelude: {deck: 0, hand_size: 4, pass: left, keep: hand}\n  recruit: hand\n",
     "'hand' cannot hold the kept cards"),
    ("  prelude: {deck: 1, hand_size: 4, pass: left, keep: leaders}\n  recruit: leaders\n",
     "the prelude deals deck 1, as round 1 does"),
    ("  prelude: {deck: 0, hand_size: 5, pass: left, keep: leaders}\n  recruit: leaders\n",
     "the prelude deals 5 cards of deck 0 to each"),
]


@pytest.mark.parametrize("flow, message", BAD_FLOWS)
def test_a_prelude_that_cannot_be_played_is_refused_at_its_key(tmp_path, flow, message):
    mod = tmp_path / "leaders"
    mod.mkdir()
    for name in ("pack.yaml", "cards.yaml"):
        (mod / name).write_text((LEADERS / name).read_text(encoding="utf-8"), encoding="utf-8")
    rules = (LEADERS / "rules.yaml").read_text(encoding="utf-8")
    head, _, rest = rules.partition("flow:\n")
    rest = rest[rest.index("\n\n"):]  # the flow's lines replaced
    (mod / "rules.yaml").write_text(head + "flow:\n" + flow + rest, encoding="utf-8")
    errors = [d for d in check_pack(mod)[1] if d.severity == "error"]
    assert errors and message in errors[0].message, [d.render() for d in errors]
    assert errors[0].file.endswith("rules.yaml") and errors[0].code in ("E-RULES", "E-DEAL")


@pytest.mark.slow
def test_a_hundred_seeded_games_from_3_to_7_players_end_without_an_error():
    for seed in range(100):
        players = 3 + seed % 5
        state = play_through(game(players, seed).new_state(), random.Random(seed))
        assert state.is_terminal()

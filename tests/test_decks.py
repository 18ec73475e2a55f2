"""Issue 28, part 5: several random parts in a deck, and optional payments.

Random parts are tried with the example mod tests/mods/cities-decks (7 Wonders with one black card
per player drawn into each age's deck, beside Age III's guilds): what each part keeps at every
player count, that a seed replays the draw, `check` at a part short of what it keeps, `score`
against what the parts keep, and determinizations drawing each part again. Optional payments
(`may pay ...`, `may spend ...`) are tried by hand in 7 Wonders; the every-flow table is
tests/test_mechanisms.py (`pay`, `optional payment`).
"""

from __future__ import annotations

import json
import random
import shutil
from collections import Counter
from pathlib import Path

import pytest

from helpers import random_step
from test_fair_bots import check_determinization
from test_watch import mod
from wonderforge.dsl.parser import parse_effects
from wonderforge.dsl.printer import show
from wonderforge.interpreter import Action, load_game
from wonderforge.interpreter.games.check import check_pack
from wonderforge.tools.cli.commands import main
from wonderforge.tools.cli.draft_screen import DraftScreen

CITIES = Path(__file__).parent / "mods" / "cities-decks"
BLACK = {"ferry", "hideout", "patron", "broker"}


def colours(cards) -> Counter:
    return Counter(c.colour for c in cards)


# ---- several random parts -----------------------------------------------------------------


def test_the_example_mod_checks_clean():
    pack, diagnostics = check_pack(CITIES)
    assert pack is not None and diagnostics == [], [d.render() for d in diagnostics]


@pytest.mark.parametrize("players", [3, 5, 7])
def test_each_part_keeps_its_share_of_its_deck(players):
    state = load_game(CITIES, players=players, seed=players).new_state()
    hands = [c for p in state.players for c in p.zones["hand"]]
    assert [len(p.zones["hand"]) for p in state.players] == [8] * players
    assert colours(hands)["black"] == players  # one black card per player in Age I
    later = {deck: colours(state.shared[f"deck {deck}"]) for deck in (2, 3)}
    assert later[2]["black"] == players and later[3]["black"] == players
    assert later[3]["purple"] == players + 2  # the guilds, as in 7 Wonders
    assert all(sum(c.values()) == 8 * players for c in later.values())


def test_a_seed_replays_the_draw_and_seeds_differ():
    def black(seed: int) -> list[list[str]]:
        """The black cards of each hand, then of the later decks."""
        state = load_game(CITIES, players=4, seed=seed).new_state()
        places = [p.zones["hand"] for p in state.players] + [state.shared["deck 2"], state.shared["deck 3"]]
        return [sorted(c.id for c in cards if c.id in BLACK) for cards in places]
    assert black(11) == black(11)
    assert len({repr(black(seed)) for seed in range(8)}) > 1


def shorted(tmp_path: Path, copies: dict[str, str]) -> Path:
    """The example mod with some black cards' copies rewritten."""
    folder = shutil.copytree(CITIES, tmp_path / "cities")
    text = (folder / "cards.yaml").read_text()
    for card, line in copies.items():
        start = text.index(f"id: {card}")
        old = text[text.index("copies:", start):text.index("\n", text.index("copies:", start))]
        text = text.replace(old, f"copies: {line}", 1)
    (folder / "cards.yaml").write_text(text)
    return folder


def test_a_part_short_of_what_it_keeps_is_refused_at_the_part(tmp_path):
    folder = shorted(tmp_path, {"ferry": "{1: [3], 2: [3, 3], 3: [3, 3]}", "hideout": "{2: [3, 3], 3: [3, 3]}"})
    [found] = [d for d in check_pack(folder)[1] if d.severity == "error"]
    line = next(n for n, text in enumerate((folder / "rules.yaml").read_text().splitlines(), 1)
                if "deck: 1, colour: black" in text)
    assert (found.code, found.file.endswith("rules.yaml"), found.line) == ("E-DEAL", True, line)
    assert found.message == ("cities-decks cannot be dealt at 6 and 7 players: rules.yaml `setup.random_cards.1` keeps "
                             "1 per player of them, 6 black cards of deck 1, and that deck has 5 for 6 players")
    assert "lower players.max to 5" in found.hint


def test_two_parts_drawing_the_same_cards_are_refused(tmp_path):
    folder = shutil.copytree(CITIES, tmp_path / "cities")
    rules = (folder / "rules.yaml").read_text()
    (folder / "rules.yaml").write_text(rules.replace("{deck: 2, colour: black", "{deck: 1, colour: black"))
    found = [d for d in check_pack(folder)[1] if d.code == "E-RULES"]
    assert [d.message for d in found] == ["random part 3 draws the black cards of deck 1, as part 2 does"]


@pytest.mark.parametrize("written, message", [
    ("3", "setup.random_cards must be a mapping or a list, not a number"),
    ("[]", "setup.random_cards lists 0, but needs at least 1"),
    ("[{deck: 1, colour: black}]", "setup.random_cards[0] lacks one of the keys 'keep_players_plus' or 'keep_per_player'"),
    ("{deck: 1, colour: black, keep_per_player: 30}",
     "setup.random_cards.keep_per_player: 30 is greater than the maximum of 20"),
])
def test_a_malformed_random_part_is_said_plainly(tmp_path, written, message):
    folder = shutil.copytree(CITIES, tmp_path / "cities")
    rules = (folder / "rules.yaml").read_text()
    start, end = rules.index("  random_cards:"), rules.index("\nflow:")
    (folder / "rules.yaml").write_text(rules[:start] + f"  random_cards: {written}\n" + rules[end:])
    found = [d for d in check_pack(folder)[1] if d.severity == "error"]
    assert [(d.code, d.message) for d in found] == [("E-SCHEMA", message)]


SCENARIO = """\
game: {game}
players:
  - name: alice
    wonder: alexandria
    cards: [{alice}]
  - name: bob
    wonder: giza
    cards: [{bob}]
  - name: carol
    wonder: rhodes
    cards: [ferry, hideout, patron]
"""


@pytest.mark.parametrize("alice, bob, refused", [
    ("ferry, hideout, patron", "ferry, hideout, patron", False),         # 9: one per player in each age
    ("ferry, hideout, patron, broker", "ferry, hideout, patron", True),  # 10
])
def test_score_holds_the_black_cards_to_what_the_parts_keep(tmp_path, capsys, alice, bob, refused):
    path = tmp_path / "scenario.yaml"
    path.write_text(SCENARIO.format(game=CITIES, alice=alice, bob=bob))
    assert main(["score", str(path), "--format", "json"]) == (1 if refused else 0)
    out = json.loads(capsys.readouterr().out)
    if refused:
        [found] = out["diagnostics"]
        assert found["code"] == "E-SCENARIO-CARD" and "keeps 9 of them" in found["message"], found
    else:
        assert [p["breakdown"]["black"] for p in out["players"]] == [2, 2, 2]  # the Hideout's


def test_a_determinization_draws_each_part_again():
    state = load_game(CITIES, players=4, seed=3).new_state()
    rng = random.Random(3)
    while state.round < 2:  # into Age III, whose deck has two random parts
        random_step(state, rng)
    for seat in range(4):
        check_determinization(state, seat, rng)


# ---- optional payments ------------------------------------------------------------------


def turn_end(tmp_path: Path, *sentences: str):
    """A 3-player 7 Wonders game whose players all hold these sentences (and a token kind `chit`),
    played to the first turn's end, every player discarding."""
    folder = mod(tmp_path / "may", "7-wonders", list(sentences))
    with open(folder / "rules.yaml", "a") as rules:
        rules.write("tokens:\n  chit: {value: 1, supply: 30}\n")
    state = load_game(folder, players=3, seed=0).new_state()
    for seat in state.current_players():
        state.apply(seat, Action("discard", state.players[seat].zones["hand"][0].id))
    return state


def test_an_optional_payment_is_offered_and_may_be_declined(tmp_path):
    state = turn_end(tmp_path, "at turn end: may pay 2 coins then probe 1")
    coins = [p.counters["coins"] for p in state.players]
    seat = state.current_players()[0]
    offered = state.legal_actions(seat)
    assert [a.choice for a in offered] == ["pay 2 coins then probe 1", "decline"]
    screen = DraftScreen(state.game, ["you", "b", "c"], seat)
    assert screen.labels(state, offered) == ["choose: pay 2 coins then probe 1", "choose: decline"]
    state.apply(seat, offered[1])  # declined: nothing paid, nothing done
    assert state.players[seat].counters["coins"] == coins[seat] and not state.players[seat].counters.get("probe")
    seat = state.current_players()[0]
    state.apply(seat, Action("choice", choice="pay 2 coins then probe 1"))
    assert state.players[seat].counters["coins"] == coins[seat] - 2 and state.players[seat].counters["probe"] == 1


def test_an_optional_payment_is_not_offered_without_the_means(tmp_path):
    state = turn_end(tmp_path, "at turn end: may pay 7 coins then probe 1")  # 3 coins + 3 for the discard
    assert state.current_players() != [] and all(a.verb != "choice" for s in state.current_players()
                                                 for a in state.legal_actions(s))
    assert not any(p.counters.get("probe") for p in state.players)


def test_an_optional_spending_of_tokens(tmp_path):
    state = turn_end(tmp_path, "at turn start: take chit token", "at turn end: may spend 1 chit token then probe 1")
    seat = state.current_players()[0]
    assert [a.choice for a in state.legal_actions(seat)] == ["spend 1 chit token then probe 1", "decline"]
    state.apply(seat, Action("choice", choice="spend 1 chit token then probe 1"))
    assert state.players[seat].counters["probe"] == 1 and not state.players[seat].tokens


def test_a_payment_without_the_means_stops_its_sentence(tmp_path):
    state = turn_end(tmp_path, "at turn end: pay 7 coins then probe 1")
    assert [p.counters["coins"] for p in state.players] == [6, 6, 6]
    assert not any(p.counters.get("probe") for p in state.players)
    state = turn_end(tmp_path / "b", "at turn end: pay 6 coins then probe 1")
    assert [(p.counters["coins"], p.counters["probe"]) for p in state.players] == [(0, 1)] * 3


@pytest.mark.parametrize("text", ["may pay 2 coins then shields 1", "on build: may spend 1 chit token then vp 3",
                                  "may coins -1 or take chit token", "pay 1 coin"])
def test_optional_payments_print_as_written(text):
    assert show(parse_effects(text)) == text


def test_an_optional_payment_at_the_end_is_refused(tmp_path):
    folder = mod(tmp_path / "end", "7-wonders", ["at end: may pay 2 coins then vp 1"])
    found = [d for d in check_pack(folder)[1] if d.severity == "error"]
    assert {d.code for d in found} == {"E-DSL-EVENT"}  # the choice, and the payment in it
    assert found[0].message == "'may pay 2 coins then vp 1' cannot happen once the game is over"

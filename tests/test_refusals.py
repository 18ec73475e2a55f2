"""Refusals that name what the language lacks (dsl/refusals.py, driven by its table), and the
endless-loop check refusing real loops only (dsl/loops.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from wonderforge.dsl.diagnostics import DslError
from wonderforge.dsl.parser import parse_condition, parse_effects
from wonderforge.dsl.refusals import DOCS, REFUSALS
from wonderforge.interpreter import load_game
from wonderforge.interpreter.games.check import check_pack
from wonderforge.tools.cli.commands import main

EXAMPLES = [(row.label, example) for row in REFUSALS for example in row.examples]


def refused(text: str, parse=parse_effects) -> DslError:
    with pytest.raises(DslError) as caught:
        parse(text)
    return caught.value


# ---- the table: each example gets its label ------------------------------------------------------

@pytest.mark.parametrize(("label", "example"), EXAMPLES, ids=[f"{l}: {e}" for l, e in EXAMPLES])
def test_every_example_gets_its_label(label, example):
    row = next(r for r in REFUSALS if r.label == label)
    try:
        parse_effects(example)
    except DslError as err:
        assert (err.code, err.message, err.hint) == ("E-DSL-UNSAYABLE", row.message(), row.hint), err.message
        said = example[err.span.start:err.span.end]
        assert said in row.words, f"the caret is under '{said}', not one of the row's words"
    else:
        pytest.fail(f"'{example}' parses now: drop row '{label}' from dsl/refusals.py and its bullet from the docs")


def test_the_issue_sentences_name_their_concept():
    assert "a player's costs counted" in refused("vp 2 per coin cost of chosen").message
    assert "of card in left" in refused("vp 2 per coin cost of chosen").hint
    assert "a token given without its number" in refused("give defeat token to chosen").message
    assert "give 1 <kind> token" in refused("give defeat token to chosen").hint


def test_a_refusal_points_at_its_word_in_a_text_of_several_sentences():
    err = refused("coins 1\non left take card: move ship 1; vp 2")
    assert (err.span.line, err.span.column, err.span.end_column) == (2, 20, 24)  # 'move'
    assert "moving a pawn or a ship" in err.message


def test_a_count_in_a_condition_is_refused_alike():
    err = refused("3 set of red, blue card", parse_condition)
    assert err.code == "E-DSL-UNSAYABLE" and "a set of filters sharing one noun" in err.message


# Failing in a state that some row's example fails in, but without the row's words: the usual error.
NEAR_MISSES = [
    ("on bild: vp 1", "E-DSL-TRIGGER", "unknown trigger 'on bild'"),
    ("prodce wood", "E-DSL-PARSE", "expected a number, found 'wood'"),
    ("vp 1 per red card blue", "E-DSL-PARSE", "found 'blue'"),
    ("vp 2 if 2 red card blue", "E-DSL-PARSE", "found 'blue'"),
    ("coins 2 vp 1", "E-DSL-PARSE", "found 'vp'"),
    ("give wood to left", "E-DSL-UNSAYABLE", "a token given without its number"),  # 'give' is its word
    ("coins 1 per", "E-DSL-PARSE", "stops too early"),
    ("prodce wood then discard card from hand of self", "E-DSL-PARSE", "found 'wood'"),  # 'discard' is far from it
]


@pytest.mark.parametrize(("text", "code", "message"), NEAR_MISSES, ids=[t for t, _, _ in NEAR_MISSES])
def test_near_misses_keep_their_own_error(text, code, message):
    err = refused(text)
    assert err.code == code and message in err.message, (err.code, err.message)


def test_every_concept_is_a_bullet_of_the_docs_section():
    """The message points at docs/language.md's "What cannot be said yet": each concept is there."""
    page, anchor = DOCS.split("#")
    text = (Path(__file__).resolve().parents[1] / page).read_text(encoding="utf-8")
    headings = {re.sub(r"[^a-z0-9 -]", "", h.lower()).replace(" ", "-") for h in re.findall(r"^#+ (.+)$", text, re.M)}
    assert anchor in headings
    section = text.split("## What cannot be said yet", 1)[1].split("\n## ", 1)[0]
    bullets = re.findall(r"^\* \*\*(.+?)\*\*", section, re.MULTILINE)
    missing = [row.concept for row in REFUSALS if not any(row.concept[0].upper() + row.concept[1:] in b for b in bullets)]
    assert not missing


def test_check_reports_a_refusal_at_its_line_with_the_docs(tmp_path, capsys):
    folder = _mod(tmp_path, "7-wonders", "coins 2\n    at end: vp 1 per red card at most 5")
    assert main(["check", str(folder), "--format", "json"]) == 1
    [found] = json.loads(capsys.readouterr().out)["diagnostics"]
    line = (folder / "cards.yaml").read_text().splitlines()[7]
    assert (found["code"], found["line"], found["column"]) == ("E-DSL-UNSAYABLE", 8, line.index("at most") + 1)
    assert "a ceiling on an amount" in found["message"] and DOCS in found["message"]
    assert found["hint"].startswith("a table of amounts")


# ---- E-DSL-LOOP: real loops only -----------------------------------------------------------------

def _mod(tmp_path: Path, base: str, effect: str) -> Path:
    """A pack extending `base` with a card `keeper` of `effect`: in 7 Wonders, an Age I card in the
    Tavern's place; elsewhere in the place of Architects' `blue_vp3` (4 in the central deck)."""
    seven = base == "7-wonders"
    folder = tmp_path / "mod"
    folder.mkdir()
    (folder / "pack.yaml").write_text("# yaml-language-server: $schema=../../schemas/pack.schema.json\n"
                                      f"id: mod\nname: Mod\nversion: 1.0.0\nextends: {base}\n"
                                      + ("remove:\n  cards: [tavern]\n" if seven else ""), encoding="utf-8")
    (folder / "cards.yaml").write_text("# yaml-language-server: $schema=../../schemas/cards.schema.json\n"
                                       f"- id: {'keeper' if seven else 'blue_vp3'}\n  name: Keeper\n  colour: yellow\n"
                                       + ("  copies: {1: [3, 4, 5, 7]}\n" if seven else "")
                                       + f"  effect: |\n    {effect}\n", encoding="utf-8")
    return folder


def _errors(folder: Path) -> list[str]:
    return [d.code for d in check_pack(folder)[1] if d.severity == "error"]


def test_a_card_building_from_the_discard_on_its_build_runs_once(tmp_path):
    """In 7 Wonders a city holds no two cards of one name: the card's second copy in the discard
    cannot be built, so its `on build` cannot set itself off again; check accepts it."""
    folder = _mod(tmp_path, "7-wonders", "on build: build card from discard free")
    assert _errors(folder) == []
    state = load_game(folder, players=3, seed=0).new_state()
    catalogue = state.game.catalogue.cards
    state.players[0].zones["hand"][0] = catalogue["keeper"]
    state.shared["discard"] = [catalogue["keeper"], catalogue["loom"]]
    state.legal = {}
    for seat in list(state.current_players()):
        hand = state.players[seat].zones["hand"]
        state.apply(seat, next(a for a in state.legal_actions(seat) if a.card == hand[0].id
                               and a.verb == ("build" if seat == 0 else "discard")))
    offered = {a.card for a in state.legal_actions(0)}
    assert "loom" in offered and "keeper" not in offered
    state.apply(0, next(a for a in state.legal_actions(0) if a.card == "loom"))
    city = [c.id for c in state.players[0].zones["city"]]
    assert city.count("keeper") == 1 and "loom" in city
    assert sorted(state.current_players()) == [0, 1, 2]  # the next turn: nothing more was asked


def test_a_players_on_build_is_not_set_off_by_the_cards_it_builds(tmp_path):
    folder = _mod(tmp_path, "7-wonders", "vp 1")
    (folder / "rules.yaml").write_text("# yaml-language-server: $schema=../../schemas/rules.schema.json\n"
                                       "player_effects:\n  - 'on build: build card from discard free'\n", encoding="utf-8")
    assert "E-DSL-LOOP" not in _errors(folder)


LOOPS = [
    ("7-wonders", "on build: lay card from city of self on discard then build card from discard free"),  # it leaves, comes back
    ("7-wonders", "on take card: build card from discard free"),  # every card built sets it off again
    ("7-wonders", "on build: give top card of city of self to left"),  # it goes round the table
    ("7-wonders", "on build: coins 1 or lay card from city of self on discard then build card from discard free"),
    ("architects", "on build: take top card of central_deck"),  # the card drawn may be another like it
]  # where a city may hold two of one card, tests/test_hostile_packs.py: "a card whose build builds another like it"


@pytest.mark.parametrize(("base", "effect"), LOOPS, ids=[e for _, e in LOOPS])
def test_real_loops_are_refused(tmp_path, base, effect):
    assert "E-DSL-LOOP" in _errors(_mod(tmp_path, base, effect))

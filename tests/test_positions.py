"""What only grows in a game, read from a pack (issue 28, item 7): the counts an objective held
proves were met (tokens no sentence of the pack takes away), and sharing beyond the middle for a mod
whose medals are all shareable. The positions of the rule books are tests/test_reach.py's tables
(cases 7 and 8); the readings are in docs/rules-notes.md (Medals, Cards by age)."""

from __future__ import annotations

import pytest

from wonderforge.dsl.parser import parse_count
from wonderforge.interpreter.files.reach import Lasting
from wonderforge.interpreter.files.scenario import load_scenario

from test_reach import MEDALS, architects


def laurels(folder, *sentences: str):
    """A mod of the medals pack with a token kind of its own, laurels, that one medal counts."""
    mod = folder / "laurels"
    mod.mkdir()
    (mod / "pack.yaml").write_text("id: laurels\nname: Laurels\nversion: 0.1.0\nextends: architects-medals\n")
    (mod / "rules.yaml").write_text("tokens:\n  laurel: {value: 1}\n")
    (mod / "medals.yaml").write_text('- {id: three_blue, objective: 2 laurel token, effect: "at end: vp 4"}\n')
    (mod / "progress.yaml").write_text("".join(f'- {{id: p{i}, timing: ongoing, effect: "{s}"}}\n'
                                               for i, s in enumerate(("on stage: take 1 laurel token",) + sentences)))
    path = folder / "scenario.yaml"
    path.write_text("game: laurels\nplayers:\n  - {name: a, wonder: giza, medals: [three_blue], tokens: {laurel: 1}}\n"
                    "  - {name: b, wonder: rhodes}\n")
    return path


def test_tokens_no_sentence_takes_away_only_grow(tmp_path):
    [refused] = load_scenario(laurels(tmp_path)).diagnostics
    assert (refused.code, refused.line, refused.column) == ("E-SCENARIO-PIECE", 3, 38)


@pytest.mark.parametrize("sentence", ["on stage: give 1 laurel token to left", "at turn end: return 1 laurel token",
                                      "on stage: vp -1 or spend 1 laurel token"])
def test_tokens_a_sentence_takes_away_may_have_been_more(tmp_path, sentence):
    assert load_scenario(laurels(tmp_path, sentence)).diagnostics == []


def test_what_only_grows_is_read_from_the_pack():
    from helpers import game_for
    lasting = Lasting(game_for(MEDALS, 3).pack)
    assert [lasting.grows(parse_count(c)) for c in ("stage", "victory token", "progress token", "blue card",
                                                    "cat", "coins", "stage in left", "blue card in left")] == \
        [True, True, True, False, False, False, True, False]


def test_only_a_shareable_medal_is_shared_beyond_the_middle_count(tmp_path):
    """With every medal shareable (a mod), more medals held by several than lie in the middle."""
    mod = tmp_path / "all-shared"
    mod.mkdir()
    (mod / "pack.yaml").write_text("id: all-shared\nname: All shared\nversion: 0.1.0\nextends: architects-medals\n")
    (mod / "medals.yaml").write_text("".join(
        f'- {{id: {m}, objective: 1 card, shareable: true, effect: "at end: vp 4"}}\n'
        for m in ("three_blue", "three_red", "seven_cards")))
    path = tmp_path / "scenario.yaml"
    path.write_text(architects(game="all-shared", options="{experts: true}", bob="medals: [three_blue, three_red, "
                               "seven_cards]", ann="medals: [three_blue, three_red, seven_cards]"))
    [refused] = load_scenario(path).diagnostics
    assert (refused.code, refused.line, refused.column, refused.message) == (
        "E-SCENARIO-DUPLICATE", 9, 37, "bob and ann hold the same medal 'seven_cards'")

"""Positions no game reaches, though each holding looks fine (issue 28, item 7): a medal whose
objective its holder never met, a medal shared that the rules give to one player, more cards of an
age than its turns play. Each refusal is at the item to blame, with the rule (docs/rules-notes.md);
positions written from the rule books that a game reaches score.

Rule texts: ../shared/seeds/002 (Medals: "être le premier à réaliser l'objectif", "Lorsque la
Médaille « Remporter 2 jetons Victoire Militaire au cours d'une Bataille » est au centre de la
table, il est possible que plusieurs joueurs réalisent cet objectif au même moment"), 003 (7
Wonders: "Chaque Âge comporte 6 tours de jeu, durant lesquels les joueurs vont mettre une et une
seule carte en jeu", Babylon B's seventh card, Halicarnassus's card from the discard).
"""

from __future__ import annotations

import json

import pytest

from wonderforge.dsl.parser import parse_count
from wonderforge.interpreter.files.reach import Lasting
from wonderforge.interpreter.files.scenario import load_scenario
from wonderforge.tools.cli.commands import main

from test_reach import architects, seven

AGE1 = "lumber_yard, stone_pit, clay_pool, ore_vein, baths, altar"
AGE2 = "sawmill, quarry, brickyard, foundry, aqueduct, temple"
AGE3 = "pantheon, gardens, town_hall, palace, senate, arena"
MEDALS = "architects-medals"
RULE_OF_TURNS = " (rules.yaml `flow.turns_per_round`; docs/rules-notes.md, Cards by age)"


def city(side: str, stages: int, cards: str) -> str:
    return f"side: {side}\n    stages: {stages}\n    cards: [{cards}]"


def duel(a: str, b: str = "stages: 0") -> str:
    """Architects Medals at two players: bob (giza) and ann (rhodes)."""
    return f"game: {MEDALS}\nplayers:\n  - name: bob\n    wonder: giza\n    {a}\n  - name: ann\n    wonder: rhodes\n    {b}\n"


# (case, scenario, code, line, column, message, hint or None)
REFUSED = [
    # 1. a medal is won by meeting its objective; stages built and tokens held never fall
    ("three stages with two built", architects(game=MEDALS, bob="stages: 2\n    medals: [three_stages]"),
     "E-SCENARIO-PIECE", 6, 14, "bob cannot have won the medal 'three_stages': its objective is `3 stage`, and bob's "
     "count of `stage` is 2", "a medal is won when its objective is met, and `stage` never falls in a game: bob never "
     "had more (docs/rules-notes.md, Medals)"),
    ("two stages and the cat with one stage", architects(game=MEDALS, ann="stages: 1\n    cat: true\n"
                                                                          "    medals: [two_stages_cat]"),
     "E-SCENARIO-PIECE", 10, 14, "ann cannot have won the medal 'two_stages_cat': its objective `2 stage and 1 cat` "
     "needs `2 stage`, and ann's count of `stage` is 1", None),
    ("two progress tokens with one", architects(game=MEDALS, cid="progress: [culture]\n    medals: [two_progress]"),
     "E-SCENARIO-PIECE", 12, 14, "cid cannot have won the medal 'two_progress': its objective is `2 progress token`, "
     "and cid's count of `progress token` is 1", None),
    ("progress, victory and cat without a victory", duel("progress: [culture]\n    cat: true\n"
                                                         "    medals: [progress_military_cat]"),
     "E-SCENARIO-PIECE", 7, 14, "bob cannot have won the medal 'progress_military_cat': its objective `1 progress "
     "token and 1 victory token and 1 cat` needs `1 victory token`, and bob's count of `victory token` is 0", None),
    ("double victory with one victory", duel("victory_tokens: 1\n    medals: [double_victory]"),
     "E-SCENARIO-PIECE", 6, 14, "bob cannot have won the medal 'double_victory': its objective is `2 victory token "
     "from one battle`, and bob's count of `victory token` is 1", None),
    # ... and a medal several hold they met at one moment: a battle, the only one giving several tokens at once
    ("a double victory shared by neighbours", architects(
        game=MEDALS, options="{experts: true}", bob="victory_tokens: 2\n    medals: [double_victory]",
        ann="victory_tokens: 2\n    medals: [double_victory]"),
     "E-SCENARIO-DUPLICATE", 11, 14, "bob and ann cannot both have won the medal 'double_victory': they met its "
     "objective at one battle, and no battle gives each of them 2 victory tokens",
     "in a battle each player compares shields with each neighbour, and two neighbours never both win against "
     "each other (docs/rules-notes.md, Medals)"),
    ("a double victory shared in a duel", duel("victory_tokens: 2\n    medals: [double_victory]",
                                               "victory_tokens: 2\n    medals: [double_victory]")
     .replace("players:", "options: {experts: true}\nplayers:"),
     "E-SCENARIO-DUPLICATE", 11, 14, None, None),
    # 2. six turns an age, one card a turn: built, under a stage or discarded
    ("seven cards of age 1", seven(alice=city("a", 0, AGE1 + ", theater")),
     "E-SCENARIO-CARD", 7, 72, "alice holds 7 cards of age 1, more than the turns play: theater is one too many",
     "a player plays 6 cards of each age's hand, one a turn: 6 at most; held: lumber_yard, stone_pit, clay_pool, "
     "ore_vein, baths, altar, theater" + RULE_OF_TURNS),
    ("a card of two ages, both full", seven(alice=city("a", 0, f"{AGE1}, {AGE2}, loom")),
     "E-SCENARIO-CARD", 7, 127, "alice holds 13 cards of age 1 or age 2, more than the turns play: loom is one too "
     "many", None),
    ("stages beyond the turns", seven(alice=city("a", 3, f"{AGE1}, {AGE2}, {AGE3}")),
     "E-SCENARIO-STAGES", 6, 13, "alice's 3 stages and 18 cards need 21 cards played, and alice plays 18 in "
     "a game", "a stage is built with a card of the hand, in one of the turns: a player plays 6 cards of "
     "each age's hand, one a turn" + RULE_OF_TURNS),
    ("Babylon B plays a seventh card, not an eighth",
     seven(bob=city("b", 2, AGE1 + ", theater, scriptorium")).replace("giza", "babylon"),
     "E-SCENARIO-CARD", 10, 81, "bob holds 8 cards of age 1, more than the turns play: scriptorium is one too many",
     "a player plays 6 cards of each age's hand, one a turn, and bob's powers play 1 more: 7 at most; held: "
     "lumber_yard, stone_pit, clay_pool, ore_vein, baths, altar, theater, scriptorium" + RULE_OF_TURNS),
    ("Halicarnassus without the stage that builds from the discard",
     seven(carol=city("a", 1, AGE1 + ", theater")).replace("rhodes", "halicarnassus"),
     "E-SCENARIO-CARD", 13, 72, "carol holds 7 cards of age 1, more than the turns play: theater is one too many",
     None),
]


@pytest.mark.parametrize("text, code, line, column, message, hint", [c[1:] for c in REFUSED],
                         ids=[c[0] for c in REFUSED])
def test_an_unreachable_position_is_refused_with_its_rule(tmp_path, capsys, text, code, line, column, message, hint):
    path = tmp_path / "scenario.yaml"
    path.write_text(text)
    assert main(["score", str(path), "--format", "json"]) == 1
    [found] = json.loads(capsys.readouterr().out)["diagnostics"]
    assert (found["code"], found["line"], found["column"]) == (code, line, column), found["message"]
    if message is not None:
        assert found["message"] == message
    if hint is not None:
        assert found["hint"] == hint


REACHED = [
    # what may fall: cards (spent, discarded after a battle or for a progress token, taken by Rome), the cat
    ("three blue won, none left", architects(game=MEDALS, bob="medals: [three_blue]")),
    ("two stages and the cat, the cat gone", architects(game=MEDALS, bob="stages: 2\n    medals: [two_stages_cat]")),
    ("three stages with three", architects(game=MEDALS, bob="stages: [1, 2, 3]\n    medals: [three_stages]")),
    ("progress, victory and the cat, the cat gone", duel("progress: [culture]\n    victory_tokens: 1\n"
                                                         "    medals: [progress_military_cat]")),
    ("double victory in a duel", duel("victory_tokens: 2\n    medals: [double_victory]")),
    ("double victory in the middle for two at one battle", (
        f"game: {MEDALS}\noptions: {{experts: true}}\nplayers:\n"
        "  - {name: a, wonder: giza, victory_tokens: 2, medals: [double_victory]}\n"
        "  - {name: b, wonder: rhodes}\n"
        "  - {name: c, wonder: olympia, victory_tokens: 2, medals: [double_victory]}\n"
        "  - {name: d, wonder: ephesus}\n")),
    ("six cards of each age", seven(alice=city("a", 0, f"{AGE1}, {AGE2}, {AGE3}"))),
    ("a card of two ages in the other", seven(alice=city("a", 1, f"{AGE1}, loom, {AGE2[:-8]}"))),
    ("Babylon B's seventh card", seven(bob=city("b", 2, AGE1 + ", theater")).replace("giza", "babylon")),
    ("Halicarnassus B: three cards from the discard", seven(
        carol=city("b", 3, f"{AGE1}, theater, scriptorium, workshop, {AGE2}")).replace("rhodes", "halicarnassus")),
]


@pytest.mark.parametrize("text", [c[1] for c in REACHED], ids=[c[0] for c in REACHED])
def test_a_position_of_the_rules_scores(tmp_path, text):
    path = tmp_path / "scenario.yaml"
    path.write_text(text)
    state, diagnostics, _ = load_scenario(path)
    assert [d.message for d in diagnostics] == [] and state.is_terminal()


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
                                                    "cat", "coins", "stage in left")] == \
        [True, True, True, False, False, False, False]


def test_only_a_shareable_medal_is_shared_beyond_the_middle_count(tmp_path):
    """With every medal shareable (a mod), more medals held by several than lie in the middle."""
    mod = tmp_path / "all-shared"
    mod.mkdir()
    (mod / "pack.yaml").write_text("id: all-shared\nname: All shared\nversion: 0.1.0\nextends: architects-medals\n")
    (mod / "medals.yaml").write_text("".join(f'- {{id: {m}, objective: 1 card, shareable: true, effect: "at end: vp 4"}}\n'
                                             for m in ("three_blue", "three_red", "seven_cards")))
    path = tmp_path / "scenario.yaml"
    path.write_text(architects(game="all-shared", options="{experts: true}", bob="medals: [three_blue, three_red, "
                               "seven_cards]", ann="medals: [three_blue, three_red, seven_cards]"))
    [refused] = load_scenario(path).diagnostics
    assert (refused.code, refused.line, refused.column, refused.message) == (
        "E-SCENARIO-DUPLICATE", 9, 37, "bob and ann hold the same medal 'seven_cards'")

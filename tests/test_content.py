"""The shipped packs: they load clean, and their numbers match the rule books."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from wonderforge.dsl import ast, verbs
from wonderforge.dsl.parser import parse_effects
from wonderforge.dsl.parser import verb_words
from wonderforge.dsl.vocabulary import KINDS
from wonderforge.interpreter.games.check import check_pack, load_pack
from wonderforge.interpreter.packs.folders import CONTENT, SCHEMAS, shipped_packs
from wonderforge.interpreter.packs.schemas import COMPONENT_KINDS

ROOT = Path(__file__).resolve().parents[1]
PACK_IDS = ["7-wonders", "architects", "architects-medals", "dice"]


def test_the_four_games_are_shipped():
    assert [p.name for p in shipped_packs()] == sorted(PACK_IDS)


@pytest.mark.parametrize("pack_id", PACK_IDS)
def test_shipped_pack_is_clean(pack_id):
    pack, diagnostics = check_pack(pack_id)
    assert pack is not None
    assert [d.render() for d in diagnostics] == []


@pytest.mark.parametrize("path", sorted(CONTENT.rglob("*.yaml")), ids=lambda p: str(p.relative_to(CONTENT)))
def test_every_content_file_names_an_existing_schema(path):
    first = path.read_text(encoding="utf-8").splitlines()[0]
    match = re.fullmatch(r"# yaml-language-server: \$schema=\.\./\.\./schemas/([a-z]+)\.schema\.json", first)
    assert match, first
    kind = match.group(1)
    assert kind == path.stem and (SCHEMAS / f"{kind}.schema.json").is_file()


def _vp(effects) -> int:
    """The fixed vp a stage gives."""
    return sum(a.amount.values[0] for e in effects.items for a in e.actions
               if isinstance(a, verbs.Gain) and a.counter.text == "vp" and a.amount.form == "fixed")


# ---- 7 Wonders ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def seven():
    return load_pack("7-wonders")


def _deck_size(pack, age: int, players: int, colour_filter) -> int:
    return sum(sum(1 for need in c.data["copies"].get(age, []) if need <= players)
               for c in pack.components["cards"].values()
               if isinstance(c.data["copies"].get(age), list) and colour_filter(c.data["colour"]))


@pytest.mark.parametrize("players", range(3, 8))
@pytest.mark.parametrize("age", [1, 2, 3])
def test_seven_wonders_age_decks_hold_seven_cards_per_player(seven, age, players):
    cards = _deck_size(seven, age, players, lambda colour: colour != "purple")
    guilds = players + 2 if age == 3 else 0
    assert cards + guilds == 7 * players


def test_seven_wonders_has_ten_guilds_each_once_in_age_three(seven):
    guilds = [c for c in seven.components["cards"].values() if c.data["colour"] == "purple"]
    assert len(guilds) == 10
    assert all(c.data["copies"] == {3: 1} for c in guilds)
    assert seven.rules["setup"]["random_cards"] == {"deck": 3, "colour": "purple", "keep_players_plus": 2}


def test_seven_wonders_cards_of_two_ages_are_one_card(seven):
    for cid in ("loom", "glassworks", "press"):
        assert sorted(seven.components["cards"][cid].data["copies"]) == [1, 2]


def test_seven_wonders_has_seven_wonders_with_two_sides(seven):
    wonders = seven.components["wonders"]
    assert sorted(wonders) == ["alexandria", "babylon", "ephesus", "giza", "halicarnassus", "olympia", "rhodes"]
    stages = {w: {s: len(d["stages"]) for s, d in wonders[w].data["sides"].items()} for w in wonders}
    assert stages["giza"] == {"a": 3, "b": 4}
    assert stages["rhodes"] == {"a": 3, "b": 2}
    assert all(sides["a"] == 3 for sides in stages.values())


def test_seven_wonders_chains_point_to_earlier_ages(seven):
    cards = seven.components["cards"]
    for card in cards.values():
        for other in card.data.get("chain_from", []):
            assert max(cards[other].data["copies"]) < min(card.data["copies"])


def test_seven_wonders_examples_from_the_issue(seven):
    cards = seven.components["cards"]
    assert cards["vineyard"].data["copies"] == {2: [3, 6]}
    assert cards["vineyard"].data["effect"] == "coins 1 per brown card in self, left, right"
    assert cards["lighthouse"].data["cost"] == "glass + stone"
    assert cards["lighthouse"].data["chain_from"] == ["caravansery"]


# ---- Architects -----------------------------------------------------------------------

WONDER_VP = {"giza": 30, "rhodes": 26, "alexandria": 25, "halicarnassus": 24, "olympia": 22, "ephesus": 22, "babylon": 20}
CARD_KINDS = {"gold", "stone", "clay", "wood", "glass", "papyrus", "gear", "compass", "tablet",
              "blue_vp3", "blue_vp2_cat", "red_0_horn", "red_1_horn", "red_2_horn"}


@pytest.fixture(scope="module")
def architects():
    return load_pack("architects")


def test_architects_card_kinds(architects):
    assert set(architects.components["cards"]) == CARD_KINDS


@pytest.mark.parametrize("wonder", sorted(WONDER_VP))
def test_architects_wonder_deck_has_25_cards_and_stage_vp_total(architects, wonder):
    w = architects.components["wonders"][wonder]
    assert sum(w.data["deck"].values()) == 25
    assert len(w.data["stages"]) == 5
    total = sum(_vp(parse_effects(stage.get("effect", ""))) for stage in w.data["stages"])
    assert total == WONDER_VP[wonder]


def test_architects_central_deck_has_60_cards(architects):
    assert sum(architects.rules["decks"]["central_deck"].values()) == 60


def test_architects_has_15_progress_tokens(architects):
    tokens = architects.components["progress"]
    assert len(tokens) == 14
    assert sum(t.data.get("copies", 1) for t in tokens.values()) == 15


# ---- Medals ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def medals():
    return load_pack("architects-medals")


def test_medals_extends_architects_and_adds_medals_wonders_and_tokens(medals):
    assert [b.id for b in medals.bases] == ["architects"]
    assert len(medals.components["medals"]) == 12
    assert {"rome", "ur"} <= set(medals.components["wonders"])
    assert {"logistics", "domestication", "entrenchment"} <= set(medals.components["progress"])
    assert medals.components["progress"]["culture"].data["copies"] == 3


def test_medals_rome_and_ur_are_marked_reconstructed(medals):
    for wonder in ("rome", "ur"):
        data = medals.components["wonders"][wonder].data
        assert data.get("reconstructed") is True and data.get("reason")
        assert sum(data["deck"].values()) == 25


# ---- Dice -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def dice():
    return load_pack("dice")


def test_dice_has_ten_dice_seven_in_the_forum(dice):
    all_dice = dice.components["dice"].values()
    assert sum(d.data.get("copies", 1) for d in all_dice) == 10
    assert sum(d.data.get("copies", 1) for d in all_dice if d.data["start"] == "forum") == 7


def test_dice_has_seven_boards(dice):
    assert sorted(dice.components["boards"]) == sorted(WONDER_VP)


# ---- the line between data and engine ---------------------------------------------------


# Kinds of names that the engine itself defines (player selectors, cost kinds, its own periods).
ENGINE_KINDS = ("selector", "cost_kind", "period")
# The engine's own words that a pack may also use as names: keys of rules.yaml sections
# (`military: {victory, defeat}`, `science:`, `vocabulary: {resources, wild}`, a wonder's `deck`),
# the draft's action verbs and the keys of an observation.
ENGINE_WORDS = {"victory", "defeat", "science", "resource", "wild", "deck", "wonder", "discard", "hand", "city"}


def test_no_content_id_in_the_engine():
    ids = set()
    for pack in PACK_IDS:
        loaded = load_pack(pack)
        ids |= {cid for kind in loaded.components.values() for cid in kind} | {pack}
        ids |= loaded.vocabulary.all(*(k for k in KINDS if k not in ENGINE_KINDS))
    # The engine's own words may coincide with an id: a verb (`science`), a file kind (`dice`).
    ids = {i for i in ids if len(i) > 3} - set(verb_words()) - set(COMPONENT_KINDS) - ENGINE_WORDS
    found = []
    for folder in ("dsl", "interpreter"):
        for path in (ROOT / folder).rglob("*.py"):
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                for word in re.findall(r"['\"]([a-z][a-z0-9_-]{3,})['\"]", line):
                    if word in ids:
                        found.append(f"{path.relative_to(ROOT)}:{n}: {word}")
    assert found == []

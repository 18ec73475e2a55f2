"""pack.yaml `modify:` (interpreter/modify.py): some fields of a base's component changed, the rest kept.

A modification plays (a cheaper card is buildable, its new effect pays), every error is shown in the
modder's pack.yaml at the entry that caused it (table-driven, at exact places), it stands with
`remove:` and whole replacements in one pack and along an extends chain, and the tools see the result.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from sevenwonders_helpers import set_coins, set_hand
from wonderforge.interpreter import Action, load_game
from wonderforge.interpreter.games.check import check_pack, load_pack
from wonderforge.interpreter.packs.folders import SCHEMAS
from wonderforge.interpreter.packs.schemas import COMPONENT_KINDS
from wonderforge.tools.cli.commands import main


def head(kind: str) -> str:
    return f"# yaml-language-server: $schema=../../schemas/{kind}.schema.json\n"


def mod(base: str, modify: str, name: str = "mod", remove: str = "", **files: str):
    """A pack `name` extending `base`; `modify` (and `remove`) the lines under its key; each of `files`
    (cards, wonders...) the text of that file, after its schema line."""
    def build(tmp_path: Path) -> Path:
        folder = tmp_path / name
        folder.mkdir()
        text = head("pack") + f"id: {name}\nname: Mod\nversion: 1.0.0\nextends: {base}\n"
        text += (f"remove:\n{remove}" if remove else "") + (f"modify:\n{modify}" if modify else "")
        (folder / "pack.yaml").write_text(text, encoding="utf-8")
        for kind, body in files.items():
            (folder / f"{kind}.yaml").write_text(head(kind) + body, encoding="utf-8")
        return folder
    return build


def after(*builds):
    """Packs built in order (bases first): the last one's folder."""
    return lambda tmp_path: [build(tmp_path) for build in builds][-1]


def place(file: Path, marker) -> tuple[int, int]:
    """(line, column) of the nth occurrence of a text in a file (the first by default)."""
    text, nth = marker if isinstance(marker, tuple) else (marker, 1)
    content, at = file.read_text(encoding="utf-8"), -1
    for _ in range(nth):
        at = content.index(text, at + 1)
    return content.count("\n", 0, at) + 1, at - content.rfind("\n", 0, at)


# ---- it plays ------------------------------------------------------------------------------------

CHEAP_AQUEDUCT = "  cards:\n    aqueduct:\n      cost: 1 coin\n      effect: \"on build: coins 4\"\n"


def test_a_cheaper_cost_makes_a_card_buildable_and_its_new_effect_pays(tmp_path):
    """The Aqueduct costs 3 stone; modified to 1 coin, a seat with 1 coin and no stone builds it,
    and its new effect gives it 4 coins on the spot (the other fields are the base's)."""
    folder = mod("7-wonders", CHEAP_AQUEDUCT)(tmp_path)
    assert check_pack(folder)[1] == []
    for pack, buildable in (("7-wonders", False), (str(folder), True)):
        state = load_game(pack, players=3, seed=1).new_state()
        hand = [c.id for c in state.players[0].zones["hand"][:6]]
        set_hand(state, 0, "aqueduct", *hand)
        set_coins(state, 0, 1)
        build = Action("build", "aqueduct")
        assert (build in state.legal_actions(0)) is buildable, pack
        if not buildable:
            continue
        state.apply(0, build)
        for seat in (1, 2):
            state.apply(seat, next(a for a in state.legal_actions(seat) if a.verb == "discard"))
        assert state.players[0].counters["coins"] == 1 - 1 + 4
        assert [c.id for c in state.players[0].zones["city"]] == ["aqueduct"]
    aqueduct = load_pack(folder).components["cards"]["aqueduct"].data
    assert aqueduct == {"id": "aqueduct", "name": "Aqueduct", "name_fr": "Aqueduc", "colour": "blue",
                        "copies": {2: [3, 7]}, "cost": "1 coin", "chain_from": ["baths"], "effect": "on build: coins 4"}


def test_a_modified_card_scores_in_simulated_games(tmp_path, capsys):
    """Whoever builds the modified Altar (vp 40) in a simulated game scores at least 40."""
    folder = mod("7-wonders", "  cards:\n    altar: {cost: 1 coin, effect: vp 40}\n")(tmp_path)
    assert main(["simulate", str(folder), "--players", "3", "--games", "6", "--quiet", "--format", "json"]) == 0
    altar = json.loads(capsys.readouterr().out)["components"]["city"]["altar"]
    assert altar["taken"] >= 1 and altar["mean_score_taken"] >= 40


# ---- errors, in the modder's pack.yaml --------------------------------------------------------------

STAGE_2 = "  wonders:\n    giza:\n      sides:\n        a:\n          stages:\n            2: {effect: \"vp 1 per bluee card in self\"}\n"

# (what, pack, [(code, file, marker: text or (text, nth), message fragment, hint fragment)])
CASES = [
    ("an unknown id", mod("7-wonders", "  cards:\n    lighthous: {cost: glass}\n"),
     [("E-REF-UNKNOWN", "pack.yaml", "lighthous", "cannot modify unknown card 'lighthous'", "did you mean 'lighthouse'?")]),
    ("an unknown kind", mod("7-wonders", "  card:\n    lighthouse: {cost: glass}\n"),
     [("E-SCHEMA", "pack.yaml", "card:", "unknown key 'card' in modify", "did you mean 'cards'?")]),
    ("an unknown field", mod("7-wonders", "  cards:\n    baths: {costt: stone}\n"),
     [("E-SCHEMA", "pack.yaml", "costt", "unknown key 'costt' in baths", "did you mean 'cost'?")]),
    ("a field of the wrong type", mod("7-wonders", "  cards:\n    baths:\n      cost: [stone]\n"),
     [("E-SCHEMA", "pack.yaml", "[stone]", "baths.cost must be text, not a list", "")]),
    ("a value out of bounds, in a mapping merged", mod("7-wonders", "  cards:\n    baths: {copies: {1: [0]}}\n"),
     [("E-SCHEMA", "pack.yaml", "0]", "baths.copies.1.1: 0 is less than the minimum of 1", "from 1 to 100")]),
    ("an empty entry", mod("7-wonders", "  cards:\n    baths: {}\n"),
     [("E-SCHEMA", "pack.yaml", "{}", "modify.cards.baths is empty", "give it at least one key")]),
    ("a bad sentence", mod("7-wonders", "  cards:\n    lighthouse:\n      effect: \"on build: coins 2 per yelow card in self\"\n"),
     [("E-DSL-COLOUR", "pack.yaml", "yelow", "unknown colour or card 'yelow'", "did you mean 'yellow'?")]),
    ("a bad sentence in a block", mod("7-wonders", "  cards:\n    lighthouse:\n      effect: |\n        vp 1\n"
                                                   "        coins 2 per yelow card in self\n"),
     [("E-DSL-COLOUR", "pack.yaml", "yelow", "unknown colour or card 'yelow'", "did you mean 'yellow'?")]),
    ("a bad cost", mod("7-wonders", "  cards:\n    lighthouse: {cost: glass + 2 stonee}\n"),
     [("E-DSL-PARSE", "pack.yaml", "stonee", "expected a resource after '2', found 'stonee'", "did you mean 'stone'?")]),
    ("a bad sentence in a stage given by number", mod("7-wonders", STAGE_2),
     [("E-DSL-COLOUR", "pack.yaml", "bluee", "unknown colour or card 'bluee'", "did you mean 'blue'?")]),
    ("a sentence the flow cannot run", mod("7-wonders", "  cards:\n    altar: {effect: ignore different}\n"),
     [("E-DSL-FLOW", "pack.yaml", "ignore different", "cannot happen in a game of the draft flow", "runs:")]),
    ("a cost the flow never pays", mod("7-wonders", "  cards:\n    altar: {cost: 4 different}\n"),
     [("E-DSL-COST", "pack.yaml", "4 different", "never pays '4 different'", "")]),
    ("an unknown colour", mod("7-wonders", "  cards:\n    baths: {colour: purpel}\n"),
     [("E-REF-COLOUR", "pack.yaml", "purpel", "baths: unknown colour 'purpel'", "did you mean 'purple'?")]),
    ("an unknown chain", mod("7-wonders", "  cards:\n    aqueduct: {chain_from: [baths, bathz]}\n"),
     [("E-REF-CHAIN", "pack.yaml", "bathz", "aqueduct: unknown card to chain from 'bathz'", "did you mean 'baths'?")]),
    ("a stage resting on itself", mod("7-wonders", "  wonders:\n    rhodes: {sides: {b: {stages: {1: {requires: [1]}}}}}\n"),
     [("E-REF-STAGE", "pack.yaml", "1]", "rhodes: stage 1 requires stage 1", "earlier stages")]),
    ("fewer copies than the decks need", mod("7-wonders", "  cards:\n    tree_farm:\n      copies: {1: [7]}\n"),
     [("E-DEAL", "pack.yaml", "1:", "mod cannot be dealt at 6 players", "fewer copies in deck 1 than in 7-wonders")]),
    ("a component this pack removes", mod("7-wonders", "  cards:\n    altar: {effect: vp 3}\n",
                                          remove="  cards: [altar]\n", cards="- id: temple\n  colour: blue\n"
                                          "  copies: {2: [3, 6]}\n  cost: wood + clay + glass\n  effect: vp 3\n"),
     [("E-PACK-MODIFY", "pack.yaml", ("altar", 2), "cannot modify card 'altar': this pack removes it",
       "keep either the removal or the modification")]),
    ("a component this pack writes whole", mod("7-wonders", "  cards:\n    theater: {effect: vp 3}\n",
                                               cards="- id: theater\n  colour: blue\n  copies: {1: [3, 6]}\n"
                                               "  effect: vp 4\n"),
     [("E-PACK-MODIFY", "pack.yaml", "theater", "this pack writes it whole in cards.yaml, line 2",
       "change it there")]),
    ("a new id", mod("7-wonders", "  cards:\n    palace: {id: castle}\n"),
     [("E-PACK-MODIFY", "pack.yaml", "id: castle", "a modification cannot change the id of card 'palace'",
       "remove it and write the new one in cards.yaml")]),
    ("an item number past the list", mod("7-wonders", "  wonders:\n    giza: {sides: {a: {stages: {4: {cost: 1 wood}}}}}\n"),
     [("E-PACK-MODIFY", "pack.yaml", "4:", "giza: sides.a.stages has 3 items: there is no item 4", "from 1 to 3")]),
    ("an item named, not numbered", mod("7-wonders", "  wonders:\n    giza: {sides: {a: {stages: {two: {cost: 1 wood}}}}}\n"),
     [("E-PACK-MODIFY", "pack.yaml", "two", "its items are changed by number, not by 'two'", "write the whole list")]),
    ("an item taken out by number", mod("7-wonders", "  wonders:\n    giza: {sides: {a: {stages: {1: null}}}}\n"),
     [("E-PACK-MODIFY", "pack.yaml", "1:", "item 1 of sides.a.stages cannot be taken out", "write the whole list")]),
    ("a field taken out that is not there", mod("7-wonders", "  cards:\n    altar: {chain_from: null}\n"),
     [("E-PACK-MODIFY", "pack.yaml", "chain_from", "altar: chain_from has no value to take out", "leave the key out")]),
    ("a required field taken out", mod("architects-medals", "  medals:\n    three_green: {objective: null}\n"),
     [("E-SCHEMA", "pack.yaml", "objective", "three_green lacks the required key 'objective'", "give it a value")]),
    ("a wonder's sides taken out", mod("7-wonders", "  wonders:\n    giza: {sides: null}\n"),
     [("E-SCHEMA", "pack.yaml", "{sides", "giza needs either 'sides' or 'stages'", "")]),
    # a deck taken out by its number: at the entry's key, not in the base's cards.yaml
    ("a deck taken out", mod("7-wonders", "  cards:\n    altar: {copies: {1: null}}\n"),
     [("E-DEAL", "pack.yaml", "1:", "mod cannot be dealt at 3 to 7 players", "fewer copies in deck 1 than in 7-wonders")]),
    ("a deck taken out, quoted", mod("7-wonders", "  cards:\n    altar: {copies: {\"1\": null}}\n"),
     [("E-DEAL", "pack.yaml", "\"1\"", "mod cannot be dealt at 3 to 7 players", "fewer copies in deck 1")]),
    ("a number written twice, once quoted", mod("7-wonders", "  cards:\n    temple: {copies: {2: [3], \"2\": [4]}}\n"),
     [("E-PACK-MODIFY", "pack.yaml", "\"2\"", "temple: copies.2 is written twice, as 2 and '2'", "keep one")]),
    # every entry on its own: one that breaks the schema hides none of the others' errors
    ("entries that break the schema beside others", mod("7-wonders", "  cardz:\n    altar: {cost: wood}\n"
                                                        "  medalz:\n    altar: {cost: wood}\n"
                                                        "  cards:\n    Altar: {cost: wood}\n    altar: vp 3\n"
                                                        "    baths: {cost: stonee}\n  wonders:\n    giza: {namee: x}\n"
                                                        "    rhodes: {nam: x, citi: y}\n",
                                                        remove="  wondrz: [giza]\n  cardz: [altar]\n"
                                                               "  cards: [temple]\n"),
     [("E-SCHEMA", "pack.yaml", "wondrz", "unknown key 'wondrz' in remove", "did you mean 'wonders'?"),
      ("E-SCHEMA", "pack.yaml", "cardz", "unknown key 'cardz' in remove", "did you mean 'cards'?"),
      ("E-SCHEMA", "pack.yaml", ("cardz", 2), "unknown key 'cardz' in modify", "did you mean 'cards'?"),
      ("E-SCHEMA", "pack.yaml", "medalz", "unknown key 'medalz' in modify", "did you mean 'medals'?"),
      ("E-SCHEMA", "pack.yaml", "nam:", "unknown key 'nam' in rhodes", "did you mean 'name'?"),
      ("E-SCHEMA", "pack.yaml", "citi", "unknown key 'citi' in rhodes", "did you mean 'city'?"),
      ("E-SCHEMA", "pack.yaml", "Altar", "'Altar' is not allowed as a key of modify.cards", "snake_case"),
      ("E-SCHEMA", "pack.yaml", "vp 3", "modify.cards.altar must be a mapping, not text", ""),
      ("E-DSL-PARSE", "pack.yaml", "stonee", "expected a resource, found 'stonee'", "did you mean 'stone'?"),
      ("E-SCHEMA", "pack.yaml", "namee", "unknown key 'namee' in giza", "did you mean 'name'?"),
      ("E-REF-CHAIN", "pack.yaml", ("temple", 1), "removing card 'temple' breaks what 7-wonders writes", "")]),
    # items said as the entry numbers them, from 1, in every message
    ("an item of the wrong type", mod("7-wonders", "  wonders:\n    babylon: {sides: {b: {stages: {1: 5}}}}\n"),
     [("E-SCHEMA", "pack.yaml", "5}", "babylon.sides.b.stages.1 must be a mapping, not a number", "")]),
    ("an item of a list written whole", mod("7-wonders", "  wonders:\n    giza: {sides: {a: {stages: "
                                                         "[{cost: wood, effect: vp 1}, {cost: [wood]}]}}}\n"),
     [("E-SCHEMA", "pack.yaml", "[wood]", "giza.sides.a.stages.2.cost must be text, not a list", "")]),
    ("an item number quoted", mod("7-wonders", "  wonders:\n    giza: {sides: {a: {stages: {\"4\": {cost: wood}}}}}\n"),
     [("E-PACK-MODIFY", "pack.yaml", "\"4\"", "giza: sides.a.stages has 3 items: there is no item 4", "from 1 to 3")]),
    # a mapping that changes nothing
    ("an empty item", mod("7-wonders", "  wonders:\n    giza: {sides: {a: {stages: {2: {}}}}}\n"),
     [("E-PACK-MODIFY", "pack.yaml", "2:", "giza: sides.a.stages.2 is empty: it changes nothing", "take it out")]),
    ("an empty mapping", mod("7-wonders", "  cards:\n    altar: {copies: {}, cost: wood}\n"),
     [("E-PACK-MODIFY", "pack.yaml", "copies", "altar: copies is empty: it changes nothing", "take it out")]),
    # what a base mod took out already, named
    ("a field a base mod took out", after(mod("7-wonders", "  cards:\n    aqueduct: {chain_from: null}\n", name="base"),
                                          mod("base", "  cards:\n    aqueduct: {chain_from: null}\n")),
     [("E-PACK-MODIFY", "pack.yaml", "chain_from", "aqueduct: chain_from has no value to take out: base already takes "
       "it out", "leave the key out")]),
    # a required key lacking: the component's schema, not pack.yaml's
    ("a new side without stages", mod("7-wonders", "  wonders:\n    giza: {sides: {c: {effect: produce stone}}}\n"),
     [("E-SCHEMA", "pack.yaml", "{effect", "giza.sides.c lacks the required key 'stages'",
       "wonders.schema.json")]),
]


@pytest.mark.parametrize("what, build, expected", CASES, ids=[case[0] for case in CASES])
def test_errors_are_shown_at_the_modify_entry(what, build, expected, tmp_path):
    folder = build(tmp_path)
    _, diagnostics = check_pack(folder)
    listing = "\n".join(d.render() for d in diagnostics)
    found = {(d.code, Path(d.file).resolve().relative_to(folder.resolve()).as_posix(), d.line, d.column): d
             for d in diagnostics if d.severity == "error"}
    want = {(code, file, *place(folder / file, marker)): (message, hint) for code, file, marker, message, hint in expected}
    assert sorted(found) == sorted(want), listing
    for key, (message, hint) in want.items():
        assert message in found[key].message and hint in (found[key].hint or ""), found[key].render()


# (what, pack, [(code, file, marker, message fragment, hint fragment)]): what never plays though written,
# warned of where it is written; no error
WARNINGS = [
    ("a side setup.sides does not deal", mod("7-wonders", "  wonders:\n    giza:\n      sides:\n        c:\n"
                                                          "          effect: produce stone\n"
                                                          "          stages: [{cost: wood, effect: vp 50}]\n"),
     [("W-DEAL", "pack.yaml", "c:", "giza: side 'c' is never dealt: rules.yaml setup.sides deals a, b",
       "list 'c' in setup.sides")]),
    ("a building no die opens", mod("dice", "  buildings:\n    gallery: {die: green}\n"),
     [("W-DEAL", "pack.yaml", "green", "gallery is never checked: no face of a die opens it (the green die opens "
       "university)", "name gallery on a face of the green die")]),
    ("a building no die opens, checked free", mod("dice", "  buildings:\n    gallery: {die: green}\n"
                                                          "    market: {boxes: {1: {effect: check 1 box in gallery}}}\n"),
     []),
    # two bases of one pack: the later one's component stands whole
    ("two bases changing one component", after(mod("7-wonders", "  cards:\n    lighthouse: {cost: glass}\n", name="first"),
                                               mod("7-wonders", "  cards:\n    lighthouse: {effect: vp 9}\n",
                                                   name="second"),
                                               mod("[first, second]", "")),
     [("W-PACK-EXTENDS", "pack.yaml", "second", "first and second both change card 'lighthouse': second's stands, "
       "and what first wrote of it is lost", "write lighthouse as it should be in this pack")]),
    ("a later base holding what an earlier one changed, as it was",
     after(mod("7-wonders", "  cards:\n    altar: {cost: glass}\n  wonders:\n    giza: {name: G}\n", name="first"),
           mod("7-wonders", "  cards:\n    baths: {effect: vp 9}\n", name="second"), mod("[first, second]", "")),
     [("W-PACK-EXTENDS", "pack.yaml", "second", "second, extended after first, holds card 'altar', wonder 'giza' as "
       "written before first changed them: first's changes are lost", "extend second before first")]),
    ("a later base built on the earlier one", after(mod("7-wonders", "  cards:\n    altar: {cost: glass}\n", name="first"),
                                                    mod("first", "  cards:\n    altar: {effect: vp 9}\n", name="second"),
                                                    mod("[first, second]", "")),
     []),
]


@pytest.mark.parametrize("what, build, expected", WARNINGS, ids=[case[0] for case in WARNINGS])
def test_what_never_plays_is_a_warning_where_it_is_written(what, build, expected, tmp_path):
    folder = build(tmp_path)
    diagnostics = check_pack(folder)[1]
    found = {(d.code, d.severity, Path(d.file).name, d.line, d.column): d for d in diagnostics}
    want = {(code, "warning", file, *place(folder / file, marker)): (message, hint)
            for code, file, marker, message, hint in expected}
    assert sorted(found) == sorted(want), "\n".join(d.render() for d in diagnostics)
    for key, (message, hint) in want.items():
        assert message in found[key].message and hint in found[key].hint, found[key].render()


def test_a_quoted_number_changes_what_the_number_names(tmp_path):
    """`"2"` is read as text, but it names deck 2 of the Aqueduct's copies (one deck, as `2` does:
    one copy more at 4 players) and the second stage of Giza's side a."""
    for key in ("2", '"2"'):
        folder = mod("7-wonders", f"  cards:\n    aqueduct: {{copies: {{{key}: [3, 4, 7]}}}}\n"
                                  f"  wonders:\n    giza: {{sides: {{a: {{stages: {{{key}: {{cost: 2 wood}}}}}}}}}}\n",
                     name=f"mod{len(key)}")(tmp_path)
        pack = check_pack(folder)[0]
        assert pack.components["cards"]["aqueduct"].data["copies"] == {2: [3, 4, 7]}, key
        stages = pack.components["wonders"]["giza"].data["sides"]["a"]["stages"]
        assert [stage["cost"] for stage in stages] == ["2 stone", "2 wood", "4 stone"], key
        deck = load_game(str(folder), players=4, seed=3).flow.deck(None, "2")
        assert [card.id for card in deck].count("aqueduct") == 2 and len(deck) == 4 * 7 + 1, key


def test_an_id_a_base_removes_is_named_as_removed(tmp_path):
    mod("7-wonders", "", name="base", remove="  cards: [loom]\n")(tmp_path)
    [d] = check_pack(mod("base", "  cards:\n    loom: {cost: 1 coin}\n")(tmp_path))[1]
    assert (d.code, d.message, d.hint) == ("E-REF-UNKNOWN", "cannot modify unknown card 'loom'", "base removes it")


def test_what_taking_out_a_cards_copies_does_is_shown_at_the_modify_entry(tmp_path):
    folder = mod("7-wonders", "  cards:\n    altar: {copies: null}\n")(tmp_path)
    found = [(d.code, d.severity, Path(d.file).name, d.line, d.column, d.message.split(":")[0])
             for d in check_pack(folder)[1]]
    assert found == [("W-DEAL", "warning", "pack.yaml", *place(folder / "pack.yaml", "copies"),
                      "altar is never dealt, at any player count"),
                     ("E-DEAL", "error", "pack.yaml", *place(folder / "pack.yaml", "null"),
                      "mod cannot be dealt at 3 to 7 players")]


# ---- with remove: and replacements, along a chain of packs ---------------------------------------


def test_modify_remove_and_replace_in_one_pack(tmp_path):
    folder = mod("7-wonders", "  cards:\n    lighthouse: {cost: glass}\n  wonders:\n    giza:\n"
                 "      sides: {a: {stages: {2: {cost: 2 wood}}}}\n",
                 remove="  cards: [altar]\n",
                 cards="- id: temple\n  colour: blue\n  copies: {2: [3, 6]}\n  cost: wood + clay + glass\n"
                       "  effect: vp 3\n- id: shrine\n  colour: blue\n  copies: {1: [3, 5]}\n  effect: vp 2\n")(tmp_path)
    pack, diagnostics = check_pack(folder)
    assert diagnostics == []
    cards, base = pack.components["cards"], load_pack("7-wonders").components["cards"]
    assert "altar" not in cards and cards["shrine"].pack == "mod"
    assert cards["temple"].data["cost"] == "wood + clay + glass" and "chain_from" not in cards["temple"].data
    assert cards["lighthouse"].data == {**base["lighthouse"].data, "cost": "glass"}
    stages = pack.components["wonders"]["giza"].data["sides"]["a"]["stages"]
    assert [s["cost"] for s in stages] == ["2 stone", "2 wood", "4 stone"]
    assert [s["effect"] for s in stages] == ["vp 3", "vp 5", "vp 7"]


def test_a_mod_of_a_mod_lays_its_changes_over_the_others(tmp_path):
    """The first mod makes the Lighthouse cheaper, the second changes its effect and the first's
    copies: each field is the last writer's, and an error is shown in the file of the pack that wrote it."""
    mod("7-wonders", "  cards:\n    lighthouse:\n      cost: glass\n      copies: {3: [3, 5]}\n", name="first")(tmp_path)
    second = mod("first", "  cards:\n    lighthouse:\n      copies: {3: {2: 6}}\n"
                          "      effect: \"at end: vp 2 per yellow card in self\"\n", name="second")(tmp_path)
    pack, diagnostics = check_pack(second)
    assert diagnostics == []
    lighthouse = pack.components["cards"]["lighthouse"]
    assert {k: lighthouse.data[k] for k in ("cost", "copies", "effect", "colour")} == {
        "cost": "glass", "copies": {3: [3, 6]}, "effect": "at end: vp 2 per yellow card in self", "colour": "yellow"}
    first_yaml, second_yaml = tmp_path / "first" / "pack.yaml", second / "pack.yaml"
    assert [(lighthouse.owner(f), lighthouse.at(f)[0].path) for f in (("cost",), ("effect",), ("copies", 3), ("colour",))] == [
        ("first", str(first_yaml)), ("second", str(second_yaml)), ("second", str(second_yaml)),
        ("7-wonders", lighthouse.source.path)]
    assert lighthouse.at(("copies", 3, 1)) == (lighthouse.at(("effect",))[0], ("modify", "cards", "lighthouse", "copies", 3, 2))
    assert lighthouse.at(("copies", 3, 0))[0].path == str(first_yaml)
    broken = mod("first", "  cards:\n    lighthouse: {effect: vp 1 per yelow card in self}\n", name="broken")(tmp_path)
    [d] = check_pack(broken)[1]
    assert (d.code, d.file, d.line, d.column) == ("E-DSL-COLOUR", str(broken / "pack.yaml"),
                                                  *place(broken / "pack.yaml", "yelow"))


# ---- the tools see the merged component -----------------------------------------------------------


def test_diff_and_cards_show_a_modified_field(tmp_path, capsys):
    folder = mod("7-wonders", CHEAP_AQUEDUCT)(tmp_path)
    assert main(["diff", "7-wonders", str(folder), "--format", "json"]) == 0
    changes = json.loads(capsys.readouterr().out)["changes"]
    assert [(c["id"], c["field"], c["status"], c["before"], c["after"]) for c in changes] == [
        ("aqueduct", "cost", "changed", "3 stone", "1 coin"), ("aqueduct", "effect", "changed", "vp 5", "on build: coins 4")]
    assert main(["cards", str(folder), "--format", "json"]) == 0
    out = capsys.readouterr().out
    aqueduct = next(c for c in json.loads(out)["components"] if c["id"] == "aqueduct")
    assert (aqueduct["cost"], aqueduct["effects"], aqueduct["chain_from"]) == ("1 coin", ["on build: coins 4"], ["baths"])


def test_the_schema_lets_every_component_kind_be_modified_and_removed():
    properties = json.loads((SCHEMAS / "pack.schema.json").read_text(encoding="utf-8"))["properties"]
    assert sorted(properties["modify"]["properties"]) == sorted(properties["remove"]["properties"]) == sorted(COMPONENT_KINDS)


def test_the_example_of_docs_packs_md_checks_clean(tmp_path):
    page = (Path(__file__).resolve().parents[1] / "docs" / "packs.md").read_text(encoding="utf-8")
    text = next(block for block in page.split("```yaml\n")[1:] if "\nmodify:" in block.split("```")[0]).split("```")[0]
    folder = tmp_path / yaml.safe_load(text)["id"]
    folder.mkdir()
    (folder / "pack.yaml").write_text(text, encoding="utf-8")
    pack, diagnostics = check_pack(folder)
    assert diagnostics == [] and pack.components["cards"]["lighthouse"].data["cost"] == "glass"


@pytest.mark.parametrize(("effects", "warned"), [
    (["on left take red card: vp 5"], True),   # the base's cat sentence is left out
    (["at turn start: look at top card of central_deck if 1 cat", "on left take red card: vp 5"], False),
])
def test_a_list_of_sentences_that_leaves_out_the_base_s_is_warned_at_its_key(tmp_path, effects, warned):
    (tmp_path / "pack.yaml").write_text("id: lists\nname: Lists\nversion: 1.0.0\nextends: architects\n")
    (tmp_path / "rules.yaml").write_text(yaml.safe_dump({"player_effects": effects}))
    found = [d for d in check_pack(str(tmp_path))[1] if d.code == "W-RULES-REPLACED"]
    assert [(d.line, d.column, d.severity) for d in found] == ([(1, 1, "warning")] if warned else [])
    assert not warned or "'at turn start: look at top card of central_deck if 1 cat'" in found[0].message

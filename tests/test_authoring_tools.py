"""The tools for writing packs (issue 16): `new` (a pack folder to start from), `diff` (what a pack
changes from another, also before `simulate --against`) and `cards` (every component as a designer
reads it, as text, JSON or an HTML page)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import yaml

from wonderforge.interpreter.packs.folders import CONTENT, SCHEMAS, shipped_packs

from wonderforge.interpreter.packs.schemas import COMPONENT_KINDS
from wonderforge.interpreter.games.check import check_pack, load_pack
from wonderforge.tools.authoring import diff as diff_tool
from wonderforge.tools.cli.commands import main

BASES = [p.name for p in shipped_packs()]


def run(capsys, *argv) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def run_json(capsys, *argv) -> dict:
    status, out, err = run(capsys, *argv, "--format", "json")
    assert status == 0, err
    return json.loads(out)


def copy_of(name: str, tmp_path: Path, folder: str = "copy") -> Path:
    """A shipped pack copied to a folder of its own."""
    target = tmp_path / folder
    shutil.copytree(CONTENT / name, target)
    return target


def edit(path: Path, old: str, new: str) -> None:
    """Replace the first `old` of a file (Alexandria comes first in every wonders.yaml)."""
    text = path.read_text(encoding="utf-8")
    assert old in text, f"no {old!r} in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


# ---- new -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("base", BASES)
def test_a_new_pack_checks_clean_and_changes_nothing_for_every_base(capsys, tmp_path, base):
    folder = tmp_path / "mods" / "my-mod"
    status, out, err = run(capsys, "new", "my-mod", "--extends", base, "--out", str(folder))
    assert status == 0, err
    assert "checked: no problems found" in out
    kinds = [k for k in COMPONENT_KINDS if load_pack(base).components[k]]
    assert sorted(p.name for p in folder.iterdir()) == sorted(["pack.yaml", "rules.yaml", "schemas"]
                                                              + [f"{k}.yaml" for k in kinds])
    pack = yaml.safe_load((folder / "pack.yaml").read_text())
    assert pack["id"] == "my-mod" and pack["extends"] == base
    status, out, _ = run(capsys, "check", str(folder))
    assert status == 0 and "no problems found" in out  # clean: no warning either
    # one example per kind, each a copy of one of the base's components: nothing differs
    assert run_json(capsys, "diff", base, str(folder))["changes"] == []
    for kind in kinds:
        copied, = yaml.safe_load((folder / f"{kind}.yaml").read_text(encoding="utf-8"))
        assert copied == load_pack(base).components[kind][copied["id"]].data


@pytest.mark.parametrize("base", BASES)
def test_a_fresh_pack_plays_exactly_as_its_base(capsys, tmp_path, base):
    folder = tmp_path / "my-mod"
    assert run(capsys, "new", "my-mod", "--extends", base, "--out", str(folder))[0] == 0
    games = {}
    for pack in (base, str(folder)):
        out = tmp_path / f"{len(games)}.jsonl"
        assert run(capsys, "simulate", pack, "--games", "4", "--seed", "11", "--bots", "greedy,random",
                   "--workers", "1", "--quiet", "--out", str(out))[0] == 0
        games[pack] = [{k: v for k, v in json.loads(line).items() if k != "pack"}
                       for line in out.read_text().splitlines()]
    assert games[base] == games[str(folder)] and len(games[base]) == 4


@pytest.mark.parametrize("base", BASES)
def test_every_file_of_a_new_pack_names_its_schema_inside_the_pack(capsys, tmp_path, base):
    """The schemas a new pack's files name are copies in the pack (schemas/): the lines keep working
    when WonderForge is installed elsewhere, or the pack moved (here: moved, and no schemas/ left
    where the package is would change anything)."""
    made = tmp_path / "deep" / "er" / "mod"
    assert run(capsys, "new", "mod", "--extends", base, "--out", str(made))[0] == 0
    folder = tmp_path / "moved"
    made.rename(folder)
    for path in folder.glob("*.yaml"):
        first, second = path.read_text(encoding="utf-8").splitlines()[:2]
        prefix = "# yaml-language-server: $schema="
        assert first == f"{prefix}schemas/{path.stem}.schema.json"
        copy = folder / first[len(prefix):]
        assert copy.read_bytes() == (SCHEMAS / f"{path.stem}.schema.json").read_bytes()
        assert second.startswith(f"# {path.name}: ")  # then what the file is for
    assert (folder / "schemas" / "bots.schema.json").is_file()  # for a bots.yaml the designer adds
    assert run(capsys, "check", str(folder))[0] == 0


def test_a_file_without_its_schema_line_is_told_a_line_that_leads_to_the_schema(tmp_path):
    folder = tmp_path / "deep" / "mod"
    folder.mkdir(parents=True)
    (folder / "pack.yaml").write_text("id: mod\nname: Mod\nversion: 1.0.0\nextends: dice\n")
    hint = next(d.hint for d in check_pack(str(folder))[1] if d.code == "W-SCHEMA-LINE")
    where = hint.split("$schema=")[1].rstrip("'")
    assert (folder / where).resolve() == (SCHEMAS / "pack.schema.json").resolve()


def test_new_writes_in_the_working_folder_by_default_and_into_an_empty_folder(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "new", "house_rules", "--extends", "dice")[0] == 0
    assert (tmp_path / "house_rules" / "boards.yaml").is_file()
    (tmp_path / "empty").mkdir()
    assert run(capsys, "new", "other", "--extends", "architects", "--out", "empty")[0] == 0
    assert (tmp_path / "empty" / "progress.yaml").is_file()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary folder left
    (tmp_path / "here").mkdir()
    monkeypatch.chdir(tmp_path / "here")
    assert run(capsys, "new", "here", "--extends", "7-wonders", "--out", ".")[0] == 0  # the working folder, empty
    assert (tmp_path / "here" / "cards.yaml").is_file()


def test_the_new_example_says_how_to_raise_points_by_one(capsys, tmp_path):
    folder = tmp_path / "mod"
    assert run(capsys, "new", "mod", "--extends", "architects-medals", "--out", str(folder))[0] == 0
    path = folder / "medals.yaml"
    text = path.read_text(encoding="utf-8")
    said = " ".join(line[2:] for line in text.splitlines() if line.startswith("# "))
    after, before, field = re.search(r"write `([^`]+)` for `([^`]+)` in its (\w+) \(one vp more\)", said).groups()
    data = yaml.safe_load(text)
    data[0][field] = data[0][field].replace(before, after, 1)  # the change the comment suggests, made
    path.write_text(text.split("\n- id:")[0] + "\n" + yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    medal, = run_json(capsys, "diff", "architects-medals", str(folder))["changes"]
    assert (medal["section"], medal["field"], medal["before"], medal["after"]) == \
        ("medals", "effect", "at end: vp 4", "at end: vp 5")


@pytest.mark.parametrize("base", BASES)
def test_the_commented_modify_example_of_a_new_pack_checks_clean_once_uncommented(capsys, tmp_path, base):
    """pack.yaml shows a `modify:` of two kinds of components the other files do not replace; taken
    out of its comment, it checks clean and each of its entries raises a component's points by one."""
    folder = tmp_path / "mod"
    assert run(capsys, "new", "mod", "--extends", base, "--out", str(folder))[0] == 0
    replaced = {(c["section"], c["id"]) for c in run_json(capsys, "diff", base, str(folder))["changes"]}
    text = (folder / "pack.yaml").read_text(encoding="utf-8")
    block = text[text.index("\n# modify:\n") + 1:]
    assert all(line.startswith("# ") for line in block.splitlines())
    (folder / "pack.yaml").write_text(text.replace(block, "".join(line[2:] + "\n" for line in block.splitlines())),
                                      encoding="utf-8")
    assert run(capsys, "check", str(folder))[0] == 0
    modified = yaml.safe_load((folder / "pack.yaml").read_text(encoding="utf-8"))["modify"]
    assert len(modified) == 2 and all(len(entries) == 1 for entries in modified.values())
    changes = [c for c in run_json(capsys, "diff", base, str(folder))["changes"] if (c["section"], c["id"]) not in replaced]
    assert sorted((c["section"], c["id"]) for c in changes) == sorted((k, cid) for k, e in modified.items() for cid in e)
    for change in changes:
        raised = [int(a) - int(b) for a, b in zip(re.findall(r"\d+", change["after"]), re.findall(r"\d+", change["before"]))]
        assert sorted(raised) == [0] * (len(raised) - 1) + [1], change


def test_new_says_when_a_folder_beside_it_stands_in_for_the_base(capsys, tmp_path):
    copy_of("dice", tmp_path, "dice")  # a base is looked for beside the pack first
    status, _, err = run(capsys, "new", "mod", "--extends", "dice", "--out", str(tmp_path / "mod"))
    assert status == 0
    assert err.startswith(f"wonderforge new: note: {tmp_path / 'dice'} is the pack ") and "not the shipped dice" in err


# ---- diff ----------------------------------------------------------------------------------------


def test_diff_of_a_modified_copy_shows_exactly_the_changed_field(capsys, tmp_path):
    mod = copy_of("7-wonders", tmp_path)
    edit(mod / "cards.yaml", "  copies: {1: [3]}\n  cost: 1 coin\n  effect: produce ore / clay",
         "  copies: {1: [3]}\n  cost: 2 coin\n  effect: produce ore / clay")
    data = run_json(capsys, "diff", "7-wonders", str(mod))
    assert data["differences"] == 1 and data["omitted"] == 0
    assert data["changes"] == [{"section": "cards", "id": "clay_pit", "field": "cost", "status": "changed",
                                "before": "1 coin", "after": "2 coin"}]
    status, out, _ = run(capsys, "diff", "7-wonders", str(mod))
    assert status == 0
    assert out.splitlines() == [f"A = 7-wonders 1.0.0, B = {mod} (7-wonders 1.0.0): 1 difference",
                                "cards: 1 changed", "  ~ clay_pit", '      ~ cost: "1 coin" -> "2 coin"']


def test_diff_names_nested_fields_rules_keys_added_and_removed_components(capsys, tmp_path):
    mod = copy_of("architects", tmp_path)
    edit(mod / "wonders.yaml", "      effect: vp 4\n", "      effect: vp 14\n")  # Alexandria's first stage
    edit(mod / "rules.yaml", "players: {min: 2, max: 7}", "players: {min: 2, max: 6}")
    progress = mod / "progress.yaml"
    text = progress.read_text(encoding="utf-8")
    start = text.index("- id: decor\n")
    progress.write_text(text[:start] + text[text.index("- id:", start + 1):], encoding="utf-8")
    data = run_json(capsys, "diff", "architects", str(mod))
    found = {(c["section"], c["id"], c["field"], c["status"]) for c in data["changes"]}
    assert found == {("wonders", "alexandria", "stages[0].effect", "changed"),
                     ("progress", "decor", None, "removed"), ("rules.yaml", None, "players.max", "changed")}
    text = run(capsys, "diff", str(mod), "architects")[1]
    assert "  + decor (Decoration)" in text and "  ~ players.max: 6 -> 7" in text


def test_diff_ignores_blanks_around_a_text(capsys, tmp_path):
    mod = copy_of("architects", tmp_path)
    edit(mod / "cards.yaml", "  effect: produce gold\n", "  effect: |\n    produce gold\n")
    assert run_json(capsys, "diff", "architects", str(mod))["differences"] == 0
    assert run(capsys, "diff", "architects", str(mod))[1].rstrip().endswith(": no differences")


def test_diff_output_is_bounded(capsys, monkeypatch):
    monkeypatch.setattr(diff_tool, "MAX_CHANGES", 5)
    data = run_json(capsys, "diff", "7-wonders", "architects")
    assert len(data["changes"]) == 5 and data["omitted"] == data["differences"] - 5 > 100
    text = run(capsys, "diff", "7-wonders", "architects")[1]
    assert text.rstrip().splitlines()[-1] == (f"... and {data['differences'] - 5:,} more differences not shown: "
                                              "only the first 5 are")


def test_simulate_against_prints_the_diff_first(capsys, tmp_path):
    mod = copy_of("architects", tmp_path)
    edit(mod / "wonders.yaml", "      effect: vp 4\n", "      effect: vp 14\n")
    common = ["simulate", "architects", "--games", "2", "--workers", "1", "--quiet", "--against", str(mod)]
    status, out, _ = run(capsys, *common)
    assert status == 0
    assert out.splitlines()[:4] == [f"A = architects 1.0.0, B = {mod} (architects 1.0.0): 1 difference",
                                    "wonders: 1 changed", "  ~ alexandria",
                                    '      ~ stages[0].effect: "vp 4" -> "vp 14"']
    data = run_json(capsys, *common)
    assert data["diff"]["changes"] == [{"section": "wonders", "id": "alexandria", "field": "stages[0].effect",
                                        "status": "changed", "before": "vp 4", "after": "vp 14"}]
    assert "moves" in data and data["against"]["pack"] == str(mod)


# ---- cards ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", BASES)
def test_cards_lists_every_component_once_as_data_and_as_text(capsys, name):
    pack = load_pack(name)
    data = run_json(capsys, "cards", name)
    listed = [(c["kind"], c["id"]) for c in data["components"]]
    assert sorted(listed) == sorted((k, cid) for k in COMPONENT_KINDS for cid in pack.components[k])
    low, high = pack.rules["players"]["min"], pack.rules["players"]["max"]
    assert data["players"] == list(range(low, high + 1)) and data["not_dealt"] == []
    for entry in data["components"]:
        assert entry["name"]
        if "effect" in pack.components[entry["kind"]][entry["id"]].data:
            assert entry["effects"], entry["id"]
    status, text, _ = run(capsys, "cards", name)
    assert status == 0 and text.startswith(f"{pack.name} ({name} 1.0.0): ")
    for kind, cid in listed:
        assert f"({cid})" in text


def test_cards_of_7_wonders_say_cost_effect_copies_and_chains(capsys):
    data = {c["id"]: c for c in run_json(capsys, "cards", "7-wonders")["components"]}
    lighthouse = data["lighthouse"]
    assert lighthouse["cost"] == "glass + stone" and lighthouse["chain_from"] == ["caravansery"]
    assert lighthouse["effects"] == ["on build: coins 1 per yellow card in self", "at end: vp 1 per yellow card in self"]
    assert lighthouse["copies"] == [{"source": "age 3", "deck": "3",
                                     "by_players": {"3": 1, "4": 1, "5": 1, "6": 2, "7": 2}}]
    assert "lighthouse" in data["caravansery"]["chains_to"]
    assert data["alexandria"]["parts"][1] == {"label": "side a, stage 1", "cost": "2 stone", "effects": ["vp 3"],
                                              "fields": {}}
    text = run(capsys, "cards", "7-wonders")[1]
    assert ("Lighthouse (lighthouse) [yellow]\n    cost: glass + stone\n"
            "    effect: on build: coins 1 per yellow card in self\n"
            "            at end: vp 1 per yellow card in self\n"
            "    copies: age 3: 1 at 3-5, 2 at 6-7 players\n    chains from: caravansery\n") in text
    assert text.index("== cards: age 1, brown ==") < text.index("== cards: age 3, purple ==") < text.index("== wonders ==")


def test_cards_at_one_player_count(capsys):
    data = run_json(capsys, "cards", "7-wonders", "--players", "3")
    ids = {c["id"]: c for c in data["components"]}
    assert data["players"] == [3] and "excavation" in data["not_dealt"] and "excavation" not in ids
    assert ids["lighthouse"]["copies"][0]["by_players"] == {"3": 1}
    text = run(capsys, "cards", "7-wonders", "--players", "3")[1]
    assert "\nnot dealt at 3 players: excavation, forest_cave, mine, tree_farm, " in text
    assert "    copies: age 3: 2\n" in run(capsys, "cards", "7-wonders", "--players", "6")[1]


def test_cards_read_copies_from_the_decks_that_hold_them(capsys):
    gold = next(c for c in run_json(capsys, "cards", "architects")["components"] if c["id"] == "gold")
    sources = {c["source"]: c["by_players"]["4"] for c in gold["copies"]}
    assert sources["central_deck"] == 6 and sources["deck of alexandria"] == 4 and len(sources) == 8
    text = run(capsys, "cards", "architects")[1]
    assert "    copies: central_deck: 6; decks of alexandria 4, babylon 3," in text


def test_cards_show_the_parts_of_a_dice_board(capsys):
    text = run(capsys, "cards", "dice")[1]
    assert ("    building wonder, box 1: cost 3 resource; on build: coins 2 per box in wonder; "
            "at end: vp 2 per box in wonder\n") in text
    assert "    track symbol_a, box 1: cost free; vp 1\n" in text


def hostile_mod(tmp_path: Path) -> Path:
    """A pack whose card name holds HTML and a control character."""
    folder = tmp_path / "mod"
    folder.mkdir()
    (folder / "pack.yaml").write_text("# yaml-language-server: $schema=x/pack.schema.json\n"
                                      "id: mod\nname: Mod & <Co>\nversion: 1.0.0\nextends: 7-wonders\n")
    (folder / "cards.yaml").write_text("# yaml-language-server: $schema=x/cards.schema.json\n"
                                       "- id: altar\n  name: \"<script>alert('x')</script> & \\e[2J\"\n"
                                       "  colour: blue\n  copies: {1: [3, 5]}\n  effect: vp 2\n")
    return folder


def test_the_html_gallery_is_one_escaped_page_grouped_by_age_and_colour(capsys, tmp_path):
    status, page, _ = run(capsys, "cards", str(hostile_mod(tmp_path)), "--format", "html")
    assert status == 0 and page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &amp; \\x1b[2J" in page
    assert "<script" not in page and "\x1b" not in page
    assert "<h1>Mod &amp; &lt;Co&gt; <small>mod 1.0.0</small></h1>" in page
    assert "src=" not in page and "http" not in page and "<link" not in page  # nothing outside the page
    assert '<h2>cards: age 1, brown</h2>' in page and '<h2>wonders</h2>' in page
    assert page.count('<article class="tile"') == 75 + 3 + 7  # Loom, Glassworks, Press in two ages


def test_cards_text_escapes_control_characters(capsys, tmp_path):
    text = run(capsys, "cards", str(hostile_mod(tmp_path)))[1]
    assert "\x1b" not in text and "\\x1b[2J (altar) [blue]" in text


# ---- errors --------------------------------------------------------------------------------------


def broken_pack(tmp_path: Path) -> Path:
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "pack.yaml").write_text("# yaml-language-server: $schema=x/pack.schema.json\n"
                                      "id: broken\nname: Broken\nversion: 1.0.0\nextends: 7-wonders\n")
    (folder / "cards.yaml").write_text("# yaml-language-server: $schema=x/cards.schema.json\n"
                                       "- id: altar\n  colour: blue\n  effect: vp 2 stonee\n")
    return folder


@pytest.mark.parametrize("argv, status, message, hint", [
    (["new", "My Mod", "--extends", "7-wonders"], 2, "new: error: 'My Mod' is not a pack id", "e.g. 'my-mod'"),
    (["new", "_mod", "--extends", "7-wonders"], 2, "'_mod' is not a pack id", "starting with a letter or a digit"),
    (["new", "dice", "--extends", "7-wonders"], 2, "'dice' is the id of a shipped pack", "e.g. 'dice-mod'"),
    (["new", "mod", "--extends", "7-wonder"], 2, "unknown base pack '7-wonder'", "did you mean '7-wonders'?"),
    (["new", "mod", "--extends", "content/dice"], 2, "unknown base pack 'content/dice'",
     "--extends takes a shipped pack: 7-wonders, architects"),
    (["new", "mod", "--extends", "dice", "--out", "{full}"], 2, "is not empty", "give a new or empty folder"),
    (["new", "mod", "--extends", "dice", "--out", "{file}"], 2, "exists and is not a folder", "--out"),
    (["new", "mod", "--extends", "dice", "--out", "elsewhere/7-wonders"], 2, "is named like a shipped pack",
     "a pack's base is looked for beside it by that name"),
    (["new", "mod\x1b[2J", "--extends", "dice"], 2, "'mod\\x1b[2J' is not a pack id", "e.g. 'mod-2j'"),
    (["diff", "nope", "7-wonders"], 2, "diff: error: no pack 'nope'", "a shipped pack: 7-wonders, architects"),
    (["diff", "7-wonders", "{broken}"], 1, "cards.yaml:4:", "E-DSL"),
    (["cards", "nope"], 2, "cards: error: no pack 'nope'", "folder holding pack.yaml"),
    (["cards", "7-wonders", "--players", "9"], 2, "7-wonders plays with 3 to 7 players, not 9",
     "give --players from 3 to 7"),
    (["cards", "{broken}"], 1, "cards.yaml:4:", "E-DSL"),
])
def test_errors_are_short_and_say_what_to_do(capsys, tmp_path, argv, status, message, hint):
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "notes.txt").write_text("mine")
    (tmp_path / "file").write_text("")
    places = {"full": tmp_path / "full", "file": tmp_path / "file", "broken": broken_pack(tmp_path)}
    argv = [a.format(**places) if a.startswith("{") else a for a in argv]
    got, out, err = run(capsys, *argv)
    assert (got, out) == (status, "")
    assert message in err and hint in err and "Traceback" not in err
    if status == 2:  # one line and its hint
        assert err.startswith(f"wonderforge {argv[0]}: error: ") and len(err.splitlines()) == 2
    assert (tmp_path / "full").is_dir() and [p.name for p in (tmp_path / "full").iterdir()] == ["notes.txt"]


@pytest.mark.parametrize("command", [["diff", "7-wonders"], ["cards"]])
def test_a_broken_pack_s_errors_are_data_under_format_json(capsys, tmp_path, command):
    got, out, err = run(capsys, *command, str(broken_pack(tmp_path)), "--format", "json")
    data = json.loads(out)
    assert (got, err) == (1, "")
    assert [(d["code"], d["line"]) for d in data["diagnostics"]] == [("E-DSL-PARSE", 4)]


@pytest.mark.parametrize("argv", [["cards", "dice", "--players", "0"], ["cards", "dice", "--format", "pdf"],
                                  ["new", "mod"], ["diff", "dice"], ["diff", "dice", "dice", "--format", "html"]])
def test_bad_arguments_are_refused_by_the_parser(capsys, argv):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2 and "Traceback" not in capsys.readouterr().err

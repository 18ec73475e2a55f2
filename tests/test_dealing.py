"""`check` deals every player count a pack declares (interpreter/dealing.py), and `remove:` is
blamed for what it breaks.

Each case is a small mod written into tmp_path, most extending a shipped pack, with every
diagnostic `check` must give: its code and severity, the file of the mod it is in (never a file of
the installed base), the place of a marker in that file, and a fragment of its message.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from wonderforge.interpreter import load_game
from wonderforge.interpreter.games.check import check_pack, load_pack
from wonderforge.interpreter.games.dealing import deal_diagnostics
from wonderforge.interpreter.packs.folders import CONTENT
from wonderforge.interpreter.core.errors import DealError
from wonderforge.tools.cli.commands import main

SHIPPED = ["7-wonders", "architects", "architects-medals", "dice"]


def head(kind: str) -> str:
    return f"# yaml-language-server: $schema=../../schemas/{kind}.schema.json\n"


def mod(base: str, remove: str | None = None, name: str = "mod", **files: str):
    """A pack `name` extending `base`; `remove` the lines under its `remove:`; each of `files`
    (cards, rules, boards...) the text of that file, after its schema line."""
    def build(tmp_path: Path) -> Path:
        folder = tmp_path / name
        folder.mkdir()
        text = head("pack") + f"id: {name}\nname: Mod\nversion: 1.0.0\nextends: {base}\n"
        (folder / "pack.yaml").write_text(text + (f"remove:\n{remove}" if remove else ""), encoding="utf-8")
        for kind, body in files.items():
            (folder / f"{kind}.yaml").write_text(head(kind) + body, encoding="utf-8")
        return folder
    return build


def seven_flow(old: str, new: str) -> str:
    """The `flow:` of the shipped 7 Wonders rules, with one text changed."""
    text = (CONTENT / "7-wonders" / "rules.yaml").read_text(encoding="utf-8")
    flow = text[text.index("flow:"):text.index("\ntrade:")]
    assert old in flow
    return flow.replace(old, new) + "\n"


CARD = "- id: {id}\n  colour: blue\n  {copies}\n  effect: vp 1\n"

# (what, pack, [(code, severity, file, marker: text or (text, nth), message fragment)])
CASES = [
    # -- what cannot be dealt: at the removal that caused it, else at the rules.yaml key
    ("a card short of the hands", mod("7-wonders", "  cards: [tree_farm]\n"),
     [("E-DEAL", "error", "pack.yaml", "tree_farm", "cannot be dealt at 6 and 7 players once tree_farm is removed: "
       "round 1 deals 7 cards of deck 1 to each (42 in all), and that deck has 41 for 6 players")]),
    ("guilds short of the random draw", mod("7-wonders", "  cards: [builders_guild, craftsmens_guild, "
                                                         "spies_guild, traders_guild]\n"),
     [("E-DEAL", "error", "pack.yaml", "builders_guild", "at 5 to 7 players once builders_guild, craftsmens_guild, "
       "spies_guild, traders_guild are removed: rules.yaml `setup.random_cards` keeps players + 2 of them, 7 purple "
       "cards of deck 3, and that deck has 6 for 5 players")]),
    ("a wonder short of the players", mod("7-wonders", "  wonders: [giza]\n"),
     [("E-DEAL", "error", "pack.yaml", "giza", "cannot be dealt at 7 players once giza is removed: each is dealt "
       "a wonder, and it has 6")]),
    ("wonders short, one at a time", mod("architects", "  wonders: [giza, rhodes]\n"),
     [("E-DEAL", "error", "pack.yaml", "giza", "at 6 and 7 players once giza, rhodes are removed")]),
    ("a board short of the players", mod("dice", "  boards: [giza]\n"),
     [("E-DEAL", "error", "pack.yaml", "giza", "at 7 players once giza is removed: each is dealt a board, and it has 6")]),
    ("more players than wonders", mod("7-wonders", rules="players: {min: 3, max: 8}\n"),
     [("E-DEAL", "error", "rules.yaml", "8}", "mod cannot be dealt at 8 players: each is dealt a wonder, and it has 7")]),
    ("hands larger than the decks", mod("7-wonders", rules=seven_flow("hand_size: 7", "hand_size: 8")),
     [("E-DEAL", "error", "rules.yaml", "8", "cannot be dealt at 3 to 7 players: round 1 deals 8 cards of deck 1")]),
    ("a base card given fewer copies", mod("7-wonders", cards="- id: altar\n  colour: blue\n  copies: {1: [3]}\n"
                                                              "  effect: vp 2\n"),
     [("E-DEAL", "error", "cards.yaml", "1:", "mod cannot be dealt at 5 to 7 players: round 1 deals 7 cards of deck 1")]),
    # -- what a removal breaks elsewhere: at the removal, no "did you mean" naming what is removed
    ("a base card chains from a removed card", mod("7-wonders", "  cards: [scriptorium]\n"),
     [("E-REF-CHAIN", "error", "pack.yaml", "scriptorium", "removing card 'scriptorium' breaks what 7-wonders "
       "writes about it: courthouse: unknown card to chain from 'scriptorium' (and 1 more)")]),
    ("the base's decks hold a removed card", mod("architects", "  cards: [gold]\n"),
     [("E-REF-UNKNOWN", "error", "pack.yaml", "gold", "removing card 'gold' breaks what architects writes about "
       "it: alexandria: unknown card in deck 'gold' (and 7 more)")]),
    ("medals short of the objectives", mod("architects-medals", "  medals: [three_blue, three_green, three_grey, "
                                                                "three_red]\n"),
     [("E-RULES", "error", "pack.yaml", "three_blue", "removing three_blue, three_green, three_grey, three_red "
       "leaves 8 medals, but objectives lays 9 at 7 players")]),
    ("an unknown removal", mod("7-wonders", "  cards: [lom, loom]\n"),
     [("E-REF-UNKNOWN", "error", "pack.yaml", "lom", "cannot remove unknown card 'lom'")]),
    # -- warnings
    ("a card in a deck no round deals", mod("7-wonders", cards=CARD.format(id="lost", copies="copies: {4: [3]}")),
     [("W-DEAL", "warning", "cards.yaml", "copies", "lost is never dealt, at any player count: its copies are in "
       "deck 4, which no round deals")]),
    ("a card in no deck", mod("7-wonders", cards=CARD.format(id="nowhere", copies="name: Nowhere")),
     [("W-DEAL", "warning", "cards.yaml", "nowhere", "nowhere is never dealt, at any player count: no deck holds it")]),
    ("an Architects card in no deck", mod("architects", cards=CARD.format(id="nowhere", copies="name: Nowhere")),
     [("W-DEAL", "warning", "cards.yaml", "nowhere", "nowhere is never dealt")]),
    ("fewer players than some cards need", mod("7-wonders", rules="players: {min: 3, max: 5}\n"),
     [("W-DEAL", "warning", "rules.yaml", "5}", "with at most 5 players, 2 cards are never dealt: mine, tree_farm")]),
    ("cards left over", mod("7-wonders", cards=CARD.format(id="extra", copies="copies: {2: [3, 5]}")),
     [("W-DEAL", "warning", "cards.yaml", "2:", "deck 2 holds more cards than round 2 deals (7 to each player): "
       "1 card more at 3 and 4 players; 2 cards more at 5 to 7 players, never dealt")]),
    ("a chain from a later age", mod("7-wonders", cards="- id: altar\n  colour: blue\n  copies: {1: [3, 5]}\n"
                                                        "  chain_from: [palace]\n  effect: vp 2\n"),
     [("W-DEAL", "warning", "cards.yaml", "palace", "altar chains from palace, which no age before age 3 deals "
       "(deck 3), but altar is dealt in age 1 at the latest: the chain can never be used")]),
    ("two tracks of one name", mod("dice", buildings="- id: tower\n  tracks:\n    - id: top\n"
                                                     "      boxes: [{cost: free, vp: 1}]\n    - id: top\n"
                                                     "      boxes: [{cost: free, vp: 2}]\n"),
     [("W-DEAL", "warning", "buildings.yaml", ("top", 2), "building tower has two tracks named top: both name "
       "their boxes tower.top.N, so the first is lost")]),
    ("two buildings of one name on a board", mod("dice", boards="- id: giza\n  name: Giza\n  buildings:\n"
                                                                "    - id: wonder\n      boxes: [{cost: free}]\n"
                                                                "    - id: wonder\n      boxes: [{cost: free}]\n"
                                                                "    - id: market\n      boxes: [{cost: free}]\n"),
     [("W-DEAL", "warning", "boards.yaml", ("wonder", 2), "board giza has two buildings named wonder: both name "
       "their boxes wonder.N, so the first is lost"),
      ("W-DEAL", "warning", "boards.yaml", "market", "board giza's own building market has the name of a building "
       "of buildings.yaml: both name their boxes market.N, so on giza the shared one is lost")]),
    # -- what no game deals, though it is written
    ("a building no die opens", mod("dice", buildings="- id: tower\n  die: red\n  boxes: [{cost: free, vp: 1}]\n"),
     [("W-DEAL", "warning", "buildings.yaml", "red", "tower is never checked: no face of a die opens it (the red "
       "die opens barracks_east, barracks_west), and no box or bonus checks it free")]),
    ("a board's own building no die opens", mod("dice", boards="- id: giza\n  name: Giza\n  buildings:\n"
                                                               "    - id: wonder\n      boxes: [{cost: free}]\n"
                                                               "    - id: tower\n      die: purple\n"
                                                               "      boxes: [{cost: free}]\n"),
     [("W-DEAL", "warning", "boards.yaml", "purple", "tower is never checked: no face of a die opens it (the purple "
       "die opens guild_palace)")]),
    ("a wonder side no game deals", mod("7-wonders", wonders="- id: colossus\n  name: Colossus\n  sides:\n"
                                                             + "".join(f"    {s}: {{effect: produce stone, stages: "
                                                                       "[{cost: wood, effect: vp 3}]}\n"
                                                                       for s in "abc")),
     [("W-DEAL", "warning", "wonders.yaml", "c:", "colossus: side 'c' is never dealt: rules.yaml setup.sides deals a, "
       "b")]),
]


def _place(file: Path, marker) -> tuple[int, int]:
    """(line, column) of the nth occurrence of a text in a file (the first by default)."""
    text, nth = marker if isinstance(marker, tuple) else (marker, 1)
    at = -1
    for _ in range(nth):
        at = file.read_text(encoding="utf-8").index(text, at + 1)
    before = file.read_text(encoding="utf-8")[:at]
    return before.count("\n") + 1, at - before.rfind("\n")


@pytest.mark.parametrize("what, build, expected", CASES, ids=[case[0] for case in CASES])
def test_check_deals_and_blames(what, build, expected, tmp_path):
    folder = build(tmp_path)
    _, diagnostics = check_pack(folder)
    listing = "\n".join(d.render() for d in diagnostics)
    mine = {(d.code, d.severity, Path(d.file).resolve().relative_to(folder.resolve()).as_posix(), d.line, d.column): d
            for d in diagnostics if Path(d.file).resolve().is_relative_to(folder.resolve())}
    # what the mod causes is shown in the mod: only warnings may stand in the installed base's files
    assert len(mine) == len(diagnostics) or all(d.severity == "warning" for d in diagnostics
                                                if Path(d.file).resolve().parent.parent == CONTENT), listing
    want = {(code, severity, file, *_place(folder / file, marker)): fragment
            for code, severity, file, marker, fragment in expected}
    assert sorted(mine) == sorted(want), listing
    for key, fragment in want.items():
        assert fragment in mine[key].message and mine[key].hint, mine[key].render()
        assert "loom" not in mine[key].hint, mine[key].render()  # never suggest what the pack removes


def test_a_removal_a_base_made_already(tmp_path):
    mod("7-wonders", "  cards: [loom]\n", name="base")(tmp_path)
    _, diagnostics = check_pack(mod("base", "  cards: [loom]\n")(tmp_path))
    [d] = diagnostics
    assert (d.code, d.message, d.hint) == ("E-REF-UNKNOWN", "cannot remove unknown card 'loom'", "base already removes it")


def test_each_problem_is_reported_once_with_its_counts(tmp_path):
    """A wonder and a card removed: two problems, each once, whatever the counts they stop."""
    folder = mod("7-wonders", "  wonders: [giza]\n  cards: [tree_farm, clay_pool]\n")(tmp_path)
    _, diagnostics = check_pack(folder)
    assert [(d.code, d.message.split(": ", 1)[0]) for d in diagnostics] == [
        ("E-DEAL", "mod cannot be dealt at 7 players once giza is removed"),
        ("E-DEAL", "mod cannot be dealt at 3 to 6 players once tree_farm, clay_pool are removed")]


@pytest.mark.parametrize("pack", SHIPPED)
def test_the_shipped_packs_deal_at_every_count_and_leave_nothing_out(pack, capsys):
    assert deal_diagnostics(load_pack(pack)) == []
    assert main(["check", pack]) == 0
    assert capsys.readouterr().out.rstrip().endswith("no problems found")


def test_a_count_that_deals_still_loads(tmp_path):
    """`check` refuses the pack, but a game at a count it can deal loads and plays (load_game does not deal
    every count); the count it cannot deal is a DealError."""
    folder = mod("7-wonders", "  wonders: [giza]\n")(tmp_path)
    assert load_game(str(folder), players=6).new_state().current_players() == list(range(6))
    with pytest.raises(DealError, match="mod cannot be played by 7 players: each is dealt a wonder, and it has 6"):
        load_game(str(folder), players=7)


# ---- exit statuses: a pack that cannot be dealt is the pack's problem (1), a bad count the command line's (2)

EXITS = [
    (["play", "{pack}", "--players", "7", "--seed", "1"], 1, "wonderforge play: error: mod cannot be played by 7 players"),
    (["play", "{pack}", "--players", "8"], 2, "mod plays with 3 to 7 players, not 8"),
    (["simulate", "{pack}", "--players", "7", "--games", "1", "--quiet"], 1,
     "wonderforge simulate: error: mod cannot be played by 7 players"),
    (["simulate", "7-wonders", "--against", "{pack}", "--players", "7", "--games", "1", "--quiet"], 1,
     "mod cannot be played by 7 players"),
    (["simulate", "{pack}", "--players", "2", "--games", "1", "--quiet"], 2, "mod plays with 3 to 7 players, not 2"),
    (["bench", "{pack}", "--players", "7", "--games", "1"], 1, "wonderforge bench: error: mod cannot be played by 7"),
    (["bench", "{pack}", "--players", "9", "--games", "1"], 2, "mod plays with 3 to 7 players, not 9"),
    (["check", "{pack}"], 1, ""),
]


@pytest.mark.parametrize("argv, status, message", EXITS, ids=[" ".join(a[:1] + a[2:4]) for a, _, _ in EXITS])
def test_exit_status_of_a_pack_that_cannot_be_dealt(argv, status, message, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("builtins.input", lambda prompt="": "q")
    folder = mod("7-wonders", "  wonders: [giza]\n")(tmp_path)
    assert main([a.format(pack=folder) for a in argv]) == status
    out = capsys.readouterr()
    assert message in out.err and "Traceback" not in out.out + out.err
    if status == 1 and argv[0] != "check":
        assert f"hint: `wonderforge check " in out.err

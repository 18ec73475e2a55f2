"""What the language server answers, asked without the protocol (tools/assist.py): definitions of
the ids a pack.yaml names, completion where a sentence or a field expects names, hover on the
pack's own words; no question at any place of any shipped file fails."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from wonderforge.interpreter.packs.folders import CONTENT
from wonderforge.tools.editor import lsp
from wonderforge.tools.editor.assist import Session, pack_folder
from wonderforge.tools.cli.commands import main


@pytest.fixture
def mod(tmp_path: Path) -> Path:
    assert main(["new", "my-mod", "--extends", "architects", "--out", str(tmp_path / "my-mod")]) == 0
    return tmp_path / "my-mod"


def at(text: str, needle: str, into: int = 0) -> tuple[int, int]:
    """The 1-based line and column of `needle` (plus `into` characters) in a text."""
    for line, content in enumerate(text.splitlines(), 1):
        if needle in content:
            return line, content.index(needle) + 1 + into
    raise AssertionError(needle)


def session(mod: Path, file: str, text: str) -> Session:
    s = Session(mod, {(mod / file).resolve(): text})
    s.check()
    return s


def test_definitions_of_what_pack_yaml_names(mod: Path):
    pack = mod / "pack.yaml"
    text = pack.read_text() + "remove:\n  cards:\n    - glass\n    - blue_vp3\n"
    s = session(mod, "pack.yaml", text)
    path, place = s.definition(pack, *at(text, "extends: architects", 10))
    assert path == CONTENT / "architects" / "pack.yaml"
    base = CONTENT / "architects" / "cards.yaml"
    path, place = s.definition(pack, *at(text, "- glass", 3))
    assert path == base and base.read_text().splitlines()[place.line - 1].strip() == "- id: glass"
    # a card the mod also writes: the base's is the one removed
    path, place = s.definition(pack, *at(text, "- blue_vp3", 3))
    assert path == base and base.read_text().splitlines()[place.line - 1].strip() == "- id: blue_vp3"


def test_completion_of_ids_colours_and_packs(mod: Path):
    pack = mod / "pack.yaml"
    text = pack.read_text() + "remove:\n  cards:\n    - blue_v\n"
    s = session(mod, "pack.yaml", text)
    offered = dict(s.complete(pack, *at(text, "- blue_v", 8)))
    assert {"blue_vp2_cat", "blue_vp3"} <= set(offered) and offered["blue_vp3"] == "card"
    assert all(word.startswith("blue_v") for word in offered)
    assert "architects-medals" in dict(s.complete(pack, *at(text, "extends: architects", 12)))


def test_completion_inside_a_sentence_follows_the_grammar(mod: Path):
    cards = mod / "cards.yaml"
    text = cards.read_text().rstrip() + '\n- id: extra\n  name: Extra\n  colour: blue\n  effect: "at end: vp 1 per "\n'
    s = session(mod, "cards.yaml", text)
    line, column = at(text, "vp 1 per ", 9)
    offered = dict(s.complete(cards, line, column))
    assert "blue" in offered and offered["blue"] == "colour"  # a count: a colour, a counter...
    assert "produce" not in offered  # a verb cannot come there
    line, column = at(text, '"at end', 1)  # after `at `: the periods and events that end
    assert "end" in dict(s.complete(cards, line, column + 3))


def test_hover_on_a_word_of_the_pack_and_of_the_language(mod: Path):
    cards = mod / "cards.yaml"
    text = cards.read_text()
    s = session(mod, "cards.yaml", text)
    line = next(n for n, content in enumerate(text.splitlines(), 1) if content.startswith("  effect: vp"))
    column = text.splitlines()[line - 1].index("vp") + 2
    said = s.hover(cards, line, column)
    assert said and ("counter" in said or "vp" in said)
    assert s.hover(cards, 1, 1) is None or isinstance(s.hover(cards, 1, 1), str)


@pytest.mark.slow  # every position of a shipped pack asked
@pytest.mark.parametrize("pack", ["7-wonders", "architects-medals", "dice"])
def test_no_question_anywhere_in_a_shipped_pack_fails(pack: str):
    folder = CONTENT / pack
    s = Session(folder)
    s.check()
    for file in sorted(folder.glob("*.yaml")):
        lines = file.read_text().splitlines()
        for line in range(1, len(lines) + 2, 7):
            width = len(lines[line - 1]) if line <= len(lines) else 0
            for column in range(1, width + 3, 5):
                s.hover(file, line, column)
                s.complete(file, line, column)
                s.definition(file, line, column)


def test_a_file_outside_any_pack_has_no_pack(tmp_path: Path):
    (tmp_path / "loose.yaml").write_text("a: 1\n")
    assert pack_folder(tmp_path / "loose.yaml") is None


def test_without_pygls_the_server_says_what_to_install(capsys, monkeypatch):
    monkeypatch.setattr(lsp, "_load", lambda: False)
    assert main(["lsp"]) == 2
    err = capsys.readouterr().err
    assert "pip install 'wonderforge[lsp]'" in err and "Traceback" not in err


def test_only_the_server_imports_the_protocol_library():
    """Every command would pay its third of a second at start."""
    code = "import sys, wonderforge.tools.cli.commands; print(sorted(m for m in ('lsprotocol', 'pygls') if m in sys.modules))"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "[]\n"


def test_a_bots_file_offers_the_bot_words_and_the_game_s_actions(mod: Path):
    bots = mod / "bots.yaml"
    text = "bots:\n  - id: mine\n    rules:\n      - do: \n        best: \n"
    s = session(mod, "bots.yaml", text)
    offered = dict(s.complete(bots, 4, len("      - do: ") + 1))
    assert "take" in offered and offered["take"] == "action of this game"
    offered = dict(s.complete(bots, 5, len("        best: ") + 1))
    assert {"points", "production"} <= set(offered) and "blue" in offered  # and the pack's own words
    text = text.replace("best: ", "best: points")
    s = session(mod, "bots.yaml", text)
    assert "score" in s.hover(bots, 5, len("        best: p") + 1)


def test_names_that_would_break_a_whole_sentence_are_not_offered(mod: Path):
    cards = mod / "cards.yaml"
    text = cards.read_text() + "- id: new_card\n  name: New\n  colour: blue\n  cost: 2 st"
    s = session(mod, "cards.yaml", text)
    offered = dict(s.complete(cards, len(text.splitlines()), len("  cost: 2 st") + 1))
    assert "stone" in offered and not {"stables", "statue"} & set(offered)  # cards, not resources


def test_hover_on_an_event_word_shows_the_triggers(mod: Path):
    cards = mod / "cards.yaml"
    text = cards.read_text().rstrip() + "\n- id: extra\n  name: Extra\n  colour: blue\n  effect: |\n    on build: take top card of left\n"
    s = session(mod, "cards.yaml", text)
    line, column = at(text, "on build:", 4)
    assert "Triggers" in s.hover(cards, line, column)  # the event, not the verb `build ... free`
    line, column = at(text, "take top", 1)
    assert "take" in s.hover(cards, line, column)

"""Trust under faults (issue 14): what the command line prints stays bounded and safe, whatever the
input. A diagnostic quotes a window of a long line; a run shows at most MAX_DIAGNOSTICS; inputs past
any real size are one error; text from packs, scenarios and logs never reaches the terminal with a
control character in it. Hostile inputs are generated in tmp_path; each case that holds is counted
in the trust report as a "faults" row.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from trust import count

from wonderforge.dsl.diagnostics import Diagnostic, safe, safe_lines
from wonderforge.dsl.limits import MAX_DIAGNOSTICS, MAX_QUOTED_CHARS, MAX_SCENARIO_ITEMS
from wonderforge.tools.common import output
from wonderforge.tools.cli.commands import main

# Bytes a terminal acts on: none may reach stdout or stderr raw.
RAW = ("\x1b", "\x9b", "\x07", "\x7f", "\r", "\u202e")


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    """The exit status, stdout and stderr of a command; never a traceback."""
    status = main(argv)
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return status, out.out, out.err


def no_raw(text: str) -> None:
    found = [repr(c) for c in RAW if c in text]
    assert not found, f"raw {', '.join(found)} in the output"


# ---- safe ------------------------------------------------------------------------------------

SAFE = [
    ("plain text", "Temple of Artemis", "Temple of Artemis"),
    ("ESC of a colour", "\x1b[31mred", "\\x1b[31mred"),
    ("C1 CSI", "\x9b2J", "\\x9b2J"),
    ("bell and DEL", "a\x07b\x7f", "a\\x07b\\x7f"),
    ("a line end in a name", "bob\nwinner: eve", "bob\\x0awinner: eve"),
    ("a carriage return", "bob\rwinner", "bob\\x0dwinner"),
    ("bidi override", "abc\u202edef", "abc\\u202edef"),
    ("letters beyond ASCII stay", "Éphèse ✓", "Éphèse ✓"),
]


@pytest.mark.parametrize("what, text, shown", SAFE, ids=[row[0] for row in SAFE])
def test_safe_escapes_control_characters(what, text, shown):
    assert safe(text) == shown
    assert safe(shown) == shown  # escaping twice changes nothing
    count("faults")


def test_safe_lines_keeps_line_ends():
    assert safe_lines("a\x1b\nb") == "a\\x1b\nb"


# ---- the window of a long line ----------------------------------------------------------------

LONG = "x" * 500 + " stonee " + "y" * 500


def rendered(source: str, column: int, width: int) -> tuple[str, str]:
    """The source and caret lines of a diagnostic at `column` (1-based) spanning `width` characters."""
    d = Diagnostic("E-TEST", "message", "f.yaml", 1, column, 1, column + width, source=source)
    lines = d.render().splitlines()
    return lines[1], lines[2]


WINDOWS = [
    # what, source line, column, width, the text the carets must stand under
    ("a short line as it is", "  cost: 2 stonee + ore", 11, 6, "stonee"),
    ("the middle of a long line", LONG, 502, 6, "stonee"),
    ("the start of a long line", "stonee " + "y" * 500, 1, 6, "stonee"),
    ("the end of a long line", "x" * 500 + " stonee", 502, 6, "stonee"),
    ("after a control character", "a\x1bb\x9b stonee", 6, 6, "stonee"),
    ("after a tab", "\tcost:\tstonee", 8, 6, "stonee"),
    ("on an escaped character", "name: a\x1bb", 8, 1, "\\x1b"),
]


@pytest.mark.parametrize("what, source, column, width, under", WINDOWS, ids=[row[0] for row in WINDOWS])
def test_the_caret_stands_under_its_words_in_a_window(what, source, column, width, under):
    line, carets = rendered(source, column, width)
    start = carets.index("^")
    assert line[start:start + len(carets.strip())] == under, f"\n{line}\n{carets}"
    assert len(line) <= 4 + 3 + 4 * MAX_QUOTED_CHARS + 3
    if len(source) <= MAX_QUOTED_CHARS:
        assert line == "    " + safe(source.replace("\t", " "))  # short lines are quoted whole, as before
    else:
        assert line.startswith("    ...") or line.endswith("...")
    no_raw(line)
    count("faults")


def test_a_long_line_is_quoted_as_a_window_in_json_too():
    d = Diagnostic("E-TEST", "message", "f.yaml", 1, 502, 1, 508, source=LONG)
    data = d.as_dict()
    assert len(data["source"]) == MAX_QUOTED_CHARS
    assert data["source"][502 - 1 - data["source_start"]:][:6] == "stonee"


def test_a_caret_just_past_the_end_of_the_line():
    assert rendered("cost: 2", 8, 1) == ("    cost: 2", "           ^")


# ---- at most MAX_DIAGNOSTICS ------------------------------------------------------------------


def many(errors: int, warnings: int) -> list[Diagnostic]:
    return ([Diagnostic("W-TEST", f"w{i}", severity="warning") for i in range(warnings)]
            + [Diagnostic("E-TEST", f"e{i}") for i in range(errors)])


def test_a_run_shows_at_most_max_diagnostics_errors_first():
    diagnostics = many(MAX_DIAGNOSTICS, 50)
    shown = output.kept(diagnostics)
    assert len(shown) == MAX_DIAGNOSTICS and all(d.severity == "error" for d in shown)
    assert output.omitted_line(diagnostics, shown).startswith("... and 50 more (50 warnings) not shown")
    data = output.as_data(diagnostics)
    assert (len(data["diagnostics"]), data["diagnostics_total"], data["omitted"]) == (MAX_DIAGNOSTICS, 250, 50)
    assert output.kept(many(3, 4)) == many(3, 4)


# ---- hostile inputs: one error, or a few hundred at most, in small output ----------------------


def scenario(players: str) -> str:
    return f"{{game: 7-wonders, players: [{players}]}}\n"


def ten_thousand_players(tmp_path: Path) -> Path:
    path = tmp_path / "players.yaml"  # about 140 KB on one line
    path.write_text(scenario(", ".join(f"{{name: p{i}}}" for i in range(10_000))), encoding="utf-8")
    return path


def copies_of_a_card(n: int):
    def build(tmp_path: Path) -> Path:
        path = tmp_path / "copies.yaml"
        cards = ", ".join(["altar"] * n)
        path.write_text(scenario(f"{{name: a, wonder: giza, cards: [{cards}]}}, {{name: b, wonder: rhodes}}, "
                                 "{name: c, wonder: olympia}"), encoding="utf-8")
        return path
    return build


def bad_cards_on_one_line(tmp_path: Path) -> Path:
    folder = tmp_path / "mod"
    folder.mkdir()
    (folder / "pack.yaml").write_text("id: mod\nname: Mod\nversion: 1.0.0\nextends: 7-wonders\n", encoding="utf-8")
    cards = ", ".join(f"{{id: bad{i}, name: Bad, colour: blue, cost: 2 stonee, effect: vp 2}}" for i in range(2000))
    (folder / "cards.yaml").write_text(f"[{cards}]\n", encoding="utf-8")  # about 140 KB on one line
    return folder


HOSTILE = [
    # what, command, build, errors found in all (a bound on the work done)
    ("10,000 players on one line", "score", ten_thousand_players, 1),
    ("8,000 copies of one card", "score", copies_of_a_card(8000), 1),
    ("100,000 copies of one card", "score", copies_of_a_card(100_000), 1),
    (f"{MAX_SCENARIO_ITEMS} copies of one card", "score", copies_of_a_card(MAX_SCENARIO_ITEMS), 1),
    ("2,000 bad cards on one line", "check", bad_cards_on_one_line, 2000),
]


@pytest.mark.parametrize("what, command, build, errors", HOSTILE, ids=[row[0] for row in HOSTILE])
def test_a_hostile_input_gives_bounded_output(what, command, build, errors, tmp_path, capsys):
    target = str(build(tmp_path))
    status, out, err = run([command, target], capsys)
    assert status == 1
    text = out + err
    assert text.count(": error[") == min(errors, MAX_DIAGNOSTICS)
    assert len(text) < 100_000, f"{len(text):,} characters printed"
    assert max(map(len, text.splitlines())) < 4 * MAX_QUOTED_CHARS
    if errors > MAX_DIAGNOSTICS:
        assert f" more ({errors - MAX_DIAGNOSTICS:,} errors" in text.splitlines()[-4]  # then the summary lines

    status, out, _ = run([command, "--format", "json", target], capsys)
    data = json.loads(out)
    assert status == 1 and len(out) < 200_000
    assert len(data["diagnostics"]) == min(errors + data["omitted"], MAX_DIAGNOSTICS)
    assert sum(d["severity"] == "error" for d in data["diagnostics"]) == min(errors, MAX_DIAGNOSTICS)
    assert data["diagnostics_total"] == len(data["diagnostics"]) + data["omitted"]
    count("faults")


# ---- a byte order mark -------------------------------------------------------------------------

BOM = "\ufeff"


@pytest.mark.parametrize("bom", ["", BOM], ids=["without", "with a byte order mark"])
def test_a_byte_order_mark_does_not_shift_the_caret(bom, tmp_path, capsys):
    path = tmp_path / "s.yaml"
    path.write_text(bom + "{game: 7-wonders, players: [{name: a, wonder: gizaa}]}\n", encoding="utf-8")
    _, _, err = run(["score", str(path)], capsys)
    assert f"{path}:1:28: error[E-SCENARIO-PLAYERS]" in err
    assert "\n    {game: 7-wonders, players: [{name: a, wonder: gizaa}]}\n" + " " * 31 + "^" in err
    folder = tmp_path / "mod"
    folder.mkdir()
    (folder / "pack.yaml").write_text("id: mod\nname: Mod\nversion: 1.0.0\nextends: 7-wonders\n", encoding="utf-8")
    (folder / "cards.yaml").write_text(bom + "[{id: bad, name: Bad, colour: blue, cost: 2 stonee, effect: vp 2}]\n",
                                       encoding="utf-8")
    _, out, _ = run(["check", str(folder)], capsys)
    assert "cards.yaml:1:45: error[E-DSL-PARSE]" in out
    assert "\n    [{id: bad, name: Bad, colour: blue, cost: 2 stonee, effect: vp 2}]\n" + " " * 48 + "^^^^^^\n" in out
    count("faults")


# ---- control characters from packs, scenarios and logs -----------------------------------------

EVIL_PACK = """\
# yaml-language-server: $schema=../../schemas/pack.schema.json
id: evil
name: "\\e[31mEvil\\e]0;title\\a"
version: 1.0.0
description: "bidi \\u202e and CSI \\u009b2J"
extends: 7-wonders
"""
EVIL_CARDS = """\
# yaml-language-server: $schema=../../schemas/cards.schema.json
- id: altar
  name: "\\e[2JAltar"
  colour: blue
  copies: {1: [3, 5]}
  effect: vp 2
"""
EVIL_SCENARIO = """\
game: {game}
players:
  - {{name: "\\e[31mmallory\\e[0m", wonder: giza, cards: [altar]}}
  - {{name: "bob\\rwinner: eve", wonder: rhodes}}
  - {{name: "\\u009b2Jcarol\\x7f", wonder: olympia, cards: [{card}]}}
"""


def evil_pack(tmp_path: Path) -> Path:
    folder = tmp_path / "evil"
    folder.mkdir()
    (folder / "pack.yaml").write_text(EVIL_PACK, encoding="utf-8")
    (folder / "cards.yaml").write_text(EVIL_CARDS, encoding="utf-8")
    return folder


CONTROL_WARNINGS = [
    # where the warning stands: file, line, column, what it names
    ("pack.yaml", 3, 7, "name holds the control character \\x1b"),
    ("pack.yaml", 5, 14, "description holds the control character \\u202e"),
    ("cards.yaml", 3, 9, "altar.name holds the control character \\x1b"),
]


def test_check_warns_of_control_characters_at_their_place(tmp_path, capsys):
    folder = evil_pack(tmp_path)
    status, out, _ = run(["check", "--format", "json", str(folder)], capsys)
    assert status == 0
    found = {(Path(d["file"]).name, d["line"], d["column"], d["message"])
             for d in json.loads(out)["diagnostics"] if d["code"] == "W-CONTROL-CHAR"}
    assert found == set(CONTROL_WARNINGS)
    count("faults", len(CONTROL_WARNINGS))


def test_a_raw_control_character_is_a_yaml_error_at_its_place(tmp_path, capsys):
    folder = evil_pack(tmp_path)
    (folder / "pack.yaml").write_text(EVIL_PACK.replace("\\e[31m", "\x1b[31m"), encoding="utf-8")
    status, out, _ = run(["check", str(folder)], capsys)
    assert status == 1
    assert "pack.yaml:3:8: error[E-YAML-SYNTAX]: YAML syntax: the control character 0x1b is not allowed" in out
    no_raw(out)
    count("faults")


def commands(tmp_path: Path) -> list[list[str]]:
    folder = evil_pack(tmp_path)
    good = tmp_path / "good.yaml"
    good.write_text(EVIL_SCENARIO.format(game=folder, card="baths"), encoding="utf-8")
    bad = tmp_path / "bad.yaml"
    bad.write_text(EVIL_SCENARIO.format(game=folder, card="\\e[2Jnope"), encoding="utf-8")
    simulate = ["simulate", str(folder), "--players", "3", "--games", "4", "--workers", "1", "--quiet"]
    return [["check", str(folder)], ["score", str(good)], ["score", str(bad)], simulate,
            ["simulate", str(folder), "--players", "3", "--options", "\x1b[2J=1"]]


@pytest.mark.parametrize("form", [[], ["--format", "json"], ["--format", "csv"]], ids=["text", "json", "csv"])
def test_no_control_character_from_a_pack_or_a_scenario_reaches_the_terminal(form, tmp_path, capsys):
    for argv in commands(tmp_path):
        if form[1:] == ["csv"] and argv[0] == "check":  # check has no CSV: its diagnostics are no table
            continue
        _, out, err = run(argv + form, capsys)
        assert out + err, argv
        no_raw(out + err)
        count("faults")


def test_the_terminal_game_shows_pack_names_escaped(tmp_path, capsys, monkeypatch):
    folder = evil_pack(tmp_path)
    answers = iter(["1", "?", "1", "q"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    status, out, err = run(["play", str(folder), "--players", "3", "--seed", "1"], capsys)
    assert status == 0 and "\\x1b[31mEvil" in out
    no_raw(out + err)
    count("faults")

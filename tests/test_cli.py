"""The command line: exit statuses, summaries and JSON output."""

import json

import pytest

from wonderforge.tools.cli.commands import main


def test_check_without_paths_checks_every_shipped_pack(capsys):
    assert main(["check"]) == 0
    out = capsys.readouterr().out
    for pack in ("7-wonders", "architects", "architects-medals", "dice"):
        assert f"{pack} 1.0.0" in out
    assert out.rstrip().endswith("no problems found")


def test_check_json_lists_packs_and_no_diagnostics(capsys):
    assert main(["check", "--format", "json", "7-wonders"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["errors"] == 0 and data["diagnostics"] == []
    [pack] = data["packs"]
    assert pack["id"] == "7-wonders" and pack["ok"] and pack["components"]["cards"] == 75


def test_bad_command_line_exits_2():
    with pytest.raises(SystemExit) as exit_info:
        main(["frobnicate"])
    assert exit_info.value.code == 2


def test_a_broken_card_is_reported_with_file_line_and_caret(tmp_path, capsys):
    (tmp_path / "pack.yaml").write_text("id: mod\nname: Mod\nversion: 1.0.0\nextends: 7-wonders\n")
    (tmp_path / "cards.yaml").write_text(
        "# yaml-language-server: $schema=../../schemas/cards.schema.json\n"
        "- id: quarry_plus\n  colour: brown\n  cost: 2 stonee + ore\n  effect: produce 2 stone\n")
    assert main(["check", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "cards.yaml:4:11: error[E-DSL-PARSE]: expected a resource after '2', found 'stonee'" in out
    assert "      cost: 2 stonee + ore\n              ^^^^^^\n  hint: did you mean 'stone'?" in out

"""Bots as data (issue 15): bot files checked like a pack, errors at their line; the shipped
rule-based bots check clean, play whole games of every pack deterministically, and follow their
rules."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from wonderforge.interpreter import load_game
from wonderforge.interpreter.bots.botfile import pack_bots, read_bots
from wonderforge.interpreter.bots.registry import BotFileError, bot_for, bot_names, play
from wonderforge.interpreter.games.check import check_pack
from wonderforge.interpreter.bots.rulebot import RuleBot
from wonderforge.interpreter.bots.view import View
from wonderforge.tools.cli.commands import main

SHIPPED = ["7-wonders", "architects", "architects-medals", "dice"]
HEADER = "# yaml-language-server: $schema=../../schemas/bots.schema.json\n"


def _file(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "bots.yaml"
    path.write_text(HEADER + body, encoding="utf-8")
    return path


# (pack, the file after its first line, code, line, column, message fragment, hint fragment)
BAD = [
    ("7-wonders", "bots:\n  - id: a\n    rules:\n      - do: biuld card\n",
     "E-BOT-VERB", 5, 13, "no action 'biuld'", "did you mean 'build'?"),
    ("7-wonders", "bots:\n  - id: a\n    rules:\n      - do: check card\n",
     "E-BOT-VERB", 5, 13, "no action 'check'", "the actions of this game: build, choice, copy, discard, look, stage"),
    ("7-wonders", "bots:\n  - id: a\n    rules:\n      - do: build gren card\n",
     "E-DSL-COLOUR", 5, 19, "unknown colour or card 'gren'", "did you mean 'green'?"),
    ("7-wonders", "bots:\n  - id: a\n    rules:\n      - do: build card\n        if: 2 grene card\n",
     "E-DSL-COLOUR", 6, 15, "'grene'", "did you mean 'green'?"),
    ("7-wonders", "bots:\n  - id: a\n    rules:\n      - do: build card\n        best: pointz\n",
     "E-BOT-WORD", 6, 15, "unknown word 'pointz'", "did you mean 'points'?"),
    ("7-wonders", "bots:\n  - id: a\n    rules:\n      - do: build card\n        best: [points, coinz]\n",
     "E-BOT-WORD", 6, 24, "unknown word 'coinz'", "did you mean 'coins'?"),
    ("7-wonders", "bots:\n  - id: a\n    rules:\n      - do: stage\n        gives: symbl\n",
     "E-BOT-WORD", 6, 16, "unknown word 'symbl'", "did you mean 'symbol'?"),
    ("7-wonders", "bots:\n  - id: a\n    rules:\n      - do: build card\n        if: shields <\n",
     "E-DSL-PARSE", 6, 22, "stops too early", None),
    ("7-wonders", "bots:\n  - id: a\n    rules:\n      - do: build card with hron\n",
     "E-DSL-NAME", 5, 29, "unknown icon 'hron'", None),
    ("7-wonders", "bots:\n  - id: a\n    rules:\n      - do: build card\n        wen: 2 green card\n",
     "E-SCHEMA", 6, 9, "unknown key 'wen'", "allowed keys: best, do, gives, if"),
    ("7-wonders", "bots:\n  - id: a\n    rules: []\n",
     "E-SCHEMA", 4, 12, "needs at least 1", None),
    ("7-wonders", "bots:\n  - id: a\n    rules:\n      - do: stage\n  - id: a\n    rules:\n      - do: stage\n",
     "E-BOT-ID", 6, 9, "duplicate bot id 'a'", "already defined on line 3"),
    ("7-wonders", "bots:\n  - id: greedy\n    rules:\n      - do: stage\n",
     "E-BOT-ID", 3, 9, "built-in bot", "another id"),
    ("architects", "bots:\n  - id: a\n    rules:\n      - do: take card\n        gives: 1 horn icn\n",
     "E-DSL-PARSE", 6, 23, "horn icn", None),
    ("dice", "bots:\n  - id: a\n    rules:\n      - do: check\n        gives: atack box\n",
     "E-DSL-NAME", 6, 16, "unknown box kind 'atack'", "did you mean 'attack'?"),
]


@pytest.mark.parametrize("pack, body, code, line, column, fragment, hint", BAD)
def test_a_bad_bot_file_is_an_error_at_its_place(tmp_path, pack, body, code, line, column, fragment, hint):
    bots, diagnostics = read_bots(_file(tmp_path, body), check_pack(pack)[0])
    errors = [d for d in diagnostics if d.severity == "error"]
    assert errors, diagnostics
    first = errors[0]
    assert (first.code, first.line, first.column) == (code, line, column), first.render()
    assert fragment in first.message or fragment in (first.source or ""), first.render()
    if hint is not None:
        assert hint in (first.hint or ""), first.render()


def test_a_file_with_a_broken_bot_still_checks_the_others(tmp_path):
    body = ("bots:\n  - id: a\n    rules:\n      - do: stage\n        what: 1\n"
            "  - id: b\n    rules:\n      - do: biuld card\n")
    _, diagnostics = read_bots(_file(tmp_path, body), check_pack("7-wonders")[0])
    assert [d.code for d in diagnostics] == ["E-SCHEMA", "E-BOT-VERB"]


@pytest.mark.parametrize("pack", SHIPPED)
def test_each_shipped_bot_file_checks_clean(pack):
    loaded, diagnostics = check_pack(pack)
    assert not [d for d in diagnostics if "bots.yaml" in d.file], [d.render() for d in diagnostics]
    bots, problems = pack_bots(loaded)
    assert "rules" in bots and not problems


def test_a_mistake_in_a_pack_s_bots_yaml_is_a_check_error(tmp_path):
    import shutil
    folder = tmp_path / "mod"
    shutil.copytree(Path(__file__).resolve().parents[1] / "content" / "dice", folder)
    (folder / "bots.yaml").write_text(HEADER + "bots:\n  - id: rules\n    rules:\n      - do: chek\n", encoding="utf-8")
    _, diagnostics = check_pack(folder)
    assert [(d.code, d.line, d.column) for d in diagnostics if d.severity == "error"] == [("E-BOT-VERB", 5, 13)]


@pytest.mark.parametrize("pack", SHIPPED)
def test_the_rule_based_bot_plays_whole_games_deterministically(pack):
    game = load_game(pack, players=4)

    def actions(seed):
        seen = []
        state = play(game, ["rules", "greedy", "random", "rules"], seed=seed,
                     on_action=lambda s, seat, a: seen.append((seat, a)))
        assert state.is_terminal()
        return seen
    for seed in (1, 2):
        assert actions(seed) == actions(seed)


def test_bots_are_named_by_id_or_by_file(tmp_path):
    game = load_game("architects-medals", players=3)  # inherits architects' bots.yaml
    assert bot_names("rules,greedy", 3, game) == ["rules", "greedy", "rules"]
    path = _file(tmp_path, "bots:\n  - id: first\n    rules:\n      - do: take\n  - id: second\n    rules:\n      - do: stage\n")
    assert bot_names(f"{path},{path}:second", 2, game) == [str(path), f"{path}:second"]
    with pytest.raises(ValueError, match="unknown bot 'rulez'"):
        bot_names("rulez", 3, game)
    with pytest.raises(ValueError, match="no bot 'third'"):
        bot_for(game, f"{path}:third")
    with pytest.raises(ValueError, match="unknown bot"):
        bot_names("rules", 3)  # no game: the built-in bots only


def test_a_bot_file_with_errors_is_refused_by_name(tmp_path):
    path = _file(tmp_path, "bots:\n  - id: a\n    rules:\n      - do: biuld\n")
    with pytest.raises(BotFileError, match="1 error in the bot file") as refused:
        bot_for(load_game("7-wonders", players=3), str(path))
    assert [(d.code, d.line) for d in refused.value.diagnostics if d.severity == "error"] == [("E-BOT-VERB", 5)]  # after the schema line


def test_check_takes_a_bot_file(tmp_path, capsys):
    path = _file(tmp_path, "bots:\n  - id: a\n    rules:\n      - do: biuld\n")
    assert main(["check", "--bots", str(path), "7-wonders"]) == 1
    assert "E-BOT-VERB" in capsys.readouterr().out
    good = _file(tmp_path, "bots:\n  - id: a\n    rules:\n      - do: stage\n")
    assert main(["check", "--bots", str(good), "7-wonders"]) == 0
    assert main(["check", "--bots", str(good)]) == 2


def _decisions(pack: str, seed: int, players: int = 4):
    """(state, seat 0's actions) at each of seat 0's decisions of a game between random bots."""
    game = load_game(pack, players=players)
    state = game.new_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        for seat in state.current_players():
            actions = state.legal_actions(seat)
            if seat == 0:
                yield state, actions
            state.apply(seat, actions[rng.randrange(len(actions))])


def _bot(pack: str) -> RuleBot:
    return RuleBot(pack_bots(check_pack(pack)[0])[0]["rules"])


def test_seven_wonders_bot_builds_a_resource_its_city_lacks_before_a_blue_card():
    bot, seen = _bot("7-wonders"), 0
    for seed in range(6):
        for state, actions in _decisions("7-wonders", seed):
            city = state.players[0].units
            made = {r for unit in city for r in unit}
            cards = state.game.catalogue.cards
            lacking = [a for a in actions if a.verb == "build" and cards[a.card].colour in ("brown", "grey")
                       and any(e.trigger is None and a2.verb == "produce" and not set(a2.args.resources) <= made
                               for e in cards[a.card].effects for a2 in e.actions)]
            blue = [a for a in actions if a.verb == "build" and cards[a.card].colour == "blue"]
            if lacking and blue:
                chosen = bot(View(state, 0, actions), random.Random(0))
                assert cards[chosen.card].colour in ("brown", "grey"), (chosen, lacking)
                seen += 1
    assert seen >= 3


def test_seven_wonders_bot_discards_when_nothing_else_applies():
    bot = _bot("7-wonders")
    for state, actions in _decisions("7-wonders", 3):
        if all(a.verb == "discard" or state.game.catalogue.cards[a.card].colour in ("yellow", "purple")
               for a in actions if a.verb != "stage"):
            assert bot(View(state, 0, actions), random.Random(0)).verb == "discard"
            return
    pytest.skip("no such hand in this game")


def test_dice_bot_takes_a_bonus_first():
    bot = _bot("dice")
    for seed in range(4):
        for state, actions in _decisions("dice", seed):
            if any(a.verb == "bonus" for a in actions):
                assert bot(View(state, 0, actions), random.Random(0)).verb == "bonus"
                return
    pytest.fail("no bonus offered in four games")


def test_a_bot_whose_rules_never_match_plays_any_legal_action(tmp_path):
    path = _file(tmp_path, "bots:\n  - id: never\n    rules:\n      - do: build card\n        if: 100 green card\n")
    bots, _ = read_bots(path, check_pack("7-wonders")[0])
    state, actions = next(_decisions("7-wonders", 0))
    chosen = {RuleBot(bots[0])(View(state, 0, actions), random.Random(k)) for k in range(30)}
    assert len(chosen) > 1 and chosen <= set(actions)


def test_the_personas_of_docs_bots_md_check_clean(tmp_path):
    text = (Path(__file__).resolve().parents[1] / "docs" / "bots.md").read_text(encoding="utf-8")
    block = text.split('```yaml title="personas.yaml"\n', 1)[1].split("```", 1)[0]
    path = tmp_path / "personas.yaml"
    path.write_text(block, encoding="utf-8")
    bots, diagnostics = read_bots(path, check_pack("7-wonders")[0])
    assert [b.id for b in bots] == ["scientist", "rusher"] and not diagnostics, [d.render() for d in diagnostics]
    game = load_game("7-wonders", players=3)
    assert play(game, [str(path), f"{path}:rusher", "greedy"], seed=5).is_terminal()

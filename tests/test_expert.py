"""The expert bot (issue 26): it plays every shipped pack and a mod's new cards legally and
reproducibly from its view, with each pack's learned evaluation; `train` learns one reproducibly
from a seed; `check` reads the file; and the bot beats greedy."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from wonderforge.interpreter import load_game
from wonderforge.interpreter.bots.evaluation import FILE_NAME, evaluation_file, evaluation_for
from wonderforge.interpreter.bots.expert import DEFAULT, TEMPERATURE, choose, feature_names, stage_short
from wonderforge.interpreter.bots.registry import BOTS, bot_names, play
from wonderforge.interpreter.games.check import check_pack
from wonderforge.tools.cli.commands import main
from wonderforge.tools.study.training import fit, spread, train

SHIPPED = ["7-wonders", "architects", "architects-medals", "dice"]


@pytest.mark.parametrize("pack", SHIPPED)
def test_plays_every_shipped_pack_legally_and_reproducibly(pack):
    game = load_game(pack, players=4)
    first = play(game, ["expert", "greedy", "expert", "random"], seed=7)  # apply refuses an illegal action
    again = play(game, ["expert", "greedy", "expert", "random"], seed=7)
    assert first.is_terminal() and first.history == again.history
    assert play(game, ["expert", "greedy", "expert", "random"], seed=8).history != first.history


@pytest.mark.parametrize("pack", SHIPPED)
def test_each_trained_pack_has_its_evaluation_and_it_checks_clean(pack):
    game = load_game(pack, players=4)
    path = evaluation_file(game.pack)
    assert path is not None and path.parent.name == pack and path.name == FILE_NAME
    evaluation = evaluation_for(game)
    assert evaluation.steps and [evaluation.features.default(n) for n in evaluation.features.names] != evaluation.weights
    _, diagnostics = check_pack(pack)
    assert not [d for d in diagnostics if d.file.endswith(FILE_NAME)]


def test_dices_expert_chooses_by_the_default_weights_at_its_own_temperature():
    game = load_game("dice", players=4)  # its trained weights played worse than these (docs/bots.md)
    evaluation = evaluation_for(game)
    assert evaluation_file(game.pack).parent.name == "dice" and evaluation.spread
    defaults = [evaluation.features.default(n) for n in evaluation.features.names]
    assert evaluation.expert_weights == defaults != evaluation.weights  # the trained guess values the search's cuts
    assert dict(zip(evaluation.features.names, evaluation.expert_weights))["counter.coins"] == DEFAULT["currency"]
    assert evaluation.temperature == 0.5 != TEMPERATURE
    assert evaluation_for(load_game("7-wonders", players=4)).temperature == TEMPERATURE


def _mod(tmp_path: Path, card_effect: str = "vp 9") -> Path:
    """A mod of 7 Wonders with a card no bot has seen: a free blue card worth `card_effect`."""
    mod = tmp_path / "my-mod"
    mod.mkdir()
    (mod / "pack.yaml").write_text("id: my-mod\nname: My mod\nversion: 0.1.0\nextends: 7-wonders\n", encoding="utf-8")
    (mod / "cards.yaml").write_text(
        "# yaml-language-server: $schema=../../schemas/cards.schema.json\n"
        "- id: grand_statue\n  name: Grand Statue\n  colour: blue\n  copies: {1: [3, 3, 4, 4]}\n"
        f"  effect: {card_effect}\n", encoding="utf-8")
    return mod


def test_plays_a_mods_new_card_with_its_base_evaluation(tmp_path):
    mod = _mod(tmp_path)
    game = load_game(str(mod), players=4)
    assert evaluation_file(game.pack).parent.name == "7-wonders"  # inherited from the base
    built = offered = 0
    for seed in range(6):
        seen = []

        def watch(state, seat, action, seen=seen):
            if seat == 0:
                seen.append((any(a.card == "grand_statue" for a in state.legal_actions(0)), action))

        end = play(game, ["expert", "greedy", "greedy", "greedy"], seed=seed, on_action=watch)
        assert end.is_terminal()
        offered += any(o for o, _ in seen)
        built += any(a.verb == "build" and a.card == "grand_statue" for _, a in seen)
    assert offered and built == offered  # a free 9 points: taken each game it was offered


def test_an_evaluation_naming_an_unknown_feature_is_an_error_at_its_line(tmp_path):
    mod = _mod(tmp_path)
    (mod / FILE_NAME).write_text("# yaml-language-server: $schema=../../schemas/evaluation.schema.json\n"
                                 "evaluation:\n  steps: 18\n  weights:\n    points.civilain: 1.5\n", encoding="utf-8")
    _, diagnostics = check_pack(str(mod))
    found = [d for d in diagnostics if d.code == "E-EVAL-FEATURE"]
    assert len(found) == 1 and (found[0].line, found[0].column) == (5, 5)
    assert "points.civilain" in found[0].message and "points.civilian" in found[0].hint
    (mod / FILE_NAME).write_text("evaluation:\n  weights: {}\n  expert_weights:\n    prodution: 1\n", encoding="utf-8")
    found = [d for d in check_pack(str(mod))[1] if d.code == "E-EVAL-FEATURE"]
    assert len(found) == 1 and (found[0].line, found[0].column) == (4, 5) and "production" in found[0].hint
    (mod / FILE_NAME).write_text("# yaml-language-server: $schema=../../schemas/evaluation.schema.json\n"
                                 "evaluation:\n  weights:\n    points.civilian: 1.5\n", encoding="utf-8")
    _, diagnostics = check_pack(str(mod))
    assert not [d for d in diagnostics if d.severity == "error"]
    game = load_game(str(mod), players=4)
    weights = dict(zip(evaluation_for(game).features.names, evaluation_for(game).weights))
    assert weights["points.civilian"] == 1.5 and weights["points.wonder"] == DEFAULT["points"]


def test_training_is_reproducible_from_a_seed():
    first = train("architects", players=3, games=3, rounds=2, seed=5)
    assert first == train("architects", players=3, games=3, rounds=2, seed=5)
    other = train("architects", players=3, games=3, rounds=2, seed=6)
    assert other["weights"] != first["weights"]
    names = feature_names(load_game("architects", 3).pack)
    assert set(first["weights"]) == set(names) | {n + "@late" for n in names}


@pytest.mark.slow
def test_training_writes_the_same_weights_on_any_number_of_workers():
    assert train("architects", players=3, games=4, rounds=2, seed=2, workers=2) == \
        train("architects", players=3, games=4, rounds=2, seed=2, workers=1)


def test_fit_finds_the_weights_a_margin_was_made_of():
    rng = random.Random(1)
    names = ["a", "b"]
    samples = []
    for _ in range(400):
        x, steps = [rng.uniform(-5, 5), rng.uniform(-5, 5)], rng.uniform(0, 10)
        samples.append((x, steps, 2.0 * x[0] - 1.0 * x[1] + 3.0 * x[1] * steps / 10))
    weights = fit(names, samples, steps=10.0, ridge=1e-9)
    assert weights == pytest.approx({"a": 2.0, "b": -1.0, "a@late": 0.0, "b@late": 3.0}, abs=1e-3)
    # a weight held fixed: the others are fitted to what it leaves
    weights = fit(names, samples, steps=10.0, ridge=1e-9, fixed={"a": 1.5, "a@late": 0.0})
    assert weights["a"] == 1.5 and weights["a@late"] == 0.0
    assert weights["b"] == pytest.approx(-1.0, abs=0.05) and weights["b@late"] == pytest.approx(3.0, abs=0.1)


def test_spread_is_how_far_the_guess_misses_from_the_start_to_the_end():
    """Margins made of a feature and a Gaussian miss shrinking from 6 points at the start to 2 at
    the end: training reads the miss back from the misses' sizes (and no miss, none)."""
    rng = random.Random(3)
    samples = []
    for _ in range(20000):
        x, steps = [rng.uniform(-5, 5)], rng.uniform(0, 10)
        samples.append((x, steps, 2.0 * x[0] + rng.gauss(0, 6 - 4 * steps / 10)))
    start, end = spread(["a"], {"a": 2.0, "a@late": 0.0}, samples, steps=10.0)
    assert start == pytest.approx(6, abs=0.2) and end == pytest.approx(2, abs=0.2)
    exact = [(x, steps, 2.0 * x[0]) for x, steps, _ in samples]
    assert spread(["a"], {"a": 2.0, "a@late": 0.0}, exact, steps=10.0) == [0.0, 0.0]


def test_train_writes_a_file_that_checks_clean_and_plays(tmp_path, capsys):
    mod = _mod(tmp_path)
    assert main(["train", str(mod), "--games", "2", "--rounds", "1", "--players", "3", "--quiet"]) == 0
    assert capsys.readouterr().out.strip().endswith(FILE_NAME)
    assert evaluation_for(load_game(str(mod), players=3)).spread_at(0.5) > 0  # the search shares a cut's win by it
    assert main(["check", "--format", "json", str(mod)]) == 0
    assert json.loads(capsys.readouterr().out)["errors"] == 0
    game = load_game(str(mod), players=3)
    assert evaluation_file(game.pack) == mod / FILE_NAME
    assert play(game, ["expert"] * 3, seed=1).is_terminal()
    assert main(["train", "no-such-pack"]) == 2


def test_train_keeps_the_temperature_and_the_experts_own_weights(tmp_path, capsys):
    mod = _mod(tmp_path)
    (mod / FILE_NAME).write_text("evaluation:\n  temperature: 0.7\n  weights: {}\n"
                                 "  expert_weights: {production: 0.5}\n", encoding="utf-8")
    assert main(["train", str(mod), "--games", "2", "--rounds", "1", "--players", "3", "--quiet"]) == 0
    capsys.readouterr()
    assert "temperature: 0.7" in (mod / FILE_NAME).read_text(encoding="utf-8")
    evaluation = evaluation_for(load_game(str(mod), players=3))
    assert evaluation.temperature == 0.7
    chosen_by = dict(zip(evaluation.features.names, evaluation.expert_weights))
    assert chosen_by["production"] == 0.5 and chosen_by["points.civilian"] == DEFAULT["points"]
    assert evaluation.weights != evaluation.expert_weights  # the trained guess values the search's cuts
    dice = tmp_path / "dice-mod"  # a mod without a file of its own: its base's temperature (Dice's 0.5)
    dice.mkdir()
    (dice / "pack.yaml").write_text("id: dice-mod\nname: Dice mod\nversion: 0.1.0\nextends: dice\n", encoding="utf-8")
    assert main(["train", str(dice), "--games", "1", "--rounds", "1", "--players", "2", "--quiet"]) == 0
    assert evaluation_for(load_game(str(dice), players=2)).temperature == 0.5


def test_named_with_the_other_bots():
    assert "expert" in BOTS and bot_names("expert,greedy", 4) == ["expert", "greedy", "expert", "greedy"]


def test_beats_greedy():
    # a quick check of strength; the measured win rates are in docs/bots.md
    game = load_game("7-wonders", players=4)
    wins = 0.0
    for seed in range(12):
        state = play(game, ["expert", "greedy", "greedy", "greedy"], seed=seed)
        winners = state.winners()
        wins += (0 in winners) / len(winners)
    assert wins >= 8


def test_choose_plays_the_best_most_often_and_a_far_worse_action_never():
    rng = random.Random(3)
    values = [10.0, 9.75, 10.0, 5.0]
    drawn = [choose(values, 0.25, rng) for _ in range(4000)]
    share = [drawn.count(i) / len(drawn) for i in range(4)]
    odds = 1 / (2 + 1 / math.e)  # the best two each, against the one a temperature worse
    assert share[0] == pytest.approx(odds, abs=0.03) and share[2] == pytest.approx(odds, abs=0.03)
    assert share[1] == pytest.approx(odds / math.e, abs=0.03)
    assert share[3] == 0  # 20 temperatures worse: e**-20
    assert {choose(values, 0.0, rng) for _ in range(200)} == {0, 2}  # no temperature: the best alone, ties by chance


def test_stage_short_is_zero_exactly_when_a_stage_can_be_built():
    game = load_game("architects", players=4)
    assert "stage_short" in feature_names(game.pack) and "stage_short" not in feature_names(load_game("dice", 4).pack)
    checked = set()

    def watch(state, seat, action):  # after a turn's take, the stages that pay are among its actions
        actions = state.legal_actions(seat)
        if not any(a.verb == "take" for a in actions):
            checked.add((stage_short(state, seat) == 0, any(a.verb == "stage" for a in actions)))

    for seed in range(3):
        play(game, ["random"] * 4, seed=seed, on_action=watch)
    assert checked == {(True, True), (False, False)}

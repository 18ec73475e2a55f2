"""Golden logs: seeded games whose every action and result are pinned (tests/golden/)."""

import json

import pytest

from wonderforge.interpreter import load_game

from wonderforge.interpreter.files import log
from wonderforge.interpreter.bots.registry import play

from golden.regenerate import GAMES, HERE, name


@pytest.mark.parametrize("pack, players, seed, bots, options", GAMES, ids=lambda v: str(v))
def test_golden_log_replays_to_its_result(pack, players, seed, bots, options):
    recorded = log.read(HERE / name(pack, players, seed))
    assert recorded.result is not None
    assert log.matches(recorded, log.replay(recorded))


@pytest.mark.parametrize("pack, players, seed, bots, options", GAMES, ids=lambda v: str(v))
def test_same_seed_and_bots_play_the_same_game(pack, players, seed, bots, options):
    state = play(load_game(pack, players=players, seed=seed, **options), bots)
    lines = (HERE / name(pack, players, seed)).read_text(encoding="utf-8").splitlines()
    recorded, played = [json.loads(line) for line in lines], log.lines_of(state, pack)
    for header in (recorded[0], played[0]):
        header.pop("engine")  # the version that wrote it
    assert recorded == played

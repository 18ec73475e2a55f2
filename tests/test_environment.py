"""Any pack as a PettingZoo AEC environment (issue 15, Deliver 6): PettingZoo's own API test on
every shipped pack, action masks that are the legal actions, seeds that replay, and rewards that
are the game's result."""

from __future__ import annotations

import random

import pytest

pettingzoo_test = pytest.importorskip("pettingzoo.test", reason="the `rl` extra is not installed")
import numpy as np  # noqa: E402  (numpy comes with the `rl` extra)

from wonderforge.tools.study.environment import WonderForgeEnv, encode, env, features  # noqa: E402

from helpers import pack_of  # noqa: E402

PACKS = ["7-wonders", "architects", "architects-medals", "dice"]


def _play(e, seed: int, pick_seed: int) -> list:
    """A whole game picking uniformly among the masked actions; what each agent saw and did."""
    rng, seen = random.Random(pick_seed), []
    e.reset(seed=seed)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        if termination or truncation:
            e.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        action = int(legal[rng.randrange(len(legal))])
        seen.append((agent, observation["observation"].tobytes(), action))
        e.step(action)
    return seen


# PettingZoo's advice for plain observations: an observation with an action mask is a Dict, as in
# its own card and board games
@pytest.mark.filterwarnings("ignore:Observation space for each agent", "ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("pack", PACKS)
def test_every_pack_passes_pettingzoo_api_test(pack):
    pettingzoo_test.api_test(env(pack_of(pack), players=3), num_cycles=2000)


@pytest.mark.parametrize("pack", PACKS)
def test_the_mask_is_the_legal_actions_and_a_game_ends_with_its_result(pack):
    e = WonderForgeEnv(pack_of(pack), players=4)
    e.reset(seed=3)
    total = {agent: 0.0 for agent in e.possible_agents}
    while e.agents:
        agent = e.agent_selection
        observation = e.observe(agent)
        if e.terminations[agent]:
            total[agent] += e._cumulative_rewards[agent]
            e.step(None)
            continue
        legal = e.state_.legal_actions(e._seat[agent])
        assert agent == f"player_{e.state_.current_players()[0]}"
        assert observation["action_mask"].sum() == len(legal) and observation["action_mask"][:len(legal)].all()
        assert e.infos[agent]["actions"] == [str(a) for a in legal]
        e.step(0)
    winners = e.state_.winners()
    assert total == {f"player_{s}": (1 / len(winners) if s in winners else 0.0) for s in range(4)}


def test_a_seed_replays_the_same_game_and_resets_go_on_from_the_last_seed():
    first, again = WonderForgeEnv(pack_of("7-wonders"), players=3), WonderForgeEnv(pack_of("7-wonders"), players=3)
    assert _play(first, 5, 1) == _play(again, 5, 1)
    assert _play(first, 5, 1) != _play(first, 6, 1)
    first.reset(seed=9)
    first.reset()
    assert first.state_.seed == 10


def test_an_illegal_index_is_refused_with_the_range():
    e = WonderForgeEnv(pack_of("architects"), players=3)
    e.reset(seed=0)
    n = int(e.observe(e.agent_selection)["action_mask"].sum())
    with pytest.raises(ValueError, match=rf"{n} legal actions \(indices 0..{n - 1}\)"):
        e.step(n)


def test_too_few_slots_is_an_error_naming_the_figure():
    e = WonderForgeEnv(pack_of("7-wonders"), players=3, slots=2)
    with pytest.raises(ValueError, match="more than the 2 action slots"):
        e.reset(seed=0)


def test_the_vector_is_the_seat_own_observation_turned_to_it():
    """Seat 1 sees its left neighbour where seat 0 sees its own: the same position encodes the
    same for any seat that stands in it, and what it cannot see is not in it."""
    e = WonderForgeEnv(pack_of("7-wonders"), players=3)
    e.reset(seed=2)
    state = e.state_
    mine = state.observation(0)
    assert (encode(mine, 0, 3) == e.observe("player_0")["observation"]).all()
    before = e.observe("player_0")["observation"]
    one, two = state.players[1].zones, state.players[2].zones
    one["hand"], two["hand"] = two["hand"], one["hand"]  # others' hands: unseen
    assert (e.observe("player_0")["observation"] == before).all()
    theirs = state.observation(1)
    wonder = theirs["players"][1]["wonder"]
    assert (f"/players/0/wonder={wonder}", 1.0) in list(features(theirs, 1, 3))  # its own city first

"""Conflicts (issue 27, point 4): rules.yaml `conflicts:` beside `military:`, fought at the same
moments; among neighbours or among all (by place); a player holding `skip` sits a battle out, its
neighbours fighting across it; one holding `give_defeats` hands its defeat tokens to the victor;
`from this battle` reads each conflict's tokens of the battle just fought. Shown with the example
mod tests/mods/armada, in set positions, in seeded play, in scenarios and by `check`."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
import yaml

from helpers import pack_of
from sevenwonders_helpers import build
from wonderforge.interpreter import load_game
from wonderforge.interpreter.files.scenario import load_scenario
from wonderforge.interpreter.games.check import check_pack

ARMADA = Path(__file__).parent / "mods" / "armada"
NAVAL = [(3, 1), (5, 2), (7, 3)]  # the mod's naval victory values by age, by place
NAVAL_DEFEAT = [-1, -2, -3]
DIPLOMACY = ("altar", "statue")    # the Embassy and the Consulate: a diplomacy token each
RETALIATION = "fortifications"     # the Citadel


def armada(players: int, seed: int = 0):
    """A fresh armada deal, its round's strengths still to set."""
    return load_game(pack_of(str(ARMADA)), players=players, seed=seed).new_state()


def set_counters(state, name: str, values) -> None:
    for seat, value in enumerate(values):
        state.players[seat].counters[name] = value


def give_diplomacy(state, values) -> None:
    for seat, count in enumerate(values):
        state.players[seat].tokens += [("diplomacy", 0, 0)] * count


def diplomacy(state) -> list[int]:
    return [sum(k == "diplomacy" for k, _, _ in p.tokens) for p in state.players]


def of_battle(state, battle: int, kinds: set[str]) -> list[Counter]:
    """Each seat's tokens of these kinds won in this battle, (kind, value) counted."""
    return [Counter((k, v) for k, v, b in p.tokens if b == battle and k in kinds) for p in state.players]


LAND, SEA = {"victory", "defeat"}, {"naval_victory", "naval_defeat"}


def test_a_naval_battle_ranks_every_player_ties_sharing_a_place():
    state = armada(5)
    set_counters(state, "ships", [3, 3, 1, 0, 1])
    state.battle_now()
    assert of_battle(state, 0, SEA) == [
        Counter({("naval_victory", 3): 1}), Counter({("naval_victory", 3): 1}),
        Counter(),  # third place: the age gives two places only (two first, so no second)
        Counter({("naval_defeat", -1): 1}), Counter()]
    assert of_battle(state, 0, LAND) == [Counter()] * 5  # no shields anywhere: every land battle a tie


def test_a_naval_battle_all_equal_gives_nothing_and_the_weakest_all_lose():
    state = armada(3)
    set_counters(state, "ships", [2, 2, 2])
    state.battle_now()
    assert of_battle(state, 0, SEA) == [Counter()] * 3
    set_counters(state, "ships", [4, 1, 1])
    state.battle_now()
    assert of_battle(state, 1, SEA) == [Counter({("naval_victory", 3): 1}), Counter({("naval_defeat", -1): 1}),
                                        Counter({("naval_defeat", -1): 1})]


def test_diplomacy_sits_a_player_out_its_neighbours_fighting_across_it():
    state = armada(4)
    set_counters(state, "shields", [1, 0, 5, 2])
    give_diplomacy(state, [0, 0, 1, 0])
    state.battle_now()
    land = of_battle(state, 0, LAND)
    assert land[2] == Counter()                   # sat out, its 5 shields unused
    assert diplomacy(state) == [0] * 4            # its token back in the supply
    assert land[0] == Counter({("victory", 1): 1, ("defeat", -1): 1})  # beat seat 1, lost to seat 3
    assert land[1] == Counter({("defeat", -1): 2})    # seat 3 is its neighbour across seat 2
    assert land[3] == Counter({("victory", 1): 2})
    state.battle_now()  # the diplomacy spent: seat 2 fights again
    assert of_battle(state, 1, LAND)[2] == Counter({("victory", 1): 2})


def test_two_players_left_fight_once_and_one_alone_fights_no_one():
    state = armada(3)
    set_counters(state, "shields", [3, 1, 0])
    give_diplomacy(state, [0, 0, 1])
    state.battle_now()
    assert of_battle(state, 0, LAND) == [Counter({("victory", 1): 1}), Counter({("defeat", -1): 1}), Counter()]
    give_diplomacy(state, [1, 2, 0])
    state.battle_now()
    assert of_battle(state, 1, LAND) == [Counter()] * 3
    assert diplomacy(state) == [0, 1, 0]  # one token spent a battle


def test_a_citadel_hands_its_defeats_to_the_neighbour_who_won():
    state = armada(3)
    set_counters(state, "shields", [0, 2, 1])
    set_counters(state, "retaliation", [1, 0, 0])
    state.battle_now()
    land = of_battle(state, 0, LAND)
    assert land[0] == Counter()  # lost to both: both defeat tokens go to them
    assert land[1] == Counter({("victory", 1): 2, ("defeat", -1): 1})
    assert land[2] == Counter({("victory", 1): 1, ("defeat", -1): 2})


def test_this_battle_counts_the_naval_tokens_of_the_battle_just_fought():
    state = armada(3)
    build(state, 0, "lighthouse")  # the Harbour Master: coins 2 per naval victory token from this battle
    coins = state.players[0].counters["coins"]
    set_counters(state, "ships", [2, 1, 0])
    state.battle_now()
    assert state.players[0].counters["coins"] == coins + 2
    set_counters(state, "ships", [0, 1, 2])
    state.battle_now()  # it still holds the first battle's token, but won none in this one
    assert state.players[0].counters["coins"] == coins + 2


def expected(state, battle: int, spent: list[int], round_: int) -> list[Counter]:
    """What the armada battle just fought should have given, worked out from the cities (what
    gives diplomacy and retaliation) and the strengths: an oracle written apart from the engine."""
    n = len(state.players)
    city = [[c.id for c in p.zones["city"]] for p in state.players]
    shields = [p.counters.get("shields", 0) for p in state.players]
    ships = [p.counters.get("ships", 0) for p in state.players]
    out = [Counter() for _ in range(n)]
    held = [sum(c in DIPLOMACY for c in city[s]) - spent[s] for s in range(n)]
    fighting = [s for s in range(n) if held[s] < 1]
    for s in range(n):
        spent[s] += held[s] >= 1
    pairs = {frozenset((a, b)) for a, b in zip(fighting, fighting[1:] + fighting[:1]) if a != b}
    for a, b in (tuple(p) for p in pairs):
        if shields[a] != shields[b]:
            win, lose = (a, b) if shields[a] > shields[b] else (b, a)
            out[win][("victory", (1, 3, 5)[round_])] += 1
            out[win if RETALIATION in city[lose] else lose][("defeat", -1)] += 1
    if len(set(ships)) > 1:
        for s in range(n):
            better = sum(o > ships[s] for o in ships)
            if ships[s] == min(ships):
                out[s][("naval_defeat", NAVAL_DEFEAT[round_])] += 1
            elif ships[s] and better < 2:
                out[s][("naval_victory", NAVAL[round_][better])] += 1
    return out


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_seeded_games_fight_every_battle_as_the_rules_say(players):
    """Random games of the mod: each battle's tokens, land and naval, are what the rules give from
    the strengths then; and diplomacy, the citadel and a naval battle each happen."""
    seen = Counter()
    for seed in range(4):
        state, rng, spent = armada(players, seed), random.Random(seed), [0] * players
        while not state.is_terminal():
            fought = state.battles
            seats = state.current_players()
            seat = seats[rng.randrange(len(seats))]
            actions = state.legal_actions(seat)
            # random, but keen on the mod's cards, so that each of them is seen at work
            keen = [a for a in actions if a.verb == "build" and a.card in (*DIPLOMACY, RETALIATION, "guard_tower")]
            state.apply(seat, rng.choice(keen or actions))
            if state.battles > fought:
                before = list(spent)
                want = expected(state, fought, spent, fought)
                assert of_battle(state, fought, LAND | SEA) == want, (seed, fought)
                seen["skip"] += spent != before
                seen["naval"] += any(k[0] == "naval_victory" for c in want for k in c)
                seen["citadel"] += any(RETALIATION in [c.id for c in p.zones["city"]] for p in state.players
                                       if any(k == "defeat" for k, _ in want[0]))
        scores = state.scores()
        for seat, player in enumerate(state.players):
            naval = sum(v for k, v, _ in player.tokens if k in SEA)
            harbour = sum(k == "naval_victory" for k, _, _ in player.tokens) * any(
                c.id == "lighthouse" for c in player.zones["city"])
            assert scores[seat]["breakdown"]["naval"] == naval
            assert scores[seat]["breakdown"]["commerce"] >= harbour
    assert seen["naval"] and seen["skip"] and seen["citadel"], seen


@pytest.mark.slow
def test_a_hundred_seeded_games_play_without_an_internal_error():
    for seed in range(100):
        state, rng = armada(3 + seed % 5, seed), random.Random(seed)
        while not state.is_terminal():
            seats = state.current_players()
            seat = seats[rng.randrange(len(seats))]
            actions = state.legal_actions(seat)
            state.apply(seat, actions[rng.randrange(len(actions))])
        assert len(state.scores()) == 3 + seed % 5


def scenario(tmp_path: Path, players: list[dict]) -> Path:
    path = tmp_path / "position.yaml"
    path.write_text(yaml.safe_dump({"game": str(ARMADA), "players": players}), encoding="utf-8")
    return path


def test_a_scenario_gives_a_conflicts_tokens_and_score_counts_them(tmp_path):
    players = [{"name": "ana", "wonder": "giza", "side": "a", "military": [1, -1], "conflicts": {"naval": [7, 3, -2]}},
               {"name": "bo", "wonder": "rhodes", "side": "a", "conflicts": {"naval": [-1, -3]}},
               {"name": "cy", "wonder": "olympia", "side": "a"}]
    state, diagnostics, _ = load_scenario(scenario(tmp_path, players))
    assert diagnostics == []
    scores = state.scores()
    assert [s["breakdown"]["naval"] for s in scores] == [8, -4, 0]
    assert scores[0]["breakdown"]["military"] == 0


def test_a_scenario_naming_no_conflict_or_a_value_none_gives_is_refused(tmp_path):
    players = [{"name": "ana", "wonder": "giza", "side": "a", "conflicts": {"air": [1]}},
               {"name": "bo", "wonder": "rhodes", "side": "a", "conflicts": {"naval": [4]}},
               {"name": "cy", "wonder": "olympia", "side": "a"}]
    _, diagnostics, _ = load_scenario(scenario(tmp_path, players))
    messages = sorted(d.message for d in diagnostics)
    assert any("no conflict 'air'" in m for m in messages), messages
    assert any("no naval token is worth 4" in m for m in messages), messages


def test_the_mod_checks_clean():
    pack, diagnostics = check_pack(ARMADA)
    assert pack is not None and [d for d in diagnostics if d.severity == "error"] == []


BASES = {"draft": ("7-wonders", "coins"), "turns": ("architects", "shields"), "rolls": ("dice", "coins")}


def conflict_pack(folder: Path, base: str, counter: str, spec: dict | None = None, **more) -> Path:
    """A pack extending `base` with a conflict `rivalry` compared among all on `counter`, and an
    `at battle:` sentence paying 1 vp per laurel won in the battle just fought."""
    folder.mkdir(parents=True, exist_ok=True)
    rules = pack_of(base).rules
    words = rules["vocabulary"]
    (folder / "pack.yaml").write_text(f"id: rival\nname: Rival\nversion: 1.0.0\nextends: {base}\n", encoding="utf-8")
    own = {"vocabulary": {"counters": words["counters"], "tokens": [*(words.get("tokens") or ()), "laurel", "shame"]},
           "conflicts": {"rivalry": spec or {"counter": counter, "among": "all",
                                             "victory": {"token": "laurel", "values": [[2, 1]]},
                                             "defeat": {"token": "shame", "value": -1}}},
           "player_effects": [*rules.get("player_effects", []), "at battle: vp 1 per laurel token from this battle"],
           "scoring": {"categories": {"rivalry": {"tokens": ["laurel", "shame"]}}}, **more}
    (folder / "rules.yaml").write_text(yaml.safe_dump(own, sort_keys=False), encoding="utf-8")
    return folder


@pytest.mark.parametrize("flow", sorted(BASES))
def test_a_conflict_is_fought_in_every_flow(tmp_path, flow):
    """A conflict added to a shipped pack of each flow: `check` passes it (and its `at battle:`,
    even in Dice, which has no military), and seeded games give its tokens and score them."""
    base, counter = BASES[flow]
    folder = conflict_pack(tmp_path / flow, base, counter)
    errors = [d for d in check_pack(folder)[1] if d.severity == "error"]
    assert errors == []
    game = load_game(str(folder), players=3, seed=1)
    won = 0
    for seed in range(3):
        state, rng = game.new_state(seed), random.Random(seed)
        while not state.is_terminal():
            seats = state.current_players()
            seat = seats[rng.randrange(len(seats))]
            actions = state.legal_actions(seat)
            state.apply(seat, actions[rng.randrange(len(actions))])
        for seat, score in enumerate(state.scores()):
            tokens = [v for k, v, _ in state.players[seat].tokens if k in ("laurel", "shame")]
            assert score["breakdown"]["rivalry"] == sum(tokens)
            won += len(tokens)
    assert won


@pytest.mark.parametrize("spec, words", [
    ({"counter": "coins", "victory": {"token": "laurel", "values": [[2, 1]]}}, "one value each round"),
    ({"counter": "coins", "among": "all", "two_players": {"times": 2, "tokens": 2},
      "victory": {"token": "laurel", "values": [1]}}, "a conflict among all has no two_players"),
    ({"counter": "coinz", "victory": {"token": "laurel", "values": [1]}}, "'coinz', which is no counter"),
    ({"counter": "coins", "skip": "peace", "victory": {"token": "laurel", "values": [1]}},
     "'peace', which is no counter or token kind of its own"),
    ({"counter": "coins", "victory": {"token": "victory", "values": [1]}}, "could not tell their battles apart"),
])
def test_check_refuses_a_conflict_it_could_not_fight(tmp_path, spec, words):
    folder = conflict_pack(tmp_path / "bad", "7-wonders", "coins", spec)
    found = [d for d in check_pack(folder)[1] if d.code == "E-RULES"]
    assert any(words in d.message for d in found), [d.message for d in found]


def test_the_screen_shows_each_conflicts_strength_and_tokens():
    from wonderforge.tools.cli.draft_screen import DraftScreen, View
    state = armada(3)
    set_counters(state, "ships", [2, 1, 0])
    set_counters(state, "shields", [0, 1, 0])
    state.battle_now()
    line = View(state.game, ["ann", "bob", "cy"]).city(state, 0)[0]
    assert "2 ships" in line and "military tokens -1 (= -1)" in line and "naval tokens +3 (= +3)" in line, line
    told = "\n".join(DraftScreen(state.game, ["ann", "bob", "cy"], 0).battles(state, 0))
    assert "ann with 0 shields and 2 ships: defeat -1, naval_victory +3" in told, told

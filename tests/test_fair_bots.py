"""Fair bots (issue 15): a bot sees what its seat may know, a `View`, never the `State`.

- a determinization (`State.determinize(seat, rng)`) looks the same to the seat (its observation
  and its legal actions), is a full legal position (random play goes on from it to the end, every
  piece kept), and does vary what the seat cannot see (another's hand, a deck's order...);
- a bot's choice is the same from two true positions that differ only in what its seat cannot see;
- the view a bot is given cannot reach the true state.

Determinizations are checked over every shipped pack at random steps of random games; the long
run is `slow`, a few games of each pack run always.
"""

from __future__ import annotations

import gc
import random
import sys
from collections import Counter
from itertools import chain
from operator import attrgetter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import dealt, random_step
from wonderforge.interpreter import State
from wonderforge.interpreter.bots.registry import BOTS, bot_rngs, play
from wonderforge.interpreter.packs.folders import shipped_packs
from wonderforge.interpreter.bots.view import View

PACKS = [folder.name for folder in shipped_packs()]
ID = attrgetter("id")


def census(state: State) -> Counter:
    """Every piece by id, wherever it lies (as tests/test_invariants.py counts them)."""
    places = [*state.shared.values()]
    for player in state.players:
        places += [*player.zones.values(), player.tucked]
    return Counter(map(ID, chain.from_iterable(places)))


def played_to(pack: str, players: int, seed: int, steps: int) -> State:
    """A game of random actions, `steps` of them or to its end."""
    state, rng = dealt(pack, players, seed), random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        random_step(state, rng)
    return state


def hands(state: State, seat: int) -> list:
    """Every place a seat's pieces lie in, by id, in order: what `determinize` may change."""
    player = state.players[seat]
    return [[c.id for c in cards] for cards in player.zones.values()] + [[c.id for c in player.tucked]]


def holdings(state: State, seat: int) -> list:
    """What a seat holds, each place's pieces as a multiset (its own deck's order is hidden from it too)."""
    return [sorted(ids) for ids in hands(state, seat)]


def hidden_layout(state: State, seat: int) -> tuple:
    """What of a position the seat may not see: others' holdings, the shared zones, others' picks."""
    others = [hands(state, s) for s in range(len(state.players)) if s != seat]
    shared = sorted((z, [c.id for c in cards]) for z, cards in state.shared.items())
    pending = getattr(state.flow_state, "pending", {})
    return others, shared, sorted((s, a) for s, a in pending.items() if s != seat)


def check_determinization(state: State, seat: int, rng: random.Random) -> State:
    """The determinization looks the same to the seat, is a full position, and plays on to the end."""
    seen, actions, before = state.observation(seat), state.legal_actions(seat), census(state)
    other = state.determinize(seat, rng)
    assert other is not state
    assert other.observation(seat) == seen, f"seat {seat} tells the determinization from the truth"
    assert other.legal_actions(seat) == actions, f"seat {seat}'s actions differ in its determinization"
    after = census(other)
    assert sum(after.values()) == sum(before.values()), "a determinization lost or made pieces"
    boxed = {part.colour for part in state.game.rules.setup.random_cards}  # a deck's random parts, drawn again
    colour = {c.id: c.colour for c in state.game.catalogue.cards.values()}
    assert all(colour[pid] in boxed for pid in (after - before) + (before - after)), \
        "a determinization changed which pieces are in the game"
    assert holdings(other, seat) == holdings(state, seat), "the seat's own holdings changed"
    assert state.observation(seat) == seen and census(state) == before, "the truth changed"
    play_on = other.clone()
    start = census(play_on)
    while not play_on.is_terminal():
        random_step(play_on, rng)
        assert len(play_on.history) <= play_on.game.max_actions
    assert not start - census(play_on), "pieces lost playing on"  # Dice boxes checked join, none leave
    return other


@pytest.mark.parametrize("pack", PACKS)
def test_a_few_determinizations_of_each_pack(pack):
    players = 4
    for seed in range(3):
        state = played_to(pack, players, seed, random.Random(seed).randrange(120))
        for seat in range(players):
            check_determinization(state, seat, random.Random(seed * 7 + seat))


@pytest.mark.slow
@pytest.mark.parametrize("pack", PACKS)
def test_determinizations_keep_what_the_seat_knows(pack):
    @settings(max_examples=100, derandomize=True, database=None, deadline=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(players=st.integers(2, 7), seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 400),
           draw=st.integers(0, 2**32 - 1))
    def determinized(players, seed, steps, draw):
        state = played_to(pack, max(players, 3) if pack == "7-wonders" else players, seed, steps)
        for seat in range(len(state.players)):
            check_determinization(state, seat, random.Random(draw + seat))

    determinized()


# (pack, players, steps) where something of another seat's or a deck is hidden and varies
VARYING = [("7-wonders", 4, 9), ("architects", 4, 5), ("architects-medals", 5, 7), ("dice", 3, 1)]


@pytest.mark.parametrize("pack, players, steps", VARYING)
def test_what_the_seat_cannot_see_varies(pack, players, steps):
    state = played_to(pack, players, 1, steps)
    layouts = {repr(hidden_layout(state.determinize(0, random.Random(i)), 0)) for i in range(12)}
    if pack == "dice":  # nothing is face down in Dice: others' committed choices and the rolls to come are
        state = _dice_with_commits(state)
        layouts = {repr(hidden_layout(state.determinize(0, random.Random(i)), 0)) for i in range(12)}
    assert len(layouts) > 1, "every determinization is the same: nothing hidden was resampled"
    rolls = {state.determinize(0, random.Random(i)).rng.random() for i in range(5)}
    assert len(rolls) == 5, "the chance to come is the truth's"


def _dice_with_commits(state: State) -> State:
    """A Dice position where the others have committed their choices and seat 0 has not."""
    state = state.clone()
    rng = random.Random(3)
    while [s for s in state.current_players() if s != 0]:
        seat = next(s for s in state.current_players() if s != 0)
        actions = state.legal_actions(seat)
        state.apply(seat, actions[rng.randrange(len(actions))])
    return state


def test_another_hand_in_the_view_is_a_guess():
    state = played_to("7-wonders", 4, 2, 5)
    truth = [c.id for c in state.players[1].zones["hand"]]
    guesses = [[c.id for c in View(state, 0, state.legal_actions(0)).position.players[1].zones["hand"]]]
    guesses += [[c.id for c in View(state, 0, state.legal_actions(0)).sample(random.Random(i)).players[1].zones["hand"]]
                for i in range(10)]
    assert any(sorted(g) != sorted(truth) for g in guesses)
    assert all(len(g) == len(truth) for g in guesses)


# ---------------------------------------------------------------- bots

# (pack, players, seed, steps): positions where the deciding seat has hidden things around it
POSITIONS = [("7-wonders", 3, 1, 0), ("7-wonders", 5, 4, 11), ("architects", 2, 4, 0), ("architects", 4, 2, 9),
             ("architects-medals", 4, 6, 14), ("dice", 2, 8, 0), ("dice", 4, 3, 5)]


# the search bot at its default budget takes a while: the quick run checks it at a small one
# (tests/test_ismcts.py), the full run here
SEARCHING = {"ismcts"}


@pytest.mark.parametrize("bot", [pytest.param(b, marks=pytest.mark.slow) if b in SEARCHING else b for b in sorted(BOTS)])
@pytest.mark.parametrize("pack, players, seed, steps", POSITIONS)
def test_a_bots_choice_ignores_what_it_cannot_see(bot, pack, players, seed, steps):
    truth = played_to(pack, players, seed, steps)
    seat = truth.current_players()[-1]
    actions = truth.legal_actions(seat)
    chosen = BOTS[bot].act(truth, seat, actions, random.Random(5))
    for i in range(4):
        other_truth = truth.determinize(seat, random.Random(100 + i))  # the same to the seat, otherwise not
        assert BOTS[bot].act(other_truth, seat, other_truth.legal_actions(seat), random.Random(5)) == chosen


def reachable(root: object, limit: int = 200_000) -> list[object]:
    """Every object reachable from `root` through references, modules, their globals (a function's
    `__globals__`: what any code of the process reaches anyway) and classes left out."""
    seen, todo, out = {id(root)} | {id(vars(m)) for m in list(sys.modules.values())}, [root], []
    while todo and len(out) < limit:
        obj = todo.pop()
        out.append(obj)
        for ref in gc.get_referents(obj):
            if id(ref) not in seen and not isinstance(ref, type) and type(ref).__name__ != "module":
                seen.add(id(ref))
                todo.append(ref)
    return out


@pytest.mark.parametrize("detail", [False, True])
@pytest.mark.parametrize("pack", PACKS)
def test_a_view_cannot_reach_the_true_state(pack, detail):
    state = played_to(pack, 3, 3, 7)
    seat = state.current_players()[0]
    view = View(state, seat, state.legal_actions(seat), detail)
    found = reachable(view)
    assert not any(obj is state for obj in found), "the true state is reachable from the view"
    truth_lists = {id(cards) for p in state.players for cards in p.zones.values()} | {id(c) for c in state.shared.values()}
    assert not any(id(obj) in truth_lists for obj in found if isinstance(obj, list)), "a zone of the truth is shared"
    assert not any(obj is state.flow_state for obj in found)


def test_a_view_without_detail_holds_nothing_of_the_position():
    state = played_to("7-wonders", 4, 1, 3)
    view = BOTS["random"].view(state, 0, state.legal_actions(0))
    assert view.observation is None
    with pytest.raises(ValueError):
        view.position


@pytest.mark.parametrize("bots", [["random"] * 4, ["greedy", "random", "greedy", "random"]])
@pytest.mark.parametrize("pack", PACKS)
def test_the_same_seed_plays_the_same_game_with_every_bot(pack, bots):
    game = dealt(pack, 4, 0).game
    first, again = play(game, bots, seed=11), play(game, bots, seed=11)
    assert first.history == again.history and first.scores() == again.scores()


def test_bot_generators_come_from_the_seed():
    state = dealt("dice", 3, 9)
    assert [r.random() for r in bot_rngs(state)] == [r.random() for r in bot_rngs(dealt("dice", 3, 9))]

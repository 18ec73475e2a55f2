"""A bot that cheats learns nothing hidden from its view (issue 24).

A cheater tries what a bot written in Python could try with what it is handed:
- deal the game of its view's position again, from the position's seed or its game's, and replay the
  position's history: with the truth's seed and history that rebuilds every hand, deck and roll to come;
- read the choices others committed and have not revealed, in the position's history or its flow's state;
- walk everything reachable from the view, looking for the true seed, the true generator, a game dealt
  from the true seed, a zone of the truth.
Each attack is first run against the truth itself, to show that it would find a leak; then from views,
where it must find nothing. Two truths that differ in everything the seat cannot see (seed and history
included) must give every bot the same decision; and what leaves the process, a serialized observation,
is the same for both.
"""

from __future__ import annotations

import copy
import json
import random

import pytest

from helpers import game_for, random_step
from test_fair_bots import PACKS, hidden_layout, reachable
from trust import count
from wonderforge.interpreter import State
from wonderforge.interpreter.bots.botfile import pack_bots
from wonderforge.interpreter.bots.registry import bot_for
from wonderforge.interpreter.games.game import Game
from wonderforge.interpreter.core.hidden import UNSEEN
from wonderforge.interpreter.core.state import generator
from wonderforge.interpreter.bots.view import View

SEED = 918_273_645  # the true game's: distinctive, so that finding it anywhere is a leak


def rebuilds(position: State, truth: State, seat: int) -> bool:
    """Whether dealing the position's game again from its seed (or its game's) and replaying its
    history gives the truth: its generator (every draw to come), or its hidden layout where one shows."""
    for seed in {position.seed, position.game.seed}:
        again = position.game.new_state(seed)
        for who, action in position.history:
            try:
                again.apply(who, action)
            except ValueError:  # an action the rebuilt game does not allow: that replay failed
                break
        if again.rng.getstate() == truth.rng.getstate():
            return True
        if telling(truth, seat) and hidden_layout(again, seat) == hidden_layout(truth, seat):
            return True
    return False


def telling(truth: State, seat: int) -> bool:
    """Whether the truth hides a layout from the seat that a determinization changes."""
    return hidden_layout(truth.determinize(seat, random.Random(0)), seat) != hidden_layout(truth, seat)


def unrevealed(truth: State, seat: int) -> dict[int, int]:
    """Index in the history of each other seat's committed, unrevealed choice."""
    out: dict[int, int] = {}
    waiting = set(truth.game.flow.committed(truth)) - {seat}
    for i in range(len(truth.history) - 1, -1, -1):
        who = truth.history[i][0]
        if who in waiting:
            waiting.discard(who)
            out[who] = i
    return out


def reads_committed(position: State, truth: State, seat: int) -> bool:
    """Whether the position's history holds another seat's unrevealed choice as the truth has it."""
    return any(position.history[i][1] == truth.history[i][1] for i in unrevealed(truth, seat).values())


def walks_to_truth(root: object, truth: State) -> list[str]:
    """What of the truth a walk of every reference from `root` finds."""
    found = []
    true_rng = truth.rng.getstate()
    zones = {id(cards) for p in truth.players for cards in p.zones.values()} | {id(c) for c in truth.shared.values()}
    for obj in reachable(root):
        if obj is truth or obj is truth.flow_state:
            found.append("the true state")
        elif type(obj) is int and obj == SEED:
            found.append("the true seed")
        elif isinstance(obj, str) and str(SEED) in obj:
            found.append(f"the true seed in {obj!r}")
        elif isinstance(obj, random.Random) and obj.getstate() == true_rng:
            found.append("the true generator")
        elif isinstance(obj, Game) and obj.seed == SEED:
            found.append("a game of the true seed")
        elif isinstance(obj, list) and id(obj) in zones:
            found.append("a zone of the truth")
    return found


def decisions(pack: str, players: int = 4, steps: int = 400):
    """(truth, seat) at each decision of one seeded game of random play, deciding seats in turn."""
    state, rng = game_for(pack, players, SEED).new_state(), random.Random(7)
    for _ in range(steps):
        if state.is_terminal():
            return
        for seat in state.current_players():
            yield state, seat
        random_step(state, rng)


@pytest.mark.parametrize("pack", PACKS)
def test_the_attacks_find_the_truth_when_handed_it(pack):
    """The attacks are real: against the truth itself, each finds what it looks for."""
    rebuilt = committed = walked = 0
    for i, (truth, seat) in enumerate(decisions(pack, steps=60)):
        rebuilt += rebuilds(truth, truth, seat)
        committed += reads_committed(truth, truth, seat)
        if i == 5:
            walked += bool(walks_to_truth(truth, truth))
    assert rebuilt and walked
    assert committed or not any(truth.game.flow.committed(truth) for truth, _ in decisions(pack, steps=60))


@pytest.mark.parametrize("pack", PACKS)
def test_a_cheating_bot_learns_nothing_from_its_view(pack):
    seen = commits = 0
    for i, (truth, seat) in enumerate(decisions(pack)):
        view = View(truth, seat, truth.legal_actions(seat), rng=random.Random(i))
        position = view.position
        assert not rebuilds(position, truth, seat), f"decision {i}: the view's position deals the true game again"
        assert not rebuilds(view.sample(random.Random(i)), truth, seat)
        hidden = unrevealed(truth, seat)
        assert all(position.history[k][1] is UNSEEN for k in hidden.values()), \
            f"decision {i}: another seat's unrevealed choice is in the view's history"
        commits += bool(hidden)
        if i % 10 == 0:
            leaks = walks_to_truth(view, truth)
            assert not leaks, f"decision {i}: walking the view finds {leaks[0]}"
            seen += 1
    assert seen >= 3
    if pack != "architects" and pack != "architects-medals":  # turns are taken one at a time there
        assert commits, "no decision with others' picks committed: the test missed what it checks"
    count("faults")


def face_down(state: State, seat: int) -> list[str]:
    """The cards laid face down, by id: the discard pile and the cards under the other seats' stages."""
    pile = state.shared[state.game.discard_zone]
    return sorted([c.id for c in pile] + [c.id for s, p in enumerate(state.players) if s != seat for c in p.tucked])


@pytest.mark.parametrize("players", [3, 5])
def test_what_others_laid_face_down_is_a_guess(players):
    """The draft's discards and stages hide their card: a view's position holds as many cards there,
    drawn with the unseen ones of their round, not the truth's (which it would always match if kept)."""
    read = right = 0
    for i, (truth, seat) in enumerate(decisions("7-wonders", players)):
        truth_down = face_down(truth, seat)
        if any(a.verb in ("discard", "stage") for s, a in truth.history if s != seat):
            guess = face_down(View(truth, seat, truth.legal_actions(seat), rng=random.Random(i)).position, seat)
            assert len(guess) == len(truth_down)
            read, right = read + 1, right + (guess == truth_down)
    assert read > 10 and right < read / 2, f"the view showed what others laid face down {right} times of {read}"
    count("faults")


def another_truth(truth: State, seat: int, rng: random.Random) -> State:
    """A true position that differs from `truth` in everything `seat` cannot see: the hidden pieces,
    the others' committed choices, the cards of others' face-down actions, its seed, its generator
    and its game's seed; the seat's observation and legal actions are the same."""
    other = truth.determinize(seat, rng)
    other.game = copy.copy(truth.game)
    other.game.seed = other.seed = SEED + 1
    other.rng = generator(other.seed)
    cards = sorted(truth.game.catalogue.cards)
    history = []
    for who, action in other.history:
        if action is UNSEEN:
            action = other.flow_state.pending[who]
        elif who != seat and action.card is None and action.verb in truth.game.flow.conceals:
            action = action._replace(card=cards[rng.randrange(len(cards))])
        history.append((who, action))
    other.history = history
    return other


def committing(pack: str, players: int, steps: int) -> tuple[State, int]:
    """A position after `steps` random actions where, in a round of simultaneous choices, every seat
    but the last to act has committed; and that seat."""
    state, rng = game_for(pack, players, SEED).new_state(), random.Random(steps)
    for _ in range(steps):
        random_step(state, rng)
    while len(state.current_players()) > 1:
        seat = state.current_players()[0]
        actions = state.legal_actions(seat)
        state.apply(seat, actions[rng.randrange(len(actions))])
    return state, state.current_players()[0]


POSITIONS = [("7-wonders", 4, 0), ("7-wonders", 5, 17), ("architects", 4, 9), ("architects-medals", 4, 14),
             ("dice", 3, 0), ("dice", 4, 6)]


@pytest.mark.parametrize("pack, players, steps", POSITIONS)
def test_two_truths_alike_to_the_seat_get_the_same_decisions(pack, players, steps):
    truth, seat = committing(pack, players, steps)
    other = another_truth(truth, seat, random.Random(1))
    assert other.observation(seat) == truth.observation(seat)
    assert other.legal_actions(seat) == truth.legal_actions(seat)
    # histories differ where the seat did not see all of it: others' choices not revealed, cards face down
    assert other.history != truth.history or not unrevealed(truth, seat) and not truth.game.flow.conceals
    assert hidden_layout(other, seat) != hidden_layout(truth, seat) or not telling(truth, seat)
    names = ["random", "greedy", "ismcts:16", *pack_bots(truth.game.pack)[0]]
    for name in names:
        bot = bot_for(truth.game, name)
        chosen = [bot.act(position, seat, position.legal_actions(seat), random.Random(k))
                  for position in (truth, other) for k in range(2)]
        assert chosen[:2] == chosen[2:], f"{name} tells two truths apart that look the same to seat {seat}"
    count("faults")


@pytest.mark.parametrize("pack, players, steps", POSITIONS)
def test_a_serialized_observation_holds_nothing_hidden(pack, players, steps):
    truth, seat = committing(pack, players, steps)
    other = another_truth(truth, seat, random.Random(2))
    wire = json.dumps(truth.observation(seat), sort_keys=True)
    assert wire == json.dumps(other.observation(seat), sort_keys=True)
    assert str(SEED) not in wire
    count("faults")


def test_what_the_environment_sends_a_player_holds_nothing_hidden():
    pytest.importorskip("pettingzoo")
    from wonderforge.tools.study.environment import WonderForgeEnv
    truth, seat = committing("7-wonders", 4, 9)
    other = another_truth(truth, seat, random.Random(3))
    sent = []
    for position in (truth, other):
        env = WonderForgeEnv("7-wonders", players=4)
        env.reset(seed=SEED)
        env.state_ = position
        env._select()
        agent = f"player_{seat}"
        env.agent_selection = agent
        observed = env.observe(agent)
        sent.append((observed["observation"].tolist(), observed["action_mask"].tolist(),
                     json.dumps(env.infos[agent], sort_keys=True, default=str)))
    assert sent[0] == sent[1]
    assert str(SEED) not in sent[0][2]
    count("faults")


def test_a_view_draws_its_positions_from_the_bots_generator():
    truth, seat = committing("7-wonders", 4, 9)
    actions = truth.legal_actions(seat)
    first, again = (View(truth, seat, actions, rng=random.Random(4)).position for _ in range(2))
    assert first.seed == again.seed and hidden_layout(first, seat) == hidden_layout(again, seat)
    assert {View(truth, seat, actions, rng=random.Random(k)).position.seed for k in range(5)}.__len__() == 5
    assert first.seed != truth.seed and first.game is not truth.game and first.game.seed != truth.game.seed

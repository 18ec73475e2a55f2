"""The search bot (issue 15): `ismcts[:budget]` named like every bot, deterministic for a playout
budget, playing whole games of every pack from its view alone, and finding an obvious best move."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import dealt, game_for
from wonderforge.interpreter.bots.registry import BOTS, bot_for, bot_names, play
from wonderforge.interpreter.bots.ismcts import DEFAULT_PLAYOUTS, DEFAULT_SETTING, Budget, Ismcts
from wonderforge.interpreter.packs.folders import shipped_packs
from wonderforge.tools.cli.commands import main
from wonderforge.tools.cli.play import Quit, Terminal

PACKS = [folder.name for folder in shipped_packs()]


def played_to(pack: str, players: int, seed: int, steps: int):
    """A game of random actions, `steps` of them (taken by the first seat to act each time)."""
    state, rng = dealt(pack, players, seed), random.Random(seed)
    while len(state.history) < steps and not state.is_terminal():
        seat = state.current_players()[0]
        actions = state.legal_actions(seat)
        state.apply(seat, actions[rng.randrange(len(actions))])
    return state


# ---------------------------------------------------------------- names and budgets

@pytest.mark.parametrize("text, budget", [(None, Budget(DEFAULT_PLAYOUTS, None)), ("200", Budget(200, None)),
                                          ("1", Budget(1, None)), ("0.5s", Budget(None, 0.5)), (".25s", Budget(None, 0.25)),
                                          ("2s", Budget(None, 2.0))])
def test_budgets_are_playouts_or_seconds(text, budget):
    assert Budget.parse(text) == budget


def test_the_default_budget_is_a_playout_count():
    """Only a playout budget is reproducible: the default must be one."""
    assert Budget().playouts == DEFAULT_PLAYOUTS and Budget().seconds is None


@pytest.mark.parametrize("name", ["ismcts:abc", "ismcts:0", "ismcts:0s", "ismcts:-1", "ismcts:", "ismcts:1.5",
                                  "ismcts:2ms", "ismcts:0.0s", "ismcts:99999s"])
def test_a_bad_budget_is_a_clear_error(name):
    with pytest.raises(ValueError, match="budget|unknown bot"):
        bot_names(name, 4)
    with pytest.raises(ValueError, match="budget|unknown bot"):
        bot_for(game_for("dice", 4), name)


def test_names_with_a_budget_are_accepted_everywhere():
    game = game_for("architects", 3)
    assert bot_names("ismcts:20,random", 3) == ["ismcts:20", "random", "ismcts:20"]
    assert bot_names("ismcts:0.5s,rules", 3, game) == ["ismcts:0.5s", "rules", "ismcts:0.5s"]
    assert bot_for(game, "ismcts:20") is bot_for(game, "ismcts:20")  # built once per game
    assert bot_for(game, "ismcts") is bot_for(game, "ismcts") is not BOTS["ismcts"]
    assert bot_for(game_for("architects", 4), "ismcts").choose is not bot_for(game, "ismcts").choose  # not shared


@pytest.mark.parametrize("command", [["simulate", "dice", "--games", "1"], ["play", "dice"]])
def test_the_command_line_reports_a_bad_budget_as_exit_2(command, capsys):
    assert main([*command, "--bots", "ismcts:abc"]) == 2
    err = capsys.readouterr().err
    assert "ismcts:abc" in err and "Traceback" not in err


# ---------------------------------------------------------------- play

@pytest.mark.slow  # whole searches
@pytest.mark.parametrize("pack", PACKS)
def test_it_plays_whole_games_of_every_pack_the_same_from_the_same_seed(pack):
    game = game_for(pack, 4)
    bots = ["ismcts:8", "random", "rules", "ismcts:5"]
    first, again = play(game, bots, seed=3), play(game, bots, seed=3)
    assert first.is_terminal()
    assert first.history == again.history and first.scores() == again.scores()


def test_what_it_weighed_is_reported():
    state = played_to("7-wonders", 4, 2, 4)
    seat = state.current_players()[0]
    bot = Ismcts(Budget(40))
    actions = state.legal_actions(seat)
    chosen = bot_act(bot, state, seat)
    assert bot.weighed[0][0] == chosen
    assert sum(visits for _, visits, _ in bot.weighed) == 40
    assert [v for _, v, _ in bot.weighed] == sorted((v for _, v, _ in bot.weighed), reverse=True)
    assert all(a in actions and 0 <= mean <= 1 for a, _, mean in bot.weighed)


def bot_act(bot, state, seat, rng_seed: int = 5):
    from wonderforge.interpreter.bots.registry import Bot
    return Bot(bot, detail=True).act(state, seat, state.legal_actions(seat), random.Random(rng_seed))


def test_a_time_budget_stops_in_time():
    state = played_to("dice", 4, 1, 0)
    seat = state.current_players()[0]
    bot = Ismcts(Budget(None, 0.05))
    action = bot_act(bot, state, seat)
    assert action in state.legal_actions(seat) and sum(v for _, v, _ in bot.weighed) >= 1


# (pack, players, seed, steps): positions where the deciding seat has hidden things around it
POSITIONS = [("7-wonders", 3, 1, 0), ("7-wonders", 4, 4, 11), ("architects", 4, 2, 9),
             ("architects-medals", 4, 6, 14), ("dice", 4, 3, 5)]


@pytest.mark.slow  # whole searches
@pytest.mark.parametrize("pack, players, seed, steps", POSITIONS)
def test_its_choice_ignores_what_it_cannot_see(pack, players, seed, steps):
    truth = played_to(pack, players, seed, steps)
    seat = truth.current_players()[-1]
    bot = bot_for(truth.game, "ismcts:12")
    chosen = bot.act(truth, seat, truth.legal_actions(seat), random.Random(5))
    for i in range(3):
        other = truth.determinize(seat, random.Random(100 + i))  # the same to the seat, otherwise not
        assert bot.act(other, seat, other.legal_actions(seat), random.Random(5)) == chosen


def test_it_finds_an_obvious_best_move():
    """7 Wonders, seed 21, seat 0's last pick: building the arena is worth 5 points more than any
    other action; a small search finds it."""
    state = played_to("7-wonders", 4, 21, 71)
    actions = state.legal_actions(0)
    assert "build arena" in {str(a) for a in actions}
    for rng_seed in range(3):
        assert str(bot_act(Ismcts(Budget(40)), state, 0, rng_seed)) == "build arena"


def test_play_explain_shows_what_a_search_bot_weighed():
    out: list[str] = []
    terminal = Terminal(game_for("dice", 2, 4), 1, ["ismcts:10", None], lambda prompt: "q", out.append, explain=True)
    with pytest.raises(Quit):
        terminal.run()
    text = "\n".join(out)
    assert "seat 0 (ismcts:10) weighed:" in text and "playouts, mean reward" in text


@pytest.mark.slow
def test_the_same_seeds_give_the_same_games_on_any_number_of_workers():
    from wonderforge.tools.study.running import run
    game = game_for("dice", 3)
    bots = ["ismcts:6", "ismcts:cut", "random"]
    one, two = run(game, "dice", bots, 3, 4, workers=1), run(game, "dice", bots, 3, 4, workers=2)
    assert [(t.wins, t.score) for t in one.seats] == [(t.wins, t.score) for t in two.seats]


# ---------------------------------------------------------------- what makes it cheap

def test_a_playout_stops_at_its_horizon():
    """With a horizon, a playout ends once the bot has made that many decisions of its own after
    its tree (at the end of that turn); without one it plays to the game's end."""
    from wonderforge.interpreter.bots.ismcts import Edge
    state = played_to("7-wonders", 4, 2, 0)
    me = state.current_players()[0]
    short, whole = state.determinize(me, random.Random(1)), state.determinize(me, random.Random(1))
    Ismcts(horizon=2).iterate(Edge(), short, me, lambda view, rng: view.actions[0], random.Random(2))
    Ismcts(horizon=None).iterate(Edge(), whole, me, lambda view, rng: view.actions[0], random.Random(2))
    assert whole.is_terminal() and not short.is_terminal()
    assert [s for s, _ in short.history[len(state.history):]].count(me) == 3  # one in the tree, two played out


def next_decision(state, seat: int, rng: random.Random):
    """Play random actions for the other seats (and the seat's forced ones) up to `seat`'s next choice."""
    while not state.is_terminal():
        for s in state.current_players():
            actions = state.legal_actions(s)
            if s == seat and len(actions) > 1:
                return
            state.apply(s, actions[rng.randrange(len(actions))])


def test_the_next_decision_starts_from_the_subtree_of_the_action_taken():
    from wonderforge.interpreter.bots.view import View
    state = played_to("dice", 4, 3, 0)
    next_decision(state, 0, random.Random(0))
    bot, rng = Ismcts(Budget(40), reuse=True), random.Random(5)
    chosen = bot(View(state, 0, state.legal_actions(0), True, rng), rng)
    state.apply(0, chosen)
    next_decision(state, 0, random.Random(1))
    view = View(state, 0, state.legal_actions(0), True, rng)
    root, held, _ = bot.resume(view, rng)
    assert 0 < held <= 30 and held == sum(e.visits for e in root.child.values())  # at most 3/4 of the budget
    assert bot.resume(view, rng)[1] == 0  # used once
    assert bot.resume(View(state, 0, state.legal_actions(0), True, random.Random(5)), random.Random(5))[1] == 0


def test_a_kept_subtree_is_not_used_where_the_game_went_another_way():
    from wonderforge.interpreter.bots.view import View
    state = played_to("dice", 4, 3, 0)
    next_decision(state, 0, random.Random(0))
    bot, rng = Ismcts(Budget(40), reuse=True), random.Random(5)
    actions = state.legal_actions(0)
    chosen = bot(View(state, 0, actions, True, rng), rng)
    state.apply(0, next(a for a in actions if a != chosen))  # the seat did something else after all
    next_decision(state, 0, random.Random(1))
    assert bot.resume(View(state, 0, state.legal_actions(0), True, rng), rng)[1] == 0


def test_a_playout_cut_short_is_valued_by_the_cut_value():
    """A playout stopped at its horizon before the game's end is scored by `cut` (the learned
    evaluation in `ismcts:cut`), one that reaches the end by the final scores."""
    from wonderforge.interpreter.bots.ismcts import Edge, margins
    state = played_to("7-wonders", 4, 2, 0)
    me = state.current_players()[0]
    root, cut = Edge(), lambda position: [0.125 * (seat + 1) for seat in range(4)]
    Ismcts(horizon=1).iterate(root, state.determinize(me, random.Random(1)), me, lambda v, r: v.actions[0],
                              random.Random(2), cut)
    assert [e.total for e in root.child.values() if e.visits] == [0.125 * (me + 1)]
    end = played_to("7-wonders", 4, 2, 10 ** 6)
    ended = played_to("7-wonders", 4, 2, len(end.history) - 1)  # one action from the end
    last = ended.current_players()[0]
    root = Edge()
    Ismcts(horizon=1).iterate(root, ended, last, lambda v, r: v.actions[0], random.Random(2), cut)
    assert ended.is_terminal() and sum(e.total for e in root.child.values()) == margins(ended)[last]


@pytest.mark.parametrize("pack", ["7-wonders", "dice"])
def test_the_evaluation_of_a_cut_playout_foresees_the_winner(pack):
    """Two thirds into random games, the seat the estimate favours wins the game far more often
    than a seat drawn at random (1 in 4): what the cut playouts learn from is worth learning."""
    from helpers import random_game
    from wonderforge.interpreter.bots.evaluation import evaluation_for
    from wonderforge.interpreter.bots.ismcts import estimates
    foreseen, games = 0, 30
    for seed in range(games):
        whole = random_game(pack, 4, seed)
        cut = random_game(pack, 4, seed, limit=len(whole.history) * 2 // 3)
        rewards = estimates(evaluation_for(cut.game))(cut)
        assert all(0 <= r <= 1 for r in rewards)
        foreseen += max(range(4), key=rewards.__getitem__) in whole.winners()
    assert foreseen >= 0.4 * games


def test_a_cut_playouts_win_is_shared_by_how_far_the_guess_may_miss():
    """Sure guesses give the win to the best (shared by a tie); a guess that may miss gives each
    seat its chance to come first, more even the more it may miss, in the order of the guesses."""
    from wonderforge.interpreter.bots.ismcts import win_chances
    assert win_chances([3.0, 1.0, 3.0], None) == [0.5, 0.0, 0.5]
    narrow, wide = win_chances([4.0, 1.0, -5.0], 1.0), win_chances([4.0, 1.0, -5.0], 20.0)
    assert sum(narrow) == pytest.approx(1) and sum(wide) == pytest.approx(1)
    assert narrow[0] > narrow[1] > narrow[2] and wide[0] > wide[1] > wide[2]
    assert narrow[0] > 0.95 and wide[0] < 0.5


def test_the_named_settings():
    """`ismcts:cut` searches at a horizon with the learned value; `ismcts:classic`, the default before
    issue 26, plays 200 playouts to the game's end; a bare name or a budget plays the default, cut."""
    game = game_for("architects", 4)
    cut, classic = bot_for(game, "ismcts:cut").choose, bot_for(game, "ismcts:classic").choose
    assert cut.horizon(game) == 5 and cut.value_for is not None and cut.budget == Budget(100)
    assert classic.horizon is None and classic.value_for is None and classic.budget == Budget(200)
    default = bot_for(game, "ismcts").choose
    assert DEFAULT_SETTING == "cut" and default.value_for is not None and default.budget == Budget(DEFAULT_PLAYOUTS)
    assert bot_for(game, "ismcts:30").choose.value_for is not None


@pytest.mark.parametrize("pack, seat_decisions, horizon", [("7-wonders", 18, 3), ("architects", 30, 5),
                                                            ("architects-medals", 30, 5), ("dice", 39, 6)])
def test_a_cut_playout_looks_a_sixth_of_a_game_ahead(pack, seat_decisions, horizon):
    """`ismcts:cut` plays out a sixth of a seat's decisions in a game, by the length its training
    measured (the evaluation's `steps`)."""
    from wonderforge.interpreter.bots.evaluation import evaluation_for
    from wonderforge.interpreter.bots.registry import cut_horizon
    game = game_for(pack, 4)
    assert round(evaluation_for(game).steps) == seat_decisions
    assert cut_horizon(game) == horizon == seat_decisions // 6


def test_a_cut_playout_looks_three_decisions_ahead_where_no_length_was_trained():
    from wonderforge.interpreter import load_game
    from wonderforge.interpreter.bots.evaluation import set_evaluation
    from wonderforge.interpreter.bots.registry import UNTRAINED_HORIZON, cut_horizon
    game = load_game("dice", players=4)  # a pack of its own: its evaluation is not the shared one's
    set_evaluation(game, {}, None)
    assert cut_horizon(game) == UNTRAINED_HORIZON == 3


def test_thrifty_playouts_play_each_move_once_at_its_cheapest_payment():
    from wonderforge.interpreter.bots.registry import IDLE, thrifty_bot
    from wonderforge.interpreter.bots.ismcts import Glimpse
    found = None
    for seed in range(10):
        for steps in range(0, 120, 7):
            state = played_to("7-wonders", 4, seed, steps)
            seat = state.current_players()[0]
            actions = state.legal_actions(seat)
            if len({(a.verb, a.card) for a in actions}) < len(actions):
                found = state, seat, actions
                break
        if found:
            break
    state, seat, actions = found
    chosen = {thrifty_bot(Glimpse(state, seat, actions), random.Random(i)) for i in range(200)}
    for action in chosen:
        assert action.verb not in IDLE
        assert all(sum(action.pay) <= sum(a.pay) for a in actions if (a.verb, a.card) == (action.verb, action.card))
    assert {(a.verb, a.card) for a in chosen} == {(a.verb, a.card) for a in actions if a.verb not in IDLE}


# ---------------------------------------------------------------- what a search pays for, made cheaper

@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(), max_size=70), st.integers(0, 2**32))
def test_hidden_piles_are_shuffled_as_the_generator_shuffles(items, seed):
    """The determinizations' own shuffle (no call per item) draws the same as `Random.shuffle` and
    leaves the generator where it leaves it: the same search, the same games."""
    from wonderforge.interpreter.core.hidden import shuffle
    ours, theirs = list(items), list(items)
    mine, reference = random.Random(seed), random.Random(seed)
    shuffle(ours, mine)
    reference.shuffle(theirs)
    assert ours == theirs and mine.getstate() == reference.getstate()


@pytest.mark.parametrize("pack", PACKS)
def test_every_seats_relative_features_at_once_are_each_seats_own(pack):
    """A cut playout's value reads every seat's features against the others' at once, from the
    columns' totals: exactly what each seat's own reading gives (the features count whole things)."""
    from wonderforge.interpreter.bots.evaluation import evaluation_for
    for seed, steps in ((1, 9), (2, 40), (3, 90)):
        state = played_to(pack, 4, seed, steps)
        features = evaluation_for(state.game).features
        raw = [features.seat(state, s) for s in range(4)]
        own = [features.relative(state, s, raw[s], raw[:s] + raw[s + 1:]) for s in range(4)]
        assert features.relatives(state, raw) == own
        assert any(any(x != 0 for x in rel) for rel in own)  # positions where the seats differ

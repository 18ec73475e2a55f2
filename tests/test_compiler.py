"""The compiler: sentences compiled once, then run against a small fake game.

`FakeContext` implements the `Context` protocol over plain dicts and records every service a
verb asks of it, with its arguments as a mapping.
Seating follows the design: the left neighbour of seat i is i+1, the right one i-1.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from wonderforge.dsl.checks import check_condition, check_cost, check_effects
from wonderforge.dsl.compiler import Compiler
from wonderforge.dsl.parser import parse_condition, parse_cost, parse_effects


@attrs.frozen
class Card:
    id: str
    colour: str
    icons: tuple[str, ...] = ()


def cards(colour: str, n: int, *icons: str, id: str = "some_card") -> list[Card]:
    return [Card(id, colour, icons) for _ in range(n)]


@attrs.define
class FakeContext:
    n: int = 3
    zones: dict = attrs.Factory(dict)      # (seat, zone or "city") -> [Card]
    stage_counts: dict = attrs.Factory(dict)  # seat -> stages built
    token_counts: dict = attrs.Factory(dict)  # (seat, kind, period) -> tokens
    box_counts: dict = attrs.Factory(dict)    # (seat, building, die, tags, period) -> boxes
    counters: dict = attrs.Factory(dict)      # (seat, name) -> value
    completed: set = attrs.Factory(set)       # (seat, name)
    acts: list = attrs.Factory(list)
    calls: list = attrs.Factory(list)

    def seats(self, me: int, selector: str) -> list[int]:
        left, right = (me + 1) % self.n, (me - 1) % self.n
        return {
            "self": [me], "left": [left], "right": [right], "neighbours": sorted({left, right}),
            "all": list(range(self.n)), "others": [s for s in range(self.n) if s != me],
        }[selector]

    def cards(self, seat: int, zone: str | None) -> list[Card]:
        self.calls.append(("cards", seat, zone))
        return self.zones.get((seat, zone or "city"), [])

    def stages(self, seat: int) -> int:
        return self.stage_counts.get(seat, 0)

    def tokens(self, seat: int, kind: str, period: str | None) -> int:
        self.calls.append(("tokens", seat, kind, period))
        return self.token_counts.get((seat, kind, period), 0)

    def boxes(self, seat, building, die, tags, period) -> int:
        self.calls.append(("boxes", seat, building, die, tags, period))
        return self.box_counts.get((seat, building, die, tags, period), 0)

    def counter(self, seat: int, name: str) -> int:
        return self.counters.get((seat, name), 0)

    def produced(self, seat: int, resource: str) -> int:
        return self.counters.get((seat, f"produced {resource}"), 0)

    def player_count(self) -> int:
        return self.n

    def complete(self, seat: int, name: str) -> bool:
        return (seat, name) in self.completed

    # the engine's services: each call is recorded as (me, service, arguments)
    def gain(self, me, counter, value):
        self.acts.append((me, "gain", {"counter": counter, "value": value}))

    def gain_from(self, owner, seat, counter, value):  # what the owner's effect gives another seat
        self.gain(seat, counter, value)

    def take_pawn(self, me, pawn):
        self.acts.append((me, "take_pawn", {"pawn": pawn}))

    def ask(self, me, kind, args):
        self.acts.append((me, kind, attrs.asdict(args, recurse=False)))

    def take_tokens(self, me, args):
        self.acts.append((me, "take_token", attrs.asdict(args, recurse=False)))

    def extra_action(self, me, args):
        self.acts.append((me, "extra_action", attrs.asdict(args, recurse=False)))


@pytest.fixture
def compile_one(vocab):
    """Parse, check (must be clean) and compile a one-sentence effect."""
    def compile_(text: str):
        tree = parse_effects(text)
        assert check_effects(tree, vocab) == []
        (effect,) = Compiler(vocab).effects(tree)
        return effect
    return compile_


@pytest.fixture
def compile_condition(vocab):
    def compile_(text: str):
        tree = parse_condition(text)
        assert check_condition(tree, vocab) == []
        return Compiler(vocab).condition(tree)
    return compile_


def gains(ctx: FakeContext) -> list[tuple[int, str, int]]:
    return [(me, args["counter"], args["value"]) for me, verb, args in ctx.acts if verb == "gain"]


# ---- amounts and counts --------------------------------------------------------------------


def test_per_card_in_self_and_neighbours(compile_one):
    effect = compile_one("coins 1 per brown card in self, left, right")
    ctx = FakeContext(n=4, zones={
        (0, "city"): cards("brown", 2) + cards("blue", 3),
        (1, "city"): cards("brown", 1),                 # left of 0
        (2, "city"): cards("brown", 7),                 # not a neighbour of 0
        (3, "city"): cards("brown", 4) + cards("grey", 1),  # right of 0
    })
    effect.run(ctx, 0)
    assert gains(ctx) == [(0, "coin", 2 + 1 + 4)]
    ctx.acts.clear()
    effect.run(ctx, 2)  # for seat 2: itself 7, left (3) 4, right (1) 1
    assert gains(ctx) == [(2, "coin", 7 + 4 + 1)]


def test_per_multiplies(compile_one):
    effect = compile_one("vp 2 per blue / green card")
    ctx = FakeContext(zones={(0, "city"): cards("blue", 2) + cards("green", 1) + cards("red", 5)})
    effect.run(ctx, 0)
    assert gains(ctx) == [(0, "vp", 6)]


@pytest.mark.parametrize(("tokens", "vp"), [(0, 0), (1, 4), (2, 12), (3, 16), (4, 16), (9, 16)])
def test_table_by_count(compile_one, tokens, vp):
    effect = compile_one("vp 4, 12, 16 by culture token in self")
    ctx = FakeContext(token_counts={(0, "culture", None): tokens})
    effect.run(ctx, 0)
    assert gains(ctx) == [(0, "vp", vp)]


@pytest.mark.parametrize(("boxes", "vp"), [(0, 3), (1, 2), (2, 1), (3, 0), (4, 0), (10, 0)])
def test_minus_never_below_zero(compile_one, boxes, vp):
    effect = compile_one("vp 3 minus defence box in barracks_east of left")
    left = 1
    ctx = FakeContext(box_counts={(left, "barracks_east", None, frozenset({"defence"}), None): boxes})
    effect.run(ctx, 0)
    assert gains(ctx) == [(0, "vp", vp)]
    assert ctx.calls == [("boxes", left, "barracks_east", None, frozenset({"defence"}), None)]


def test_box_count_before_this_round_in_building_shown_by_die(compile_one):
    effect = compile_one("vp 1 per box in building shown by purple die of right before this round")
    ctx = FakeContext(n=3, box_counts={(2, None, "purple", frozenset(), "before_round"): 5})
    effect.run(ctx, 0)
    assert gains(ctx) == [(0, "vp", 5)]
    assert ctx.calls == [("boxes", 2, None, "purple", frozenset(), "before_round")]


@pytest.mark.parametrize(("coins", "vp"), [(0, 0), (2, 0), (3, 1), (5, 1), (6, 2), (11, 3)])
def test_divisor_rounds_down(compile_one, coins, vp):
    effect = compile_one("vp 1 per 3 coins")
    ctx = FakeContext(counters={(0, "coin"): coins})
    effect.run(ctx, 0)
    assert gains(ctx) == [(0, "vp", vp)]


def test_icons_are_counted_on_cards(compile_one):
    effect = compile_one("at end: vp 1 per cat icon in self")
    ctx = FakeContext(zones={(0, "city"): [Card("a", "blue", ("cat",)), Card("b", "red", ("cat", "horn", "cat")),
                                            Card("c", "red", ("horn",))]})
    effect.run(ctx, 0)
    assert gains(ctx) == [(0, "vp", 3)]


def test_card_filter_by_id_colour_and_icon(compile_one):
    effect = compile_one("coins 1 per lighthouse / blue card with horn")
    ctx = FakeContext(zones={(0, "city"): [
        Card("lighthouse", "yellow", ("horn",)),  # by id, with horn
        Card("lighthouse", "yellow"),             # by id, no horn
        Card("x", "blue", ("horn", "cat")),       # by colour, with horn
        Card("y", "blue"),                        # by colour, no horn
        Card("z", "red", ("horn",)),              # neither
    ]})
    effect.run(ctx, 0)
    assert gains(ctx) == [(0, "coin", 2)]


def test_counts_in_a_players_zone(compile_one):
    effect = compile_one("coins 1 per card in hand of left, deck")
    ctx = FakeContext(zones={(1, "hand"): cards("red", 2), (0, "deck"): cards("red", 3), (0, "city"): cards("red", 9)})
    effect.run(ctx, 0)
    assert gains(ctx) == [(0, "coin", 5)]
    assert ("cards", 1, "hand") in ctx.calls and ("cards", 0, "deck") in ctx.calls


def test_stages_of_all_players(compile_one):
    effect = compile_one("vp 1 per stage in all")
    ctx = FakeContext(n=4, stage_counts={0: 1, 1: 2, 2: 0, 3: 3})
    effect.run(ctx, 1)
    assert gains(ctx) == [(1, "vp", 6)]


def test_tokens_from_one_battle(compile_one):
    effect = compile_one("vp 1 per victory tokens from one battle")
    ctx = FakeContext(token_counts={(0, "victory", "one_battle"): 2, (0, "victory", None): 5})
    effect.run(ctx, 0)
    assert gains(ctx) == [(0, "vp", 2)]


def test_tokens_from_this_battle(compile_one):
    effect = compile_one("at battle: coins 2 per victory token from this battle")
    ctx = FakeContext(token_counts={(0, "victory", "this_battle"): 1, (0, "victory", "one_battle"): 2})
    effect.run(ctx, 0)
    assert gains(ctx) == [(0, "coin", 2)]


def test_fixed_and_negative_gains_in_order(compile_one):
    effect = compile_one("on build: coins -2 then vp 3")
    ctx = FakeContext()
    effect.run(ctx, 1)
    assert effect.trigger == "build"
    assert gains(ctx) == [(1, "coin", -2), (1, "vp", 3)]


# (sentence, gains at seat 1 of 4): a gain to other players goes to each of them; a count without
# `in` reads on the player hit, one with `in` from the owner (`in self`: the owner's own)
GAINS_TO = [
    ("coins -1 to others", [(0, "coin", -1), (2, "coin", -1), (3, "coin", -1)]),
    ("vp 2 to left", [(2, "vp", 2)]),
    ("coins -1 per red card to neighbours", [(0, "coin", -1), (2, "coin", -3)]),
    ("coins -1 per red card in self to neighbours", [(0, "coin", -2), (2, "coin", -2)]),
    ("coins -1 per red card in left to all", [(0, "coin", -3), (1, "coin", -3), (2, "coin", -3), (3, "coin", -3)]),
    ("vp 3 minus red card to right", [(0, "vp", 2)]),
    ("vp 1, 4 by red card to left", [(2, "vp", 4)]),
]


@pytest.mark.parametrize("text, given", GAINS_TO, ids=[t for t, _ in GAINS_TO])
def test_a_gain_to_other_players(compile_one, text, given):
    effect = compile_one(text)
    ctx = FakeContext(n=4, zones={(0, "city"): cards("red", 1), (1, "city"): cards("red", 2),
                                  (2, "city"): cards("red", 3)})
    effect.run(ctx, 1)
    assert gains(ctx) == given


# ---- conditions ---------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "blue", "holds"), [
    (3, 3, True), (7, 4, True), (2, 3, False), (3, 2, False), (2, 0, False),
])
def test_players_and_at_least(compile_condition, players, blue, holds):
    test = compile_condition("players > 2 and 3 blue card")
    ctx = FakeContext(n=players, zones={(0, "city"): cards("blue", blue) + cards("green", 5)})
    assert test(ctx, 0) is holds


@pytest.mark.parametrize(("mine", "left", "right", "ge", "gt"), [
    (2, 2, 1, True, False), (3, 2, 1, True, True), (2, 3, 1, False, False), (2, 1, 3, False, False), (0, 0, 0, True, False),
])
def test_compare_with_each_neighbour(compile_condition, mine, left, right, ge, gt):
    ctx = FakeContext(n=4, stage_counts={0: mine, 1: left, 3: right, 2: 99})
    assert compile_condition("stage >= left, right")(ctx, 0) is ge
    assert compile_condition("stage > left, right")(ctx, 0) is gt


def test_compare_counts_from_the_other_players_seat(compile_condition):
    # `card in self` for the left neighbour is the left neighbour's own city
    ctx = FakeContext(n=3, zones={(0, "city"): cards("red", 2), (1, "city"): cards("red", 2), (2, "city"): cards("red", 3)})
    assert compile_condition("red card in self = left")(ctx, 0) is True
    assert compile_condition("red card in self < right")(ctx, 0) is True
    assert compile_condition("red card in self >= right")(ctx, 0) is False


@pytest.mark.parametrize(("red", "fewer", "none", "exactly_two"), [(0, True, True, False), (2, True, False, True),
                                                                   (3, False, False, False)])
def test_a_count_compared_with_a_number(compile_condition, red, fewer, none, exactly_two):
    ctx = FakeContext(n=3, zones={(0, "city"): cards("red", red), (1, "city"): cards("red", 5)})
    assert compile_condition("red card < 3")(ctx, 0) is fewer
    assert compile_condition("red card = 0")(ctx, 0) is none
    assert compile_condition("red card in self = 2")(ctx, 0) is exactly_two
    assert compile_condition("red card in all >= 5")(ctx, 0) is (red + 5 >= 5)


def test_or_and_complete(compile_condition):
    test = compile_condition("wonder complete or agora complete and players = 2")
    assert test(FakeContext(n=3, completed={(0, "wonder")}), 0) is True
    assert test(FakeContext(n=3, completed={(0, "agora")}), 0) is False
    assert test(FakeContext(n=2, completed={(0, "agora")}), 0) is True
    assert test(FakeContext(n=2, completed={(1, "wonder")}), 0) is False


def test_an_effect_runs_only_if_its_condition_holds(compile_one):
    effect = compile_one("vp 5 if players > 2 and 3 blue card")
    ctx = FakeContext(n=3, zones={(0, "city"): cards("blue", 2)})
    assert not effect.applies(ctx, 0)
    effect.run(ctx, 0)
    assert ctx.acts == []
    ctx.zones[(0, "city")] = cards("blue", 3)
    effect.run(ctx, 0)
    assert gains(ctx) == [(0, "vp", 5)]


def test_condition_with_shown_building_compare(compile_one):
    effect = compile_one("vp 5 if players > 2 and box in building shown by purple die before this round >= left, right"
                         " or players = 2 and box in building shown by purple die > left")
    key = lambda seat, period: (seat, None, "purple", frozenset(), period)  # noqa: E731
    three = FakeContext(n=3, box_counts={key(0, "before_round"): 2, key(1, "before_round"): 2, key(2, "before_round"): 1})
    effect.run(three, 0)
    assert gains(three) == [(0, "vp", 5)]
    two = FakeContext(n=2, box_counts={key(0, None): 1, key(1, None): 1})
    effect.run(two, 0)
    assert two.acts == []


# ---- other verbs: canonical arguments ------------------------------------------------------


def test_canonical_arguments(compile_one):
    take = compile_one("take 1 of top 5 cards of deck of self / central_deck").actions[0]
    assert (take.verb, attrs.asdict(take.args, recurse=False)) == ("take_top", {"zones": (("deck", "self"), ("central_deck", None)), "keep": 1, "depth": 5})
    produce = compile_one("produce private 2 wood / stone").actions[0]
    assert (produce.verb, attrs.asdict(produce.args, recurse=False)) == ("produce", {"resources": ("wood", "stone"), "count": 2, "private": True, "held": None})
    trade = compile_one("trade raw at 1 from left, right").actions[0]
    assert (trade.verb, attrs.asdict(trade.args, recurse=False)) == ("trade", {"resources": ("raw",), "price": 1, "sides": ("left", "right"), "first": False})
    flip = compile_one("flip 2 conflict tokens").actions[0]
    assert (flip.verb, attrs.asdict(flip.args, recurse=False)) == ("flip", {"kind": "conflict", "count": 2})
    check = compile_one("check up to 2 boxes in agora / market").actions[0]
    assert (check.verb, attrs.asdict(check.args, recurse=False)) == ("check", {"buildings": ("agora", "market"), "count": 2, "up_to": True})
    give = compile_one("take card from city of opponent then give top card of central_deck to chosen face down").actions[1]
    assert (give.verb, attrs.asdict(give.args, recurse=False)) == ("give", {"zones": (("central_deck", None),), "to": "chosen", "face_down": True})


def test_run_passes_the_arguments_to_act(compile_one):
    effect = compile_one("take cat then take progress token then extra action without die cost")
    ctx = FakeContext()
    effect.run(ctx, 2)
    assert ctx.acts == [(2, "take_pawn", {"pawn": "cat"}), (2, "take_token", {"kind": "progress", "count": 1}),
                        (2, "extra_action", {"free_die": True})]


def test_filters_compile_to_card_tests(compile_one):
    keep = compile_one("at battle: keep red card with horn")
    assert keep.trigger == "battle"
    test = keep.actions[0].args.cards
    assert test(Card("a", "red", ("horn",))) and not test(Card("a", "red")) and not test(Card("a", "blue", ("horn",)))
    build = compile_one("build free").actions[0]
    assert (build.verb, attrs.asdict(build.args, recurse=False)) == ("build_free", {"cards": None, "zones": ()})


def test_triggers_and_limits(compile_one):
    on_take = compile_one("on take red card with horn: take top card of deck of self")
    assert on_take.trigger == "take"
    assert on_take.trigger_cards(Card("x", "red", ("horn",))) and not on_take.trigger_cards(Card("x", "red"))
    on_choose = compile_one("on choose red / black die: coins 2")
    assert (on_choose.trigger, on_choose.trigger_dice) == ("choose_die", frozenset({"red", "black"}))
    assert compile_one("build free once per ages").limit == "age"
    assert compile_one("at turn start: look at top card of central_deck").trigger == "turn_start"


# ---- costs -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "cost"), [
    ("free", {}),
    ("2 wood + ore", {"wood": 2, "ore": 1}),
    ("1 coin", {"coin": 1}),
    ("3 coins + wood + 2 wood", {"coin": 3, "wood": 3}),
    ("3 different", {"different": 3}),
    ("2 identical + 1 gold", {"identical": 2, "gold": 1}),
])
def test_cost(vocab, text, cost):
    tree = parse_cost(text)
    assert check_cost(tree, vocab) == []
    assert Compiler(vocab).cost(tree) == cost


def test_names_are_canonical_after_compiling(vocab):
    compiled: Any = Compiler(vocab).effects(parse_effects("shields 2; coins 1 per 2 coins"))
    assert [a.args.counter for e in compiled for a in e.actions] == ["shield", "coin"]

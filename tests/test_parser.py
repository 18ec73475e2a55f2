"""The parser: valid texts give the expected trees; bad texts give (code, line, column).

Both directions are driven by tables, in the spirit of lark's own grammar tests: add a row
to cover a new construct or a new diagnostic.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from wonderforge.dsl import ast, verbs
from wonderforge.dsl.diagnostics import DslError
from wonderforge.dsl.parser import parse_condition, parse_cost, parse_effects

PARSE = {"effects": parse_effects, "cost": parse_cost, "condition": parse_condition}


def N(*words: str) -> tuple[ast.Name, ...]:
    return tuple(ast.Name(w) for w in words)


def one(*actions, **kw) -> ast.Effects:
    """An `effect:` field of one sentence."""
    return ast.Effects((ast.Effect(tuple(actions), **kw),))


def count(what, *places, divisor=None, period=None) -> ast.Count:
    return ast.Count(what, tuple(places), divisor, period)


def place(name: str, owner: str | None = None) -> ast.Place:
    return ast.Place(ast.Name(name), ast.Name(owner) if owner else None)


def zone(name: str, owner: str | None = None) -> ast.Zone:
    return ast.Zone(ast.Name(name), ast.Name(owner) if owner else None)


def cards(*kinds: str, icons: tuple[str, ...] = ()) -> ast.CardFilter:
    return ast.CardFilter(N(*kinds), N(*icons))


def gain(counter: str, form: str, values, what=None) -> verbs.Gain:
    return verbs.Gain(ast.Name(counter), ast.Amount(form, tuple(values), what))


# ---- valid texts and their trees ----------------------------------------------------

VALID = [
    ("effects", "coins 1 per brown card in self, left, right",
     one(gain("coins", "per", [1], count(cards("brown"), place("self"), place("left"), place("right"))))),
    ("effects", "take 1 of top 5 cards of deck of self / central_deck",
     one(verbs.TakeTop((zone("deck", "self"), zone("central_deck")), keep=1, depth=5))),
    ("effects", "take top card of deck of right",
     one(verbs.TakeTop((zone("deck", "right"),), keep=1, depth=1))),
    ("effects", "at end: vp 4, 12, 16 by culture token in self once per player",
     one(gain("vp", "table", [4, 12, 16], count(ast.Thing("token", N("culture")), place("self"))),
         trigger=ast.Trigger("end"), limit=ast.Name("player"))),
    ("effects", "on take red / green card with horn: take cat then icon 2 horn",
     one(verbs.TakePawn(ast.Name("cat")), verbs.Icon(ast.Name("horn"), 2),
         trigger=ast.Trigger("take", filter=cards("red", "green", icons=("horn",))))),
    ("effects", "on choose red / black die: die discount 3 for yellow",
     one(verbs.Discount(3, N("yellow")), trigger=ast.Trigger("choose_die", dice=N("red", "black")))),
    ("effects", "on build: vp 3 minus defence box in barracks_east of left before this round",
     one(gain("vp", "minus", [3], count(ast.Thing("box", N("defence")), place("barracks_east", "left"),
                                        period="before_round")),
         trigger=ast.Trigger("build"))),
    ("effects", "vp 1 per 3 coins",
     one(gain("vp", "per", [1], count(ast.Thing("counter", N("coins")), divisor=3)))),
    ("effects", "vp 1 per box in building shown by purple die of left from one battle",
     one(gain("vp", "per", [1], count(ast.Thing("box"), ast.ShownBuilding(ast.Name("purple"), ast.Name("left")),
                                      period="one_battle")))),
    ("effects", "produce private 2 wood / stone if 1 yellow card",
     one(verbs.Produce(N("wood", "stone"), 2, True), condition=ast.AtLeast(count(cards("yellow"), divisor=1)))),
    ("effects", "take card from city of opponent then give top card of central_deck to chosen face down",
     one(verbs.TakeFrom(cards(), (zone("city", "opponent"),)), verbs.Give((zone("central_deck"),), ast.Name("chosen"), True))),
    ("effects", "build free once per round",  # `round` is a keyword elsewhere, a name here
     one(verbs.Build(), limit=ast.Name("round"))),
    ("effects", "at turn end: build card from discard free",
     one(verbs.Build(cards(), (zone("discard"),)), trigger=ast.Trigger("turn_end"))),
    ("effects", "check up to 2 boxes in agora / wonder",
     one(verbs.Check(2, N("agora", "wonder"), up_to=True))),
    ("effects", "extra action without die cost; play last card",
     ast.Effects((ast.Effect((verbs.Extra(True),)), ast.Effect((verbs.PlayLast(),))))),
    ("effects", "trade raw at 1 from left, right",
     one(verbs.Trade(N("raw"), 1, N("left", "right")))),
    ("condition", "players > 2 and 3 blue card or wonder complete",  # `and` binds tighter
     ast.AnyOf((ast.AllOf((ast.Players(">", 2), ast.AtLeast(count(cards("blue"), divisor=3)))),
                ast.Complete(ast.Name("wonder"))))),
    ("condition", "players > 2 and (3 blue card or wonder complete)",
     ast.AllOf((ast.Players(">", 2),
                ast.AnyOf((ast.AtLeast(count(cards("blue"), divisor=3)), ast.Complete(ast.Name("wonder"))))))),
    ("condition", "stage >= left, right",
     ast.Compare(count(ast.Thing("stage")), ">=", N("left", "right"))),
    ("condition", "red card in all < 5 and red card = 0",
     ast.AllOf((ast.Bound(count(cards("red"), place("all")), "<", 5),
                ast.Bound(count(cards("red")), "=", 0)))),
    ("cost", "2 wood + ore + 3 different",
     ast.Cost((ast.CostTerm(2, ast.Name("wood")), ast.CostTerm(1, ast.Name("ore")), ast.CostTerm(3, kind="different")))),
    ("cost", "free", ast.Cost(())),
]


@pytest.mark.parametrize(("start", "text", "tree"), VALID, ids=[t for _, t, _ in VALID])
def test_valid_text_gives_tree(start, text, tree):
    assert PARSE[start](text) == tree


def test_a_leading_count_in_a_condition_is_kept_as_written():
    # `1 yellow card` and `yellow card` mean the same to the compiler, but the tree keeps what was written.
    assert parse_condition("yellow card") == ast.AtLeast(count(cards("yellow")))


@pytest.mark.parametrize("text", [
    "vp 2\ncoins 4",
    "vp 2; coins 4",
    "vp 2 ;coins 4;",
    "\n\n  vp 2   # two points\n# a comment line\n\ncoins 4\n",
    "vp 2\r\ncoins 4\r\n",
    ";; vp 2 ;; coins 4 ;;",
])
def test_separators_and_comments(text):
    assert parse_effects(text) == ast.Effects((ast.Effect((gain("vp", "fixed", [2]),)),
                                               ast.Effect((gain("coins", "fixed", [4]),))))


def test_spans_point_into_the_text():
    text = "vp 2\non build: produce 2 stone"
    effect = parse_effects(text).items[1]
    name = effect.actions[0].resources[0]
    assert (name.span.line, name.span.column) == (2, 21)
    assert text[name.span.start:name.span.end] == "stone"
    assert text[effect.span.start:effect.span.end] == "on build: produce 2 stone"


def test_spans_take_no_part_in_equality():
    assert parse_effects("vp   2") == parse_effects("vp 2")
    assert parse_effects("vp 2").items[0].span != parse_effects("  vp 2").items[0].span


# ---- bad texts: (start, text, code, line, column) -----------------------------------

ERRORS = [
    ("effects", "coins 1 per", "E-DSL-PARSE", 1, 12),
    ("effects", "coins 1 per 3", "E-DSL-PARSE", 1, 14),
    ("effects", "vp 2\ncoins x", "E-DSL-PARSE", 2, 7),
    ("effects", "on build vp 1", "E-DSL-PARSE", 1, 10),
    ("effects", "on take: coins 1", "E-DSL-PARSE", 1, 8),
    ("effects", "on choose red: coins 1", "E-DSL-PARSE", 1, 14),
    ("effects", "build card free", "E-DSL-PARSE", 1, 12),
    ("effects", "coins 1 @ 2", "E-DSL-PARSE", 1, 9),
    ("effects", "vp 1 if (players > 2", "E-DSL-PARSE", 1, 21),
    ("effects", "vp 1 if players > 2)", "E-DSL-PARSE", 1, 20),
    ("effects", "vp 1 if players 3", "E-DSL-PARSE", 1, 17),
    ("effects", "take top card of deck of self to left", "E-DSL-PARSE", 1, 31),
    ("effects", "check up to box in agora", "E-DSL-PARSE", 1, 13),
    ("effects", "give top card of central_deck", "E-DSL-PARSE", 1, 30),
    ("effects", "extra action without cost", "E-DSL-PARSE", 1, 14),
    ("effects", "vp 2 once age", "E-DSL-PARSE", 1, 11),
    ("effects", "vp 1, 2 per card", "E-DSL-PARSE", 1, 9),
    ("effects", "science", "E-DSL-PARSE", 1, 8),
    ("effects", "on bild: vp 1", "E-DSL-TRIGGER", 1, 4),
    ("effects", "at ennd: vp 1", "E-DSL-TRIGGER", 1, 4),
    ("effects", "coins 1\nat bttle: vp 1", "E-DSL-TRIGGER", 2, 4),
    ("effects", "on bild red card: vp 1", "E-DSL-TRIGGER", 1, 4),
    ("effects", "on left bild red card: coins 1", "E-DSL-TRIGGER", 1, 9),
    ("effects", "on left: coins 1", "E-DSL-TRIGGER", 1, 8),
    ("effects", "on neighbours stage card: coins 1", "E-DSL-PARSE", 1, 21),
    ("effects", "on left take: coins 1", "E-DSL-PARSE", 1, 13),
    ("effects", "copy stage left", "E-DSL-PARSE", 1, 12),
    ("effects", "Produce wood", "E-DSL-VERB", 1, 1),
    ("effects", "on build: Coins 2", "E-DSL-VERB", 1, 11),
    ("effects", "coins 1 then Take cat", "E-DSL-VERB", 1, 14),
    ("effects", "3 coins", "E-DSL-VERB", 1, 1),
    ("effects", "on build: 2 vp", "E-DSL-VERB", 1, 11),
    ("effects", "vp 1\nproduce wood then -1 coins", "E-DSL-VERB", 2, 19),
    ("cost", "2 wood +", "E-DSL-PARSE", 1, 9),
    ("cost", "wood + 2", "E-DSL-PARSE", 1, 9),
    ("cost", "2 wood ore", "E-DSL-PARSE", 1, 8),
    ("condition", "players 3", "E-DSL-PARSE", 1, 9),
    ("condition", "3 blue card and", "E-DSL-PARSE", 1, 16),
    ("condition", "(wonder complete", "E-DSL-PARSE", 1, 17),
    ("condition", "stage >= 2 left", "E-DSL-PARSE", 1, 12),
]


@pytest.mark.parametrize(("start", "text", "code", "line", "column"), ERRORS, ids=[r[1] for r in ERRORS])
def test_bad_text_gives_code_and_position(start, text, code, line, column):
    with pytest.raises(DslError) as caught:
        PARSE[start](text)
    err = caught.value
    assert (err.code, err.span.line, err.span.column) == (code, line, column), err.message
    assert err.message


@pytest.mark.parametrize(("text", "hint"), [
    ("on bild: vp 1", "did you mean 'build'?"),
    ("at ennd: vp 1", "did you mean 'end'?"),
    ("at xyz: vp 1", "after 'at' write one of: end, battle, turn start, turn end, or a period's start or end (round start, round end)"),
    ("on bild red card: vp 1", "did you mean 'build'?"),
    ("on lef tkae card: vp 1", "after 'on' write one of: build, take, stage, choose, buy, sell, chain, discard, lose, gain, or players then what they do"),
    ("on left bild red card: coins 1", "did you mean 'build'?"),
    ("on others: coins 1", "write 'on others take <card filter>', 'on others build <card filter>' or 'on others stage'"),
    ("Produce wood", "did you mean 'produce'?"),
    ("coins 1 then Take cat", "did you mean 'take'?"),
])
def test_hints(text, hint):
    with pytest.raises(DslError) as caught:
        parse_effects(text)
    assert caught.value.hint.startswith(hint)


def test_messages_say_what_was_expected_and_found():
    with pytest.raises(DslError) as caught:
        parse_effects("on build vp 1")
    assert caught.value.message == "expected ':', found 'vp'"
    with pytest.raises(DslError) as caught:
        parse_effects("give top card of central_deck")
    assert caught.value.message == "the sentence stops too early: expected 'to'"


# ---- edge cases: empty fields, trailing line ends, and what a trigger or verb error is ----


@pytest.mark.parametrize("text", ["", "# nothing", "\n", ";"])
def test_empty_effect_field_has_no_sentences(text):
    assert parse_effects(text) == ast.Effects(())


@pytest.mark.parametrize(("start", "text"), [("cost", "2 wood\n"), ("condition", "3 blue card\n")])
def test_trailing_line_end(start, text):
    assert PARSE[start](text) == PARSE[start](text.rstrip("\n"))


@pytest.mark.parametrize("text", ["free wood", "free + wood", "free free"])
def test_text_after_free_is_a_parse_error(text):
    with pytest.raises(DslError) as caught:
        parse_cost(text)
    assert caught.value.code == "E-DSL-PARSE"


def test_at_inside_trade_is_not_a_trigger():
    with pytest.raises(DslError) as caught:
        parse_effects("trade wood at cheap from left")
    assert caught.value.code == "E-DSL-PARSE"


def test_trigger_after_semicolon():
    with pytest.raises(DslError) as caught:
        parse_effects("vp 1;on bild: vp 1")
    assert caught.value.code == "E-DSL-TRIGGER"


# An unknown first word read as a counter (`gain 3 coins`): the parser notes the word, where it
# is and its action's text, for `check` (which knows the pack's counters) to report it there.
FIRST_WORDS = [
    ("gain 3 coins", "gain", 1, 1, "gain 3 coins"),
    ("on build: add 2 vp per blue card", "add", 1, 11, "add 2 vp per blue card"),
    ("vp 1\nproduce wood then lose 2 coins; vp 1", "lose", 2, 19, "lose 2 coins"),
    ("prodce wood", "prodce", 1, 1, "prodce wood"),
]


@pytest.mark.parametrize(("text", "word", "line", "column", "action"), FIRST_WORDS, ids=[r[0] for r in FIRST_WORDS])
def test_first_word_is_noted(text, word, line, column, action):
    with pytest.raises(DslError) as caught:
        parse_effects(text)
    err = caught.value
    assert err.code == "E-DSL-PARSE"
    found, span = err.first_word
    assert (found, span.line, span.column, err.action_text) == (word, line, column, action)


@pytest.mark.parametrize("text", ["on bild: vp 1", "on take bleu card coins 1", "vp 1 if players 3"])
def test_no_first_word_for_triggers_and_conditions(text):
    with pytest.raises(DslError) as caught:
        parse_effects(text)
    assert caught.value.first_word is None or caught.value.first_word[0] not in ("on", "at")


@pytest.mark.parametrize(("text", "hint"), [
    ("3 coins", "write 'coins 3': a sentence starts with a verb ("),
    ("Take cat", "did you mean 'take'? a sentence starts with a verb ("),
])
def test_misplaced_first_word_hints(text, hint):
    with pytest.raises(DslError) as caught:
        parse_effects(text)
    assert caught.value.hint.startswith(hint)


def test_first_word_hint_lists_the_registry_verbs_and_is_bounded():
    from wonderforge.dsl.parser import first_word_hint, verb_words

    hint = first_word_hint("gain", [f"counter{i}" for i in range(200)], "coins 3")
    for word in verb_words():
        assert word in hint
    assert "(200 in all)" in hint and len(hint) < 400


def test_the_parser_tables_kept_between_runs_parse_as_built(tmp_path):
    """A second run loads the parser from the user's cache folder (a file per grammar) and reads
    texts as a freshly built one does, positions and errors included; without a writable cache
    folder, the parser is built every time."""
    script = ("from wonderforge.dsl.parser import parse_effects\n"
              "from wonderforge.dsl.diagnostics import DslError\n"
              "tree = parse_effects('on build: vp 2\\nvp 1 per red card')\n"
              "try:\n    parse_effects('vp 2 per')\nexcept DslError as err:\n    print(err.code, err.span, err.hint)\n"
              "print(repr(tree), [e.span for e in tree.items])\n")

    def run(cache) -> str:
        env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
        return subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True).stdout

    built = run(tmp_path)
    kept = list((tmp_path / "wonderforge").glob("grammar-*.lark"))
    assert len(kept) == 1 and kept[0].stat().st_size > 0
    assert run(tmp_path) == built  # from the file
    (tmp_path / "blocked").write_text("a file where the folder would be")
    assert run(tmp_path / "blocked") == built

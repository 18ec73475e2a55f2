"""The checks: every kind of error, with its did-you-mean hint where one applies.

One table of (code, field, text, hint) drives the tests; a hint of None means "no hint
asserted" (the hint for those is a list of choices, checked separately).
"""

from __future__ import annotations

import pytest

from wonderforge.dsl.checks import check_condition, check_cost, check_effects
from wonderforge.dsl.parser import parse_condition, parse_cost, parse_effects

FIELDS = {
    "effects": (parse_effects, check_effects),
    "cost": (parse_cost, check_cost),
    "condition": (parse_condition, check_condition),
}


def errors_of(field: str, text: str, vocab):
    parse, check = FIELDS[field]
    return check(parse(text), vocab)


HIT_TO = "write one of: left, right, neighbours, others, all, chosen"
COUNT_IN = "count in one of: self, left, right, neighbours, all, others; or 'chosen' after an action"

# (code, field, text, hint)
ERRORS = [
    # an unknown word where a counter (a gain) belongs: a misspelt verb or counter
    ("E-DSL-VERB", "effects", "vpp 3", "did you mean 'vp'?"),
    ("E-DSL-VERB", "effects", "prodce 2", "did you mean 'produce'?"),
    ("E-DSL-VERB", "effects", "on build: coins 1 then shiled 2", "did you mean 'shield'?"),
    ("E-DSL-VERB", "effects", "gain 3", "a sentence starts with a verb (build, buy, check,"),
    # resources and resource classes
    ("E-DSL-RESOURCE", "effects", "produce stonee", "did you mean 'stone'?"),
    ("E-DSL-RESOURCE", "effects", "produce wood / claye", "did you mean 'clay'?"),
    ("E-DSL-RESOURCE", "effects", "trade rawe at 1 from left", "did you mean 'raw'?"),
    ("E-DSL-PARSE", "cost", "2 stonee + ore", "did you mean 'stone'?"),
    # colours and card ids in card filters
    ("E-DSL-COLOUR", "effects", "vp 1 per bleu card", "did you mean 'blue'?"),
    ("E-DSL-COLOUR", "effects", "on take bleu card: coins 1", "did you mean 'blue'?"),
    ("E-DSL-COLOUR", "effects", "keep lighthous card", "did you mean 'lighthouse'?"),
    ("E-DSL-COLOUR", "condition", "3 gren card", "did you mean 'green'?"),
    # zones and buildings
    ("E-DSL-ZONE", "effects", "take card from dek of left", "did you mean 'deck'?"),
    ("E-DSL-ZONE", "effects", "take card from dek", "did you mean 'deck'?"),
    ("E-DSL-ZONE", "effects", "take top card of central_dek", "did you mean 'central_deck'?"),
    ("E-DSL-ZONE", "effects", "take card from deck", "write 'deck of self' (or left, right, ...)"),
    ("E-DSL-ZONE", "effects", "vp 1 per card in agorra of left", "did you mean 'agora'?"),
    ("E-DSL-ZONE", "effects", "check 1 box in agorra", "did you mean 'agora'?"),
    ("E-DSL-ZONE", "condition", "agorra complete", "did you mean 'agora'?"),
    # player selectors
    ("E-DSL-SELECTOR", "effects", "trade wood at 1 from lefft", "did you mean 'left'?"),
    ("E-DSL-SELECTOR", "effects", "give top card of central_deck to lef", "did you mean 'left'?"),
    ("E-DSL-SELECTOR", "effects", "vp 1 per card in city of lefft", "did you mean 'left'?"),
    ("E-DSL-SELECTOR", "condition", "stage >= rigth", "did you mean 'right'?"),
    ("E-DSL-SELECTOR", "effects", "copy card from self", "write one of: left, right, neighbours"),
    ("E-DSL-SELECTOR", "effects", "trade raw at 1 from all", "write one of: left, right, neighbours"),
    ("E-DSL-SELECTOR", "effects", "copy stage from self", "write one of: left, right, neighbours"),
    ("E-DSL-SELECTOR", "effects", "copy stage from lef", "did you mean 'left'?"),
    # a count adds up known players' pieces: it cannot choose one
    ("E-DSL-SELECTOR", "effects", "vp 1 per card in any", COUNT_IN),
    ("E-DSL-SELECTOR", "effects", "vp 1 per card in city of opponent", COUNT_IN),
    ("E-DSL-SELECTOR", "effects", "discount 1 coin per yellow card in any for brown card", COUNT_IN),
    ("E-DSL-SELECTOR", "effects", "on left take card: coins 1 per yellow card in any", COUNT_IN),
    ("E-DSL-SELECTOR", "condition", "stage >= opponent", COUNT_IN),
    ("E-DSL-SELECTOR", "cost", "3 coins minus brown card in any", COUNT_IN),
    ("E-DSL-SELECTOR", "cost", "5 coins minus yellow card in chosen", "count in one of: self, left, right, neighbours, all, others"),
    ("E-DSL-SELECTOR", "effects", "discount 1 coin per yellow card in chosen",
     "choose one first, as 'take card from city of opponent then give top card of discard to chosen', or name the "
     "player (left, right, others...)"),
    # the players a gain goes to: fixed relative to the owner, or the chosen one, not the owner alone
    ("E-DSL-SELECTOR", "effects", "coins 1 to lefft", "did you mean 'left'?"),
    ("E-DSL-SELECTOR", "effects", "coins -1 per red card to nieghbours", "did you mean 'neighbours'?"),
    ("E-DSL-SELECTOR", "effects", "coins 1 to self", "leave 'to self' out"),
    ("E-DSL-SELECTOR", "effects", "coins -2 to opponent", HIT_TO + "; or choose one first, as 'take card from city "
     "of opponent then coins -1 to chosen'"),
    ("E-DSL-SELECTOR", "effects", "vp -1 to chosen",
     "choose one first, as 'take card from city of opponent then give top card of discard to chosen', or name the "
     "player (left, right, others...)"),
    ("E-DSL-TYPE", "effects", "coins 1 to blue", HIT_TO),
    ("E-DSL-VERB", "effects", "coins 1 per red card to left; shiled 1 to all", "did you mean 'shield'?"),
    # the players a trigger watches: fixed relative to the owner, and not the owner alone
    ("E-DSL-SELECTOR", "effects", "on lefft take red card: coins 1", "did you mean 'left'?"),
    ("E-DSL-SELECTOR", "effects", "on nieghbours stage: vp 1", "did you mean 'neighbours'?"),
    ("E-DSL-SELECTOR", "effects", "on opponent take card: coins 1", "write one of: left, right, neighbours, others, all"),
    ("E-DSL-SELECTOR", "effects", "on any stage: vp 1", "write one of: left, right, neighbours, others, all"),
    ("E-DSL-SELECTOR", "effects", "on chosen build card: coins 1", "write one of: left, right, neighbours, others, all"),
    ("E-DSL-SELECTOR", "effects", "on self stage: vp 1", "leave 'self' out: 'on take red card:', 'on stage:'"),
    ("E-DSL-SELECTOR", "effects", "on zorro stage: vp 1", "write one of: left, right, neighbours, others, all"),
    ("E-DSL-TYPE", "effects", "on wood stage: vp 1", "write one of: left, right, neighbours, others, all"),
    ("E-DSL-COLOUR", "effects", "on left build bleu card: coins 1", "did you mean 'blue'?"),
    ("E-DSL-NAME", "effects", "on others take card with hron: coins 1", "did you mean 'horn'?"),
    # science symbols
    ("E-DSL-SYMBOL", "effects", "science compus", "did you mean 'compass'?"),
    ("E-DSL-SYMBOL", "effects", "science gear / tablte", "did you mean 'tablet'?"),
    # other kinds of names
    ("E-DSL-NAME", "effects", "take progrss token", "did you mean 'progress'?"),
    ("E-DSL-NAME", "effects", "flip 2 conflikt tokens", "did you mean 'conflict'?"),
    ("E-DSL-NAME", "effects", "take catt", "did you mean 'cat'?"),
    ("E-DSL-NAME", "effects", "icon hron", "did you mean 'horn'?"),
    ("E-DSL-NAME", "effects", "keep card with hron", "did you mean 'horn'?"),
    ("E-DSL-NAME", "effects", "unlock blakc die", "did you mean 'black'?"),
    ("E-DSL-NAME", "effects", "on choose rde die: coins 1", "did you mean 'red'?"),
    ("E-DSL-NAME", "effects", "build free once per aeg", "did you mean 'age'?"),
    ("E-DSL-NAME", "effects", "vp 1 per defense box", "did you mean 'defence'?"),
    ("E-DSL-NAME", "effects", "ignore diferent", "did you mean 'different'?"),
    ("E-DSL-NAME", "effects", "vp 1 per horn2 icon", "did you mean 'horn'?"),
    ("E-DSL-VERB", "effects", "coins 1 per zebra", "count cards ('yellow card'), stages, tokens, boxes, icons or one of:"),
    ("E-DSL-VERB", "cost", "3 coins minus zebra", "count cards ('yellow card'), stages, tokens, boxes, icons or one of:"),
    # known names of the wrong kind
    ("E-DSL-TYPE", "effects", "produce blue", None),
    ("E-DSL-TYPE", "effects", "science blue", None),
    ("E-DSL-TYPE", "effects", "take wood", None),
    ("E-DSL-TYPE", "effects", "coins 1 per wood card", None),
    ("E-DSL-TYPE", "effects", "trade brown at 1 from left", None),
    ("E-DSL-TYPE", "effects", "take top card of central_deck of left", None),
    ("E-DSL-TYPE", "effects", "vp 1 per card in central_deck", None),
    ("E-DSL-TYPE", "effects", "vp 1 per red stage", None),
    ("E-DSL-TYPE", "effects", "ignore stone", None),
    ("E-DSL-TYPE", "cost", "2 blue", None),
    ("E-DSL-TYPE", "condition", "wood complete", None),
    ("E-DSL-TYPE", "effects", "vp 1 per card from this battle", "count tokens (`victory token from this battle`), or leave it out"),
    ("E-DSL-TYPE", "effects", "at battle: coins 2 per victory token from one battle", "write 'from this battle' for the battle just fought"),
    # a count of a moment that never comes where the sentence runs
    ("E-DSL-EVENT", "effects", "at end: vp 1 per victory token from this battle", "write it after `at battle:`, or count `from one battle` (the most won in one)"),
    # numbers no game can use
    ("E-DSL-VALUE", "effects", "take 6 of top 5 cards of deck of self", "keep at most 5"),
    ("E-DSL-VALUE", "effects", "take 0 of top 5 cards of deck of self", None),
    ("E-DSL-VALUE", "effects", "produce 0 wood", None),
    ("E-DSL-VALUE", "effects", "trade wood at -1 from left", None),
    ("E-DSL-VALUE", "effects", "icon 0 horn", None),
    ("E-DSL-VALUE", "effects", "flip 0 conflict token", None),
    ("E-DSL-VALUE", "effects", "check 0 box in agora", None),
    ("E-DSL-VALUE", "effects", "die discount 0", None),
    ("E-DSL-VALUE", "effects", "vp 1 per 0 card", None),
    ("E-DSL-VALUE", "condition", "0 blue card", None),
    ("E-DSL-VALUE", "condition", "players > 0", None),
    ("E-DSL-VALUE", "cost", "0 wood", None),
]


@pytest.mark.parametrize(("code", "field", "text", "hint"), ERRORS, ids=[f"{r[0]}:{r[2]}" for r in ERRORS])
def test_error(code, field, text, hint, vocab):
    errors = errors_of(field, text, vocab)
    assert [e.code for e in errors] == [code], [(e.code, e.message) for e in errors]
    if hint is not None:
        assert errors[0].hint == hint or errors[0].hint.startswith(hint + " "), errors[0].hint
    assert errors[0].message
    assert errors[0].span is not None


def test_every_check_code_is_covered():
    codes = {"E-DSL-VERB", "E-DSL-RESOURCE", "E-DSL-COLOUR", "E-DSL-ZONE", "E-DSL-SELECTOR",
             "E-DSL-SYMBOL", "E-DSL-NAME", "E-DSL-TYPE", "E-DSL-VALUE", "E-DSL-PARSE", "E-DSL-EVENT"}  # PARSE: an unknown word in a cost
    assert {row[0] for row in ERRORS} == codes


@pytest.mark.parametrize(("field", "text", "word", "column"), [
    ("effects", "produce stonee", "stonee", 9),
    ("effects", "vp 2\non build: produce 2 wood / claye", "claye", 28),
    ("cost", "2 wood + stonee", "stonee", 10),
    ("condition", "players > 2 and 3 bleu card", "bleu", 19),
])
def test_name_errors_point_at_the_name(field, text, word, column, vocab):
    (err,) = errors_of(field, text, vocab)
    assert text[err.span.start:err.span.end] == word
    assert err.span.column == column


def test_type_error_says_what_the_name_is_and_what_belongs(vocab):
    (err,) = errors_of("effects", "produce blue", vocab)
    assert err.message == "'blue' is a colour, not a resource"
    assert err.hint.startswith("expected a resource: ")
    assert "stone" in err.hint and "any" in err.hint and "blue" not in err.hint


def test_unknown_name_without_a_close_match_lists_the_choices(vocab):
    (err,) = errors_of("effects", "take zebra", vocab)
    assert err.code == "E-DSL-NAME"
    assert err.hint == "known: cat"


def test_value_error_message(vocab):
    (err,) = errors_of("effects", "take 6 of top 5 cards of deck of self", vocab)
    assert err.message == "cannot keep 6 of the top 5 cards"


def test_all_errors_of_a_field_at_once(vocab):
    errors = errors_of("effects", "produce stonee\nvp 1 per bleu card in lefft\ntake 6 of top 5 cards of dek of self", vocab)
    assert [e.code for e in errors] == ["E-DSL-RESOURCE", "E-DSL-COLOUR", "E-DSL-SELECTOR", "E-DSL-VALUE", "E-DSL-ZONE"]
    assert [e.span.line for e in errors] == [1, 2, 2, 3, 3]


SOUND = [
    ("effects", "coins 1 per brown card in self, left, right"),
    ("effects", "produce private wood / stone / ore / clay"),
    ("effects", "produce any; science any"),
    ("effects", "trade raw at 1 from left, right; trade glass at 1 from neighbours"),
    ("effects", "take cat then take top card of deck of self / deck of right / central_deck"),
    ("effects", "take card from city of opponent then give top card of central_deck to chosen face down"),
    ("effects", "on take red card with horn: take top card of deck of self"),
    ("effects", "on take lighthouse card: coins 1"),
    ("effects", "at end: vp 1 per cat icon in self"),
    ("effects", "at end: vp 4, 12, 16 by culture token in self once per player"),
    ("effects", "on build: vp 3 minus defence box in barracks_east of left before this round"),
    ("effects", "vp 5 if players > 2 and box in building shown by purple die before this round >= left, right"),
    ("effects", "vp 1 per 3 coins"),
    ("effects", "vp 1 per cat"),
    ("effects", "check up to 2 boxes in agora / wonder; unlock black die; die discount 3 for yellow"),
    ("effects", "ignore different / identical; extra action without die cost; play last card"),
    ("effects", "build free once per age; build free once per round"),
    ("effects", "at turn end: build card from discard_pile free"),
    ("effects", "at end: vp 2 if wonder complete"),
    ("effects", ""),  # see test_parser: an empty field should also check clean
    ("cost", "2 wood + ore + 1 coin + 3 coins"),
    ("cost", "3 different + 2 identical + 2 any + gold"),
    ("cost", "free"),
    ("cost", "5 coins minus yellow card in left, right + wood minus card in city of others"),
    ("effects", "on left take card: coins 1 per card in chosen"),
    ("condition", "2 stage and 1 cat or stage >= left, right"),
    ("condition", "agora complete"),
]


@pytest.mark.parametrize(("field", "text"), [s for s in SOUND if s[1]], ids=[s[1] for s in SOUND if s[1]])
def test_sound_text_has_no_errors(field, text, vocab):
    assert errors_of(field, text, vocab) == []


def test_plurals_resolve_to_the_declared_singular(vocab):
    # the pack declares `coin`, `shield`, `defence`, `culture`: written plural, they still resolve
    assert errors_of("effects", "coins 3; shields 1; vp 1 per 2 coins; vp 1 per culture tokens", vocab) == []
    assert errors_of("cost", "3 coins", vocab) == []


def test_empty_effect_field_checks_clean(vocab):
    assert errors_of("effects", "", vocab) == []


# An unknown first word that the parser read as a counter: `check` reports it at the word, with
# the sentence as the language writes it when the rest is an amount and a counter.
FIRST_WORDS = [
    ("gain 3 coins", 1, "write 'coins 3': "),
    ("get 1 shields", 1, "write 'shields 1': "),
    ("lose 2 coins", 1, "write 'coins -2': "),
    ("score 2 vp per blue card", 1, "write 'vp 2 per blue card': "),
    ("on build: gain 3 coins", 11, "write 'coins 3': "),
    ("produce wood then gain 3 coins", 19, "write 'coins 3': "),
    ("prodce wood", 1, "did you mean 'produce'? "),
    # the players first: the gain as the language writes it, to them
    ("others coins -1", 1, "write 'coins -1 to others': "),
    ("on build: neighbours coins -1 per red card", 11, "write 'coins -1 per red card to neighbours': "),
    ("gain 3 wood", 1, "a sentence starts with a verb"),
    # what does not read as an amount gets no rewriting, and no crash
    ("gain --3 coins", 1, "a sentence starts with a verb"),
    ("gain \u00b2 coins", 1, "a sentence starts with a verb"),
    ("gain " + "9" * 5000 + " coins", 1, "a sentence starts with a verb"),
]


@pytest.mark.parametrize(("text", "column", "hint"), FIRST_WORDS, ids=[r[0][:40] for r in FIRST_WORDS])
def test_unknown_first_word(text, column, hint, vocab):
    from wonderforge.dsl.checks import unknown_first_word
    from wonderforge.dsl.diagnostics import DslError

    with pytest.raises(DslError) as caught:
        parse_effects(text)
    err = unknown_first_word(caught.value, vocab)
    assert (err.code, err.span.line, err.span.column) == ("E-DSL-VERB", 1, column)
    assert err.hint.startswith(hint), err.hint
    assert "produce" in err.hint and "trade" in err.hint


def test_a_counter_first_keeps_the_parse_error(vocab):
    from wonderforge.dsl.checks import unknown_first_word
    from wonderforge.dsl.diagnostics import DslError

    with pytest.raises(DslError) as caught:
        parse_effects("coins 3 coins")
    assert unknown_first_word(caught.value, vocab) is None

"""Costs that depend on counts (issue 16): a cost term `N <name> minus <count>` and the lasting
`discount N <name> [per <count>] [for <card filter> | for stage]`, read for the paying player.

The language (parse, print, errors at their positions), `check` against each flow, then each flow
showing the adjusted cost in the legal actions and the payment made, never below zero, and the
example mod tests/mods/thrift played.
"""

from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest
import yaml

import architects_helpers as arch
import dice_helpers as dice
import helpers
import sevenwonders_helpers as sw
from wonderforge.dsl.checks import check_cost, check_effects
from wonderforge.dsl.compiler import Compiler
from wonderforge.dsl.diagnostics import DslError
from wonderforge.dsl.parser import parse_cost, parse_effects
from wonderforge.dsl.printer import print_cost, print_effects
from wonderforge.interpreter import Action, load_game
from wonderforge.interpreter.packs.catalogue import Piece
from wonderforge.interpreter.games.check import check_pack
from wonderforge.interpreter.flows.draft import Draft
from wonderforge.tools.authoring.cards import render
from wonderforge.tools.cli.draft_screen import View
from wonderforge.tools.authoring.entries import catalogue

THRIFT = Path(__file__).resolve().parent / "mods" / "thrift"


def holding(state, seat: int, text: str) -> Piece:
    """The seat holds a piece saying `text` (compiled with the game's words), as if built earlier."""
    effects = Compiler(state.game.pack.vocabulary).effects(parse_effects(text))
    piece = Piece(f"holding {text}", "Holding", "", effects=effects)
    state.enter(seat, piece)
    state.legal = {}
    return piece


# ---- the language ----------------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "5 coins minus yellow card",
    "2 wood + 4 coins minus blue card in left, right",
    "3 different minus progress token",
    "2 identical minus 2 card with horn",
    "1 coin plus red card",
    "1 wood plus 2 card in left, right",
])
def test_a_cost_term_minus_a_count_parses_checks_and_prints_back(vocab, text):
    tree = parse_cost(text)
    assert check_cost(tree, vocab) == []
    assert print_cost(tree) == text and parse_cost(print_cost(tree)) == tree


@pytest.mark.parametrize("text", [
    "discount 1 coin per green card",
    "discount 1 wood for blue card",
    "discount 1 any for stage",
    "discount 2 coins per 2 yellow card in self, left for lighthouse / purple card",
    "on build: discount 1 coin then coins 2",
])
def test_a_discount_parses_checks_and_prints_back(vocab, text):
    tree = parse_effects(text)
    assert check_effects(tree, vocab) == []
    assert print_effects(tree) == text and parse_effects(text) == tree


def test_the_dice_discount_stays_its_own_verb(vocab):
    (die,), (cost,) = (parse_effects(t).items[0].actions for t in ("die discount 1 for red", "discount 1 coin"))
    assert (die.name, cost.name) == ("discount", "cost_discount")


# (field, text, code, column, start of the hint): each error at the word it is about.
ERRORS = [
    ("cost", "5 coins minus yelow card", "E-DSL-COLOUR", 15, "did you mean 'yellow'?"),
    ("cost", "5 coins minus yellow card in lefft", "E-DSL-SELECTOR", 30, "did you mean 'left'?"),
    ("cost", "0 coins minus yellow card", "E-DSL-VALUE", 1, None),
    ("cost", "5 coins minus yellow card + 1 coin", "E-DSL-VALUE", 29, "write one term for 'coin'"),
    ("cost", "2 different + 3 different minus card", "E-DSL-VALUE", 15, "write one term for 'different'"),
    ("cost", "5 coins minus", "E-DSL-PARSE", 14, None),  # just past its end
    ("cost", "5 coins minus red stage", "E-DSL-TYPE", 15, None),
    ("effect", "discount 1 wod", "E-DSL-RESOURCE", 12, "did you mean 'wood'?"),
    ("effect", "discount 1 blue", "E-DSL-TYPE", 12, "expected a resource or counter"),
    ("effect", "discount 0 coin", "E-DSL-VALUE", 1, None),
    ("effect", "discount -1 any", "E-DSL-VALUE", 13, "name what the costs ask more of"),
    ("effect", "discount 1 coin for bleu card", "E-DSL-COLOUR", 21, "did you mean 'blue'?"),
    ("effect", "discount 1 coin per gren card", "E-DSL-COLOUR", 21, "did you mean 'green'?"),
    ("effect", "discount 1 coin for red stage", "E-DSL-PARSE", 25, None),
    ("effect", "discount coin", "E-DSL-PARSE", 10, None),
    # words in the wrong order, and unknown words in a cost's count, are said as such
    ("effect", "discount 1 any for stage per blue card", "E-DSL-PARSE", 26,
     "'per <count>' comes before 'for': write 'discount 1 any per blue card for stage'"),
    ("effect", "discount 1 coin for card per blue card if 2 card", "E-DSL-PARSE", 26,
     "'per <count>' comes before 'for': 'discount N <name> per <count> for <pieces>'"),
    ("cost", "3 coins minus zebra", "E-DSL-VERB", 15, "count cards ('yellow card'), stages, tokens, boxes, icons"),
    ("cost", "3 coins minus coinz", "E-DSL-VERB", 15, "did you mean 'coin'?"),
]


@pytest.mark.parametrize(("field", "text", "said"), [
    ("cost", "3 coins minus zebra", "unknown counter 'zebra' in the count of a cost term"),
    ("effect", "discount 1 coin per zebra", "unknown counter 'zebra' in a count"),
])
def test_an_unknown_counter_in_a_count_is_said_as_a_count(vocab, field, text, said):
    parse, check = (parse_cost, check_cost) if field == "cost" else (parse_effects, check_effects)
    (err,) = check(parse(text), vocab)
    assert err.message.startswith(said), err.message
    assert "sentence starts with" not in err.hint


@pytest.mark.parametrize(("field", "text", "code", "column", "hint"), ERRORS, ids=[e[1] for e in ERRORS])
def test_errors_point_at_their_word_with_a_hint(vocab, field, text, code, column, hint):
    parse, check = (parse_cost, check_cost) if field == "cost" else (parse_effects, check_effects)
    try:
        errors = check(parse(text), vocab)
    except DslError as err:
        errors = [err]
    assert errors and errors[0].code == code, [(e.code, e.message) for e in errors]
    assert errors[0].span.column == column
    if hint is not None:
        assert errors[0].hint.startswith(hint), errors[0].hint


# ---- check, against each flow: refused at its position, or warned ------------------------------


def mod(folder: Path, base: str, kind: str, items: list) -> Path:
    """A pack extending `base` whose `kind` file holds `items` (replacing those ids)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pack.yaml").write_text("# yaml-language-server: $schema=../../schemas/pack.schema.json\n"
                                      f"id: {folder.name}\nname: A mod\nversion: 1.0.0\nextends: {base}\n",
                                      encoding="utf-8")
    (folder / f"{kind}.yaml").write_text(f"# yaml-language-server: $schema=../../schemas/{kind}.schema.json\n"
                                         + yaml.safe_dump(items, sort_keys=False, width=200), encoding="utf-8")
    return folder


def with_field(base: str, kind: str, cid: str, **fields) -> list:
    """A component of a shipped pack with some fields replaced."""
    return [dict(helpers.pack_of(base).components[kind][cid].data, **fields)]


# (base, component, field, text, code, the text the diagnostic points at, start of the hint)
FLOW_CASES = [
    ("architects", "wood", "effect", "produce wood\ndiscount 1 shield", "E-DSL-FLOW", "discount 1 shield",
     "its costs name kinds and resources"),
    ("dice", None, "effect", "discount 2 coins for stage", "E-DSL-FLOW", "discount 2 coins for stage",
     "its costs name kinds and resources"),
    ("architects", "wood", "effect", "produce wood\ndiscount 1 wood for stage", "W-DSL-NEVER",
     "discount 1 wood for stage", "those costs ask for: different, identical; 'discount N any' lowers"),
    ("architects", "wood", "effect", "produce wood\ndiscount 1 any for blue card", "W-DSL-NEVER",
     "discount 1 any for blue card", "write 'for stage'"),
    ("7-wonders", "tavern", "effect", "discount 1 shield", "W-DSL-NEVER", "discount 1 shield", "those costs ask for: "),
    ("7-wonders", "tavern", "effect", "discount 1 coin for stage", "W-DSL-NEVER", "discount 1 coin for stage",
     "those costs ask for: clay, glass, ore"),
    ("dice", None, "effect", "discount 1 any for card", None, None, None),
    ("dice", None, "effect", "discount 1 resource for stage", None, None, None),
    ("7-wonders", "clay_pit", "cost", "2 coins minus box", "E-DSL-FLOW", "box", "count cards"),
    ("7-wonders", "clay_pit", "cost", "2 coins minus violet card", "E-DSL-COLOUR", "violet", None),
    ("dice", None, "cost", "2 coins minus box", "E-DSL-COST", "2 coins minus box",
     "a cost of the rolls flow names kinds and resources"),
    # a flow that never pays a card's cost (Architects: cards are taken) refuses one, varying or not
    ("architects", "blue_vp3", "cost", "2 wood minus blue card", "E-DSL-COST", "2 wood minus blue card",
     "the turns flow pays for wonder stages only"),
    ("architects", "blue_vp3", "cost", "wood", "E-DSL-COST", "wood", "the turns flow pays for wonder stages only"),
]


@pytest.mark.parametrize(("base", "cid", "field", "text", "code", "at", "hint"), FLOW_CASES,
                         ids=[f"{c[0]}: {c[3]}" for c in FLOW_CASES])
def test_check_holds_costs_and_discounts_to_the_flow(tmp_path, base, cid, field, text, code, at, hint):
    if base == "dice":  # a Dice box holds the sentence: the first box of the Agora
        agora = copy.deepcopy(helpers.pack_of("dice").components["buildings"]["agora"].data)
        agora["tracks"][0]["boxes"][0][field] = text
        folder = mod(tmp_path / "m", base, "buildings", [agora])
    else:
        folder = mod(tmp_path / "m", base, "cards", with_field(base, "cards", cid, **{field: text}))
    _, diagnostics = check_pack(folder)
    assert [d.code for d in diagnostics] == ([code] if code else []), [d.render() for d in diagnostics]
    if code is None:
        return
    found = diagnostics[0]
    lines = (folder / Path(found.file).name).read_text(encoding="utf-8").splitlines()
    assert lines[found.line - 1][found.column - 1:].startswith(at), found.render()
    if hint is not None:
        assert found.hint.startswith(hint), found.hint


def test_a_flow_lists_the_verbs_it_runs_as_sentences_write_them(tmp_path):
    folder = mod(tmp_path / "m", "architects", "cards", with_field("architects", "cards", "wood", effect="die discount 1"))
    (found,) = check_pack(folder)[1]
    assert found.code == "E-DSL-FLOW", found.render()
    runs = found.hint.split(" runs: ", 1)[1].split(", ")
    assert {"discount", "copy stage", "<counter> N", "take"} <= set(runs), runs
    assert not {"cost discount", "copy stage from", "take top", "gain"} & set(runs), runs


def test_the_example_mod_checks_clean():
    _, diagnostics = check_pack(THRIFT)
    assert diagnostics == [], [d.render() for d in diagnostics]


def test_wonderforge_cards_says_the_costs_and_discounts():
    text = render(catalogue(helpers.pack_of(str(THRIFT)), 4))
    assert "cost: 3 coins minus brown card" in text
    assert "discount 1 coin for brown card" in text and "discount 1 any for stage" in text


# ---- the draft (7 Wonders): the legal actions and the payment ---------------------------------


def draft_table(*hand: str, coins: int = 3, pack: str = str(THRIFT)):
    """Seat 0 Olympia A (wood), its left Giza A (stone), its right Babylon A (clay); seat 0 holds `hand`.
    The example mod, whose discounts tell the game that prices may differ from printed costs."""
    wonders = ("olympia:a", "giza:a", "babylon:a")
    state = helpers.table(pack, wonders, lambda s, seat, spec: sw.set_side(s, seat, *spec.split(":")))
    sw.set_hand(state, 0, *hand, "altar")
    sw.set_coins(state, 0, coins)
    return state


@pytest.mark.parametrize(("sentence", "coins", "paid"), [
    (None, 3, 1),
    ("discount 1 coin for brown card", 3, 0),
    ("discount 3 coins for brown card", 3, 0),      # never below 0: no coin comes back
    ("discount 1 coin for blue card", 3, 1),        # not for this card
    ("discount 1 coin for stage", 3, 1),
    ("discount 1 coin", 0, 0),                      # a seat without coins may build it now
    (None, 0, None),                                # not offered
    # a negative discount is a surcharge, a discount may cancel it
    ("discount -1 coin for brown card", 3, 2),
    ("discount -2 coins", 3, 3),
    ("discount -1 coin for blue card", 3, 1),       # not for this card
    ("discount -1 coin for brown card\ndiscount 1 coin for brown card", 3, 1),
    ("discount -3 coins", 3, None),                 # 4 coins: not offered to a seat holding 3
])
def test_draft_a_coin_discount_lowers_what_a_card_costs(sentence, coins, paid):
    state = draft_table("clay_pit", coins=coins)
    if sentence:
        holding(state, 0, sentence)
    assert sw.can(state, 0, "build", "clay_pit") == (paid is not None)
    if paid is not None:
        sw.play_turn(state, {0: Action("build", "clay_pit")})
        assert sw.coins(state, 0) == coins - paid and "clay_pit" in sw.city(state, 0)


@pytest.mark.parametrize(("sentence", "card", "ways"), [
    (None, "baths", {(2, 0)}),                                # stone bought from Giza, on the left
    ("discount 1 stone for blue card", "baths", {(0, 0)}),
    ("discount 1 stone for green card", "baths", {(2, 0)}),
    ("discount 1 wood for blue card", "baths", {(2, 0)}),       # the cost asks for no wood
    (None, "temple", set()),                                   # wood + clay + glass: nobody makes glass
    ("discount 1 any for blue card", "temple", {(0, 2)}),      # glass left out, clay bought on the right
    ("discount 2 any for blue card", "temple", {(0, 0)}),
    ("discount 1 any per blue card for temple card", "temple", set()),  # no blue card yet
    ("discount -1 stone for blue card", "baths", set()),     # 2 stone: Giza sells its one only
    ("discount -1 wood for blue card", "baths", {(2, 0)}),   # stone and wood: Olympia makes the wood
])
def test_draft_a_resource_discount_changes_the_payments_offered(sentence, card, ways):
    state = draft_table(card)
    if sentence:
        holding(state, 0, sentence)
    assert sw.payments(state, 0, "build", card) == ways
    if (0, 0) in ways:
        sw.play_turn(state, {0: Action("build", card)})
        assert sw.coins(state, 0) == 3 and card in sw.city(state, 0)


def test_draft_a_stage_discount():
    state = draft_table("tavern")  # Olympia A's first stage costs 2 wood; the city makes 1
    stage = state.players[0].side.stages[0]
    assert stage.cost.resources == ("wood", "wood") and not sw.can(state, 0, "stage", "tavern")
    holding(state, 0, "discount 1 any for card")
    assert not sw.can(state, 0, "stage", "tavern")
    holding(state, 0, "discount 1 any for stage")
    assert sw.payments(state, 0, "stage", "tavern") == {(0, 0)}
    sw.play_turn(state, {0: Action("stage", "tavern")})
    assert state.players[0].stages == 1 and sw.coins(state, 0) == 3


@pytest.mark.parametrize(("browns", "paid"), [(0, 3), (1, 2), (3, 0), (5, 0)])
def test_draft_a_cost_minus_a_count_is_read_for_the_payer(browns, paid):
    state = draft_table("vineyard")  # 3 coins minus brown card
    sw.build(state, 0, *["lumber_yard", "stone_pit", "ore_vein", "clay_pool", "timber_yard"][:browns])
    sw.build(state, 1, "lumber_yard", "stone_pit")  # the neighbours' cards do not count
    assert state.price(0, sw.card(state, "vineyard")).counters == ((("coins", paid),) if paid else ())
    sw.set_coins(state, 0, paid)
    assert sw.payments(state, 0, "build", "vineyard") == {(0, 0)}
    sw.play_turn(state, {0: Action("build", "vineyard")})
    assert "vineyard" in sw.city(state, 0)
    assert sw.coins(state, 0) == browns + 2  # then the Vineyard's coin per brown card of the seat and its neighbours


def test_draft_a_discount_per_count_is_read_when_paying():
    state = draft_table("vineyard")
    holding(state, 0, "discount 1 coin per blue card for yellow card")
    card = sw.card(state, "vineyard")
    assert state.price(0, card).counters == (("coins", 3),)
    sw.build(state, 0, "baths", "altar")
    assert state.price(0, card).counters == (("coins", 1),)
    sw.play_turn(state, {0: Action("build", "vineyard")})
    assert sw.coins(state, 0) == 2


def test_draft_every_player_pays_the_price_they_saw_when_choosing():
    # Seat 1 pays a coin less per brown card of seat 0 (its right): seat 0's brown card, placed the
    # same turn, comes too late for seat 1's price.
    state = draft_table("lumber_yard")
    sw.set_hand(state, 1, "clay_pit", "altar")
    sw.set_coins(state, 1, 3)
    holding(state, 1, "discount 1 coin per brown card in right")
    sw.play_turn(state, {0: Action("build", "lumber_yard"), 1: Action("build", "clay_pit")})
    assert sw.coins(state, 1) == 2
    assert state.price(1, sw.card(state, "clay_pit")).counters == ()


@pytest.mark.parametrize(("cost", "coins", "paid"), [
    ("6 coins minus coins in left", 3, 3),   # the left neighbour pays for its own card first, in seat order
    ("9 coins minus card in hand", 2, 2),    # the card chosen leaves the hand before it is paid for
    ("1 coin plus card in hand", 8, 8),      # a cost that rises: 1 coin more per card held, as seen
    ("coin plus 2 coins", 5, 3),             # 1 more per 2 coins held
])
def test_draft_a_cost_read_when_paying_is_the_one_seen_when_choosing(tmp_path, cost, coins, paid):
    envy = {"id": "envy", "name": "Envy", "colour": "yellow", "copies": {1: [3]}, "cost": cost, "effect": "vp 1"}
    state = draft_table("clay_pit", pack=str(mod(tmp_path / "envy", "7-wonders", "cards", [envy])))
    sw.set_hand(state, 2, "envy", *["altar"] * 6)  # seat 2, whose left is seat 0
    sw.set_coins(state, 2, coins)
    seen = state.price(2, sw.card(state, "envy")).counters
    assert seen == (("coins", paid),) and any(a.card == "envy" for a in state.legal_actions(2))
    sw.play_turn(state, {0: Action("build", "clay_pit"), 2: Action("build", "envy")})
    assert sw.coins(state, 2) == coins - paid and "envy" in sw.city(state, 2)


def test_the_terminal_shows_what_the_seat_pays():
    state = draft_table("vineyard", "temple")
    sw.build(state, 0, "lumber_yard")
    holding(state, 0, "discount 1 any for blue card")
    view = View(state.game, ["ann", "bob", "cy"])
    cards = state.game.catalogue.cards
    assert "costs 3 coins minus brown card (2 coins for you): pay 2 coins to the bank" in view.hand_line(
        state, 0, cards["vineyard"])
    temple = view.hand_line(state, 0, cards["temple"])
    assert "(clay + glass + wood less 1 of your choice for you): buy: 2 coins to right" in temple, temple
    assert view.action(state, 0, Action("build", "vineyard")) == "build Vineyard — pay 2 coins to the bank"


def test_a_discount_goes_when_its_piece_leaves_the_city():
    state = draft_table("clay_pit")
    piece = holding(state, 0, "discount 1 coin")
    assert state.players[0].discounts
    state.leave(0, piece)
    assert state.players[0].discounts == () and sw.payments(state, 0, "build", "clay_pit") == {(0, 0)}
    assert state.price(0, sw.card(state, "clay_pit")).counters == (("coins", 1),)


def test_fixed_costs_without_discounts_are_the_printed_cost_itself():
    state = draft_table("clay_pit")
    card = sw.card(state, "clay_pit")
    assert state.price(0, card) is card.cost
    for pack in ("7-wonders", "architects", "dice"):  # no price is read in a pack without discounts or `minus`
        assert helpers.game_for(pack, 3).flow.priced is False


# ---- the turns flow (Architects): fewer cards spent ---------------------------------------------


def turns_table(pack: str, *city: str):
    """Seat 0 Giza holding `city` but its last card, which its turn takes; its first stage costs
    `2 different` (less its progress tokens, none, in the mod `architects_mod`: a game whose
    prices may differ from printed costs)."""
    state = helpers.table(pack, ("giza", "rhodes", "olympia"), arch.seat_wonder)
    arch.give(state, 0, *city[:-1])
    return state, city[-1]


@pytest.mark.parametrize(("sentence", "ways"), [
    (None, {("stone", "wood")}),
    ("discount 1 any for stage", {("stone",), ("wood",)}),
    ("discount 2 any", {()}),                                # never below 0: built with no card
    ("discount 1 any for card", {("stone", "wood")}),        # not for stages
    ("discount 1 stone for stage", {("stone", "wood")}),     # `2 different` names no stone
])
def test_turns_a_discount_of_any_means_fewer_cards_for_a_stage(architects_mod, sentence, ways):
    state, taken = turns_table(architects_mod, "stone", "wood")
    if sentence:
        holding(state, 0, sentence)
    arch.take_card(state, 0, taken)
    assert arch.stage_choices(state, 0) == {"1": ways}
    way = sorted(ways)[0]
    arch.build_stage(state, 0, 1, *way)
    assert sorted(arch.discard_pile(state)) == sorted(way)
    assert sorted(arch.city(state, 0)) == sorted(set(("stone", "wood")) - set(way))


def test_turns_a_surcharge_asks_a_card_more_for_a_stage(architects_mod):
    state, taken = turns_table(architects_mod, "stone", "wood", "wood")
    holding(state, 0, "discount -1 wood for stage")
    arch.take_card(state, 0, taken)
    assert arch.stage_choices(state, 0) == {"1": {("stone", "wood", "wood")}}
    state, taken = turns_table(architects_mod, "stone", "wood")
    holding(state, 0, "discount -1 wood for stage")
    arch.take_card(state, 0, taken)
    assert arch.stage_choices(state, 0) == {}  # a wood short


@pytest.fixture(scope="module")
def architects_mod(tmp_path_factory) -> str:
    """Architects whose wonders' first stage costs `2 different minus progress token`."""
    wonders = [copy.deepcopy(c.data) for c in helpers.pack_of("architects").components["wonders"].values()]
    for wonder in wonders:
        wonder["stages"][0]["cost"] = "2 different minus progress token"
    folder = mod(tmp_path_factory.mktemp("arch") / "costly", "architects", "wonders", wonders)
    assert check_pack(folder)[1] == []
    return str(folder)


@pytest.mark.parametrize(("tokens", "ways"), [
    ((), {("stone", "wood")}), (("decor",), {("stone",), ("wood",)}), (("decor", "tactics", "culture"), {()}),
])
def test_turns_a_stage_cost_minus_a_count(architects_mod, tokens, ways):
    state, taken = turns_table(architects_mod, "stone", "wood")
    arch.give_tokens(state, 0, *tokens)
    arch.take_card(state, 0, taken)
    assert arch.stage_choices(state, 0) == {"1": ways}


# ---- the rolls flow (Dice): fewer resources to buy ----------------------------------------------

START = 7  # coins


@pytest.mark.parametrize(("sentence", "box", "paid"), [
    (None, "agora.symbol_b.3", 3),
    ("discount 1 resource", "agora.symbol_b.3", 2),
    ("discount 5 resources", "agora.symbol_b.3", 0),         # never below 0
    ("discount 1 any for card", "agora.symbol_b.3", 2),      # a box of the city is a card
    ("discount 1 resource for stage", "agora.symbol_b.3", 3),
    ("discount 1 resource for stage", "wonder.1", 2),        # Giza's first step: 3 resources
    (None, "wonder.1", 3),
    ("discount -1 resource", "agora.symbol_b.3", 4),       # a surcharge: one resource more to buy
])
def test_rolls_a_discount_lowers_what_a_box_asks(dice_mod, sentence, box, paid):
    state = dice_table(dice_mod)
    dice.give(state, 0, *dice.AGORA_B[:int(box[-1]) - 1] if box.startswith("agora") else ())
    if sentence:
        holding(state, 0, sentence)
    label = "blue@1:agora.symbol_b" if box.startswith("agora") else None
    dice.forum(state, "blue@1:agora.symbol_b")
    die = 1 if label else 0
    dice.coins(state, 0, die + paid)  # just enough
    assert (box, label) in dice.checks(state, 0)
    dice.coins(state, 0, die + paid - 1)
    assert ((box, label) in dice.checks(state, 0)) == (die + paid == 0)
    dice.coins(state, 0, START)
    dice.play_round(state, {0: dice.check(box, label)})
    assert box in dice.checked(state, 0) and dice.coins(state, 0) == START - die - paid + (2 if box == "wonder.1" else 0)


def dice_table(pack: str):
    """Giza (seat 0) and Rhodes, round 6, no box checked, in `dice_mod`: a game whose prices may
    differ from printed costs."""
    state = helpers.table(pack, ("giza", "rhodes"), lambda *_: None)
    state.flow_state.boards = ["giza", "rhodes"]
    state.round = 5
    return state


def test_rolls_every_player_pays_the_price_they_saw_when_choosing(dice_mod):
    # Seat 1 asks a resource less per box of seat 0's Agora (its right): the box seat 0 checks the
    # same round comes too late for seat 1's price.
    state = dice_table(dice_mod)
    dice.give(state, 1, *dice.AGORA_B[:2])
    holding(state, 1, "discount 1 resource per box in agora of right")
    dice.forum(state, "blue@1:agora.symbol_a", "blue@1:agora.symbol_b")
    dice.coins(state, 1, START)
    dice.play_round(state, {0: dice.check("agora.symbol_a.1", "blue@1:agora.symbol_a"),
                            1: dice.check("agora.symbol_b.3", "blue@1:agora.symbol_b")})
    assert dice.coins(state, 1) == START - 1 - 3
    assert state.game.flow.box_cost(state, 1, state.game.flow.box(state, 1, "agora.symbol_b.4")) == 4 - 1


@pytest.fixture(scope="module")
def dice_mod(tmp_path_factory) -> str:
    """Dice whose Agora box b.4 costs `4 resource minus box in market`."""
    agora = copy.deepcopy(helpers.pack_of("dice").components["buildings"]["agora"].data)
    agora["tracks"][1]["boxes"][3]["cost"] = "4 resource minus box in market"
    folder = mod(tmp_path_factory.mktemp("dice") / "costly", "dice", "buildings", [agora])
    assert check_pack(folder)[1] == []
    return str(folder)


@pytest.mark.parametrize(("market", "paid"), [(0, 4), (1, 3), (3, 1), (5, 0)])
def test_rolls_a_box_cost_minus_a_count(dice_mod, market, paid):
    state = dice_table(dice_mod)
    # the Market's boxes but the second (which pays 2 coins when the blue die is chosen)
    dice.give(state, 0, *dice.AGORA_B[:3], *[f"market.{i}" for i in (4, 5, 6, 3, 1)][:market])
    dice.forum(state, "blue@0:agora.symbol_b")
    dice.coins(state, 0, paid)
    assert ("agora.symbol_b.4", "blue@0:agora.symbol_b") in dice.checks(state, 0)
    dice.play_round(state, {0: dice.check("agora.symbol_b.4", "blue@0:agora.symbol_b")})
    assert dice.coins(state, 0) == 0


# ---- the example mod, played -------------------------------------------------------------------


def test_the_example_mod_builds_cards_for_less_than_their_printed_cost(monkeypatch):
    """Random games of tests/mods/thrift at 4 players: every build pays exactly the price offered
    (coins to the bank and to neighbours), and the three cards' costs and discounts show."""
    built = []  # (card, its printed cost, the price paid)
    pay = Draft.pay

    def watching(self, state, seat, action, card, income, seen=None):
        assert seen is not None or action.verb == "discard"  # the price as chosen, read before the reveal
        before, price = state.players[seat].counters["coins"], seen
        pay(self, state, seat, action, card, income, seen)
        if action.verb == "build" and not action.free and not card.chains & state.players[seat].built:
            assert before - state.players[seat].counters["coins"] == dict(price.counters).get("coins", 0) + sum(action.pay)
            assert state.players[seat].counters["coins"] >= 0
            built.append((card.id, card.cost, price))

    monkeypatch.setattr(Draft, "pay", watching)
    for seed in range(30):
        state, rng = load_game(THRIFT, players=4, seed=seed).new_state(), random.Random(seed)
        while not state.is_terminal():
            helpers.random_step(state, rng)
    vineyards = {dict(price.counters).get("coins", 0) for cid, _, price in built if cid == "vineyard"}
    assert 3 in vineyards and vineyards & {0, 1, 2}, vineyards                   # 3 coins minus brown card
    assert any(cost.counters and not price.counters for _, cost, price in built)  # a brown card, with the Tavern
    assert any(price.spare for _, _, price in built)                              # a green card, with the Workshop

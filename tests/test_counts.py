"""Counts of issue 28: sets (`set of <filters>`, `science set`), a piece's cost (`coin cost of
<filter>`), the cards under a stage (`under stage`), and `score` agreeing with play on `copy stage`.

The language (parse, check at positions, print), the sets against a brute force, each count read in
a 7 Wonders position and in every count position, scenarios holding what the counts read, and the
example mod tests/mods/sets-and-costs in seeded play and in `score`. The every-flow table is
tests/test_mechanisms.py's `COUNTS`.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from itertools import permutations, product
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

import sevenwonders_helpers as sw
from helpers import probe_diagnostics
from wonderforge.dsl.checks import check_cost, check_effects
from wonderforge.dsl.compiler import Compiler, card_sets
from wonderforge.dsl.parser import parse_condition, parse_cost, parse_count, parse_effects
from wonderforge.dsl.printer import print_effects, show
from wonderforge.interpreter import load_game
from wonderforge.interpreter.files.scenario import load_scenario
from wonderforge.interpreter.games.check import check_pack
from wonderforge.interpreter.packs.catalogue import Piece

MODS = Path(__file__).resolve().parent / "mods"
SETS = MODS / "sets-and-costs"
RIVALRY = MODS / "rivalry"


# ---- the language ----------------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "vp 3 per set of red card, blue card, green card",
    "vp 7 per set of brown card, grey card, blue card, yellow card, green card, red card, purple card in self, left",
    "at end: vp 3 per science set",
    "vp 1 per coin cost of card under stage",
    "vp 2 if red card under stage of left",
    "vp 1 per cost of blue / green card in left, right",
    "coins 1 per stone / wood cost of card",
    "vp 1, 3, 6 by set of card, red card",
    "coins -1 per set of red card, blue card to neighbours",
    "discount 1 coin per set of red card, blue card for purple card",
])
def test_a_new_count_parses_checks_and_prints_back(vocab, text):
    tree = parse_effects(text)
    assert check_effects(tree, vocab) == []
    assert print_effects(tree) == text and parse_effects(print_effects(tree)) == tree


def test_a_new_count_fits_a_cost_and_a_condition(vocab):
    assert check_cost(parse_cost("1 coin plus set of red card, blue card"), vocab) == []
    assert show(parse_condition("science set >= left, right")) == "science set >= left, right"


# (sentence, code, the text the error points at)
REFUSED = [
    ("vp 1 per set of red card, bleu card", "E-DSL-COLOUR", "bleu"),
    ("vp 1 per science set in hand of self", "E-DSL-TYPE", "hand of self"),
    ("vp 1 per stage under stage", "E-DSL-TYPE", "under stage"),
    ("vp 1 per stonee cost of card", "E-DSL-RESOURCE", "stonee"),
    ("vp 1 per blue cost of card", "E-DSL-TYPE", "blue"),
    ("vp 1 per card under stage of opponent", "E-DSL-SELECTOR", "opponent"),
    ("vp 1 per set of " + ", ".join(["card"] * 11), "E-DSL-VALUE", "set of card"),
    ("vp 1 per set of red card before this round", "E-DSL-TYPE", "set of red card before this round"),
]


@pytest.mark.parametrize("text, code, at", REFUSED)
def test_what_cannot_be_counted_is_refused_where_it_is_written(vocab, text, code, at):
    (error,) = check_effects(parse_effects(text), vocab)
    assert error.code == code
    assert text[error.span.start:error.span.end].startswith(at)


# ---- sets: each card in one place of one set ---------------------------------------------------


def brute_sets(filters: list[set[str]], cards: list[str]) -> int:
    """The most disjoint sets, tried every way: a set takes, for each filter, a card it lets in."""
    @functools.cache
    def most(left: tuple[str, ...]) -> int:
        best = 0
        for picks in permutations(range(len(left)), len(filters)):
            if all(left[i] in f for i, f in zip(picks, filters)):
                best = max(best, 1 + most(tuple(c for i, c in enumerate(left) if i not in picks)))
        return best
    return most(tuple(sorted(cards)))


COLOURS = ["red", "blue", "green"]
FILTERS = {"red card": {"red"}, "blue card": {"blue"}, "green card": {"green"}, "card": set(COLOURS),
           "red / blue card": {"red", "blue"}}


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(sorted(FILTERS)), min_size=1, max_size=3),
       st.lists(st.sampled_from(COLOURS), max_size=6))
def test_the_sets_counted_are_the_most_a_player_could_lay_out(vocab, filters, colours):
    tests = [Compiler(vocab).card_test(parse_count(f).what) for f in filters]
    cards = [Piece(f"c{i}", "c", colour) for i, colour in enumerate(colours)]
    assert card_sets(tests, cards) == brute_sets([FILTERS[f] for f in filters], colours)


def position():
    """Seat 0 of a 7 Wonders table: 2 red, 2 blue, 1 green, 2 brown cards, two stages built (an altar
    and an excavation under them); its left neighbour a lumber yard only."""
    state = sw.table("olympia:a", "giza:a", "rhodes:a")
    sw.build(state, 0, "barracks", "stockade", "altar", "baths", "apothecary", "tree_farm", "clay_pit")
    sw.stages(state, 0, 2, marker="altar")
    state.players[0].tucked[-1] = sw.card(state, "excavation")
    sw.build(state, 1, "lumber_yard")
    return state


@pytest.mark.parametrize("count, value", [
    ("set of red card, blue card, green card", 1),
    ("set of red card, blue card", 2),
    ("set of card, red card", 2),      # overlapping: a red card fills either place, each card one place
    ("set of red card, red card", 1),  # pairs of red cards
    ("set of red / blue card, blue card", 2),
    ("set of brown card, grey card, blue card, yellow card, green card, red card, purple card", 0),
    ("set of red card, brown card in self, left", 2),  # each place's sets, added up
    ("coin cost of card", 2),            # the tree farm's and the clay pit's coin
    ("coin cost of card under stage", 1),  # the excavation's
    ("cost of blue card", 1),            # the baths' stone
    ("stone / textile cost of card", 2),
    ("red card under stage", 0),
    ("blue card under stage", 1),
    ("card under stage of left", 0),
])
def test_a_count_reads_the_position(count, value):
    state = position()
    assert Compiler(state.game.pack.vocabulary).count(parse_count(count))(state, 0) == value


@pytest.mark.parametrize("symbols, sets", [
    ([("compass",), ("gear",), ("tablet",)], 1),
    ([("compass",), ("compass",), ("gear",), ("tablet",), ("tablet",)], 1),
    ([("compass",), ("gear",), ("compass", "gear", "tablet")], 1),  # the wild symbol fills the gap
    ([("compass",), ("gear",), ("gear",), ("tablet",), ("compass", "gear", "tablet")], 1),
    ([("compass",), ("gear",), ("tablet",), ("compass",), ("gear",), ("compass", "gear", "tablet")], 2),
    ([("compass",), ("compass",)], 0),
])
def test_science_sets_are_full_sets_of_the_packs_symbols(symbols, sets):
    state = position()
    state.players[0].symbols = list(symbols)
    assert state.science_sets(0) == sets
    assert Compiler(state.game.pack.vocabulary).count(parse_count("science set"))(state, 0) == sets


def test_a_cost_that_varies_counts_as_printed():
    game = load_game(MODS / "thrift", players=3, seed=0)
    assert game.catalogue.cards["vineyard"].cost.varying  # `3 coins minus brown card`
    assert game.new_state().cost_units(game.catalogue.cards["vineyard"], frozenset({"coins"})) == 3


# one sentence per count position, each read for seat 0 of `position()` (sets of a red and a blue card: 2)
POSITIONS = [
    ("vp 3 per set of red card, blue card", lambda s: s.scores()[0]["breakdown"]["civilian"], 6),
    ("vp 1, 4, 9 by set of red card, blue card", lambda s: s.scores()[0]["breakdown"]["civilian"], 4),
    ("vp 10 minus set of red card, blue card", lambda s: s.scores()[0]["breakdown"]["civilian"], 8),
    ("vp 5 if 2 set of red card, blue card", lambda s: s.scores()[0]["breakdown"]["civilian"], 5),
    ("vp 5 if set of red card, blue card > left", lambda s: s.scores()[0]["breakdown"]["civilian"], 5),
    ("on build: coins 1 per set of red card, blue card", lambda s: s.players[0].counters["coins"], 2),
    ("on build: coins 1 per set of red card, blue card in self to left", lambda s: s.players[1].counters["coins"], 2),
    ("on build: coins 1 per set of red card, blue card to left", lambda s: s.players[1].counters["coins"], 0),
]


@pytest.mark.parametrize("sentence, read, gained", POSITIONS)
def test_a_set_counts_in_every_position(sentence, read, gained):
    state = position()
    before = read(state)
    piece = Piece("holder", "Holder", "blue",
                  effects=Compiler(state.game.pack.vocabulary).effects(parse_effects(sentence)))
    state.enter(0, piece)
    assert read(state) - before == gained


def test_a_cost_rising_by_sets_is_what_the_player_pays():
    state = position()
    vocab = state.game.pack.vocabulary
    cost = Compiler(vocab).cost(parse_cost("1 coin plus set of red card, blue card"))
    assert cost["coins"](state, 0) == 3 and cost["coins"](state, 1) == 1


# ---- `check` of a whole pack -----------------------------------------------------------------


def rules_pack(folder: Path, base: str, sentence: str, science: dict | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pack.yaml").write_text("# yaml-language-server: $schema=../../schemas/pack.schema.json\n"
                                      f"id: probe\nname: Probe\nversion: 1.0.0\nextends: {base}\n")
    rules = {"player_effects": [sentence]} | ({"science": science} if science is not None else {})
    (folder / "rules.yaml").write_text("# yaml-language-server: $schema=../../schemas/rules.schema.json\n"
                                       + yaml.safe_dump(rules))
    return folder


def test_science_sets_need_the_rules_to_say_what_a_set_is(tmp_path):
    sentence = "at end: vp 3 per science set"
    assert probe_diagnostics(rules_pack(tmp_path / "a", "7-wonders", sentence)) == []
    folder = rules_pack(tmp_path / "b", "7-wonders", sentence, {"set_bonus": 0})
    (refused,) = probe_diagnostics(folder)
    line = next(n for n, text in enumerate((folder / "rules.yaml").read_text().splitlines(), 1) if sentence in text)
    assert refused.code == "E-DSL-FLOW" and "science.set_bonus" in refused.message and refused.line == line


# ---- scenarios: what `score` reads, as play left it -------------------------------------------


def play(folder: Path, seed: int, wonders: str, players: int = 4, rank=None):
    """A seeded game, every seat building the card `rank` puts first (0, 1...; None: none it wants)
    when it can, else a stage 7 times in 10, else a random action."""
    state = load_game(folder, players=players, seed=seed, wonders=wonders).new_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        for seat in state.current_players():
            actions = state.legal_actions(seat)
            wanted = sorted((rank(state.game.catalogue.cards[a.card]), i) for i, a in enumerate(actions)
                            if rank and a.verb == "build" and rank(state.game.catalogue.cards[a.card]) is not None)
            stages = [a for a in actions if a.verb == "stage"]
            if wanted:
                state.apply(seat, actions[wanted[0][1]])
            else:
                state.apply(seat, stages[0] if stages and rng.random() < 0.7 else actions[rng.randrange(len(actions))])
    return state


def scenario_of(state, folder: Path, tmp_path: Path, copies: bool = True) -> Path:
    """The final position of a played game as a scenario file: what each seat holds, its stages with
    the cards under them and the stages they copied."""
    players = []
    for seat, p in enumerate(state.players):
        own = {s.id for s in p.side.stages}
        players.append({"name": f"p{seat}", "wonder": p.side.wonder, "side": p.side.side,
                        "stages": [i + 1 for i in sorted(p.raised)], "coins": p.counters.get("coins", 0),
                        "cards": [c.id for c in p.zones["city"]], "under_stages": [c.id for c in p.tucked],
                        "military": [v for _, v, _ in p.tokens]})
        copied = [o.piece.id for o in p.lasting if o.piece.colour == "stage" and o.piece.id not in own]
        if copies and copied:
            players[-1]["copies"] = list(dict.fromkeys(copied))
    path = tmp_path / "position.yaml"
    path.write_text(yaml.safe_dump({"game": str(folder), "players": players}))
    return path


def test_score_agrees_with_play_on_a_stage_copied_in_play(tmp_path):
    """The Palace of Mirrors (tests/mods/rivalry) copies Babylon's first stage when it builds its second:
    the same position, written as a scenario with `copies`, scores as the game did; without, the copy
    copied nothing."""
    state = play(RIVALRY, 0, "mirrors:a,alexandria:a,giza:a,babylon:a")
    path = scenario_of(state, RIVALRY, tmp_path)
    assert yaml.safe_load(path.read_text())["players"][0]["copies"] == ["babylon:a:1"]
    scenario = load_scenario(path)
    assert scenario.diagnostics == []
    assert scenario.state.scores() == state.scores()
    assert state.scores()[0]["breakdown"]["wonder"] == 6  # its own vp 3, and Babylon's
    plain = load_scenario(scenario_of(state, RIVALRY, tmp_path, copies=False))
    assert plain.state.scores()[0]["breakdown"]["wonder"] == 3


@pytest.mark.parametrize("copies, message", [
    (["babylon:a:1", "babylon:a:1"], "copy 1 stage in play, not 2"),
    (["giza:a:1"], "giza:a:1 is no stage that p0's built stages may copy"),
])
def test_a_copy_no_stage_could_make_is_refused(tmp_path, copies, message):
    state = play(RIVALRY, 0, "mirrors:a,alexandria:a,giza:a,babylon:a")
    path = scenario_of(state, RIVALRY, tmp_path)
    data = yaml.safe_load(path.read_text())
    data["players"][0]["copies"] = copies
    path.write_text(yaml.safe_dump(data))
    diagnostics = load_scenario(path).diagnostics
    assert [d.code for d in diagnostics] == ["E-SCENARIO-STAGES"] and message in diagnostics[0].message


def test_cards_under_stages_are_held_one_a_stage(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump({"game": "7-wonders", "players": [
        {"name": "a", "wonder": "giza", "stages": 1, "under_stages": ["altar", "baths"]},
        {"name": "b", "wonder": "rhodes", "under_stages": ["altr"]}, {"name": "c", "wonder": "olympia"}]}))
    found = sorted((d.code, d.message) for d in load_scenario(path).diagnostics)
    assert found == [("E-SCENARIO-CARD", "unknown card 'altr'"),
                     ("E-SCENARIO-STAGES", "2 cards under 1 built stage: a stage holds one")]


def test_copies_apply_only_where_a_stage_copies(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump({"game": "7-wonders", "players": [
        {"name": "a", "wonder": "giza", "copies": ["rhodes:a:1"]}, {"name": "b", "wonder": "rhodes", "stages": 1},
        {"name": "c", "wonder": "olympia"}]}))
    (refused,) = load_scenario(path).diagnostics
    assert refused.code == "E-SCENARIO-FIELD" and "no sentence of it copies a stage" in refused.hint


# ---- the example mod: tests/mods/sets-and-costs ----------------------------------------------


def test_the_example_mod_checks_clean():
    assert probe_diagnostics(SETS) == []


# each card of the mod, and what it scores for a seat, worked out here from what the seat holds
MOD_CARDS = {
    "mosaic_guild": lambda state, p: 3 * min(sum(c.colour == k for c in p.zones["city"]) for k in ("red", "blue", "green")),
    "archivists_guild": lambda state, p: 2 * _sets_by_hand(state.game.symbols, p.symbols),
    "necropolis": lambda state, p: sum(len(c.cost.resources) + sum(n for _, n in c.cost.counters) for c in p.tucked),
}


def _mod_first(card) -> int | None:
    """The mod's cards first, then the cards its guilds count (science symbols: green cards, the
    Scientists Guild's wild one)."""
    if card.id in MOD_CARDS:
        return 0
    return 1 if card.colour == "green" or card.id == "scientists_guild" else 2 if card.colour in ("red", "blue") else None


def _sets_by_hand(symbols, held) -> int:
    """The most full sets of the symbols, each wild symbol tried as each of its own."""
    return max(min(picks.count(s) for s in symbols) for picks in product(*held)) if held else 0


def test_the_example_mod_scores_in_play_and_in_score_alike(tmp_path):
    """Seeded games of the mod: each of its cards, once built, scores what it says, and the final
    position written as a scenario scores the same."""
    scored = Counter()
    for seed in range(12):
        state = play(SETS, seed, "olympia:a,giza:a,rhodes:a,babylon:a", rank=_mod_first)
        for seat, player in enumerate(state.players):
            for card in player.zones["city"]:
                if card.id in MOD_CARDS:
                    points = sum(a.args.amount(state, seat) for e in card.effects for a in e.actions)
                    assert points == MOD_CARDS[card.id](state, player), (seed, seat, card.id)
                    scored[card.id] += points
        scenario = load_scenario(scenario_of(state, SETS, tmp_path))
        assert scenario.diagnostics == [] and scenario.state.scores() == state.scores()
    assert all(scored[card] for card in MOD_CARDS), scored  # each scored something in some game


# ---- where else counts are read: bot files, the editor's reference -----------------------------


def test_a_bot_file_counts_sets_as_effects_do(tmp_path):
    """A bot file's `best:` is a count of the language: a set of cards is one, checked, and a bot
    preferring it builds toward a set."""
    from wonderforge.interpreter.bots.botfile import read_bots
    from wonderforge.interpreter.bots.registry import play as play_bots
    from wonderforge.interpreter.games.check import check_pack
    path = tmp_path / "bots.yaml"
    path.write_text("# yaml-language-server: $schema=../../schemas/bots.schema.json\n"
                    "bots:\n  - id: collector\n    rules:\n      - do: build card\n"
                    "        best: set of red card, blue card, green card\n")
    bots, diagnostics = read_bots(path, check_pack("7-wonders")[0])
    assert [d for d in diagnostics if d.severity == "error"] == [] and bots[0].id == "collector"
    game = load_game("7-wonders", players=3, seed=4)
    state = play_bots(game, [str(path)] * 3)
    sets = Compiler(game.pack.vocabulary).count(parse_count("set of red card, blue card, green card"))
    assert state.is_terminal() and any(sets(state, seat) for seat in range(3))


def test_the_editor_points_set_and_cost_at_their_sections():
    from wonderforge.tools.editor.reference import entry
    assert entry("set").startswith("**Sets**")
    assert entry("cost").startswith("**Costs counted**") and entry("under").startswith("**Under a stage")


# ---- a stage built as a copy, paid at the copied stage's cost: `copy stage ... with cost` -------


def manneken(tmp_path: Path) -> Path:
    """7 Wonders with an eighth wonder whose first stage is built as a copy of a neighbour's."""
    folder = tmp_path / "manneken"
    folder.mkdir()
    (folder / "pack.yaml").write_text("id: manneken\nname: Manneken\nversion: 1.0.0\nextends: 7-wonders\n")
    side = {"effect": "produce stone", "stages": [{"cost": "copied", "effect": "copy stage from left, right with cost"},
                                                 {"cost": "2 wood", "effect": "vp 5"}]}
    (folder / "wonders.yaml").write_text(yaml.safe_dump([{"id": "manneken", "name": "Manneken Pis", "city": "Brussels",
                                                          "sides": {"a": side, "b": side}}]))
    return folder


def test_a_stage_built_as_a_copy_pays_the_copied_stages_cost(tmp_path):
    """Manneken Pis: its first stage copies a stage a neighbour built, cost and effect: Giza's
    first (2 stone, 3 points) is offered at 2 stone, the seat's own; Babylon's first (3 clay) needs
    clay bought; the stage built, the copied effect applies (3 points), nothing else is paid."""
    from sevenwonders_helpers import set_side, stages as build_stages
    folder = manneken(tmp_path)
    assert [d.render() for d in check_pack(folder)[1] if d.severity == "error"] == []
    state = load_game(folder, players=3, seed=0).new_state()
    for seat, wonder in enumerate(("manneken", "giza", "babylon")):
        set_side(state, seat, wonder, "a")
    build_stages(state, 1)
    build_stages(state, 2)
    player = state.players[0]
    player.units, player.counters["coins"] = (("stone",), ("stone",)), 0
    state.legal = {}
    offered = {(a.choice, a.pay) for a in state.legal_actions(0) if a.verb == "stage"}
    assert {choice for choice, _ in offered} == {"giza:a:1"}  # Babylon's clay cannot be bought with 0 coins
    action = next(a for a in state.legal_actions(0) if a.verb == "stage")
    for seat in state.current_players():
        state.apply(seat, action if seat == 0 else next(a for a in state.legal_actions(seat) if a.verb == "discard"))
    assert player.stages == 1 and player.counters["coins"] == 0  # paid with its own stone
    assert state.scores()[0]["breakdown"]["wonder"] == 3  # Giza's first stage's points


@pytest.mark.parametrize("card, code, words", [
    ({"effect": "copy stage from left with cost"}, "E-DSL-FLOW", "a stage's own effect"),
    ({"cost": "copied", "effect": "vp 1"}, "E-DSL-COST", "'copied' is the cost of a wonder stage built as a copy"),
])
def test_with_cost_and_copied_belong_to_a_stage_built_as_a_copy(tmp_path, card, code, words):
    folder = tmp_path / "mod"
    folder.mkdir()
    (folder / "pack.yaml").write_text("id: mod\nname: Mod\nversion: 1.0.0\nextends: 7-wonders\n")
    (folder / "cards.yaml").write_text(yaml.safe_dump([{"id": "pawnshop", "name": "Mirror", "colour": "blue",
                                                        "copies": {1: [4, 7]}, **card}]))
    found = [d for d in check_pack(folder)[1] if d.severity == "error"]
    assert [d.code for d in found] == [code] and words in found[0].message

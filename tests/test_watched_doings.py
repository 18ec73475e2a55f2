"""Watched doings (issue 28, point 2): `on [players] buy / sell / chain / discard`, `on [players]
take / lose <kinds> token`, `on [players] gain <counters>`, the player seen being the sentence's
`chosen`; and counts of the cards come into a city in a period (`this age`). Each is played in
seeded games whose counters are checked against what the games' histories say happened, and the
example mod tests/mods/watchers is checked, played and replayed.
"""

from __future__ import annotations

import random
import shutil
from collections import Counter
from pathlib import Path

import pytest
import yaml

from helpers import pack_of, random_step
from wonderforge.dsl.parser import parse_effects
from wonderforge.dsl.printer import print_effects
from wonderforge.interpreter import State, load_game
from wonderforge.interpreter.flows.draft import Draft
from wonderforge.interpreter.games.check import check_pack

WATCHERS = Path(__file__).resolve().parent / "mods" / "watchers"
BASES = {"draft": ("7-wonders", 3), "turns": ("architects", 3), "rolls": ("dice", 3)}


def mod(folder: Path, base: str, sentences: list[str], counters: list[str], chits: bool = False) -> Path:
    """A pack extending `base` whose players all hold `sentences`, with counters of its own (and
    `chit` tokens of its own)."""
    rules = pack_of(base).rules
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pack.yaml").write_text("# yaml-language-server: $schema=../../schemas/pack.schema.json\n"
                                      f"id: doings\nname: Doings\nversion: 1.0.0\nextends: {base}\n", encoding="utf-8")
    words = rules["vocabulary"]
    own = {"vocabulary": {"colours": words["colours"], "counters": [*words["counters"], *counters]},
           "player_effects": [*rules.get("player_effects", []), *sentences]}
    if chits:
        own["tokens"] = {"chit": {"value": 0}}
    (folder / "rules.yaml").write_text("# yaml-language-server: $schema=../../schemas/rules.schema.json\n"
                                       + yaml.safe_dump(own, sort_keys=False), encoding="utf-8")
    errors = [d.render() for d in check_pack(folder)[1] if d.severity == "error"]
    assert not errors, errors
    return folder


def played(folder: Path, players: int, seed: int):
    """A seeded random game of the pack, played to its end."""
    state, rng = load_game(folder, players=players, seed=seed).new_state(), random.Random(seed)
    while not state.is_terminal():
        random_step(state, rng)
    return state


def counts(state, name: str) -> list[int]:
    return [p.counters.get(name, 0) for p in state.players]


@pytest.mark.parametrize("text", [
    "on buy: coins 1 to chosen", "on left sell: coins 1", "on chain: vp 1", "on neighbours chain red card: coins 2",
    "on discard: coins 1", "on others discard blue card: coins 1", "on take defeat token: coins 2",
    "on all lose debt / victory token: vp -1", "on gain coins: vp 1 once per turn", "at age end: vp 1 per card this age",
    "at end: vp 1 per red card in self, left this round"])
def test_a_doing_prints_back(text):
    assert print_effects(parse_effects(text)) == text


def test_the_example_mod_checks_clean():
    _, diagnostics = check_pack(WATCHERS)
    assert diagnostics == [], [d.render() for d in diagnostics]


@pytest.mark.parametrize("sentence, code, words", [
    ("on gain vp: coins 1", "E-DSL-EVENT", "points are counted at the end"),
    ("on lose defeat token: coins 1", "E-DSL-EVENT", "no defeat token is of this pack's own"),
    ("on take debt token: coins 1", "E-DSL-NAME", "unknown token kind 'debt'"),
    ("on gain coinz: vp 1", "E-DSL-NAME", "did you mean 'coins'"),
    ("on gain coins: coins 1", "E-DSL-LOOP", "sets itself off again"),
    ("on gain shields: copy stage from left, right", "E-DSL-LOOP", "sets itself off again"),  # a stage gives shields
    ("on opponent buy: coins 1", "E-DSL-SELECTOR", "names no players a trigger can watch"),
    ("vp 1 per card in hand of left this age", "E-DSL-TYPE", "counts the cards come into players' cities"),
    ("vp 1 per stage this age", "E-DSL-TYPE", "counts the cards come into players' cities"),
    ("vp 1 per card this decade", "E-DSL-NAME", "unknown period 'decade'"),
    ("on take chained card: coins 1", "E-DSL-COLOUR", "on chain"),
])
def test_what_cannot_happen_is_refused_at_its_place(tmp_path, sentence, code, words):
    folder = tmp_path / "refused"
    rules = pack_of("7-wonders").rules
    folder.mkdir()
    (folder / "pack.yaml").write_text("id: refused\nname: Refused\nversion: 1.0.0\nextends: 7-wonders\n", encoding="utf-8")
    (folder / "rules.yaml").write_text(yaml.safe_dump({"player_effects": [*rules.get("player_effects", []), sentence]}),
                                       encoding="utf-8")
    errors = [d for d in check_pack(folder)[1] if d.severity == "error"]
    assert [d.code for d in errors] == [code], [d.render() for d in errors]
    assert words in errors[0].message + " " + (errors[0].hint or ""), errors[0].render()


@pytest.mark.parametrize("effect, copies, loops", [
    ("on left gain coins: coins 1", "[3]", False),            # one copy: its owner's gain is watched by no copy of it
    ("on neighbours gain coins: coins 1", "[3]", False),
    ("on left gain coins: coins 1", "[3, 5]", True),           # two: the right neighbour's may watch the owner's
    ("on left gain coins: coins 1 to left", "[3]", True),      # what it gives the watched player sets it off again
    ("on all gain coins: coins 1", "[3]", True),               # it watches its owner too
    ("on gain coins: coins 1", "[3]", True),
    ("on left gain coins: coins 1", "1", False),              # a count of copies
])
def test_a_card_of_one_copy_watching_others_does_not_set_itself_off(tmp_path, effect, copies, loops):
    folder = tmp_path / "lender"
    folder.mkdir()
    (folder / "pack.yaml").write_text("id: lender\nname: Lender\nversion: 1.0.0\nextends: 7-wonders\n", encoding="utf-8")
    (folder / "cards.yaml").write_text(f"- id: lender\n  name: Lender\n  colour: yellow\n  copies: {{1: {copies}}}\n"
                                       f"  effect: '{effect}'\n", encoding="utf-8")
    errors = [d for d in check_pack(folder)[1] if d.severity == "error"]
    assert [d.code for d in errors] == ["E-DSL-LOOP"] * loops, [d.render() for d in errors]


def test_a_law_of_one_copy_watching_others_sets_itself_off(tmp_path):
    """A law is in force in every city at once (tests/mods/babel): one copy of it watches in each."""
    folder = tmp_path / "babel"
    shutil.copytree(Path(__file__).parent / "mods" / "babel", folder)
    with open(folder / "cards.yaml", "a", encoding="utf-8") as cards:
        cards.write("- id: usury\n  name: Usury\n  colour: law\n  copies: {0: [3]}\n"
                    "  effect: 'on neighbours gain coins: coins 1'\n")
    errors = [d for d in check_pack(folder)[1] if d.severity == "error"]
    assert [d.code for d in errors] == ["E-DSL-LOOP"], [d.render() for d in errors]


def test_purchases_are_seen_by_both_sides_and_their_watchers(tmp_path):
    """`on buy` counts each seller a player paid in an action, `on sell` each buyer who paid the
    player, `on left buy` each purchase of the left neighbour, `on buy: ... to chosen` the seller."""
    folder = mod(tmp_path / "trade", "7-wonders", ["on buy: bought 1", "on sell: sold 1", "on left buy: seen 1",
                                                   "on buy: paid 1 to chosen"], ["bought", "sold", "seen", "paid"])
    for seed in range(3):
        state = played(folder, 4, seed)
        bought, sold = Counter(), Counter()
        for seat, action in state.history:
            for seller, coins in zip(state.game.seller_seats[seat], action.pay):
                if coins:
                    bought[seat] += 1
                    sold[seller] += 1
        left = state.game.seat_table["left"]
        assert sum(bought.values()) > 0
        assert counts(state, "bought") == [bought[s] for s in range(4)]
        assert counts(state, "sold") == [sold[s] for s in range(4)] == counts(state, "paid")
        assert counts(state, "seen") == [bought[left[s][0]] for s in range(4)]


def test_chains_and_discards_are_seen(tmp_path, monkeypatch):
    folder = mod(tmp_path / "chain", "7-wonders", ["on chain: chained 1", "on right chain: seen 1",
                                                   "on discard: discarded 1", "on neighbours discard blue card: blue 1"],
                 ["chained", "seen", "discarded", "blue"])
    chained, reveal = Counter(), Draft.reveal

    def revealing(self, state, chosen=None, end_turn=True):  # the builds free by a chain, before they are placed
        for seat, action in (chosen if chosen is not None else state.flow_state.pending).items():
            player = state.players[seat]
            card = next((c for c in player.zones[self.hand] if c.id == action.card), None)
            if action.verb == "build" and card is not None and card.chains & player.built:
                chained[(state.game.seed, seat)] += 1
        return reveal(self, state, chosen, end_turn)
    monkeypatch.setattr(Draft, "reveal", revealing)
    for seed in range(4):
        state = played(folder, 3, seed)
        right = state.game.seat_table["right"]
        mine = [chained[(seed, s)] for s in range(3)]
        assert counts(state, "chained") == mine
        assert counts(state, "seen") == [mine[right[s][0]] for s in range(3)]
        discards = Counter(seat for seat, a in state.history if a.verb == "discard")
        assert counts(state, "discarded") == [discards[s] for s in range(3)]
        blue = Counter(seat for seat, a in state.history
                       if a.verb == "discard" and state.game.catalogue.cards[a.card].colour == "blue")
        assert counts(state, "blue") == [sum(blue[n] for n in state.game.seat_table["neighbours"][s]) for s in range(3)]
    assert sum(chained.values()) > 0


def test_tokens_won_in_battles_are_taken(tmp_path):
    folder = mod(tmp_path / "battles", "7-wonders", ["on take victory token: won 1", "on take defeat token: lost 1"],
                 ["won", "lost"])
    state = played(folder, 4, 1)
    assert counts(state, "won") == [sum(t[0] == "victory" for t in p.tokens) for p in state.players]
    assert counts(state, "lost") == [sum(t[0] == "defeat" for t in p.tokens) for p in state.players]
    assert sum(counts(state, "won")) > 0


@pytest.mark.parametrize("flow", BASES)
def test_tokens_of_a_packs_own_taken_and_lost_in_every_flow(tmp_path, flow):
    """Taken from the supply or given by a neighbour, lost by giving or returning: each taken
    token is one held at the end or lost since."""
    base, players = BASES[flow]
    folder = mod(tmp_path / flow, base, ["at turn end: take 2 chit tokens", "at round end: give 1 chit token to left",
                                         "at round end: return 1 chit token", "on take chit token: took 1",
                                         "on lose chit token: lost 1", "on right lose chit token: seen 1"],
                 ["took", "lost", "seen"], chits=True)
    state = played(folder, players, 2)
    took, lost = counts(state, "took"), counts(state, "lost")
    assert all(t > 0 for t in took) and all(n > 0 for n in lost)
    assert [t - n for t, n in zip(took, lost)] == [sum(k == "chit" for k, _, _ in p.tokens) for p in state.players]
    right = state.game.seat_table["right"]
    assert counts(state, "seen") == [lost[right[s][0]] for s in range(players)]


@pytest.mark.parametrize("flow", ["draft", "rolls"])
def test_coins_gained_are_seen(tmp_path, flow):
    base, players = BASES[flow]
    folder = mod(tmp_path / flow, base, ["on gain coins: gains 1", "on left gain coins: coins 1 to chosen once per turn"],
                 ["gains"])
    state = load_game(folder, players=players, seed=3).new_state()
    left = state.game.seat_table["left"]
    before = counts(state, "coins")
    state.gain(0, "coins", 2)
    state.gain(0, "coins", 0)
    state.gain(1, "coins", -1)
    # seat 0 gained twice (its own 2, then the coin its right neighbour, watching, gave it: once per turn)
    watcher = next(s for s in range(players) if left[s][0] == 0)
    assert counts(state, "gains")[0] == 2 and state.players[0].counters["coins"] == before[0] + 3
    assert counts(state, "gains")[1] == 0 and counts(state, "gains")[watcher] == (watcher == 0)
    state = played(folder, players, 3)
    assert sum(counts(state, "gains")) > 0


@pytest.mark.parametrize("flow", BASES)
def test_cards_come_in_this_round_are_counted(tmp_path, flow):
    """Each card a city holds at the end came in one round, counted at that round's end (in
    Architects, cards also leave, turned in as sets)."""
    base, players = BASES[flow]
    folder = mod(tmp_path / flow, base, ["at round end: tally 1 per card this round"], ["tally"])
    for seed in range(2):
        state = played(folder, players, seed)
        held = [len(p.zones[state.game.build_zone]) for p in state.players]
        tally = counts(state, "tally")
        assert tally == held if flow != "turns" else all(t >= h for t, h in zip(tally, held)), (tally, held)
        assert sum(tally) > 0


def test_this_age_counts_the_cards_of_the_age_only():
    state = load_game(WATCHERS, players=3, seed=1).new_state()
    cards = state.game.catalogue.cards
    lighthouse = cards["lighthouse"].effects[1]
    state.gain_card(0, cards["lumber_yard"])
    state.round = 2
    state.gain_card(0, cards["altar"])
    state.gain_card(0, cards["baths"])
    assert lighthouse.actions[0].args.amount(state, 0) == 2
    assert [c.id for c in state.came(0, "age")] == ["altar", "baths"] and len(state.came(0, "game")) == 3


@pytest.mark.parametrize("players", [3, 5, 7])
def test_the_example_mod_plays_and_replays(players):
    for seed in range(3):
        state = played(WATCHERS, players, seed)
        again = load_game(WATCHERS, players=players, seed=seed).new_state()
        for seat, action in state.history:
            again.apply(seat, action)
        assert again.scores() == state.scores()


def test_at_the_end_this_age_is_the_last_age(tmp_path, monkeypatch):
    """`at end: vp 1 per card this age` scores the cards built in the last age: the same game
    without it scores that much less."""
    with_it = mod(tmp_path / "with", "7-wonders", ["at end: vp 1 per card this age"], [])
    without = mod(tmp_path / "without", "7-wonders", [], [])
    starts, fire = [], State.fire

    def firing(state, event, seats, skip_score=False):
        if event == "round_start" and state.game.pack.id == "doings":
            starts.append([len(p.zones["city"]) for p in state.players])
        return fire(state, event, seats, skip_score)
    monkeypatch.setattr(State, "fire", firing)
    for seed in range(2):
        starts.clear()
        scored = played(with_it, 3, seed)
        plain = played(without, 3, seed)
        assert scored.history == plain.history
        last = [len(p.zones["city"]) - before for p, before in zip(scored.players, starts[len(starts) // 2 - 1])]
        assert [a - b for a, b in zip(scored.totals(), plain.totals())] == last and sum(last) > 0

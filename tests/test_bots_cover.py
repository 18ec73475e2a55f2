"""No blind bot (issue 26): with a shipped rule bot, or the expert bot, at every seat of 1,000
games at 4 players, every component of its pack (a card dealt at 4 players, a progress token, a
medal, a wonder stage, a board's box, a bonus) is taken in some game, and every scoring category
that random play scores is scored on average. A quick test shows the counting catches a blind bot: the 7 Wonders bot as
it was, which never built a yellow card, a guild or a stage."""

from __future__ import annotations

import time

import pytest

from cover_helpers import BONUSES, CARDS, components, study
from wonderforge.interpreter import load_game
from wonderforge.interpreter.bots.botfile import pack_bots

SHIPPED = ["7-wonders", "architects", "architects-medals", "dice"]
PLAYERS = 4
GAMES = 1000          # games of each rule bot
RANDOM_GAMES = 200    # games of random play, whose categories the rule bot must score too

# The 7 Wonders rule bot before issue 26: resources, military, blue and green cards, else discard.
BLIND = """\
bots:
  - id: blind
    name: Blind
    rules:
      - do: build brown / grey card
        gives: 2 production
      - do: build brown / grey card
        gives: resource_kind
      - do: build red card
        if: shields <= left or shields <= right
      - do: build blue card
        best: points
      - do: build green card
        best: points
      - do: discard card
"""


def _blind(counts, means: dict[str, float], universe, random_means: dict[str, float]) -> tuple[list, list]:
    """The components never taken, and the categories random play scores but these games did not."""
    never = sorted(universe - set(counts))
    unscored = sorted(c for c, m in random_means.items() if m > 0 and not means.get(c))
    return never, unscored


def test_components_are_every_piece_a_player_can_take():
    seven, dice, medals = (load_game(p, players=PLAYERS) for p in ("7-wonders", "dice", "architects-medals"))
    cards = components(seven)
    assert {("cards", "scientists_guild"), ("cards", "haven"), ("wonders", "giza", "b.4"),
            ("wonders", "olympia", "a.3")} <= cards
    assert ("cards", "forest_cave") not in cards  # dealt from 5 players on
    assert ("wonders", "giza", "a.4") not in cards
    boxes = components(dice)
    assert {("boards", "giza", "wonder.3"), ("buildings", "agora", "symbol_b.4"), (BONUSES, "3")} <= boxes
    assert (BONUSES, "4") not in boxes
    assert {("medals", "three_blue"), ("progress", "domestication"), ("wonders", "rome", "5")} <= components(medals)


def test_the_counting_catches_a_blind_bot(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "blind.yaml").write_text(BLIND, encoding="utf-8")
    universe = components(load_game("7-wonders", players=PLAYERS))
    _, random_means = study("7-wonders", "random", 20, workers=1)
    counts, means = study("7-wonders", "blind.yaml", 20, workers=1)
    never, unscored = _blind(counts, means, universe, random_means)
    assert unscored == ["commerce", "guilds", "wonder"]
    assert ("cards", "haven") in never and ("wonders", "giza", "a.1") in never
    counts, means = study("7-wonders", "rules", 20, workers=1)
    never, unscored = _blind(counts, means, universe, random_means)
    assert not unscored
    assert not [k for k in never if k[0] == CARDS and k[1].endswith("_guild")]


def test_dice_bonuses_count_as_taken():
    counts, _ = study("dice", "random", 10, workers=1)
    assert {(BONUSES, "1"), (BONUSES, "2"), (BONUSES, "3")} <= set(counts)


def _takes_everything(pack: str, bots) -> None:
    """Each of `bots`, at every seat of GAMES games, takes every component and scores every
    category random play scores."""
    game = load_game(pack, players=PLAYERS)
    universe = components(game)
    _, random_means = study(pack, "random", RANDOM_GAMES)
    for bot in bots(game):
        start = time.perf_counter()
        counts, means = study(pack, bot, GAMES)
        never, unscored = _blind(counts, means, universe, random_means)
        rarest = min(universe, key=lambda k: counts[k])
        print(f"{pack} {bot}: {GAMES} games in {time.perf_counter() - start:.0f} s; the rarest component, "
              f"{'.'.join(rarest)}, taken in {counts[rarest]}")
        assert not never, f"{pack}: {bot} never took {never}"
        assert not unscored, f"{pack}: {bot} never scored {unscored}, which random play scores"


@pytest.mark.slow
@pytest.mark.parametrize("pack", SHIPPED)
def test_every_shipped_rule_bot_takes_every_component(pack):
    _takes_everything(pack, lambda game: pack_bots(game.pack)[0])


# Halicarnassus B's third stage scores nothing and builds a card from the discard at the turn's
# end, after every seat has played: one look ahead does not see it, and expert values it 2 to 7
# points below its best action when it may build it (docs/bots.md). Fails until it sees it.
UNSEEN = pytest.mark.xfail(strict=True, reason="expert never builds halicarnassus b.3 (docs/bots.md)")


@pytest.mark.slow
@pytest.mark.soak  # about 35 minutes on two cores: run with -m soak
@pytest.mark.parametrize("pack", [pytest.param(p, marks=UNSEEN) if p == "7-wonders" else p for p in SHIPPED])
def test_the_expert_bot_takes_every_component(pack):
    # a balance bot: it plays the best action most often, one a little worse now and then
    # (expert.TEMPERATURE), so that a study sees every component played
    _takes_everything(pack, lambda game: ["expert"])

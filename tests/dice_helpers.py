"""Helpers for the 7 Wonders Dice rules tests: positions built by hand, played through the interface.

A position starts from a real deal (`table`), with each seat's city board chosen by the test; the dice
in the Forum (`forum`), the boxes already checked (`give`) and the coins are then set directly, and
rounds are played with `legal_actions` and `apply` like any client would.

Seats are clockwise: the left neighbour of seat i is seat i+1, the right one seat i-1. A die in the
Forum is written `die@slot:face` ("blue@2:agora.symbol_a"), which is also the `choice` of a check
made with it; box ids are `building.track.n` or `building.n` ("agora.symbol_a.1", "market.3").
"""

from __future__ import annotations

from collections import Counter
from functools import partial

import helpers
from wonderforge.interpreter import Action, State

PACK = "dice"
BOARDS = ("alexandria", "babylon", "ephesus", "giza", "halicarnassus", "olympia", "rhodes")
START_DICE = Counter({"grey": 3, "blue": 1, "red": 1, "yellow": 1, "green": 1})
SPECIAL_DICE = ("black", "white", "purple")
# rules.yaml `scoring.categories`: one row of the score pad per building of the city.
CATEGORIES = ("wonder", "guild_palace", "gallery", "barracks_west", "agora", "market", "university", "barracks_east")
# buildings.yaml: box ids of the buildings every board shares, in each track's order.
WAREHOUSE = tuple(f"warehouse.{i}" for i in range(1, 7))
AGORA_A = tuple(f"agora.symbol_a.{i}" for i in range(1, 5))
AGORA_B = tuple(f"agora.symbol_b.{i}" for i in range(1, 5))
MARKET = tuple(f"market.{i}" for i in range(1, 7))
GALLERY = tuple(f"gallery.{i}" for i in range(1, 5))
GUILD = tuple(f"guild_palace.{i}" for i in range(1, 4))
WONDER = ("wonder.1", "wonder.2", "wonder.3")


def barracks(side: str, track: str) -> tuple[str, ...]:
    return tuple(f"barracks_{side}.{track}.{i}" for i in range(1, (6 if track == "attack" else 3)))


def lane(colour: str) -> tuple[str, ...]:
    return tuple(f"university.{colour}.{i}" for i in range(1, 4))


# The shared helpers of tests/helpers.py, bound to this pack.
game_for = partial(helpers.game_for, PACK)
dealt = partial(helpers.dealt, PACK)
random_game = partial(helpers.random_game, PACK)


def table(*boards: str, seed: int = 0, round: int = 5) -> State:
    """A fresh deal whose seat i plays `boards[i]`, in round `round` (0-based), no box checked yet."""
    state = dealt(len(boards), seed)
    state.flow_state.boards = list(boards)
    state.round = round
    state.legal = {}
    return state


def die(label: str) -> list:
    """`"blue@2:agora.symbol_a"` -> the Forum's entry [die, face, slot]."""
    name, rest = label.split("@")
    slot, face = rest.split(":")
    return [name, face, int(slot)]


def forum(state: State, *labels: str) -> None:
    """The Forum holds exactly these dice, as landed this round."""
    state.flow_state.forum = [die(label) for label in labels]
    state.legal = {}


def forum_dice(state: State) -> Counter:
    return Counter(d for d, _, _ in state.flow_state.forum)


def give(state: State, seat: int, *box_ids: str, round: int | None = None) -> None:
    """Boxes checked earlier (by default in the round before this one): their effects apply as when
    they were checked, and decisions they ask for are dropped; nobody's coins change, and a die
    unlocked this way is not brought into the Forum (`release` does that)."""
    flow, own = state.game.flow, state.flow_state
    player = state.players[seat]
    coins, unlocking = dict(player.counters), set(own.unlocking)
    for box_id in box_ids:
        box = flow.box(state, seat, box_id)
        own.checked[seat][box_id] = state.round - 1 if round is None else round
        player.zones["board"].append(box)
        player.stages += flow.buildings(state, seat)[box.colour].die is None
        state.enter(seat, box)
    state.queue = []
    own.unlocking = unlocking
    player.counters["coins"] = coins["coins"]
    state.legal = {}


def unlock(state: State, seat: int, *dice: str) -> None:
    """The seat unlocked these dice in an earlier round (they are out of the reserve for good)."""
    state.flow_state.unlocked[seat].update(dice)
    state.flow_state.released.update(dice)
    state.legal = {}


def coins(state: State, seat: int, value: int | None = None) -> int:
    """A seat's coins; with `value`, set them first."""
    if value is not None:
        state.players[seat].counters["coins"] = value
        state.legal = {}
    return state.counter(seat, "coins")


def checked(state: State, seat: int) -> set[str]:
    return set(state.flow_state.checked[seat])


def checks(state: State, seat: int) -> set[tuple[str, str | None]]:
    """(box, die label or None) of every check offered to the seat."""
    return {(a.card, a.choice) for a in state.legal_actions(seat) if a.verb == "check"}


def offered_boxes(state: State, seat: int, label: str | None = "any") -> set[str]:
    """The boxes offered to the seat with that die (None: without a die; "any": with any)."""
    return {box for box, choice in checks(state, seat) if label == "any" or choice == label}


def check(box_id: str, label: str | None = None) -> Action:
    return Action("check", box_id, choice=label)


PASS = Action("pass")


def play_round(state: State, actions: dict[int, Action]) -> None:
    """Every seat commits its action (seats not named pass), in seat order; decisions are left owed."""
    for seat in range(len(state.players)):
        state.apply(seat, actions.get(seat, PASS))


def decide(state: State, seat: int, action: Action) -> None:
    """The seat owes the next decision and makes it."""
    assert state.current_players() == [seat], f"seat {seat} does not owe a decision: {state.current_players()}"
    state.apply(seat, action)


def bonus_choices(state: State, seat: int) -> list[str]:
    return [a.choice for a in state.legal_actions(seat) if a.verb == "bonus"]


def score(state: State, seat: int) -> dict[str, int]:
    return state.scores()[seat]["breakdown"]


def in_choose(state: State) -> bool:
    """Whether a new round is open: every seat is to choose its action."""
    return state.phase == "choose" and state.current_players() == list(range(len(state.players)))

"""What each verb of the effect language does to a game: one function per verb, in one registry.

A handler gets the state, the acting seat and the verb's compiled arguments; `state.source` is
the effect being run. A new verb is one function here and one entry in `VERBS`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from ..dsl.vocabulary import ANY
from .state import Decision

if TYPE_CHECKING:
    from .state import State


def gain(state: "State", me: int, args: dict) -> None:
    """`coins 3`: add to a counter."""
    counters = state.players[me].counters
    counters[args["counter"]] = counters.get(args["counter"], 0) + args["value"]


def produce(state: "State", me: int, args: dict) -> None:
    """`produce wood / stone`: one unit a turn per count, of one of the resources; others may buy
    it unless it is private."""
    player = state.players[me]
    resources = args["resources"]
    if ANY in resources:
        resources = state.game.resources
    unit = (tuple(sorted(resources)),) * (args["count"] or 1)
    player.units = tuple(sorted(player.units + unit))
    if not args["private"]:
        player.public = tuple(sorted(player.public + unit))


def trade(state: "State", me: int, args: dict) -> None:
    """`trade raw at 1 from left, right`: a lower price for these resources from these sellers."""
    player = state.players[me]
    wanted = state.game.expand(args["resources"])
    sides = state.game.sides(args["sides"])
    player.prices = tuple(
        tuple((r, min(c, args["price"]) if r in wanted else c) for r, c in prices) if seller in sides else prices
        for seller, prices in zip(state.game.sellers, player.prices))


def science(state: "State", me: int, args: dict) -> None:
    """`science gear`: a symbol; `science any` one chosen at the end."""
    symbols = args["symbols"]
    state.players[me].symbols.append(state.game.symbols if ANY in symbols else tuple(symbols))


def build_free(state: "State", me: int, args: dict) -> None:
    """`build free once per age` is a power the player may use; with a trigger (`at turn end:
    build card from discard free`) it asks the player to choose a card now."""
    owned = state.source
    if owned.effect.trigger is None:
        state.players[me].abilities.append(owned)
    else:
        state.queue.append(Decision(me, "build_free", args, owned))


def play_last(state: "State", me: int, args: dict) -> None:
    """`play last card`: the card left at the end of a round is played instead of discarded."""
    state.players[me].abilities.append(state.source)


def at_scoring(state: "State", me: int, args: dict) -> None:
    """Verbs whose choice is made by the scoring, to the player's best (`copy`)."""


VERBS: dict[str, Callable[["State", int, dict], None]] = {
    "gain": gain,
    "produce": produce,
    "trade": trade,
    "science": science,
    "build_free": build_free,
    "play_last": play_last,
    "copy": at_scoring,
}

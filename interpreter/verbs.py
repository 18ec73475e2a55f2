"""What each verb of the effect language does to a game, through the core's services: one function
per verb, in one registry, the same in every flow. A verb that asks a choice queues a decision
(decisions.py); a power (`build free once per age`, `ignore ...`) is kept for the flow to offer.
A flow adds the verbs only it runs (`flows.py`); `check` refuses the others' in its packs.

A handler gets the state, the acting seat and the verb's compiled arguments; `state.source` is
the effect being run.
"""

from __future__ import annotations

from typing import Callable

from ..dsl.vocabulary import ANY
from .decisions import cards_at, places
from .state import GIVEN, State

Handler = Callable[[State, int, dict], None]


def gain(state: State, me: int, args: dict) -> None:
    """`coins 3`: add to a counter. Points scored during play (`on build: vp 2 minus ...`) are kept
    with the colour of their piece, for the scoring's categories."""
    player = state.players[me]
    if args["counter"] == state.game.score_counter and state.source is not None:
        player.banked.append((state.source.piece.colour, args["value"]))
    player.counters[args["counter"]] = player.counters.get(args["counter"], 0) + args["value"]


def produce(state: State, me: int, args: dict) -> None:
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


def trade(state: State, me: int, args: dict) -> None:
    """`trade raw at 1 from left, right`: a lower price for these resources from these sellers."""
    player = state.players[me]
    wanted = state.game.expand(args["resources"])
    sides = state.game.sides(args["sides"])
    player.prices = tuple(
        tuple((r, min(c, args["price"]) if r in wanted else c) for r, c in prices) if seller in sides else prices
        for seller, prices in zip(state.game.sellers, player.prices))


def science(state: State, me: int, args: dict) -> None:
    """`science gear`: a symbol; `science any` one chosen at the end."""
    symbols = args["symbols"]
    state.players[me].symbols.append(state.game.symbols if ANY in symbols else tuple(symbols))


def build_free(state: State, me: int, args: dict) -> None:
    """`build card from discard free`: the player chooses a matching card there, built free; `build
    free` alone is a power of building a card of the turn free (see the flow)."""
    if args["zones"]:
        state.ask(me, "build_free", args)
    else:
        state.players[me].abilities.append(state.source)


def power(state: State, me: int, args: dict) -> None:
    """A power the flow offers when it applies: `play last card`, `ignore different / identical`."""
    state.players[me].abilities.append(state.source)


def take_top(state: State, me: int, args: dict) -> None:
    """`take top card of deck of self / central_deck`: the player chooses a deck to take from."""
    state.ask(me, "take_top", args)


def take_from(state: State, me: int, args: dict) -> None:
    """`take card from city of opponent`: the player chooses a card there; its owner becomes `chosen`
    (nobody, if there was nothing to take)."""
    state.chosen = None
    state.ask(me, "take_from", args)


def take_token(state: State, me: int, args: dict) -> None:
    """`take progress token`: the player chooses one on offer."""
    state.ask(me, "take_token", args)


def give(state: State, me: int, args: dict) -> None:
    """`give top card of central_deck to chosen [face down]`: the top card of the first zone named
    that holds one goes to the receivers' cities; face down, it waits beside the city, seen by its
    receiver only, and is placed at the start of their next turn."""
    receivers = state.seats(me, args["to"])
    if not receivers:
        return
    for place in places(state, me, args["zones"]):
        cards = cards_at(state, place)
        if not cards:
            continue
        card = cards.pop()
        if place[2] is not None and place[1] == state.game.build_zone:
            state.leave(place[2], card)
        for seat in receivers:
            if args["face_down"]:
                state.players[seat].zones.setdefault(GIVEN, []).append(card)
            else:
                state.gain_card(seat, card)
        return


def take_pawn(state: State, me: int, args: dict) -> None:
    """`take cat`: the pawn moves to the player, wherever it was."""
    state.pawns[args["pawn"]] = me


def flip(state: State, me: int, args: dict) -> None:
    """`flip 1 conflict token`: turn tokens of a kind to their other side; turning the last one
    calls a battle at the end of the turn. Flips beyond the last are lost."""
    total, flipped = state.flips.get(args["kind"], (0, 0))
    turned = min(args["count"], total - flipped)
    state.flips[args["kind"]] = (total, flipped + turned)
    if turned and flipped + turned == total:
        state.battle = True


def look(state: State, me: int, args: dict) -> None:
    """`look at top card of central_deck`: that player sees that card (while it stays on top)."""
    state.peeks |= {(me, zone, len(state.shared[zone])) for zone, _ in args["zones"] if zone in state.shared}


def extra_action(state: State, me: int, args: dict) -> None:
    """`extra action`: the player acts once more, as the flow's turns go (see each flow)."""
    state.game.flow.extra_action(state, me, args)


def nothing(state: State, me: int, args: dict) -> None:
    """Verbs that say what a piece is rather than do (`icon cat`, `at battle: keep ...`), or whose
    choice the scoring makes to the player's best (`copy`)."""


VERBS: dict[str, Handler] = {
    "gain": gain,
    "produce": produce,
    "trade": trade,
    "science": science,
    "build_free": build_free,
    "play_last": power,
    "copy": nothing,
    "icon": nothing,
    "take_top": take_top,
    "take_token": take_token,
    "take_from": take_from,
    "give": give,
    "take_pawn": take_pawn,
    "flip": flip,
    "look": look,
    "ignore": power,
    "keep": nothing,
    "extra_action": extra_action,
}


def ungain(state: State, me: int, args: dict) -> None:
    counters = state.players[me].counters
    counters[args["counter"]] = counters.get(args["counter"], 0) - args["value"]


def unproduce(state: State, me: int, args: dict) -> None:
    player = state.players[me]
    resources = state.game.resources if ANY in args["resources"] else args["resources"]
    unit = tuple(sorted(resources))
    for _ in range(args["count"] or 1):
        player.units = _without(player.units, unit)
        if not args["private"]:
            player.public = _without(player.public, unit)


def unscience(state: State, me: int, args: dict) -> None:
    symbols = state.game.symbols if ANY in args["symbols"] else tuple(args["symbols"])
    state.players[me].symbols.remove(symbols)


def _without(units: tuple, unit: tuple) -> tuple:
    i = units.index(unit)
    return units[:i] + units[i + 1:]


# What a piece gave for as long as it stayed, taken back when it leaves a city.
UNDO: dict[str, Handler] = {
    "gain": ungain,
    "produce": unproduce,
    "science": unscience,
}

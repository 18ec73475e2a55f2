"""What each verb of the effect language does to a game: one function per verb, in one registry.

A handler gets the state, the acting seat and the verb's compiled arguments; `state.source` is
the effect being run. A new verb is one function here and one entry in `VERBS`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from ..dsl.vocabulary import ANY
from .state import Decision

GIVEN = "given"  # the player zone of cards given face down, placed on the receiver's next turn

if TYPE_CHECKING:
    from .state import State


def gain(state: "State", me: int, args: dict) -> None:
    """`coins 3`: add to a counter. Points scored during play (`on build: vp 2 minus ...`) are kept
    with the colour of their piece, for the scoring's categories."""
    player = state.players[me]
    if args["counter"] == state.game.score_counter and state.source is not None:
        player.banked.append((state.source.piece.colour, args["value"]))
    player.counters[args["counter"]] = player.counters.get(args["counter"], 0) + args["value"]


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


def take_top(state: "State", me: int, args: dict) -> None:
    """`take top card of deck of self / central_deck`: the player chooses a deck to take from."""
    state.queue.append(Decision(me, "take_top", args, state.source))


def take_from(state: "State", me: int, args: dict) -> None:
    """`take card from city of opponent`: the player chooses a card there; its owner becomes `chosen`
    (nobody, if there was nothing to take)."""
    state.chosen = None
    state.queue.append(Decision(me, "take_from", args, state.source))


def give(state: "State", me: int, args: dict) -> None:
    """`give top card of central_deck to chosen face down`: the receiver holds it face down and
    places it at the start of their next turn."""
    receivers = state.seats(me, args["to"])
    for zone, owner in args["zones"] if receivers else ():
        cards = state.shared[zone] if zone in state.shared else state.players[state.seats(me, owner or "self")[0]].zones[zone]
        if not cards:
            continue
        card = cards.pop()
        for seat in receivers:
            if args["face_down"]:
                state.players[seat].zones.setdefault(GIVEN, []).append(card)
            else:
                state.game.flow.gain_card(state, seat, card)
        return


def take_token(state: "State", me: int, args: dict) -> None:
    """`take progress token`: the player chooses one on offer."""
    state.queue.append(Decision(me, "take_token", args, state.source))


def take_pawn(state: "State", me: int, args: dict) -> None:
    """`take cat`: the pawn moves to the player, wherever it was."""
    state.pawns[args["pawn"]] = me


def flip(state: "State", me: int, args: dict) -> None:
    """`flip 1 conflict token`: turn tokens of a kind to their other side; turning the last one
    calls a battle at the end of the turn. Flips beyond the last are lost."""
    total, flipped = state.flips.get(args["kind"], (0, 0))
    turned = min(args["count"], total - flipped)
    state.flips[args["kind"]] = (total, flipped + turned)
    if turned and flipped + turned == total:
        state.battle = True


def look(state: "State", me: int, args: dict) -> None:
    """`look at top card of central_deck`: that player sees that card (while it stays on top)."""
    state.peeks |= {(me, zone, len(state.shared[zone])) for zone, _ in args["zones"] if zone in state.shared}


def power(state: "State", me: int, args: dict) -> None:
    """A power the player may use when paying (`ignore different / identical`)."""
    state.players[me].abilities.append(state.source)


def check(state: "State", me: int, args: dict) -> None:
    """`check 1 box in agora / market`: the player chooses a box to check, free."""
    state.queue.append(Decision(me, "check", args, state.source))


def extra_action(state: "State", me: int, args: dict) -> None:
    """`extra action [without die cost]`: the player acts once more this round."""
    state.queue.append(Decision(me, "extra_action", args, state.source))


def unlock(state: "State", me: int, args: dict) -> None:
    """`unlock black die`: the player may pick it; the first unlock brings it into the Forum at the
    end of the round."""
    state.players[me].unlocked.add(args["die"])
    if args["die"] not in state.released:
        state.unlocking.add(args["die"])


def nothing(state: "State", me: int, args: dict) -> None:
    """Verbs that say what a piece is rather than do (`icon cat`, `at battle: keep ...`), or whose
    choice the scoring makes to the player's best (`copy`)."""


VERBS: dict[str, Callable[["State", int, dict], None]] = {
    "gain": gain,
    "produce": produce,
    "trade": trade,
    "science": science,
    "build_free": build_free,
    "play_last": play_last,
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
    "check": check,
    "extra_action": extra_action,
    "unlock": unlock,
    "discount": power,
}


def ungain(state: "State", me: int, args: dict) -> None:
    counters = state.players[me].counters
    counters[args["counter"]] = counters.get(args["counter"], 0) - args["value"]


def unproduce(state: "State", me: int, args: dict) -> None:
    player = state.players[me]
    resources = state.game.resources if ANY in args["resources"] else args["resources"]
    unit = tuple(sorted(resources))
    for _ in range(args["count"] or 1):
        player.units = _without(player.units, unit)
        if not args["private"]:
            player.public = _without(player.public, unit)


def unscience(state: "State", me: int, args: dict) -> None:
    symbols = state.game.symbols if ANY in args["symbols"] else tuple(args["symbols"])
    state.players[me].symbols.remove(symbols)


def _without(units: tuple, unit: tuple) -> tuple:
    i = units.index(unit)
    return units[:i] + units[i + 1:]


# What a piece gave for as long as it stayed, taken back when it leaves a city.
UNDO: dict[str, Callable[["State", int, dict], None]] = {
    "gain": ungain,
    "produce": unproduce,
    "science": unscience,
}

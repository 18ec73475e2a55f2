"""Battles between neighbours, as `military:` in rules.yaml describes them."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import State


def battle(state: "State") -> None:
    """Every player compares their military counter with each neighbour's: more wins victory tokens
    worth this round's value, less takes a defeat token (if the game has them), a tie gives nothing.
    With two players, `two_players` may give more tokens for `times` the opponent's strength.
    Afterwards the cards `discard_after` names leave the cities and the `flip` tokens turn back."""
    rules = state.game.rules.get("military")
    if not rules:
        return
    counter, victory, defeat = rules["counter"], rules["victory"], rules.get("defeat")
    values = victory["values"]
    won = values[min(state.round, len(values) - 1)]
    duel = rules.get("two_players") if len(state.players) == 2 else None
    strength = [state.counter(seat, counter) for seat in range(len(state.players))]
    for seat, player in enumerate(state.players):
        for other in state.seats(seat, "neighbours"):
            mine, theirs = strength[seat], strength[other]
            if mine > theirs:
                many = duel["tokens"] if duel and mine >= duel["times"] * theirs else 1
                player.tokens += [(victory["token"], won, state.battles)] * many
            elif mine < theirs and defeat:
                player.tokens.append((defeat["token"], defeat["value"], state.battles))
    state.battles += 1
    state.fire("battle", range(len(state.players)))
    _after(state, rules)


def _after(state: "State", rules: dict) -> None:
    spent = rules.get("discard_after")
    if spent:
        zone, discard = state.game.build_zone, state.game.discard_zone
        for seat, player in enumerate(state.players):
            kept = _kept(state, seat)
            for card in [c for c in player.zones[zone] if c.colour == spent["colour"] and spent["icon"] in c.icons
                         and not any(test(c) for test in kept)]:
                player.zones[zone].remove(card)
                state.leave(seat, card)
                state.shared[discard].append(card)
    kind = rules.get("flip")
    if kind in state.flips:
        state.flips[kind] = (state.flips[kind][0], 0)
    state.battle = False


def _kept(state: "State", seat: int) -> list:
    """Card tests of the seat's `at battle: keep ...` effects."""
    return [a.args["cards"] for o in state.players[seat].lasting if o.effect.trigger == "battle"
            for a in o.effect.actions if a.verb == "keep"]

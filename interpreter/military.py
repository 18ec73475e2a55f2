"""Battles between neighbours, as `military:` in rules.yaml describes them."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import State


def battle(state: "State") -> None:
    """Every player compares their military counter with each neighbour's: more wins a victory
    token worth this round's value, less takes a defeat token, a tie gives nothing."""
    rules = state.game.rules.get("military")
    if not rules:
        return
    counter = rules["counter"]
    victory, defeat = rules["victory"], rules["defeat"]
    values = victory["values"]
    won = values[min(state.round, len(values) - 1)]
    strength = [p.counters.get(counter, 0) for p in state.players]
    for seat, player in enumerate(state.players):
        for other in state.seats(seat, "neighbours"):
            if strength[seat] > strength[other]:
                player.tokens.append((victory["token"], won, state.round))
            elif strength[seat] < strength[other]:
                player.tokens.append((defeat["token"], defeat["value"], state.round))

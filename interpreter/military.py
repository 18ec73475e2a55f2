"""Battles between neighbours, as `military:` in rules.yaml describes them (see `rules.Military`)."""

from __future__ import annotations

from collections import Counter


def battle(state) -> None:
    """Every player compares their military counter with each neighbour's: more wins victory tokens
    worth this round's value, less takes a defeat token (if the game has them), a tie gives nothing.
    With two players, `two_players` may give more tokens for `times` the opponent's strength."""
    rules = state.game.rules.military
    values = rules.victory_values
    won = values[min(state.round, len(values) - 1)]
    duel = rules.duel_times if len(state.players) == 2 else None
    strength = [state.counter(seat, rules.counter) for seat in range(len(state.players))]
    for seat, player in enumerate(state.players):
        for other in state.seats(seat, "neighbours"):
            mine, theirs = strength[seat], strength[other]
            if mine > theirs:
                many = rules.duel_tokens if duel and mine >= duel * theirs else 1
                player.tokens += [(rules.victory_token, won, state.battles)] * many
            elif mine < theirs and rules.defeat_token:
                player.tokens.append((rules.defeat_token, rules.defeat_value, state.battles))
    state.battles += 1


def after(state) -> None:
    """After a battle the cards `discard_after` names leave the cities (but those an `at battle:
    keep ...` effect keeps), and the `flip` tokens turn back."""
    rules = state.game.rules.military
    if rules.discard_colour is not None:
        zone, discard = state.game.build_zone, state.game.discard_zone
        for seat, player in enumerate(state.players):
            kept = _kept(state, seat)
            for card in [c for c in player.zones[zone] if c.colour == rules.discard_colour
                         and rules.discard_icon in c.icons and not any(test(c) for test in kept)]:
                player.zones[zone].remove(card)
                state.leave(seat, card)
                state.shared[discard].append(card)
    if rules.flip in state.flips:
        state.flips[rules.flip] = (state.flips[rules.flip][0], 0)
    state.battle = False


def _kept(state, seat: int) -> list:
    """Card tests of the seat's `at battle: keep ...` effects."""
    return [a.args.cards for o in state.players[seat].waiting.get("battle", ())
            for a in o.effect.actions if a.verb == "keep"]

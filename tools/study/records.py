"""A game as `simulate` records it (what `--out` writes, one JSON line), and how it is read back:
each seat's share of the win, and the boards (wonder, side) a seat's figures are kept under.

What a player built is read from the final state, whatever the pack: the ids of the pieces in the
build zone (`flow.build_zone`: 7 Wonders' city, Architects' city, Dice's board of boxes), those in a
zone named after a component kind (Architects' progress tokens, medals) and the wonder stages built.
"""

from __future__ import annotations

from typing import Sequence

from ...interpreter.core.state import State
from ..common.text import STAGES



def record(state: State, pack: str, bots: Sequence[str], periods: Sequence[list[int]] | int = ()) -> dict:
    """What `--out` writes for one finished game: seed, seats (bot, wonder, side), scores with their
    breakdowns, winners, what each player built, the number of actions and the totals after each
    period (the final ones last; `play_game`'s, else only how many periods, `period_count`)."""
    scores = state.scores()
    game = state.game
    kinds = set(game.pack.components)
    out = {"pack": pack, "seed": state.seed,
           "seats": [_seat(state, seat, bot) for seat, bot in enumerate(bots)],
           "scores": scores,
           "winners": game.scoring.winners(state, scores),
           "built": [_built(state, seat, kinds) for seat in range(len(bots))],
           "actions": len(state.history)}
    if isinstance(periods, int):
        out["period_count"] = periods + 1
    else:
        out["periods"] = [*periods, [s["total"] for s in scores]]
    return out


def _seat(state: State, seat: int, bot: str) -> dict:
    out = {"bot": bot}
    wonder, side = state.game.flow.board(state, seat)
    out["wonder"] = wonder
    if side:
        out["side"] = side
    return out


def _built(state: State, seat: int, kinds: set[str]) -> dict:
    """Ids of the pieces in the build zone and in zones named after a component kind; stages built."""
    player = state.players[seat]
    build = state.game.build_zone
    out = {zone: sorted(p.id for p in pieces) for zone, pieces in player.zones.items()
           if pieces and (zone == build or zone in kinds)}
    if player.side is not None:  # a wonder of stages: the numbers of those built, maybe none
        out[STAGES] = sorted(i + 1 for i in player.raised) if player.raised else list(range(1, player.stages + 1))
    return out


def win_shares(rec: dict, unit: int) -> list[int]:
    """Each seat's share of the win in units of 1/unit (a win shared by k players is unit // k)."""
    winners = rec["winners"]
    share = unit // len(winners) if winners else 0
    return [share if seat in winners else 0 for seat in range(len(rec["seats"]))]


def boards(who: dict) -> list[tuple[str, str]]:
    """The tables a seat's figures go to for its board: ("wonders", id), then ("sides", "id:side")."""
    wonder = who.get("wonder")
    if wonder is None:
        return []
    return [("wonders", wonder)] + ([("sides", f"{wonder}:{who['side']}")] if "side" in who else [])

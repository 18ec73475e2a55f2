"""What bots take (issue 26, "no blind bot"): every component of a pack that a player can take, read
from what `wonderforge cards` lists, and what seeded games of a bot took of them and scored per
category, played on a few processes.

A component is taken when it ends a game in a player's city or in a zone named after its kind (as
`simulate` counts it, tools/study/records.py), a wonder stage or a board's box when built, a bonus
when checked. A board's own building (a Dice wonder) is told apart per board; a shared building's
box (the Agora's) is one component whatever the board.
"""

from __future__ import annotations

import multiprocessing
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from wonderforge.interpreter import load_game
from wonderforge.interpreter.bots.registry import play
from wonderforge.tools.authoring.entries import catalogue
from wonderforge.tools.common.text import STAGES
from wonderforge.tools.study.records import record

LEAVES = ("stage", "box")  # the parts of a component built one by one
CARDS = "cards"
WHOLE = (CARDS, "progress", "medals")  # the kinds of components taken whole (dice are rolled, not taken)
BONUSES = "bonuses"


def components(game) -> set[tuple[str, ...]]:
    """Every component a player of this game can take: (kind, id) for a card dealt at its player
    count, a progress token or a medal; (kind, id, part) for a wonder's stage (`a.1`, or `1`) or a
    board's or building's box (`wonder.1`, `symbol_a.1`); ("bonuses", number) for a bonus."""
    cat = catalogue(game.pack, game.players)
    out: set[tuple[str, ...]] = set()
    for entry in cat.entries:
        leaves = [p.label for p in entry.parts if p.label.rsplit(", ", 1)[-1].split(" ")[0] in LEAVES]
        if leaves:
            for label in leaves:
                out.add((entry.kind, entry.id, ".".join(step.split(" ", 1)[1] for step in label.split(", "))))
        elif entry.kind in WHOLE:
            out.add((entry.kind, entry.id))
    out |= {(BONUSES, str(n)) for n in range(1, len(game.rules.bonuses or ()) + 1)}
    return out


def taken(state, universe: set[tuple[str, ...]]) -> set[tuple[str, ...]]:
    """The components of `universe` that the players of a finished game took."""
    rec = record(state, "", ["-"] * len(state.players))
    out: set[tuple[str, ...]] = set()
    for seat, (who, built) in enumerate(zip(rec["seats"], rec["built"])):
        board, side = who.get("wonder"), who.get("side")
        for group, ids in built.items():
            for cid in ids:
                if group == STAGES:
                    keys = [("wonders", board, f"{side}.{cid}" if side else str(cid))]
                else:
                    keys = [(CARDS, cid), (group, cid), ("boards", board, cid),
                            ("buildings", *cid.split(".", 1))]
                out |= {k for k in keys if k in universe}
        bonuses = state.observation(seat)["players"][seat].get(BONUSES) or ()
        out |= {(BONUSES, str(n)) for n in bonuses}
    return out


_GAMES: dict = {}


def _chunk(pack: str, bot: str, players: int, seeds: range) -> tuple[Counter, Counter, int]:
    """Games of `bot` at every seat: how often each component was taken (in how many games),
    the points of each category summed over every player of every game, and the games played."""
    game = _GAMES.get((pack, players)) or _GAMES.setdefault((pack, players), load_game(pack, players=players))
    universe = components(game)
    counts, points = Counter(), Counter()
    for seed in seeds:
        state = play(game, [bot] * players, seed=seed)
        counts.update(taken(state, universe))
        for score in state.scores():
            points.update(score["breakdown"])
    return counts, points, len(seeds)


def study(pack: str, bot: str, games: int, players: int = 4, workers: int = 2) -> tuple[Counter, dict[str, float]]:
    """`games` seeded games (seeds 0..games-1) of `bot` at every seat, on `workers` processes: in
    how many games each component was taken, and each category's mean points a player."""
    size = max(1, games // (4 * workers))
    parts = [range(s, min(s + size, games)) for s in range(0, games, size)]
    counts, points, played = Counter(), Counter(), 0
    if workers <= 1:
        results = [_chunk(pack, bot, players, part) for part in parts]
    else:
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
            results = list(pool.map(_chunk, *zip(*[(pack, bot, players, part) for part in parts])))
    for c, p, n in results:
        counts.update(c)
        points.update(p)
        played += n
    return counts, {name: total / (played * players) for name, total in points.items()}

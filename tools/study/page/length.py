"""The section of game length and periods: games by their actions and periods, the mean score after
each period of the final winners and the others, and how often the final winner led.
"""

from __future__ import annotations

from ..quality import reached
from .charts import A_COLOUR, B_COLOUR, histogram_spec, leader_spec, period_score_spec, side_by_side
from .markup import Charts
from .overview import course_sample
from .packs import Run, pack_labels, per_pack


def length_section(charts: Charts, runs: list[Run]) -> str:
    """The section of game length and periods."""
    packs = pack_labels(runs)

    def counts(key: str) -> list[dict]:
        return per_pack(runs, lambda s: [{"value": v, "count": c}
                                         for v, c in (s.get("histograms") or {}).get(key) or [] if c])

    if packs:  # the two packs' curves one above the other, on the same axes
        scores = side_by_side([period_score_spec(reached(r.s), colour)
                               for r, colour in zip(runs, (A_COLOUR, B_COLOUR))], packs, "vconcat")
    else:
        scores = period_score_spec(reached(runs[0].s))
    out = [charts.figure("actions", histogram_spec(counts("actions"), "actions in a game", True, packs),
                         "Games by their number of actions (every seat's moves and decisions)."),
           charts.figure("periods", histogram_spec(counts("periods"), "periods in a game", False, packs),
                         "Games by the number of periods (ages, rounds) they lasted."),
           charts.figure("period-scores", scores,
                         "Mean score after each period of the players who won in the end, of the others and "
                         "of all: lines apart early mean the winner was clear early. (The periods that at least "
                         "half of the games reached: later ones hold too few games to read.)")]
    out.append(charts.figure("period-leaders", leader_spec(per_pack(runs, _leader_rows), packs),
                             "Share of games whose final winner led (or shared the lead) after each period "
                             "that at least half of the games reached."))
    return ('<p class="lead">How long games last and when they are decided: a winner who leads from the first '
            f'period leaves the others little to play for. {course_sample([r.s for r in runs])}</p>' + "".join(out))


def _leader_rows(s: dict) -> list[dict]:
    return [{"period": p["period"], "share": p["leader_won"], "games": p["games"]}
            for p in reached(s) if p.get("leader_won") is not None]

"""The sections of where the points come from: the scoring categories (with the heat map of wonders
by categories) and the components, drawn by how often they are taken and how often their takers
win, with the table of them all.
"""

from __future__ import annotations

import math

from ....dsl.diagnostics import safe
from ...common.text import ci_pct
from .charts import category_spec, component_spec, heatmap_spec, side_by_side
from ..summary import component_label as component_name  # a wonder stage by its number, `stage 2`
from .overview import never_taken
from .markup import Charts, esc, fig, interval, number_cell, p_value, pct, rate_move, sortable_table, text_cell
from .packs import Run, pack_labels, per_pack, with_moves
from .winners import tally_rows

LABELLED = 5               # components labelled at each end of the scatter: the rest by tooltip only


# ---- scoring categories ------------------------------------------------------------------------


def categories_section(charts: Charts, runs: list[Run], moves: dict) -> str:
    """The section of scoring categories: mean points per category, and per wonder in a heat map."""
    packs = pack_labels(runs)
    rows = per_pack(runs, lambda s: [{"category": safe(k), "mean": c["mean"], "lo": c["ci"][0], "hi": c["ci"][1]}
                                     for k, c in s["categories"].items()
                                     if c.get("mean") is not None and c.get("ci")])
    if packs:
        rows = with_moves(rows, moves.get("categories"), None, "category")
    out = [charts.figure("categories", category_spec(rows, packs),
                         "Mean points per player in each category, in the pack's order, with the 95% interval.")]
    out.append(charts.figure("heatmap", _heatmaps(runs),
                             "Mean points per player of each wonder (rows, best win rate first) in each category "
                             "(columns): where each wonder gets its points."))
    return ('<p class="lead">Where the points come from: a category far above the others decides games, '
            'and a wonder\'s row shows the strategy it pushes.</p>' + "".join(out))


def _heatmaps(runs: list[Run]) -> dict | None:
    """The heat map of wonders by categories; with two packs, A's and B's side by side, on one colour
    scale and the same rows and columns."""
    wonders = list(dict.fromkeys(name for r in runs for name in _wonder_order(r.s)))
    categories = list(dict.fromkeys(c for r in runs for c in r.s["categories"]))
    if len(runs) == 1:
        return heatmap_spec(_heat_rows(runs[0].s), categories, wonders)
    rows = [_heat_rows(r.s) for r in runs]
    top = max((row["points"] for pack in rows for row in pack), default=0)
    size = {"width": 48 * len(categories), "height": 24 * len(wonders)}  # shared scales take no step sizes
    return side_by_side([spec and spec | size for spec in (heatmap_spec(pack, categories, wonders, top)
                                                           for pack in rows)], pack_labels(runs))


def _wonder_order(s: dict) -> list[str]:
    return [r["name"] for r in tally_rows(s["wonders"].items(), s["players"])]


def _heat_rows(s: dict) -> list[dict]:
    return [{"wonder": safe(w), "category": safe(c), "points": p}
            for w, cats in (s.get("wonder_categories") or {}).items() for c, p in cats.items()
            if isinstance(p, (int, float)) and math.isfinite(p)]


# ---- components --------------------------------------------------------------------------------


def components_section(charts: Charts, runs: list[Run], moves: dict) -> str:
    """The section of components: the scatter of take rate against win rate, and the table of all."""
    players, packs = runs[0].s["players"], pack_labels(runs)
    rows = [_component_rows(r.s) for r in runs]
    drawn = [[row | {"pack": r.label} if r.label else row for row in pack if row["win"] is not None]
             for r, pack in zip(runs, rows)]
    if packs:  # a chart each, in its pack's colour, on the same axes and legend of shapes; one table of both
        groups = sorted({row["group"] for pack in drawn for row in pack})
        spec = side_by_side([component_spec(pack, players, groups, 440, 380, packs) for pack in drawn], packs)
        table = _component_pairs_table(rows, moves)
    else:
        spec, table = component_spec(drawn[0], players), _component_table(rows[0])
    out = [charts.figure("components", spec,
                         f"One dot per component, placed by how often it was taken (across) and how often its "
                         f"takers won (up); the dashed line is the even share. Above it and to the right: a "
                         f"popular winner; high and to the left: strong but overlooked. The {LABELLED} clearest "
                         f"above and below are named (by their 95% intervals); hover a dot for its figures."),
           table]
    warnings = "".join(never_taken(r.s, bool(packs)) for r in runs if r.s.get("never_taken_warning"))
    return ('<p class="lead">Which cards and components go with winning: a component whose takers win far '
            'above the even share, often, is a candidate to tone down.</p>' + warnings + "".join(out))


def _component_rows(s: dict) -> list[dict]:
    rows = []
    for group, table in s["components"].items():
        for cid, c in table.items():
            win, win_not = c.get("win_rate_taken"), c.get("win_rate_not_taken")
            rows.append({"group": safe(group), "id": safe(component_name(group, cid)), "taken": c["taken"],
                         "rate": c["taken_rate"], "win": win, "win_not": win_not,
                         "lift": None if win is None or win_not is None else round(win - win_not, 6),
                         "copies": c.get("mean_copies"), "score": c.get("mean_score_taken"),
                         "score_not": c.get("mean_score_not_taken"), "seed": c.get("example_seed"),
                         "rate_ci": c.get("taken_rate_ci"), "win_ci": c.get("win_rate_taken_ci"),
                         "win_interval": interval(c.get("win_rate_taken_ci"))})
    _name_extremes(rows)
    return rows


def _name_extremes(rows: list[dict]) -> None:
    """Mark the components the scatter names: the LABELLED whose takers' win rate has the highest lower
    bound, and the LABELLED with the lowest upper bound (so that one taken twice and won twice does not
    crowd out one taken often), passing over one whose label would sit on a label already placed."""
    drawn = [r for r in rows if r["win"] is not None and r["win_ci"]]
    placed: list[dict] = []
    for rank in (lambda r: -r["win_ci"][0], lambda r: r["win_ci"][1]):
        count = 0
        for r in sorted(drawn, key=lambda r: (rank(r), r["id"])):
            if count == LABELLED:
                break
            if r.get("extreme") or any(abs(r["rate"] - p["rate"]) < 0.08 and abs(r["win"] - p["win"]) < 0.03
                                       for p in placed):
                continue
            r["extreme"] = True
            placed.append(r)
            count += 1


def _component_table(rows: list[dict]) -> str:
    copies = any((r["copies"] or 0) > 1 for r in rows)  # a column of copies only where some hold several
    heads = [("group", "text"), ("component", "text"), ("taken", "num"), ("take rate", "num"),
             *([("copies", "num")] * copies), ("win if taken", "num"), ("win if not", "num"), ("difference, points of win rate", "num"),
             ("score if taken", "num"), ("if not", "num"),
             ("seed", "num")]
    ordered = sorted(rows, key=lambda r: (r["lift"] is None, -(r["lift"] or 0), r["group"], r["id"]))
    body = [[text_cell(r["group"]), text_cell(r["id"]), number_cell(r["taken"], f"{r['taken']:,}"),
             number_cell(r["rate"], pct(r["rate"])), *([number_cell(r["copies"], fig(r["copies"]))] * copies),
             _win_cell(r),
             number_cell(r["win_not"], pct(r["win_not"])), number_cell(r["lift"], rate_move(r["lift"])),
             number_cell(r["score"], fig(r["score"])), number_cell(r["score_not"], fig(r["score_not"])),
             number_cell(r["seed"], esc(r["seed"] if r["seed"] is not None else "—"))] for r in ordered]
    return ('<p class="note">Every component: click a column\'s header to sort by it (again to reverse). '
            'Brackets hold a 95% interval; "difference" is the win rate if taken minus if not, in points of '
            'win rate (percentage points).</p>'
            + sortable_table(heads, body, "components-table"))


def _win_cell(r: dict) -> str:
    """The takers' win rate of a component's row, with its interval ("—" when the row has none)."""
    return number_cell(r.get("win"), f'{pct(r.get("win"))} <span class="ci">{ci_pct(r.get("win_ci"), 0)}</span>')


def _component_pairs_table(rows: list[list[dict]], moves: dict) -> str:
    """Every component of either pack: its take rate, its takers' win rate and how much more they win
    than the others in A and in B, and the q-values of the moves; the clearest moves first."""
    packs = [{(r["group"], r["id"]): r for r in pack} for pack in rows]
    tested = {(safe(group), safe(component_name(group, cid))): m
              for group, table in (moves.get("components") or {}).items() for cid, m in table.items()}

    def move(key, figure: str) -> dict:
        return (tested.get(key) or {}).get(figure) or {}

    def clearest(key) -> tuple:
        qs = [m["q"] for f in ("taken_rate", "win_rate_taken") if (m := move(key, f)).get("q") is not None]
        return (not qs, min(qs, default=0), key)

    heads = [("group", "text"), ("component", "text"), ("take rate, A", "num"), ("B", "num"), ("q", "num"),
             ("win if taken, A", "num"), ("B", "num"), ("q", "num"), ("difference, A (points of win rate)", "num"), ("B", "num")]
    body = []
    for key in sorted(dict.fromkeys(k for pack in packs for k in pack), key=clearest):
        a, b = (pack.get(key) or {} for pack in packs)
        body.append([text_cell(key[0]), text_cell(key[1]),
                     *(number_cell(r.get("rate"), pct(r.get("rate"))) for r in (a, b)),
                     _q_cell(move(key, "taken_rate")), _win_cell(a), _win_cell(b), _q_cell(move(key, "win_rate_taken")),
                     *(number_cell(r.get("lift"), rate_move(r.get("lift"))) for r in (a, b))])
    return ('<p class="note">Every component of either pack, with its figures in A and in B, the clearest moves '
            'first: q is the q-value of the move from A to B, in bold when it is significant; "difference" is the '
            'win rate if taken minus if not, in points of win rate (percentage points); "—", not in that pack\'s summary. Click a '
            'header to sort.</p>' + sortable_table(heads, body, "components-table"))


def _q_cell(m: dict) -> str:
    """A move's q-value, marked when the move is significant."""
    return number_cell(m.get("q"), p_value(m.get("q")), "yes" if m.get("significant") else "")

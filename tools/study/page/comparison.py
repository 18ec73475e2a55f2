"""The sections of two packs compared: what moved from pack A to pack B over the same seeds (the
wonders' win rates side by side, the significant moves, the table of every test) and what B
changes, field by field, as `wonderforge diff` lists it.
"""

from __future__ import annotations

import json
from typing import Iterable

from ....dsl.diagnostics import safe
from .charts import dumbbell_spec, move_spec
from .markup import Charts, count, esc, fig, number_cell, p_value, pct, plural, rate_move, signed, sortable_table, text_cell
from .packs import Run, pack_labels
from .scoring import component_name

MOVES_DRAWN = 40           # significant moves drawn at most (the table lists them all)
VALUE_CHARS = 160          # characters of a diff's value shown


# ---- A against B -------------------------------------------------------------------------------


def comparison_section(charts: Charts, runs: list[Run], moves: dict) -> str:
    """The section of A against B: the wonders' win rates in both, the significant moves, every test."""
    (a, b), labels = (r.s for r in runs), pack_labels(runs)
    out = [f'<p>{esc(moves.get("method") or "")}</p>' if moves.get("method") else "",
           f'<p><b>{esc(moves.get("flagged", 0))}</b> of {esc(moves.get("tests", 0))} tests flagged at a false '
           f'discovery rate of {pct(moves.get("fdr"), 0)}.</p>' if "tests" in moves else "",
           charts.figure("ab-wonders", dumbbell_spec(_dumbbell_rows(a, b, moves), labels, a["players"]),
                         "Win rate of each wonder in pack A and in pack B, joined by a line; a star marks a "
                         "significant move. The dashed line is the even share.")]
    rows = list(_move_rows(moves))
    significant = sorted((r for r in rows if r["significant"]), key=lambda r: (r["q"] is None, r["q"] or 0))
    for unit, title in (("rate", "rates (in points of the rate: +5% is 5 points more)"), ("points", "score points")):
        # a bar needs both figures: a component missing from one summary is in the table only
        drawn = [r for r in significant if r["unit"] == unit and r["delta"] is not None][:MOVES_DRAWN]
        if drawn:
            out.append(charts.figure(f"moves-{unit}", move_spec(drawn, unit),
                                     f"The significant moves in {title} (at most {MOVES_DRAWN}, smallest q first), "
                                     f"B minus A: to the right, B is higher."))
    if not significant and rows:
        out.append("<p>No move is significant: with these games, B cannot be told apart from A.</p>")
    out.append(_moves_table(rows))
    return ('<p class="lead">What moved from pack A to pack B over the same seeds: a move counts when its '
            'q-value (its p-value adjusted for the many tests) is below the false discovery rate.</p>'
            + "".join(out))


def _dumbbell_rows(a: dict, b: dict, moves: dict) -> list[dict]:
    """A row per wonder of either pack, A's best first: both win rates, and a star for a significant move."""
    def rate(s: dict, name: str):
        return (s["wonders"].get(name) or {}).get("win_rate")

    names = sorted(set(a["wonders"]) | set(b["wonders"]), key=lambda k: (-(rate(a, k) or rate(b, k) or 0), k))
    rows = []
    for name in names:
        ra, rb = rate(a, name), rate(b, name)
        move = ((moves.get("wonders") or {}).get(name) or {}).get("win_rate") or {}
        rows.append({"name": safe(name), "a": ra, "b": rb, "star": "*" if move.get("significant") else "",
                     "q": move.get("q"), "end": max(x for x in (ra, rb, 0) if x is not None)})
    return rows


def _move_rows(moves: dict) -> Iterable[dict]:
    """Every move, flat: what it is about (kind, id, figure), its unit, and its figures."""
    def row(kind: str, name: str, figure: str, unit: str, m: dict) -> dict:
        return {"kind": kind, "name": safe(name), "figure": figure, "unit": unit,
                "label": f"{safe(name)} · {figure}" if name else figure, **m}

    if moves.get("mean_score"):
        yield row("overall", "", "mean score", "points", moves["mean_score"])
    for key, kind in (("wonders", "wonder"), ("sides", "side")):
        for name, m in (moves.get(key) or {}).items():
            yield row(kind, name, "win rate", "rate", m["win_rate"])
            yield row(kind, name, "mean score", "points", m["mean_score"])
    for name, m in (moves.get("categories") or {}).items():
        yield row("category", name, "mean points", "points", m)
    for group, table in (moves.get("components") or {}).items():
        for cid, m in table.items():
            name = component_name(group, cid)
            yield row(f"{group}", name, "take rate", "rate", m["taken_rate"])
            yield row(f"{group}", name, "win rate if taken", "rate", m["win_rate_taken"])


def _moves_table(rows: list[dict]) -> str:
    heads = [("about", "text"), ("figure", "text"), ("A", "num"), ("B", "num"), ("B − A: points of a rate, or of score", "num"), ("p", "num"),
             ("q", "num"), ("significant", "text"), ("pairs", "num"), ("games needed, paired", "num"),
             ("unpaired", "num")]
    ordered = sorted(rows, key=lambda r: (r["q"] is None, r["q"] if r["q"] is not None else 0,
                                          r["p"] if r["p"] is not None else 1))
    body = []
    for r in ordered:
        show = pct if r["unit"] == "rate" else fig
        delta = rate_move(r["delta"]) if r["unit"] == "rate" else signed(r["delta"])
        body.append([text_cell(f"{r['kind']}: {r['name']}" if r["name"] else r["kind"]), text_cell(r["figure"]),
                     number_cell(r["a"], show(r["a"])), number_cell(r["b"], show(r["b"])),
                     number_cell(r["delta"], delta),
                     number_cell(r["p"], p_value(r["p"])), number_cell(r.get("q"), p_value(r.get("q"))),
                     f'<td class="{"yes" if r["significant"] else ""}">{"yes" if r["significant"] else ""}</td>',
                     number_cell(r.get("pairs"), esc(r.get("pairs", "—"))),
                     number_cell(r.get("games_needed"), count(r.get("games_needed"))),
                     number_cell(r.get("games_needed_unpaired"), count(r.get("games_needed_unpaired")))])
    return ('<p class="note">Every test, smallest q first: click a header to sort. "Games needed" is how many '
            'games a new run needs to confirm the move (80% power), playing both packs on the same seeds '
            '(paired) or on independent ones.</p>' + sortable_table(heads, body, "moves-table"))


# ---- what B adds or changes, as played ---------------------------------------------------------


def changed_section(moves: dict) -> str:
    """The section of what B adds or changes, first: each piece as the bots played it in B (its take
    rate, in A too for a changed one; its takers' win rate and score against the others'), and the
    warning of those (almost) never taken, whose figures say nothing."""
    rows = moves.get("changed") or []
    lead = ('<p class="lead">The components pack B adds or changes, as these bots played them in B: how often each '
            'was taken, how often its takers won and what they scored, against the other players. A figure says '
            'only what it stands on: a component the bots (almost) never took has none to show.</p>')
    if not rows:
        return lead + "<p>B adds or changes no component that a player takes.</p>"
    warning = (f'<p class="warning" id="changed-warning"><b>Warning:</b> {esc(moves["changed_warning"])}. Play '
               f'them with other bots (<code>--bots</code>) before reading anything into them.</p>'
               if moves.get("changed_warning") else "")
    heads = [("component", "text"), ("", "text"), ("taken, A", "num"), ("B", "num"), ("times in B", "num"),
             ("win if taken", "num"), ("if not", "num"), ("score if taken", "num"), ("if not", "num")]
    body = []
    for c in rows:
        name = text_cell(f"{c['group']}: {component_name(c['group'], c['id'])}")
        if c["group"] == "wonders":  # a wonder is dealt, not taken: its win rate and mean score
            body.append([name, text_cell(c["status"]), text_cell("dealt"), text_cell(""),
                         number_cell(c.get("games"), count(c.get("games"))),
                         number_cell(c.get("win_rate"), pct(c.get("win_rate"))), text_cell(""),
                         number_cell(c.get("mean_score"), fig(c.get("mean_score"))), text_cell("")])
            continue
        a = ((c.get("moves") or {}).get("taken_rate") or {}).get("a") if c["status"] == "changed" else None
        cls = "yes" if c.get("untaken") else ""
        body.append([name, text_cell(c["status"]), number_cell(a, pct(a)),
                     number_cell(c["taken_rate"], pct(c["taken_rate"]), cls),
                     number_cell(c["taken"], count(c["taken"]), cls),
                     *(number_cell(c[f], pct(c[f])) for f in ("win_rate_taken", "win_rate_not_taken")),
                     *(number_cell(c[f], fig(c[f])) for f in ("mean_score_taken", "mean_score_not_taken"))])
    below = moves.get("rarely_below")
    note = (f'<p class="note">Almost never: taken fewer than {esc(below)} times (5 times, or 1% of the games when '
            f'that is more). "If not": the other players of the same games.</p>' if below else "")
    return lead + warning + sortable_table(heads, body, "changed-table") + note


# ---- what B changes ----------------------------------------------------------------------------


def diff_section(diff: dict | None) -> str:
    """The section of what B changes: the pack diff, as a list."""
    lead = ('<p class="lead">What pack B changes from pack A, field by field, as <code>wonderforge diff</code> '
            'lists it.</p>')
    if not diff:
        return lead + "<p>No diff was given.</p>"
    items = [f"<li>{_change(c)}</li>" for c in diff.get("changes", [])]
    head = (f"<p>{esc(diff['a'].get('id', ''))} {esc(diff['a'].get('version', ''))} → {esc(diff['b'].get('id', ''))} "
            f"{esc(diff['b'].get('version', ''))}: {plural(diff.get('differences', len(items)), 'difference')}.</p>"
            if diff.get("a") and diff.get("b") else "")
    more = f"<p>… and {esc(diff['omitted'])} more not listed.</p>" if diff.get("omitted") else ""
    body = f'<ul class="diff">{"".join(items)}</ul>' if items else "<p>The two packs hold the same data.</p>"
    return lead + head + body + more


def _change(c: dict) -> str:
    where = " ".join(esc(x) for x in (c.get("section"), c.get("id")) if x is not None)
    status = esc(c.get("status", ""))
    if c.get("field") is None and c.get("section") != "rules.yaml":
        name = f" ({esc(c['name'])})" if c.get("name") else ""
        return f'<span class="st {status}">{status}</span> <code>{where}</code>{name}'
    values = [_value(c[k]) for k in ("before", "after") if k in c]
    return (f'<span class="st {status}">{status}</span> <code>{where} {esc(c.get("field") or "")}</code>: '
            + " → ".join(f"<code>{v}</code>" for v in values))


def _value(v) -> str:
    text = v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)
    return esc(text if len(text) <= VALUE_CHARS else text[:VALUE_CHARS] + "…")

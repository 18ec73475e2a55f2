"""A study's summaries as a person or a spreadsheet reads them: one pack's summary as text
(`render`, with its quality in `render_quality`), what moved from pack A to pack B (`render_moves`),
and every table as one long CSV of figures (`render_csv`). Each reads the summaries' JSON data
(summary.py, and paired.py's moves); what comes from a pack is escaped.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from ...dsl.diagnostics import safe, safe_lines
from ..common.text import STAGES, ci_pct as _ci_pct, fig as _fig, option_text as _option_text, pct as _pct
from . import csvout
from .quality import COURSE_FIGURES, reached
from .summary import component_order


# ---- the summary, as text ----------------------------------------------------------------------


def _ci(ci, digits: int = 2) -> str:
    return "" if ci is None else f"[{ci[0]:.{digits}f}, {ci[1]:.{digits}f}]"


def _wins(x) -> str:
    return str(x) if isinstance(x, int) else f"{x:.2f}"


def table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    """Columns aligned: the first to the left, the others to the right; cells escaped (`safe`), as
    ids and names come from the pack."""
    rows = [list(header), *([safe(c) for c in r] for r in rows)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    return ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip()
            for r in rows]


def render(s: dict) -> str:
    """The summary of one pack's simulation, as text (what comes from the pack escaped)."""
    lines = []
    options = ", ".join(f"{k}={_option_text(v)}" for k, v in s["options"].items())
    version = " ".join(f"{p['id']} {p['version']}" for p in s["packs"])
    folder = f" from {s['folder']}" if s.get("folder") else ""
    lines.append(f"{s['pack']} ({version}){folder}: {s['games']} games of {s['players']} players, seeds {s['seeds'][0]}"
                 f"-{s['seeds'][1]}, bots {', '.join(seat['bot'] for seat in s['seats'])}"
                 + (f"; options {options}" if options else "")
                 + (f"; wonders assigned {', '.join(s['wonders_assigned'])}" if s.get("wonders_assigned") else ""))
    if "run" in s:
        r = s["run"]
        lines.append(f"played in {r['seconds']:.1f}s, {r['games_per_second']:.1f} games/s on "
                     f"{r['workers']}{' Ray' * (r.get('backend') == 'ray')} worker{'s' * (r['workers'] != 1)}")
    if "unfinished" in s:
        u = s["unfinished"]
        lines.append(f"WARNING: {u['games']} games did not end and are left out (seeds "
                     f"{', '.join(map(str, u['seeds']))}{'...' if u['games'] > len(u['seeds']) else ''}): {u['reason']}")
    if not s["games"]:
        return "\n".join(lines)
    lines.append(f"mean score per player {_fig(s['mean_score'])} {_ci(s['mean_score_ci'])}; "
                 f"shared wins in {_pct(s['shared_wins'] / s['games'])} of games; "
                 f"{_fig(s['mean_actions'], 1)} actions per game")
    lines.append(f"Intervals are 95% confidence intervals; a win shared by k players counts 1/k; with "
                 f"{s['players']} players an even share of wins is {_pct(1 / s['players'])}.")
    if s.get("never_taken_warning"):
        lines.append(f"WARNING: {s['never_taken_warning']}.")
    lines.extend(render_quality(s))

    def tallies(title: str, items, stages: bool) -> None:
        header = [title, "games", "wins", "win rate", "95% CI", "mean score", "95% CI"] + (["stages"] * stages)
        rows = [[k, t["games"], _wins(t["wins"]), _pct(t["win_rate"]), _ci_pct(t["win_rate_ci"]),
                 _fig(t["mean_score"]), _ci(t["mean_score_ci"])] + ([_fig(t.get("mean_stages"))] * stages)
                for k, t in items]
        lines.extend(["", *table(header, rows)])

    by_rate = lambda kv: (-(kv[1]["win_rate"] or 0), kv[0])  # noqa: E731
    stages = any("mean_stages" in t for t in s["wonders"].values())
    tallies("wonder", sorted(s["wonders"].items(), key=by_rate), stages)
    if "sides" in s:
        tallies("side", sorted(s["sides"].items(), key=by_rate), stages)
    tallies("seat", [(f"{i} ({t['bot']})", t) for i, t in enumerate(s["seats"])], False)
    if len(s["bots"]) > 1:
        tallies("bot", sorted(s["bots"].items(), key=by_rate), False)
    lines.extend(["", *table(["category", "mean score", "95% CI"],
                             [[k, _fig(c["mean"]), _ci(c["ci"])] for k, c in s["categories"].items()])])
    for group, items in s["components"].items():
        name = "stage" if group == STAGES else group
        what = ("how often each stage was built, and the win rate of the players who built it" if group == STAGES else
                "how often each was taken (held at the end), and the win rate of the players who took it")
        lines.extend(["", f"{group}: {what} against the others', by the difference"])
        rows = sorted(items.items(), key=lambda kv: (-_lift(kv[1]), component_order(kv)))
        copies = any((c["mean_copies"] or 0) > 1 for _, c in rows)
        header = [name, "taken", "95% CI"] + (["copies"] * copies) + ["win if taken", "95% CI", "if not", "95% CI",
                                                                       "score if taken", "if not"]
        lines.extend(table(header, [[cid, _pct(c["taken_rate"]), _ci_pct(c["taken_rate_ci"])]
                                    + ([_fig(c["mean_copies"])] * copies)
                                    + [_pct(c["win_rate_taken"]), _ci_pct(c["win_rate_taken_ci"]),
                                       _pct(c["win_rate_not_taken"]), _ci_pct(c["win_rate_not_taken_ci"]),
                                       _fig(c["mean_score_taken"]), _fig(c["mean_score_not_taken"])]
                                    for cid, c in rows]))
    return safe_lines("\n".join(lines))


SHOWN_PERIODS = 12  # periods the text lists one by one (Architects and Dice play twenty or more rounds)


def render_quality(s: dict) -> list[str]:
    """The quality of the game (docs/balance.md), as text lines."""
    q = s["quality"]
    first = q["first_seat_advantage"]
    parts = [f"balance {_fig(q['balance_wonders'])} between wonders, {_fig(q['balance_seats'])} between seats",
             f"first seat {'-' if first is None else f'{100 * first:+.1f}'} points of win rate {_ci_pct(q['first_seat_advantage_ci'])}".rstrip(),
             f"{_fig(q['lead_changes'])} lead changes per game",
             f"the winner led for good from {_pct(q['decided_from'])} of the game on",
             f"{_fig(q['mean_periods'], 1)} periods per game"]
    if q["skill_gap"] is not None:
        strongest, weakest = q["skill_gap_bots"]
        parts.append(f"skill gap {100 * q['skill_gap']:+.1f} points of win rate ({strongest} over {weakest})")
    periods = reached(s)
    led = ", ".join(_pct(p["leader_won"]) for p in periods[:SHOWN_PERIODS]) + (", ..." if len(periods) > SHOWN_PERIODS else "")
    sampled = q["course_games"] < s["games"]
    return [f"quality: {'; '.join(parts)}",
            f"the final winner was leading after period 1, 2...: {led or '-'}"
            + (f" (of the {len(periods)} periods half the games reached)" if len(periods) > SHOWN_PERIODS else "")
            + (f"; {COURSE_FIGURES} from the {q['course_games']} of the {s['games']} games scored after each period"
               if sampled else "")]


def _lift(c: dict) -> float:
    if c["win_rate_taken"] is None or c["win_rate_not_taken"] is None:
        return -1.0
    return c["win_rate_taken"] - c["win_rate_not_taken"]


def render_moves(a: dict, b: dict, moves: dict) -> str:
    """What moved from pack A to pack B, as text: each figure in A and B, its move and its q-value,
    flagged moves marked `*`, then the games a paired run and two independent runs would need to
    confirm each flagged move; what comes from the packs escaped."""
    lines = [*render_changed(moves),
             f"A = {a['pack']}, B = {b['pack']}: the same {a['games'] + a.get('unfinished', {}).get('games', 0)} "
             f"seeds, {a['players']} players. Each figure is compared seed by seed: {moves['method']}. "
             f"q is the p-value so adjusted; moves marked * have q < {moves['fdr']}. A move of a win or take "
             f"rate (Δ win, Δ taken) is in points of that rate (percentage points); of a score, in points."]

    def fig(m: dict, pct: bool) -> list[str]:
        show = _pct if pct else _fig
        delta = m["delta"]
        sign = "" if delta is None else ("+" if delta >= 0 else "-")
        d = "-" if delta is None else (f"{sign}{100 * abs(delta):.1f}" if pct else f"{sign}{abs(delta):.2f}")
        q = "-" if m["q"] is None else "<1e-16" if m["q"] < 1e-16 else f"{m['q']:.3g}"
        return [show(m["a"]), show(m["b"]), d, q, "*" if m["significant"] else ""]

    flagged: list[tuple[str, dict]] = []

    def note(name: str, *ms: tuple[str, dict]) -> None:
        flagged.extend((f"{name} {what}".strip(), m) for what, m in ms if m["significant"])

    m = moves["mean_score"]
    note("mean score per player", ("", m))
    lines.append(f"mean score per player: {_fig(m['a'])} -> {_fig(m['b'])} ({fig(m, False)[2]}), "
                 f"q = {fig(m, False)[3]} {'*' if m['significant'] else ''}".rstrip())
    for key, title in (("wonders", "wonder"), ("sides", "side")):
        if key not in moves:
            continue
        rows = []
        for k, mv in moves[key].items():
            note(k, ("win rate", mv["win_rate"]), ("mean score", mv["mean_score"]))
            rows.append([k, *fig(mv["win_rate"], True), *fig(mv["mean_score"], False)])
        lines.extend(["", *table([title, "win A", "win B", "Δ win", "q", "", "score A", "score B", "Δ score", "q", ""], rows)])
    rows = []
    for k, mv in moves["categories"].items():
        note(f"category {k}", ("", mv))
        rows.append([k, *fig(mv, False)])
    lines.extend(["", *table(["category", "mean A", "mean B", "Δ", "q", ""], rows)])
    rows = []
    for group, items in moves["components"].items():
        for cid, mv in items.items():
            taken, won = mv["taken_rate"], mv["win_rate_taken"]
            note(f"{group}: {cid}", ("take rate", taken), ("takers' win rate", won))
            if "only_in" not in taken and (taken["significant"] or won["significant"]
                                           or None in (taken["a"], taken["b"]) or 0 in (taken["a"], taken["b"])):
                rows.append([f"{group}: {cid}", *fig(taken, True), *fig(won, True)])
    lines.append("")
    if rows:
        lines.append("components of both packs whose take rate or winners' rate moved significantly, or taken in "
                     "one pack only:")
        lines.extend(table(["component", "taken A", "taken B", "Δ taken", "q", "", "win A", "win B", "Δ win", "q", ""],
                           rows))
    else:
        lines.append("no component's take rate or win rate moved significantly.")
    lines.append("")
    lines.append(f"{moves['flagged']} of {moves['tests']} tests flagged; among moves so flagged, about "
                 f"{moves['fdr']:.0%} or fewer are expected to be chance.")
    if flagged:
        lines.extend(["", "games to confirm each flagged move (80% power at the 5% level): a paired run as this one, "
                          "and two independent runs",
                      *table(["move", "paired", "independent"],
                             [[name, _count_text(m["games_needed"]), _count_text(m["games_needed_unpaired"])]
                              for name, m in flagged])])
    return safe_lines("\n".join(lines))


def render_changed(moves: dict) -> list[str]:
    """What B adds or changes, first: each piece as B's bots played it (its take rate in A and B,
    its takers' win rate and score against the others'), and the warning of those (almost) never
    taken; nothing when B adds or changes no component."""
    rows = []
    for c in moves.get("changed", []):
        name = f"{c['group']}: {c['id']}"
        if c["group"] == "wonders":  # dealt, not taken: the games it was dealt in, its win rate and mean score
            rows.append([name, c["status"], "dealt", "", f"{c.get('games') or 0:,}", _pct(c.get("win_rate")), "",
                         _fig(c.get("mean_score")), ""])
            continue
        taken = (c.get("moves") or {}).get("taken_rate") or {}
        rows.append([name, c["status"], _pct(taken.get("a")) if c["status"] == "changed" else "-",
                     _pct(c["taken_rate"]), f"{c['taken']:,}", _pct(c["win_rate_taken"]), _pct(c["win_rate_not_taken"]),
                     _fig(c["mean_score_taken"]), _fig(c["mean_score_not_taken"])])
    if not rows:
        return []
    out = ["What B adds or changes, as these bots played it in B: how often each was taken (in A too, for a changed "
           "one), how often its takers won, and their mean score, against the other players'",
           *table(["component", "", "taken A", "taken B", "times", "win if taken", "if not", "score if taken",
                   "if not"], rows)]
    if moves.get("changed_warning"):
        out.append(f"WARNING: {moves['changed_warning']}.")
    return out + [""]


def _count_text(n: int | None) -> str:
    return "-" if n is None else f"{n:,}"


# ---- the summary, as CSV ----------------------------------------------------------------------

OVERALL = ("games", "players", "mean_score", "mean_score_ci", "shared_wins", "mean_actions")


def render_csv(first: dict, second: dict | None = None, moves: dict | None = None) -> str:
    """The summaries (and the moves of `--against`) as one long CSV of figures (csvout.SUMMARY_HEADER),
    read from their JSON data, never worked out again: every number is the JSON's."""
    rows = [*_summary_rows(first), *(_summary_rows(second) if second is not None else ())]
    if moves is not None:
        pair = f"{first['pack']} -> {second['pack']}"  # a move's rows name both packs: A -> B
        rows += csvout.figure_rows(pair, "moves", [("", "", {"mean_score": moves["mean_score"]}
                                                    | {k: moves[k] for k in ("tests", "flagged", "fdr")})])
        for table in ("wonders", "sides", "categories"):
            rows += csvout.figure_rows(pair, f"moves.{table}", _keyed(moves.get(table, {}), table == "categories"))
        rows += csvout.figure_rows(pair, "moves.components", _grouped(moves["components"]))
        rows += csvout.figure_rows(pair, "moves.changed", [(c["group"], c["id"], {k: v for k, v in c.items() if k not in (
            "group", "id", "moves")}) for c in moves.get("changed", [])])
        if moves.get("changed_warning"):
            rows += csvout.figure_rows(pair, "warnings", [("", "", {"changed": moves["changed_warning"]})])
    return csvout.render(csvout.SUMMARY_HEADER, rows)


def _summary_rows(s: dict) -> list[list]:
    """One pack's summary: its overall figures (table `summary`), then a table per JSON key, each
    named as the key (`wonders`, `seats`, `components`...)."""
    pack = s["pack"]
    overall = {k: s[k] for k in OVERALL} | ({"unfinished": s["unfinished"]["games"]} if "unfinished" in s else {})
    rows = [*csvout.figure_rows(pack, "summary", [("", "", overall)])]
    for table in ("wonders", "sides", "seats", "bots", "categories"):
        entries = s.get(table, {})
        keyed = enumerate(entries) if table == "seats" else entries.items()  # a seat's key is its number
        rows += csvout.figure_rows(pack, table, [("", str(key), entry) for key, entry in keyed])
    rows += csvout.figure_rows(pack, "components", _grouped(s["components"]))
    rows += csvout.figure_rows(pack, "never_taken", [(group, cid, {"taken": 0}) for group, ids in
                                                     s.get("never_taken", {}).items() for cid in ids])
    if s.get("never_taken_warning"):
        rows += csvout.figure_rows(pack, "warnings", [("", "", {"never_taken": s["never_taken_warning"]})])
    rows += csvout.figure_rows(pack, "quality", [("", "", s["quality"])])
    rows += csvout.figure_rows(pack, "periods", [("", str(p.pop("period")), p) for p in map(dict, s["periods"])])
    rows += csvout.figure_rows(pack, "wonder_categories", [("", k, c) for k, c in s["wonder_categories"].items()])
    for name, counts in s["histograms"].items():  # how often each value: figure `count`
        groups = counts.items() if isinstance(counts, dict) else [("", counts)]
        rows += csvout.figure_rows(pack, f"histograms.{name}", [(group, str(value), {"count": n})
                                                                for group, pairs in groups for value, n in pairs])
    return rows


def _keyed(table: dict, wrap: bool) -> list[tuple[str, str, dict]]:
    """(group, key, entry) of a table of moves keyed by id; `wrap` names a bare move (a category's)
    `mean`, the figure it moves."""
    return [("", key, {"mean": entry} if wrap else entry) for key, entry in table.items()]


def _grouped(groups: dict) -> list[tuple[str, str, dict]]:
    """(group, key, entry) of the components, group by group."""
    return [(group, key, entry) for group, table in groups.items() for key, entry in table.items()]

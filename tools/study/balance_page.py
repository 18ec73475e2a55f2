"""The balance report of `simulate --report FILE.html`: one self-contained page for a designer to
show a publisher what a run found.

`page(summary, command, ...)` reads the summary that `simulate --format json` prints (and, with
`--against`, pack B's summary, the moves and the pack diff) and returns the whole HTML page: the run's
header, the quality of the game, win rates with their intervals, score distributions, categories,
components, seats and bots, game length, periods, sample games with the commands that replay them,
and the comparison of two packs. Nothing is worked out again that the summary gives; the page only
arranges it (and reads quartiles off the score histograms).

Charts are Vega-Lite specs (plain dicts, data inline, one small function each), drawn in the page by
vega-embed from the bundle of vl-convert-python, inlined: the page opens offline and fetches
nothing. Specs travel as JSON in a `<script type="application/json">` whose every `<` is written
`\\u003c`, so that no id can close the script; every text from the pack, the command or the summary
reaches the HTML through `_e` (control characters escaped by `safe`, then HTML-escaped).
"""

from __future__ import annotations

import functools
import html
import json
import math
import shlex
from typing import Iterable, NamedTuple

from ... import version
from ...dsl.diagnostics import safe
from ..common.text import STAGES, ci_pct, fig, option_text, pct
from .quality import reached

LABELLED = 5               # components labelled at each end of the scatter: the rest by tooltip only
MOVES_DRAWN = 40           # significant moves drawn at most (the table lists them all)
LEADER_LABELS = 8          # periods up to which two packs' bars of the winner leading are labelled
VALUE_CHARS = 160          # characters of a diff's value shown
# Okabe & Ito's palette, safe for colour-blind readers; yellow and black last (weak on white, or stark)
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000"]
BLUE, ORANGE, GREEN, RED = PALETTE[0], PALETTE[1], PALETTE[2], PALETTE[3]
GREY = "#767676"
A_COLOUR, B_COLOUR = BLUE, RED


class PageError(RuntimeError):
    """The page cannot be made here (vl-convert-python missing): the message says what to install."""


# ---- the page ----------------------------------------------------------------------------------


def page(summary: dict, command: str, against: dict | None = None, moves: dict | None = None,
         diff: dict | None = None) -> str:
    """The whole HTML page of a run's summary (pack A's with `against`, B's summary, and its `moves`
    and `diff`), made by `command`; raises PageError without vl-convert-python."""
    bundle = _bundle()
    charts = _Charts()
    s, moves = summary, moves or {}
    runs = _runs(s, against)
    sections = [("run", "The run", _run(s, command, against)),
                ("quality", "Quality of the game", _quality(s, against))]
    if against is not None:
        sections += [("comparison", "A against B", _comparison(charts, runs, moves)),
                     ("diff", "What B changes", _diff(diff))]
    if any(r.s["games"] for r in runs):
        key = _key(runs)
        sections += [("wonders", "Wonders", key + _wonders(charts, runs, moves)),
                     ("samples", "Sample games", _samples(s, against)),
                     ("categories", "Scoring categories", key + _categories(charts, runs, moves)),
                     ("components", "Components", key + _components(charts, runs, moves)),
                     ("seats", "Seats and bots", key + _seats(charts, runs)),
                     ("length", "Game length and periods", key + _length(charts, runs))]
    return _document(runs, sections, charts.specs, bundle)


def _document(runs: list[_Run], sections: list[tuple[str, str, str]], specs: dict, bundle: str) -> str:
    s = runs[0].s
    title = "Balance report: " + (", ".join(_e(r.label) for r in runs) if len(runs) > 1 else _e(s["pack"]))
    nav = "".join(f'<a href="#{sid}">{name}</a>' for sid, name, _ in sections)
    body = "".join(f'<section id="{sid}"><h2>{name}</h2>{text}</section>' for sid, name, text in sections)
    data = _json({"config": _config(), "charts": specs})
    return (f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{title}</title><style>{CSS}</style></head><body>'
            f'<header><h1>{title}</h1><p class="sub">{_subtitle(runs)}</p>{_glance(runs)}</header>'
            f'<nav aria-label="sections">{nav}</nav><main>{body}</main>'
            f'<footer>Made by WonderForge {_e(version())} from the summary of <code>wonderforge simulate'
            f'</code>. Intervals are 95% confidence intervals; a win shared by k players counts 1/k.</footer>'
            f'<script type="application/json" id="wf-charts">{data}</script>'
            f'<script>{SORT_JS}</script>'
            f'<script type="module">{bundle}</script></body></html>\n')


def _subtitle(runs: list[_Run]) -> str:
    s = runs[0].s
    bots = ", ".join(dict.fromkeys(seat["bot"] for seat in s["seats"]))
    differ = len({r.s["games"] for r in runs}) > 1  # games that did not end are left out
    games = " and ".join(f"{r.s['games']:,}" + (f" ({r.label[0]})" if differ else "") for r in runs[:1 + differ])
    packs = "; ".join(f"{r.label[0] + ': ' if r.label else ''}"
                      + ", ".join(f"{_e(p['id'])} {_e(p['version'])}" for p in r.s["packs"]) for r in runs)
    return (f"{games} games of {s['players']} players ({packs}), bots {_e(bots)}, "
            f"seeds {s['seeds'][0]}–{s['seeds'][1]}")


def _glance(runs: list[_Run]) -> str:
    """Tiles of the headline figures; with two packs, A's and B's where they differ."""
    tiles = [_tiles(r.s) for r in runs]
    out = []
    for (name, value), *others in zip(*tiles):
        shown = [value, *(v for _, v in others)]
        if len(set(shown)) > 1:
            value = "<br>".join(f"{v}<i> {r.label[0]}</i>" for v, r in zip(shown, runs))
        out.append(f'<div><b>{value}</b><span>{name}</span></div>')
    return '<div class="tiles">' + "".join(out) + "</div>"


def _tiles(s: dict) -> list[tuple[str, str]]:
    """The headline figures of a summary: (name, value shown)."""
    q = s.get("quality") or {}
    return [("games", f"{s['games']:,}"), ("mean score", _fig(s["mean_score"], 1)),
            ("balance among wonders", _fig(q.get("balance_wonders"))),
            ("first-seat advantage", _pts(q.get("first_seat_advantage"))),
            ("shared wins", _pct(q.get("shared_wins_rate"))), ("even share of wins", _pct(1 / s["players"]))]


# ---- the run -----------------------------------------------------------------------------------


def _run(s: dict, command: str, against: dict | None) -> str:
    runs = [s] if against is None else [s, against]
    if against is None:  # one run: its facts side by side, to keep the page's first screen for figures
        facts = "".join(f"<dt>{label}</dt><dd>{_e(value(s))}</dd>" for label, value in _RUN_ROWS)
        table = f'<dl class="facts">{facts}</dl>'
    else:
        table = _plain_table(["", "pack A", "pack B"], [[label, *(_e(value(r)) for r in runs)]
                                                       for label, value in _RUN_ROWS])
    return ('<p class="lead">What was played, and how: read this first, as every figure below holds for these '
            'packs, bots and options only.</p>' + "".join(_unfinished(r) for r in runs if r.get("unfinished"))
            + table + f'<p>The command:</p><pre class="cmd"><code>{_command(command)}</code></pre>')


def _unfinished(r: dict) -> str:
    """The warning of games that did not end, which no figure counts."""
    u = r["unfinished"]
    seeds = ", ".join(map(str, u["seeds"])) + ("…" if u["games"] > len(u["seeds"]) else "")
    return (f'<p class="warning"><b>Warning:</b> {_e(u["games"])} games of {_e(r["pack"])} did not end and are left '
            f'out of every figure (seeds {_e(seeds)}): {_e(u["reason"])}</p>')


def _timing(r: dict) -> str:
    run = r.get("run")
    if not run:
        return "—"
    speed = f", {run['games_per_second']:,.1f} games/s" if run.get("games_per_second") else ""
    return f"{run['seconds']:.1f} s on {run['workers']} {run.get('backend', 'local')} worker(s){speed}"


_RUN_ROWS = [  # (label, its value in a summary)
    ("packs", lambda r: ", ".join(f"{p['id']} {p['version']}" for p in r["packs"])),
    ("pack argument", lambda r: r["pack"]),
    ("folder", lambda r: r.get("folder") or "shipped with WonderForge"),
    ("players", lambda r: r["players"]),
    ("bots per seat", lambda r: ", ".join(f"{i}: {seat['bot']}" for i, seat in enumerate(r["seats"]))),
    ("options", lambda r: " ".join(f"{k}={option_text(v)}" for k, v in r["options"].items()) or "the pack's defaults"),
    ("wonders assigned", lambda r: ",".join(r["wonders_assigned"]) if r.get("wonders_assigned") else "dealt at random"),
    ("games", lambda r: f"{r['games']:,}" + (f" ({r['unfinished']['games']:,} unfinished, left out)"
                                             if r.get("unfinished") else "")),
    ("seeds", lambda r: f"{r['seeds'][0]} to {r['seeds'][1]} (game i from seed first + i)"),
    ("run", _timing),
]


# ---- quality -----------------------------------------------------------------------------------

# (key, name, how it is shown, its definition)
QUALITY = [
    ("balance_wonders", "balance among wonders", "fig",
     "1 minus the gap between the best and the worst wonder's win rate: 1 when every wonder wins as often."),
    ("balance_seats", "balance among seats", "fig", "The same among seats: 1 when the seat played does not matter."),
    ("first_seat_advantage", "first-seat advantage", "pts",
     "Seat 0's win rate minus the even share (1/players): above 0, the first seat wins more than its share."),
    ("shared_wins_rate", "shared wins", "pct", "The share of games whose win was shared (a tie on every tie-break)."),
    ("lead_changes", "lead changes", "fig", "How many times the lead changed hands between period ends, per game."),
    ("decided_from", "decided from", "pct",
     "From how far into the game the final winner led at every period end (100% = only at the end): low means "
     "games were settled early."),
    ("mean_periods", "periods per game", "fig", "Ages (or rounds) a game lasted, on average."),
    ("mean_actions", "actions per game", "fig1", "Moves and decisions of all seats in a game, on average."),
    ("skill_gap", "skill gap", "pts",
     "The strongest bot's win rate minus the weakest's: how much playing well pays (none with one bot)."),
]


def _quality(s: dict, against: dict | None) -> str:
    runs = [s] if against is None else [s, against]
    heads = ["figure", *(["A", "B"] if against is not None else ["value"]), "what it says"]
    rows = [[name, *(_quality_value(r.get("quality") or {}, key, how) for r in runs), definition]
            for key, name, how, definition in QUALITY]
    gap = [(r.get("quality") or {}).get("skill_gap_bots") for r in runs]
    note = "".join(f"<p>Skill gap{' of ' + label if against is not None else ''}: {_e(pair[0])} against "
                   f"{_e(pair[1])}.</p>" for label, pair in zip("AB", gap) if pair)
    if len({seat["bot"] for seat in s["seats"]}) > 1:
        note += ('<p class="note">The seats are played by different bots: the balance among seats and the '
                 'first-seat advantage mix where a player sits with how well its bot plays.</p>')
    return (f'<p class="lead">How the game plays as a whole: each figure, its 95% interval where it has one, '
            f'and what it says in plain words.</p>{_plain_table(heads, rows, "quality")}{note}')


def _quality_value(q: dict, key: str, how: str) -> str:
    value, ci = q.get(key), q.get(f"{key}_ci")
    shown = {"fig": _fig, "fig1": lambda x: _fig(x, 1), "pct": _pct, "pts": _pts}[how]
    text = shown(value)
    if ci:
        text += f' <span class="ci">[{shown(ci[0])}, {shown(ci[1])}]</span>'
    return text


# ---- one pack or two ---------------------------------------------------------------------------


class _Run(NamedTuple):
    """A pack's summary as the page shows it: `label` names it in charts and keys (`A = 7-wonders`)
    when two packs are compared, and is empty when the page shows one."""
    label: str
    s: dict


def _runs(s: dict, against: dict | None) -> list[_Run]:
    if against is None:
        return [_Run("", s)]
    return [_Run(f"A = {safe(s['pack'])}", s), _Run(f"B = {safe(against['pack'])}", against)]


def _labels(runs: list[_Run]) -> list[str]:
    """The packs' labels, for the charts that draw A and B apart; none when there is one pack."""
    return [r.label for r in runs if r.label]


def _key(runs: list[_Run]) -> str:
    """With two packs, the line at the head of a section that says which colour is which."""
    if len(runs) == 1:
        return ""
    names = " ".join(f'<span class="pack {r.label[0].lower()}">{_e(r.label)}</span>' for r in runs)
    return (f'<p class="key">{names}: A in blue and first (above, or left), B in orange; a chart drawn once per '
            f'pack is titled with its pack.</p>')


def _per_pack(runs: list[_Run], rows_of) -> list[dict]:
    """The rows that `rows_of` makes of each pack's summary, A's first; with two packs each names its pack."""
    return [row | {"pack": r.label} if r.label else row for r in runs for row in rows_of(r.s)]


def _with_moves(rows: list[dict], table: dict | None, figure: str | None, key: str = "name") -> list[dict]:
    """`rows` (two packs') each with the move of its `figure` from A to B in words, for a tooltip."""
    moved = {safe(k): m.get(figure) if figure else m for k, m in (table or {}).items()}
    return [r | {"move": _move_text(moved.get(r[key]))} for r in rows]


def _move_text(m: dict | None) -> str:
    if not m or m.get("q") is None:
        return "not tested"
    return f"q = {m['q']:.3g}" + (", significant" if m.get("significant") else "")


def _pack_colour(packs: list[str]) -> dict:
    return {"field": "pack", "type": "nominal", "title": None,
            "scale": {"domain": packs, "range": [A_COLOUR, B_COLOUR]}}


def _offset(packs: list[str], channel: str) -> dict:
    """The encoding that sets A's mark and B's beside each other in a band (`channel`: yOffset or
    xOffset); a band keeps B's place when B lacks its row. None with one pack."""
    return {channel: {"field": "pack", "type": "nominal", "scale": {"domain": packs}}} if packs else {}


def _beside(packs: list[str], channel: str) -> dict:
    """`_offset`, and each pack's colour."""
    return _offset(packs, channel) | ({"color": _pack_colour(packs)} if packs else {})


def _band(packs: list[str], step: int) -> dict:
    """The size of a chart's band (a row per name, or a column per value), `step` pixels; half as much
    again with two packs' marks in each band."""
    return {"step": step * 3 // 2, "for": "position"} if packs else {"step": step}


def _pack_tips(rows: list[dict], packs: list[str]) -> list[dict]:
    """The tooltip's lines of the pack, and of the move where the rows have one."""
    if not packs:
        return []
    return [{"field": "pack"}, *([{"field": "move", "title": "move from A to B"}] * any("move" in r for r in rows))]


def _side_by_side(specs: list[dict | None], packs: list[str], how: str = "hconcat") -> dict | None:
    """Each pack's chart, titled with its label in its colour, side by side (or one above the other)
    on shared axes: what one pack lacks leaves its row empty in the other's chart."""
    parts = [spec | {"title": {"text": label, "anchor": "start", "color": colour, "fontSize": 13}}
             for spec, label, colour in zip(specs, packs, (A_COLOUR, B_COLOUR)) if spec is not None]
    if not parts:
        return None
    return {how: parts, "resolve": {"scale": {"x": "shared", "y": "shared"}}}


# ---- wonders -----------------------------------------------------------------------------------


def _wonders(charts: "_Charts", runs: list[_Run], moves: dict) -> str:
    players, packs = runs[0].s["players"], _labels(runs)

    def tallies(key: str) -> list[dict]:
        rows = _per_pack(runs, lambda s: _tally_rows((s.get(key) or {}).items(), players))
        return _with_moves(rows, moves.get(key), "win_rate") if packs else rows

    def boxes(key: str) -> list[dict]:
        return _per_pack(runs, lambda s: _box_rows((s.get("histograms") or {}).get(key) or {}))

    out = [charts.figure("wonders", forest_spec(tallies("wonders"), players, "wonder", packs),
                         "Each dot is a wonder's win rate, its line the 95% interval; the dashed line is the even "
                         "share. A filled dot's interval leaves the even share: that wonder is stronger or weaker "
                         "than its share beyond chance.")]
    if any(r.s.get("sides") for r in runs):
        out.append(charts.figure("sides", forest_spec(tallies("sides"), players, "side", packs),
                                 "The same for each side of each wonder."))
    out.append(charts.figure("scores", box_spec(boxes("wonders"), "wonder", packs),
                             "Final scores of the players of each wonder: the box holds the middle half, the "
                             "whiskers reach the 5th and 95th percentiles, the white tick is the median, the grey "
                             "dots the lowest and highest scores."))
    if any((r.s.get("histograms") or {}).get("sides") for r in runs):
        out.append(charts.figure("side-scores", box_spec(boxes("sides"), "side", packs), "The same for each side."))
    return ('<p class="lead">Which wonders win more than their share: read the dots against the dashed line, '
            'and the boxes for how far their scores spread.</p>' + "".join(out))


def _tally_rows(items: Iterable[tuple[str, dict]], players: int) -> list[dict]:
    """A forest plot's rows, highest win rate first; those without games left out."""
    even = 1 / players
    rows = []
    for name, t in items:
        if t.get("win_rate") is None or not t.get("win_rate_ci"):
            continue
        lo, hi = t["win_rate_ci"]
        rows.append({"name": safe(name), "rate": t["win_rate"], "lo": lo, "hi": hi, "games": t["games"],
                     "wins": t["wins"], "score": t.get("mean_score"), "seed": t.get("example_seed"),
                     "interval": _interval((lo, hi)), "clear": lo > even or hi < even})
    return sorted(rows, key=lambda r: (-r["rate"], r["name"]))


def forest_spec(rows: list[dict], players: int, what: str, packs: list[str] = ()) -> dict | None:
    """Win rates as dots on their 95% intervals, one row per `what`, with the even share dashed;
    with two `packs`, A's dot and B's side by side in each row, in their colours."""
    if not rows:
        return None
    y = {"field": "name", "type": "nominal", "sort": None, "title": None}
    x = {"type": "quantitative", "scale": {"zero": True, "nice": True}}
    tooltip = [{"field": "name", "title": what}, {"field": "games", "title": "player-games"},
               {"field": "wins", "title": "wins"}, {"field": "rate", "title": "win rate", "format": ".1%"},
               {"field": "interval", "title": "95% interval"},
               {"field": "score", "title": "mean score", "format": ".2f"},
               {"field": "seed", "title": "sample game's seed"}, *_pack_tips(rows, packs)]
    filled = {"condition": {"test": "datum.clear", **(_pack_colour(packs) if packs else {"value": BLUE})},
              "value": "white"}
    beside = _beside(packs, "yOffset")
    return {
        "width": 640, "height": _band(packs, 22), "data": {"values": rows},
        "layer": [
            {"mark": {"type": "rule", "color": BLUE, "strokeWidth": 2},
             "encoding": {"y": y, "x": {**x, "field": "lo", "title": "win rate, with its 95% interval",
                                        "axis": {"format": "%"}}, "x2": {"field": "hi"}, **beside}},
            {"mark": {"type": "point", "size": 80, "strokeWidth": 2, "color": BLUE, "opacity": 1},
             "encoding": {"y": y, "x": {**x, "field": "rate"}, "tooltip": tooltip, "fill": filled, **beside}},
            _even_rule(players, "x"),
        ]}


def _even_rule(players: int, channel: str) -> dict:
    """The dashed rule of the even share of wins, 1/players, across a chart."""
    return {"data": {"values": [{"even": 1 / players}]},
            "mark": {"type": "rule", "color": GREY, "strokeDash": [5, 4]},
            "encoding": {channel: {"field": "even", "type": "quantitative"},
                         "tooltip": [{"field": "even", "title": "even share", "format": ".1%"}]}}


def quantiles(histogram: Iterable[Iterable]) -> dict | None:
    """The spread of the values counted in `histogram` ([[value, count], ...]): n, min, p5, q1, median,
    q3, p95, max (by nearest rank: each is a value some player scored) and the mean; None when empty."""
    pairs = sorted((v, c) for v, c in histogram if c > 0)
    n = sum(c for _, c in pairs)
    if not n:
        return None

    def at(q: float):
        rank, seen = max(1, math.ceil(q * n - 1e-9)), 0  # 0.05 * 20 is 1.0000000000000002 in floats
        for value, count in pairs:
            seen += count
            if seen >= rank:
                return value

    return {"n": n, "min": pairs[0][0], "p5": at(0.05), "q1": at(0.25), "median": at(0.5), "q3": at(0.75),
            "p95": at(0.95), "max": pairs[-1][0], "mean": round(sum(v * c for v, c in pairs) / n, 3)}


def _box_rows(histograms: dict) -> list[dict]:
    rows = [{"name": safe(name), **q} for name, h in histograms.items() if (q := quantiles(h))]
    return sorted(rows, key=lambda r: (-r["median"], -r["mean"], r["name"]))


def box_spec(rows: list[dict], what: str, packs: list[str] = ()) -> dict | None:
    """Box plots drawn from quantiles: whiskers p5-p95, box q1-q3, median tick, min and max dots;
    with two `packs`, A's box and B's side by side in each row, in their colours."""
    if not rows:
        return None
    y = {"field": "name", "type": "nominal", "sort": None, "title": None}
    score = {"type": "quantitative", "title": "final score", "scale": {"zero": False}}
    tooltip = [{"field": "name", "title": what}, {"field": "n", "title": "player-games"},
               *({"field": k, "title": k} for k in ("min", "p5", "q1", "median", "q3", "p95", "max", "mean")),
               *_pack_tips(rows, packs)]
    size = 10 if packs else 14
    beside, offset = _beside(packs, "yOffset"), _offset(packs, "yOffset")
    return {
        "width": 640, "height": _band(packs, 22), "data": {"values": rows},
        "layer": [
            {"mark": {"type": "rule", "color": BLUE}, "encoding": {"y": y, "x": {**score, "field": "p5"},
                                                                   "x2": {"field": "p95"}, **beside}},
            {"mark": {"type": "bar", "color": BLUE, "opacity": 0.75, "size": size},
             "encoding": {"y": y, "x": {**score, "field": "q1"}, "x2": {"field": "q3"}, "tooltip": tooltip,
                          **beside}},
            {"mark": {"type": "tick", "color": "white", "thickness": 2, "size": size},
             "encoding": {"y": y, "x": {**score, "field": "median"}, "tooltip": tooltip, **offset}},
            {"transform": [{"fold": ["min", "max"], "as": ["end", "value"]}],
             "mark": {"type": "point", "color": GREY, "size": 20, "filled": True},
             "encoding": {"y": y, "x": {**score, "field": "value"},
                          "tooltip": [{"field": "name", "title": what}, {"field": "end"}, {"field": "value"},
                                      *_pack_tips([], packs)], **offset}},
        ]}


# ---- sample games ------------------------------------------------------------------------------


def replay_command(summary: dict, seed: int) -> str:
    """The command that plays game `seed` of the run again, alone, and writes it to game-SEED.jsonl:
    the same pack (its folder when not shipped), players, bots per seat, options and wonders."""
    words = ["wonderforge", "simulate", summary.get("folder") or summary["pack"],
             "--players", str(summary["players"]), "--bots", ",".join(seat["bot"] for seat in summary["seats"]),
             "--seed", str(seed), "--games", "1"]
    if summary["options"]:
        words += ["--options", *(f"{k}={option_text(v)}" for k, v in summary["options"].items())]
    if summary.get("wonders_assigned"):
        words += ["--wonders", ",".join(summary["wonders_assigned"])]
    return shlex.join([*words, "--out", f"game-{seed}.jsonl"])


def _samples(s: dict, against: dict | None) -> str:
    tables = [_sample_table(s, "")] + ([_sample_table(against, "In pack B: ")] if against is not None else [])
    return ('<p class="lead">A game behind each wonder\'s figures: the smallest seed of a game it won, and the '
            'command that plays that game again (its record, with every score, goes to the file named).</p>'
            + "".join(tables))


def _sample_table(s: dict, label: str) -> str:
    rows = []
    for name, t in sorted(s["wonders"].items(), key=lambda kv: (-(kv[1].get("win_rate") or 0), kv[0])):
        seed = t.get("example_seed")
        command = f'<code class="cmd">{_command(replay_command(s, seed))}</code>' if seed is not None else "no game won"
        rows.append([_e(name), f"{_fig(t['wins'], 2 if isinstance(t['wins'], float) else 0)} of {t['games']:,}",
                     _e(seed if seed is not None else "—"), command])
    caption = f"<p>{label}{_e(s['pack'])}</p>" if label else ""
    return caption + _plain_table(["wonder", "wins", "seed", "replay it"], rows, "samples")


# ---- scoring categories ------------------------------------------------------------------------


def _categories(charts: "_Charts", runs: list[_Run], moves: dict) -> str:
    packs = _labels(runs)
    rows = _per_pack(runs, lambda s: [{"category": safe(k), "mean": c["mean"], "lo": c["ci"][0], "hi": c["ci"][1]}
                                      for k, c in s["categories"].items()
                                      if c.get("mean") is not None and c.get("ci")])
    if packs:
        rows = _with_moves(rows, moves.get("categories"), None, "category")
    out = [charts.figure("categories", category_spec(rows, packs),
                         "Mean points per player in each category, in the pack's order, with the 95% interval.")]
    out.append(charts.figure("heatmap", _heatmaps(runs),
                             "Mean points per player of each wonder (rows, best win rate first) in each category "
                             "(columns): where each wonder gets its points."))
    return ('<p class="lead">Where the points come from: a category far above the others decides games, '
            'and a wonder\'s row shows the strategy it pushes.</p>' + "".join(out))


def category_spec(rows: list[dict], packs: list[str] = ()) -> dict | None:
    """Mean points per category as bars, with their 95% intervals; with two `packs`, A's bar and B's
    side by side, in their colours."""
    if not rows:
        return None
    y = {"field": "category", "type": "nominal", "sort": None, "title": None}
    return {"width": 640, "height": _band(packs, 24), "data": {"values": rows},
            "layer": [
                {"mark": {"type": "bar", "color": BLUE, "opacity": 0.8},
                 "encoding": {"y": y, "x": {"field": "mean", "type": "quantitative", "title": "mean points per player"},
                              "tooltip": [{"field": "category"}, {"field": "mean", "format": ".2f"},
                                          {"field": "lo", "title": "95% low", "format": ".2f"},
                                          {"field": "hi", "title": "95% high", "format": ".2f"},
                                          *_pack_tips(rows, packs)], **_beside(packs, "yOffset")}},
                {"mark": {"type": "rule", "color": "#222"},
                 "encoding": {"y": y, "x": {"field": "lo", "type": "quantitative"}, "x2": {"field": "hi"},
                              **_offset(packs, "yOffset")}},
            ]}


def _heatmaps(runs: list[_Run]) -> dict | None:
    """The heat map of wonders by categories; with two packs, A's and B's side by side, on one colour
    scale and the same rows and columns."""
    wonders = list(dict.fromkeys(name for r in runs for name in _wonder_order(r.s)))
    categories = list(dict.fromkeys(c for r in runs for c in r.s["categories"]))
    if len(runs) == 1:
        return heatmap_spec(_heat_rows(runs[0].s), categories, wonders)
    rows = [_heat_rows(r.s) for r in runs]
    top = max((row["points"] for pack in rows for row in pack), default=0)
    size = {"width": 48 * len(categories), "height": 24 * len(wonders)}  # shared scales take no step sizes
    return _side_by_side([spec and spec | size for spec in (heatmap_spec(pack, categories, wonders, top)
                                                            for pack in rows)], _labels(runs))


def _wonder_order(s: dict) -> list[str]:
    return [r["name"] for r in _tally_rows(s["wonders"].items(), s["players"])]


def _heat_rows(s: dict) -> list[dict]:
    return [{"wonder": safe(w), "category": safe(c), "points": p}
            for w, cats in (s.get("wonder_categories") or {}).items() for c, p in cats.items()
            if isinstance(p, (int, float)) and math.isfinite(p)]


def heatmap_spec(rows: list[dict], categories: list[str], wonders: list[str], top: float | None = None) -> dict | None:
    """Wonders by categories, each cell coloured and labelled by its mean points (white on the cells
    above 60% of `top`, the highest of the rows when not given)."""
    if not rows:
        return None
    top = (max(r["points"] for r in rows) if top is None else top) or 1
    x = {"field": "category", "type": "nominal", "sort": [safe(c) for c in categories], "title": None,
         "axis": {"orient": "top", "labelAngle": -30}}
    y = {"field": "wonder", "type": "nominal", "sort": wonders or None, "title": None}
    return {"data": {"values": rows}, "width": {"step": 64}, "height": {"step": 24},
            "encoding": {"x": x, "y": y},
            "layer": [
                {"mark": "rect", "encoding": {
                    "color": {"field": "points", "type": "quantitative", "scale": {"scheme": "blues"},
                              "title": "mean points"},
                    "tooltip": [{"field": "wonder"}, {"field": "category"}, {"field": "points", "format": ".2f"}]}},
                {"mark": {"type": "text", "fontSize": 11}, "encoding": {
                    "text": {"field": "points", "type": "quantitative", "format": ".1f"},
                    "color": {"condition": {"test": f"datum.points > {0.6 * top}", "value": "white"},
                              "value": "#222"}}},
            ]}


# ---- components --------------------------------------------------------------------------------


def _components(charts: "_Charts", runs: list[_Run], moves: dict) -> str:
    players, packs = runs[0].s["players"], _labels(runs)
    rows = [_component_rows(r.s) for r in runs]
    drawn = [[row | {"pack": r.label} if r.label else row for row in pack if row["win"] is not None]
             for r, pack in zip(runs, rows)]
    if packs:  # a chart each, in its pack's colour, on the same axes and legend of shapes; one table of both
        groups = sorted({row["group"] for pack in drawn for row in pack})
        spec = _side_by_side([component_spec(pack, players, groups, 440, 380, packs) for pack in drawn], packs)
        table = _component_pairs_table(rows, moves)
    else:
        spec, table = component_spec(drawn[0], players), _component_table(rows[0])
    out = [charts.figure("components", spec,
                         f"One dot per component, placed by how often it was taken (across) and how often its "
                         f"takers won (up); the dashed line is the even share. Above it and to the right: a "
                         f"popular winner; high and to the left: strong but overlooked. The {LABELLED} clearest "
                         f"above and below are named (by their 95% intervals); hover a dot for its figures."),
           table]
    return ('<p class="lead">Which cards and components go with winning: a component whose takers win far '
            'above the even share, often, is a candidate to tone down.</p>' + "".join(out))


def _component_name(group: str, cid: str) -> str:
    return f"stage {cid}" if group == STAGES else cid


def _component_rows(s: dict) -> list[dict]:
    rows = []
    for group, table in s["components"].items():
        for cid, c in table.items():
            win, win_not = c.get("win_rate_taken"), c.get("win_rate_not_taken")
            rows.append({"group": safe(group), "id": safe(_component_name(group, cid)), "taken": c["taken"],
                         "rate": c["taken_rate"], "win": win, "win_not": win_not,
                         "lift": None if win is None or win_not is None else round(win - win_not, 6),
                         "copies": c.get("mean_copies"), "score": c.get("mean_score_taken"),
                         "score_not": c.get("mean_score_not_taken"), "seed": c.get("example_seed"),
                         "rate_ci": c.get("taken_rate_ci"), "win_ci": c.get("win_rate_taken_ci"),
                         "win_interval": _interval(c.get("win_rate_taken_ci"))})
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


def component_spec(rows: list[dict], players: int, groups: list[str] | None = None, width: int = 760,
                   height: int = 420, packs: list[str] = ()) -> dict | None:
    """Each component's take rate (x) against its takers' win rate (y), coloured and shaped by
    group (`groups`, those of the rows when not given), or with two `packs` coloured by pack;
    the extremes labelled."""
    if not rows:
        return None
    x = {"field": "rate", "type": "quantitative", "title": "taken by (share of player-games)",
         "axis": {"format": "%"}, "scale": {"domain": [0, 1]}}
    y = {"field": "win", "type": "quantitative", "title": "win rate of its takers", "axis": {"format": "%"},
         "scale": {"zero": True, "nice": True}}
    groups = groups or sorted({r["group"] for r in rows})
    colour = (_pack_colour(packs) | {"legend": None} if packs
              else {"field": "group", "type": "nominal", "scale": {"domain": groups, "range": PALETTE}})
    shape = {"field": "group", "type": "nominal", "scale": {"domain": groups}}  # the same legend as colour
    tooltip = [{"field": "id", "title": "component"}, {"field": "group"}, {"field": "taken", "title": "taken"},
               {"field": "rate", "title": "take rate", "format": ".1%"},
               {"field": "win", "title": "win rate if taken", "format": ".1%"},
               {"field": "win_interval", "title": "95% interval"},
               {"field": "win_not", "title": "win rate if not", "format": ".1%"},
               {"field": "seed", "title": "sample game's seed"}]
    return {"width": width, "height": height, "data": {"values": rows},
            "layer": [
                _even_rule(players, "y"),
                {"mark": {"type": "point", "filled": True, "size": 60, "opacity": 0.85},
                 "encoding": {"x": x, "y": y, "color": colour, "shape": shape,
                              "tooltip": tooltip}},
                {"transform": [{"filter": "datum.extreme"}],
                 "mark": {"type": "text", "align": "left", "dx": 7, "fontSize": 10, "color": "#333"},
                 "encoding": {"x": x, "y": y, "text": {"field": "id"}}},
            ]}


def _component_table(rows: list[dict]) -> str:
    copies = any((r["copies"] or 0) > 1 for r in rows)  # a column of copies only where some hold several
    heads = [("group", "text"), ("component", "text"), ("taken", "num"), ("take rate", "num"),
             *([("copies", "num")] * copies), ("win if taken", "num"), ("win if not", "num"), ("difference", "num"),
             ("score if taken", "num"), ("if not", "num"),
             ("seed", "num")]
    ordered = sorted(rows, key=lambda r: (r["lift"] is None, -(r["lift"] or 0), r["group"], r["id"]))
    body = [[_text(r["group"]), _text(r["id"]), _number(r["taken"], f"{r['taken']:,}"),
             _number(r["rate"], _pct(r["rate"])), *([_number(r["copies"], _fig(r["copies"]))] * copies),
             _win_cell(r),
             _number(r["win_not"], _pct(r["win_not"])), _number(r["lift"], _pts(r["lift"])),
             _number(r["score"], _fig(r["score"])), _number(r["score_not"], _fig(r["score_not"])),
             _number(r["seed"], _e(r["seed"] if r["seed"] is not None else "—"))] for r in ordered]
    return ('<p class="note">Every component: click a column\'s header to sort by it (again to reverse). '
            'Brackets hold a 95% interval; "difference" is the win rate if taken minus if not, in percentage '
            'points.</p>'
            + _sortable_table(heads, body, "components-table"))


def _win_cell(r: dict) -> str:
    """The takers' win rate of a component's row, with its interval ("—" when the row has none)."""
    return _number(r.get("win"), f'{_pct(r.get("win"))} <span class="ci">{ci_pct(r.get("win_ci"), 0)}</span>')


def _component_pairs_table(rows: list[list[dict]], moves: dict) -> str:
    """Every component of either pack: its take rate, its takers' win rate and how much more they win
    than the others in A and in B, and the q-values of the moves; the clearest moves first."""
    packs = [{(r["group"], r["id"]): r for r in pack} for pack in rows]
    tested = {(safe(group), safe(_component_name(group, cid))): m
              for group, table in (moves.get("components") or {}).items() for cid, m in table.items()}

    def move(key, figure: str) -> dict:
        return (tested.get(key) or {}).get(figure) or {}

    def clearest(key) -> tuple:
        qs = [m["q"] for f in ("taken_rate", "win_rate_taken") if (m := move(key, f)).get("q") is not None]
        return (not qs, min(qs, default=0), key)

    heads = [("group", "text"), ("component", "text"), ("take rate, A", "num"), ("B", "num"), ("q", "num"),
             ("win if taken, A", "num"), ("B", "num"), ("q", "num"), ("difference, A", "num"), ("B", "num")]
    body = []
    for key in sorted(dict.fromkeys(k for pack in packs for k in pack), key=clearest):
        a, b = (pack.get(key) or {} for pack in packs)
        body.append([_text(key[0]), _text(key[1]), *(_number(r.get("rate"), _pct(r.get("rate"))) for r in (a, b)),
                     _q_cell(move(key, "taken_rate")), _win_cell(a), _win_cell(b), _q_cell(move(key, "win_rate_taken")),
                     *(_number(r.get("lift"), _pts(r.get("lift"))) for r in (a, b))])
    return ('<p class="note">Every component of either pack, with its figures in A and in B, the clearest moves '
            'first: q is the q-value of the move from A to B, in bold when it is significant; "difference" is the '
            'win rate if taken minus if not, in percentage points; "—", not in that pack\'s summary. Click a '
            'header to sort.</p>' + _sortable_table(heads, body, "components-table"))


def _q_cell(m: dict) -> str:
    """A move's q-value, marked when the move is significant."""
    return _number(m.get("q"), _p(m.get("q")), "yes" if m.get("significant") else "")


# ---- seats and bots ----------------------------------------------------------------------------


def _seats(charts: "_Charts", runs: list[_Run]) -> str:
    s, packs = runs[0].s, _labels(runs)
    players = s["players"]

    def seat_rows(r: dict) -> list[dict]:
        seats = [(f"seat {i} ({seat['bot']})", seat) for i, seat in enumerate(r["seats"])]
        return sorted(_tally_rows(seats, players), key=lambda row: int(row["name"].split()[1]))

    out = [charts.figure("seats", forest_spec(_per_pack(runs, seat_rows), players, "seat", packs),
                         "Win rate of each seat (in seating order) with its 95% interval: a seat far from the "
                         "dashed even share gains from where it sits.")]
    if len(s["bots"]) > 1:  # both packs are played by the same bots
        bots = _per_pack(runs, lambda r: _tally_rows(r["bots"].items(), players))
        out.append(charts.figure("bots", forest_spec(bots, players, "bot", packs),
                                 "Win rate of each bot over the seats it played: the gap between them is the "
                                 "game's reward for skill."))
    else:
        out.append(f"<p>One bot played every seat ({_e(next(iter(s['bots']), '—'))}): no comparison of bots.</p>")
    return ('<p class="lead">Whether where you sit or how well you play decides the game: seats should sit '
            'on the even share, stronger bots above it.</p>' + "".join(out))


# ---- game length and periods -------------------------------------------------------------------


def _length(charts: "_Charts", runs: list[_Run]) -> str:
    packs = _labels(runs)

    def counts(key: str) -> list[dict]:
        return _per_pack(runs, lambda s: [{"value": v, "count": c}
                                          for v, c in (s.get("histograms") or {}).get(key) or [] if c])

    if packs:  # the two packs' curves one above the other, on the same axes
        scores = _side_by_side([period_score_spec(reached(r.s), colour)
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
    out.append(charts.figure("period-leaders", leader_spec(_per_pack(runs, _leader_rows), packs),
                             "Share of games whose final winner led (or shared the lead) after each period "
                             "that at least half of the games reached."))
    return ('<p class="lead">How long games last and when they are decided: a winner who leads from the first '
            'period leaves the others little to play for.</p>' + "".join(out))


def histogram_spec(rows: list[dict], title: str, bins: bool, packs: list[str] = ()) -> dict | None:
    """Counts of games by a value (rows `{value, count}`), binned when the values are many; with two
    `packs` (rows naming theirs), A's bar and B's side by side, or binned, A's histogram above B's
    on the same bins."""
    if not rows:
        return None
    spec = {"width": 640, "height": 180, "data": {"values": rows},
            "mark": {"type": "bar", "color": BLUE, "opacity": 0.85},
            "encoding": {"y": {"field": "count", "type": "quantitative", "title": "games"},
                         "tooltip": [{"field": "value", "title": title}, {"field": "count", "title": "games"},
                                     *_pack_tips(rows, packs)]}}
    if bins and len({r["value"] for r in rows}) > 20:
        spec["transform"] = [{"bin": {"maxbins": 30}, "field": "value", "as": ["lo", "hi"]},
                             {"aggregate": [{"op": "sum", "field": "count", "as": "count"}],
                              "groupby": ["lo", "hi", *(["pack"] if packs else [])]}]
        spec["encoding"] |= {"x": {"field": "lo", "type": "quantitative", "bin": {"binned": True}, "title": title},
                             "x2": {"field": "hi"},
                             "tooltip": [{"field": "lo", "title": "from"}, {"field": "hi", "title": "below"},
                                         {"field": "count", "title": "games"}, *_pack_tips([], packs)]}
        if packs:  # a row each, the bins made over both
            spec["height"] = 110
            spec["encoding"] |= {"color": _pack_colour(packs) | {"legend": None},
                                 "row": {"field": "pack", "type": "nominal", "sort": packs, "title": None,
                                         "header": {"labelAngle": 0, "labelAlign": "left", "labelAnchor": "start",
                                                    "labelOrient": "top", "labelFontSize": 12}}}
    else:  # few values: a bar each, of a set width
        spec["width"] = _band(packs, 36)
        spec["encoding"]["x"] = {"field": "value", "type": "ordinal", "title": title, "axis": {"labelAngle": 0}}
        spec["encoding"] |= _beside(packs, "xOffset")
    return spec


def period_score_spec(periods: list[dict], colour: str | None = None) -> dict | None:
    """Mean score after each period: final winners, the others, everyone; in three colours, or in one
    (a pack's `colour`) told apart by their dashes."""
    who = [("mean_winner", "final winners"), ("mean_others", "the others"), ("mean_score", "all players")]
    rows = [{"period": p["period"], "who": label, "score": p[key], "games": p["games"]}
            for p in periods for key, label in who if p.get(key) is not None]
    if not rows:
        return None
    labels = [label for _, label in who]
    if colour:  # the three lines told apart by their dashes alone: dots would hide them
        colours, dashes = {"value": colour}, [[1, 0], [6, 3], [2, 3]]
        legend = {"legend": {"symbolType": "stroke", "symbolStrokeColor": "#444", "symbolSize": 300}}
    else:
        colours = {"field": "who", "type": "nominal", "title": None,
                   "scale": {"domain": labels, "range": [BLUE, ORANGE, GREY]}}
        dashes, legend = [[1, 0], [1, 0], [4, 3]], {}
    return {"width": 640, "height": 260, "data": {"values": rows},
            "mark": {"type": "line", "point": not colour, "strokeWidth": 2},
            "encoding": {
                "x": {"field": "period", "type": "ordinal", "title": "after period", "axis": {"labelAngle": 0}},
                "y": {"field": "score", "type": "quantitative", "title": "mean score"},
                "color": colours,
                "strokeDash": {"field": "who", "type": "nominal", "title": None,
                               "scale": {"domain": labels, "range": dashes}, **legend},
                "tooltip": [{"field": "period"}, {"field": "who"}, {"field": "score", "format": ".2f"},
                            {"field": "games", "title": "games that reached it"}]}}


def _leader_rows(s: dict) -> list[dict]:
    return [{"period": p["period"], "share": p["leader_won"], "games": p["games"]}
            for p in reached(s) if p.get("leader_won") is not None]


def leader_spec(rows: list[dict], packs: list[str] = ()) -> dict | None:
    """The share of games whose final winner led after each period, as bars (rows `{period, share,
    games}`); with two `packs`, A's bar and B's side by side, labelled only where they have room."""
    if not rows:
        return None
    labels = [{"mark": {"type": "text", "dy": -7, "fontSize": 11},
               "encoding": {"text": {"field": "share", "type": "quantitative", "format": ".0%"}}}]
    return {"width": 640, "height": 180, "data": {"values": rows},
            "encoding": {"x": {"field": "period", "type": "ordinal", "title": "after period",
                               "axis": {"labelAngle": 0}},
                         "y": {"field": "share", "type": "quantitative", "title": "final winner led",
                               "axis": {"format": "%"}, "scale": {"domain": [0, 1]}},
                         **_offset(packs, "xOffset")},
            "layer": [{"mark": {"type": "bar", "color": GREEN, "opacity": 0.85},
                       "encoding": {"tooltip": [{"field": "period"}, {"field": "share", "format": ".1%"},
                                                {"field": "games", "title": "games that reached it"},
                                                *_pack_tips([], packs)],
                                    **({"color": _pack_colour(packs)} if packs else {})}},
                      *(labels if not packs or len(rows) <= 2 * LEADER_LABELS else [])]}


# ---- two packs ---------------------------------------------------------------------------------


def _comparison(charts: "_Charts", runs: list[_Run], moves: dict) -> str:
    (a, b), labels = (r.s for r in runs), _labels(runs)
    out = [f'<p>{_e(moves.get("method") or "")}</p>' if moves.get("method") else "",
           f'<p><b>{_e(moves.get("flagged", 0))}</b> of {_e(moves.get("tests", 0))} tests flagged at a false discovery '
           f'rate of {_pct(moves.get("fdr"), 0)}.</p>' if "tests" in moves else "",
           charts.figure("ab-wonders", dumbbell_spec(_dumbbell_rows(a, b, moves), labels, a["players"]),
                         "Win rate of each wonder in pack A and in pack B, joined by a line; a star marks a "
                         "significant move. The dashed line is the even share.")]
    rows = list(_move_rows(moves))
    significant = sorted((r for r in rows if r["significant"]), key=lambda r: (r["q"] is None, r["q"] or 0))
    for unit, title in (("rate", "rates"), ("points", "points")):
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


def dumbbell_spec(rows: list[dict], labels: list[str], players: int) -> dict | None:
    """Pack A's and pack B's win rate per wonder, two dots joined, in two colours; a wonder of one
    pack only has its dot alone."""
    rows = [r for r in rows if r["a"] is not None or r["b"] is not None]
    if not rows:
        return None
    y = {"field": "name", "type": "nominal", "sort": None, "title": None}
    x = {"type": "quantitative", "title": "win rate", "axis": {"format": "%"}, "scale": {"zero": True, "nice": True}}
    # a dot per pack and wonder, A's before B's so that B's is drawn over it; the packs' names as data
    dots = [{"name": r["name"], "which": which, "pack": label, "rate": r[which], "q": r["q"]}
            for r in rows for which, label in zip("ab", labels) if r[which] is not None]
    joined = [r for r in rows if r["a"] is not None and r["b"] is not None]
    return {"width": 640, "height": {"step": 24}, "data": {"values": rows},
            "layer": [
                *([{"data": {"values": joined}, "mark": {"type": "rule", "color": "#bbb", "strokeWidth": 3},
                    "encoding": {"y": y, "x": {**x, "field": "a"}, "x2": {"field": "b"}}}] if joined else []),
                {"data": {"values": dots}, "mark": {"type": "point", "filled": True, "opacity": 1},
                 "encoding": {"y": y, "x": {**x, "field": "rate"},
                              # A's dot larger, under B's: where they coincide A rings B
                              "size": {"field": "which", "type": "ordinal", "legend": None,
                                       "scale": {"domain": ["a", "b"], "range": [190, 70]}},
                              "color": {"field": "pack", "type": "nominal", "title": None,
                                        "scale": {"domain": list(labels), "range": [A_COLOUR, B_COLOUR]}},
                              "tooltip": [{"field": "name", "title": "wonder"}, {"field": "pack"},
                                          {"field": "rate", "title": "win rate", "format": ".1%"},
                                          {"field": "q", "title": "q of the move", "format": ".3g"}]}},
                {"mark": {"type": "text", "align": "left", "dx": 8, "fontSize": 14, "fontWeight": "bold"},
                 "encoding": {"y": y, "x": {**x, "field": "end"}, "text": {"field": "star"}}},
                _even_rule(players, "x"),
            ]}


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
            name = _component_name(group, cid)
            yield row(f"{group}", name, "take rate", "rate", m["taken_rate"])
            yield row(f"{group}", name, "win rate if taken", "rate", m["win_rate_taken"])


def move_spec(rows: list[dict], unit: str) -> dict:
    """Significant moves as bars of B minus A, coloured by their direction."""
    fmt = "+.0%" if unit == "rate" else "+.1f"
    data = [{"label": f"{r['kind']}: {r['label']}", "delta": r["delta"], "a": r["a"], "b": r["b"], "q": r["q"],
             "direction": "B higher" if (r["delta"] or 0) >= 0 else "B lower"} for r in rows]
    value = (lambda v: {"field": v, "format": ".1%"}) if unit == "rate" else (lambda v: {"field": v, "format": ".2f"})
    return {"width": 480, "height": {"step": 20}, "data": {"values": data},
            "mark": {"type": "bar"},
            "encoding": {
                "y": {"field": "label", "type": "nominal", "sort": None, "title": None, "axis": {"labelLimit": 320}},
                "x": {"field": "delta", "type": "quantitative", "title": "B minus A",
                      "axis": {"format": fmt}},
                "color": {"field": "direction", "type": "nominal", "title": None,
                          "scale": {"domain": ["B higher", "B lower"], "range": [BLUE, ORANGE]}},
                "tooltip": [{"field": "label", "title": "move"}, {**value("a"), "title": "A"},
                            {**value("b"), "title": "B"},
                            {"field": "delta", "title": "B − A", "format": "+.1%" if unit == "rate" else "+.2f"},
                            {"field": "q", "format": ".3g"}]}}


def _moves_table(rows: list[dict]) -> str:
    heads = [("about", "text"), ("figure", "text"), ("A", "num"), ("B", "num"), ("B − A", "num"), ("p", "num"),
             ("q", "num"), ("significant", "text"), ("pairs", "num"), ("games needed, paired", "num"),
             ("unpaired", "num")]
    ordered = sorted(rows, key=lambda r: (r["q"] is None, r["q"] if r["q"] is not None else 0,
                                          r["p"] if r["p"] is not None else 1))
    body = []
    for r in ordered:
        show = _pct if r["unit"] == "rate" else _fig
        delta = _pts(r["delta"]) if r["unit"] == "rate" else _signed(r["delta"])
        body.append([_text(f"{r['kind']}: {r['name']}" if r["name"] else r["kind"]), _text(r["figure"]),
                     _number(r["a"], show(r["a"])), _number(r["b"], show(r["b"])), _number(r["delta"], delta),
                     _number(r["p"], _p(r["p"])), _number(r.get("q"), _p(r.get("q"))),
                     f'<td class="{"yes" if r["significant"] else ""}">{"yes" if r["significant"] else ""}</td>',
                     _number(r.get("pairs"), _e(r.get("pairs", "—"))),
                     _number(r.get("games_needed"), _count(r.get("games_needed"))),
                     _number(r.get("games_needed_unpaired"), _count(r.get("games_needed_unpaired")))])
    return ('<p class="note">Every test, smallest q first: click a header to sort. "Games needed" is how many '
            'games a new run needs to confirm the move (80% power), playing both packs on the same seeds '
            '(paired) or on independent ones.</p>' + _sortable_table(heads, body, "moves-table"))


def _diff(diff: dict | None) -> str:
    lead = ('<p class="lead">What pack B changes from pack A, field by field, as <code>wonderforge diff</code> '
            'lists it.</p>')
    if not diff:
        return lead + "<p>No diff was given.</p>"
    items = [f"<li>{_change(c)}</li>" for c in diff.get("changes", [])]
    head = (f"<p>{_e(diff['a'].get('id', ''))} {_e(diff['a'].get('version', ''))} → {_e(diff['b'].get('id', ''))} "
            f"{_e(diff['b'].get('version', ''))}: {_plural(diff.get('differences', len(items)), 'difference')}.</p>"
            if diff.get("a") and diff.get("b") else "")
    more = f"<p>… and {_e(diff['omitted'])} more not listed.</p>" if diff.get("omitted") else ""
    body = f'<ul class="diff">{"".join(items)}</ul>' if items else "<p>The two packs hold the same data.</p>"
    return lead + head + body + more


def _change(c: dict) -> str:
    where = " ".join(_e(x) for x in (c.get("section"), c.get("id")) if x is not None)
    status = _e(c.get("status", ""))
    if c.get("field") is None and c.get("section") != "rules.yaml":
        name = f" ({_e(c['name'])})" if c.get("name") else ""
        return f'<span class="st {status}">{status}</span> <code>{where}</code>{name}'
    values = [_value(c[k]) for k in ("before", "after") if k in c]
    return (f'<span class="st {status}">{status}</span> <code>{where} {_e(c.get("field") or "")}</code>: '
            + " → ".join(f"<code>{v}</code>" for v in values))


def _value(v) -> str:
    text = v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)
    return _e(text if len(text) <= VALUE_CHARS else text[:VALUE_CHARS] + "…")


# ---- charts, tables and figures ----------------------------------------------------------------


class _Charts:
    """The specs of the page's charts, by name, as its figures are made."""

    def __init__(self):
        self.specs: dict[str, dict] = {}

    def figure(self, name: str, spec: dict | None, caption: str) -> str:
        """A chart's container and its caption; a short note instead when there is nothing to draw."""
        if spec is None:
            return f'<p class="empty">{caption} (Nothing to draw: the summary holds no data for it.)</p>'
        self.specs[name] = spec
        return (f'<figure><div class="chart" id="chart-{name}" data-chart="{name}" role="img" '
                f'aria-label="{html.escape(caption)}"></div><figcaption>{caption}</figcaption></figure>')


def _config() -> dict:
    """The look shared by every chart."""
    return {"font": "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif",
            "background": "white", "padding": 6,
            "range": {"category": PALETTE},
            "view": {"stroke": None},
            "axis": {"labelFontSize": 11, "titleFontSize": 12, "titleFontWeight": "normal", "titleColor": "#444",
                     "gridColor": "#ececec", "domainColor": "#888", "tickColor": "#888", "labelLimit": 220},
            "legend": {"labelFontSize": 11, "titleFontSize": 12, "labelLimit": 420, "orient": "bottom",
                       "direction": "horizontal"}}


def _plain_table(heads: list[str], rows: list[list[str]], cls: str = "") -> str:
    """A table of cells already HTML (heads are ours)."""
    head = "".join(f"<th>{h}</th>" for h in heads)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
    return f'<table class="{cls}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _sortable_table(heads: list[tuple[str, str]], rows: list[list[str]], cls: str) -> str:
    """A table whose rows (lists of `<td>`s) sort by a clicked header; `num` columns by `data-v`."""
    head = "".join(f'<th data-type="{kind}" tabindex="0" aria-sort="none">{h}</th>' for h, kind in heads)
    body = "".join("<tr>" + "".join(r) + "</tr>" for r in rows)
    return (f'<div class="scroll"><table class="sortable {cls}"><thead><tr>{head}</tr></thead>'
            f'<tbody>{body}</tbody></table></div>')


def _text(value) -> str:
    return f"<td>{_e(value)}</td>"


def _number(value, shown: str, cls: str = "") -> str:
    """A numeric cell: `shown`, sorted by `value` (blank when none, which sorts last)."""
    v = "" if value is None else repr(value) if isinstance(value, (int, float)) else ""
    return f'<td class="{" ".join(("n", cls)).strip()}" data-v="{v}">{shown}</td>'


# ---- text --------------------------------------------------------------------------------------


def _command(text: str) -> str:
    """A command line, escaped, that wraps between its words only (not at the hyphens of `--games`);
    copied, it is the same text."""
    return " ".join(f'<span class="w">{_e(word)}</span>' for word in text.split(" "))


def _e(text) -> str:
    """Text from the pack, the command or the summary, safe in HTML: control characters escaped, then markup."""
    return html.escape(safe(text))


# the shared figures, with a dash for what the summary does not hold
_pct = functools.partial(pct, missing="—")
_fig = functools.partial(fig, missing="—")


def _pts(x) -> str:
    """A difference of rates, in percentage points, signed."""
    return "—" if x is None else f"{100 * x:+.1f} pts"


def _signed(x) -> str:
    return "—" if x is None else f"{x:+.2f}"


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'s' * (n != 1)}"


def _count(x) -> str:
    return "—" if x is None else f"{x:,}"


def _p(x) -> str:
    return "—" if x is None else "&lt;1e-16" if x < 1e-16 else f"{x:.3g}"


def _interval(ci) -> str:
    """An interval of rates as a tooltip reads it, `12.5% – 30.0%`."""
    return "—" if not ci else f"{_pct(ci[0])} – {_pct(ci[1])}"




def _json(data) -> str:
    """`data` as JSON for a `<script>` element: non-finite numbers as null, every `<` as `\\u003c`."""
    return json.dumps(_finite(data), ensure_ascii=False, separators=(",", ":"), allow_nan=False).replace("<", "\\u003c")


def _finite(x):
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, dict):
        return {k: _finite(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_finite(v) for v in x]
    return x


# ---- what the page runs ------------------------------------------------------------------------


def _bundle() -> str:
    """Vega, Vega-Lite and vega-embed with the page's drawing code, as one ES module; PageError
    without vl-convert-python."""
    try:
        import vl_convert
    except ImportError:
        raise PageError("the balance report needs vl-convert-python, which is not installed: "
                        "pip install 'wonderforge[report]' (pip install '.[report]' in a clone)") from None
    return _bundled(vl_convert.javascript_bundle)


@functools.lru_cache(maxsize=1)
def _bundled(make) -> str:
    # a second or so to make, the same every time: made once per process
    code = make(DRAW_JS)
    return code.replace("</script", "<\\/script").replace("<!--", "<\\!--")  # nothing may end the element


# Draws every chart of the JSON data into its container, marks each as drawn (or failed, saying
# why, on the console too) and the page as done when all are.
DRAW_JS = """
const data = JSON.parse(document.getElementById("wf-charts").textContent);
const drawn = Object.entries(data.charts).map(([name, spec]) => {
  const box = document.getElementById("chart-" + name);
  return vegaEmbed(box, spec, {renderer: "svg", actions: false, config: data.config})
    .then(() => { box.dataset.drawn = "yes"; })
    .catch((err) => {
      box.dataset.drawn = "failed";
      box.textContent = "This chart could not be drawn: " + err;
      console.error("chart " + name + ": " + err);
    });
});
Promise.all(drawn).then(() => { document.documentElement.dataset.charts = "done"; });
"""

# Sorts a table by a clicked (or Enter-ed) header: numbers by their data-v, blanks last, text by locale.
SORT_JS = """
document.querySelectorAll("table.sortable").forEach((table) => {
  Array.from(table.tHead.rows[0].cells).forEach((th, col) => {
    const go = () => sortBy(table, th, col);
    th.addEventListener("click", go);
    th.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); } });
  });
});
function sortBy(table, th, col) {
  const up = th.getAttribute("aria-sort") !== "ascending";
  Array.from(th.parentNode.cells).forEach((h) => h.setAttribute("aria-sort", "none"));
  th.setAttribute("aria-sort", up ? "ascending" : "descending");
  const numeric = th.dataset.type === "num";
  const key = (row) => {
    const cell = row.cells[col];
    return numeric ? (cell.dataset.v === "" ? null : Number(cell.dataset.v)) : cell.textContent;
  };
  const body = table.tBodies[0];
  const rows = Array.from(body.rows).map((row) => [key(row), row]);
  rows.sort(([a], [b]) => {
    if (a === null || b === null) return (a === null) - (b === null);
    const order = numeric ? a - b : a.localeCompare(b);
    return up ? order : -order;
  });
  body.append(...rows.map(([, row]) => row));
}
"""

CSS = """
:root { --ink: #1d1d1f; --muted: #5f6368; --line: #e3e3e3; --accent: #0072B2; --warn: #D55E00;
        --a: #0072B2; --b: #D55E00; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif;
       color: var(--ink); background: #fafafa; }
header { background: #14324a; color: white; padding: 28px max(24px, calc(50% - 560px)) 20px; }
header h1 { margin: 0 0 4px; font-size: 26px; font-weight: 600; overflow-wrap: anywhere; }
header .sub { margin: 0 0 18px; color: #cfe0ee; overflow-wrap: anywhere; }
.tiles { display: grid; grid-template-columns: repeat(auto-fit, minmax(150px, 1fr)); gap: 10px; }
.tiles div { background: rgba(255,255,255,.1); border-radius: 8px; padding: 10px 14px; }
.tiles b { display: block; font-size: 22px; font-weight: 600; }
.tiles span { color: #cfe0ee; font-size: 13px; }
.tiles i { font-style: normal; font-size: 13px; font-weight: normal; color: #cfe0ee; }
nav { position: sticky; top: 0; z-index: 5; background: white; border-bottom: 1px solid var(--line);
      padding: 8px max(24px, calc(50% - 560px)); display: flex; flex-wrap: wrap; gap: 4px 18px; }
nav a { color: var(--accent); text-decoration: none; font-size: 14px; }
nav a:hover { text-decoration: underline; }
main { max-width: 1168px; margin: 0 auto; padding: 8px 24px 24px; }
section { background: white; border: 1px solid var(--line); border-radius: 10px; padding: 4px 24px 20px;
          margin: 18px 0; }
h2 { font-size: 20px; font-weight: 600; margin: 18px 0 4px; }
.lead { color: var(--muted); margin-top: 0; }
.key { font-size: 13px; color: var(--muted); }
.key .pack { color: var(--ink); font-weight: 600; overflow-wrap: anywhere; }
.key .pack::before { content: ""; display: inline-block; width: 10px; height: 10px; border-radius: 50%;
                     margin-right: 5px; background: var(--a); }
.key .pack.b::before { background: var(--b); }
.note { color: var(--muted); font-size: 13px; margin-bottom: 6px; }
figure { margin: 14px 0 22px; }
figcaption { color: var(--muted); font-size: 13px; max-width: 760px; margin-top: 4px; }
.chart { overflow-x: auto; min-height: 40px; }
table { border-collapse: collapse; font-size: 13px; margin: 8px 0; }
th, td { padding: 4px 8px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
th { background: #f3f5f7; font-weight: 600; position: sticky; top: 0; }
td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.yes { color: var(--warn); font-weight: 600; }
tbody tr:nth-child(even) { background: #fafbfc; }
table.sortable th { cursor: pointer; user-select: none; }
table.sortable th::after { content: " \\2195"; color: #aaa; }
table.sortable th[aria-sort="ascending"]::after { content: " \\2191"; color: var(--ink); }
table.sortable th[aria-sort="descending"]::after { content: " \\2193"; color: var(--ink); }
.scroll { max-height: 460px; overflow: auto; border: 1px solid var(--line); border-radius: 6px; }
.scroll table { margin: 0; width: 100%; }
.ci { color: var(--muted); font-size: 12px; white-space: nowrap; }
dl.facts { display: grid; grid-template-columns: max-content 1fr max-content 1fr; gap: 4px 14px; font-size: 13px;
           margin: 8px 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
@media (max-width: 760px) { dl.facts { grid-template-columns: max-content 1fr; } }
code, pre { font: 12.5px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre.cmd { background: #f3f5f7; padding: 8px 12px; border-radius: 6px; white-space: pre-wrap;
          overflow-wrap: anywhere; }
code.cmd { user-select: all; }
.w { display: inline-block; overflow-wrap: anywhere; max-width: 100%; }
table.quality td:not(:last-child) { white-space: nowrap; }
table.samples td:last-child { max-width: 760px; }
.warning { background: #fff1e8; border-left: 4px solid var(--warn); padding: 8px 12px; }
.empty { color: var(--muted); font-style: italic; }
ul.diff { padding-left: 18px; font-size: 13px; }
ul.diff li { margin: 2px 0; overflow-wrap: anywhere; }
.st { display: inline-block; min-width: 64px; font-size: 11px; text-transform: uppercase; font-weight: 600; }
.st.added { color: #009E73; } .st.removed { color: var(--warn); } .st.changed { color: var(--accent); }
footer { max-width: 1168px; margin: 0 auto; padding: 0 24px 32px; color: var(--muted); font-size: 12px; }
@media print {
  body { background: white; font-size: 11px; }
  header { background: white; color: black; padding: 0 0 8px; }
  header .sub, .tiles span { color: #444; }
  .tiles div { border: 1px solid #ccc; }
  nav { display: none; }
  main { max-width: none; padding: 0; }
  section { border: none; padding: 0; margin: 12px 0; break-inside: auto; }
  figure, tr, .tiles { break-inside: avoid; }
  h2 { break-after: avoid; }
  .scroll { max-height: none; overflow: visible; border: none; }
  th { position: static; }
  table.sortable th::after { content: ""; }
}
"""

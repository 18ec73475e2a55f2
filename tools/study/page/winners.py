"""The sections of who wins: the wonders (win rates with their intervals, and score boxes read off
the score histograms), the sample games with the commands that replay them, and the seats and bots.
"""

from __future__ import annotations

import math
import shlex
from typing import Iterable, Sequence
from urllib.parse import quote

from ....dsl.diagnostics import safe
from ...common.text import option_text
from ..stats import benjamini_hochberg, normal_two_sided
from .charts import FLAGGED, NOT_FLAGGED, box_spec, forest_spec
from .markup import Charts, command_html, esc, fig, interval, plain_table
from .packs import Run, pack_labels, per_pack, with_moves


# ---- wonders -----------------------------------------------------------------------------------


def wonders_section(charts: Charts, runs: list[Run], moves: dict) -> str:
    """The section of the wonders (and their sides): win rates with their intervals, and score boxes."""
    players, packs = runs[0].s["players"], pack_labels(runs)

    def tallies(key: str) -> list[dict]:
        rows = per_pack(runs, lambda s: tally_rows((s.get(key) or {}).items(), players))
        return with_moves(rows, moves.get(key), "win_rate") if packs else rows

    def boxes(key: str) -> list[dict]:
        return per_pack(runs, lambda s: _box_rows((s.get("histograms") or {}).get(key) or {}))

    out = [charts.figure("wonders", forest_spec(tallies("wonders"), players, "wonder", packs),
                         f"Each dot is a wonder's win rate, its line the 95% interval; the dashed line is the even "
                         f"share. {FILLED_MEANS}")]
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


FILLED_MEANS = ("A filled dot's win rate differs from the even share beyond chance: a z-test of each row's wins "
                "against the even share, its p-values adjusted over the chart's rows (Benjamini-Hochberg, "
                "q < 0.05); a hollow dot is not shown to differ.")
FDR = 0.05  # the false discovery rate of the rows filled


def tally_rows(items: Iterable[tuple[str, dict]], players: int) -> list[dict]:
    """A forest plot's rows, highest win rate first; those without games left out. A row is `flagged`
    when its wins differ from the even share by a z-test whose p-values are adjusted over the rows
    (Benjamini-Hochberg, q < FDR): a filled dot."""
    even = 1 / players
    rows = []
    for name, t in items:
        if t.get("win_rate") is None or not t.get("win_rate_ci"):
            continue
        lo, hi = t["win_rate_ci"]
        z = (t["win_rate"] - even) / math.sqrt(even * (1 - even) / t["games"])
        rows.append({"name": safe(name), "rate": t["win_rate"], "lo": lo, "hi": hi, "games": t["games"],
                     "wins": t["wins"], "score": t.get("mean_score"), "seed": t.get("example_seed"),
                     "interval": interval((lo, hi)), "p": normal_two_sided(z)})
    for row, q in zip(rows, benjamini_hochberg([r["p"] for r in rows])):
        row |= {"q": float(f"{q:.3g}"), "test": FLAGGED if q < FDR else NOT_FLAGGED}
    return sorted(rows, key=lambda r: (-r["rate"], r["name"]))


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


MAX_SAMPLE_PAGES = 8  # sample games per pack written as viewer pages beside a report: bounds its files and time


def sample_seeds(s: dict) -> list[int]:
    """The seeds of a summary's sample games, once each, in the order its table lists them."""
    return list(dict.fromkeys(t["example_seed"] for _, t in _by_win_rate(s) if t.get("example_seed") is not None))


def samples_section(s: dict, against: dict | None, pages: Sequence[dict[int, str]] = ()) -> str:
    """The section of sample games: a won game per wonder, with the command that replays it and, where
    `pages` (per pack, seed: file name) has it, the link to its viewer page written beside the report."""
    pages = [*pages, {}, {}]
    tables = [_sample_table(s, "", pages[0])] + \
        ([_sample_table(against, "In pack B: ", pages[1])] if against is not None else [])
    written = (f'The first {MAX_SAMPLE_PAGES} games of each table are written beside this page, to watch step by '
               'step, any seat\'s view or all (<em>watch</em>); for the others, ' if any(pages[:2]) else '')
    return ('<p class="lead">A game behind each wonder\'s figures: the smallest seed of a game it won, and the '
            'command that plays that game again (its record, with every score, goes to the file named). '
            f'{written or "Then "}<code class="cmd">wonderforge replay game-SEED.jsonl --html game-SEED.html</code> '
            'makes it a page to watch (for a run with the pack\'s default options and dealt wonders: a record '
            'holds neither), and <code class="cmd">wonderforge serve --watch game-SEED.jsonl</code> shows it on a '
            'server, at <code>/watch?name=game-SEED.jsonl&amp;seed=SEED</code>.</p>'
            + "".join(tables))


def _by_win_rate(s: dict) -> list[tuple[str, dict]]:
    return sorted(s["wonders"].items(), key=lambda kv: (-(kv[1].get("win_rate") or 0), kv[0]))


def _sample_table(s: dict, label: str, pages: dict[int, str]) -> str:
    rows = []
    for name, t in _by_win_rate(s):
        seed = t.get("example_seed")
        command = (f'<code class="cmd">{command_html(replay_command(s, seed))}</code>' if seed is not None
                   else "no game won")
        if seed in pages:
            command = f'<a href="{esc(quote(pages[seed]))}">watch</a> or ' + command
        rows.append([esc(name), f"{fig(t['wins'], 2 if isinstance(t['wins'], float) else 0)} of {t['games']:,}",
                     esc(seed if seed is not None else "—"), command])
    caption = f"<p>{label}{esc(s['pack'])}</p>" if label else ""
    return caption + plain_table(["wonder", "wins", "seed", "replay it"], rows, "samples")


# ---- seats and bots ----------------------------------------------------------------------------


def seats_section(charts: Charts, runs: list[Run]) -> str:
    """The section of seats and bots: the win rate of each seat, and of each bot when several played."""
    s, packs = runs[0].s, pack_labels(runs)
    players = s["players"]

    def seat_rows(r: dict) -> list[dict]:
        seats = [(f"seat {i} ({seat['bot']})", seat) for i, seat in enumerate(r["seats"])]
        return sorted(tally_rows(seats, players), key=lambda row: int(row["name"].split()[1]))

    out = [charts.figure("seats", forest_spec(per_pack(runs, seat_rows), players, "seat", packs),
                         "Win rate of each seat (in seating order) with its 95% interval: a seat far from the "
                         "dashed even share gains from where it sits.")]
    if len(s["bots"]) > 1:  # both packs are played by the same bots
        bots = per_pack(runs, lambda r: tally_rows(r["bots"].items(), players))
        out.append(charts.figure("bots", forest_spec(bots, players, "bot", packs),
                                 "Win rate of each bot over the seats it played: the gap between them is the "
                                 "game's reward for skill."))
    else:
        out.append(f"<p>One bot played every seat ({esc(next(iter(s['bots']), '—'))}): no comparison of bots.</p>")
    return ('<p class="lead">Whether where you sit or how well you play decides the game: seats should sit '
            'on the even share, stronger bots above it.</p>' + "".join(out))

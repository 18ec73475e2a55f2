"""What the page shows first: the header's line and tiles of the headline figures, the section of
the run (what was played, and how) and the section of the game's quality, each figure with its
interval and what it says in plain words.
"""

from __future__ import annotations

from ...common.text import option_text
from ..quality import COURSE_FIGURES
from .markup import command_html, esc, fig, pct, plain_table, rate_move
from .packs import Run


def subtitle(runs: list[Run]) -> str:
    """The header's line under the title: games, players, packs, bots and seeds."""
    s = runs[0].s
    bots = ", ".join(dict.fromkeys(seat["bot"] for seat in s["seats"]))
    differ = len({r.s["games"] for r in runs}) > 1  # games that did not end are left out
    games = " and ".join(f"{r.s['games']:,}" + (f" ({r.label[0]})" if differ else "") for r in runs[:1 + differ])
    packs = "; ".join(f"{r.label[0] + ': ' if r.label else ''}"
                      + ", ".join(f"{esc(p['id'])} {esc(p['version'])}" for p in r.s["packs"]) for r in runs)
    return (f"{games} games of {s['players']} players ({packs}), bots {esc(bots)}, "
            f"seeds {s['seeds'][0]}–{s['seeds'][1]}")


def glance(runs: list[Run]) -> str:
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
    return [("games", f"{s['games']:,}"), ("mean score", fig(s["mean_score"], 1)),
            ("balance among wonders", fig(q.get("balance_wonders"))),
            ("first-seat advantage, points of win rate", rate_move(q.get("first_seat_advantage"))),
            ("shared wins", pct(q.get("shared_wins_rate"))), ("even share of wins", pct(1 / s["players"]))]


# ---- the run -----------------------------------------------------------------------------------


def run_section(s: dict, command: str, against: dict | None) -> str:
    """The section of the run: what was played and how (of both packs with `against`), and the command."""
    runs = [s] if against is None else [s, against]
    if against is None:  # one run: its facts side by side, to keep the page's first screen for figures
        facts = "".join(f"<dt>{label}</dt><dd>{esc(value(s))}</dd>" for label, value in _RUN_ROWS)
        table = f'<dl class="facts">{facts}</dl>'
    else:
        table = plain_table(["", "pack A", "pack B"], [[label, *(esc(value(r)) for r in runs)]
                                                      for label, value in _RUN_ROWS])
    return ('<p class="lead">What was played, and how: read this first, as every figure below holds for these '
            'packs, bots and options only.</p>' + "".join(_unfinished(r) for r in runs if r.get("unfinished"))
            + "".join(never_taken(r, against is not None) for r in runs if r.get("never_taken_warning"))
            + table + f'<p>The command:</p><pre class="cmd"><code>{command_html(command)}</code></pre>')


def _unfinished(r: dict) -> str:
    """The warning of games that did not end, which no figure counts."""
    u = r["unfinished"]
    seeds = ", ".join(map(str, u["seeds"])) + ("…" if u["games"] > len(u["seeds"]) else "")
    return (f'<p class="warning"><b>Warning:</b> {esc(u["games"])} games of {esc(r["pack"])} did not end and are left '
            f'out of every figure (seeds {esc(seeds)}): {esc(u["reason"])}</p>')


def never_taken(r: dict, named: bool) -> str:
    """The warning of the components no bot took in any game (`named`: saying in which pack)."""
    where = f" (in {esc(r['pack'])})" if named else ""
    return (f'<p class="warning never-taken"><b>Warning{where}:</b> {esc(r["never_taken_warning"])}. A figure says '
            f'what it stands on: these bots never tried them.</p>')


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
    ("first_seat_advantage", "first-seat advantage, in points of win rate", "win points",
     "Seat 0's win rate minus the even share (1/players): above 0, the first seat wins more than its share."),
    ("shared_wins_rate", "shared wins", "pct", "The share of games whose win was shared (a tie on every tie-break)."),
    ("lead_changes", "lead changes", "fig", "How many times the lead changed hands between period ends, per game."),
    ("decided_from", "decided from", "pct",
     "From how far into the game the final winner led at every period end (100% = only at the end): low means "
     "games were settled early."),
    ("mean_periods", "periods per game", "fig", "Ages (or rounds) a game lasted, on average."),
    ("mean_actions", "actions per game", "fig1", "Moves and decisions of all seats in a game, on average."),
    ("skill_gap", "skill gap, in points of win rate", "win points",
     "The strongest bot's win rate minus the weakest's: how much playing well pays (none with one bot)."),
]


def quality_section(s: dict, against: dict | None) -> str:
    """The section of the quality of the game: each figure, its interval and what it says."""
    runs = [s] if against is None else [s, against]
    heads = ["figure", *(["A", "B"] if against is not None else ["value"]), "what it says"]
    rows = [[name, *(_quality_value(r.get("quality") or {}, key, how) for r in runs), definition]
            for key, name, how, definition in QUALITY]
    gap = [(r.get("quality") or {}).get("skill_gap_bots") for r in runs]
    note = "".join(f"<p>Skill gap{' of ' + label if against is not None else ''}: {esc(pair[0])} against "
                   f"{esc(pair[1])}.</p>" for label, pair in zip("AB", gap) if pair)
    sample = course_sample(runs)
    if sample:
        note += f'<p class="note">{sample}</p>'
    if len({seat["bot"] for seat in s["seats"]}) > 1:
        note += ('<p class="note">The seats are played by different bots: the balance among seats and the '
                 'first-seat advantage mix where a player sits with how well its bot plays.</p>')
    return (f'<p class="lead">How the game plays as a whole: each figure, its 95% interval where it has one, '
            f'and what it says in plain words.</p>{plain_table(heads, rows, "quality")}{note}')


def course_sample(summaries: list[dict]) -> str:
    """What the course's figures stand on, when a long run scored only some of its games after each
    period (empty when it scored them all); A's and B's when two packs are compared."""
    counts = [(s["quality"]["course_games"], s["games"]) for s in summaries]
    if all(course >= games for course, games in counts):
        return ""
    said = [f"the {course} of the {games} games" + (f" of {label}" if len(counts) > 1 else "")
            for label, (course, games) in zip("AB", counts)]
    return (f"{COURSE_FIGURES.capitalize()} stand on {' and '.join(said)} "
            "scored after each period (one in a few seeds: scoring every game so would cost a long run a tenth of "
            "its time).")


def _quality_value(q: dict, key: str, how: str) -> str:
    value, ci = q.get(key), q.get(f"{key}_ci")
    shown = {"fig": fig, "fig1": lambda x: fig(x, 1), "pct": pct, "win points": rate_move}[how]
    text = shown(value)
    if ci:
        text += f' <span class="ci">[{shown(ci[0])}, {shown(ci[1])}]</span>'
    return text

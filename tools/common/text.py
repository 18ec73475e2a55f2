"""Words shared by the terminal screens, the command line and the balance page: counts, costs, payments,
the score table, a summary's figures."""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from ...dsl.diagnostics import safe
from ...dsl.printer import show
from ...interpreter.games.game import Game
from ...interpreter.packs.catalogue import Cost


STAGES = "stages"  # the summary's component group of the wonder stages built (by number)


def pct(x, digits: int = 1, missing: str = "-") -> str:
    """A rate as a percentage, `12.5%`; `missing` when there is none."""
    return missing if x is None else f"{100 * x:.{digits}f}%"


def ci_pct(ci, digits: int = 1) -> str:
    """An interval of rates in percents, `[12.5, 30.0]`; empty when there is none."""
    return "" if not ci else f"[{100 * ci[0]:.{digits}f}, {100 * ci[1]:.{digits}f}]"


def fig(x, digits: int = 2, missing: str = "-") -> str:
    """A figure with `digits` decimals, thousands grouped, `1,234.50`; `missing` when there is none."""
    return missing if x is None else f"{x:,.{digits}f}"


def option_text(v) -> str:
    """A game option's value as `--options` takes it: `true`, not `True`."""
    return str(v).lower() if isinstance(v, bool) else str(v)


def score_table(names: Sequence[str], scores: Sequence[dict]) -> str:
    """One row per player: points by category in the pack's order, then the total; names escaped
    (`safe`), as they come from a scenario, a log or a pack."""
    categories = list(dict.fromkeys(c for s in scores for c in s["breakdown"]))
    header = ["player", *map(safe, categories), "total"]
    rows = [[safe(name), *(str(s["breakdown"].get(c, 0)) for c in categories), str(s["total"])]
            for name, s in zip(names, scores)]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    def line(cells):
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths))).rstrip()
    return "\n".join([line(header), *(line(r) for r in rows)])


def winners_line(names: Sequence[str], winners: Sequence[int]) -> str:
    """`winner: alice`, or the tied winners; names escaped."""
    who = ", ".join(safe(names[s]) for s in winners)
    return f"winner: {who}" if len(winners) == 1 else f"winners (tied): {who}"


def count(n: int, word: str) -> str:
    """`1 coin`, `3 coins`: a counter's name read as a plural."""
    return f"{n} {word[:-1] if n == 1 and word.endswith('s') else word}"


def plural(n: int, word: str) -> str:
    """`1 victory token`, `2 victory tokens`: a noun counted."""
    return f"{n} {word}{'s' * (n != 1)}"


def resources_text(resources: Sequence[str]) -> str:
    """`2 stone + ore`."""
    counts = Counter(resources)
    return " + ".join(f"{n} {r}" if n > 1 else r for r, n in sorted(counts.items(), key=lambda rn: (-rn[1], rn[0])))


def cost_text(game: Game, cost: Cost) -> str:
    parts = [count(n, name) for name, n in cost.counters]
    if cost.resources:
        parts.append(resources_text(cost.resources) + (f" less {cost.spare} of your choice" if cost.spare else ""))
    return " + ".join(parts) or "nothing"


def pay_text(game: Game, pay: Sequence[int]) -> str:
    """`2 coins to left and 1 to right`."""
    parts = [(c, seller) for c, seller in zip(pay, game.payees) if c]
    if not parts:
        return "nothing to buy"
    first, rest = parts[0], parts[1:]
    out = f"{count(first[0], game.currency or 'coins')} to {first[1]}"
    return out + "".join(f" and {c} to {seller}" for c, seller in rest)


def units_text(units: Sequence[tuple[str, ...]], public: Sequence[tuple[str, ...]] = ()) -> str:
    """Production: `2 stone, glass, wood/ore (yours only)`."""
    if not units:
        return "nothing"
    sellable = Counter(public)
    out = []
    for unit in dict.fromkeys(units):
        n = units.count(unit)
        shared = min(n, sellable[unit])
        for k, private in ((shared, False), (n - shared, True)):
            if k:
                text = "/".join(unit)
                out.append((f"{k} {text}" if k > 1 else text) + (" (yours only)" if private else ""))
    return ", ".join(out)


def tally(names: Sequence[str]) -> str:
    """`2 Stone, Wood`: names in first-seen order, with how many of each."""
    counts = Counter(names)
    return ", ".join(f"{counts[n]} {n}" if counts[n] > 1 else n for n in dict.fromkeys(names))


def one_line(text) -> str:
    return "; ".join(line.strip() for line in str(text or "").splitlines() if line.strip())


def copy_text(game: Game, stage_id: str) -> str:
    """A `copy stage` choice (`copy alexandria:a:2`) as its player reads it: the stage's wonder,
    number and effect."""
    for side in game.catalogue.sides.values():
        for stage in side.stages:
            if stage.id == stage_id:
                said = "; ".join(show(e.node) for e in stage.effects)
                return f"copy {stage.name}" + (f" ({said})" if said else "")
    return f"copy {stage_id}"

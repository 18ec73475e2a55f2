"""Print syntax trees back as canonical text: `parse(print(tree)) == tree`.

One function per node class, registered in `_PRINTERS`; a verb's node prints itself (`text()`,
dsl/verbs/).
"""

from __future__ import annotations

from typing import Callable

from . import ast


def print_effects(effects: ast.Effects) -> str:
    """Canonical text of an `effect:` field, one sentence per line."""
    return "\n".join(show(e) for e in effects.items)


def print_cost(cost: ast.Cost) -> str:
    """Canonical text of a `cost:` field."""
    return show(cost)


def show(node) -> str:
    """Canonical text of any node."""
    printer = _PRINTERS.get(type(node))
    return node.text() if printer is None else printer(node)


def plural(noun: str, count: int) -> str:
    """`card` for one, `cards` for more (`box`, `boxes`)."""
    if count == 1:
        return noun
    return noun + ("es" if noun.endswith("x") else "s")


def names_text(names: ast.Names, sep: str = " / ") -> str:
    """Names as written, `a / b` (or `a, b`)."""
    return sep.join(n.text for n in names)


def zones_text(zones: ast.Zones) -> str:
    """Zones as written, `deck of self / central_deck`."""
    return " / ".join(show(z) for z in zones)


def _of(name: ast.Name, owner: ast.Name | None) -> str:
    return name.text if owner is None else f"{name.text} of {owner.text}"


def _effect(e: ast.Effect) -> str:
    text = " then ".join(show(a) for a in e.actions)
    if e.trigger is not None:
        text = f"{show(e.trigger)}: {text}"
    if e.condition is not None:
        text += f" if {show(e.condition)}"
    if e.limit is not None:
        text += f" once per {e.limit.text}"
    return text


_TRIGGERS = {
    "build": "on build", "end": "at end", "battle": "at battle", "turn_start": "at turn start",
    "turn_end": "at turn end", "take": "on take", "stage": "on stage", "choose_die": "on choose",
}


# doings said `on [players] <word> ...` (the owner's without players): `take_token` is `take ... token`
_DOINGS = frozenset({"buy", "sell", "chain", "discard", "take_token", "lose_token", "gain"})


def _trigger(t: ast.Trigger) -> str:
    if t.event in _DOINGS:
        words = ["on", t.who.text if t.who else None, t.event.removesuffix("_token"), show(t.filter) if t.filter else None,
                 names_text(t.kinds) if t.kinds else None, "token" if t.event.endswith("_token") else None]
        return " ".join(w for w in words if w)
    if t.who is not None:
        said = "stage" if t.event == "stage" else f"{t.word} {show(t.filter)}"
        return f"on {t.who.text} {said}"
    if t.event == "take":
        return f"on take {show(t.filter)}"
    if t.event == "choose_die":
        return f"on choose {names_text(t.dice)} die"
    if t.event in ("round_start", "round_end"):
        return f"at {t.period.text} {t.event.split('_')[1]}"
    return _TRIGGERS[t.event]


def _card_filter(f: ast.CardFilter) -> str:
    text = f"{names_text(f.kinds)} card" if f.kinds else "card"
    return text + (f" with {names_text(f.icons)}" if f.icons else "")


def _thing(t: ast.Thing) -> str:
    if t.noun == "counter":
        return names_text(t.kinds)
    if t.noun == "science set":
        return "science set"
    return f"{names_text(t.kinds)} {t.noun}" if t.kinds else t.noun


_PERIODS = {"before_round": "before this round", "one_battle": "from one battle", "this_battle": "from this battle"}


def _count(c: ast.Count) -> str:
    parts = [str(c.divisor)] if c.divisor is not None else []
    parts.append(show(c.what))
    if c.places and isinstance(c.places[0], ast.UnderStage):
        parts.append(show(c.places[0]))
    elif c.places:
        parts.append("in " + ", ".join(show(p) for p in c.places))
    if c.period:
        parts.append(f"this {c.within.text}" if c.within else _PERIODS[c.period])
    return " ".join(parts)


def _amount(a: ast.Amount) -> str:
    if a.form == "fixed":
        return str(a.values[0])
    if a.form == "table":
        return ", ".join(map(str, a.values)) + f" by {show(a.count)}"
    return f"{a.values[0]} {a.form} {show(a.count)}"


def _shown(s: ast.ShownBuilding) -> str:
    text = f"building shown by {s.die.text} die"
    return text + (f" of {s.owner.text}" if s.owner else "")


def _junction(word: str) -> Callable:
    def show_items(node) -> str:
        return f" {word} ".join(_grouped(i) for i in node.items)
    return show_items


def _grouped(c) -> str:
    # `and` binds tighter than `or`, so only an `or` inside an `and` needs brackets.
    return f"({show(c)})" if isinstance(c, ast.AnyOf) else show(c)


def _cost_term(t: ast.CostTerm) -> str:
    if t.kind is not None:
        text = f"{t.count} {t.kind}"
    else:
        text = t.name.text if t.count == 1 and t.less is None else f"{t.count} {t.name.text}"
    return text if t.less is None else f"{text} {'plus' if t.rises else 'minus'} {show(t.less)}"


_PRINTERS: dict[type, Callable] = {
    ast.Effects: print_effects,
    ast.Effect: _effect,
    ast.Trigger: _trigger,
    ast.CardFilter: _card_filter,
    ast.Thing: _thing,
    ast.Count: _count,
    ast.Amount: _amount,
    ast.CardSet: lambda s: "set of " + ", ".join(show(f) for f in s.filters),
    ast.CostOf: lambda c: f"{names_text(c.names)} cost of {show(c.filter)}".lstrip(),
    ast.UnderStage: lambda u: "under stage" + (f" of {u.owner.text}" if u.owner else ""),
    ast.Place: lambda p: _of(p.name, p.owner),
    ast.ShownBuilding: _shown,
    ast.Zone: lambda z: _of(z.name, z.owner),
    ast.AtLeast: lambda a: show(a.count),
    ast.Compare: lambda c: f"{show(c.count)} {c.op} {names_text(c.sides, ', ')}",
    ast.Bound: lambda b: f"{show(b.count)} {b.op} {b.value}",
    ast.Players: lambda p: f"players {p.op} {p.value}",
    ast.Complete: lambda c: f"{c.name.text} complete",
    ast.AllOf: _junction("and"),
    ast.AnyOf: _junction("or"),
    ast.Cost: lambda c: " + ".join(_cost_term(t) for t in c.terms) if c.terms else "copied" if c.copied else "free",
    ast.CostTerm: _cost_term,
}

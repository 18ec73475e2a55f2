"""What a pack's schemas cannot say, one value against another: the names its components use
exist (colours, cards to chain from and in decks, dice, buildings), a wonder's stages rest on earlier
ones, no triggered effects set each other off without end, and rules.yaml agrees with itself and
with the components (player counts, sides, objectives, options)."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import attrs

from ...dsl import ast
from ...dsl.diagnostics import Diagnostic, did_you_mean, one_of
from ...dsl.loops import Node as Loop
from ...dsl.loops import find_loops
from ...dsl.printer import show
from .model import Component, Pack, has, rules_source, sentences
from .schemas import COMPONENT_KINDS, NAMES_OF


def check_content(pack: Pack) -> Iterator[Diagnostic]:
    """Every problem of a loaded and compiled pack that its content shows, one value against another."""
    for check in _CHECKS:
        for diagnostic in check(pack):
            if diagnostic is not None:
                yield diagnostic


def _ref(component: Component, field: tuple, word: str, known, what: str, code: str = "E-REF-UNKNOWN",
         key: bool = False) -> Diagnostic:
    return component.diagnostic(code, f"{component.id}: unknown {what} '{word}'", field,
                                did_you_mean(word, known) or f"known: {one_of(known) or 'none'}", key=key)


def _check_cards(pack: Pack) -> Iterator[Diagnostic]:
    cards, colours = pack.components["cards"], pack.vocabulary.names["colour"]
    players = pack.rules.get("players") if isinstance(pack.rules.get("players"), dict) else {}
    most = players.get("max", 99)
    # A copy for more players than a later pack allows (a mod for fewer players) is not the base's
    # error: it is never dealt, which `check` warns of (dealing.py) when a whole card is never dealt.
    layers = [layer.id for layer in pack.lineage()]
    lowered = max((i for i, layer in enumerate(pack.lineage()) if layer.own_rules
                   and has(layer.own_rules[0], ("players", "max"))), default=0)
    for card in cards.values():
        colour = card.data.get("colour")
        if isinstance(colour, str) and colour not in colours:
            yield _ref(card, ("colour",), colour, colours, "colour", "E-REF-COLOUR")
        for i, other in enumerate(card.data.get("chain_from") or []):
            if other == card.id:
                yield card.diagnostic("E-REF-CHAIN", f"{card.id} chains from itself", ("chain_from", i))
            elif other not in cards:
                yield _ref(card, ("chain_from", i), other, cards, "card to chain from", "E-REF-CHAIN")
        for deck, copies in (card.data.get("copies") or {}).items():
            for j, needed in enumerate(copies if isinstance(copies, list) else []):
                writer = card.owner(("copies", deck, j))
                if isinstance(needed, int) and isinstance(most, int) and needed > most and not (
                        writer in layers and layers.index(writer) < lowered):
                    yield card.diagnostic("E-VALUE", f"{card.id}: a copy for {needed} players, but the game has at "
                                          f"most {most}", ("copies", deck, j))


def _check_wonders(pack: Pack) -> Iterator[Diagnostic]:
    cards = pack.components["cards"]
    for wonder in pack.components["wonders"].values():
        for card_id in (wonder.data.get("deck") or {}):
            if card_id not in cards:
                yield _ref(wonder, ("deck", card_id), card_id, cards, "card in deck", key=True)
        sides = wonder.data.get("sides") or {"": {"stages": wonder.data.get("stages")}}
        for side_name, side in sides.items():
            prefix = ("sides", side_name) if side_name else ()
            stages = side.get("stages") if isinstance(side, dict) else None
            for n, stage in enumerate(stages if isinstance(stages, list) else [], start=1):
                for j, need in enumerate(stage.get("requires") or [] if isinstance(stage, dict) else []):
                    if isinstance(need, int) and need >= n:
                        yield wonder.diagnostic(
                            "E-REF-STAGE", f"{wonder.id}: stage {n} requires stage {need}, which is not below it",
                            prefix + ("stages", n - 1, "requires", j), "a stage can only rest on earlier stages")


def _check_decks(pack: Pack) -> Iterator[Diagnostic]:
    cards = pack.components["cards"]
    for layer in pack.lineage():
        data, source = layer.own_rules or ({}, None)
        decks = data.get("decks")
        for deck, content in (decks or {}).items() if isinstance(decks, dict) else ():
            for card_id, count in content.items() if isinstance(content, dict) else ():
                if isinstance(count, int) and card_id not in cards:
                    yield source.diagnostic("E-REF-UNKNOWN", f"deck '{deck}' holds unknown card '{card_id}'",
                                            ("decks", deck, card_id), did_you_mean(card_id, cards), key=True)


def _check_dice(pack: Pack) -> Iterator[Diagnostic]:
    buildings = pack.vocabulary.names["building"]
    colours = pack.vocabulary.names["colour"]
    dice = {d: c for kind, of in NAMES_OF.items() if of == "die" for d, c in pack.components[kind].items()}
    for die in dice.values():
        colour = die.data.get("colour")
        if isinstance(colour, str) and colour not in colours:
            yield _ref(die, ("colour",), colour, colours, "colour", "E-REF-COLOUR")
        for i, face in enumerate(die.data.get("faces") or []):
            building = str(face).split(".")[0]
            if building not in buildings:
                yield _ref(die, ("faces", i), building, buildings, "building on a face")
    for building in pack.components["buildings"].values():
        die = building.data.get("die")
        if isinstance(die, str) and die not in dice:
            yield _ref(building, ("die",), die, dice, "die")


def _check_loops(pack: Pack) -> Iterator[Diagnostic]:
    """Triggered effects that can set each other off without end (see dsl/loops.py), reported
    at the first one of each circle, naming every piece in it."""
    nodes = []
    for sentence in sentences(pack):
        node = sentence.effect.node
        if sentence.kind is None and sentence.field[0] == "icons":  # what an icon does runs when a card bearing it is taken
            node = attrs.evolve(node, trigger=ast.Trigger("take"))
        piece = sentence.owner if sentence.kind is not None and NAMES_OF[sentence.kind] == "card" else None
        nodes.append(Loop(sentence, node, piece))
    cards = {cid: c.data.get("colour") for cid, c in pack.components["cards"].items()}
    resolve = lambda word: pack.vocabulary.resolve(word, "colour", "card", "counter", "token") or word  # noqa: E731
    flow = pack.rules.get("flow") if isinstance(pack.rules.get("flow"), dict) else {}
    unique_in = str(flow.get("build_zone", "")) if flow.get("unique_cards") is True else None
    for loop in find_loops(nodes, cards, resolve, unique_in, _single_cards(pack)):
        # said at a sentence the pack itself wrote, where there is one: a base's alone never loops
        mine = next((i for i, n in enumerate(loop) if _within(pack, n.label.source.path)), 0)
        loop = loop[mine:] + loop[:mine]
        first = loop[0].label
        names = " -> ".join(n.label.owner for n in loop + loop[:1])
        message = (f"{first.owner}: '{show(loop[0].effect)}' sets itself off again, without end" if len(loop) == 1 else
                   f"{first.owner}: effects that set each other off without end: {names}")
        yield first.diagnostic("E-DSL-LOOP", message, loop[0].effect.span,
                               "limit one of them with 'once per turn' (or another period): it then runs once a period at most")


def _single_cards(pack: Pack) -> frozenset[str]:
    """The cards a game holds one copy of, in one city at a time: one in `copies`, in no deck of
    rules.yaml or of a wonder (those deal their own copies); none in a pack with laws (a law is in
    force in every city) or one a player may play alone (their neighbours are themselves)."""
    players = pack.rules.get("players") if isinstance(pack.rules.get("players"), dict) else {}
    if "laws" in pack.rules or not isinstance(players.get("min"), int) or players["min"] < 2:
        return frozenset()
    decks = pack.rules.get("decks") if isinstance(pack.rules.get("decks"), dict) else {}
    dealt = {cid for deck in decks.values() if isinstance(deck, dict) for cid in deck}
    dealt |= {cid for wonder in pack.components["wonders"].values() for cid in (wonder.data.get("deck") or {})}
    return frozenset(cid for cid, card in pack.components["cards"].items() if cid not in dealt and isinstance(
        copies := card.data.get("copies"), dict) and sum(_copies(v) for v in copies.values()) == 1)


def _copies(written) -> int:
    """The copies a `copies:` entry deals at most: a count, or a player count per copy."""
    return written if isinstance(written, int) else len(written) if isinstance(written, list) else 2


def _within(pack: Pack, path: str) -> bool:
    """Whether a file is one of the pack's own (not a base's)."""
    return Path(path).resolve().is_relative_to(Path(pack.folder).resolve())


def _check_rules(pack: Pack) -> Iterator[Diagnostic]:
    """What the schema cannot say of rules.yaml, one value against another: the player counts,
    the sides every wonder has, the components laid out as objectives (a flow's own: check.py).
    Each would stop a game that the pack's checks let through."""
    rules = pack.rules

    def at(path: tuple, message: str, hint: str | None = None, key: bool = False) -> Diagnostic | None:
        source = rules_source(pack, path)
        return source.diagnostic("E-RULES", message, path, hint, key=key) if source else None

    def dig(*path):
        data = rules
        for step in path:
            data = data.get(step) if isinstance(data, dict) else None
        return data

    low, high = dig("players", "min"), dig("players", "max")
    if isinstance(low, int) and isinstance(high, int) and low > high:
        yield at(("players", "min"), f"players.min is {low}, above players.max {high}: no player count is allowed",
                 "write the least number of players first, then the most")
    high = high if isinstance(high, int) else None
    yield from _check_sides(pack, dig("setup", "sides"))
    yield from _check_objectives(pack, dig("objectives"), high, at)
    yield from _check_option_needs(dig("options"), at)
    yield from _check_shortfall(pack, dig("shortfall"), at)
    yield from _check_owing(pack, dig("shortfall"), dig("owing"), at)
    yield from _check_conflicts(pack, at)
    zone = dig("laws", "zone")
    if isinstance(zone, str) and not pack.vocabulary.resolve(zone, "shared_zone"):
        shared = sorted(pack.vocabulary.all("shared_zone"))
        yield at(("laws", "zone"), f"laws lie in '{zone}', which is no shared zone of the vocabulary",
                 f"declare it (`zones: {{shared: [{', '.join(shared + [zone])}]}}`) or name one of: {', '.join(shared)}")


def _check_shortfall(pack: Pack, shortfall, at) -> Iterator[Diagnostic]:
    """`shortfall` names counters (but points, which may fall below zero)."""
    vocab, points = pack.vocabulary, (pack.rules.get("scoring") or {}).get("counter")
    counters = vocab.all("counter") - {points} if vocab is not None else set()
    for name in shortfall if isinstance(shortfall, dict) and vocab is not None else ():
        if vocab.resolve(name, "counter") in counters:
            continue
        what = "points, which may fall below zero" if vocab.resolve(name, "counter") else "no counter of the pack"
        yield at(("shortfall", name), f"shortfall '{name}' names {what}: nothing is ever short of it",
                 did_you_mean(name, counters) or f"counters: {one_of(counters) or 'none'}", key=True)


def _check_owing(pack: Pack, shortfall, owing, at) -> Iterator[Diagnostic]:
    """`owing` names counters whose `shortfall` says what a unit owed costs."""
    short = set(shortfall) if isinstance(shortfall, dict) else set()
    for i, name in enumerate(owing if isinstance(owing, list) else ()):
        if name not in short:
            yield at(("owing", i), f"owing '{name}' has no shortfall: what a {name} owed costs is not said",
                     f"say it under `shortfall` (`shortfall: {{{name}: take debt token}}`)")


def _check_conflicts(pack: Pack, at) -> Iterator[Diagnostic]:
    """Each conflict (`military`, `conflicts.<name>`) names counters the pack declares, has tokens
    of its own (`from this battle` tells conflicts apart by them), and says only what its `among`
    can do."""
    specs = [(("military",), pack.rules.get("military"))]
    specs += [(("conflicts", name), spec) for name, spec in (pack.rules.get("conflicts") or {}).items()]
    counters, kinds = set(pack.vocabulary.all("counter")), {}
    own = set(pack.rules.get("tokens") or ()) if isinstance(pack.rules.get("tokens"), dict) else set()
    for path, spec in (p for p in specs if isinstance(p[1], dict)):
        for key in ("counter", "skip", "give_defeats"):
            name, held = spec.get(key), counters | (own if key != "counter" else set())
            if isinstance(name, str) and name not in held:
                what = "counter" if key == "counter" else "counter or token kind of its own (`tokens:`)"
                yield at(path + (key,), f"{'.'.join(path)}.{key} names '{name}', which is no {what} of this pack",
                         did_you_mean(name, held) or "declare it in vocabulary.counters")
        for side in ("victory", "defeat"):
            kind = (spec.get(side) or {}).get("token") if isinstance(spec.get(side), dict) else None
            if isinstance(kind, str) and kinds.setdefault(kind, path) != path:
                yield at(path + (side, "token"), f"{'.'.join(path)} gives {kind} tokens, as {'.'.join(kinds[kind])} "
                         "does: `from this battle` could not tell their battles apart", "give each conflict tokens of its own")
        values = (spec.get("victory") or {}).get("values") if isinstance(spec.get("victory"), dict) else None
        if spec.get("among", "neighbours") == "all":
            for key in ("two_players", "give_defeats", "discard_after"):
                if key in spec:
                    yield at(path + (key,), f"a conflict among all has no {key}: no neighbour wins or loses against another",
                             "leave it out, or write `among: neighbours`", key=True)
        elif any(isinstance(v, list) for v in values or ()):
            yield at(path + ("victory", "values"), "among neighbours a victory token has one value each round: "
                     "values by place are for `among: all`", "write one value a round, or `among: all`")
        if path == ("conflicts", "military") and pack.rules.get("military"):
            yield at(path, "a conflict named military, beside `military:`", "give it another name", key=True)


def _check_option_needs(declared, at) -> Iterator[Diagnostic]:
    """An option `requires` only options of the pack."""
    declared = declared if isinstance(declared, dict) else {}
    for name, spec in declared.items():
        for other in (spec.get("requires") or {}) if isinstance(spec, dict) else ():
            if other not in declared:
                yield at(("options", name, "requires", other), f"option {name} requires '{other}', which is no "
                         "option of this pack", did_you_mean(other, declared) or f"its options: {one_of(declared)}",
                         key=True)


def _check_sides(pack: Pack, sides) -> Iterator[Diagnostic]:
    """Every wonder has each side `setup.sides` lists, and a side it lists not is never dealt (a
    warning); without it, its stages without sides."""
    sides = [s for s in sides if isinstance(s, str)] if isinstance(sides, list) else []
    for wonder in pack.components["wonders"].values():
        own = wonder.data.get("sides")
        for extra in [s for s in own if s not in sides] if sides and isinstance(own, dict) else ():
            found = wonder.diagnostic(
                "W-DEAL", f"{wonder.id}: side '{extra}' is never dealt: rules.yaml setup.sides deals "
                f"{', '.join(sides)}", ("sides", extra),
                f"list '{extra}' in setup.sides (every wonder then needs it), or take the side out", key=True)
            yield attrs.evolve(found, severity="warning")
        if sides:
            missing = [s for s in sides if not isinstance(own, dict) or s not in own]
            if missing:
                yield wonder.diagnostic(
                    "E-REF-SIDE", f"{wonder.id}: no side '{missing[0]}', which rules.yaml setup.sides gives every wonder",
                    ("sides",) if isinstance(own, dict) else ("id",),
                    f"write side '{missing[0]}' of {wonder.id}, or leave it out of setup.sides", key=isinstance(own, dict))
        elif isinstance(own, dict):
            yield wonder.diagnostic(
                "E-REF-SIDE", f"{wonder.id} has sides, but rules.yaml lists no setup.sides to deal them",
                ("sides",), "list the sides in rules.yaml setup.sides, or write the stages without sides",
                key=True)


def _check_objectives(pack: Pack, spec, most: int | None, at) -> Iterator[Diagnostic]:
    """`objectives` lays components of one kind, each with an `objective`: `between_neighbours`
    between each pair of neighbours, and `central.count` more in the middle, so the kind must have
    enough."""
    if not isinstance(spec, dict) or not isinstance(spec.get("kind"), str):
        return
    kind = spec["kind"]
    if kind not in pack.components:
        yield at(("objectives", "kind"), f"objectives lays '{kind}', which is no kind of component",
                 did_you_mean(kind, COMPONENT_KINDS) or f"kinds: {one_of(COMPONENT_KINDS)}")
        return
    pool = pack.components[kind]
    for component in pool.values():
        if "objective" not in component.data:
            yield component.diagnostic(
                "E-RULES", f"{component.id} has no objective, but rules.yaml lays the {kind} out as objectives",
                ("id",), "give it an 'objective:' (a condition), or lay out another kind")
    central = spec.get("central")
    extra = central.get("count") if isinstance(central, dict) and isinstance(central.get("count"), int) else 0
    between = spec.get("between_neighbours") if isinstance(spec.get("between_neighbours"), int) else 1
    needed = most * between + extra if most is not None else 0
    removed = [r for layer in pack.lineage() for r in layer.removals if r.kind == kind and r.id not in pool]
    if len(pool) < needed <= len(pool) + len(removed):  # the base had enough: the removals are to blame
        names = ", ".join(r.id for r in removed)
        yield removed[0].diagnostic(
            "E-RULES", f"removing {names} leaves {len(pool)} {kind}, but objectives lays {needed} at {most} players",
            f"keep {needed - len(pool)} of them, or lower players.max")
    elif len(pool) < needed:
        middle = f" and {extra} in the middle" if extra else ""
        each = "one" if between == 1 else str(between)
        yield at(("objectives",), f"objectives lays {most * between + extra} {kind} at {most} players ({each} between each "
                 f"pair of neighbours{middle}), but the pack has {len(pool)}", f"give the pack more {kind}, or lay fewer",
                 key=True)


_CHECKS = (_check_cards, _check_wonders, _check_decks, _check_dice, _check_loops, _check_rules)

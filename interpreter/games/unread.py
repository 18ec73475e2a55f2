"""What a pack declares that nothing reads, for `check` (check.py): a rules.yaml key no engine code
reads for the pack's flow (W-RULES-UNREAD), a counter or a token kind of its own that no count,
condition, cost or rules value names and no sentence spends (W-COUNTER-UNREAD). Warnings: each
changes nothing in play.
"""

from __future__ import annotations

from typing import Iterator

import attrs

from ...dsl import ast, verbs
from ...dsl.ast import nodes as _nodes
from ...dsl.diagnostics import Diagnostic
from ...dsl.parser import parse_cost
from ..packs.model import Pack, sentences, value_at


def cost_fields(pack: Pack) -> Iterator[tuple]:
    """(component, field, compiled cost, its text) of every cost of the pack's components."""
    for component in (c for kind in pack.components.values() for c in kind.values()):
        for field, compiled in component.compiled.items():
            text = value_at(component.data, field)
            if isinstance(compiled, dict) and isinstance(text, (str, int)):
                yield component, field, compiled, str(text)


def unread_keys(pack: Pack, reads: tuple[str, ...]) -> Iterator[Diagnostic]:
    """A warning at each key of the pack's own rules.yaml files that no engine code reads."""
    flow = pack.rules["flow"]["kind"]
    for layer in pack.lineage():
        if layer.own_rules is None:
            continue
        data, source = layer.own_rules
        for path in _keys(data, ()):
            dotted = ".".join(path)
            if not any(dotted == r or dotted.startswith(r + ".") or r.startswith(dotted + ".") for r in reads):
                found = source.diagnostic("W-RULES-UNREAD", f"rules.yaml `{dotted}` is not read in a game of the "
                                          f"{flow} flow: it changes nothing", path,
                                          "remove it, or use a flow that reads it", key=True)
                yield attrs.evolve(found, severity="warning")


def unread_counters(pack: Pack) -> Iterator[Diagnostic]:
    """A warning at each counter and each token kind of its own (`tokens:`) a pack's own rules.yaml
    declares that nothing reads: no count, condition or cost names it, no sentence spends it, no
    rules.yaml value does (the score, the currency, the military strength, a tie-break...), and a
    token kind is worth no points."""
    vocab, read = pack.vocabulary, set()
    trees = [s.effect.node for s in sentences(pack)] + [t.tree for t in _conditions(pack)]
    for node in (n for tree in trees for n in _nodes(tree)):
        if isinstance(node, ast.Thing) and node.noun in ("counter", "token"):
            read |= {vocab.resolve(n.text, "counter", "token") for n in node.kinds}
        elif isinstance(node, verbs.SpendTokens):
            read.add(vocab.resolve(node.kind.text, "token"))
        elif isinstance(node, verbs.Pay):
            read.add(vocab.resolve(node.counter.text, "counter"))
    for _, _, compiled, text in cost_fields(pack):
        read |= set(compiled) | {vocab.resolve(n.text, "counter", "token") for term in parse_cost(text).terms
                                 if term.less is not None for n in _nodes(term.less) if isinstance(n, ast.Name)}
    read |= set(_values({k: v for k, v in pack.rules.items() if k not in ("vocabulary", "tokens")}))
    for layer in pack.lineage():
        own, source = layer.own_rules or ({}, None)
        declared = (own.get("vocabulary") or {}).get("counters")
        for i, name in enumerate(declared if isinstance(declared, list) else ()):
            if isinstance(name, str) and vocab.resolve(name, "counter") not in read:
                yield _unread_name(source, ("vocabulary", "counters", i), f"the counter '{name}'", "gaining it",
                              f"count it somewhere (`vp 1 per 2 {name}`), or remove it")
        kinds = own.get("tokens") if isinstance(own.get("tokens"), dict) else {}
        for kind, spec in kinds.items():
            worth = isinstance(spec, dict) and ("value" in spec or "effect" in spec)
            if not worth and vocab.resolve(kind, "token") not in read:
                yield _unread_name(source, ("tokens", kind), f"the token kind '{kind}'", "taking one",
                              f"give it a `value`, count it (`vp 1 per {kind} token`) or spend it", key=True)


def _unread_name(source, path: tuple, what: str, doing: str, hint: str, key: bool = False) -> Diagnostic:
    found = source.diagnostic("W-COUNTER-UNREAD", f"nothing reads {what}: no count, condition or cost names it, "
                              f"and the rules neither score nor pay with it, so {doing} changes nothing", path, hint, key=key)
    return attrs.evolve(found, severity="warning")


def _conditions(pack: Pack) -> Iterator:
    """Every compiled condition of a field of its own (a medal's objective)."""
    for component in (c for kind in pack.components.values() for c in kind.values()):
        yield from (c for c in component.compiled.values() if hasattr(c, "tree"))


def _values(data) -> Iterator[str]:
    """Every string value of nested mappings and lists."""
    if isinstance(data, dict):
        for value in data.values():
            yield from _values(value)
    elif isinstance(data, list):
        for value in data:
            yield from _values(value)
    elif isinstance(data, str):
        yield data


def _keys(data, path: tuple) -> Iterator[tuple]:
    """The key paths of a mapping, two levels deep (`setup.offer`, `flow.turns`)."""
    for key, value in data.items() if isinstance(data, dict) else ():
        if len(path) < 2 and isinstance(value, dict) and key not in ("vocabulary", "options", "decks", "icons"):
            yield from _keys(value, path + (str(key),))
        else:
            yield path + (str(key),)

"""A pack's sentences compiled: the words its rules and components give (its `Vocabulary`), and each
field written in the effect language, in its components and its rules.yaml files, parsed, checked
and compiled, its errors placed in the file."""

from __future__ import annotations

from typing import Any, Iterator

from ...dsl.checks import check_condition, check_cost, check_effects, unknown_first_word
from ...dsl.compiler import Compiler
from ...dsl.diagnostics import Diagnostic, DslError
from ...dsl.parser import parse_condition, parse_cost, parse_effects, span_at
from ...dsl.vocabulary import Vocabulary
from .model import Component, Pack
from .schemas import COMPONENT_KINDS, NAMES_OF
from .yamlsource import Source

# Fields written in the effect language, wherever they appear, and their start rule.
LANGUAGE_FIELDS = {"effect": "effects", "first_bonus": "effects", "cost": "cost",
                   "objective": "condition", "condition": "condition"}
# rules.yaml keys holding a list of sentences: the effects every player has, the bonuses on offer.
SENTENCE_LISTS = ("player_effects", "bonuses")
# rules.yaml keys mapping a name to a sentence: what an icon does, what one short of a counter costs.
MAPPED = ("icons", "shortfall")
_PARSE = {"effects": parse_effects, "cost": parse_cost, "condition": parse_condition}
_CHECK = {"effects": check_effects, "cost": check_cost, "condition": check_condition}


def compile_pack(pack: Pack) -> list[Diagnostic]:
    """Give a loaded pack its words and compile every sentence of its components and of its rules.yaml
    files; returns the errors found in them."""
    pack.vocabulary = _vocabulary(pack)
    compiler = Compiler(pack.vocabulary)
    found = []
    for kind in COMPONENT_KINDS:
        for component in pack.components[kind].values():
            found += _compile_fields(component, compiler)
    return found + _compile_rules(pack, compiler)


def _compile_fields(component: Component, compiler: Compiler) -> list[Diagnostic]:
    found = []
    for field_path, start, text in language_fields(component.data, ()):
        compiled, errors = compile_text(text, start, *component.at(field_path), compiler)
        found += errors
        if compiled is not None:
            component.compiled[field_path] = compiled
    return found


def _compile_rules(pack: Pack, compiler: Compiler) -> list[Diagnostic]:
    """Sentences written in rules.yaml files (what icons do, lists of sentences, `effect:` fields);
    a layer's sentence replaces the one its bases wrote at the same place."""
    found = []
    for layer in pack.lineage():
        if layer.own_rules is None:
            continue
        data, source = layer.own_rules
        texts = []
        for key in MAPPED:  # what icons do, what a shortfall costs: a sentence per name
            mapped = data.get(key)
            texts += [((key, k), "effects", v) for k, v in mapped.items()] if isinstance(mapped, dict) else []
        for key in SENTENCE_LISTS:
            listed = data.get(key)
            texts += [((key, i), "effects", v) for i, v in enumerate(listed)] if isinstance(listed, list) else []
        texts += [(path, start, text) for path, start, text in language_fields(data, ())
                  if path[0] not in (*MAPPED, *SENTENCE_LISTS)]
        for path, start, text in texts:
            if isinstance(text, str):
                compiled, errors = compile_text(text, start, source, path, compiler)
                found += errors
                if compiled is not None:
                    pack.compiled_rules[path] = compiled
    return found


def compile_text(text: str, start: str, source: Source, path: tuple,
                 compiler: Compiler) -> tuple[Any, list[Diagnostic]]:
    """One text of a language field (`start` its start rule) parsed, checked and compiled: its
    compiled form (None when it has errors) and its errors, placed in the file."""
    try:
        tree = _PARSE[start](text)
    except DslError as err:
        err = unknown_first_word(err, compiler.vocab) or err
        return None, [dsl_diagnostic(err, source, path, text)]
    errors = [dsl_diagnostic(err, source, path, text) for err in _CHECK[start](tree, compiler.vocab)]
    if errors:
        return None, errors
    if start == "effects":
        return compiler.effects(tree), []
    if start == "cost":
        return compiler.cost(tree), []
    return compiler.condition(tree), []


def language_fields(data: Any, path: tuple) -> Iterator[tuple[tuple, str, str]]:
    """Every (path, start rule, text) of a language field inside a component's data."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key in LANGUAGE_FIELDS and isinstance(value, (str, int)):
                yield path + (key,), LANGUAGE_FIELDS[key], str(value)
            else:
                yield from language_fields(value, path + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from language_fields(value, path + (i,))


def _vocabulary(pack: Pack) -> Vocabulary:
    words = pack.rules.get("vocabulary") or {}
    words = words if isinstance(words, dict) else {}

    def listed(key):
        value = words.get(key) or []
        return [w for w in value if isinstance(w, str)] if isinstance(value, list) else []
    resources = words.get("resources") if isinstance(words.get("resources"), dict) else {}
    zones = words.get("zones") if isinstance(words.get("zones"), dict) else {}
    own = pack.rules.get("tokens") if isinstance(pack.rules.get("tokens"), dict) else {}  # the pack's token kinds
    buildings = set(_ids(pack, "building"))
    for component in (c for kind in pack.components.values() for c in kind.values()):
        inner = component.data.get("buildings")  # a board's own buildings
        buildings |= {b.get("id") for b in inner if isinstance(b, dict)} if isinstance(inner, list) else set()
    return Vocabulary.build(
        resource=[r for v in resources.values() if isinstance(v, list) for r in v if isinstance(r, str)] + listed("wild"),
        resource_class=list(resources),
        colour=listed("colours"), symbol=listed("symbols"), counter=listed("counters"),
        token=listed("tokens") + _ids(pack, "token") + [k for k in own if isinstance(k, str)],
        icon=listed("icons"), pawn=listed("pawns"), period=listed("periods"), box_tag=listed("box_tags"),
        player_zone=[z for z in zones.get("player") or [] if isinstance(z, str)],
        shared_zone=[z for z in zones.get("shared") or [] if isinstance(z, str)],
        card=_ids(pack, "card"), die=_ids(pack, "die"), building=[b for b in buildings if isinstance(b, str)],
    )


def _ids(pack: Pack, names: str) -> list[str]:
    """The ids of every component whose kind gives names of this kind (`die`, `card`...)."""
    return [cid for kind, of in NAMES_OF.items() if of == names for cid in pack.components[kind]]


def dsl_diagnostic(err: DslError, source: Source, path: tuple, text: str) -> Diagnostic:
    """An error of the effect language at its place in the file, inside the text at `path` (also for
    the other files written in the language: botfile.py)."""
    span = err.span
    if span is not None and err.needle and text.find(err.needle, span.start, span.end) >= 0:
        span = span_at(text, text.find(err.needle, span.start, span.end), len(err.needle))
    place = source.locate_in_text(path, text, span)
    return Diagnostic(err.code, err.message, source.path, place.line, place.column, place.end_line, place.end_column,
                      err.hint, source=source.line_text(place.line))

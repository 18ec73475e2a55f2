"""Bots written as data: reading and checking a bot file (a pack's `bots.yaml`, or one given with
`--bots FILE`) against a pack, into `BotSpec`s that rulebot.py plays.

A bot is a priority list of rules; a rule says which actions it takes (`do: build green card`: a
verb of the game's actions and a card filter), and optionally when (`if:`, a condition on the
bot's own position), what the action must give (`gives:`, a condition on what it changes for the
bot) and which to prefer (`best:`, counts to maximise after it). Every text is the effect
language's, checked with the pack's vocabulary and the bot words (botwords.py); every problem is a
diagnostic at its line and column, as a pack's are. docs/bots.md is the reference.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Callable, Iterator

import attrs
import jsonschema

from ...dsl.checks import check_card_filter, check_condition, check_count
from ...dsl.compiler import CardTest, Compiler, Number, Test
from ...dsl.diagnostics import Diagnostic, DslError, did_you_mean, one_of
from ...dsl.parser import parse_card_filter, parse_condition, parse_count, span_at
from ..flows.kinds import FLOWS
from ..packs import yamlsource
from ..packs.compiling import dsl_diagnostic
from ..packs.folders import SCHEMAS
from ..packs.model import Pack
from ..packs.reading import read_file
from ..packs.schemas import BOTS_KIND
from ..packs.yamlsource import Source
from . import botwords

FILE_NAME = f"{BOTS_KIND}.yaml"
BUILT_IN = ("random", "greedy", "expert", "ismcts")  # names of the engine's own bots, which a file's bot cannot take


@attrs.frozen
class Rule:
    """One rule: the verb of the actions it takes, and its compiled filter, condition, gift, values."""

    verb: str
    cards: CardTest | None = None  # None: every action of the verb
    when: Test | None = None       # on the bot's position before acting
    gives: Test | None = None      # on what the action changes for the bot
    best: tuple[Number, ...] = ()  # on the position after the action, maximised in order
    text: str = ""                 # the rule's `do:`, for explanations


@attrs.frozen
class BotSpec:
    """A bot of a file: its id, its name and description, its rules in order of priority."""

    id: str
    name: str
    description: str
    rules: tuple[Rule, ...]
    file: str = ""


def read_bots(path: Path, pack: Pack) -> tuple[list[BotSpec], list[Diagnostic]]:
    """The bots of a file, checked against a pack, and every problem found (the bots are those
    without an error)."""
    data, source, diagnostics = read_file(path, BOTS_KIND)
    if source is None or not isinstance(data, dict):
        return [], diagnostics
    reader = _Reader(pack, source)
    bots = reader.bots(data["bots"] if isinstance(data.get("bots"), list) else _sound_bots(source))
    return bots, sorted(diagnostics + reader.diagnostics, key=lambda d: (d.line, d.column))


def _sound_bots(source: Source) -> list:
    """The bots of a file whose list broke the schema, each that keeps to it (the others None, so
    that the rest are still checked and positions still count from the file's list)."""
    data, _ = yamlsource.loads(source.text, source.path)  # read once already: within the limits
    items = data.get("bots") if isinstance(data, dict) else None
    if not isinstance(items, list):
        return []
    schema = json.loads((SCHEMAS / f"{BOTS_KIND}.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema["properties"]["bots"]["items"])
    return [item if validator.is_valid(item) else None for item in items]


def pack_bots(pack: Pack) -> tuple[dict[str, BotSpec], list[Diagnostic]]:
    """The bots of a pack: those of its bases' `bots.yaml` and its own, a later one replacing a bot
    of the same id, each checked against the pack itself; and their problems, each once."""
    bots: dict[str, BotSpec] = {}
    diagnostics: list[Diagnostic] = []
    for layer in pack.lineage():
        path = layer.folder / FILE_NAME
        if not path.exists() and not path.is_symlink():
            continue
        found, problems = read_bots(path, pack)
        bots.update((b.id, b) for b in found)
        diagnostics += [d for d in problems if d not in diagnostics]
    return bots, diagnostics


def bot_diagnostics(pack: Pack) -> list[Diagnostic]:
    """What `check` reports of a pack's bots."""
    return pack_bots(pack)[1]


# -- reading ------------------------------------------------------------------------------

_FIRST_WORD = re.compile(r"\s*(\S+)")


class _Reader:
    """Checks and compiles the bots of one file against one pack."""

    def __init__(self, pack: Pack, source: Source):
        self.source = source
        self.vocab = botwords.vocabulary(pack.vocabulary)
        self.compiler = Compiler(self.vocab)
        kind = FLOWS.get((pack.rules.get("flow") or {}).get("kind"))
        self.verbs = sorted(kind.actions) if kind is not None else []
        self.diagnostics: list[Diagnostic] = []

    def bots(self, items: list) -> list[BotSpec]:
        seen: dict[str, int] = {}
        out = []
        for i, item in enumerate(items):
            if not isinstance(item, dict) or not isinstance(item.get("id"), str):
                continue  # the schema said so
            bot_id = item["id"]
            if bot_id in BUILT_IN:
                self.error("E-BOT-ID", f"a bot cannot be called '{bot_id}', the name of a built-in bot", (i, "id"),
                           "give it another id")
            elif bot_id in seen:
                line = self.source.place(("bots", seen[bot_id])).line
                self.error("E-BOT-ID", f"duplicate bot id '{bot_id}'", (i, "id"), f"'{bot_id}' is already defined on line {line}")
            seen.setdefault(bot_id, i)
            rules = [self.rule(rule, (i, "rules", j)) for j, rule in enumerate(item.get("rules") or [])]
            if all(r is not None for r in rules) and bot_id not in BUILT_IN and seen[bot_id] == i:
                out.append(BotSpec(bot_id, str(item.get("name", bot_id)), str(item.get("description", "")),
                                   tuple(rules), self.source.path))
        return out

    def rule(self, data: Any, at: tuple) -> Rule | None:
        """A rule compiled, or None when it has an error (reported)."""
        if not isinstance(data, dict) or not isinstance(data.get("do"), str):
            return None
        before = len(self.diagnostics)
        verb, cards = self.do(data["do"], at + ("do",))
        when = self.text(data.get("if"), at + ("if",), parse_condition, check_condition, self.compiler.condition)
        gives = self.text(data.get("gives"), at + ("gives",), parse_condition, check_condition, self.compiler.condition)
        best = data.get("best")
        values = [best] if isinstance(best, str) else best if isinstance(best, list) else []
        counts = tuple(self.text(v, at + ("best",) + ((k,) if isinstance(best, list) else ()), parse_count,
                                 check_count, self.compiler.count) for k, v in enumerate(values))
        if len(self.diagnostics) > before:
            return None
        return Rule(verb, cards, when, gives, counts, data["do"].strip())

    def do(self, text: str, at: tuple) -> tuple[str, CardTest | None]:
        """`<verb> [card filter]`: the verb checked against the game's actions, the filter compiled."""
        first = _FIRST_WORD.match(text)
        if first is None:
            return "", None
        verb = first.group(1)
        if verb not in self.verbs:
            hint = did_you_mean(verb, self.verbs) or f"the actions of this game: {one_of(self.verbs)}"
            self.dsl_error(DslError("E-BOT-VERB", f"this game has no action '{verb}'", span_at(text, first.start(1), len(verb)),
                                    hint), text, at)
            return verb, None
        rest = " " * first.end() + text[first.end():]  # blanked, so positions stay those of the whole text
        if not rest.strip():
            return verb, None
        tree = self.parsed(rest, at, parse_card_filter, check_card_filter)
        return verb, None if tree is None else self.compiler.card_test(tree)

    def text(self, text: Any, at: tuple, parse: Callable, check: Callable, compile_: Callable):
        if not isinstance(text, str):
            return None
        tree = self.parsed(text, at, parse, check)
        return None if tree is None else compile_(tree)

    def parsed(self, text: str, at: tuple, parse: Callable, check: Callable):
        try:
            tree = parse(text)
        except DslError as err:
            self.dsl_error(err, text, at)
            return None
        errors = check(tree, self.vocab)
        for err in errors:
            self.dsl_error(err, text, at)
        return None if errors else tree

    def dsl_error(self, err: DslError, text: str, at: tuple) -> None:
        if err.code == "E-DSL-VERB":  # a counter's name mistaken: in a bot file, a word unknown
            word = text[err.span.start:err.span.end] if err.span else ""
            err = DslError("E-BOT-WORD", f"unknown word '{word}'", err.span,
                           did_you_mean(word, self.vocab.all("counter", "pawn", "token", "resource")) or
                           f"counters and bot words: {one_of(self.vocab.all('counter'))}")
        self.diagnostics.append(dsl_diagnostic(err, self.source, ("bots",) + at, text))

    def error(self, code: str, message: str, at: tuple, hint: str | None = None) -> None:
        self.diagnostics.append(self.source.diagnostic(code, message, ("bots",) + at, hint))


__all__ = ["BotSpec", "FILE_NAME", "Rule", "bot_diagnostics", "pack_bots", "read_bots"]

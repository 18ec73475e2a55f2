"""A new verb is one class (docs/engine.md, "Adding a verb"): this test adds a toy one the way the
page says, and a pack uses it in every flow."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest
import yaml

from helpers import pack_of
from wonderforge.dsl import ast
from wonderforge.dsl import verbs as registry
from wonderforge.dsl.parser import parse_effects
from wonderforge.dsl.printer import show
from wonderforge.dsl.verbs import Verb, verb
from wonderforge.interpreter import load_game
from wonderforge.interpreter.games.check import check_pack


@attrs.frozen
class DoubleArgs:
    counter: str


@attrs.frozen
class Double(Verb):
    """`double <counter>`: the counter's value is doubled."""

    name = "double"
    rule = '"double" NAME'
    example = "double coins"
    counter: ast.Name
    span: ast.Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)

    @classmethod
    def parse(cls, items, span):
        return cls(ast.Name(str(items[0])), span=span)

    def check(self, c):
        yield from c.name(self.counter, "counter")

    def compile(self, c):
        return DoubleArgs(c.canon(self.counter, "counter"))

    def text(self):
        return f"double {self.counter.text}"

    @staticmethod
    def run(ctx, me, args):
        ctx.gain(me, args.counter, ctx.counter(me, args.counter))


@pytest.fixture
def doubling():
    """The toy verb, registered for the test and taken out after."""
    verb(Double)
    yield Double
    del registry.VERBS[Double.name]


def pack_with(folder: Path, base: str, sentence: str) -> Path:
    rules = pack_of(base).rules
    folder.mkdir()
    (folder / "pack.yaml").write_text(f"# yaml-language-server: $schema=../../schemas/pack.schema.json\n"
                                      f"id: doubling\nname: Doubling\nversion: 1.0.0\nextends: {base}\n", encoding="utf-8")
    own = {"vocabulary": rules["vocabulary"], "player_effects": [*rules.get("player_effects", []), sentence]}
    (folder / "rules.yaml").write_text("# yaml-language-server: $schema=../../schemas/rules.schema.json\n"
                                       + yaml.safe_dump(own, sort_keys=False), encoding="utf-8")
    return folder


def test_a_new_verb_parses_prints_and_checks(doubling):
    tree = parse_effects("at turn start: double coins")
    assert tree.items[0].actions == (Double(ast.Name("coins")),)
    assert show(tree.items[0]) == "at turn start: double coins"


@pytest.mark.parametrize("base, counter", [("7-wonders", "coins"), ("architects", "vp"), ("dice", "coins")])
def test_a_new_verb_runs_in_every_flow(tmp_path, doubling, base, counter):
    folder = pack_with(tmp_path / "doubling", base, f"on build: {counter} 3 then double {counter}")
    assert check_pack(folder)[1] == []
    state = load_game(folder, players=3).new_state()
    plain = load_game(base, players=3).new_state()
    assert [p.counters.get(counter, 0) for p in state.players] == [2 * (p.counters.get(counter, 0) + 3)
                                                                   for p in plain.players]


def test_a_pack_cannot_use_a_verb_nobody_registered(tmp_path):
    folder = pack_with(tmp_path / "doubling", "7-wonders", "double coins")
    codes = [d.code for d in check_pack(folder)[1]]
    assert codes and set(codes) <= {"E-DSL-VERB", "E-DSL-PARSE"}

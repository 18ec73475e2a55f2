"""Every example in docs/language.md parses and passes the checks against the page's vocabulary,
and every row of its error table gives the error it documents."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from wonderforge.dsl.checks import check_condition, check_cost, check_effects
from wonderforge.dsl.diagnostics import DslError
from wonderforge.dsl.parser import parse_condition, parse_cost, parse_effects
from wonderforge.dsl.verbs import VERBS

DOC = Path(__file__).resolve().parents[1] / "docs" / "language.md"
TEXT = DOC.read_text(encoding="utf-8")

# ```<info string>\n<body>```, at the start of a line.
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
# A block's body, without the line end before the closing fence, is one field's text.
BLOCKS = [(m.group(1).strip(), m.group(2)[:-1], TEXT.count("\n", 0, m.start()) + 1) for m in FENCE.finditer(TEXT)]

FIELDS = {
    "effect": (parse_effects, check_effects),
    "cost": (parse_cost, check_cost),
    "condition": (parse_condition, check_condition),
}
EXAMPLES = [(info, body, line) for info, body, line in BLOCKS if info in FIELDS]


@pytest.fixture(scope="module")
def doc_vocab(make_vocab):
    blocks = [body for info, body, _ in BLOCKS if info == 'yaml title="The example vocabulary"']
    assert len(blocks) == 1, "the page has exactly one block titled The example vocabulary"
    data = yaml.safe_load(blocks[0])
    return make_vocab(data["vocabulary"], data.get("components"))


def test_the_page_has_examples_of_every_field():
    kinds = {info for info, _, _ in EXAMPLES}
    assert kinds == set(FIELDS)
    assert len(EXAMPLES) >= 90


@pytest.mark.parametrize(("info", "body", "line"), EXAMPLES, ids=[f"line{l}" for _, _, l in EXAMPLES])
def test_example_parses_and_checks(info, body, line, doc_vocab):
    parse, check = FIELDS[info]
    try:
        tree = parse(body)
    except DslError as err:
        pytest.fail(f"docs/language.md:{line}: {err.code}: {err.message}\n{body}")
    errors = check(tree, doc_vocab)
    assert not errors, f"docs/language.md:{line}: " + "; ".join(f"{e.code}: {e.message}" for e in errors)


@pytest.mark.parametrize("verb", VERBS.values(), ids=list(VERBS))
def test_every_verb_shows_its_own_example(verb, doc_vocab):
    """A verb's example (dsl/verbs/) is a block of the page, and it is the verb's sentence."""
    assert verb.example in [body for info, body, _ in EXAMPLES if info == "effect"], verb.example
    tree = parse_effects(verb.example)
    assert check_effects(tree, doc_vocab) == [] and verb in {type(a) for a in tree.items[0].actions}


def test_every_grammar_construct_has_an_example():
    """Each verb, trigger and keyword phrase of the grammar appears in some example."""
    text = "\n".join(body for _, body, _ in EXAMPLES)
    phrases = [
        "on build:", "at end:", "at battle:", "at turn start:", "at turn end:", "on take", "on stage:",
        "on choose", "produce private", "trade", "science any", "icon 2", "take top", "take 1 of top",
        "take cat", "progress token", "from city of opponent", "give top card", "face down", "copy",
        "build free", "from discard free", "play last card", "flip", "check up to", "unlock", "die discount",
        "extra action without die cost", "ignore", "keep", "look at top card", " per ", " minus ", " by ",
        "with horn", "stage", "token", " box", " icon", "in self, left, right", " of left",
        "building shown by", "before this round", "from one battle", "from this battle", "per 3 coins", "central_deck",
        "if", " and ", " or ", "(", ">=", "players >", "wonder complete", "once per", "free",
        "2 wood + ore", "1 coin", "3 different", "2 identical", ";", "#",
    ]
    missing = [p for p in phrases if p not in text]
    assert not missing


# ---- the error table: | code | field | `example` | meaning | hint |

ROW = re.compile(r"^\| (E-DSL-[A-Z]+) \| (effect|cost|condition) \| `([^`]+)` \| [^|]+ \|([^|]*)\|$", re.MULTILINE)
ERROR_ROWS = ROW.findall(TEXT)
CODES = {"E-DSL-PARSE", "E-DSL-UNSAYABLE", "E-DSL-VERB", "E-DSL-TRIGGER", "E-DSL-RESOURCE", "E-DSL-COLOUR", "E-DSL-ZONE",
         "E-DSL-SELECTOR", "E-DSL-SYMBOL", "E-DSL-NAME", "E-DSL-TYPE", "E-DSL-VALUE"}


def test_error_table_covers_every_code():
    assert {code for code, *_ in ERROR_ROWS} == CODES


@pytest.mark.parametrize(("code", "field", "example", "hint"), ERROR_ROWS, ids=[r[2] for r in ERROR_ROWS])
def test_error_example_gives_its_code(code, field, example, hint, doc_vocab):
    parse, check = FIELDS[field]
    try:
        errors = check(parse(example), doc_vocab)
    except DslError as err:
        errors = [err]
    assert [e.code for e in errors][:1] == [code], [(e.code, e.message) for e in errors]
    expected = hint.strip()
    if expected.endswith("..."):  # the table shows the hint's beginning
        assert errors[0].hint.startswith(expected[:-3].rstrip()), errors[0].hint
    elif expected:
        assert errors[0].hint == expected


BULLET = re.compile(r"^\* `([^`]+)` — (E-DSL-[A-Z]+):", re.MULTILINE)


@pytest.mark.parametrize(("example", "code"), BULLET.findall(TEXT))
def test_more_error_examples(example, code, doc_vocab):
    try:
        errors = check_effects(parse_effects(example), doc_vocab)
    except DslError as err:
        errors = [err]
    assert [e.code for e in errors] == [code]


def test_reserved_words_are_the_grammar_keywords():
    from wonderforge.dsl.parser import _lark

    section = TEXT.split("## Reserved words", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"`([^`]+)`", section)) - {"build free once per round"}  # an example, not a word
    keywords = {t.pattern.value for t in _lark().terminals if t.pattern.type == "str" and t.pattern.value[0].isalpha()}
    nouns = {"card", "token", "stage", "box", "icon", "set", "cost"}
    assert listed == keywords | nouns

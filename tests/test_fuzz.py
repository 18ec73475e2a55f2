"""Fuzzing the effect language and the pack loader: whatever the input, a clean result or clean
diagnostics, never an exception.

Three sources of input:

* sentences generated from the grammar itself (`dsl/effect.lark`, walked rule by rule), with
  words from a shipped pack's vocabulary, reserved words, random words and numbers;
* the sentences of the shipped packs, mutated: tokens deleted, inserted, swapped, numbers
  changed, text cut short or scrambled;
* the shipped packs, copied and mutated: values deleted, duplicated, retyped, keys and values
  renamed, YAML syntax broken; and, so that more of them still load and their games are what
  breaks, edits that keep the types: numbers changed (zero, negative, large), lists cut short,
  keys or items deleted, words replaced by others of the pack, plain values swapped.

A sentence goes through what `wonderforge check` does with a field (parse, check, compile, with
the pack's vocabulary); a pack through `check_pack`. Every diagnostic must name its file, give a
line and column inside it (or 0:0 for a whole file), a code and a message, and render. A mutated
pack that checks clean is played (`play_clean`): dealt at its least and its most players with its
options' defaults, one game of random bots at each, to the scores; the game ends, or stops with a
clean error naming the pack (GameError, EndlessGame), never a traceback.

Sizes come from `trust.budget`: CI runs about 11,000 inputs, 1,600 of them mutated packs, of
which about 450 load clean and are played (some 20 s of CPU for the playing and the extra packs);
`WONDERFORGE_TRUST_SCALE=100` runs a hundred times more. The profile is derandomized, so a run is
reproducible.
"""

from __future__ import annotations

import functools
import random
import re
import shutil
import string
from pathlib import Path

import lark
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from trust import budget, count

from wonderforge.dsl.compiler import Compiler
from wonderforge.dsl.parser import _lark
from wonderforge.dsl.vocabulary import ENGINE_PERIODS, SELECTORS
from wonderforge.interpreter.packs import yamlsource
from wonderforge.interpreter.bots.registry import play
from wonderforge.interpreter import GameError, load_game
from wonderforge.interpreter.games.check import check_pack, load_pack
from wonderforge.interpreter.packs.compiling import compile_text, language_fields
from wonderforge.interpreter.packs.folders import CONTENT, shown
from wonderforge.interpreter.packs.model import LoadError
from wonderforge.interpreter.core.errors import EndlessGame

PACKS = ("7-wonders", "architects", "architects-medals", "dice")
STARTS = ("cost", "condition", "effects")  # the grammar's start rules, one per kind of field


def fuzz(examples: int) -> settings:
    """The reproducible profile: derandomized, no deadline, no example database; the health
    checks that object to slow or large inputs are off, since those are the point."""
    return settings(max_examples=budget(examples), derandomize=True, deadline=None, database=None, print_blob=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much,
                                           HealthCheck.large_base_example, HealthCheck.function_scoped_fixture])


# ---- what every outcome must be ---------------------------------------------------------


def assert_clean(diagnostics, texts: dict[str, str]) -> None:
    """Each diagnostic names a file, a place inside it (0:0 for the whole file), a code and a
    message, and renders; `texts` maps shown file names to their text, where known."""
    for d in diagnostics:
        assert d.file and d.code and d.message, d
        assert d.severity in ("error", "warning"), d
        assert (d.line, d.column) == (0, 0) or (d.line >= 1 and d.column >= 1), d
        text = texts.get(d.file)
        if d.line and text is not None:
            assert d.line <= len(text.splitlines()) + 1, (d, len(text.splitlines()))
        assert d.render().startswith(d.file), d


# ---- the shipped packs: vocabularies and sentences ----------------------------------------


@functools.cache
def shipped(pack_id: str):
    """A shipped pack, loaded once."""
    return load_pack(pack_id)


@functools.cache
def sentences_of(pack_id: str) -> tuple[tuple[str, str], ...]:
    """(start rule, text) of every language field the pack's own files write."""
    pack = shipped(pack_id)
    found = {(start, text) for kind in pack.components.values() for c in kind.values() if c.pack == pack_id
             for _, start, text in language_fields(c.data, ())}
    rules = pack.own_rules[0] if pack.own_rules else {}
    found |= {(start, text) for _, start, text in language_fields(rules, ())}
    icons, bonuses = rules.get("icons") or {}, rules.get("bonuses") or []
    found |= {("effects", text) for text in [*icons.values(), *bonuses] if isinstance(text, str)}
    return tuple(sorted(found))


@functools.cache
def words_of(pack_id: str) -> tuple[str, ...]:
    """Every name a pack's sentences may use, with the engine's words."""
    names = shipped(pack_id).vocabulary.names
    return tuple(sorted(set().union(*names.values()) | set(SELECTORS) | set(ENGINE_PERIODS)))


def compile_field(pack_id: str, start: str, text: str):
    """What `wonderforge check` does with one field of a pack: parse, check, compile; returns
    its diagnostics, each placed in a small YAML file holding the field."""
    doc = yaml.safe_dump({"field": text}, allow_unicode=True, width=1 << 20)
    _, source = yamlsource.loads(doc, "fuzz.yaml")
    compiled, diagnostics = compile_text(text, start, source, ("field",), Compiler(shipped(pack_id).vocabulary))
    assert (compiled is None) == bool(diagnostics), diagnostics
    assert_clean(diagnostics, {"fuzz.yaml": doc})
    return diagnostics


# ---- sentences from the grammar ----------------------------------------------------------


@functools.cache
def grammar():
    """The grammar's rules by symbol (each a list of expansions), the expansions of each rule
    whose symbols all lie lower in the grammar (taking only those always ends a walk), and the
    terminals' patterns."""
    parser = _lark()
    rules: dict[str, list[list]] = {}
    for rule in parser.rules:
        rules.setdefault(rule.origin.name, []).append([s.name for s in rule.expansion])
    patterns = {t.name: t.pattern for t in parser.terminals}
    height = {name: 0 for name in patterns}
    while len(height) < len(patterns) + len(rules):  # heights of the rules, least first
        for name, expansions in rules.items():
            done = [max((height[s] for s in e), default=0) for e in expansions if all(s in height for s in e)]
            if done and name not in height:
                height[name] = 1 + min(done)
    shortest = {name: [e for e in expansions if all(height.get(s, 99) < height[name] for s in e)]
                for name, expansions in rules.items()}
    return rules, shortest, patterns


NUMBERS = st.one_of(
    st.integers(-3, 12),
    st.integers(-10**6, 10**6),
    st.sampled_from([1000, -1000, 1001, 10**30, -(10**40)]),
    st.integers(1, 6000).map(lambda n: "9" * n),
    st.integers(1, 40).map(lambda n: "0" * n + "1"),
).map(str)
RANDOM_WORDS = st.from_regex(r"[a-z][a-z0-9_]{0,10}", fullmatch=True)
ODD_WORDS = st.sampled_from(["Wood", "café", "é", "x-y", "1a", "_", "\t", "(", ")", "((", ":", "::", "#", "\\", "\"",
                             "'", "\u00a0", "\u200b", "\x00", "\r", "\r\n", "…", "𝕩", "--", "++", ",,", "//"])
TERMINAL_WORDS = {
    "_CARD": ["card", "cards"], "_TOKEN": ["token", "tokens"], "_STAGE": ["stage", "stages"],
    "_BOX": ["box", "boxes"], "_ICON": ["icon", "icons"], "COMPARE": [">=", "<=", ">", "<", "="],
    "_SET": ["set", "sets"], "_COST": ["cost", "costs"],
    "_SEP": [";", "\n", " # a comment\n", "\r\n", ";;", "\n\n  "],
}


RESERVED = sorted({p.value for p in grammar()[2].values() if isinstance(p, lark.lexer.PatternStr) and p.value.isalpha()})


@functools.cache
def name_words(pack_id: str):
    """A NAME: mostly one of the pack's words, else a reserved or random word."""
    return st.one_of(st.sampled_from(words_of(pack_id)), st.sampled_from(words_of(pack_id)),
                     st.sampled_from(RESERVED), RANDOM_WORDS)


MAX_HEIGHT = 12  # past this depth, the walk takes the shortest expansions


def walk(start: str, expansion, word) -> str:
    """A sentence walked from `start`: `expansion(options)` picks one expansion of a rule,
    `word(terminal)` writes a terminal."""
    rules, shortest, patterns = grammar()
    words: list[str] = []
    stack = [(start, 0)]
    while stack:
        symbol, depth = stack.pop()
        if symbol in patterns:
            words.append(word(symbol))
            continue
        stack += [(s, depth + 1) for s in reversed(expansion(rules[symbol] if depth < MAX_HEIGHT else shortest[symbol]))]
    return " ".join(words)


def random_word(rng: random.Random, terminal_name: str, pack_id: str) -> str:
    """A terminal written by the walk: mostly the pack's words and small numbers, sometimes a
    reserved or random word, a huge or padded number."""
    pattern = grammar()[2][terminal_name]
    if isinstance(pattern, lark.lexer.PatternStr):
        return pattern.value
    roll = rng.random()
    if terminal_name == "NAME":
        if roll < 0.8:
            return rng.choice(words_of(pack_id))
        if roll < 0.9:
            return rng.choice(RESERVED)
        return rng.choice(string.ascii_lowercase) + "".join(
            rng.choice(string.ascii_lowercase + string.digits + "_") for _ in range(rng.randint(0, 9)))
    if terminal_name == "INT":
        if roll < 0.8:
            return str(rng.randint(-3, 12))
        if roll < 0.9:
            return str(rng.choice([1000, -1000, 1001, rng.randint(-10**6, 10**6), 10**30]))
        return rng.choice(["9" * rng.randint(1, 6000), "0" * rng.randint(1, 40) + "1"])
    return rng.choice(TERMINAL_WORDS[terminal_name])


@st.composite
def grammar_cases(draw):
    """A sentence walked from a start rule with a drawn seed (one draw per sentence keeps the
    walk cheap; the failing sentence is printed whole), and now and then an odd word in it."""
    pack_id = draw(st.sampled_from(PACKS))
    start = draw(st.sampled_from(STARTS))
    rng = random.Random(draw(st.integers(0, 2**32)))
    text = walk(start, rng.choice, lambda t: random_word(rng, t, pack_id))
    if draw(st.integers(0, 9)) == 0:
        words = text.split(" ")
        words.insert(draw(st.integers(0, len(words))), draw(ODD_WORDS))
        text = " ".join(words)
    return pack_id, start, text


@pytest.mark.slow
@fuzz(5000)
@given(grammar_cases())
def test_sentences_from_the_grammar(case):
    pack_id, start, text = case
    compile_field(pack_id, start, text)
    count("fuzzed effect sentences")


def test_the_grammar_walk_reaches_every_rule():
    """The walk is worth its name: a few hundred walks use every expansion of every rule,
    and every sentence they make parses (checking them is the fuzz test's business)."""
    rng = random.Random(7)
    rules = grammar()[0]
    used = set()

    def expansion(options):
        chosen = rng.choice(options)
        used.add(id(chosen))
        return chosen

    plain = {"NAME": "wood", "INT": "2"}
    for start in STARTS:
        for _ in range(400):
            text = walk(start, expansion, lambda t: plain.get(t) or rng.choice(TERMINAL_WORDS.get(t) or [grammar()[2][t].value]))
            _lark().parse(text, start=start)
    unused = [(name, e) for name, options in rules.items() for e in options if id(e) not in used]
    assert not unused


# ---- the shipped packs' sentences, mutated -----------------------------------------------

TOKEN = re.compile(r"\s+|[a-z_][a-z0-9_]*|-?[0-9]+|.", re.S)


def tokens(text: str) -> list[str]:
    return TOKEN.findall(text)


@st.composite
def mutated_sentences(draw):
    pack_id = draw(st.sampled_from(PACKS))
    start, text = draw(st.sampled_from(sentences_of(pack_id)))
    parts = tokens(text)
    for _ in range(draw(st.integers(1, 3))):
        parts = draw(token_mutation(parts, pack_id))
    return pack_id, start, "".join(parts)


@st.composite
def token_mutation(draw, parts: list[str], pack_id: str) -> list[str]:
    """One edit: delete, insert, swap, renumber, duplicate, cut short, or scramble a character."""
    parts = list(parts)
    kind = draw(st.sampled_from(["delete", "insert", "swap", "number", "duplicate", "truncate", "char"]))
    at = draw(st.integers(0, max(0, len(parts) - 1)))
    if kind == "delete" and parts:
        del parts[at]
    elif kind == "insert":
        word = draw(st.one_of(name_words(pack_id), NUMBERS, ODD_WORDS, st.sampled_from(
            [" ", ":", ",", "/", "+", "(", ")", ";", "\n", " then ", " if ", " once per ", " per ", " of "])))
        parts.insert(at, word if word.isspace() else f" {word} ")
    elif kind == "swap" and len(parts) > 1:
        other = draw(st.integers(0, len(parts) - 1))
        parts[at], parts[other] = parts[other], parts[at]
    elif kind == "number":
        numbers = [i for i, p in enumerate(parts) if re.fullmatch(r"-?[0-9]+", p)]
        if numbers:
            parts[draw(st.sampled_from(numbers))] = draw(NUMBERS)
    elif kind == "duplicate" and parts:
        end = draw(st.integers(at, len(parts)))
        parts[at:at] = parts[at:end]
    elif kind == "truncate":
        text = "".join(parts)
        parts = [text[:draw(st.integers(0, len(text)))]]
    elif kind == "char":
        text = "".join(parts)
        pos = draw(st.integers(0, len(text)))
        parts = [text[:pos], draw(st.one_of(st.characters(), ODD_WORDS)), text[pos + 1:]]
    return parts


@pytest.mark.slow
@fuzz(5000)
@given(mutated_sentences())
def test_mutated_sentences_of_the_shipped_packs(case):
    pack_id, start, text = case
    compile_field(pack_id, start, text)
    count("fuzzed effect sentences")


def test_the_shipped_sentences_compile_cleanly():
    """The mutations start from sound sentences."""
    for pack_id in PACKS:
        assert sentences_of(pack_id)
        for start, text in sentences_of(pack_id):
            assert compile_field(pack_id, start, text) == [], text


# ---- the shipped packs, mutated ------------------------------------------------------------


@pytest.fixture(scope="module")
def pack_copies(tmp_path_factory) -> Path:
    """The shipped packs, side by side in a temporary folder (a mutated base is then the
    one its expansion extends)."""
    root = tmp_path_factory.mktemp("fuzz") / "content"
    shutil.copytree(CONTENT, root)
    return root


@functools.cache
def original(path: Path) -> str:
    """A copied file's text, read before any mutation (each is put back after its test)."""
    return path.read_text(encoding="utf-8")


def files_of(root: Path, pack_id: str) -> list[Path]:
    return sorted((root / pack_id).glob("*.yaml"))


def _paths(data, path=()):
    """Every path into a YAML document, the root included."""
    yield path
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _paths(value, path + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _paths(value, path + (i,))


def _at(data, path):
    for step in path:
        data = data[step]
    return data


VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 200), st.sampled_from([10**29, -(10**29), 1.5, float("inf")]),
    RANDOM_WORDS, st.text(max_size=12), st.just([]), st.just({}), st.lists(RANDOM_WORDS, max_size=3),
    st.dictionaries(RANDOM_WORDS, st.integers(0, 3) | RANDOM_WORDS, max_size=2),
)


def retyped(value, draw):
    """The value as another type: text, number, list, mapping or nothing."""
    return draw(st.sampled_from([
        str(value), None, [value], {"id": value} if not isinstance(value, (dict, list)) else {"x": 1},
        len(str(value)), "", True,
    ]))


@st.composite
def data_mutation(draw, data, pack_words: tuple[str, ...]):
    """One edit of the parsed document at a random place: delete, duplicate, retype, rename a
    key or a value."""
    paths = list(_paths(data))
    path = draw(st.sampled_from(paths))
    kind = draw(st.sampled_from(["delete", "duplicate", "retype", "rename_key", "rename_value", "replace"]))
    if not path:
        return retyped(data, draw) if kind in ("retype", "replace") else data
    parent, step = _at(data, path[:-1]), path[-1]
    value = parent[step]
    if kind == "delete":
        del parent[step]
    elif kind == "duplicate":
        if isinstance(parent, list):
            parent.insert(step, value)
        else:
            parent[draw(RANDOM_WORDS)] = value
    elif kind == "retype":
        parent[step] = retyped(value, draw)
    elif kind == "replace":
        parent[step] = draw(VALUES)
    elif kind == "rename_key" and isinstance(parent, dict):
        new = draw(st.one_of(st.sampled_from(sorted({str(k) for p in paths for k in p[-1:]})), RANDOM_WORDS,
                             st.integers(0, 9)))
        items = [(new if k == step else k, v) for k, v in parent.items()]
        parent.clear()
        parent.update(items)
    elif kind == "rename_value" and isinstance(value, str):
        parent[step] = draw(st.one_of(st.sampled_from(pack_words), RANDOM_WORDS,
                                      st.just(value[: len(value) // 2]), st.just(value + "s")))
    return data


@st.composite
def text_mutation(draw, text: str) -> str:
    """One edit of the file's text that may break its YAML: a stray character, a line lost,
    doubled or shifted, a tab, an anchor or alias, a tag, a cut."""
    lines = text.split("\n")
    at = draw(st.integers(0, len(lines) - 1))
    kind = draw(st.sampled_from(["char", "drop", "double", "indent", "dedent", "tab", "alias", "tag", "cut"]))
    if kind == "char":
        line = lines[at]
        pos = draw(st.integers(0, len(line)))
        lines[at] = line[:pos] + draw(st.sampled_from(list(":[]{}\"'&*!|>-#%@`,?\\\t") + ["\ufeff", "é"])) + line[pos:]
    elif kind == "drop":
        del lines[at]
    elif kind == "double":
        lines.insert(at, lines[at])
    elif kind == "indent":
        lines[at] = " " * draw(st.integers(1, 3)) + lines[at]
    elif kind == "dedent":
        lines[at] = lines[at].lstrip()
    elif kind == "tab":
        lines[at] = "\t" + lines[at].lstrip(" ")
    elif kind == "alias":
        lines[at] = lines[at].replace(": ", ": &a ", 1) if draw(st.booleans()) else lines[at].replace(": ", ": *a ", 1)
    elif kind == "tag":
        tag = draw(st.sampled_from(["!!python/object/apply:os.system ['true']", "!!python/name:os.system", "!!binary",
                                    "!!set", "!!omap", "!custom", "!!str", "!!int", "!!timestamp"]))
        lines[at] = lines[at].replace(": ", f": {tag} ", 1)
    elif kind == "cut":
        return text[:draw(st.integers(0, len(text)))]
    return "\n".join(lines)


# Packs are drawn in proportion to how cheap they are to check (7 Wonders costs about twice the others).
PACK_WEIGHTS = ("7-wonders", "architects", "architects", "architects-medals", "dice", "dice")


@st.composite
def pack_mutations(draw, root: Path):
    pack_id = draw(st.sampled_from(PACK_WEIGHTS))
    path = draw(st.sampled_from(files_of(root, pack_id)))
    text = original(path)
    first, rest = text.split("\n", 1)
    for _ in range(draw(st.integers(1, 2))):
        if draw(st.integers(0, 3)) == 0:
            rest = draw(text_mutation(rest))
            continue
        try:
            data = yaml.load(rest, Loader=yaml.CSafeLoader)
        except Exception:  # noqa: BLE001 - broken by an earlier edit (PyYAML fails in many ways): break it further
            rest = draw(text_mutation(rest))
            continue
        data = draw(data_mutation(data, words_of(pack_id)))
        rest = yaml.dump(data, Dumper=yaml.CSafeDumper, sort_keys=False, allow_unicode=True, width=120)
    return pack_id, path, first + "\n" + rest


def check_mutated(root: Path, pack_id: str, path: Path, text: str):
    """`wonderforge check` of the pack with one file's text replaced (put back afterwards):
    its diagnostics are clean; returns the pack when it has no error, else None."""
    path.write_text(text, encoding="utf-8")
    try:
        pack, diagnostics = check_pack(root / pack_id)
    finally:
        path.write_text(original(path), encoding="utf-8")
    texts = {shown(p): original(p) for p in root.glob("*/*.yaml")}
    texts[shown(path)] = text
    assert_clean(diagnostics, texts)
    assert pack is not None or any(d.severity == "error" for d in diagnostics)
    count("fuzzed packs")
    return None if pack is None or any(d.severity == "error" for d in diagnostics) else pack


@pytest.mark.slow
@fuzz(1200)
@given(data=st.data())
def test_mutated_packs(pack_copies, data):
    """Any mutation: clean diagnostics; a pack that loads clean is played too."""
    pack = check_mutated(pack_copies, *data.draw(pack_mutations(pack_copies)))
    if pack is not None:
        play_clean(pack)


# ---- mutated packs that load clean, played ------------------------------------------------

# What a pack that checks clean may still raise: it cannot be dealt for a player count
# (GameError), a game would not end (EndlessGame); each must name the pack.
PLAY_ERRORS = (GameError, EndlessGame, LoadError)


def play_clean(pack) -> None:
    """A pack that `wonderforge check` accepts can be played: dealt at its least and its most
    players with its options' defaults, one game of random bots at each, to the scores; or a
    clean error naming the pack. Anything else (KeyError, IndexError...) fails the test."""
    bounds = pack.rules["players"]
    for i, players in enumerate(sorted({bounds["min"], bounds["max"]})):
        try:
            state = play(load_game(pack, players=players, seed=i), ["random"] * players)
        except PLAY_ERRORS as error:
            named = str(error) + " ".join(d.render() for d in getattr(error, "diagnostics", ()))
            assert pack.id in named, f"{type(error).__name__} without the pack's name: {error}"
            continue
        assert state.is_terminal()
        assert len(state.scores()) == players and state.winners()
    count("fuzzed packs played")


@st.composite
def game_mutation(draw, data, pack_words: tuple[str, ...]):
    """One edit that keeps the document well typed more often than not, so that the pack often
    still loads and its game is what breaks: a number changed (small, zero, negative, large), a
    list cut short, a key or an item deleted, a word replaced by another of the pack's, two plain
    values swapped."""
    paths = [p for p in _paths(data) if p]
    if not paths:
        return data
    kind = draw(st.sampled_from(["number", "number", "shorten", "delete", "word", "swap"]))
    pick = {
        "number": lambda v: type(v) is int,
        "shorten": lambda v: isinstance(v, list) and v,
        "word": lambda v: isinstance(v, str) and len(v) < 40,
        "swap": lambda v: not isinstance(v, (dict, list)),
    }.get(kind)
    chosen = [p for p in paths if pick(_at(data, p))] if pick else paths
    if not chosen:
        return data
    path = draw(st.sampled_from(chosen))
    parent, step = _at(data, path[:-1]), path[-1]
    if kind == "number":
        parent[step] = draw(st.one_of(st.integers(-2, 12), st.sampled_from([0, 1, 20, 50, 100, 1000, -1])))
    elif kind == "shorten":
        del parent[step][draw(st.integers(0, len(parent[step]) - 1)):]
    elif kind == "word":
        parent[step] = draw(st.sampled_from(pack_words))
    elif kind == "swap":
        other = draw(st.sampled_from(chosen))
        other_parent = _at(data, other[:-1])
        parent[step], other_parent[other[-1]] = other_parent[other[-1]], parent[step]
    else:
        del parent[step]
    return data


@st.composite
def game_mutations(draw, root: Path):
    pack_id = draw(st.sampled_from(PACK_WEIGHTS))
    path = draw(st.sampled_from(files_of(root, pack_id)))
    first, rest = original(path).split("\n", 1)
    data = yaml.load(rest, Loader=yaml.CSafeLoader)
    for _ in range(draw(st.integers(1, 3))):
        data = draw(game_mutation(data, words_of(pack_id)))
    return pack_id, path, first + "\n" + yaml.dump(data, Dumper=yaml.CSafeDumper, sort_keys=False, allow_unicode=True, width=120)


@pytest.mark.slow
@fuzz(400)
@given(data=st.data())
def test_mutated_packs_that_load_are_played(pack_copies, data):
    """Edits that keep the types: about half the packs still load, and each of those is played."""
    pack = check_mutated(pack_copies, *data.draw(game_mutations(pack_copies)))
    if pack is not None:
        play_clean(pack)

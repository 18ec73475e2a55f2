"""Parse effect and cost texts into syntax trees (`dsl.ast`), with positions.

The grammar is `effect.lark` with one rule per verb of `verbs/`, built once. Parse errors
become `DslError`s whose message says what was expected and what was found; a misspelt verb
or trigger word gets its own code and a did-you-mean hint.
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import os
import re
import sys
from pathlib import Path

import lark
from lark import Lark, Token, Transformer, v_args

from . import ast, refusals
from .diagnostics import DslError, did_you_mean, one_of
from .limits import MAX_BRACKETS, MAX_NUMBER, MAX_TEXT_CHARS
from .verbs import VERBS as VERB_CLASSES
from .verbs.tokens import CHOICE
from .vocabulary import SELECTORS

GRAMMAR = Path(__file__).with_name("effect.lark")

def verb_words() -> tuple[str, ...]:
    """The words that start an action: each verb's rule starts with its word (but a gain's, a counter)."""
    return tuple(dict.fromkeys(v.rule.split('"')[1] for v in VERB_CLASSES.values() if v.rule.startswith('"')))


# What follows `on` / `at` in a trigger.
TRIGGER_WORDS = {"on": ("build", "take", "stage", "choose", "buy", "sell", "chain", "discard", "lose", "gain"),
                 "at": ("end", "battle", "turn", "round")}
TRIGGER_HINTS = {"on": "build, take, stage, choose, buy, sell, chain, discard, lose, gain, or players then what they "
                       "do (on left take red card)",
                 "at": "end, battle, turn start, turn end, or a period's start or end (round start, round end)"}
# What follows `on <players>`: what the players watched do.
WATCHED_WORDS = ("take", "build", "stage", "buy", "sell", "chain", "discard", "lose", "gain")

# How terminals are named in "expected ..." messages.
_TERMINAL_WORDS = {
    "NAME": "a name", "INT": "a number", "_SEP": "end of sentence", "$END": "end of text",
    "COLON": "':'", "COMMA": "','", "SLASH": "'/'", "PLUS": "'+'", "LPAR": "'('", "RPAR": "')'",
    "COMPARE": "a comparison (>=, >, =, <, <=)", "_CARD": "'card'", "_TOKEN": "'token'",
    "_STAGE": "'stage'", "_BOX": "'box'", "_ICON": "'icon'", "_SET": "'set'", "_COST": "'cost'",
}


def grammar() -> str:
    """The whole grammar: effect.lark, then `action` and each verb's rule."""
    actions = {name: v for name, v in VERB_CLASSES.items() if v.rule}  # a choice is a sentence's `or`
    rules = [f"?action: {' | '.join(actions)}"] + [f"{name}: {v.rule}" for name, v in actions.items()]
    return GRAMMAR.read_text(encoding="utf-8") + "\n" + "\n".join(rules) + "\n"


def _lark() -> Lark:
    """The parser of the grammar, built once for the verbs registered (a verb added, it is built again)."""
    return _built(tuple(VERB_CLASSES))


@functools.cache
def _built(verbs: tuple[str, ...]) -> Lark:
    text = grammar()
    kept = _cache_file(text)
    if kept is None or kept.exists():  # read there (Lark checks it against the grammar), or built
        return _lark_of(text, str(kept) if kept else False)
    fresh = kept.with_name(f"{kept.name}.{os.getpid()}.partial")  # written whole, then put in place:
    try:                                                           # other processes read it only then
        return _lark_of(text, str(fresh))
    finally:
        try:
            os.replace(fresh, kept)
        except OSError:
            pass  # not written (a read-only folder): built every time


def _lark_of(text: str, cache: str | bool) -> Lark:
    return Lark(text, parser="lalr", start=["effects", "cost", "condition", "card_filter", "count"],
                propagate_positions=True, maybe_placeholders=True, cache=cache)


def _cache_file(text: str) -> Path | None:
    """Where the parser's tables are kept between runs (building them is most of a pack's load): a
    file of the grammar's own, for this Lark and this Python, in the user's cache folder, never a
    shared temporary one (it is a pickle); None when that folder cannot be made."""
    try:
        folder = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "wonderforge"
        folder.mkdir(parents=True, exist_ok=True)
    except (OSError, RuntimeError):  # no home, or a read-only one
        return None
    key = hashlib.sha256(f"{text}\n{lark.__version__}\n{sys.version}".encode()).hexdigest()[:16]
    return folder / f"grammar-{key}.lark"


def parse_effects(text: str) -> ast.Effects:
    """Parse an `effect:` text (one sentence per line or per ';') into `ast.Effects`."""
    return _parse(text, "effects")


def parse_cost(text: str) -> ast.Cost:
    """Parse a `cost:` text such as `2 wood + ore`, `1 coin`, `3 different` or `free`."""
    return _parse(text, "cost")


def parse_condition(text: str):
    """Parse a condition such as `3 blue card` or `2 stage and 1 cat` (a medal's objective)."""
    return _parse(text, "condition")


def parse_card_filter(text: str) -> ast.CardFilter:
    """Parse a card filter such as `green card` or `red card with horn` (a bot's rule, docs/bots.md)."""
    return _parse(text, "card_filter")


def parse_count(text: str) -> ast.Count:
    """Parse a count such as `coins` or `green card in self, left` (a bot's value to maximise)."""
    return _parse(text, "count")


@functools.lru_cache(maxsize=4096)
def _parse(text: str, start: str):
    """The tree of a text; trees are immutable, so a text met again (a pack checked once more,
    an expansion's base, copies of a sentence) is parsed once. Errors are raised afresh."""
    if start != "effects":
        text = text.rstrip()  # a YAML block keeps its last line end
    if len(text) > MAX_TEXT_CHARS:
        raise DslError("E-LIMIT-SIZE", f"the field is {len(text):,} characters long, more than the {MAX_TEXT_CHARS:,} allowed",
                       span_at(text, 0, 1), "split it among several components")
    _check_brackets(text)
    try:
        tree = _lark().parse(text, start=start)
    except lark.exceptions.UnexpectedInput as err:
        raise _parse_error(text, err, start) from None
    _check_numbers(tree, text)
    return _TRANSFORMER.transform(tree)


def expected_words(before: str, start: str = "effects") -> tuple[list[str], bool]:
    """What may come next after the text `before` (a field's text up to where the author types):
    the words of the language that may (in the grammar's order), and whether a name of the pack
    may. Nothing when `before` itself does not parse as the start of a `start`."""
    if start != "effects":
        before = before.lstrip()
    try:
        parser = _lark().parse_interactive(before, start=start)
        parser.exhaust_lexer()
    except lark.exceptions.LarkError:
        return [], False
    words = []
    for terminal in sorted(parser.accepts()):
        try:
            pattern = _lark().get_terminal(terminal).pattern
        except KeyError:
            continue
        if isinstance(pattern, lark.lexer.PatternStr) and pattern.value.isidentifier():
            words.append(pattern.value)
    return sorted(set(words)), "NAME" in parser.accepts()


# ---- parse errors --------------------------------------------------------------------


def _check_brackets(text: str) -> None:
    """Refuse deep bracket nesting before parsing, which would recurse that deep."""
    depth = 0
    for pos, char in enumerate(text):
        depth += (char == "(") - (char == ")")
        if depth > MAX_BRACKETS:
            first = text.index("(")
            raise DslError("E-DSL-PARSE", f"brackets nested deeper than {MAX_BRACKETS} levels",
                           span_at(text, first, 1), "write the condition without so many brackets")


def _check_numbers(tree: lark.Tree, text: str) -> None:
    """Refuse numbers no game needs, before any is read: a huge one would cost time and memory
    where it counts or repeats something (and Python reads at most 4,300 digits)."""
    for token in tree.scan_values(lambda v: isinstance(v, Token) and v.type == "INT"):
        digits = len(token.lstrip("-").lstrip("0"))
        if digits > len(str(MAX_NUMBER)) or abs(int(token)) > MAX_NUMBER:
            shown = str(token) if digits <= 12 else f"of {digits:,} digits"
            raise DslError("E-LIMIT-NUMBER", f"number {shown} is out of range", _token_span(token),
                           f"numbers in sentences are between -{MAX_NUMBER} and {MAX_NUMBER}")


def span_at(text: str, pos: int, length: int) -> ast.Span:
    """The span of `length` characters at offset `pos` of `text`."""
    line = text.count("\n", 0, pos) + 1
    column = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return ast.Span(line, column, line, column + length, pos, pos + length)


def _describe(terminal: str) -> str:
    if terminal in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[terminal]
    try:
        pattern = _lark().get_terminal(terminal).pattern
    except KeyError:
        return "end of text" if "END" in terminal else terminal.lower()
    return f"'{pattern.value}'" if isinstance(pattern, lark.lexer.PatternStr) else terminal.lower()


def _expected(err) -> str:
    words = sorted({_describe(t) for t in getattr(err, "expected", None) or getattr(err, "allowed", ())})
    if len(words) > 8:
        words = words[:8] + ["..."]
    return ", ".join(words) if words else "something else"


def _refusal(text: str, err: lark.exceptions.UnexpectedInput) -> DslError | None:
    """The error naming the concept the language lacks, when the table of dsl/refusals.py
    knows this failure: its message says what is missing, its hint the nearest sentence."""
    if not isinstance(err, lark.exceptions.UnexpectedToken):
        return None
    pos = len(text) if err.token.type == "$END" else err.token.start_pos
    start = max(text.rfind("\n", 0, pos), text.rfind(";", 0, pos)) + 1
    sentence = text[start:_sentence_end(text, pos)]
    found = refusals.classify(_refusal_states(tuple(VERB_CLASSES)), refusals.error_state(err), sentence, pos - start)
    if found is None:
        return None
    row, offset, length = found
    return DslError("E-DSL-UNSAYABLE", row.message(), span_at(text, start + offset, length), row.hint)


@functools.cache
def _refusal_states(verbs: tuple[str, ...]) -> dict:
    """Where the examples of dsl/refusals.py fail, for the grammar of these verbs (worked out once)."""
    return refusals.example_states(lambda text: _built(verbs).parse(text, start="effects"))


def _parse_error(text: str, err: lark.exceptions.UnexpectedInput, start: str = "effects") -> DslError:
    refused = _refusal(text, err)
    if refused is not None:
        return refused
    pos = getattr(err, "pos_in_stream", None) or 0
    if isinstance(err, lark.exceptions.UnexpectedToken):
        token = err.token
        if token.type == "$END":
            span = span_at(text, len(text.rstrip()), 1)
            return DslError("E-DSL-PARSE", f"the sentence stops too early: expected {_expected(err)}", span)
        found, pos = str(token), token.start_pos
    else:  # UnexpectedCharacters
        found = text[pos:].split(None, 1)[0] if text[pos:].strip() else text[pos:pos + 1]
    span = span_at(text, pos, max(1, len(found)))
    sentence = max(text.rfind("\n", 0, pos), text.rfind(";", 0, pos)) + 1
    words = text[sentence:pos].split()
    previous = words[-1].rstrip(":") if words else ""
    expected = _expected(err)
    second = words[1] if len(words) == 2 and not words[1].endswith(":") else None  # in a trigger's words
    if second and (words[0] == "at" and found == ":" or words[0] == "on" and second not in SELECTORS + TRIGGER_WORDS["on"]):
        # `at ennd:` read as a period's end, `on bild:` or `on bild red card:` as players watched
        previous, found = words[0], second
        span = span_at(text, text.rindex(found, sentence, pos), len(found))
        words = [previous]
    if words == [previous] and previous in TRIGGER_WORDS:
        return DslError("E-DSL-TRIGGER", f"unknown trigger '{previous} {found}'", span,
                        did_you_mean(found, TRIGGER_WORDS[previous]) or
                        f"after '{previous}' write one of: {TRIGGER_HINTS[previous]}")
    if second and words[0] == "on" and second in SELECTORS:  # `on left bild red card:`, `on left:`
        who = second
        return DslError("E-DSL-TRIGGER", f"after 'on {who}' expected what they do ({', '.join(WATCHED_WORDS)}), "
                        f"found '{found}'", span,
                        did_you_mean(found, WATCHED_WORDS) or
                        f"write 'on {who} take <card filter>', 'on {who} build <card filter>' or 'on {who} stage'")
    at_start = not words or words[-1].endswith(":") or words[-1] == "then"
    if at_start and found.isidentifier():
        return DslError("E-DSL-VERB", f"unknown verb '{found}'", span, first_word_hint(found))
    if at_start and start == "effects" and _INT.fullmatch(found):
        # `3 coins`: the amount written before its counter
        after = text[pos + len(found):].split(None, 1)
        counter = after[0] if after and after[0].isidentifier() else None
        return DslError("E-DSL-VERB", f"a sentence starts with a verb or a counter, not the number {found}", span,
                        first_word_hint(found, form=f"{counter} {found}" if counter else None))
    hint = _order_hint(words, found, text[pos + len(found):_sentence_end(text, pos)].strip())
    error = DslError("E-DSL-PARSE", f"expected {expected}, found '{found}'", span, hint)
    if start == "effects":
        _mark_first_word(error, text, sentence, pos)
    return error


def _sentence_end(text: str, pos: int) -> int:
    """Where the sentence holding offset `pos` ends."""
    return min((i for i in (text.find("\n", pos), text.find(";", pos)) if i >= 0), default=len(text))


def _order_hint(words: list[str], found: str, rest: str) -> str | None:
    """A hint where the words are right but not their order or their number, which the grammar's
    list of expected words does not say: `words` are the sentence's before `found`, `rest` after."""
    if found == ":" and len(words) == 3 and words[0] == "on" and words[1] in SELECTORS and words[2] in ("take", "build"):
        who, what = words[1], words[2]
        own = "; 'on build:' is the owner's own" if what == "build" else ""
        return f"a watched {what} names the cards: 'on {who} {what} card:'{own}"
    begin = max((i + 1 for i, w in enumerate(words) if w.endswith(":") or w == "then"), default=0)
    action = words[begin:]
    if found == "per" and action[:1] == ["discount"] and "for" in action:
        at = action.index("for")
        if rest and not {"if", "once", "then"} & set(rest.split()):
            return f"'per <count>' comes before 'for': write '{' '.join(action[:at] + ['per', rest] + action[at:])}'"
        return "'per <count>' comes before 'for': 'discount N <name> per <count> for <pieces>'"
    return None


_INT = re.compile(r"-?[0-9]+")
_WORD = re.compile(r"\S+")


def _mark_first_word(error: DslError, text: str, sentence: int, pos: int) -> None:
    """Note the first word of the action the error is in (after a trigger's ':' or a 'then'),
    with the action's text to the end of its sentence: read as a counter (`gain 3 coins`,
    `prodce wood`), it may be no counter at all, which the pack's checks know and the parser
    does not (`interpreter/packs/compiling.py` then reports an unknown first word)."""
    words = list(_WORD.finditer(text, sentence, pos))
    begin = 0
    for i, w in enumerate(words):
        if w.group().endswith(":") or w.group() == "then":
            begin = i + 1
    if begin >= len(words):
        return
    first = words[begin]
    word = first.group()
    if not word.isidentifier() or word in verb_words() or word in TRIGGER_WORDS:
        return
    end = _sentence_end(text, pos)
    error.first_word = (word, span_at(text, first.start(), len(word)))
    error.action_text = text[first.start():end].strip()


def first_word_hint(word: str, counters=(), form: str | None = None) -> str:
    """The hint for an unknown or misplaced first word of a sentence: the nearest verbs or
    counters, the right form when it is known (`coins 3` for `gain 3 coins`), and what a
    sentence may start with: the verbs of the registry and the pack's counters, in short."""
    words = verb_words()
    near = difflib.get_close_matches(word, sorted(set(words) | set(counters)), n=3, cutoff=0.6)
    said = ""
    if near:
        said = "did you mean " + " or ".join(f"'{w}'" for w in near) + "? "
    if form:
        said += f"write '{form}': "
    start = f"a sentence starts with a verb ({one_of(words, limit=MAX_LISTED)})"
    if counters:
        start += f" or a counter then its amount ({one_of(counters, limit=8)}), as in '{min(counters)} 3'"
    else:
        start += " or a counter then its amount"
    return said + start


MAX_LISTED = 24  # the verbs a hint lists at most


# ---- tree to AST ---------------------------------------------------------------------


def _meta_span(meta) -> ast.Span | None:
    if getattr(meta, "empty", True):
        return None
    return ast.Span(meta.line, meta.column, meta.end_line, meta.end_column, meta.start_pos, meta.end_pos)


_token_span = ast.token_span


def _name(token: Token | None) -> ast.Name | None:
    return None if token is None else ast.Name(str(token), span=_token_span(token))


def _int(token: Token | None, default: int | None = None) -> int | None:
    return default if token is None else int(token)


def _flat(kind, items, meta):
    """One item stays itself; `a and (b and c)` is `a and b and c`, which prints the same."""
    if len(items) == 1:
        return items[0]
    flat = tuple(x for i in items for x in (i.items if isinstance(i, kind) else (i,)))
    return kind(flat, span=_meta_span(meta))


@v_args(meta=True)
class _ToAst(Transformer):
    """One method per grammar rule, each building one AST node; a verb's node is built by its class
    (`__default__`)."""

    def __default__(self, data, children, meta):
        return VERB_CLASSES[data].parse(children, _meta_span(meta))

    # -- structure
    def effects(self, meta, items):
        return ast.Effects(tuple(i for i in items if i is not None), span=_meta_span(meta))

    def effect(self, meta, items):
        trigger, may, *rest = items
        limit = rest.pop()
        condition = rest.pop()
        actions = tuple(rest)
        sides = [a for a in actions if isinstance(a, _Side)]
        if sides or may:  # `A or B`, `may A`: one action, the choice, whose span runs from A to B
            first = tuple(a for a in actions if not isinstance(a, _Side))
            start, end = first[0].span, (sides[-1] if sides else first)[-1].span
            span = start and end and ast.Span(start.line, start.column, end.end_line, end.end_column,
                                              start.start, end.end)
            actions = (VERB_CLASSES[CHOICE](tuple(tuple(s) for s in [first, *sides]), optional=may is not None,
                                            span=span),)
        return ast.Effect(actions, trigger, condition, _name(limit), span=_meta_span(meta))

    def choice_side(self, meta, items):
        return _Side(items)

    def names(self, meta, tokens):
        return tuple(_name(t) for t in tokens)

    selectors = names

    # -- triggers
    def _trigger(event):
        def build(self, meta, items):
            item = items[0] if items else None
            if isinstance(item, ast.CardFilter):
                return ast.Trigger(event, filter=item, span=_meta_span(meta))
            return ast.Trigger(event, dice=item or (), span=_meta_span(meta))
        return build

    on_build = _trigger("build")
    at_end = _trigger("end")
    at_battle = _trigger("battle")
    at_turn_start = _trigger("turn_start")
    at_turn_end = _trigger("turn_end")
    on_take = _trigger("take")
    on_stage = _trigger("stage")
    on_choose_die = _trigger("choose_die")

    def _watched(event, word=None):
        def build(self, meta, items):
            card_filter = items[1] if len(items) > 1 else None
            return ast.Trigger(event, filter=card_filter, who=_name(items[0]), word=word, span=_meta_span(meta))
        return build

    on_watched_take = _watched("take", "take")
    on_watched_build = _watched("take", "build")
    on_watched_stage = _watched("stage")

    def _doing(event, what=None):
        """`on [players] <doing> ...`: the owner's doing, or with players, theirs watched."""
        def build(self, meta, items):
            who, rest = _name(items[0]), items[1] if len(items) > 1 else None
            return ast.Trigger(event, filter=rest if what == "card" else None, kinds=rest if what == "kinds" else (),
                               who=who, span=_meta_span(meta))
        return build

    on_buy = _doing("buy")
    on_sell = _doing("sell")
    on_chain = _doing("chain", "card")
    on_discard = _doing("discard", "card")
    on_take_token = _doing("take_token", "kinds")
    on_lose_token = _doing("lose_token", "kinds")
    on_gain = _doing("gain", "kinds")

    def at_period_end(self, meta, items):
        return ast.Trigger("round_end", period=_name(items[0]), span=_meta_span(meta))

    def at_period_start(self, meta, items):
        return ast.Trigger("round_start", period=_name(items[0]), span=_meta_span(meta))

    # -- amounts and counts
    def fixed(self, meta, items):
        return ast.Amount("fixed", (int(items[0]),), span=_meta_span(meta))

    def per(self, meta, items):
        return ast.Amount("per", (int(items[0]),), items[1], span=_meta_span(meta))

    def minus(self, meta, items):
        return ast.Amount("minus", (int(items[0]),), items[1], span=_meta_span(meta))

    def table(self, meta, items):
        *values, count = items
        return ast.Amount("table", tuple(int(v) for v in values), count, span=_meta_span(meta))

    def count(self, meta, items):
        divisor, what, places, period = items  # places: `in ...`, or `under stage`
        places = (places,) if isinstance(places, ast.UnderStage) else places
        within = period if isinstance(period, ast.Name) else None
        return ast.Count(what, places or (), _int(divisor), "this" if within else period, span=_meta_span(meta),
                         within=within)

    def card_set(self, meta, items):
        return ast.CardSet(tuple(items), span=_meta_span(meta))

    def science_sets(self, meta, items):
        return ast.Thing("science set", span=_meta_span(meta))

    def cost_of(self, meta, items):
        names, card_filter = items
        return ast.CostOf(names or (), card_filter, span=_meta_span(meta))

    def under(self, meta, items):
        return ast.UnderStage(_name(items[0]), span=_meta_span(meta))

    def card_filter(self, meta, items):
        kinds, icons = items
        return ast.CardFilter(kinds or (), icons or (), span=_meta_span(meta))

    def _thing(noun):
        def build(self, meta, items):
            return ast.Thing(noun, (items[0] if items else None) or (), span=_meta_span(meta))
        return build

    stages = _thing("stage")
    tokens = _thing("token")
    boxes = _thing("box")
    icons = _thing("icon")
    counter = _thing("counter")

    def before_round(self, meta, items):
        return "before_round"

    def one_battle(self, meta, items):
        return "one_battle"

    def this_battle(self, meta, items):
        return "this_battle"

    def this_period(self, meta, items):
        return _name(items[0])

    # -- places and zones
    def places(self, meta, items):
        return tuple(items)

    def place(self, meta, items):
        return ast.Place(_name(items[0]), _name(items[1]), span=_meta_span(meta))

    def shown_building(self, meta, items):
        return ast.ShownBuilding(_name(items[0]), _name(items[1]), span=_meta_span(meta))

    def zones(self, meta, items):
        return tuple(items)

    def zone(self, meta, items):
        return ast.Zone(_name(items[0]), _name(items[1]), span=_meta_span(meta))

    # -- conditions
    def condition(self, meta, items):
        return _flat(ast.AnyOf, items, meta)

    def conjunction(self, meta, items):
        return _flat(ast.AllOf, items, meta)

    def at_least(self, meta, items):
        return ast.AtLeast(items[0], span=_meta_span(meta))

    def compare(self, meta, items):
        count, op, sides = items
        return ast.Compare(count, str(op), sides, span=_meta_span(meta))

    def bound(self, meta, items):
        count, op, value = items
        return ast.Bound(count, str(op), int(value), span=_meta_span(meta))

    def players(self, meta, items):
        return ast.Players(str(items[0]), int(items[1]), span=_meta_span(meta))

    def complete(self, meta, items):
        return ast.Complete(_name(items[0]), span=_meta_span(meta))

    # -- costs
    def free(self, meta, items):
        return ast.Cost((), span=_meta_span(meta))

    def copied(self, meta, items):
        return ast.Cost((), span=_meta_span(meta), copied=True)

    def cost_terms(self, meta, items):
        return ast.Cost(tuple(items), span=_meta_span(meta))

    def cost_name(self, meta, items):
        count, name, less = items
        return ast.CostTerm(_int(count, 1), _name(name), less=less, span=_meta_span(meta))

    def cost_name_plus(self, meta, items):
        count, name, more = items
        return ast.CostTerm(_int(count, 1), _name(name), less=more, rises=True, span=_meta_span(meta))

    def cost_kind(self, meta, items):
        count, kind, less = items
        return ast.CostTerm(int(count), kind=str(kind), less=less, span=_meta_span(meta))

    def discounted_stages(self, meta, items):
        return ast.Thing("stage", span=_meta_span(meta))


class _Side(tuple):
    """The actions of one side of a choice after an `or`, as parsed."""


_TRANSFORMER = _ToAst()

"""`check`: every problem of a pack in one run. Reading finds what is wrong in itself (packs/);
this module adds what the pack's flow cannot honour, each at its position, so that a sentence or
a key `check` accepts does what it says in play:

- a trigger waiting for an event the flow never fires (E-DSL-EVENT), a verb it cannot run, or that
  has nothing to act on in this pack (E-DSL-FLOW), a `once per` sentence without a trigger whose
  verb the flow never uses as a power (E-DSL-POWER), a sentence the rules run at once given a
  trigger or a limit it would ignore (E-DSL-PLACE);
- what runs but can never change anything here, such as counting cards of a colour no piece has
  (W-DSL-NEVER, a warning);
- a rules.yaml key that no engine code reads for this flow (W-RULES-UNREAD, a warning), and a
  counter the pack declares that nothing counts, pays, compares or scores (W-COUNTER-UNREAD, a
  warning): unread.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import attrs

from ...dsl import ast, verbs
from ...dsl.ast import nodes as _nodes
from ...dsl.compiler import Varying
from ...dsl.diagnostics import Diagnostic, one_of
from ...dsl.parser import parse_cost
from ...dsl.printer import show
from ...dsl.vocabulary import ANY, COST_KINDS, ENGINE_PERIODS
from ..bots.botfile import bot_diagnostics
from ..bots.evaluation import evaluation_diagnostics
from ..core.events import BATTLE, END, EVENTS, ROUND_END, words
from ..flows.kinds import FLOWS, PROVISIONS, FlowKind
from ..packs.catalogue import copied_sides
from ..packs.model import LoadError, Pack, Sentence, has, rules_source, sentences
from ..packs.reading import read_pack
from ..packs.rules import Rules
from ..packs.schemas import NAMES_OF
from .dealing import deal_diagnostics
from .unread import cost_fields, unread_counters, unread_keys

# Fields of rules.yaml whose sentences the engine runs at once when something happens (a discard,
# a pass, a turn's start, a set turned in, a bonus taken, a card with an icon taken) or reads as
# points: a trigger or a limit there would never apply.
RUN_AT_ONCE = {("flow", "discard", "effect"): "a discard", ("flow", "pass", "effect"): "a pass",
               ("flow", "turn", "effect"): "a turn's start", ("science", "reward", "effect"): "a science set",
               "bonuses": "a bonus taken", "icons": "a card bearing the icon taken",
               "scoring": "the scoring", "first_bonus": "a building completed first",
               "shortfall": "each one a player is short of a loss", "tokens": "the scoring"}
# What can still happen once the game is over: points, and what they count.
AFTER_THE_END = frozenset({"gain", "gain_to", "science", "take_pawn", "copy", "copy_stage", "icon", "give"})
# What a component kind's cost pays for, as `check` says it (flows.py `FlowKind.pays`).
_PAID = {"cards": "cards", "wonders": "wonder stages", "buildings": "buildings' boxes", "boards": "boards' steps"}
# Verbs that move cards between zones.
ZONE_VERBS = frozenset({"take_top", "take_from", "give", "build_free", "lay"})
# Verbs that hold until an event of their own, whatever their trigger says, and how it is said.
# Verbs of tokens taken, given, returned or spent.
TOKEN_VERBS = frozenset({"take_token", "give_tokens", "return_tokens", "spend_tokens"})
OWN_EVENT = {"copy": (END, "at the end"), "keep": (BATTLE, "at a battle")}


def check_pack(name: str | Path) -> tuple[Pack | None, list[Diagnostic]]:
    """Load a pack and report every problem, its flow's included, and once it has no error, what
    dealing it at each player count finds (dealing.py); the pack is None when it cannot be read."""
    pack, diagnostics = _checked(name)
    if pack is not None and not any(d.severity == "error" for d in diagnostics):
        diagnostics = _sorted(diagnostics + deal_diagnostics(pack))
    return pack, diagnostics


def _checked(name: str | Path) -> tuple[Pack | None, list[Diagnostic]]:
    """A pack and its problems, without dealing it: a game at one count loads though another
    count cannot be dealt."""
    pack, diagnostics = read_pack(name)
    if pack is not None:
        diagnostics += flow_diagnostics(pack)
        if any(d.severity == "error" and Path(d.file).name == "rules.yaml" for d in diagnostics):
            # a value the schema rejected is left out, and with it what it names: no word of what nothing reads
            diagnostics = [d for d in diagnostics if d.code != "W-COUNTER-UNREAD"]
        if not any(d.severity == "error" for d in diagnostics):  # bots are read with a sound vocabulary
            diagnostics += bot_diagnostics(pack) + evaluation_diagnostics(pack)
    return pack, _sorted(diagnostics)


def load_pack(name: str | Path) -> Pack:
    """Load and compile a pack (by id or folder); raises `LoadError` listing every error."""
    pack, diagnostics = _checked(name)
    errors = [d for d in diagnostics if d.severity == "error"]
    if errors or pack is None:
        raise LoadError(errors or diagnostics)
    return pack


def flow_diagnostics(pack: Pack) -> list[Diagnostic]:
    """What the pack's flow cannot honour (see the module's doc)."""
    flow = pack.rules.get("flow") if isinstance(pack.rules.get("flow"), dict) else {}
    kind = FLOWS.get(flow.get("kind"))
    if kind is None or "players" not in pack.rules:  # reading reported it, or there is no flow to play
        return list(_costs(pack, None, False))
    out = list(_rules_problems(pack, kind))
    try:
        rules = Rules.read(pack, kind.rules)
    except (KeyError, TypeError, ValueError):
        return out  # broken rules: reading reported them
    table = _Table(pack, kind, rules)
    out += [d for sentence in sentences(pack) for d in table.sentence(sentence)]
    out += [d for sentence, term in _varying_terms(pack) for node in _nodes(term.less) for d in table.counted(sentence, node)]
    out += list(_token_kinds(pack, rules))
    return (out + list(_costs(pack, kind, rules.flow.sells_missing)) + list(unread_keys(pack, rules.reads(kind.reads)))
            + list(unread_counters(pack)))


def _token_kinds(pack: Pack, rules: Rules) -> Iterator[Diagnostic]:
    """A token kind of the pack's own (`tokens:`) whose name another part of the rules already
    gives: its tokens, or its scoring category, would be mixed with those."""
    military = rules.military
    taken = {rules.setup.offer.kind if rules.setup.offer else None: "the tokens on offer (`setup.offer`)",
             **{k: "the tokens to flip (`setup.tokens`)" for k, _ in rules.setup.tokens},
             **({military.victory_token: "the victory tokens (`military`)", military.defeat_token:
                 "the defeat tokens (`military`)"} if military else {}),
             **{c.name: "a scoring category (`scoring.categories`)" for c in rules.scoring.categories
                if c.names != (c.name,)},
             **{k: "a component kind" for k, components in pack.components.items() if components}}
    for token in rules.tokens:
        if token.kind in taken:
            source = rules_source(pack, ("tokens", token.kind))
            if source is not None:
                yield source.diagnostic("E-RULES", f"token kind {token.kind} is already {taken[token.kind]}",
                                        ("tokens", token.kind), "give the pack's own kind another name", key=True)


def _rules_problems(pack: Pack, kind: FlowKind) -> Iterator[Diagnostic]:
    """What the flow's `flow:` says that cannot be played (the flow's rules class finds it)."""
    for path, message, hint in kind.rules.problems(pack.rules):
        source = rules_source(pack, path)
        if source is not None:
            yield source.diagnostic("E-RULES", message, path, hint)


def _costs(pack: Pack, kind: FlowKind | None, sells_missing: bool) -> Iterator[Diagnostic]:
    """Costs that can never be paid: a resource nothing in the pack produces (unless the flow
    sells missing resources for coins), or more different resources than the pack has; and terms
    the flow does not pay (coins where costs are paid with cards, `3 different` in a draft, `any`),
    which would be ignored."""
    actions = [a for s in sentences(pack) for a in s.effect.node.actions]
    vocab = pack.vocabulary
    classes = (pack.rules.get("vocabulary") or {}).get("resources")
    classes = classes if isinstance(classes, dict) else {}
    produced = {r for a in actions if isinstance(a, (verbs.Produce, verbs.Buy)) for n in a.resources  # the bank's too
                for r in classes.get(n.text, (vocab.resolve(n.text, "resource") or n.text,))}
    buyable = ANY in produced or sells_missing
    kinds = len(vocab.names["resource"] - set((pack.rules.get("vocabulary") or {}).get("wild") or ()))
    ignored = {n.text for a in actions if isinstance(a, verbs.Ignore) for n in a.kinds}
    for component, field, compiled, text in cost_fields(pack):
        if kind is not None and compiled and component.kind not in kind.pays:
            source, path = component.at(field)
            yield source.diagnostic(
                "E-DSL-COST", f"{component.id}: a game of the {kind.name} flow never pays the cost of "
                f"{_PAID.get(component.kind, component.kind)}: this cost would be ignored", path,
                f"the {kind.name} flow pays for {' and '.join(sorted(_PAID.get(k, k) for k in kind.pays))} only: "
                "leave this cost out")
            continue
        written = parse_cost(text)
        if written.copied and not _copies_with_cost(component, field):
            source, path = component.at(field)
            yield source.diagnostic("E-DSL-COST", f"{component.id}: 'copied' is the cost of a wonder stage built as a "
                                    "copy of a neighbour's, paid at its cost", path,
                                    "give the stage the effect 'copy stage from left, right with cost', or a cost")
        for term in written.terms:
            resource = term.name and vocab.resolve(term.name.text, "resource")
            paid = "kinds" if term.kind else "resources" if resource else "any" if term.name.text == ANY else "counters"
            hint = "make a component produce it, or change the cost"
            if kind is not None and paid not in kind.costs:
                what = {"kinds": f"'{term.count} {term.kind}'", "any": "'any'", "counters": "a counter"}[paid]
                message = (f"{component.id}: a game of the {kind.name} flow never pays {what} in a cost: "
                           "this term would be ignored")
                hint = f"a cost of the {kind.name} flow names {' and '.join(sorted(kind.costs))}"
            elif resource and not buyable and resource not in produced:
                message = f"{component.id}: nothing in the pack produces '{resource}', so this cost can never be paid"
            elif term.kind == "different" and term.count > kinds and "different" not in ignored and term.less is None:
                message = f"{component.id}: {term.count} different resources, but the pack has {kinds}: this cost can never be paid"
            else:
                continue
            source, path = component.at(field)
            place = source.locate_in_text(path, text, term.span)
            yield source.diagnostic("E-DSL-COST", message, place=place, hint=hint)


def _copies_with_cost(component, field: tuple) -> bool:
    """Whether the piece of a cost field is a wonder stage whose effect copies with cost."""
    effects = component.compiled.get(field[:-1] + ("effect",), ())
    return component.kind == "wonders" and copied_sides(effects) is not None


def _stage_cost(component, field: tuple) -> bool:
    """Whether a cost is a wonder stage's: a wonder's, or a box's of a building no die opens
    (a Dice wonder's steps)."""
    if component.kind == "wonders":
        return True
    data = component.data
    if field[0] == "buildings" and isinstance(data.get("buildings"), list):  # a board's own buildings
        data = data["buildings"][field[1]]
    return "boxes" in field and isinstance(data, dict) and data.get("die") is None


def _varying_terms(pack: Pack) -> Iterator[tuple[Sentence, ast.CostTerm]]:
    """The cost terms read when paid (`5 coins minus yellow card`), each with its field as a
    sentence for diagnostics: their counts are held to the pack's game as a sentence's are."""
    for component, field, compiled, text in cost_fields(pack):
        if any(isinstance(n, Varying) for n in compiled.values()):
            source, path = component.at(field)
            at = Sentence(None, source, path, text, component.id, component.kind, field)
            yield from ((at, term) for term in parse_cost(text).terms if term.less is not None)


@attrs.frozen
class _Table:
    """What a game of this pack offers effects: its flow's events, verbs and powers, and what its
    rules lay out (battles, tokens on offer, tokens to flip, face-down decks)."""

    pack: Pack
    kind: FlowKind
    rules: Rules

    @property
    def round_end_events(self) -> frozenset[str]:
        """The events that happen once a round is over: its end, and its battle when every round
        ends with one (conflicts, and no `military.flip`)."""
        return frozenset({ROUND_END} | ({BATTLE} if self.rules.battles_each_round else set()))

    @property
    def events(self) -> frozenset[str]:
        return self.kind.events - ({BATTLE} if not self.rules.conflicts else set())

    def sentence(self, s: Sentence) -> Iterator[Diagnostic]:
        effect = s.effect.node
        if _run_at_once(s) is not None:
            yield from self.at_once(s, effect)
        elif effect.trigger is not None:
            yield from self.trigger(s, effect.trigger)
        if effect.limit is not None:
            yield from self.limit(s, effect)
        for action in _every_action(effect.actions):
            yield from self.action(s, effect, action)
        yield from self.read_once(s, effect)
        for node in _nodes(effect):
            yield from self.counted(s, node)

    # -- when
    def at_once(self, s: Sentence, effect: ast.Effect) -> Iterator[Diagnostic]:
        when = _run_at_once(s)
        if effect.trigger is not None:
            yield s.diagnostic("E-DSL-PLACE", f"this sentence runs at {when}: its trigger "
                               f"'{show(effect.trigger)}' would never apply", effect.trigger.span,
                               "remove the trigger: the rules run this field's sentences when that happens")
        if when == "the scoring":
            for action in effect.actions:
                if not (isinstance(action, verbs.Gain) and self.pack.vocabulary.resolve(action.counter.text, "counter")
                        == self.rules.scoring.counter):
                    yield s.diagnostic("E-DSL-PLACE", f"a scoring category counts points: '{show(action)}' would be "
                                       "ignored", action.span, f"write its points, as '{self.rules.scoring.counter} 1 per 3 coins'")

    def trigger(self, s: Sentence, trigger: ast.Trigger) -> Iterator[Diagnostic]:
        if trigger.period is not None:
            period = self.pack.vocabulary.resolve(trigger.period.text, "period") or trigger.period.text
            if period not in ("round", self.rules.round_period):
                edge = trigger.event.split("_")[1]  # start, end
                said = " or ".join(f"'at {p} {edge}'" for p in dict.fromkeys(("round", self.rules.round_period)) if p)
                also = "'at turn end' or 'at end' (the game's)" if edge == "end" else "or 'at turn start'"
                yield self.round_period_blamed(s, "E-DSL-EVENT", f"'{show(trigger)}' is no event: only rounds {edge} so",
                                               trigger.period.span, f"write {said}, {also}")
                return
        if trigger.event in self.events:
            yield from self.doing_kinds(s, trigger)
            return
        why = (" (battles need `military:` or `conflicts:` in rules.yaml)" if trigger.event == BATTLE and BATTLE in self.kind.events
               else f" in a game of the {self.kind.name} flow")
        yield s.diagnostic("E-DSL-EVENT", f"'{show(trigger)}' never happens{why}", trigger.span,
                           f"the {self.kind.name} flow ({self.kind.summary}) fires: {words(self.events)}")

    def doing_kinds(self, s: Sentence, trigger: ast.Trigger) -> Iterator[Diagnostic]:
        """`on gain <counters>` never sees points (scored at the end); `on take <kinds> token` waits
        for tokens the game gives (won in battles, on offer, of the pack's own), `on lose` for the
        pack's own (given, returned, spent)."""
        rules, vocab = self.rules, self.pack.vocabulary
        own = {t.kind for t in rules.tokens}
        given = own | {rules.setup.offer.kind if rules.setup.offer else None} | {
            t for c in rules.conflicts for t in (c.victory_token, c.defeat_token)}
        for name in trigger.kinds:
            if trigger.event == "gain":
                if vocab.resolve(name.text, "counter") == rules.scoring.counter:
                    yield s.diagnostic("E-DSL-EVENT", f"'{show(trigger)}' never happens: points are counted at the "
                                       "end, not gained in play", name.span, "watch another counter ('on gain coins')")
                continue
            kind = vocab.resolve(name.text, "token") or name.text
            if kind not in (given if trigger.event == "take_token" else own):
                held = "held by a player of this pack" if trigger.event == "take_token" else "of this pack's own"
                yield s.diagnostic("E-DSL-EVENT", f"'{show(trigger)}' never happens: no {kind} token is {held}",
                                   name.span, "watch tokens won in battles, on offer, or declared under rules.yaml "
                                   f"`tokens:`{'; its own: ' + one_of(own) if own else ''}")

    def limit(self, s: Sentence, effect: ast.Effect) -> Iterator[Diagnostic]:
        period = self.pack.vocabulary.resolve(effect.limit.text, "period") or effect.limit.text
        if period not in ENGINE_PERIODS and period != self.rules.round_period:
            yield self.round_period_blamed(s, "E-DSL-FLOW", f"'{period}' is no period of a game of this pack",
                                           effect.limit.span, f"a period is one of {', '.join(ENGINE_PERIODS)}, or "
                                           "the word `flow.round_period` names for a round")
        if effect.trigger is None and _run_at_once(s) is None:
            powers = [a for a in effect.actions if _verb(a) not in self.kind.powers]
            for action in powers[:1]:
                used = ", ".join(_words(self.kind.powers)) or "none"
                yield s.diagnostic("E-DSL-POWER", f"'{show(effect)}' has no trigger, so it is a power, but the "
                                   f"{self.kind.name} flow never uses '{show(action)}' as one", action.span,
                                   f"give it a trigger (as 'at turn start: ...'); the {self.kind.name} flow's powers: {used}")
        elif _run_at_once(s) is not None:
            yield s.diagnostic("E-DSL-PLACE", f"this sentence runs once at {_run_at_once(s)}: its limit would never "
                               "apply", effect.limit.span, "remove 'once per ...'")

    def read_once(self, s: Sentence, effect: ast.Effect) -> Iterator[Diagnostic]:
        """A lasting property's condition is read when its piece enters, never again."""
        if effect.trigger is not None or effect.limit is not None or effect.condition is None or _run_at_once(s):
            return
        lasting = [a for a in effect.actions if a.lasting]
        if lasting:
            yield s.diagnostic("W-DSL-ONCE", f"'{show(lasting[0])}' is a lasting property: its condition is read "
                               "once, when the piece comes into play, and never again (it will not start or stop "
                               "when the condition changes later)", effect.condition.span,
                               "make the condition one that is settled when the piece comes in, or remove it",
                               "warning")

    def round_period_blamed(self, s: Sentence, code: str, message: str, span, hint: str) -> Diagnostic:
        """A sentence's period that is no round's, at the sentence; or, when a pack over the
        sentence's renamed the round (`flow.round_period`), at that key, which caused it."""
        path = ("flow", "round_period")
        layers = self.pack.lineage()
        setter = next((i for i in reversed(range(len(layers))) if layers[i].own_rules
                       and has(layers[i].own_rules[0], path)), None)
        home = next((i for i, layer in enumerate(layers) if _holds(layer.folder, s.source.path)), None)
        if setter is None or home is None or setter <= home:
            return s.diagnostic(code, message, span, hint)
        found = s.diagnostic(code, message, span)
        return layers[setter].own_rules[1].diagnostic(
            code, f"flow.round_period '{self.rules.round_period}' renames the round of {layers[home].id}, whose "
            f"{found.file}:{found.line}:{found.column} still says: {message}", path,
            f"keep the base's word for a round, or replace {s.owner} ({s.kind or 'rules'}) in this pack with "
            "sentences using the new word")

    # -- what
    def action(self, s: Sentence, effect: ast.Effect, action) -> Iterator[Diagnostic]:
        verb, kind = _verb(action), self.kind
        if verb not in kind.verbs:
            lacking = " and ".join(PROVISIONS[p] for p in sorted(verbs.VERBS[verb].needs - kind.provides))
            yield s.diagnostic("E-DSL-FLOW", f"'{show(action)}' cannot happen in a game of the {kind.name} flow: "
                               f"it needs {lacking}", action.span,
                               f"the {kind.name} flow ({kind.summary}) runs: {one_of(_words(kind.verbs), 30)}")
            return
        event = effect.trigger.event if effect.trigger is not None else None
        if verb in OWN_EVENT and event != OWN_EVENT[verb][0] and _run_at_once(s) is None:
            own, when = OWN_EVENT[verb]
            yield s.diagnostic("E-DSL-EVENT", f"'{show(action)}' applies only {when}", action.span,
                               f"write '{EVENTS[own].words}: {show(action)}'")
        elif event == END and verb not in AFTER_THE_END:
            yield s.diagnostic("E-DSL-EVENT", f"'{show(action)}' cannot happen once the game is over",
                               action.span, "at the end only what the scoring counts can change: give it another trigger")
        elif verb == "extra_action" and kind.spent_at_round_end and event in self.round_end_events:
            battle = ", and its battle is fought then" if event == BATTLE else ""
            yield s.diagnostic("E-DSL-EVENT", f"'{show(effect.trigger)}: {show(action)}' has nothing to act with in a "
                               f"game of the {kind.name} flow: {kind.spent_at_round_end} are spent when a round "
                               f"ends{battle}", action.span, "give it another trigger, as 'at turn end: extra action', "
                               "or none (it then comes with its piece)")
        problem = self.needs(s, effect, action, verb)
        if problem is not None:
            code, message, hint = problem
            yield s.diagnostic(code, message, action.span, hint, "warning" if code.startswith("W") else "error")

    def needs(self, s: Sentence, effect: ast.Effect, action, verb: str) -> tuple[str, str, str] | None:
        """What a verb needs of the pack to act, when it lacks it: (code, message, hint)."""
        rules, vocab = self.rules, self.pack.vocabulary
        if verb in TOKEN_VERBS:
            return self.tokens(action, verb)
        if verb == "flip":
            wanted = vocab.resolve(action.kind.text, "token") or action.kind.text
            if wanted not in dict(rules.setup.tokens):
                return ("E-DSL-FLOW", f"no {wanted} tokens are laid out to flip in this pack",
                        "rules.yaml `setup.tokens` lays them out, by player count")
            if rules.military is None or rules.military.flip != wanted:
                return ("E-DSL-FLOW", f"flipping {wanted} tokens calls no battle here",
                        "rules.yaml `military.flip` names the tokens whose last flip calls a battle")
        if verb == "keep" and (rules.military is None or rules.military.discard_colour is None):
            return ("E-DSL-FLOW", "no card leaves a city after a battle here, so there is nothing to keep",
                    "rules.yaml `military.discard_after` names the cards that leave")
        if verb == "trade" and not rules.trade.sellers:
            return ("E-DSL-FLOW", "nobody sells resources in this pack", "rules.yaml `trade.sellers` names who sells")
        if verb == "build_free" and action.filter is None and (
                effect.trigger is not None or "build_free" not in self.kind.powers):
            return ("E-DSL-FLOW", "'build free' alone is a power of building a card of the turn free; here it "
                    "would have no card to build", "say which card and from where: 'build card from hand of self free'")
        if verb == "produce" and action.held and self.kind.spent_production:
            return ("E-DSL-FLOW", f"in the {self.kind.name} flow production is cards spent to pay: there is no "
                    "production that lasts to read what the city makes", "name the resources: 'produce wood / stone'")
        if verb == "buy":
            return self.bank(action)
        if verb == "produce" and self.kind.spent_production and not (
                effect.trigger is None and (effect.limit is not None or _is_card(s))):
            return ("E-DSL-FLOW", f"in the {self.kind.name} flow only cards produce (they are spent to pay) and "
                    "powers ('produce ... once per turn')", "put the production on a card, or limit it 'once per turn'")
        if verb == "science" and not self.scores_science(s, effect):
            return ("W-DSL-NEVER", "no science symbol counts in this pack",
                    "score them (a scoring category `science: true`) or turn them in (`science.sets`, on cards)")
        if verb in ZONE_VERBS and action.zones:
            named = {vocab.resolve(z.name.text, "shared_zone", "player_zone") or z.name.text for z in action.zones}
            if self.kind.fixed_city and rules.build_zone in named:
                return ("E-DSL-FLOW", f"in the {self.kind.name} flow what lies in {rules.build_zone} was checked "
                        "there and stays", f"name another zone than {rules.build_zone}")
            if not named & rules.zones():
                return ("W-DSL-NEVER", f"no card ever lies in {' or '.join(sorted(named))} in this pack",
                        f"zones that hold cards: {one_of(rules.zones())}")
        if verb == "copy_stage" and action.with_cost and not (
                "hands" in self.kind.provides and s.kind == "wonders" and "stages" in s.field and effect.trigger is None):
            return ("E-DSL-FLOW", "'with cost' builds a wonder stage as a copy of a neighbour's, paid at its cost: "
                    "a stage's own effect, without a trigger, in a game of hands (the draft flow)",
                    "write it as a stage's effect in wonders.yaml, or leave out 'with cost'")
        if verb == "copy_stage" and effect.trigger is None and s.kind is None and s.field[0] == "player_effects":
            return ("W-DSL-NEVER", "a player's own effects run as the game starts, before anyone builds a stage: "
                    "there is nothing to copy then", "give it a trigger, as 'at turn end:' or 'at end:'")
        if verb == "icon" and not _is_card(s):
            return ("W-DSL-NEVER", "only the icons printed on cards count", "put the icon on a card")
        if verb == "look":
            faces = [z for z in action.zones if (vocab.resolve(z.name.text, "shared_zone") or z.name.text)
                     not in rules.setup.decks]
            if faces:
                return ("W-DSL-NEVER", f"the top card of {show(faces[0])} is face up: looking at it changes nothing",
                        "look at a face-down deck (rules.yaml `setup.decks`)")
        if verb == "extra_action" and action.free_die and "dice" not in self.kind.provides:
            return ("W-DSL-NEVER", "there are no dice to pay for in this pack", "write 'extra action'")
        if verb == "cost_discount":
            return self.discounted(action)
        return None

    def bank(self, action) -> tuple[str, str, str] | None:
        """The bank sells for the pack's currency; where costs count resources whatever their kinds
        (rolls), it sells every resource, at less than a missing one costs."""
        rules, vocab = self.rules, self.pack.vocabulary
        if self.kind.resource_kinds:
            if rules.trade.currency is None:
                return ("E-DSL-FLOW", "nothing pays the bank in this pack", "rules.yaml `trade.currency` names the counter that pays")
            return None
        named = {r for n in action.resources for r in vocab.all("resource")
                 if n.text == ANY or r == vocab.resolve(n.text, "resource") or r in dict(rules.classes).get(n.text, ())}
        if named != set(vocab.all("resource")):
            return ("E-DSL-FLOW", f"a cost of the {self.kind.name} flow counts resources whatever their kinds: the bank "
                    "cannot sell some kinds only", "name every resource: 'buy any from bank at 0'")
        if action.price >= rules.flow.missing_resource:
            return ("W-DSL-NEVER", f"a missing resource costs {rules.flow.missing_resource} already",
                    f"write a price below {rules.flow.missing_resource}")
        return None

    def tokens(self, action, verb: str) -> tuple[str, str, str] | None:
        """Tokens taken need a kind on offer (`setup.offer`) or of the pack's own (`tokens:`); given,
        returned or spent, one of the pack's own."""
        rules = self.rules
        wanted = self.pack.vocabulary.resolve(action.kind.text, "token") or action.kind.text
        own = {t.kind for t in rules.tokens}
        if wanted in own or verb == "take_token" and rules.setup.offer is not None and rules.setup.offer.kind == wanted:
            return None
        declare = f"declare it under rules.yaml `tokens:` ({wanted}: {{value: -1}}) for tokens players hold"
        if verb == "take_token":
            return ("E-DSL-FLOW", f"no {wanted} tokens are on offer in this pack, and it declares no such kind "
                    "of its own",
                    f"{declare}; `setup.offer` lays out pieces to choose from")
        what = {"give_tokens": "give", "return_tokens": "return", "spend_tokens": "spend"}[verb]
        return ("E-DSL-FLOW", f"{wanted} is no token kind of this pack's own: no player holds such tokens to {what}",
                f"{declare}{'; its own: ' + one_of(own) if own else ''}")

    def discounted(self, action) -> tuple[str, str, str] | None:
        """A discount of a counter where the flow's costs never name one (an error), for cards where
        none has a cost, or of what no cost of the pack asks for (warnings)."""
        vocab, kind = self.pack.vocabulary, self.kind
        name = vocab.resolve(action.what.text, "resource", "counter") or action.what.text
        resource = name == ANY or vocab.resolve(action.what.text, "resource") is not None
        if not resource and "counters" not in kind.costs:
            return ("E-DSL-FLOW", f"a game of the {kind.name} flow never pays {name} in a cost: this discount would "
                    "never apply", f"its costs name {' and '.join(sorted(kind.costs))}: discount a resource, or 'any' "
                    "(which lowers 'N different' and 'N identical' first)")
        costs = [(_stage_cost(c, field), compiled) for c, field, compiled, _ in cost_fields(self.pack)
                 if c.kind in kind.pays]
        if isinstance(action.target, ast.CardFilter) and all(stage for stage, _ in costs):
            return ("W-DSL-NEVER", "no card of this pack has a cost, only wonder stages do",
                    "write 'for stage', or leave 'for ...' out")
        if action.amount < 0:
            return None  # a surcharge adds its term to costs that lack it
        stages = None if action.target is None else not isinstance(action.target, ast.CardFilter)
        asked = {k for stage, compiled in costs if stages in (None, stage) for k in compiled}
        if name == ANY:
            asked = {k for k in asked if k in COST_KINDS or vocab.resolve(k, "resource")}
            if asked:
                return None
        elif name in asked:
            return None
        kinds = "; 'discount N any' lowers 'N different' and 'N identical'" if asked & set(COST_KINDS) else ""
        of = {None: "", True: " of a wonder stage", False: " of a card"}[stages]
        return ("W-DSL-NEVER", f"no cost{of} in this pack asks for {'resources' if name == ANY else name}",
                f"those costs ask for: {one_of(asked) or 'nothing'}{kinds}")

    def scores_science(self, s: Sentence, effect: ast.Effect) -> bool:
        """Whether a science symbol counts: scored, or turned in as a card's symbol."""
        if any(c.how == "science" for c in self.rules.scoring.categories):
            return True
        sets = self.rules.science.identical or self.rules.science.different
        return bool(sets) and "science.sets" in self.kind.reads and effect.trigger is None and _is_card(s)

    def counted(self, s: Sentence, node) -> Iterator[Diagnostic]:
        """Counts of boxes need boxes, of cards under stages cards tucked there, of science sets the
        bonus per set that says what one is; card filters should match some piece; `this <period>` a
        period the game keeps."""
        if isinstance(node, ast.Count) and node.within is not None:
            period = self.pack.vocabulary.resolve(node.within.text, "period") or node.within.text
            if period not in ENGINE_PERIODS and period != self.rules.round_period:
                yield self.round_period_blamed(s, "E-DSL-FLOW", f"'{period}' is no period of a game of this pack",
                                               node.within.span, f"a period is one of {', '.join(ENGINE_PERIODS)}, "
                                               "or the word `flow.round_period` names for a round")
        if isinstance(node, ast.Thing) and node.noun == "box" and "boxes" not in self.kind.provides:
            yield s.diagnostic("E-DSL-FLOW", f"a game of the {self.kind.name} flow has no boxes to count", node.span,
                               "count cards, stages or tokens")
        if isinstance(node, ast.UnderStage) and "tucked" not in self.kind.provides:
            yield s.diagnostic("E-DSL-FLOW", f"in a game of the {self.kind.name} flow no card lies under a stage",
                               node.span, "count the cards of a zone ('red card in self')")
        if isinstance(node, ast.Thing) and node.noun == "science set" and not self.rules.science.set_bonus:
            yield s.diagnostic("E-DSL-FLOW", "this pack's rules say of no set of science symbols (rules.yaml "
                               "`science.set_bonus`: a bonus per set of every symbol)", node.span,
                               "count the symbols' cards ('green card'), or give the rules a set bonus")
        if isinstance(node, ast.CostOf) and not self.kind.pays - {"wonders"}:
            yield s.diagnostic("W-DSL-NEVER", f"in a game of the {self.kind.name} flow no piece in a zone has a cost "
                               "(it pays wonder stages only)", node.span, "count the cards themselves", "warning")
        if isinstance(node, ast.CardFilter) and node.kinds:
            known = self.piece_kinds()
            missing = [k for k in node.kinds if (self.pack.vocabulary.resolve(k.text, "colour", "card") or k.text)
                       not in known]
            if len(missing) == len(node.kinds):
                yield s.diagnostic("W-DSL-NEVER", f"no piece of this pack is a {show(node)}", node.span,
                                   f"pieces are: {one_of(known)}", "warning")

    def piece_kinds(self) -> set[str]:
        """The colours and ids of every piece that may lie in a zone: cards (by colour), tokens and
        medals (their kind stands for a colour), boxes (their building)."""
        out = set()
        for kind, components in self.pack.components.items():
            names = NAMES_OF[kind]
            for cid, c in components.items():
                if names == "card":
                    out |= {cid, c.data.get("colour")}
                elif names in ("token", "building"):
                    out |= {cid, kind if names == "token" else cid}
                out |= {b.get("id") for b in c.data.get("buildings") or () if isinstance(b, dict)}
        return out - {None}


def _holds(folder: Path, file: str) -> bool:
    """Whether a pack's folder holds a file (as a diagnostic shows its path)."""
    return Path(file).resolve().parent == Path(folder).resolve()


def _every_action(actions) -> Iterator:
    """A sentence's actions, and those of each side of a choice among them (after the choice)."""
    for action in actions:
        yield action
        if isinstance(action, verbs.Choice):
            yield from (a for side in action.sides for a in side)


def _verb(action) -> str:
    return action.name


def _words(names) -> list[str]:
    """Verbs as a sentence writes them (`discount`, `die discount`), each once."""
    return sorted({verbs.VERBS[v].words() for v in names})


def _run_at_once(s: Sentence) -> str | None:
    """What a sentence of a field the rules run at once runs at (None for other fields)."""
    if s.kind is not None:
        return RUN_AT_ONCE.get(s.field[-1]) if s.field[-1] == "first_bonus" else None
    return RUN_AT_ONCE.get(s.field) or RUN_AT_ONCE.get(s.field[0])


def _is_card(s: Sentence) -> bool:
    return s.kind == "cards" and s.field == ("effect",)


def _sorted(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    order = {f: i for i, f in enumerate(dict.fromkeys(d.file for d in diagnostics))}
    return sorted(diagnostics, key=lambda d: (order[d.file], d.line, d.column))

"""Reachable positions: what no game of a pack ends with, though each player's part of it may.

A scenario's checks (scenario_players.py, scenario_boards.py) refuse what one player cannot hold
(an unknown card, a stage twice); these checks compare what the players hold with each other and
with the pack's data, once every holding is read: more copies of a card than the game deals,
objectives (medals) no one could have reached, or whose condition their holder never met, or shared
by players no one moment let meet it; military tokens that no battles between neighbours give,
boxes checked with a die the player never had, more cards of a round's deck than its turns play.
Each yields `Refusal`s, at the item to blame. Nothing here knows a game: the numbers come from the
pack (the flow's `supply`, rules.yaml `objectives` and `military`, the objectives' conditions and
every sentence, the dice).
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable, Iterator, NamedTuple

import attrs

from ...dsl import ast
from ...dsl.compiler import Compiler
from ...dsl.diagnostics import one_of
from ...dsl.printer import show
from ...dsl.verbs.tokens import CHOICE
from ..core import military
from ..core.context import ONE_BATTLE, THIS_BATTLE
from ..core.runtime import between
from ..flows.flow import Group, Supply
from ..packs.boards import Building
from ..packs.model import Pack, sentences
from ..packs.rules import Military

CARD = "E-SCENARIO-CARD"
DUPLICATE = "E-SCENARIO-DUPLICATE"
MILITARY = "E-SCENARIO-MILITARY"
PIECE = "E-SCENARIO-PIECE"
BOX = "E-SCENARIO-BOX"
DIE = "E-SCENARIO-DIE"
STAGES = "E-SCENARIO-STAGES"

Item = tuple[tuple, str]  # (path in the scenario, id)


class Refusal(NamedTuple):
    """A reason no game reaches the position: code, where (a path into the scenario), message, hint."""

    code: str
    path: tuple
    message: str
    hint: str | None = None
    key: bool = False


def _holders(names: Iterable[str]) -> str:
    """`alice, bob 2`: who holds how many (a count only past one)."""
    return ", ".join(f"{who} {n}" if n > 1 else who for who, n in Counter(names).items())


# -- cards: no more copies than the game deals


def over_supply(supply: Supply, players: int, cities: list[tuple[str, list[Item]]]) -> Iterator[Refusal]:
    """A card in more cities (or more often) than the game deals copies of it for this player
    count, counting every player's; a group of which the game keeps fewer (a random part of a deck)
    held beyond that. One refusal per card or group, at the first copy too many."""
    held: dict[str, list[str]] = {}
    kept: dict[Group, list[str]] = {}
    told: set = set()
    for name, items in cities:
        for path, card in items:
            copies, holders = supply.copies(card), held.setdefault(card, [])
            group = next((g for g in supply.groups if card in g.cards), None)
            if len(holders) >= copies:
                if card not in told:
                    told.add(card)
                    yield _too_many(supply, players, name, card, copies, path, holders)
                continue
            if group is not None:
                taken = kept.setdefault(group, [])
                if len(taken) >= group.most:
                    if group not in told:
                        told.add(group)
                        yield Refusal(CARD, path, f"{name} holds {card}, one {group.noun} too many: a game of "
                                                  f"{players} players keeps {group.most} of them",
                                      f"{group.why}; held: {_holders(taken)}")
                    continue
                taken.append(name)
            holders.append(name)


def _too_many(supply: Supply, players: int, name: str, card: str, copies: int, path: tuple,
              holders: list[str]) -> Refusal:
    if copies == 0 and card in supply.more_players:
        least = supply.more_players[card]
        return Refusal(CARD, path, f"{card} is not in a game of {players} players: its copies are for {least} "
                                   f"players or more", f"remove it, or play with at least {least} players "
                                                       "(cards.yaml `copies`)")
    if copies == 0:
        return Refusal(CARD, path, f"{card} is in none of the decks a game of {players} players with these "
                                   "wonders deals", "remove it")
    where = ", ".join(f"{n} in {source}" for source, n in supply.sources[card])
    return Refusal(CARD, path, f"{name} holds one {card} too many: a game of {players} players deals "
                               f"{copies} ({where})",
                   f"already held: {_holders(holders)}; a copy is in one city at most")


# -- objectives: each laid between two neighbours, or in the middle


class Layout(NamedTuple):
    """Where a game lays its objectives for these players: `near` between each pair of neighbours
    (`zones[i]`: the seats that may win those between seat i and its left neighbour), `middle` in
    the middle; `noun` names one; `option`: (name, count) of the option that would lay some in the
    middle, when it is off."""

    names: list[str]
    zones: list[frozenset[int]]
    near: int
    middle: int
    noun: str
    option: tuple[str, int] | None
    shareable: frozenset[str] = frozenset()  # the pieces several players may win at one moment

    @classmethod
    def around(cls, names: list[str], near: int, middle: int, noun: str, option: tuple[str, int] | None,
               shareable: frozenset[str] = frozenset()) -> "Layout":
        return cls(names, [between(i, len(names)) for i in range(len(names))], near, middle, noun, option, shareable)


def unplaced_objectives(layout: Layout, held: list[list[Item]]) -> Iterator[Refusal]:
    """Objectives no laying out lets these players have won (as `Flow.lay_objectives` lays them and
    `State.claim` gives them). A piece held by several players lay in the middle; the others are
    matched to places each holder could reach, and the first that finds none is refused."""
    names, zones, noun, middle = layout.names, layout.zones, layout.noun, layout.middle
    holders: dict[str, list[int]] = {}
    kept: list[list[Item]] = []  # each seat's pieces, each once
    for seat, items in enumerate(held):
        kept.append([])
        for path, pid in items:
            if seat in holders.get(pid, ()):
                yield Refusal(DUPLICATE, path, f"{names[seat]} already holds the {noun} '{pid}'",
                              f"a player wins a {noun} once")
            else:
                holders.setdefault(pid, []).append(seat)
                kept[seat].append((path, pid))
    shared = [pid for pid, seats_of in holders.items() if len(seats_of) > 1]
    for pid in shared if middle else ():  # several hold it: in the middle, if many can meet it at once
        if pid not in layout.shareable:
            who = holders[pid]
            yield Refusal(DUPLICATE, next(p for p, i in kept[who[1]] if i == pid),
                          f"{' and '.join(names[s] for s in who)} hold the same {noun} '{pid}': it goes to the first "
                          "to meet its objective, alone", _sharing(noun, layout.shareable))
    shared = [pid for pid in shared if not middle or pid in layout.shareable]
    for pid in shared[middle:]:
        who = holders[pid]
        yield Refusal(DUPLICATE, next(p for p, i in kept[who[1]] if i == pid),
                      f"{' and '.join(names[s] for s in who)} hold the same {noun} '{pid}'",
                      f"only a {noun} in the middle goes to several players, and {middle} lie there, held by "
                      f"several: {', '.join(shared[:middle])}" if middle else
                      f"a {noun} goes to one player" + _middle_hint(noun, layout.option))
    places = [("zone", z, c) for z in range(len(zones)) for c in range(layout.near)] + \
             [("middle", None, c) for c in range(max(0, middle - len(shared)))]
    matched: dict[tuple, tuple[int, str]] = {}  # place -> (seat, piece)

    def place(seat: int, pid: str, seen: set) -> bool:
        for spot in places:
            if spot in seen or (spot[0] == "zone" and seat not in zones[spot[1]]):
                continue
            seen.add(spot)
            if spot not in matched or place(*matched[spot], seen):
                matched[spot] = (seat, pid)
                return True
        return False

    for seat, items in enumerate(kept):
        for path, pid in items:
            if len(holders[pid]) == 1 and not place(seat, pid, set()):
                yield _unreached(layout, kept, matched, seat, path, pid)


def _unreached(layout: Layout, kept: list[list[Item]], matched: dict, seat: int, path: tuple, pid: str) -> Refusal:
    """The refusal of a piece no place is left for: the places the seat reaches, and who holds them."""
    names, noun, middle = layout.names, layout.noun, layout.middle
    name = names[seat]
    near = layout.near * sum(seat in z for z in layout.zones)
    nearby = {won for (kind, z, _), won in matched.items() if kind == "zone" and seat in layout.zones[z]}
    others: dict[str, list[str]] = {}
    for s, items in enumerate(kept):
        for _, p in items:
            if s != seat and (s, p) in nearby:
                others.setdefault(names[s], []).append(p)
    message = (f"{name} cannot have won the {noun} '{pid}': only the {near} {noun}{'s' * (near != 1)} between {name} "
               f"and their neighbours" + (f" and the {middle} in the middle" if middle else "")
               + f" were {name}'s to win")
    took = "; ".join(f"{who} holds {', '.join(ps)}" for who, ps in others.items())
    hint = (f"of those {name} could win, {took}" if took else f"a player wins only the {noun}s next to them"
            + (" and those in the middle" if middle else "")) + _middle_hint(noun, layout.option)
    return Refusal(PIECE, path, message, hint)


def _sharing(noun: str, shareable: frozenset[str]) -> str:
    """Which pieces several players may hold, and the rule (docs/rules-notes.md)."""
    which = f"here: {', '.join(sorted(shareable))}" if shareable else "none here"
    return (f"a {noun} in the middle goes to several players only when its objective is met by several at one "
            f"moment, as a battle's victories are (`shareable: true`; {which}); docs/rules-notes.md, Medals")


def _middle_hint(noun: str, option: tuple[str, int] | None) -> str:
    if option is None:
        return ""
    name, count = option
    return f"; with the option {name}, {count} more {noun}s lie in the middle (`options: {{{name}: true}}`)"


# -- military tokens: what battles between neighbours give


Token = tuple[tuple, str, int]  # (path in the scenario, token kind, value)


class Battles(NamedTuple):
    """The battles of a game at its table, for the military checks: its `military:` rules, each
    battle's value in order (None: any number of battles), every result one battle can have (None:
    too many to work out), each seat's neighbours, whether battles are duels, and the words for a
    round and for the counter compared."""

    rules: Military
    plan: tuple[int, ...] | None
    found: tuple | None
    neighbours: tuple[tuple[int, ...], ...]
    duel: bool
    period: str
    counter: str

    @classmethod
    def of(cls, game) -> "Battles":
        rules, neighbours = game.rules.military, tuple(game.seat_table["neighbours"])
        duel = military.dueling(rules, game.players)
        plan = military.schedule(rules, game.flow.round_count())
        return cls(rules, plan, military.outcomes(rules, neighbours, duel), neighbours, duel,
                   game.rules.round_period or "round", rules.counter)


def impossible_tokens(battles: Battles, names: list[str], tokens: list[list[Token]]) -> Iterator[Refusal]:
    """Military tokens that no battles give all together. First what a player holds beyond what
    their own battles give, whatever the others hold (one refusal per player and kind: the common
    mistake said plainly; the search below would refuse it with less to say). Then, by the search
    (`military.possible`), the victories of each value on their own, then the defeats with them:
    one refusal at most, at the last token of the kind to blame."""
    own = list(_beyond_own(battles, names, tokens))
    yield from own
    if own or battles.found is None or not names:
        return
    rules, plan, found = battles.rules, battles.plan, battles.found
    values = tuple(dict.fromkeys(rules.victory_values))
    defeat = rules.defeat_token
    wins = tuple(tuple(sum(1 for _, k, v in mine if k == rules.victory_token and v == value) for mine in tokens)
                 for value in values)
    defeats = tuple(sum(1 for _, k, _ in mine if k == defeat) for mine in tokens) if defeat else None
    hint = (f"in a battle each player compares {battles.counter} with each neighbour: more takes a victory token, "
            + ("fewer a defeat token, " if defeat else "") + "equal nothing; so two neighbours never both win "
            "against each other, and a player with the fewest wins nothing")

    def last(kind: str, value: int | None = None) -> tuple:
        return [p for mine in tokens for p, k, v in mine if k == kind and value in (None, v)][-1]

    for k, value in enumerate(values):
        rounds = [r + 1 for r, v in enumerate(plan or ()) if v == value]
        alone = tuple(v for v in plan or () if v == value) if plan is not None else None
        if any(wins[k]) and military.possible(found, alone, (value,), (wins[k],), None) is False:
            who = ", ".join(f"{names[s]} {n}" for s, n in enumerate(wins[k]) if n)
            when = f"of {battles.period} {', '.join(map(str, rounds))} " if plan is not None else ""
            worth = f" of {value}" if len(values) > 1 else ""
            lone = sum(wins[k]) == 1 and len(names) > 2
            yield Refusal(MILITARY, last(rules.victory_token, value),
                          f"no battles {when}give these victory tokens{worth}: {who}",
                          _lone(len(names), names[wins[k].index(1)]) if lone else hint)
            return
    if defeats is None or military.possible(found, plan, values, wins, defeats) is not False:
        return
    won, lost = sum(map(sum, wins)), sum(defeats)
    paired = all(sum(w for w, _ in outcome) == sum(d for _, d in outcome) for outcome in found)
    if won != lost and paired:
        blamed = last(rules.victory_token) if won > lost else last(defeat)
        yield Refusal(MILITARY, blamed, f"the players hold {won} victory tokens and {lost} defeat tokens: each "
                                        "victory in a battle is a defeat of the neighbour beaten", hint)
        return
    held = ", ".join(f"{names[s]} {n}" for s, n in enumerate(defeats) if n) or "none"
    yield Refusal(MILITARY, last(defeat) if lost else last(rules.victory_token),
                  f"no battles give these defeat tokens with these victories: {held}", hint)


def _lone(players: int, who: str) -> str:
    """Why a single victory is no battle's result around a table of three or more."""
    return (f"victories never come alone in a battle around a table of {players}: had {who} beaten a neighbour, "
            f"then going round the table the other way, from that neighbour back to {who}, strength climbs back "
            "somewhere, and there a player beats the one before them: a second victory")


def _beyond_own(battles: Battles, names: list[str], tokens: list[list[Token]]) -> Iterator[Refusal]:
    """Tokens a player holds beyond what their battles against their neighbours give (when the
    number of battles is fixed), at the first token too many: of one kind and value, then of all."""
    plan, rules = battles.plan, battles.rules
    if plan is None:
        return
    most = {rules.victory_token: military.against(rules, 1, 0, battles.duel)[0],  # tokens of one comparison
            rules.defeat_token: military.against(rules, 0, 1, battles.duel)[1]}
    rounds = {(rules.victory_token, v): [r for r, w in enumerate(plan) if w == v] for v in plan}
    rounds[rules.defeat_token, rules.defeat_value] = list(range(len(plan)))
    for seat, mine in enumerate(tokens):
        fights, counted, told = len(battles.neighbours[seat]), Counter(), set()
        for path, kind, value in mine:
            fought = rounds.get((kind, value), [])
            limit = len(fought) * fights * most.get(kind, 0)
            if counted[kind, value] >= limit:
                if (kind, value) not in told:
                    told.add((kind, value))
                    when = f" ({battles.period} {', '.join(str(r + 1) for r in fought)})" if fought else ""
                    yield Refusal(MILITARY, path, f"{names[seat]} holds more tokens of {value} than the battles give",
                                  f"{_count(len(fought), 'battle')}{when} against {_count(fights, 'neighbour')} "
                                  f"give{'s' * (len(fought) == 1)} at most {limit}")
                continue
            counted[kind, value] += 1
            if sum(-(-n // most[k]) for (k, _), n in counted.items()) > len(plan) * fights:
                counted[kind, value] -= 1
                if "all" not in told:
                    told.add("all")
                    yield Refusal(MILITARY, path, f"{names[seat]} holds more military tokens than the battles give",
                                  f"{_count(len(plan), 'battle')} against {_count(fights, 'neighbour')}: "
                                  f"{len(plan) * fights} comparisons of {battles.counter}, each a victory, a defeat "
                                  "or a tie")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' * (n != 1)}"


# -- boxes: checked with a die the player had, or for free by a box or bonus


def unreached_boxes(name: str, at: tuple, buildings: dict[str, Building], checked: dict, openers: dict[str, set[str]],
                    start: set[str], listed: list[tuple[tuple, str]], extra: list) -> Iterator[Refusal]:
    """Buildings whose boxes the player checked, though no die that opens them was theirs (one in
    play from the start, or one a box they checked unlocked) and no box or bonus of theirs checks
    one free; dice listed as unlocked that no box of theirs unlocks. `checked`: building -> its
    boxes as scenario_boards.py reads them; `extra`: the effects of the bonuses taken. Found from the
    buildings reached from the start, box by box."""
    boxes = {b: _boxes(buildings[b], given) for b, given in checked.items()}
    reached: set[str] = set()
    while True:
        effects = [e for b in reached for box in boxes[b] for e in box.effects] + list(extra)
        unlocked = {a.args.die for e in effects for a in e.actions if a.verb == "unlock"}
        free = {b for e in effects for a in e.actions if a.verb == "check" for b in a.args.buildings}
        usable = start | unlocked
        grown = {b for b in boxes if buildings[b].die is None or b in free or openers.get(b, set()) & usable}
        if grown == reached:
            break
        reached = grown
    for path, die in listed:
        if die not in start | unlocked:
            yield Refusal(DIE, path, f"{name} has not unlocked the {die} die: no box {name} checked unlocks it",
                          _unlocking(buildings, die))
    for b in boxes:
        if b in reached or not boxes[b]:
            continue
        dice = sorted(openers.get(b, ()))
        if not dice:
            yield Refusal(BOX, at + (b,), f"no die opens {b}, and no box or bonus of {name}'s checks one free",
                          f"remove {b}'s boxes", key=True)
            continue
        them = " or ".join(f"the {d} die" for d in dice)
        yield Refusal(BOX, at + (b,), f"{name} checked boxes of {b} without a die to check them with: {them} "
                                      f"opens it, and {name} has not unlocked {'it' if len(dice) == 1 else 'any'}",
                      "; ".join(_unlocking(buildings, d) for d in dice) + f"; or remove {b}'s boxes", key=True)


def _boxes(building: Building, given) -> list:
    """The boxes checked of a building, from a count, numbers, or either by track."""
    by_track = given if isinstance(given, dict) else {"": given}
    out = []
    for track, value in by_track.items():
        numbers = range(1, value + 1) if isinstance(value, int) else value
        out += [building.tracks[track][n - 1] for n in numbers]
    return out


def _unlocking(buildings: dict[str, Building], die: str) -> str:
    ids = [box.id for b in buildings.values() for box in b.boxes() for e in box.effects for a in e.actions
           if a.verb == "unlock" and a.args.die == die]
    return f"the {die} die is unlocked by checking {one_of(ids)}" if ids else f"no box unlocks the {die} die"


# -- objectives won: met at some moment, and what only grows was never more than it is now


def actions(effects: Iterable) -> Iterator:
    """The compiled actions of effects, and those of each side of their choices."""
    todo = [a for e in effects for a in e.actions]
    while todo:
        action = todo.pop()
        yield action
        if action.verb == CHOICE:
            todo += [a for side in action.args.sides for a in side]


# The verbs that take tokens of a kind from their holder (a verb added that does must be named here).
LOWERING = frozenset({"give_tokens", "return_tokens", "spend_tokens"})


class Lasting:
    """The counts of a pack that only grow in a game, and their values in a position: built stages,
    and tokens of a kind that no sentence of the pack gives, returns or spends, nor takes or lays
    from a player's zone of that kind. A position's value of such a count is at least what it was
    at any earlier moment of the game."""

    def __init__(self, pack: Pack):
        self.vocab = pack.vocabulary
        self.compiler = Compiler(self.vocab)
        fallen: set[str] = set()
        for action in actions(s.effect for s in sentences(pack)):
            if action.verb in LOWERING:
                fallen.add(action.args.kind)
            fallen.update(zone for zone, owner in getattr(action.args, "zones", ()) if owner is not None)
        self.fallen = frozenset(fallen)

    def grows(self, count: ast.Count) -> bool:
        """Whether a count only grows: of stages or tokens, of players (the same ones all game)."""
        players = all(isinstance(p, ast.Place) and p.owner is None and self.vocab.resolve(p.name.text, "selector")
                      for p in count.places)
        what = count.what
        if not players or not isinstance(what, ast.Thing):
            return False
        return what.noun == "stage" or what.noun == "token" and not self.fallen & set(
            self.compiler.canons(what.kinds, "token"))

    def value(self, state, seat: int, count: ast.Count) -> int | None:
        """A count's value now, if it only grows (over a period, its value over the game: no less)."""
        if not self.grows(count):
            return None
        return self.compiler.count(attrs.evolve(count, divisor=None, period=None))(state, seat)


def unmet_objectives(noun: str, names: list[str], held: list[list[tuple[tuple, object]]], state,
                     lasting: Lasting) -> Iterator[Refusal]:
    """Objectives (pieces with a `condition`) held though the holder never met their condition: read
    with each count that only grows at its value now, and every other count taken as met, it fails.
    `held[seat]`: (path, piece) of the objectives the seat holds."""
    for seat, items in enumerate(held):
        for path, piece in items:
            tree = piece.condition.tree
            short = _short(tree, lambda count: lasting.value(state, seat, count))
            if short is not None:
                atom, now = short
                name, thing = names[seat], show(attrs.evolve(atom.count, divisor=None, period=None))
                needs = "is" if atom is tree else f"`{show(tree)}` needs"
                yield Refusal(PIECE, path, f"{name} cannot have won the {noun} '{piece.id}': its objective "
                                           f"{needs} `{show(atom)}`, and {name}'s count of `{thing}` is {now}",
                              f"a {noun} is won when its objective is met, and `{thing}` never falls in a game: "
                              f"{name} never had more (docs/rules-notes.md, Medals)")


def unshared_battle(noun: str, names: list[str], shared: list[tuple[object, list[tuple[tuple, int]]]],
                    battles: "Battles", lasting: Lasting) -> Iterator[Refusal]:
    """Objectives several players hold (`shareable`, in the middle), though no one battle lets all
    of them meet the objective at once: they met it at one moment, a battle's end, and each took
    there the victory tokens its `from one battle` counts need. `shared`: (piece, (path, seat) of
    each holder). Judged where the results of one battle are known."""
    if battles.found is None:
        return
    for piece, held in shared:
        tree = piece.condition.tree
        atoms = tree.items if isinstance(tree, ast.AllOf) else (tree,)
        need = max((a.count.divisor or 1 for a in atoms if isinstance(a, ast.AtLeast) and lasting.grows(a.count)
                    and a.count.period in (ONE_BATTLE, THIS_BATTLE)
                    and lasting.compiler.canons(a.count.what.kinds, "token") == (battles.rules.victory_token,)),
                   default=0)
        if need and not any(all(outcome[s][0] >= need for _, s in held) for outcome in battles.found):
            who = " and ".join(names[s] for _, s in held)
            yield Refusal(DUPLICATE, held[-1][0], f"{who} cannot {'both' if len(held) == 2 else 'all'} have won the "
                                                  f"{noun} '{piece.id}': they met its "
                                                  f"objective at one battle, and no battle gives each of them {need} "
                                                  "victory tokens",
                          f"in a battle each player compares {battles.counter} with each neighbour, and two neighbours "
                          "never both win against each other (docs/rules-notes.md, Medals)")


def _short(tree, value) -> tuple | None:
    """(the count, its value) that shows a condition never held, or None: a count that only grows
    (`value` gives it, else None) below what the condition needs; an `or` needs each side short."""
    if isinstance(tree, ast.AllOf):
        return next((found for item in tree.items if (found := _short(item, value)) is not None), None)
    if isinstance(tree, ast.AnyOf):
        sides = [_short(item, value) for item in tree.items]
        return sides[0] if all(side is not None for side in sides) else None
    if isinstance(tree, ast.AtLeast):
        now = value(tree.count)
        return (tree, now) if now is not None and now < (tree.count.divisor or 1) else None
    return None  # a comparison with others, a player count, a building complete: not judged


# -- cards by round: each played in one of the turns of the round that deals it

STAGE = "stage"  # what a turn's card may go to besides a card of its round's deck
FROM_HAND = frozenset({"play_last", "extra_action"})  # the verbs playing one more card of a hand


class Extra(NamedTuple):
    """The cards a player's powers play besides one a turn: `each` more of every round's hand, `hand`
    more of any round's hand, `other` cards of other zones (the discard), of any deck."""

    each: int = 0
    hand: int = 0
    other: int = 0


def extra_plays(effects: Iterable, rounds: int, period: str | None) -> Extra | None:
    """What a player's effects play besides one card a turn (`Extra`): the last card of each round
    kept (`play last card`), an extra action, a card built from a zone (the discard); as often as
    their limit lets (`once per game`: once; per round: each round). None when one has no limit."""
    each = hand = other = 0
    for effect in effects:
        per_round = effect.limit in ("round", period)
        for action in actions([effect]):
            if action.verb == "play_last":  # a power: the last card of each round
                each += 1
            elif action.verb in FROM_HAND or _into_city(action):
                if effect.limit != "game" and not per_round:
                    return None
                if action.verb not in FROM_HAND:
                    other += rounds if per_round else 1
                elif per_round:
                    each += 1
                else:
                    hand += 1
    return Extra(each, hand, other)


def _into_city(action) -> bool:
    """Whether an action puts a card of a zone (the discard, a deck) into its player's city."""
    return bool(getattr(action.args, "zones", ())) and any(
        event in ("build", "take") for event, _ in action.node.causes(lambda card_filter: None))


def over_turns(supply: Supply, period: str, name: str, cards: list[Item], stages: tuple[tuple, int],
               extra: Extra) -> Iterator[Refusal]:
    """Cards and stages one player cannot have played in the turns of a game: a card of a round's
    deck in one of that round's turns (`supply.turns`), built or under a stage; a stage with any
    turn's card; and what their powers play besides (`extra_plays`). At the first card, or the
    stages, no turn is left for."""
    turns = supply.turns
    each, hand, other = extra
    slots = [frozenset({where, STAGE}) for where, n in turns.items() for _ in range(n + each)]
    slots += [frozenset(turns) | {STAGE}] * hand + [frozenset(turns)] * other
    held = [(path, card, frozenset(w for w, _ in supply.sources.get(card, ()))) for path, card in cards]
    held = [(path, card, where) for path, card, where in held if where and where <= turns.keys()]
    path, count = stages
    items = [where for _, _, where in held] + [frozenset({STAGE})] * count
    first = _unplaced(items, slots)
    if first is None:
        return
    if first >= len(held):
        plays = f"{len(slots) - other}" + (f" from the hands and {other} from elsewhere" if other else "")
        yield Refusal(STAGES, path, f"{name}'s {_count(count, 'stage')} and {_count(len(held), 'card')} need "
                                    f"{count + len(held)} cards played, and {name} plays {plays} in a game",
                      f"a stage is built with a card of the hand, in one of the turns: {_each(turns, period)}"
                      + _rule_of_turns())
        return
    path, card, where = held[first]
    mine = [c for _, c, w in held if w <= where]
    more = each * len(where) + hand + other
    rounds = " or ".join(sorted(where))
    powers = f", and {name}'s powers play {more} more" if more else ""
    yield Refusal(CARD, path, f"{name} holds {len(mine)} cards of {rounds}, more than the turns play: {card} is one "
                              "too many", f"{_each(turns, period)}{powers}: {sum(turns[w] for w in where) + more} at "
                                          f"most; held: {', '.join(mine)}" + _rule_of_turns())


def _each(turns: dict[str, int], period: str) -> str:
    counts = set(turns.values())
    if len(counts) == 1:
        return f"a player plays {_count(counts.pop(), 'card')} of each {period}'s hand, one a turn"
    return "a player plays " + ", ".join(f"{n} of {w}" for w, n in turns.items())


def _rule_of_turns() -> str:
    return " (rules.yaml `flow.turns_per_round`; docs/rules-notes.md, Cards by age)"


def _unplaced(items: list[frozenset[str]], slots: list[frozenset[str]]) -> int | None:
    """The index of the first item no matching places in a slot accepting one of its labels (the
    items before it placed), or None when all are."""
    matched: dict[int, int] = {}  # slot -> item

    def place(i: int, seen: set[int]) -> bool:
        for s, accepts in enumerate(slots):
            if s not in seen and items[i] & accepts:
                seen.add(s)
                if s not in matched or place(matched[s], seen):
                    matched[s] = i
                    return True
        return False

    return next((i for i in range(len(items)) if not place(i, set())), None)

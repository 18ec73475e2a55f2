"""Battles, as `military:` and `conflicts:` in rules.yaml describe them (see `rules.Military`)."""

from __future__ import annotations

from functools import lru_cache
from itertools import product

from ..packs.rules import ALL
from .events import TAKE_TOKEN


def battle(state) -> None:
    """Every conflict of the rules is fought (`fight`), one after the other; their tokens all carry
    this battle's number, which `from this battle` reads; then each token won is taken (`on take`)."""
    watched = TAKE_TOKEN in state.game.doings  # `on take victory token:`, once the battle is fought
    held = [len(p.tokens) for p in state.players] if watched else []
    for rules in state.game.rules.conflicts:
        fight(state, rules)
    state.battles += 1
    if watched:
        for seat, player in enumerate(state.players):
            for kind, _, _ in player.tokens[held[seat]:]:
                state.happen(TAKE_TOKEN, seat, kind)


def fight(state, rules) -> None:
    """One conflict's battle. Among neighbours, every player compares the conflict's counter with
    each neighbour's (`against`), those sitting out (`skip`) left out of the ring; among all,
    every player is ranked (`ranked`). Victory tokens are worth this round's value."""
    n = len(state.players)
    strength = [state.counter(seat, rules.counter) for seat in range(n)]
    out = _sitting_out(state, rules) if rules.skip else ()
    if rules.among == ALL:
        _ranked(state, rules, strength, [s for s in range(n) if s not in out])
        return
    values = rules.victory_values
    won, lost = values[min(state.round, len(values) - 1)], rules.defeat_at(state.round)
    duel = dueling(rules, n)
    fighting = _ring(n, out) if out else state.game.seat_table["neighbours"]
    for seat, player in enumerate(state.players):
        for other in fighting[seat]:
            wins, defeats = against(rules, strength[seat], strength[other], duel)
            player.tokens += [(rules.victory_token, won, state.battles)] * wins
            if defeats:  # handed to the neighbour who won, for a player holding `give_defeats`
                taker = other if rules.give_defeats and _holds(state, seat, rules.give_defeats) else seat
                state.players[taker].tokens += [(rules.defeat_token, lost, state.battles)] * defeats


def _holds(state, seat: int, name: str) -> bool:
    """Whether a seat holds one of a counter, or a token of a kind of the pack's own."""
    if name in state.game.token_kinds:
        return any(kind == name for kind, _, _ in state.players[seat].tokens)
    return state.counter(seat, name) > 0


def _sitting_out(state, rules) -> tuple[int, ...]:
    """The seats holding the conflict's `skip` (a counter, or a token kind of the pack's own): each
    spends one (a token goes back to the supply) and sits this battle out."""
    out = tuple(s for s in range(len(state.players)) if _holds(state, s, rules.skip))
    for seat in out:
        if rules.skip in state.game.token_kinds:
            state.move_tokens(seat, None, rules.skip, 1)
        else:
            state.players[seat].counters[rules.skip] -= 1
    return out


def _ring(n: int, out: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Each seat's neighbours once the seats `out` leave the table: the next ones still fighting on
    either side (two left fight each other once; one alone fights no one)."""
    left = [s for s in range(n) if s not in out]
    k = len(left)
    table: list[tuple[int, ...]] = [()] * n
    for i, seat in enumerate(left if k > 1 else ()):
        table[seat] = tuple(dict.fromkeys((left[(i + 1) % k], left[(i - 1) % k])))
    return table


def _ranked(state, rules, strength: list[int], seats: list[int]) -> None:
    """A battle among all: the weakest (all of them when tied) take a defeat token, unless every
    player is as strong; the others take the victory token of their place (places shared by ties,
    the next ones skipped: two first, then third), none with no strength."""
    places = rules.places[min(state.round, len(rules.places) - 1)]
    lowest = min((strength[s] for s in seats), default=0)
    if len(seats) < 2 or all(strength[s] == lowest for s in seats):
        return
    lost = rules.defeat_at(state.round)
    for seat in seats:
        place = sum(strength[o] > strength[seat] for o in seats)
        if strength[seat] == lowest:
            if rules.defeat_token:
                state.players[seat].tokens.append((rules.defeat_token, lost, state.battles))
        elif strength[seat] > 0 and place < len(places) and places[place]:
            state.players[seat].tokens.append((rules.victory_token, places[place], state.battles))


def against(rules, mine: int, theirs: int, duel: bool) -> tuple[int, int]:
    """The battle rule, for the engine and for positions said (`outcomes`): what a player takes
    from comparing strengths with one neighbour, as (victory tokens, defeat tokens). More wins a
    victory token (in a duel, `duel_tokens` of them for at least `duel_times` the other's), less
    takes a defeat token if the game has them, a tie nothing."""
    if mine > theirs:
        return (rules.duel_tokens if duel and mine >= rules.duel_times * theirs else 1), 0
    return 0, int(mine < theirs and bool(rules.defeat_token))


def dueling(rules, players: int) -> bool:
    """Whether battles are duels (`two_players`): with two players, when the rules say so."""
    return players == 2 and bool(rules.duel_times)


def after(state) -> None:
    """After a battle the cards `discard_after` names leave the cities (but those an `at battle:
    keep ...` effect keeps), and the `flip` tokens turn back."""
    rules = state.game.rules.military
    if rules is None:  # other conflicts only: nothing leaves, no token turns back
        state.battle = False
        return
    if rules.discard_colour is not None:
        zone, discard = state.game.build_zone, state.game.discard_zone
        for seat, player in enumerate(state.players):
            kept = _kept(state, seat)
            for card in [c for c in player.zones[zone] if c.colour == rules.discard_colour
                         and rules.discard_icon in c.icons and not any(test(c) for test in kept)]:
                player.zones[zone].remove(card)
                state.leave(seat, card)
                state.shared[discard].append(card)
    if rules.flip in state.flips:
        state.flips[rules.flip] = (state.flips[rules.flip][0], 0)
    state.battle = False


def _kept(state, seat: int) -> list:
    """Card tests of the seat's `at battle: keep ...` effects."""
    return [a.args.cards for o in state.players[seat].waiting.get("battle", ())
            for a in o.effect.actions if a.verb == "keep"]


# -- what battles can give, for positions said rather than played (scenario.py)

Outcome = tuple[tuple[int, int], ...]  # one battle's tokens, per seat: (victory tokens, defeat tokens)
MOST_PAIRS = 10    # a table with more pairs of neighbours is not worked out: 3 ** pairs results a battle
MOST_TOKENS = 60   # battles of no fixed number are searched for this many victory tokens at most
SEARCH = 50_000    # positions tried before the search gives up (then nothing is refused)


def pairs(neighbours) -> tuple[tuple[int, int], ...]:
    """The pairs of neighbours that fight, each once (`neighbours`: a seat table's, per seat)."""
    return tuple(sorted({(min(s, o), max(s, o)) for s, others in enumerate(neighbours) for o in others if o != s}))


def schedule(rules, rounds: int | None) -> tuple[int, ...] | None:
    """The victory value of each battle of a game, in order, when their number is fixed: one at every
    round's end when no flip calls them (`battle`); None otherwise."""
    if rules.flip is not None or rounds is None:
        return None
    values = rules.victory_values
    return tuple(values[min(r, len(values) - 1)] for r in range(rounds))


@lru_cache(maxsize=None)
def outcomes(rules, neighbours: tuple[tuple[int, ...], ...], duel: bool) -> tuple[Outcome, ...] | None:
    """Every different result of one battle: every way the pairs of neighbours can compare (each
    pair equal, or one side stronger) that some strengths give, each fought as `battle` fights, by
    `against`. None when there are too many pairs to go through."""
    fighting = pairs(neighbours)
    if len(fighting) > MOST_PAIRS:
        return None
    found: set[Outcome] = set()
    for results in product((0, 1, -1), repeat=len(fighting)):  # 1: the pair's first seat is stronger
        levels = _levels(fighting, results, len(neighbours))
        if levels is None:
            continue
        # A duel's tokens depend on how far ahead the stronger is: with the weakest at no strength any
        # lead is enough; lifted by the player count, no one has twice (or more) another's strength.
        for strength in (levels, [s + len(levels) for s in levels])[:1 + duel]:
            found.add(_fought(rules, strength, neighbours, duel))
    return tuple(sorted(found))


def _fought(rules, strength: list[int], neighbours, duel: bool) -> Outcome:
    """Each player's tokens from a battle at these strengths, as `battle` gives them."""
    out = []
    for seat, others in enumerate(neighbours):
        got = [against(rules, strength[seat], strength[other], duel) for other in others]
        out.append((sum(w for w, _ in got), sum(d for _, d in got)))
    return tuple(out)


def _levels(fighting, results, seats: int) -> list[int] | None:
    """Strengths giving these results, or None when none do: equals joined into groups, each group
    one above the highest it beats; none when the groups beat one another in a ring."""
    group = list(range(seats))

    def top(s: int) -> int:
        while group[s] != s:
            s = group[s]
        return s
    for (a, b), result in zip(fighting, results):
        if not result:
            group[top(a)] = top(b)
    beats: dict[int, set[int]] = {}
    for (a, b), result in zip(fighting, results):
        if result:
            winner, loser = (top(a), top(b)) if result > 0 else (top(b), top(a))
            beats.setdefault(winner, set()).add(loser)
    level: dict[int, int] = {}

    def rise(g: int, path: frozenset) -> int | None:
        if g in path:
            return None  # a ring of wins (or a group beating itself)
        if g not in level:
            below = [rise(h, path | {g}) for h in beats.get(g, ())]
            if None in below:
                return None
            level[g] = 1 + max(below, default=-1)
        return level[g]
    tops = [top(s) for s in range(seats)]
    if any(rise(g, frozenset()) is None for g in tops):
        return None
    return [level[g] for g in tops]


def possible(found: tuple[Outcome, ...], plan: tuple[int, ...] | None, values: tuple[int, ...],
             wins: tuple[tuple[int, ...], ...], defeats: tuple[int, ...] | None) -> bool | None:
    """Whether battles with these results give exactly these tokens: `wins[k][seat]` victory tokens
    worth `values[k]`, `defeats[seat]` defeat tokens (None: the game has none). `plan`: each
    battle's value, when their number is fixed (`schedule`); else any number of battles, each
    worth any of `values`. None when the search gives up (too many tokens to go through)."""
    seats = len(wins[0])
    none = (0,) * seats
    by_wins: dict[tuple[int, ...], set[tuple[int, ...]]] = {}
    for outcome in found:
        lost = tuple(d for _, d in outcome) if defeats is not None else none
        by_wins.setdefault(tuple(w for w, _ in outcome), set()).add(lost)
    start = (tuple(wins), defeats if defeats is not None else none)
    if plan is not None:
        return _planned(by_wins, plan, values)(0, *start)
    if sum(map(sum, wins)) > MOST_TOKENS:
        return None
    try:
        return _any_number(by_wins, len(values), *start, set(), [SEARCH])
    except _GiveUp:
        return None


class _GiveUp(Exception):
    pass


def _fits(part: tuple[int, ...], whole: tuple[int, ...]) -> bool:
    return all(a <= b for a, b in zip(part, whole))


def _less(whole: tuple[int, ...], part: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(a - b for a, b in zip(whole, part))


def _planned(by_wins: dict, plan: tuple[int, ...], values: tuple[int, ...]):
    """The search over battles in order: a battle whose value no later one has gives the last of it."""
    index = {v: k for k, v in enumerate(values)}

    @lru_cache(maxsize=None)
    def go(r: int, left: tuple, lost: tuple) -> bool:
        if r == len(plan):
            return not any(map(any, left)) and not any(lost)
        k = index[plan[r]]
        choices = [left[k]] if plan[r] not in plan[r + 1:] else [w for w in by_wins if _fits(w, left[k])]
        return any(_fits(d, lost) and go(r + 1, left[:k] + (_less(left[k], w),) + left[k + 1:], _less(lost, d))
                   for w in choices for d in by_wins.get(w, ()))
    return go


def _any_number(by_wins: dict, kinds: int, left: tuple, lost: tuple, failed: set, budget: list) -> bool:
    """Some battles give exactly what is left: one of them gives the first seat with tokens left some."""
    owed = [s for s in range(len(lost)) if lost[s] or any(w[s] for w in left)]
    if not owed:
        return True
    if (left, lost) in failed:
        return False
    budget[0] -= 1
    if budget[0] < 0:
        raise _GiveUp
    first = owed[0]
    for k in range(kinds):
        for w, defeats in by_wins.items():
            if not _fits(w, left[k]):
                continue
            for d in defeats:
                if (w[first] or d[first]) and _fits(d, lost) and _any_number(
                        by_wins, kinds, left[:k] + (_less(left[k], w),) + left[k + 1:], _less(lost, d), failed, budget):
                    return True
    failed.add((left, lost))
    return False

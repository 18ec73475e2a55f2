"""Battles between neighbours, as `military:` in rules.yaml describes them (see `rules.Military`)."""

from __future__ import annotations

from functools import lru_cache
from itertools import product


def battle(state) -> None:
    """Every player compares their military counter with each neighbour's: more wins victory tokens
    worth this round's value, less takes a defeat token (if the game has them), a tie gives nothing.
    With two players, `two_players` may give more tokens for `times` the opponent's strength."""
    rules = state.game.rules.military
    values = rules.victory_values
    won = values[min(state.round, len(values) - 1)]
    duel = rules.duel_times if len(state.players) == 2 else None
    strength = [state.counter(seat, rules.counter) for seat in range(len(state.players))]
    for seat, player in enumerate(state.players):
        for other in state.seats(seat, "neighbours"):
            mine, theirs = strength[seat], strength[other]
            if mine > theirs:
                many = rules.duel_tokens if duel and mine >= duel * theirs else 1
                player.tokens += [(rules.victory_token, won, state.battles)] * many
            elif mine < theirs and rules.defeat_token:
                player.tokens.append((rules.defeat_token, rules.defeat_value, state.battles))
    state.battles += 1


def after(state) -> None:
    """After a battle the cards `discard_after` names leave the cities (but those an `at battle:
    keep ...` effect keeps), and the `flip` tokens turn back."""
    rules = state.game.rules.military
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


def pairs(neighbours: list[tuple[int, ...]]) -> tuple[tuple[int, int], ...]:
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
def outcomes(pairs: tuple[tuple[int, int], ...], seats: int, duel: int = 1) -> tuple[Outcome, ...] | None:
    """Every different result of one battle, as `battle` fights it: each pair of neighbours compares
    strengths once; the stronger takes a victory token (`duel` of them, or 1, in a duel), the
    weaker a defeat, equals nothing. Strengths are numbers, so no ring of players may each be
    stronger than the next. None when there are too many pairs to go through."""
    if len(pairs) > MOST_PAIRS:
        return None
    found: set[Outcome] = set()
    for results in product((0, 1, -1), repeat=len(pairs)):  # 1: the pair's first seat is stronger
        if not _ordered(pairs, results, seats):
            continue
        for many in {1, duel} if any(results) else {1}:
            won, lost = [0] * seats, [0] * seats
            for (a, b), result in zip(pairs, results):
                if result:
                    winner, loser = (a, b) if result > 0 else (b, a)
                    won[winner] += many
                    lost[loser] += 1
            found.add(tuple(zip(won, lost)))
    return tuple(sorted(found))


def _ordered(pairs, results, seats: int) -> bool:
    """Whether some strengths give these results: equals joined, the stronger-than links between
    the groups without a cycle."""
    group = list(range(seats))

    def top(s: int) -> int:
        while group[s] != s:
            s = group[s]
        return s
    for (a, b), result in zip(pairs, results):
        if not result:
            group[top(a)] = top(b)
    beats: dict[int, set[int]] = {}
    for (a, b), result in zip(pairs, results):
        if result:
            winner, loser = (top(a), top(b)) if result > 0 else (top(b), top(a))
            if winner == loser:
                return False
            beats.setdefault(winner, set()).add(loser)
    done: set[int] = set()

    def acyclic(g: int, path: frozenset) -> bool:
        if g in path:
            return False
        if g in done:
            return True
        ok = all(acyclic(h, path | {g}) for h in beats.get(g, ()))
        done.add(g)
        return ok
    return all(acyclic(g, frozenset()) for g in list(beats))


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

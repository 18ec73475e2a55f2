"""Ways to pay a resource cost: what a player's own production covers, and what is left to buy.

Production is a tuple of *units*: each unit yields one resource a turn, chosen among its options
(`("a",)` for a fixed one, `("a", "b")` for a choice between two). Every function here takes and
returns sorted tuples, so results are cached across games: the same city meets the same cost often.

Markets: a seller may sell the first resource of a turn cheaper (`first`, per seller its prices for
that one), and the bank may sell resources (`bank`: offers `(resources, price, most or 0)`); a game
where the bank sells pays it last, after the sellers, in every payment.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import chain, combinations

Units = tuple[tuple[str, ...], ...]   # production units, sorted
Need = tuple[str, ...]                # resources needed, one entry per unit, sorted
Prices = tuple[tuple[str, int], ...]  # (resource, coins) for one seller, sorted
Offers = tuple[tuple[tuple[str, ...], int, int], ...]  # the bank's: (resources, price, most or 0), sorted
UNBOUNDED = 1 << 10  # what reach counts for an offer of any number
BANK = "bank"  # the payee of what the bank sells, after the sellers (`Game.payees`)


@lru_cache(maxsize=1 << 16)
def remainders(need: Need, units: Units) -> tuple[Need, ...]:
    """The smallest parts of `need` that `units` cannot cover, one per distinct way of using them.

    Using a unit on a needed resource never hurts, so only the minimal leftovers matter; `()` among
    them means the units cover everything."""
    left = Counter(need)
    choices = []
    for unit in units:
        if len(unit) == 1:
            if left[unit[0]] > 0:
                left[unit[0]] -= 1
        else:
            choices.append(unit)
    found: set[Need] = set()
    seen: set[tuple[int, Need]] = set()

    def walk(i: int, rest: Counter) -> None:
        key = (i, tuple(sorted(rest.elements())))
        if key in seen:
            return
        seen.add(key)
        useful = [r for r in choices[i] if rest[r] > 0] if i < len(choices) and key[1] else []
        if not useful:
            if i < len(choices) and key[1]:
                walk(i + 1, rest)
            else:
                found.add(key[1])
            return
        for r in useful:
            rest[r] -= 1
            walk(i + 1, rest)
            rest[r] += 1

    walk(0, left)
    return _minimal(found)


def payments(need: Need, own: Units, sellers: tuple[Units, ...], prices: tuple[Prices, ...],
             reached: bool = False, first: tuple[Prices, ...] = (), bank: Offers | None = None) -> tuple[tuple[int, ...], ...]:
    """Every undominated way to pay `need`: coins to each seller, in the sellers' order, then to
    the bank in a game where it sells (`bank` not None: the player's offers).

    A payment is dominated when another pays no seller more. `()` when nothing works; one
    all-zero payment when the player's own production is enough. `reached`: the caller knows
    that no resource is needed beyond what everyone's units could give (`beyond`), so that
    looking whether they cover it together first would rarely save the search. `first`: per
    seller, the price of the first resource bought this turn, where lower."""
    wanted = _wanted(need)
    own = _focus(own, wanted)
    rests = remainders(need, own)
    if () in rests:
        return ((0,) * (len(sellers) + (bank is not None)),)
    offers = None if bank is None else _offer_focus(bank, wanted)
    if not reached and () not in remainders(need, tuple(sorted(chain(
            own, *[_focus(s, wanted) for s in sellers], bank_units(offers or (), len(need)))))):
        return ()  # not even everyone's production together covers it: most costs, most turns
    short = _short(rests)  # what is left to buy is all that matters: many needs and cities leave the same
    return _payments(rests, tuple([_focus(s, short) for s in sellers]), tuple([_price_focus(p, short) for p in prices]),
                     first and tuple([_price_focus(p, short) for p in first]),
                     None if offers is None else _offer_focus(offers, short))


def kept_payments(need: Need, spare: int, own: Units, sellers: tuple[Units, ...], prices: tuple[Prices, ...],
                  known: tuple) -> tuple[tuple[int, ...], ...]:
    """`payments` (or `payments_sparing`, `spare` of the need left out), looked up first in what
    `known` keeps for this city, these sellers and this market (`Draft.known`: their `reach`, the
    payments found by need, the market: first-purchase prices and the bank's offers), and kept
    there; a need nobody's production reaches has none, found by counting."""
    found = known[2].get((need, spare))
    if found is None:
        first, bank = known[3]
        if not spare and beyond(need, known[1]):
            found = ()
        elif spare:
            found = payments_sparing(need, spare, own, sellers, prices, first, bank)
        else:
            found = payments(need, own, sellers, prices, True, first, bank)
        known[2][need, spare] = found
    return found


def reach(own: Units, sellers: tuple[Units, ...], bank: Offers | None = None) -> dict[str, int]:
    """Per resource, how many units of the player's, the sellers' and the bank's could give it:
    worked out once for a turn's look at every cost (`beyond`)."""
    out: dict[str, int] = {}
    for units in (own, *sellers):
        for unit in units:
            for r in unit:
                out[r] = out.get(r, 0) + 1
    for resources, _, most in bank or ():
        for r in resources:
            out[r] = out.get(r, 0) + (most or UNBOUNDED)
    return out


def beyond(need: Need, reached: dict[str, int]) -> bool:
    """Whether `need` asks more of some resource than `reach` found units for: then nobody can
    pay it (`payments` is empty), found without a search; most costs, most turns."""
    for r, n in _counted(need):
        if reached.get(r, 0) < n:
            return True
    return False


@lru_cache(maxsize=1 << 10)
def _counted(need: Need) -> tuple[tuple[str, int], ...]:
    return tuple(Counter(need).items())


def payments_sparing(need: Need, spare: int, own: Units, sellers: tuple[Units, ...], prices: tuple[Prices, ...],
                     first: tuple[Prices, ...] = (), bank: Offers | None = None) -> tuple[tuple[int, ...], ...]:
    """`payments` when the payer may leave out `spare` of the resources of `need`, those they choose
    (a `discount N any`): the undominated ways over every need so lightened."""
    return _pareto({p for lighter in lighter_needs(need, spare)
                    for p in payments(lighter, own, sellers, prices, False, first, bank)})


@lru_cache(maxsize=1 << 10)
def lighter_needs(need: Need, spare: int) -> tuple[Need, ...]:
    """Every distinct need left when `spare` of its resources are left out (`need` itself for 0)."""
    if spare <= 0:
        return (need,)
    return tuple(sorted(set(combinations(need, max(0, len(need) - spare)))))


@lru_cache(maxsize=1 << 10)
def _wanted(need: Need) -> frozenset[str]:
    return frozenset(need)


@lru_cache(maxsize=1 << 16)
def _focus(units: Units, wanted: frozenset[str]) -> Units:
    """Units cut down to the resources wanted (the rest cannot matter), so that many cities that
    differ only in what a cost does not use share one cached answer."""
    kept = []
    for unit in units:
        if len(unit) == 1:
            if unit[0] in wanted:
                kept.append(unit)
        elif part := tuple([r for r in unit if r in wanted]):
            kept.append(part)
    kept.sort()
    return tuple(kept)


@lru_cache(maxsize=1 << 12)
def _price_focus(prices: Prices, wanted: frozenset[str]) -> Prices:
    return tuple((r, c) for r, c in prices if r in wanted)


@lru_cache(maxsize=1 << 12)
def _short(rests: tuple[Need, ...]) -> frozenset[str]:
    return frozenset(chain(*rests))


@lru_cache(maxsize=1 << 16)
def _payments(rests: tuple[Need, ...], sellers: tuple[Units, ...], prices: tuple[Prices, ...],
              first: tuple[Prices, ...] = (), offers: Offers | None = None) -> tuple[tuple[int, ...], ...]:
    """The undominated ways to buy one of `rests`, what the player's production leaves of a need,
    one per way of using it (`remainders`); `offers`, the bank's where it sells (None: it does not)."""
    found: set[tuple[int, ...]] = set()
    for rest in rests:
        wanted = _wanted(rest)  # each leftover on its own: small, so often met before
        found.update(_buy(rest, tuple(_focus(s, wanted) for s in sellers), tuple(_price_focus(p, wanted) for p in prices),
                          tuple(_price_focus(p, wanted) for p in first), offers and _offer_focus(offers, wanted)))
    return _pareto(found)


@lru_cache(maxsize=1 << 16)
def _buy(need: Need, sellers: tuple[Units, ...], prices: tuple[Prices, ...], first: tuple[Prices, ...] = (),
         offers: Offers | None = None) -> frozenset[tuple[int, ...]]:
    """Seller by seller, what each can supply of what is still needed, and the coins paid so far
    (`spent`: once the turn's first purchase was made at its price); where the bank sells nothing
    (`offers` None) the last seller must supply all that is left, else the bank sells the rest at
    its cheapest, or none of it (its offers are then `()`)."""
    paid: dict[Need, set[tuple[int, ...]]] = {need: {()}}
    spent: dict[Need, set[tuple[int, ...]]] = {}
    for i, (units, price) in enumerate(zip(sellers, prices)):
        cheap, full = (dict(first[i]), dict(price)) if first and first[i] else (None, None)
        last = i == len(sellers) - 1 and offers is None
        after: dict[Need, set[tuple[int, ...]]] = {}
        later: dict[Need, set[tuple[int, ...]]] = {}
        for rest, sums in paid.items():
            for part, left, coins in _sales(units, rest, last, price):
                after.setdefault(left, set()).update(s + (coins,) for s in sums)
                saving = max((full[r] - cheap[r] for r in part if r in cheap), default=0) if cheap else 0
                if saving > 0:  # this seller's resource is the turn's first purchase
                    later.setdefault(left, set()).update(s + (coins - saving,) for s in sums)
        for rest, sums in spent.items():
            for _, left, coins in _sales(units, rest, last, price):
                later.setdefault(left, set()).update(s + (coins,) for s in sums)
        paid, spent = after, later
    if offers is None:
        return frozenset(paid.get((), set()) | spent.get((), set()))
    out = set()
    for rest, sums in chain(paid.items(), spent.items()):
        coins = _bank_cost(rest, offers)
        if coins is not None:
            out.update(s + (coins,) for s in sums)
    return frozenset(out)


@lru_cache(maxsize=1 << 16)
def _sales(units: Units, need: Need, last: bool, prices: Prices) -> tuple[tuple[Need, Need, int], ...]:
    """(part, what is left, its coins) of each part of `need` a seller's `units` can supply at its
    `prices`; the last seller must supply all of it."""
    price = dict(prices)
    supply = _supply(units, need)
    if last:
        supply = (need,) if need in supply else ()
    out = []
    for part in supply:
        if all(r in price for r in part):
            out.append((part, _minus(need, part), sum([price[r] for r in part])))
    return tuple(out)


@lru_cache(maxsize=1 << 12)
def _bank_cost(need: Need, offers: Offers) -> int | None:
    """The fewest coins the bank's offers sell `need` for (each offer at most its `most`), None
    when they cannot."""
    if not need:
        return 0
    best = None
    for i, (resources, price, most) in enumerate(offers):
        if need[0] in resources:
            left = offers if not most else offers[:i] + ((resources, price, most - 1),) * (most > 1) + offers[i + 1:]
            coins = _bank_cost(need[1:], left)
            if coins is not None and (best is None or price + coins < best):
                best = price + coins
    return best


@lru_cache(maxsize=1 << 12)
def _offer_focus(offers: Offers, wanted: frozenset[str]) -> Offers:
    """The bank's offers cut down to the resources wanted (as `_focus`)."""
    kept = [(part, price, most) for resources, price, most in offers if (part := tuple(r for r in resources if r in wanted))]
    return tuple(sorted(kept))


def bank_units(offers: Offers, size: int) -> Units:
    """The bank's offers as production units, enough of each for a need of `size`."""
    return tuple(unit for resources, _, most in offers for unit in [resources] * min(most or size, size))


@lru_cache(maxsize=1 << 16)
def _supply(units: Units, need: Need) -> frozenset[Need]:
    """Every part of `need` that `units` can supply at once."""
    limit = Counter(need)
    reach = {()}
    for unit in units:
        grown = set(reach)
        for have in reach:
            for r in unit:
                if have.count(r) < limit[r]:
                    grown.add(tuple(sorted(have + (r,))))
        reach = grown
    return frozenset(reach)


@lru_cache(maxsize=1 << 16)
def _minus(need: Need, part: Need) -> Need:
    rest = Counter(need)
    rest.subtract(part)
    return tuple(sorted(rest.elements()))


def _minimal(sets: set[Need]) -> tuple[Need, ...]:
    """The multisets that hold no other one of the collection."""
    ordered = sorted(sets, key=len)
    kept: list[tuple[Need, Counter]] = []
    for s in ordered:
        c = Counter(s)
        if not any(not (k - c) for _, k in kept):
            kept.append((s, c))
    return tuple(sorted(s for s, _ in kept))


def _pareto(options: set[tuple[int, ...]]) -> tuple[tuple[int, ...], ...]:
    """The payments that no other beats or equals on every seller, cheapest total first."""
    ordered = sorted(options, key=lambda p: (sum(p), p))
    kept: list[tuple[int, ...]] = []
    for p in ordered:
        if not any(all(a <= b for a, b in zip(q, p)) for q in kept):
            kept.append(p)
    return tuple(kept)


def spendings(fixed: Need, kinds: tuple[tuple[str, int], ...], have: dict[str, int], wild: str | None,
              ignore_kinds: bool = False) -> list[Need]:
    """Every distinct way to give up held resources for a cost: `fixed` resources and terms such as
    `3 different` or `2 identical` (with `ignore_kinds`, any resources will do). The `wild` resource
    stands in only for what is missing: only the ways using the fewest wild ones are kept."""
    wilds = have.get(wild, 0) if wild else 0
    left = Counter({r: n for r, n in have.items() if r != wild and n > 0})
    part = []
    for r in fixed:
        if left[r] > 0:
            left[r] -= 1
            part.append(r)
        else:
            part.append(wild)
    options = [tuple(part)]
    for kind, n in kinds:  # one term in every known game; several would each see what is left
        options = [o + p for o in options for p in _kind_parts("any" if ignore_kinds else kind, n, left, wild)]
    found = {tuple(sorted(o, key=str)) for o in options if o.count(wild) <= wilds and None not in o}
    fewest = min((o.count(wild) for o in found), default=0)
    return sorted(o for o in found if o.count(wild) == fewest)


def _kind_parts(kind: str, n: int, have: Counter, wild: str | None) -> list[Need]:
    """The ways to make `n` resources of a kind from what is held, wild ones filling in."""
    kinds = sorted(r for r in have if have[r] > 0)
    if kind == "identical":
        parts = [(r,) * min(n, have[r]) for r in kinds] + [()]
    elif kind == "different":
        parts = list(combinations(kinds, min(n, len(kinds))))
    else:
        pool = [r for r in kinds for _ in range(min(have[r], n))]
        parts = list(set(combinations(pool, min(n, len(pool)))))
    return [p + (wild,) * (n - len(p)) for p in parts]

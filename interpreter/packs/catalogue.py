"""The static pieces of a game, read once from a loaded pack: cards, wonder boards and their stages.

Everything here is immutable and shared by every state of a game; states hold references to it.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any, Iterator

import attrs

from ...dsl.compiler import CompiledEffect, Varying
from ...dsl.vocabulary import ANY, COST_KINDS
from .model import Pack

# The colour the engine gives a wonder board and its stages, for scoring and trading (`stages: true`).
# Other pieces that are not cards (progress tokens, medals) carry their component kind as colour.
STAGE = "stage"


@attrs.frozen(slots=True, cache_hash=True)  # a key of the payment caches, hashed once
class Cost:
    """A price: resources to produce or buy, one entry per unit and sorted, and counters to pay.
    A piece's printed cost may have terms read when it is paid (`varying`); what a player pays
    (`price`) has none, and may leave out `spare` of its resources, which they choose."""

    resources: tuple[str, ...] = ()
    counters: tuple[tuple[str, int], ...] = ()
    kinds: tuple[tuple[str, int], ...] = ()  # `3 different`: (("different", 3),)
    spare: int = 0  # resources the payer may leave out (a `discount N any` beyond the kinds)
    varying: tuple[tuple[str, str, Varying], ...] = ()  # (part, name, term): `5 coins minus yellow card`

    @property
    def free(self) -> bool:
        return not self.resources and not self.counters and not self.kinds and not self.varying


@attrs.frozen(slots=True, eq=False)
class Piece:
    """A card, a wonder board or a stage: anything that sits in a city and carries effects."""

    id: str
    name: str
    colour: str
    cost: Cost = Cost()
    chains: frozenset[str] = frozenset()
    effects: tuple[CompiledEffect, ...] = ()
    icons: tuple[str, ...] = ()  # one entry per icon printed (`icon 2 horn`: two)
    copies: dict = attrs.field(factory=dict, repr=False)  # deck key -> one minimum player count per copy
    requires: tuple[int, ...] = ()  # a stage: the stages (0-based) that must be built first
    condition: Any = attrs.field(default=None, repr=False)  # what must hold to claim it (a medal) or check it (a box)
    shareable: bool = False  # an objective several players meeting it at one moment each win (`shareable:`)
    points: int = 0  # victory points printed on it (a box)

    def __repr__(self) -> str:
        return f"Piece({self.id})"


@attrs.frozen(slots=True)
class Side:
    """One side of a wonder board: the board itself (its starting effects) and its stages in order."""

    wonder: str
    side: str
    name: str
    board: Piece
    stages: tuple[Piece, ...]
    deck: tuple[tuple[str, int], ...] = ()  # the wonder's own cards: (card id, copies)
    in_order: bool = True  # the stages are built one after the other (each rests on the one before it)


# A wonder without sides (its stages written on the wonder itself) has this one side.
ONE_SIDE = ""


@lru_cache(maxsize=4096)
def open_stages(stages: tuple[Piece, ...], raised: frozenset[int]) -> tuple[tuple[int, Piece], ...]:
    """(number, stage) of each stage not built yet whose `requires` all are."""
    return tuple((i + 1, stage) for i, stage in enumerate(stages) if i not in raised and set(stage.requires) <= raised)


def copied_sides(effects) -> tuple[str, ...] | None:
    """The players whose stages a stage with these effects is built as a copy of, paid at the
    copied one's cost (`copy stage from left, right with cost`), or None."""
    return next((a.args.sides for e in effects for a in e.actions if a.verb == "copy_stage" and a.args.with_cost), None)


@attrs.frozen
class Catalogue:
    """Every card by id, every wonder side by (wonder, side), other pieces by kind and id."""

    cards: dict[str, Piece]
    sides: dict[tuple[str, str], Side]
    others: dict[str, dict[str, Piece]] = attrs.field(factory=dict)  # progress, medals... by kind

    @classmethod
    def read(cls, pack: Pack) -> "Catalogue":
        resources = pack.vocabulary.all("resource")
        cards = {cid: _card(c.data, c.compiled, resources) for cid, c in pack.components["cards"].items()}
        sides = {}
        for wid, w in pack.components["wonders"].items():
            if "stages" in w.data:
                sides[wid, ONE_SIDE] = _side(wid, ONE_SIDE, w.data, w.data, w.compiled, resources, ())
            for side, data in (w.data.get("sides") or {}).items():
                sides[wid, side] = _side(wid, side, w.data, data, w.compiled, resources, ("sides", side))
        others = {kind: {pid: _piece(kind, c.data, c.compiled) for pid, c in pack.components[kind].items()}
                  for kind in pack.components if kind not in ("cards", "wonders")}
        return cls(cards, sides, others)

    def pieces(self) -> Iterator[Piece]:
        """Every piece: cards, other components, wonder boards and their stages."""
        yield from self.cards.values()
        for kind in self.others.values():
            yield from kind.values()
        for side in self.sides.values():
            yield side.board
            yield from side.stages

    def wonders(self) -> list[str]:
        """Wonder ids, in the pack's order."""
        return list(dict.fromkeys(w for w, _ in self.sides))


def cost_of(compiled: dict[str, int | Varying] | None, resources: set[str]) -> Cost:
    """A compiled `cost:` field as a Cost: resources apart from counters, the terms that vary apart."""
    if not compiled:
        return Cost()
    fixed = {k: n for k, n in compiled.items() if isinstance(n, int)}
    units = tuple(sorted(r for r, n in fixed.items() if r in resources for _ in range(n)))
    kinds = tuple(sorted((k, n) for k, n in fixed.items() if k in COST_KINDS))
    counters = tuple(sorted((k, n) for k, n in fixed.items() if k not in resources and k not in COST_KINDS))
    varying = tuple((_part(k, resources), k, n) for k, n in sorted(compiled.items()) if k not in fixed)
    cost = Cost(units, counters, kinds, varying=varying)
    return _COSTS.setdefault(cost, cost)


def _part(name: str, resources: set[str]) -> str:
    """Which part of a Cost a term's name belongs to."""
    return "resources" if name in resources else "kinds" if name in COST_KINDS else "counters"


_COSTS: dict[Cost, Cost] = {}  # one object per price: cache keys then compare by identity, at once


def price(cost: Cost, ctx, seat: int, piece: "Piece", stage: bool, discounts: tuple) -> Cost:
    """What a player pays for a piece now (a wonder stage when `stage`): its cost with the terms
    that vary read for them, less each of their discounts that applies to it (compiled
    `CostDiscountArgs`), no term below 0. A discount of `any` lowers the kind terms first
    (`3 different`), then lets the player leave out that many of the resources named; a negative
    one (a surcharge) adds to its term, which the cost may lack, before any discount is taken off."""
    units, counters, kinds = Counter(cost.resources), dict(cost.counters), dict(cost.kinds)
    parts = {"resources": units, "counters": counters, "kinds": kinds}
    for part, name, term in cost.varying:
        parts[part][name] = term(ctx, seat)
    spare = cost.spare
    offs = [(discount.amount(ctx, seat), discount) for discount in discounts if discount.applies(piece, stage)]
    for off, discount in sorted(offs, key=lambda od: od[0] >= 0):  # surcharges first: a discount may cancel one
        if off < 0:
            held = parts[discount.part]
            held[discount.name] = held.get(discount.name, 0) - off
        elif discount.name == ANY:
            for kind in sorted(kinds):
                cut = min(off, kinds[kind])
                kinds[kind] -= cut
                off -= cut
            spare += off
        else:
            for held in (units, counters):
                if held.get(discount.name):
                    held[discount.name] = max(0, held[discount.name] - off)
    need = tuple(sorted(units.elements())) if spare < sum(units.values()) else ()
    out = Cost(need, tuple(sorted((k, n) for k, n in counters.items() if n > 0)),
               tuple(sorted((k, n) for k, n in kinds.items() if n > 0)), spare if need else 0)
    return _COSTS.setdefault(out, out)


def _card(data: dict, compiled: dict, resources: set[str]) -> Piece:
    effects = compiled.get(("effect",), ())
    return Piece(
        id=data["id"], name=data.get("name", data["id"]), colour=data.get("colour", ""),
        cost=cost_of(compiled.get(("cost",)), resources), chains=frozenset(data.get("chain_from") or ()),
        effects=effects, icons=tuple(data.get("icons") or ()) + _icons(effects),
        copies={str(k): (0,) * v if isinstance(v, int) else tuple(v) for k, v in (data.get("copies") or {}).items()},
    )


def _icons(effects: tuple[CompiledEffect, ...]) -> tuple[str, ...]:
    """The icons a piece bears, from its `icon` sentences."""
    return tuple(a.args.icon for e in effects for a in e.actions if a.verb == "icon"
                 for _ in range(a.args.count or 1))


def _piece(kind: str, data: dict, compiled: dict) -> Piece:
    """A progress token, a medal...: its kind stands for its colour."""
    copies = data.get("copies", 1)
    return Piece(data["id"], data.get("name", data["id"]), kind, effects=compiled.get(("effect",), ()),
                 copies={"": (0,) * copies if isinstance(copies, int) else tuple(copies)},
                 condition=compiled.get(("objective",)), shareable=data.get("shareable", False))


def _side(wid: str, side: str, wonder: dict, data: dict, compiled: dict, resources: set[str], at: tuple) -> Side:
    name = wonder.get("name", wid)
    board = Piece(f"{wid}:{side}" if side else wid, name, STAGE, effects=compiled.get(at + ("effect",), ()))
    stages = tuple(
        Piece(f"{board.id}:{i + 1}", f"{name}, stage {i + 1}", STAGE,
              cost=cost_of(compiled.get(at + ("stages", i, "cost")), resources),
              effects=compiled.get(at + ("stages", i, "effect"), ()),
              requires=tuple(r - 1 for r in stage.get("requires") or ()) if "requires" in stage else
              ((i - 1,) if i else ()))
        for i, stage in enumerate(data.get("stages") or ()))
    in_order = all(stage.requires == ((i - 1,) if i else ()) for i, stage in enumerate(stages))
    return Side(wid, side, name, board, stages, tuple((wonder.get("deck") or {}).items()), in_order)

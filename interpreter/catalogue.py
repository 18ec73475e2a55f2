"""The static pieces of a game, read once from a loaded pack: cards, wonder boards and their stages.

Everything here is immutable and shared by every state of a game; states hold references to it.
"""

from __future__ import annotations

import attrs

from ..dsl.compiler import CompiledEffect
from .packs import Pack

# The colour the engine gives a wonder board and its stages, for scoring and trading (`stages: true`).
STAGE = "stage"


@attrs.frozen(slots=True)
class Cost:
    """A price: resources to produce or buy, one entry per unit and sorted, and counters to pay."""

    resources: tuple[str, ...] = ()
    counters: tuple[tuple[str, int], ...] = ()

    @property
    def free(self) -> bool:
        return not self.resources and not self.counters


@attrs.frozen(slots=True, eq=False)
class Piece:
    """A card, a wonder board or a stage: anything that sits in a city and carries effects."""

    id: str
    name: str
    colour: str
    cost: Cost = Cost()
    chains: frozenset[str] = frozenset()
    effects: tuple[CompiledEffect, ...] = ()
    icons: tuple[str, ...] = ()
    copies: dict = attrs.field(factory=dict, repr=False)  # deck key -> one minimum player count per copy

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


@attrs.frozen
class Catalogue:
    """Every card by id and every wonder side by (wonder, side)."""

    cards: dict[str, Piece]
    sides: dict[tuple[str, str], Side]

    @classmethod
    def read(cls, pack: Pack) -> "Catalogue":
        resources = pack.vocabulary.all("resource")
        cards = {cid: _card(c.data, c.compiled, resources) for cid, c in pack.components["cards"].items()}
        sides = {}
        for wid, w in pack.components["wonders"].items():
            for side, data in (w.data.get("sides") or {}).items():
                sides[wid, side] = _side(wid, side, w.data, data, w.compiled, resources)
        return cls(cards, sides)

    def wonders(self) -> list[str]:
        """Wonder ids, in the pack's order."""
        return list(dict.fromkeys(w for w, _ in self.sides))


def cost_of(compiled: dict[str, int] | None, resources: set[str]) -> Cost:
    """A compiled `cost:` field as a Cost: resources apart from counters."""
    if not compiled:
        return Cost()
    units = tuple(sorted(r for r, n in compiled.items() if r in resources for _ in range(n)))
    counters = tuple(sorted((k, n) for k, n in compiled.items() if k not in resources))
    return Cost(units, counters)


def _card(data: dict, compiled: dict, resources: set[str]) -> Piece:
    return Piece(
        id=data["id"], name=data.get("name", data["id"]), colour=data.get("colour", ""),
        cost=cost_of(compiled.get(("cost",)), resources), chains=frozenset(data.get("chain_from") or ()),
        effects=compiled.get(("effect",), ()), icons=tuple(data.get("icons") or ()),
        copies={str(k): (0,) * v if isinstance(v, int) else tuple(v) for k, v in (data.get("copies") or {}).items()},
    )


def _side(wid: str, side: str, wonder: dict, data: dict, compiled: dict, resources: set[str]) -> Side:
    name = wonder.get("name", wid)
    board = Piece(f"{wid}:{side}", name, STAGE, effects=compiled.get(("sides", side, "effect"), ()))
    stages = tuple(
        Piece(f"{wid}:{side}:{i + 1}", f"{name}, stage {i + 1}", STAGE,
              cost=cost_of(compiled.get(("sides", side, "stages", i, "cost")), resources),
              effects=compiled.get(("sides", side, "stages", i, "effect"), ()))
        for i, _ in enumerate(data.get("stages") or ()))
    return Side(wid, side, name, board, stages)

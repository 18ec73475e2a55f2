"""Boards of boxes and dice, read once from a pack: buildings (shared by every board, or a board's
own), their tracks of boxes, and the dice whose faces name what a die lets a player check.

A box is a `Piece` whose colour is its building's id, so the scoring finds its points by building.
"""

from __future__ import annotations

import attrs

from .catalogue import Piece, cost_of
from .model import Pack
from .schemas import NAMES_OF


@attrs.frozen
class Building:
    """A building: tracks of boxes (one unnamed track when it has plain `boxes`), the die that opens
    it (none for a board's wonder), whether boxes go in order, and what completing it gives."""

    id: str
    name: str
    die: str | None
    in_order: bool
    tracks: dict[str, tuple[Piece, ...]]
    completion_bonus: bool = False
    first_bonus: tuple = ()  # compiled effects for the first player to complete it
    box_ids: frozenset[str] = attrs.field(init=False, eq=False, repr=False, default=attrs.Factory(
        lambda self: frozenset(box.id for track in self.tracks.values() for box in track), takes_self=True))

    def boxes(self) -> list[Piece]:
        return [box for track in self.tracks.values() for box in track]

    def complete(self, checked: dict[str, int]) -> bool:
        """Whether every box of it is among `checked` (box id -> the round it was checked in)."""
        return self.box_ids <= checked.keys()


@attrs.frozen
class Die:
    """A die: its faces (a building, or `building.track`), copies, and where it starts."""

    id: str
    faces: tuple[str, ...]
    copies: int = 1
    start: str = ""
    wild: bool = False  # its face names the building it opens


@attrs.frozen
class Boards:
    """Every building shared by all boards, each board's own buildings, every die."""

    shared: dict[str, Building]
    boards: dict[str, dict[str, Building]]
    dice: dict[str, Die]

    @classmethod
    def read(cls, pack: Pack) -> "Boards":
        resources = pack.vocabulary.all("resource")
        shared = {bid: _building(c.data, c.compiled, (), resources) for bid, c in pack.components["buildings"].items()}
        boards = {}
        for board_id, c in pack.components["boards"].items():
            own = c.data.get("buildings") or []
            boards[board_id] = {b["id"]: _building(b, c.compiled, ("buildings", i), resources) for i, b in enumerate(own)}
        dice = {did: Die(did, tuple(c.data.get("faces") or ()), c.data.get("copies", 1), c.data.get("start", ""),
                         bool(c.data.get("wild"))) for did, c in _components(pack, "die").items()}
        return cls(shared, boards, dice)

    def buildings(self, board: str) -> dict[str, Building]:
        """A board's buildings: the shared ones and its own."""
        return self.shared | self.boards[board]


def _components(pack: Pack, names: str) -> dict:
    """The components whose ids are names of this kind (`die`), whatever their file kind is called."""
    return {cid: c for kind, of in NAMES_OF.items() if of == names for cid, c in pack.components[kind].items()}


def _building(data: dict, compiled: dict, at: tuple, resources: set[str]) -> Building:
    tracks = {t["id"]: (at + ("tracks", i), t.get("boxes") or []) for i, t in enumerate(data.get("tracks") or [])}
    if "boxes" in data:
        tracks[""] = (at, data["boxes"])
    return Building(
        id=data["id"], name=data.get("name", data["id"]), die=data.get("die"),
        in_order=data.get("order", "sequence") != "any",
        tracks={tid: tuple(_box(data["id"], tid, i, box, compiled, path + ("boxes", i), resources)
                           for i, box in enumerate(boxes)) for tid, (path, boxes) in tracks.items()},
        completion_bonus=bool(data.get("completion_bonus")),
        first_bonus=compiled.get(at + ("first_bonus",), ()),
    )


def _box(building: str, track: str, i: int, data: dict, compiled: dict, path: tuple, resources: set[str]) -> Piece:
    name = f"{building}.{track}.{i + 1}" if track else f"{building}.{i + 1}"
    return Piece(name, name, building, cost=cost_of(compiled.get(path + ("cost",)), resources),
                 effects=compiled.get(path + ("effect",), ()), condition=compiled.get(path + ("condition",)),
                 points=data.get("vp", 0), icons=tuple(data.get("tags") or ()))

"""What a player can do: one small immutable value per choice, and its JSON form for logs."""

from __future__ import annotations

from typing import NamedTuple


class Action(NamedTuple):
    """One choice of a player.

    `verb` says what is done (`build`, `stage`, `discard`, `pass`...), `card` with which card,
    `pay` the coins given to each seller (in the order of the pack's `trade.sellers`), and `free`
    that a free-build power pays for it."""

    verb: str
    card: str | None = None
    pay: tuple[int, ...] = ()
    free: bool = False

    def to_json(self, sellers: tuple[str, ...] = ()) -> dict:
        """A plain mapping, with the payment keyed by seller (`{"left": 2}`)."""
        out: dict = {"verb": self.verb}
        if self.card is not None:
            out["card"] = self.card
        if any(self.pay):
            out["pay"] = {s: c for s, c in zip(sellers, self.pay) if c}
        if self.free:
            out["free"] = True
        return out

    @classmethod
    def from_json(cls, data: dict, sellers: tuple[str, ...] = ()) -> "Action":
        """The inverse of `to_json`."""
        pay = data.get("pay") or {}
        coins = tuple(int(pay.get(s, 0)) for s in sellers) if pay else ()
        return cls(data["verb"], data.get("card"), coins if any(coins) else (), bool(data.get("free", False)))

    def __str__(self) -> str:
        text = self.verb if self.card is None else f"{self.verb} {self.card}"
        if any(self.pay):
            text += " paying " + "/".join(str(c) for c in self.pay)
        return text + (" (free)" if self.free else "")

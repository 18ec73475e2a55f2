"""What a player can do: one small immutable value per choice, and its JSON form for logs."""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple


class Action(NamedTuple):
    """One choice of a player.

    `verb` says what is done (`build`, `stage`, `discard`, `take`, `progress`...), `card` with which
    card (or token), `pay` the coins given to each seller (in the order of the pack's `trade.sellers`,
    then the bank where it sells: `Game.payees`), `free` that a free-build power pays for it,
    `spend` the cards given up to pay, and `choice` where from or which one (a zone, a stage number)."""

    verb: str
    card: str | None = None
    pay: tuple[int, ...] = ()
    free: bool = False
    spend: tuple[str, ...] = ()
    choice: str | None = None

    def to_json(self, sellers: tuple[str, ...] = ()) -> dict:
        """A plain mapping, with the payment keyed by seller (`{"left": 2}`)."""
        out: dict = {"verb": self.verb}
        if self.card is not None:
            out["card"] = self.card
        if any(self.pay):
            out["pay"] = {s: c for s, c in zip(sellers, self.pay) if c}
        if self.free:
            out["free"] = True
        if self.spend:
            out["spend"] = list(self.spend)
        if self.choice is not None:
            out["choice"] = self.choice
        return out

    @classmethod
    def from_json(cls, data: dict, sellers: tuple[str, ...] = ()) -> "Action":
        """The inverse of `to_json`."""
        pay = data.get("pay") or {}
        coins = tuple(int(pay.get(s, 0)) for s in sellers) if pay else ()
        return cls(data["verb"], data.get("card"), coins if any(coins) else (), bool(data.get("free", False)),
                   tuple(data.get("spend") or ()), data.get("choice"))

    def __str__(self) -> str:
        text = " ".join(w for w in (self.verb, self.card, self.choice) if w is not None)
        if any(self.pay):
            text += " paying " + "/".join(str(c) for c in self.pay)
        if self.spend:
            text += " spending " + ", ".join(self.spend)
        return text + (" (free)" if self.free else "")


@lru_cache(maxsize=1 << 14)
def recurring(verb: str, card: str | None = None, pay: tuple[int, ...] = (), choice: str | None = None) -> Action:
    """An action that flows offer again and again (a card of a hand, a deck, a box): made once,
    as actions are immutable."""
    return Action(verb, card, pay, choice=choice)

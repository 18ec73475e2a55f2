"""What a position holds per seat: a player's holdings (`Player`), the effects held (`Owned`) and
what entering a city does with each of a piece's effects (`entry`), and the decisions owed
(`Decision`). The effect runtime (runtime.py) fills and empties them.
"""

from __future__ import annotations

import attrs

from ...dsl.compiler import CompiledEffect
from ...dsl.verbs import Gain, GainTo
from ..packs.catalogue import Piece, Side

GAINS = (Gain.name, GainTo.name)  # the verbs adding to a counter: the owner's, and other players'
GIVEN = "given"            # the player zone of cards given face down, placed on the receiver's next turn


@attrs.frozen(slots=True, eq=False)
class Owned:
    """An effect a player holds, with its piece; `key` names it for `once per ...` limits. Made once
    per piece (or rules field) when a game loads, so one is itself alone: compared by identity,
    which is what finding it among a player's holdings needs, and fast."""

    key: str
    piece: Piece
    effect: CompiledEffect


def rule_effects(key: str, effects, piece: Piece | None = None) -> list[Owned]:
    """Effects written in rules.yaml (or a building's) held as if by a piece named `key`."""
    piece = piece or Piece(key, key, "", effects=tuple(effects))
    return [Owned(f"{key}#{i}", piece, e) for i, e in enumerate(effects)]


LASTING, POWER, SCORED, RUN = "lasting", "power", "scored", "run"  # what entering does with an effect


def entry(piece: Piece, score: str | None) -> tuple[tuple[Owned, str, bool, tuple], ...]:
    """What entering a city does with each of a piece's effects: keep it for its trigger (LASTING),
    as a `once per ...` power whose condition is checked when used (POWER), or run it now, keeping
    it too when it scores points, which are counted at the end (SCORED). The flag says whether what
    running it gave must be remembered for leaving: when it had a condition (it may not have run),
    an action that may stop the rest (a payment) or gave an amount read from the position;
    otherwise leaving gives back what its words say.
    Last, the actions entering runs: without the points, counted at the end from what is held."""
    out = []
    for i, effect in enumerate(piece.effects):
        owned = Owned(f"{piece.id}#{i}", piece, effect)
        runs = unscored(effect.actions, score) if effect.trigger is None else effect.actions
        remember = effect.trigger is None and (effect.condition is not None
                                               or any(a.node.varies(a.args) or a.node.stops for a in runs))
        if effect.trigger not in (None, "build"):
            out.append((owned, LASTING, False, ()))
        elif effect.trigger is None and effect.limit is not None:
            out.append((owned, POWER, False, ()))
        elif len(runs) < len(effect.actions):
            out.append((owned, SCORED, remember, runs))
        else:
            out.append((owned, RUN, remember, runs))
    return tuple(out)


def unscored(actions: tuple, score: str | None) -> tuple:
    """The actions but those scoring points (a gain of the score counter, the owner's or others');
    all of them when one may stop the rest (`spend 2 tile tokens then vp 5`): its points are then
    scored as they happen."""
    if any(a.node.stops for a in actions):
        return actions
    return tuple(a for a in actions if not (a.verb in GAINS and a.args.counter == score))


# Not frozen, though nothing changes one (`attrs.evolve` makes another): several are made each turn,
# and a frozen class's __init__ costs three times as much.
@attrs.define(slots=True, unsafe_hash=True)
class Decision:
    """A choice an effect asks of one player in the middle of a turn (`kind` is its verb)."""

    seat: int
    kind: str
    args: dict = attrs.field(eq=False)
    owned: Owned | None = None
    rest: tuple = attrs.field(default=(), eq=False)  # the effect's actions after this one, run once it is made
    chosen: int | None = attrs.field(default=None, eq=False)  # the player its sentence had chosen when it asked
    # the place its player chose to look into, a choice's first step (decisions.py `look`): the
    # second is made before anything else
    within: str | None = None


@attrs.define(slots=True)
class Player:
    """What one seat holds."""

    counters: dict[str, int]
    zones: dict[str, list[Piece]]
    built: set[str] = attrs.field(factory=set)          # ids in the build zone
    side: Side | None = None
    stages: int = 0
    wonder_size: int = 0                                # how many stages (or steps) the wonder has
    raised: set[int] = attrs.field(factory=set)         # which stages are built (0-based)
    tucked: list[Piece] = attrs.field(factory=list)     # cards spent on stages, face down
    tokens: list[tuple[str, int, int]] = attrs.field(factory=list)  # (kind, value, battle won in, or battles before)
    units: tuple = ()                                   # production, sorted (see payment.py)
    public: tuple = ()                                  # the part of it others may buy
    prices: tuple = ()                                  # per seller: ((resource, coins), ...)
    symbols: list[tuple[str, ...]] = attrs.field(factory=list)  # science, a tuple of choices each
    lasting: list[Owned] = attrs.field(factory=list)    # effects kept for later: triggers, end scores
    waiting: dict[str, list[Owned]] = attrs.field(factory=dict)  # those with a trigger, by it: an event finds its own at once
    abilities: list[Owned] = attrs.field(factory=list)  # powers used as a choice (free build, play last)
    used: set[tuple] = attrs.field(factory=set)         # (key, period) of limited effects spent
    banked: list[tuple[str, int]] = attrs.field(factory=list)  # (colour, points) scored during play
    given: list[tuple[Owned, tuple]] = attrs.field(factory=list)  # untriggered effects that applied on entry, with args fixed then
    discounts: tuple = ()                               # lasting discounts on costs (`discount ...`), their args
    bank: tuple = ()                                    # what the bank sells them: ((resources), price, most or 0), sorted
    first: tuple = ()                                   # per seller: the first purchase's prices each turn, or () for none
    bought: int = -1                                    # the turn (`turns_played`) they last bought from a seller
    relative: tuple = ()                                # `produce held / unheld`: (held or unheld, resources, private)
    derived: tuple = ()                                 # the units those give now: (unit, private)
    came: tuple = ()                                    # (turn, round, card) of each card come into the city, where a count reads them
    trades: tuple = ()                                  # the trades held (`Context.trade`), for a piece leaving to take its own back

    def clone(self) -> "Player":
        return Player(dict(self.counters), {z: list(v) for z, v in self.zones.items()}, set(self.built),
                      self.side, self.stages, self.wonder_size, set(self.raised), list(self.tucked), list(self.tokens), self.units,
                      self.public, self.prices, list(self.symbols), list(self.lasting),
                      {e: list(v) for e, v in self.waiting.items()}, list(self.abilities), set(self.used), list(self.banked),
                      list(self.given), self.discounts, self.bank, self.first, self.bought, self.relative,
                      self.derived, self.came, self.trades)


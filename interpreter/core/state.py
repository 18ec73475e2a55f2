"""A game in progress: `State`, the engine's interface (`current_players`, `legal_actions`, `apply`,
`clone`...), what every game may hide from a seat, and the generator a seed deals from. The state
is also the `Context` compiled effects read and run (context.py) and carries the effect runtime
every flow shares (runtime.py): both are mixed into it. What happens when is the flow's business
(`draft.py`, `turns.py`, `rolls.py`), what each verb does is `verbs.py`'s, how each decision is
offered and carried out `decisions.py`'s; what only one flow needs lives in that flow's own state,
`state.flow_state`.
"""

from __future__ import annotations

import random

from ..packs.catalogue import Piece
from .actions import Action
from .context import Context
from .errors import EndlessGame
from .hidden import Hidden, determinize as _determinize
from .holdings import GIVEN, Decision, Owned, Player
from .runtime import OVER, Runtime


def _suspects(state: "State") -> str:
    """The pieces whose effects were running or are asking for a choice: where to look."""
    pieces = [state.source.piece.id] if state.source is not None else []
    pieces += [d.owned.piece.id for d in state.queue if d.owned is not None]
    pieces = list(dict.fromkeys(pieces))[:5]
    return f"; its effects now come from: {', '.join(pieces)}" if pieces else ""


def generator(seed: int) -> random.Random:
    """The generator a seed deals from. Python seeds a generator with an integer's absolute value,
    so a negative seed is given as its text instead: every integer deals its own game, and the
    seeds from 0 up keep the games they always dealt."""
    return random.Random(seed if seed >= 0 else str(seed))


class State(Runtime, Context):
    """One game's position. Seats are 0..n-1, listed clockwise; see DESIGN.md for the interface.
    `game` is the game it belongs to (game.py)."""

    def __init__(self, game, seed: int):
        self.game = game
        self.seed = seed
        self.rng = generator(seed)
        self.players: list[Player] = []
        self.shared: dict[str, list[Piece]] = {}
        self.round = 0
        self.begun = -1                        # the last round whose start has come (`at round start`)
        self.turns_played = 0
        self.phase = "setup"
        self.queue: list[Decision] = []        # decisions owed before the flow goes on
        self.history: list[tuple[int, Action]] = []
        self.source: Owned | None = None       # the effect being run
        self.legal: dict[int, list[Action]] = {}  # legal actions by seat, until the next apply
        self.chosen: int | None = None         # the player the running sentence chose (`to chosen`)
        self.battles = 0                       # battles fought so far
        self.battle = False                    # a battle is due at the end of this turn
        self.pawns: dict[str, int | None] = {}  # pawn -> the seat holding it
        self.flips: dict[str, tuple[int, int]] = {}  # token kind -> (tokens, turned to their other side)
        self.peeks: set[tuple[int, str, int]] = set()  # (seat, zone, its size): the top card a seat looked at
        self.given_from: dict[int, list[str | None]] = {}  # per receiver, each given card's face-down origin
        self.in_force: tuple[Piece, ...] = ()  # the laws in force for every player (rules.yaml `laws`)
        self.flow_state = game.flow.new_state()  # what the flow alone keeps

    # -- the engine's interface
    def current_players(self) -> list[int]:
        """The seats that must act now."""
        return self.game.flow.current_players(self)

    def legal_actions(self, player: int) -> list[Action]:
        """That seat's legal actions, in a stable order (empty when it need not act)."""
        actions = self.legal.get(player)
        if actions is None:
            actions = self.legal[player] = self.game.flow.legal_actions(self, player)
        return list(actions)

    def apply(self, player: int, action: Action) -> None:
        """Carry out one legal action; raises ValueError for an illegal one."""
        if action.pay and not any(action.pay):
            action = action._replace(pay=())  # paying nobody is written ()
        legal = self.legal.get(player)
        if action not in (legal if legal is not None else self.legal_actions(player)):
            raise ValueError(f"seat {player} cannot {action} now")
        if len(self.history) >= self.game.max_actions:
            raise EndlessGame(f"a game of {self.game.pack.id} passed {self.game.max_actions} actions without "
                              f"ending: some effect must keep it going (seed {self.seed}){_suspects(self)}")
        self.history.append((player, action))
        self.legal = {}
        try:
            self.game.flow.apply(self, player, action)
            if self.game.rules.laws is not None:
                self.enforce()
        except RecursionError:  # effects setting each other off, deeper than Python goes
            raise EndlessGame(f"in a game of {self.game.pack.id} (seed {self.seed}), effects set each other off "
                              f"without end{_suspects(self)}") from None

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def scores(self) -> list[dict]:
        """Per seat, `total` and `breakdown` (category -> points), as if the game ended now."""
        return self.game.scoring.scores(self)

    def totals(self) -> list[int]:
        """Per seat, the `total` of `scores()` alone (worked out faster)."""
        return self.game.scoring.totals(self)

    def winners(self) -> list[int]:
        """The seats with the best score after the tie-breaks (several when still tied)."""
        return self.game.scoring.winners(self, self.scores())

    def observation(self, player: int) -> dict:
        """What that seat may see: its own hand and everything public."""
        return self.game.flow.observation(self, player)

    def determinize(self, seat: int, rng: random.Random) -> "State":
        """A full position consistent with what `seat` knows, everything hidden from it (others'
        hands, decks' orders, face-down cards, committed choices, the draws to come) resampled
        from `rng`; see hidden.py."""
        return _determinize(self, seat, rng)

    def clone(self) -> "State":
        """An independent copy."""
        new = State.__new__(State)
        new.game, new.seed = self.game, self.seed
        new.rng = random.Random.__new__(random.Random)  # unseeded: `Random()` would read the OS's entropy first
        new.rng.setstate(self.rng.getstate())
        new.players = [p.clone() for p in self.players]
        new.shared = {z: list(v) for z, v in self.shared.items()}
        new.round, new.begun, new.turns_played, new.phase = self.round, self.begun, self.turns_played, self.phase
        new.queue = list(self.queue)
        new.history = list(self.history)
        new.source = None
        new.legal = {}
        new.chosen, new.battles, new.battle = self.chosen, self.battles, self.battle
        new.pawns, new.flips, new.peeks = dict(self.pawns), dict(self.flips), set(self.peeks)
        new.given_from = {s: list(v) for s, v in self.given_from.items()}
        new.in_force = self.in_force
        new.flow_state = self.flow_state.clone()
        return new

    # -- what every game may hide
    def hidden_places(self, seat: int) -> list[Hidden]:
        """What every game may hide from a seat, whatever its flow: the face-down decks (`setup.decks`)
        under the top card it looked at, the offer's face-down stack, and the cards given face down
        to others from a face-down deck (of that deck's pool)."""
        out = [Hidden.under_top(self.shared[zone], int(not self.hidden(seat, zone)), zone)
               for zone in sorted(self.game.face_down) if zone in self.shared]
        offer = self.game.rules.setup.offer
        if offer is not None and offer.stack in self.shared:
            out.append(Hidden.whole(self.shared[offer.stack], offer.stack))
        for receiver, origins in self.given_from.items():
            if receiver != seat:
                cards = self.players[receiver].zones.get(GIVEN, [])
                out += [Hidden(cards, i, i + 1, zone) for i, zone in enumerate(origins) if zone is not None]
        return out

    def hidden(self, seat: int, zone: str) -> bool:
        """Whether a shared zone's top card is face down for the seat: a deck filled at setup
        (`setup.decks`), unless the seat looked at the card now on top."""
        return zone in self.game.face_down and (seat, zone, len(self.shared[zone])) not in self.peeks

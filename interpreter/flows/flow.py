"""What the core asks of a flow, and what every flow lays out at the start of a game.

A flow (draft.py, turns.py, rolls.py) says how turns go: who acts, with which actions, and when
the engine's events happen. It subclasses `Flow`, keeps what only it needs in its own state
(`new_state`), and answers the core's few questions (a wonder's size, a building complete, boxes
counted); `flows.py` declares each one, once.
"""

from __future__ import annotations

import random
from typing import Iterable

import attrs

from ..core.actions import Action
from ..core.hidden import Hidden
from ..core.holdings import Player
from ..core.state import State
from ..packs.catalogue import Piece

PLAYER_EFFECTS = "player effects"  # the pseudo-piece holding rules.yaml `player_effects`


@attrs.frozen
class Group:
    """Cards of which a game keeps fewer than their copies (a random part of a deck): at most `most`
    of them; `noun` names one, `why` says which rule keeps them."""

    cards: frozenset[str]
    most: int
    noun: str
    why: str


@attrs.frozen
class Supply:
    """The cards a game deals: each card's copies by where they lie at the start, the least player
    count dealing a card dealt to more players only, and groups of cards of which a game keeps
    fewer than their copies (a random part of a deck)."""

    sources: dict[str, list[tuple[str, int]]] = attrs.field(factory=dict)  # card -> (where, copies)...
    more_players: dict[str, int] = attrs.field(factory=dict)  # card -> least players that deal a copy
    groups: list[Group] = attrs.field(factory=list)
    # where -> how many of its cards one player plays in a game: a round's hand, its turns (the
    # cards of a source not listed are not counted: no bound is known)
    turns: dict[str, int] = attrs.field(factory=dict)

    def add(self, card: str, where: str, copies: int) -> None:
        if copies:
            self.sources.setdefault(card, []).append((where, copies))

    def copies(self, card: str) -> int:
        return sum(n for _, n in self.sources.get(card, ()))


def reads_prices(game, pieces) -> bool:
    """Whether some price of a game may not be its piece's printed cost: a cost read when paid
    (`minus`), or a discount somewhere in the pack. Flows read prices (`State.price`) only then."""
    return "cost_discount" in game.verbs or any(piece.cost.varying for piece in pieces)


@attrs.define
class FlowState:
    """What a flow keeps of a game beyond the core's `State`; a flow subclasses it."""

    def clone(self) -> "FlowState":
        return attrs.evolve(self)


class Flow:
    """A flow's rules for one game; subclasses implement the engine's interface for their turns."""

    # The end condition at most one player meets as a game ends (turns.py), compiled; None by default.
    sole_end = None
    # The verbs whose card goes face down, so that the other seats see the action but not its card.
    conceals: frozenset[str] = frozenset()

    def __init__(self, game):
        self.game = game
        self.decisions: dict = {}  # the decisions only this flow answers: kind -> Decider
        self.everyone = Piece(PLAYER_EFFECTS, PLAYER_EFFECTS, "", effects=game.rules.player_effects)

    def new_state(self) -> FlowState:
        return FlowState()

    def dealt(self) -> tuple[str, dict[str, list[str]]]:
        """What this flow deals one of to each seat (its noun), and each one's sides that may be
        assigned ([] for one without sides): the pack's wonders, on the sides rules.yaml deals."""
        game = self.game
        sides = game.rules.setup.sides or []
        return "wonder", {w: [s for s in sides if (w, s) in game.catalogue.sides]
                          for w in game.catalogue.wonders()}

    def supply(self, sides) -> Supply:
        """The cards a game with these wonder sides deals, every copy counted: the decks laid out
        (rules.yaml `decks` of `setup.decks`) and, with `setup.wonder_decks`, those wonders' own."""
        game, out = self.game, Supply()
        laid = dict(game.rules.decks)
        for zone in game.rules.setup.decks:
            for card, n in laid.get(zone, ()):
                out.add(card, zone, n)
        if game.rules.setup.wonder_decks:
            for side in sides:
                for card, n in side.deck:
                    out.add(card, f"{side.wonder}'s deck", n)
        return out

    def round_count(self) -> int | None:
        """How many rounds every game has, when that is fixed (a draft's decks); None by default."""
        return None

    # -- the engine's interface, by flow
    def setup(self, state: State) -> None:
        raise NotImplementedError

    def current_players(self, state: State) -> list[int]:
        raise NotImplementedError

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        raise NotImplementedError

    def apply(self, state: State, seat: int, action: Action) -> None:
        raise NotImplementedError

    def observation(self, state: State, seat: int) -> dict:
        raise NotImplementedError

    def hidden(self, state: State, seat: int) -> list[Hidden]:
        """The pieces face down to the seat, each with the pool it may swap with (hidden.py): what
        every game hides (`State.hidden_places`); a flow adds its own. `observation` shows none of it."""
        return state.hidden_places(seat)

    def shown(self, state: State, seat: int) -> list[tuple[list[Piece], int]]:
        """(cards, how many from the top) the seat looks at now, for the choices it owes (a deck's
        top five, the discard pile to build from): they stay as they are in a determinization."""
        out = []
        for decision in state.queue:
            shows = state.game.decisions[decision.kind].shows if decision.seat == seat else None
            if shows is not None:
                out += shows(state, decision)
        return out

    def committed(self, state: State) -> Iterable[int]:
        """The seats whose last action is a choice made but not revealed yet (none by default)."""
        return ()

    def resample(self, state: State, seat: int, rng: random.Random) -> None:
        """Redraw what the seat cannot know that is not a piece in a place (others' committed
        choices, decks still to be made), once the pieces are reshuffled: nothing by default."""

    def arrange(self, state: State, holdings: list[dict]) -> None:
        """A finished position from what each player holds (scenario.py)."""
        raise NotImplementedError

    def preview(self, state: State, seat: int, action: Action) -> State:
        """The position right after this seat's action alone (for bots)."""
        after = state.clone()
        after.apply(seat, action)
        return after

    def extra_action(self, state: State, seat: int, args) -> None:
        """`extra action`: the seat acts once more, as this flow's turns go."""
        raise NotImplementedError

    def unlock(self, state: State, seat: int, die: str) -> None:
        """`unlock <die> die`, in a flow with dice (`check` refuses it elsewhere)."""
        raise NotImplementedError

    # -- the core's questions
    def board(self, state: State, seat: int) -> tuple[str, str]:
        """The seat's board: its wonder's id and side ("" without sides)."""
        side = state.players[seat].side
        return side.wonder, side.side

    def complete(self, state: State, seat: int, building: str) -> bool:
        """Whether every box of a building of the seat's is checked (a flow without them: never)."""
        return False

    def boxes(self, state: State, seat: int, building: str | None, die: str | None, tags: frozenset[str],
              period: str | None) -> int:
        """Boxes checked (a flow without them: none)."""
        return 0

    # -- what every game lays out
    def new_player(self, side=None, wonder_size: int | None = None) -> Player:
        """A player with the starting counters and every player zone the pack names, empty; their
        wonder (a side's stages, or `wonder_size` steps)."""
        game = self.game
        size = len(side.stages) if wonder_size is None else wonder_size
        return Player(dict(game.start_counters), {zone: [] for zone in game.player_zones}, side=side,
                      wonder_size=size, prices=game.start_prices)

    def lay_out(self, state: State) -> None:
        """The shared zones the pack names, its shared decks (`setup.decks`, shuffled face down),
        the tokens on offer, the tokens to flip, the pawns (held by nobody) and the objectives."""
        game, rng, setup = self.game, state.rng, self.game.rules.setup
        if game.discard_zone:
            state.shared.setdefault(game.discard_zone, [])
        decks = dict(game.rules.decks)
        for zone in setup.decks:
            state.shared[zone] = game.cards(decks.get(zone, ()))
            rng.shuffle(state.shared[zone])
        if setup.offer is not None:
            stack = [p for p in game.catalogue.others.get(setup.offer.kind, {}).values() for _ in p.copies.get("", (0,))]
            rng.shuffle(stack)
            state.shared[setup.offer.shown] = stack[:setup.offer.face_up]
            state.shared[setup.offer.stack] = stack[setup.offer.face_up:]
        for kind, _ in setup.tokens:
            state.flips[kind] = (setup.tokens_for(kind, game.players), 0)
        state.pawns = {pawn: None for pawn in game.pack.vocabulary.all("pawn")}
        self.lay_objectives(state)
        for zone in game.shared_zones:
            state.shared.setdefault(zone, [])

    def lay_objectives(self, state: State) -> None:
        """`objectives`: `between_neighbours` drawn at random between each pair of neighbours
        (`kind@i` lies between seat i and seat i+1), and with its option some in the middle (`kind`)."""
        spec, options = self.game.rules.objectives, self.game.options
        if spec is None or (spec.option is not None and not options.get(spec.option, True)):
            return
        pool = list(self.game.catalogue.others.get(spec.kind, {}).values())
        state.rng.shuffle(pool)
        for i in range(len(state.players)):
            state.shared[f"{spec.kind}@{i}"] = [pool.pop() for _ in range(spec.between_neighbours)]
        if spec.central_option is not None and options.get(spec.central_option):
            state.shared[spec.kind] = [pool.pop() for _ in range(spec.central_count)]

    def welcome_players(self, state: State) -> None:
        """Every player takes the effects every player has (`player_effects`) and their board's."""
        for seat, player in enumerate(state.players):
            if self.everyone.effects:
                state.enter(seat, self.everyone)
            if player.side is not None:
                state.enter(seat, player.side.board)


def take_card(cards: list[Piece], card_id: str) -> Piece:
    """Remove and return the first card of that id."""
    for i, card in enumerate(cards):
        if card.id == card_id:
            return cards.pop(i)
    raise ValueError(f"no card {card_id!r} there")

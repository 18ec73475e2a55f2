"""The choices effects ask of a player, the same in every flow: which card to take from the top of
which deck, which card to take from where, which token, which card to build free, which stage of a
neighbour to copy (where wonders have stages). Each kind says which actions answer it (none: it
lapses) and carries the chosen one out through the core's services. A flow adds the kinds only it
can answer (`flows.py`).

A zone named in a sentence is a shared zone by its name, or a player's, named `zone@seat`
(`state.places`).
"""

from __future__ import annotations

from typing import Callable, NamedTuple

import attrs

from ...dsl.verbs.tokens import CHOICE, doable
from ..packs.catalogue import Piece
from .actions import Action, recurring
from .context import COPY_STAGE, Place, cards_at, places
from .holdings import Decision
from .state import State


class Decider(NamedTuple):
    """How one kind of decision is offered and carried out."""

    actions: Callable[[State, Decision], list[Action]]
    # carries the action out; a choice made in two steps returns its second (`State.answer`)
    apply: Callable[[State, Decision, Action], "Decision | None"]
    # (cards, how many from the top) the seat looks at while it decides: never resampled (hidden.py)
    shows: Callable[[State, Decision], list[tuple[list[Piece], int]]] | None = None


def _place(state: State, name: str) -> Place:
    """The place a legal action names (`places` names them): a shared zone by its name (which may
    hold an `@`: the objectives'), else `zone@seat`."""
    if name in state.shared:
        return (name, name, None)
    zone, _, owner = name.partition("@")
    return (name, zone, int(owner))


def _lift(state: State, place: Place, index: int) -> Piece:
    """Take the card at `index` of a place; one leaving a player's city takes back what it gave."""
    _, zone, owner = place
    card = cards_at(state, place).pop(index)
    if owner is not None and zone == state.game.build_zone:
        state.leave(owner, card)
    return card


# -- take [K of] top [N] card of <zones>
LOOK = "look"  # the first step of a take from the top N of one of several zones: which zone


def _looked_at(state: State, decision: Decision) -> tuple[Place, ...] | None:
    """The zones the seat chooses among before it sees any of their top N cards: those holding
    cards, when a take reaches below the top (N > 1) of more than one and the zone is not chosen
    yet; None otherwise (the cards are offered at once). Reaching below the top, the seat looks at
    the top N cards of the zone it takes from, a face-down deck's too."""
    if decision.args.depth == 1 or decision.within is not None:
        return None
    open_ = tuple(p for p in places(state, decision.seat, decision.args.zones) if cards_at(state, p))
    return open_ if len(open_) > 1 else None


def take_top_actions(state: State, decision: Decision) -> list[Action]:
    """A card from the top of each named zone that is not empty (`take 1 of top 5`: any of them);
    a face-down deck's top card is taken unseen, unless the seat looked at it (its top N, it looks
    at). Reaching below the top of several zones, the seat first chooses one (`look`), then a card
    of its top N alone."""
    args, seat, out = decision.args, decision.seat, []
    depth = args.depth
    looked = _looked_at(state, decision) if depth > 1 else None
    if looked is not None:
        out = [recurring(LOOK, None, (), name) for name, _, _ in looked]
    found = places(state, seat, args.zones) if decision.within is None else (_place(state, decision.within),)
    for name, zone, owner in found:
        cards = state.shared[zone] if owner is None else state.players[owner].zones[zone]  # `cards_at`, inline: a hot path
        if not cards:
            continue
        if depth == 1 and owner is None and zone in state.game.face_down and (seat, name, len(cards)) not in state.peeks:
            out.append(recurring("take", None, (), name))  # as `State.hidden` says, inline: a hot path
        elif depth == 1:
            if not state.game.unique_cards or state.may_hold(seat, cards[-1]):  # a hot path
                out.append(recurring("take", cards[-1].id, (), name))
        elif looked is None:
            out += [recurring("take", card, (), name)
                    for card in sorted({c.id for c in cards[-depth:] if state.may_hold(seat, c)})]
    return out


def take_top_shows(state: State, decision: Decision) -> list[tuple[list[Piece], int]]:
    """The top cards it may take from, but a face-down deck's top card it did not look at (below
    the top, it looks); while it is still to choose the zone to look into, none (it sees their tops
    as anyone does)."""
    seat, out, depth = decision.seat, [], decision.args.depth
    if decision.within is not None:
        return [(cards_at(state, _place(state, decision.within)), depth)]
    if _looked_at(state, decision) is not None:
        return []
    for name, zone, owner in places(state, seat, decision.args.zones):
        cards = cards_at(state, (name, zone, owner))
        if depth > 1 or not (owner is None and zone in state.game.face_down and (seat, name, len(cards)) not in state.peeks):
            out.append((cards, depth))
    return out


def whole_places(state: State, decision: Decision) -> list[tuple[list[Piece], int]]:
    """Every card of the zones it chooses from."""
    return [(cards, len(cards)) for place in places(state, decision.seat, decision.args.zones)
            for cards in (cards_at(state, place),)]


def take_top(state: State, decision: Decision, action: Action) -> Decision | None:
    """The card taken; after a `look`, the same choice again, within the zone chosen (returned:
    the seat makes it before anything else)."""
    if action.verb == LOOK:
        return attrs.evolve(decision, within=action.choice)
    place = _place(state, action.choice)
    depth = decision.args.depth
    if depth == 1 and place[1] != state.game.build_zone:  # the top card of a deck: most takes
        _, zone, owner = place
        state.gain_card(decision.seat, (state.shared[zone] if owner is None else state.players[owner].zones[zone]).pop())
        return None
    cards = cards_at(state, place)
    index = len(cards) - 1 if action.card is None or depth == 1 else max(
        i for i in range(max(0, len(cards) - depth), len(cards)) if cards[i].id == action.card)
    card = _lift(state, place, index)
    if depth > 1:  # the cards looked at but not kept are shuffled back into their deck
        state.rng.shuffle(cards)
    state.gain_card(decision.seat, card)
    return None


# -- take <card filter> from <zones>
def take_from_actions(state: State, decision: Decision) -> list[Action]:
    seat, test = decision.seat, decision.args.cards
    return [Action("take", cid, choice=name) for name, zone, owner in places(state, seat, decision.args.zones)
            for cid in sorted({c.id for c in cards_at(state, (name, zone, owner))
                               if (test is None or test(c)) and state.may_hold(seat, c)})]


def take_from(state: State, decision: Decision, action: Action) -> None:
    """A card taken from where it lies; from a player's city it leaves theirs, and they are `chosen`."""
    place = _place(state, action.choice)
    card = _lift(state, place, next(i for i, c in enumerate(cards_at(state, place)) if c.id == action.card))
    if place[2] is not None:
        state.chosen = place[2]
    state.gain_card(decision.seat, card)


# -- lay <card filter> from <zones> on <shared zone>
def lay_actions(state: State, decision: Decision) -> list[Action]:
    """Each matching card of the zones, to lay on the shared zone."""
    seat, test = decision.seat, decision.args.cards
    return [Action("lay", cid, choice=name) for name, zone, owner in places(state, seat, decision.args.zones)
            for cid in sorted({c.id for c in cards_at(state, (name, zone, owner)) if test is None or test(c)})]


def lay(state: State, decision: Decision, action: Action) -> None:
    """The card goes on top of the shared zone; one leaving a city takes back what it gave."""
    place = _place(state, action.choice)
    card = _lift(state, place, next(i for i, c in enumerate(cards_at(state, place)) if c.id == action.card))
    state.shared.setdefault(decision.args.on, []).append(card)


# -- take <kind> token
def take_token_actions(state: State, decision: Decision) -> list[Action]:
    return token_actions(state)


def token_actions(state: State, spend: tuple[str, ...] = ()) -> list[Action]:
    """Each token shown (`setup.offer`), and the top of the face-down stack."""
    offer = state.game.rules.setup.offer
    if offer is None:
        return []
    out = [Action("token", tid, spend=spend, choice=offer.shown) for tid in sorted({p.id for p in state.shared[offer.shown]})]
    if state.shared[offer.stack]:
        out.append(Action("token", None, spend=spend, choice=offer.stack))
    return out


def take_token(state: State, decision: Decision, action: Action) -> None:
    """The token chosen goes to the player's zone of its kind; a shown one is replaced from the stack."""
    offer = state.game.rules.setup.offer
    if action.choice == offer.stack:
        token = state.shared[offer.stack].pop(0)
    else:
        shown = state.shared[offer.shown]
        token = shown.pop(next(i for i, t in enumerate(shown) if t.id == action.card))
        if state.shared[offer.stack]:
            shown.append(state.shared[offer.stack].pop(0))
    state.players[decision.seat].zones.setdefault(offer.kind, []).append(token)
    state.enter(decision.seat, token)
    state.tokens_moved(None, decision.seat, offer.kind, 1)


# -- build <card filter> from <zones> free
def build_free_actions(state: State, decision: Decision) -> list[Action]:
    """A matching card of the zones that the city may hold (`State.may_hold`)."""
    seat, test = decision.seat, decision.args.cards
    cards = {c.id for place in places(state, seat, decision.args.zones) for c in cards_at(state, place)
             if state.may_hold(seat, c) and (test is None or test(c))}
    return [Action("build", cid, free=True) for cid in sorted(cards)]


def build_free(state: State, decision: Decision, action: Action) -> None:
    for place in places(state, decision.seat, decision.args.zones):
        for i, card in enumerate(cards_at(state, place)):
            if card.id == action.card:
                state.gain_card(decision.seat, _lift(state, place, i))
                return


# -- copy stage from <sides>
def copy_stage_actions(state: State, decision: Decision) -> list[Action]:
    """Each stage the seat may copy, named by its id (`giza:a:2`)."""
    return [Action("copy", stage.id) for stage in state.stages_to_copy(decision.seat, decision.args.sides)]


def copy_stage(state: State, decision: Decision, action: Action) -> None:
    """The stage chosen applies to the seat as if built (`State.copy_stage`)."""
    stages = state.stages_to_copy(decision.seat, decision.args.sides)
    state.enter(decision.seat, next(stage for stage in stages if stage.id == action.card))


# -- A or B
def choice_actions(state: State, decision: Decision) -> list[Action]:
    """Each side of the choice that can be done now, named by its text."""
    args = decision.args
    return [Action(CHOICE, choice=text) for side, text in zip(args.sides, args.texts)
            if doable(state, decision.seat, side)]


def choose_side(state: State, decision: Decision, action: Action) -> None:
    """The side chosen is carried out (a choice it asks in its turn is owed next)."""
    args = decision.args
    state.carry_out(decision.seat, decision.owned, args.sides[args.texts.index(action.choice)], state.chosen)


DECIDERS: dict[str, Decider] = {
    "take_top": Decider(take_top_actions, take_top, take_top_shows),
    "take_from": Decider(take_from_actions, take_from, whole_places),
    "take_token": Decider(take_token_actions, take_token),
    "build_free": Decider(build_free_actions, build_free, whole_places),
    "lay": Decider(lay_actions, lay, whole_places),
    COPY_STAGE: Decider(copy_stage_actions, copy_stage),
    CHOICE: Decider(choice_actions, choose_side),
}

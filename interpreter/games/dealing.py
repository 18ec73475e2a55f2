"""What a pack deals, at every player count it declares.

`check` deals a game of the pack (option defaults, seed 0) for each count from `players.min` to
`players.max`, once the pack has no other error, and reports:

- E-DEAL, an error: a count the pack cannot be dealt for (fewer wonders or boards than players, a
  round's deck short of the hands, a random part of a deck short of what it keeps), once per
  problem with every count it affects, at what to change: the entry of a pack.yaml `remove:` that
  caused it (the pack dealt that count before the removal), else the rules.yaml key that sets what
  runs short (a random part's own entry), preferably in the checked pack's own rules.yaml;
- W-DEAL, warnings: a card that no player count deals, cards a round's deck holds beyond the
  hands (never dealt), a card chaining from a card only dealt in a later round, two boxes of one
  board given one name (a box's name is `building.track.n` or `building.n`), a building with a die
  that no face of any die opens and no box or bonus checks free.

What packs/ already reports (more draft turns than cards in a hand, objectives too few for the
most players, a copy for more players than the pack allows) is not reported again: dealing runs
only for a pack without errors.
"""

from __future__ import annotations

import re
from typing import Iterable, Iterator

import attrs

from ...dsl.diagnostics import Diagnostic, one_of
from ..core.errors import DealError, GameError
from ..flows.kinds import FLOWS, FlowKind
from ..packs.folders import shown
from ..packs.merging import merge_rules
from ..packs.model import Component, Pack, Removal, has, rules_source, sentences, value_at
from ..packs.rules import Rules
from ..packs.schemas import one_kind
from .game import Game


def deal_diagnostics(pack: Pack) -> list[Diagnostic]:
    """Every count of the pack dealt; what cannot be, and what is never dealt (see the module's doc)."""
    flow = pack.rules.get("flow") if isinstance(pack.rules.get("flow"), dict) else {}
    kind = FLOWS.get(flow.get("kind"))
    players = pack.rules.get("players") if isinstance(pack.rules.get("players"), dict) else {}
    low, high = players.get("min"), players.get("max")
    if kind is None or not isinstance(low, int) or not isinstance(high, int) or low > high:
        return []
    try:
        rules = Rules.read(pack, kind.rules)
    except (KeyError, TypeError, ValueError):
        return []  # reading reported it
    dealer = _Dealer(pack, kind, rules, low, high)
    return list(dealer.failures()) + list(dealer.warnings())


@attrs.define
class _Problem:
    """One reason some counts cannot be dealt: the counts and the first one's error."""

    key: tuple
    blame: tuple[Removal, ...]
    counts: list[int]
    why: str


class _Dealer:
    def __init__(self, pack: Pack, kind: FlowKind, rules: Rules, low: int, high: int):
        self.pack, self.kind, self.rules, self.low, self.high = pack, kind, rules, low, high
        self.games: dict[int, Game] = {}   # the counts dealt
        self.whys: dict[int, str] = {}     # what stops the others
        # what the pack's `remove:` entries (and its bases') took out and still lacks
        self.removals = [r for layer in pack.lineage() for r in layer.removals
                         if r.id not in pack.components.get(r.kind, {})]

    # -- errors
    def failures(self) -> Iterator[Diagnostic]:
        problems: dict[tuple, _Problem] = {}
        for n in range(self.low, self.high + 1):
            try:
                game, err = _deal(self.pack, self.kind, n)
            except Exception as crash:  # noqa: BLE001 - a bug of ours: said, not raised at the author
                yield Diagnostic("E-INTERNAL", f"dealing {self.pack.id} for {n} players failed: {crash!r}",
                                 shown(self.pack.folder / "pack.yaml"),
                                 hint="this is a WonderForge bug: please report it with this pack")
                continue
            if err is None:
                self.games[n] = game
                continue
            key, self.whys[n] = _key(err), _why(err)
            blame = self.blamed(n, key)
            found = problems.setdefault((key, blame), _Problem(key, blame, [], _why(err)))
            found.counts.append(n)
        for problem in problems.values():
            yield self.failure(problem)

    def blamed(self, n: int, key: tuple) -> tuple[Removal, ...]:
        """The removals without which count n deals past this problem; () when they are not to blame."""
        if not self.removals or not _gone(self.pack, self.kind, n, self.removals, key, None):
            return ()
        return tuple(self.removals)

    def failure(self, problem: _Problem) -> Diagnostic:
        pack, counts = self.pack, problem.counts
        at = f"at {_counts(counts)}"
        fewer = min(counts) - 1 if max(counts) == self.high and min(counts) > self.low else None
        lower = f", or lower players.max to {fewer}" if fewer else ""
        if problem.blame:
            relevant = [r for r in problem.blame if any(_gone(pack, self.kind, n, [r], problem.key, self.whys[n])
                                                        for n in counts)]
            relevant = relevant or list(problem.blame)
            names = ", ".join(r.id for r in relevant)
            it, verb = ("it", "is") if len(relevant) == 1 else ("them", "are")
            return relevant[0].diagnostic(
                "E-DEAL", f"{pack.id} cannot be dealt {at} once {names} {verb} removed: {problem.why}",
                f"keep {it}, or make up for {it} in this pack{lower}")
        what = problem.key[0]
        if what == "dealt":
            noun = one_kind(problem.key[1])
            hint = f"give the pack at least {max(counts)} {noun}s{lower}"
            place = (("players", "max"),)
        elif what == "round":
            i, deck = problem.key[1], problem.key[2]
            hint = f"give deck {deck} more copies (cards.yaml `copies`), or deal fewer cards (flow.hand_size){lower}"
            place = (("flow", "rounds", i, "deck"), ("flow", "hand_size"), ("players", "max"))
            fewer_copies = self.fewer_copies(deck, counts[0])
            own = self.pack.own_rules
            if fewer_copies and not (own and any(has(own[0], p) for p in place)):
                card = fewer_copies[0]  # the pack gives a card of its base fewer copies in this deck
                return card.diagnostic(
                    "E-DEAL", f"{pack.id} cannot be dealt {at}: {problem.why}", ("copies", _key_of(card, deck)),
                    f"{card.id} has fewer copies in deck {deck} than in {_card_base(self.pack, card.id)}: give them back, "
                    f"or give deck {deck} other copies{lower}", key=True)
        elif what == "part":
            part = self.rules.setup.random_cards[problem.key[1]]
            hint = (f"give deck {part.deck} more {part.colour} cards (cards.yaml `copies`), or keep fewer "
                    f"(keep_per_player, keep_players_plus){lower}")
            place = (part.at, ("players", "max"))
        elif what == "prelude":
            hint = f"give deck {problem.key[1]} more copies (cards.yaml `copies`), or deal fewer cards " \
                   f"(flow.prelude.hand_size){lower}"
            place = (("flow", "prelude", "deck"), ("flow", "prelude", "hand_size"), ("players", "max"))
        else:
            hint = "fix what the message names, or lower players.max" if fewer else None
            place = (("players", "max"),)
        return self.at_rules(place, "E-DEAL", f"{pack.id} cannot be dealt {at}: {problem.why}", hint)

    def fewer_copies(self, deck: str, n: int) -> list[Component]:
        """The checked pack's cards that replace or modify a base's card with fewer copies in a deck at n players."""
        based = {cid: c for base in self.pack.bases for cid, c in base.components["cards"].items()}

        def dealt(card: Component) -> int:
            return sum(least <= n for least in _copies(card).get(deck, ()))
        return [c for c in self.pack.components["cards"].values()
                if c.owner(("copies",)) == self.pack.id and c.id in based and dealt(c) < dealt(based[c.id])]

    def at_rules(self, paths: tuple, code: str, message: str, hint: str | None, severity: str = "error") -> Diagnostic:
        """A diagnostic at the first of these rules.yaml keys that the checked pack's own rules.yaml
        writes, else where the merged rules took the first from."""
        own, base = self.pack.own_rules, merge_rules([b.rules for b in self.pack.bases])
        written = [p for p in paths if own and has(own[0], p)]
        changed = [p for p in written if not has(base, p) or value_at(base, p) != value_at(own[0], p)]
        found = next((own[1].diagnostic(code, message, p, hint) for p in changed + written), None)
        if found is None:
            path, source = next(((p, s) for p, s in ((p, rules_source(self.pack, p)) for p in paths) if s),
                                (None, None))
            found = source.diagnostic(code, message, path, hint) if source else \
                Diagnostic(code, message, shown(self.pack.folder / "rules.yaml"), hint=hint)
        return attrs.evolve(found, severity=severity)

    # -- warnings
    def warnings(self) -> Iterator[Diagnostic]:
        yield from self.never_dealt()
        if "flow.rounds" in self.kind.reads:
            yield from self.left_over()
            yield from self.later_chains()
        yield from self.colliding_boxes()
        if "dice" in self.kind.provides:
            yield from self.unopened()

    def round_decks(self) -> list[str]:
        """The decks the flow deals: each round's, and a prelude's."""
        if "flow.rounds" not in self.kind.reads:
            return []
        prelude = self.rules.flow.prelude
        return [deck for deck, _ in self.rules.flow.rounds] + ([prelude.deck] if prelude is not None else [])

    def in_decks(self) -> set[str]:
        """The cards that a deck laid out (rules.yaml `decks`, `setup.decks`) or a wonder's own deck holds."""
        laid = dict(self.rules.decks)
        held = {card for zone in self.rules.setup.decks for card, n in laid.get(zone, ()) if n}
        if self.rules.setup.wonder_decks:
            held |= {card for w in self.pack.components["wonders"].values()
                     for card, n in (w.data.get("deck") or {}).items() if isinstance(n, int) and n}
        return held

    def never_dealt(self) -> Iterator[Diagnostic]:
        decks, held = self.round_decks(), self.in_decks()
        too_many, nowhere = [], []
        for card in self.pack.components["cards"].values():
            copies = _copies(card)
            if card.id in held or any(least <= self.high for d in decks for least in copies.get(d, ())):
                continue
            (too_many if any(copies.get(d) for d in decks) else nowhere).append(card)
        where = [f"copies in deck {' or '.join(decks)} (cards.yaml `copies`)"] if decks else []
        where += ["rules.yaml `decks` of a deck laid out"] if self.rules.setup.decks else []
        where += ["a wonder's `deck`"] if self.rules.setup.wonder_decks else []
        hint = f"give it {' or '.join(where)}, or remove it" if where else "no deck of this pack deals cards"
        if too_many:
            names = one_of((c.id for c in too_many), 8)
            yield self.at_rules((("players", "max"),), "W-DEAL",
                                f"with at most {self.high} players, {_cards(too_many)} never dealt: {names}",
                                "their copies are all for more players: remove them in pack.yaml `remove:` if that is "
                                "meant, or allow more players", "warning")
        own = [c for c in nowhere if c.owner(("copies",)) == self.pack.id]
        for card in own:
            has = [d for d in _copies(card) if _copies(card)[d]]
            why = f"its copies are in deck {' and '.join(has)}, which no round deals" if has and decks else \
                "no deck holds it"
            taken = card.owner(("copies",)) != card.pack  # by a `modify:` entry's null
            at = ("copies",) if "copies" in card.data or taken else ("id",)
            found = card.diagnostic("W-DEAL", f"{card.id} is never dealt, at any player count: {why}", at, hint,
                                    key=at == ("copies",))
            yield attrs.evolve(found, severity="warning")
        based = [c for c in nowhere if c.owner(("copies",)) != self.pack.id]
        if based:
            yield self.at_rules((("flow", "rounds"), ("decks",), ("setup", "decks"), ("setup", "wonder_decks")),
                                "W-DEAL", f"{_cards(based)} of {', '.join(sorted({c.pack for c in based}))} never "
                                f"dealt, at any player count: {one_of((c.id for c in based), 8)}",
                                hint.replace("give it", "give them").replace("remove it", "remove them"), "warning")

    def left_over(self) -> Iterator[Diagnostic]:
        """Cards a round's deck holds beyond what the hands take: they are never dealt."""
        hand = self.rules.flow.hand_size
        for i, deck in enumerate(self.round_decks()):
            extra = []
            for n, game in self.games.items():
                size = len(game.flow.deck(None, deck))
                if size > hand * n:
                    extra.append((n, size - hand * n))
            if not extra:
                continue
            by_extra: dict[int, list[int]] = {}
            for n, e in extra:
                by_extra.setdefault(e, []).append(n)
            more = "; ".join(f"{_cards_more(e)} at {_counts(counts)}" for e, counts in by_extra.items())
            message = (f"deck {deck} holds more cards than round {i + 1} deals ({hand} to each player): {more}, "
                       "never dealt")
            hint = (f"every card of deck {deck} is dealt in a game: give its copies for more players (cards.yaml "
                    f"`copies`, one least player count per copy), or deal more cards (flow.hand_size)")
            paths = (("flow", "rounds", i, "deck"), ("flow", "hand_size"))
            own = self.pack.own_rules
            added = [c for c in self.pack.components["cards"].values()
                     if self.pack.bases and c.owner(("copies",)) == self.pack.id and _copies(c).get(deck)]
            if added and not (own and any(has(own[0], p) for p in paths)):
                card = added[0]  # a mod's own card added to the deck
                found = card.diagnostic("W-DEAL", message, ("copies", _key_of(card, deck)), hint, key=True)
                yield attrs.evolve(found, severity="warning")
            else:
                yield self.at_rules(paths, "W-DEAL", message, hint, "warning")

    def later_chains(self) -> Iterator[Diagnostic]:
        """A card chaining from a card that only a later round deals: the chain is never used."""
        decks = self.round_decks()
        cards = self.pack.components["cards"]
        period = self.rules.round_period or "round"

        def rounds(card: Component) -> list[int]:
            copies = _copies(card)
            return [i for i, d in enumerate(decks) if any(least <= self.high for least in copies.get(d, ()))]

        for card in cards.values():
            mine = rounds(card)
            for j, other in enumerate(card.data.get("chain_from") or []):
                theirs = rounds(cards[other]) if other in cards else []
                if not mine or not theirs or min(theirs) <= max(mine):
                    continue
                message = (f"{card.id} chains from {other}, which no {period} before {period} {min(theirs) + 1} "
                           f"deals (deck {decks[min(theirs)]}), but {card.id} is dealt in {period} {max(mine) + 1} at the "
                           "latest: the chain can never be used")
                hint = f"chain from a card of an earlier {period}, or drop the chain"
                if card.owner(("chain_from", j)) != self.pack.id and cards[other].owner(("copies",)) == self.pack.id:
                    found = cards[other].diagnostic("W-DEAL", message, ("copies",), hint, key=True)
                else:
                    found = card.diagnostic("W-DEAL", message, ("chain_from", j), hint)
                yield attrs.evolve(found, severity="warning")

    def colliding_boxes(self) -> Iterator[Diagnostic]:
        """Two boxes of one board with one name (`building.track.n`, `building.n`): one is lost, as
        the boards read them (a later track or building of one name takes the earlier one's place)."""
        shared = list(_boxes(self.pack.components.get("buildings", {}).values(), own=False))
        seen = set()
        for board in self.pack.components.get("boards", {}).values():
            names: dict[str, _Box] = {}
            for box in shared + list(_boxes([board], own=True)):
                first = names.setdefault(box.name, box)
                if first.owner == box.owner or (first.owner, box.owner) in seen:
                    continue
                seen.add((first.owner, box.owner))
                yield attrs.evolve(box.source.diagnostic("W-DEAL", _collision(board.id, first, box), box.path,
                                                         "give one of them another id"), severity="warning")


    def unopened(self) -> Iterator[Diagnostic]:
        """Buildings with a die that no face of any die opens (as the flow reads faces: `openers`),
        on any board, and that no box or bonus checks free: their boxes are never checked."""
        game = next(iter(self.games.values()), None)  # the boards and dice are the same at every count
        if game is None:
            return
        flow = game.flow
        opens: dict[str, set[str]] = {}  # building -> the dice opening it, on some board
        for board in flow.board_buildings:
            for building, dice in flow.openers(board).items():
                opens.setdefault(building, set()).update(dice)
        free = {b for s in sentences(self.pack) for a in s.effect.actions if a.verb == "check"
                for b in a.args.buildings}
        for holder, at, data in _die_buildings(self.pack):
            bid, die = data["id"], data["die"]
            if bid in opens or bid in free:
                continue
            others = sorted(b for b, dice in opens.items() if die in dice)
            found = holder.diagnostic("W-DEAL", f"{bid} is never checked: no face of a die opens it (the {die} die "
                                      f"opens {', '.join(others) or 'nothing'}), and no box or bonus checks it free",
                                      at, f"name {bid} on a face of the {die} die (dice.yaml `faces`), or give {bid} "
                                      "the die whose faces name it")
            yield attrs.evolve(found, severity="warning")


def _die_buildings(pack: Pack) -> Iterator[tuple[Component, tuple, dict]]:
    """(component, path of its `die`, data) of each building opened with a die: those of
    buildings.yaml and the boards' own."""
    for building in pack.components.get("buildings", {}).values():
        if isinstance(building.data.get("die"), str):
            yield building, ("die",), building.data
    for board in pack.components.get("boards", {}).values():
        own = board.data.get("buildings")
        for i, data in enumerate(own if isinstance(own, list) else []):
            if isinstance(data, dict) and isinstance(data.get("id"), str) and isinstance(data.get("die"), str):
                yield board, ("buildings", i, "die"), data


@attrs.frozen
class _Box:
    """A box as a board names it, and the entry (building and track) that numbers it."""

    name: str
    building: str
    track: str | None
    owner: tuple     # (component, building entry, track entry): one entry numbers its boxes once
    own: bool        # a board's own building, not one of buildings.yaml
    source: object
    path: tuple      # the id of its track, or of its building without tracks


def _collision(board: str, first: _Box, then: _Box) -> str:
    names = f"their boxes {then.name.rsplit('.', 1)[0]}.N"
    if first.building == then.building and first.track == then.track and first.track is not None \
            and first.owner[:2] == then.owner[:2]:
        return f"building {then.building} has two tracks named {then.track}: both name {names}, so the first is lost"
    if first.building == then.building and first.own and then.own:
        return f"board {board} has two buildings named {then.building}: both name {names}, so the first is lost"
    if first.building == then.building and then.own and not first.own:
        return (f"board {board}'s own building {then.building} has the name of a building of buildings.yaml: both "
                f"name {names}, so on {board} the shared one is lost")
    return f"on board {board}, {_label(first)} and {_label(then)} both name {names}: one of them is lost"


def _label(box: _Box) -> str:
    return f"building {box.building}" + (f", track {box.track}" if box.track else "")


def _card_base(pack: Pack, card: str) -> str:
    """The base pack a card of this pack replaces."""
    return next(b.id for b in pack.bases if card in b.components["cards"])


def _deal(pack: Pack, kind: FlowKind, n: int) -> tuple[Game | None, GameError | None]:
    """A game of the pack dealt for n players, or the error that stops it."""
    try:
        game = Game(pack, n, 0, None, kind)
        game.new_state()
    except GameError as err:
        return None, err
    return game, None


def _gone(pack: Pack, kind: FlowKind, n: int, removals: Iterable[Removal], key: tuple, why: str | None) -> bool:
    """Whether putting these removed components back changes the problem at count n: it is dealt,
    another problem stops it, or (given `why`) the same one with other numbers."""
    components = {k: dict(v) for k, v in pack.components.items()}
    for r in removals:
        components[r.kind].setdefault(r.id, r.component)
    try:
        _, err = _deal(attrs.evolve(pack, components=components), kind, n)
    except Exception:  # noqa: BLE001 - a removed component the engine cannot read back: no blame
        return False
    return err is None or _key(err) != key or (why is not None and _why(err) != why)


def _why(err: GameError) -> str:
    return err.why if isinstance(err, DealError) and err.why else str(err)


def _key(err: GameError) -> tuple:
    """What runs short, as one problem whatever the count."""
    if isinstance(err, DealError) and err.short:
        return err.short
    return ("other", re.sub(r"\d+", "#", _why(err)))


def _counts(counts: list[int]) -> str:
    """`6 and 7 players`, `3 to 7 players`."""
    if len(counts) > 2 and counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]} to {counts[-1]} players"
    words = [str(n) for n in counts]
    return (", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else words[0]) + \
        (" players" if counts != [1] else " player")


def _cards_more(n: int) -> str:
    return f"{n} card{'s' * (n != 1)} more"


def _cards(cards: list) -> str:
    return "1 card is" if len(cards) == 1 else f"{len(cards)} cards are"


def _copies(card: Component) -> dict[str, tuple[int, ...]]:
    """A card's copies by deck key: one least player count per copy (0 for a plain count)."""
    copies = card.data.get("copies") or {}
    return {str(k): (0,) * v if isinstance(v, int) else tuple(x for x in v if isinstance(x, int))
            for k, v in copies.items() if isinstance(v, (int, list))} if isinstance(copies, dict) else {}


def _key_of(card: Component, deck: str):
    """The key of `copies` naming a deck, as written (a number or a word), also once a `modify:`
    entry took it out (its paths are the data's keys: a number stays a number)."""
    taken = [field[1] for patch in card.patches for field in patch.written
             if len(field) == 2 and field[0] == "copies"]
    return next((k for k in [*(card.data.get("copies") or {}), *taken] if str(k) == deck), deck)


def _boxes(holders: Iterable[Component], own: bool) -> Iterator[_Box]:
    """Every box of these buildings (of buildings.yaml, or with `own` the boards' own buildings)."""
    for holder in holders:
        entries = holder.data.get("buildings") if own else [holder.data]
        for b, data in enumerate(entries if isinstance(entries, list) else []):
            if not isinstance(data, dict) or not isinstance(data.get("id"), str):
                continue
            at = ("buildings", b) if own else ()
            tracks = [(t.get("id"), t.get("boxes"), at + ("tracks", i, "id"))
                      for i, t in enumerate(data.get("tracks") or []) if isinstance(t, dict)]
            if "boxes" in data:
                tracks.append((None, data["boxes"], at + ("id",)))
            for track, boxes, path in tracks:
                for i, _ in enumerate(boxes if isinstance(boxes, list) else []):
                    name = f"{data['id']}.{track}.{i + 1}" if track else f"{data['id']}.{i + 1}"
                    yield _Box(name, data["id"], track, (holder.id, b, path), own, *holder.at(path))

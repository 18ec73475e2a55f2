"""Scenario files: a finished position written as YAML, read into a state to score.

    game: 7-wonders
    players:                      # clockwise: the left neighbour of players[i] is players[i+1]
      - name: alice
        wonder: alexandria
        side: a
        stages: 3
        coins: 14
        cards: [altar, aqueduct, town_hall]
        military: [1, 3, 5, -1, -1, -1]

    game: architects
    players:
      - name: bob
        wonder: giza
        stages: [1, 2, 3]         # the numbers of the built stages
        cards: [blue_vp3, blue_vp2_cat, gold, gold]
        progress: [culture, education]
        victory_tokens: 2
        cat: true

    game: dice
    players:
      - name: ana
        board: giza
        boxes: {wonder: 3, agora: {symbol_a: 4, symbol_b: 4}, market: [1, 4], university: {black: 3}}
        coins: 9
        dice: [black]             # unlocked
        bonuses: [1, 3]           # taken, by number
        first: [agora]            # completed before anyone else

`load_scenario` checks the whole file against `schemas/scenario.schema.json` and the pack it names,
reports every problem at once as diagnostics pointing at the exact line and column, and builds the
position with the flow's `arrange` when there are none. Here the file is read (the schema, the
limits, the pack, the names) and the position laid out; each holding is checked item by item in
scenario_players.py and scenario_boards.py. Which fields a flow kind arranges its declaration says
(kinds.py, `scenario`); the schema's `x-` annotations say what the other fields are in the pack's
data (scenario_fields.py; `x-counter` for `coins:`: the rules.yaml path naming the counter;
`x-token`, `x-pieces`, `x-pawn` likewise), so they apply to any pack that has what they name. The
military tokens come from the pack's `military:` rules, the boards, buildings and dice from the
pack's components named by `x-board`, `x-boxes`, `x-dice` and `x-first`: nothing here knows a game.
Once every holding is read, `check_table` (and, on the position built, `check_end`) refuses what no
game reaches though each holding may: see reach.py. One mistake is one error: nothing is checked
across a table of a size the pack refuses, and what an item refused might have given is taken as
given by the checks that follow (`unsure`, `doubts`). The position is built, and its end checked,
whenever every player has a wonder or board, errors or not."""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

import jsonschema

from ...dsl.diagnostics import Diagnostic, did_you_mean, one_of
from ...dsl.limits import MAX_SCENARIO_ITEMS
from ...dsl.printer import show
from ..core.context import COPY_STAGE
from ..core.events import END
from ..core.runtime import OVER
from ..core.state import State
from ..games.check import load_pack
from ..flows.flow import Supply
from ..games.game import Game, GameError
from ..games.loading import load_game
from ..packs.catalogue import Side
from ..packs.folders import find_pack, shipped_packs
from ..packs.model import LoadError
from ..packs.rules import NEIGHBOURS
from ..packs.schemas import schema_diagnostic
from ..packs.yamlsource import YamlProblem, load
from .reach import (Battles, Lasting, Layout, actions, extra_plays, impossible_tokens, over_supply, over_turns,
                    unmet_objectives, unplaced_objectives, unshared_battle)
from .scenario_boards import BoardChecks
from .scenario_fields import (BOARD, FIELD, FIRST, GAME, HOLDS, MAX_PLAYERS, MILITARY, NOUN, PIECES, PLAYER_FIELDS,
                              PLAYERS, STAGES, VALIDATOR, objectives_in_middle, rule)
from .scenario_players import PlayerChecks


class Scenario(NamedTuple):
    """A read scenario: the position (None when there are errors), every diagnostic, the player names
    in seating order."""

    state: State | None
    diagnostics: list[Diagnostic]
    names: list[str]


def load_scenario(path: str | Path) -> Scenario:
    """Read, check and set up a scenario file; all of its problems come back at once."""
    path = Path(path)
    try:
        data, source = load(path)
    except YamlProblem as problem:
        return Scenario(None, [problem.diagnostic], [])
    return _Reader(path, data, source).read()


class _Reader(PlayerChecks, BoardChecks):
    """A scenario file read: checked against its schema, its limits and the pack it names, each
    holding checked (scenario_players.py, scenario_boards.py), the table as a whole (reach.py), and
    the position laid out."""

    def read(self) -> Scenario:
        data = self.data
        listed = data.get("players") if isinstance(data, dict) else None
        crowded = isinstance(listed, list) and len(listed) > MAX_PLAYERS
        for err in VALIDATOR.iter_errors(data):
            if crowded and len(err.absolute_path) > 1 and err.absolute_path[0] == "players":
                continue  # the count is the one error to report: the rest would repeat it per player
            where = _where(data, tuple(err.absolute_path))
            message = _bound(err, where)
            if message is not None:
                self.error(FIELD, message, tuple(err.absolute_path))
            else:
                found = schema_diagnostic(err, self.source, lambda path: _where(data, path))
                self.diagnostics.append(Diagnostic(FIELD, *_fields(found)))
        if not isinstance(data, dict) or crowded:
            return Scenario(None, self.diagnostics, [])
        players = [p if isinstance(p, dict) else {} for p in listed] if isinstance(listed, list) else []
        names = [p["name"] if isinstance(p.get("name"), str) else f"player {i + 1}" for i, p in enumerate(players)]
        players = [self.bounded(i, p, names[i]) for i, p in enumerate(players)]
        self.check_names(players)
        game = self.game(data, len(players)) if isinstance(data.get("game"), str) and players else None
        holdings = []
        if game is not None:
            self.check_wonders(game, players, names)
            # an item that is not a mapping already has its schema error
            holdings = [self.holding(game, i, p, names[i]) if isinstance(listed[i], dict) else {}
                        for i, p in enumerate(players)]
            if self.exact:  # the checks across the table need the table the scenario gives
                if HOLDS[FIRST] in game.kind.scenario.takes:
                    self.check_firsts(game, holdings, names)
                self.check_table(game, holdings, names)
        state = self.position(game, holdings, names) if game is not None and self.exact else None
        if state is not None:
            self.check_end(game, state, names)
            self.check_objectives(game, state, names)
        if self.diagnostics or state is None:
            return Scenario(None, self.ordered(), names)
        return Scenario(state, [], names)

    def position(self, game: Game, holdings: list[dict], names: list[str]) -> State | None:
        """The position, when every player has what a flow seats a player with (a wonder, a board),
        though other parts may have been refused: what is left of them is known to the pack."""
        arranged = game.kind.scenario
        seated_by = {"wonder"} & set(arranged.fields) | {HOLDS[BOARD]} & arranged.takes
        if not all(seated_by <= held.keys() for held in holdings):
            return None
        state = State(game, game.seed)
        state.phase = OVER  # a stage that copies in play copies what `copies` says, not what arranging offers
        game.flow.arrange(state, holdings)
        for seat, held in enumerate(holdings):
            state.players[seat].tucked = [game.catalogue.cards[c] for c in held.get("under_stages", ())]
            if held.get("copies"):
                self.enter_copies(state, seat, held["copies"], names[seat])
        return state

    def enter_copies(self, state: State, seat: int, copies: list[str], name: str) -> None:
        """The neighbours' stages the seat's stages copied in play (`copies`), entered as play enters
        them: each one that a built stage of theirs copying in play may copy, at most one per such stage
        (any number where one copies at each of its trigger's events)."""
        player = state.players[seat]
        copiers = [(e.trigger, a.args.sides) for i in sorted(player.raised) for e in player.side.stages[i].effects
                   for a in e.actions if a.verb == COPY_STAGE and e.trigger != END]
        offered = {s.id: s for _, sides in copiers for s in state.stages_to_copy(seat, sides)}
        most = None if any(trigger is not None for trigger, _ in copiers) else len(copiers)
        for j, stage in enumerate(copies):
            at = ("players", seat, "copies", j)
            if most is not None and j >= most:
                self.error(STAGES, f"{name}'s built stages copy {most} stage{'s' * (most != 1)} in play, not "
                           f"{len(copies)}", at, "list one copied stage per built stage that copies")
            elif stage not in offered:
                self.error(STAGES, f"{stage} is no stage that {name}'s built stages may copy in play", at,
                           f"they may copy: {one_of(offered) or 'none (a neighbour must have built one)'}")
            else:
                state.enter(seat, offered[stage])

    def ordered(self) -> list[Diagnostic]:
        here = self.source.path
        return sorted(self.diagnostics, key=lambda d: (d.file != here, d.line, d.column))

    # -- across the table (reach.py)
    def check_table(self, game: Game, holdings: list[dict], names: list[str]) -> None:
        """What the players hold together: no more copies of a card than the game deals, objectives
        some laying out let them win, military tokens some battles give. Run on the table the
        scenario gives only (`exact`): the game is loaded for its player count."""
        n = game.players
        if self.cities and (all("wonder" in h for h in holdings) or not game.rules.setup.wonder_decks):
            sides = [game.catalogue.sides[h["wonder"], h["side"]] for h in holdings if "wonder" in h]
            supply = game.flow.supply(sides)
            self.refuse(over_supply(supply, n, [(names[s], self.cities.get(s, [])) for s in range(n)]))
            if supply.turns and len(sides) == n:
                self.check_turns(game, supply, sides, holdings, names)
        spec = game.rules.objectives
        if spec is not None and spec.kind in self.placed:
            middle, option = objectives_in_middle(game)
            noun = self.noun(game, spec.kind)
            shareable = frozenset(pid for pid, piece in game.catalogue.others[spec.kind].items() if piece.shareable)
            self.refuse(unplaced_objectives(Layout.around(names, spec.between_neighbours, middle, noun, option,
                                                          shareable),
                                            [self.placed[spec.kind].get(s, []) for s in range(n)]))
        # only battles of each pair of neighbours are judged, where no one sits out or hands defeats over
        rules = game.rules.military
        plain = rules is not None and not (rules.skip or rules.give_defeats or rules.among != NEIGHBOURS)
        if plain and spec is not None and spec.kind in self.placed:
            self.check_shared(game, names)
        # tokens of a value refused are left out: the battles are judged on all of them or not at all
        if plain and self.tokens and not any(d.code == MILITARY for d in self.diagnostics):
            self.refuse(impossible_tokens(Battles.of(game), names, [self.tokens.get(s, []) for s in range(n)]))

    def check_turns(self, game: Game, supply: Supply, sides: list[Side], holdings: list[dict],
                    names: list[str]) -> None:
        """No player holds more cards of a round's deck, or stages, than the turns they play give
        (reach.py `over_turns`), with what their powers play besides; none is judged when a power
        gives cards to others. The cards refused already are left out: one mistake, one error."""
        effects = [[*side.board.effects, *game.flow.everyone.effects,
                    *(e for n in h.get("stages", ()) for e in side.stages[n - 1].effects),
                    *(e for c in h.get("cards", ()) for e in game.catalogue.cards[c].effects)]
                   for side, h in zip(sides, holdings)]
        if any(a.verb == "give" for mine in effects for a in actions(mine)):
            return
        stages = [e for side, h in zip(sides, holdings) for n in h.get("stages", ())
                  for e in side.stages[n - 1].effects]
        period = game.rules.round_period or "round"
        for seat, (mine, held) in enumerate(zip(effects, holdings)):
            if any(a.verb == "copy_stage" for a in actions(mine)):  # any stage built may be copied
                mine = mine + stages
            extra = extra_plays(mine, len(supply.turns), period)
            if extra is not None:
                at = ("players", seat) + (("stages",) if "stages" in self.data["players"][seat] else ())
                cards = [(path, card) for path, card in self.cities.get(seat, []) if path not in self.blamed]
                tucked = len(held.get("under_stages", ()))  # a card under a stage is that stage's play
                self.refuse(over_turns(supply, period, names[seat], cards,
                                       (at, len(held.get("stages", ())) - tucked), extra))

    def check_shared(self, game: Game, names: list[str]) -> None:
        """Objectives several players hold: some battle lets them all meet it at once (reach.py)."""
        kind = game.rules.objectives.kind
        pieces, holders = game.catalogue.others[kind], {}
        for seat in range(len(names)):
            for path, pid in self.placed[kind].get(seat, []):
                holders.setdefault(pid, {}).setdefault(seat, path)
        shared = [(pieces[pid], [(path, seat) for seat, path in held.items()])
                  for pid, held in holders.items() if len(held) > 1 and pieces[pid].shareable]
        if shared:
            self.refuse(unshared_battle(self.noun(game, kind), names, shared, Battles.of(game), self.lasting(game)))

    def check_objectives(self, game: Game, state: State, names: list[str]) -> None:
        """No objective held whose condition its holder never met (reach.py `unmet_objectives`), but
        those refused already."""
        spec = game.rules.objectives
        if spec is None or spec.kind not in self.placed:
            return
        pieces = game.catalogue.others[spec.kind]
        held = [[(path, pieces[pid]) for path, pid in self.placed[spec.kind].get(s, []) if path not in self.blamed]
                for s in range(len(names))]
        self.refuse(unmet_objectives(self.noun(game, spec.kind), names, held, state, self.lasting(game)))

    def lasting(self, game: Game) -> Lasting:
        """What only grows in a game of the pack, worked out once per scenario."""
        if getattr(self, "_lasting", None) is None:
            self._lasting = Lasting(game.pack)
        return self._lasting

    def noun(self, game: Game, kind: str) -> str:
        """What the scenario's field calls a piece of a kind (`medal`)."""
        return next((p.get(NOUN, kind) for p in PLAYER_FIELDS.values()
                     if p.get(PIECES) and rule(game.pack.rules, p[PIECES]) == kind), kind)

    def check_end(self, game: Game, state: State, names: list[str]) -> None:
        """At most one player meets an end condition that only one player's own turn can meet."""
        ending = game.flow.sole_end
        if ending is None:
            return
        seats = [s for s in range(len(state.players)) if ending(state, s)]
        if len(seats) < 2:
            return
        text = show(ending.tree)
        who = ", ".join(names[s] for s in seats[:-1]) + f" and {names[seats[-1]]}"
        for seat in seats[1:]:
            here = ("players", seat) + (("stages",) if "stages" in self.data["players"][seat] else ())
            self.error(STAGES, f"{who} {'both' if len(seats) == 2 else 'all'} meet the game's end, `{text}`: the "
                               "game ends at the end of the turn in which the first of them does", here,
                       f"a turn is one player's, and only they build stages in it: leave `{text}` to "
                       f"{names[seats[0]]} alone, say")

    # -- the game
    def game(self, data: dict, players: int) -> Game | None:
        """The game the scenario names, for its player count; None (with a diagnostic) if unusable."""
        name = data["game"]
        beside = self.path.parent / name  # a pack folder named relative to the scenario file
        target = str(beside) if find_pack(str(beside)) is not None else name
        if find_pack(target) is None:
            shipped = [p.name for p in shipped_packs()]
            self.error(GAME, f"no pack '{name}'", ("game",),
                       did_you_mean(name, shipped) or f"give a pack folder or one of: {', '.join(shipped)}")
            return None
        try:
            pack = load_pack(target)
        except LoadError as err:
            errors = [d for d in err.diagnostics if d.severity == "error"]
            self.error(GAME, f"pack '{name}' has {len(errors)} error{'s' * (len(errors) != 1)}", ("game",),
                       f"run `wonderforge check {target}`; its errors follow")
            self.diagnostics += err.diagnostics
            return None
        bounds = pack.rules.get("players") or {}
        least, most = bounds.get("min", 1), bounds.get("max", players)
        if not least <= players <= most:
            self.error(PLAYERS, f"{pack.id} plays with {least} to {most} players, not {players}", ("players",))
            players = min(max(players, least), most)  # to check each holding on its own
            self.exact = False
        try:
            game = load_game(pack, players=players)
        except GameError as err:
            self.error(GAME, str(err), ("game",))
            return None
        options = data.get("options")
        if isinstance(options, dict) and options:
            try:
                game = load_game(pack, players=players, **options)
            except GameError as err:
                self.error(GAME, str(err), ("options",))
                self.exact = False
        return game

    # -- the players' lists, bounded
    def bounded(self, i: int, player: dict, name: str) -> dict:
        """The player without the lists longer than any position holds, each of them one error:
        read item by item, a list of thousands would give thousands of errors."""
        out = dict(player)
        for field, value in player.items():
            if isinstance(value, (list, dict)) and len(value) > MAX_SCENARIO_ITEMS:
                self.error(FIELD, f"{name}'s {field} lists {len(value):,} items: no position holds more than "
                                  f"{MAX_SCENARIO_ITEMS:,}", ("players", i, field),
                           f"list what {name} holds, each piece once per copy held")
                del out[field]
        return out


def _bound(err: jsonschema.ValidationError, where: str) -> str | None:
    """Messages for the schema's bounds, in the words of the others."""
    n = err.validator_value
    if err.validator == "minItems":
        return f"{where} needs at least {n} item{'s' * (n != 1)}"
    if err.validator == "maxItems":
        return f"{where} holds at most {n} items, not {len(err.instance)}"
    if err.validator == "minimum":
        return f"{where} must be at least {n}, not {err.instance}"
    if err.validator == "minLength":
        return f"{where} must not be empty"
    return None


def _fields(d: Diagnostic) -> tuple:
    return (d.message, d.file, d.line, d.column, d.end_line, d.end_column, d.hint, d.severity, d.source)


def _where(data: Any, path: tuple) -> str:
    """A path as the author reads it: `alice.coins`, `players[2].cards[1]`."""
    out = ""
    for step in path:
        if isinstance(data, list) and isinstance(step, int) and step < len(data):
            data = data[step]
            label = data.get("name") if isinstance(data, dict) else None
            out = label if out == "players" and isinstance(label, str) else f"{out}[{step}]"
        elif isinstance(data, dict):
            data = data.get(step)
            out += f".{step}"
        out = out.lstrip(".")
    return out or "the scenario"


__all__ = ["Scenario", "load_scenario"]

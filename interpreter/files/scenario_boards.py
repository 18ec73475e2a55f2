"""The checks of a scenario's boards of boxes (the dice game): the board each player plays, the boxes
checked per building and track, the dice unlocked, the bonuses taken, and the buildings completed
first, each within what the board has and what the boxes checked give (reach.py's `unreached_boxes`).
"""

from __future__ import annotations

from typing import Any

from ...dsl.diagnostics import did_you_mean, one_of
from ..games.game import Game
from ..packs.boards import Boards, Building
from .reach import unreached_boxes
from .scenario_fields import (BOARD, BOARD_CODE, BOARD_NOTES, BONUS, BONUSES, BOX, BOXES, DICE, DIE, DUPLICATE, FIELD,
                              FIRST, FIRST_CODE, HOLDS, PLAYER_FIELDS, Checks, field_for, is_count, rule)


class BoardChecks(Checks):
    """Each player's board of boxes, checked; mixed into the scenario's reader (scenario.py)."""

    def board(self, game: Game, at: tuple, player: dict, name: str) -> dict:
        """A player's board, the boxes checked on it, the dice unlocked, the bonuses taken and the
        buildings completed first, as the flow's `arrange` takes them."""
        field = {note: field_for(note) for note in BOARD_NOTES}
        kind = PLAYER_FIELDS[field[BOARD]][BOARD]
        boards = self.boards_of(game)
        seat, held = at[1], {}
        board = player.get(field[BOARD])
        if board is None:
            self.error(FIELD, f"{name} has no {field[BOARD]}", at,
                       f"add `{field[BOARD]}:`, one of: {one_of(boards.boards)}")
        elif isinstance(board, str) and board not in boards.boards:
            self.error(BOARD_CODE, f"unknown {field[BOARD]} '{board}'", at + (field[BOARD],),
                       did_you_mean(board, boards.boards) or f"the {kind} of {game.pack.id}: {one_of(boards.boards)}")
        elif isinstance(board, str):
            if board in self.boards:
                first = self.data["players"][self.boards[board]].get("name", f"player {self.boards[board] + 1}")
                self.error(DUPLICATE, f"{first} and {name} both play {board}", at + (field[BOARD],),
                           f"the game has one {field[BOARD]} of each city")
            self.boards.setdefault(board, seat)
            held[HOLDS[BOARD]] = board
        known = HOLDS[BOARD] in held
        buildings = boards.buildings(board) if known else dict(boards.shared)
        where = board if known else None
        held[HOLDS[BOXES]] = self.boxes(at + (field[BOXES],), player.get(field[BOXES]), buildings, where, seat)
        held[HOLDS[DICE]] = self.dice(game, at + (field[DICE],), player.get(field[DICE]), boards)
        held[HOLDS[BONUSES]] = self.bonuses(game, at, field[BONUSES], player.get(field[BONUSES]), buildings,
                                            seat, name, known)
        claims = self.claims[seat] = []
        firsts = player.get(field[FIRST])
        for j, building in enumerate(firsts if isinstance(firsts, list) else ()):
            if not isinstance(building, str):
                continue
            item = at + (field[FIRST], j)
            found = buildings.get(building)
            if found is None:
                if known or building in boards.shared:
                    self.error(FIRST_CODE, f"{where or 'the board'} has no building '{building}'", item,
                               did_you_mean(building, buildings) or f"its buildings: {one_of(buildings)}")
            elif not found.first_bonus:
                firsts = [b for b, f in buildings.items() if f.first_bonus]
                self.error(FIRST_CODE, f"{building} gives nothing to the first player to complete it", item,
                           f"buildings with a first bonus: {one_of(firsts) if firsts else 'none'}")
            elif building in self.unsure[seat].keys() - self.completed[seat]:
                self.doubts.setdefault(seat, []).extend(found.first_bonus)  # its boxes were refused: not judged
            elif building not in self.completed[seat]:
                self.error(FIRST_CODE, f"{name} has not completed {building}: not all of its boxes are checked",
                           item, f"check all {len(found.boxes())} of its boxes under `{field[BOXES]}:`")
            elif building in (b for _, b in claims):
                self.error(DUPLICATE, f"{building} is listed twice", item, "a building is completed once")
            else:
                claims.append((j, building))
        if known:
            given = player.get(field[DICE]) if isinstance(player.get(field[DICE]), list) else []
            listed = [(at + (field[DICE], given.index(die)), die) for die in held[HOLDS[DICE]]]
            extra = [e for n in held[HOLDS[BONUSES]] for e in game.rules.bonuses[n - 1]] + \
                [e for _, b in claims for e in buildings[b].first_bonus] + self.doubts.get(seat, []) + \
                [e for b, tracks in self.unsure[seat].items() for t in tracks for box in buildings[b].tracks[t]
                 for e in box.effects]
            self.refuse(unreached_boxes(name, at + (field[BOXES],), buildings, held[HOLDS[BOXES]],
                                        game.flow.openers(board), set(boards.dice) - game.flow.reserve, listed, extra))
        return held

    def boards_of(self, game: Game) -> Boards:
        if self.read_boards is None:
            self.read_boards = Boards.read(game.pack)
        return self.read_boards

    def boxes(self, at: tuple, given: Any, buildings: dict[str, Building], board: str | None, seat: int) -> dict:
        """The boxes checked per building (and track), each within what the building has; a building
        in sequence from its first box. Notes the buildings completed."""
        completed = self.completed[seat] = set()
        unsure = self.unsure[seat] = {}
        if not isinstance(given, dict):
            return {}
        checked: dict = {}
        for building_id, value in given.items():
            where = at + (building_id,)
            building = buildings.get(building_id)
            if building is None:
                if board is not None:
                    self.error(BOX, f"{board} has no building '{building_id}'", where,
                               did_you_mean(building_id, buildings) or f"its buildings: {one_of(buildings)}", key=True)
                    unsure.update((b, set(other.tracks)) for b, other in buildings.items())  # it may be any
                continue
            found, doubtful = self.building_boxes(where, value, building)
            if doubtful:
                unsure[building_id] = doubtful
            if found is None:
                continue
            checked[building_id] = found
            picked = found if isinstance(found, dict) else {"": found}
            if all(len(_numbers(picked.get(t, 0))) == len(boxes) for t, boxes in building.tracks.items()):
                completed.add(building_id)
        return checked

    def building_boxes(self, where: tuple, value: Any, building: Building) -> tuple[Any, set[str]]:
        """One building's boxes checked: a count or numbers, or either by track (None when wrong);
        and the tracks of which some boxes given were refused (all of them when it is unknown which)."""
        tracks, bid = building.tracks, building.id
        if isinstance(value, dict):
            if set(tracks) == {""}:
                self.error(BOX, f"{bid} has no tracks: give the number of its boxes checked, or their numbers",
                           where, f"e.g. `{bid}: 2` for its first 2 boxes")
                return None, set(tracks)
            by_track, doubtful = {}, set()
            for track, boxes in value.items():
                if track not in tracks or track == "":
                    named = [t for t in tracks if t]
                    self.error(BOX, f"{bid} has no track '{track}'", where + (track,),
                               did_you_mean(str(track), named) or f"its tracks: {', '.join(named)}", key=True)
                    doubtful |= set(tracks)
                    continue
                numbers = self.numbers(where + (track,), boxes, building, track)
                if numbers is None:
                    doubtful.add(track)
                else:
                    by_track[track] = numbers
            return by_track, doubtful
        if "" not in tracks:
            self.error(BOX, f"{bid}'s boxes lie on tracks ({', '.join(tracks)}): give them track by track", where,
                       f"e.g. `{bid}: {{{next(iter(tracks))}: 2}}` for the first 2 boxes of that track")
            return None, set(tracks)
        numbers = self.numbers(where, value, building, "")
        if numbers is None:
            return None, {""}
        return (numbers if set(tracks) == {""} else {"": numbers}), set()

    def numbers(self, where: tuple, value: Any, building: Building, track: str) -> int | list[int] | None:
        """Boxes of one track: a count from the first, or their numbers (from the first, none
        skipped, when the building goes in sequence); None when wrong."""
        size = len(building.tracks[track])
        label = f"{building.id}'s track {track}" if track else building.id
        if is_count(value):
            if value > size:
                self.error(BOX, f"{label} has {size} box{'es' * (size != 1)}, not {value}", where)
                return None
            return value
        if not isinstance(value, list):
            return None  # the schema reports it
        listed: dict[int, int] = {}
        ok = True
        for j, number in enumerate(value):
            if not is_count(number) or number < 1:
                ok = False
                continue  # the schema reports it
            if number > size:
                self.error(BOX, f"{label} has no box {number}: its boxes are 1 to {size}", where + (j,))
                ok = False
            elif number in listed:
                self.error(DUPLICATE, f"box {number} is listed twice", where + (j,),
                           f"the first is item {listed[number] + 1}; a box is checked once")
                ok = False
            else:
                listed[number] = j
        if building.in_order:
            gap = next((n for n in range(1, size + 1) if n not in listed), None)
            later = sorted(n for n in listed if gap is not None and n > gap)
            if later:
                self.error(BOX, f"{label}'s boxes are checked in order: box {later[0]} cannot be checked "
                                f"before box {gap}", where + (listed[later[0]],),
                           f"add box {gap}; a number N stands for the first N boxes")
                ok = False
        return sorted(listed) if ok else None

    def dice(self, game: Game, at: tuple, given: Any, boards: Boards) -> list[str]:
        """Dice unlocked: known, each once, and such that some box unlocks them."""
        if not isinstance(given, list):
            return []
        every = [b for building in (*boards.shared.values(), *(b for own in boards.boards.values()
                                                               for b in own.values())) for b in building.boxes()]
        unlockable = sorted({a.args.die for box in every for e in box.effects for a in e.actions
                             if a.verb == "unlock"})
        held: list[str] = []
        for j, die in enumerate(given):
            if not isinstance(die, str):
                continue
            if die not in boards.dice:
                self.error(DIE, f"unknown die '{die}'", at + (j,),
                           did_you_mean(die, boards.dice) or f"the dice of {game.pack.id}: {one_of(boards.dice)}")
            elif die not in unlockable:
                self.error(DIE, f"the {die} die is never unlocked: no box unlocks it", at + (j,),
                           f"dice that boxes unlock: {', '.join(unlockable) or 'none'}")
            elif die in held:
                self.error(DUPLICATE, f"the {die} die is listed twice", at + (j,), "a die is unlocked once")
            else:
                held.append(die)
        return held

    def bonuses(self, game: Game, at: tuple, field: str, given: Any, buildings: dict[str, Building], seat: int,
                name: str, known: bool) -> list[int]:
        """Bonuses taken, by number: each once, no more than the completed buildings that give one
        (or than those whose boxes were refused may give: such bonuses are doubts, not refused)."""
        if not isinstance(given, list):
            return []
        bonuses = rule(game.pack.rules, PLAYER_FIELDS[field][BONUSES]) or []
        earned = sorted(b for b in self.completed[seat] if buildings[b].completion_bonus)
        maybe = [b for b in self.unsure[seat].keys() - self.completed[seat] if buildings[b].completion_bonus]
        taken: list[int] = []
        doubted: list[int] = []
        doubts = self.doubts.setdefault(seat, [])
        for j, number in enumerate(given):
            if not is_count(number) or number < 1:
                continue  # the schema reports it
            if number > len(bonuses):
                self.error(BONUS, f"there is no bonus {number}: the bonuses are 1 to {len(bonuses)}", at + (field, j),
                           "; ".join(f"{i}. {_one_line(b)}" for i, b in enumerate(bonuses, 1)))
                doubts += [e for bonus in game.rules.bonuses for e in bonus]  # it may be any of them
            elif number in taken or number in doubted:
                self.error(DUPLICATE, f"bonus {number} is listed twice", at + (field, j), "a bonus is taken once")
            elif known and len(taken) >= len(earned) and len(taken) + len(doubted) < len(earned) + len(maybe):
                doubted.append(number)
                doubts += game.rules.bonuses[number - 1]
            elif known and len(taken) >= len(earned):
                message = (f"{name} has {len(earned)} bonus{'es' * (len(earned) != 1)} to take from completed "
                           f"buildings ({', '.join(earned)}), not {len(taken) + 1}" if earned else
                           f"{name} took a bonus without completing a building that gives one")
                self.error(BONUS, message, at + (field, j),
                           "a bonus is taken on completing a building that gives one: check all of its boxes "
                           "under `boxes:`, or remove the bonus")
            else:
                taken.append(number)
        return taken

    def check_firsts(self, game: Game, holdings: list[dict], names: list[str]) -> None:
        """Who completed each building with a first bonus first: the one player who completed it,
        or those who say so when several did (several may: all who completed it in the same round,
        the first round anyone did, were first, as the players act at once)."""
        field = field_for(FIRST)
        boxes = field_for(BOXES)
        boards = self.boards_of(game)
        claimed = {building for claims in self.claims.values() for _, building in claims}
        for building_id, building in boards.shared.items():
            if not building.first_bonus:
                continue
            done = [s for s, built in sorted(self.completed.items()) if building_id in built]
            if building_id in claimed or not done:
                continue
            if len(done) == 1:
                holdings[done[0]].setdefault(HOLDS[FIRST], []).append(building_id)
                continue
            who = ", ".join(names[s] for s in done[:-1]) + f" and {names[done[-1]]}"
            self.error(FIRST_CODE, f"{who} {'both' if len(done) == 2 else 'all'} completed {building_id}: "
                                   f"say who was first",
                       ("players", done[-1], boxes, building_id),
                       f"give `{field}: [{building_id}]` to the player who completed it first (to each, if "
                       "several did in the same round)", key=True)
        for seat, held in enumerate(holdings):
            if seat in self.claims:
                held.setdefault(HOLDS[FIRST], []).extend(b for _, b in self.claims[seat])


def _numbers(value: Any) -> list[int]:
    """Box numbers from a count (the first N) or a list."""
    return list(range(1, value + 1)) if is_count(value) else list(value or ())


def _one_line(text: Any) -> str:
    return "; ".join(line.strip() for line in str(text or "").splitlines() if line.strip())


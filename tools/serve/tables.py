"""The games a server plays (a `Table` each) and their logs in the data folder.

Each game is a log in the engine's format (interpreter/files/log.py), `ID.jsonl`, appended as each
action is played and closed with the result; its seats' secret tokens lie beside it in
`ID.seats.json`. A server started again on the same folder replays every log and goes on: the
seed and the actions give the same position. An idle game expires: it leaves the server and its
files are renamed `ID.expired.*` (kept, not played again).
"""

from __future__ import annotations

import json
import os
import random
import secrets
import threading
import time
from pathlib import Path
from typing import Sequence

from ...dsl.diagnostics import safe
from ...interpreter.bots.botfile import pack_bots
from ...interpreter.bots.registry import BOTS, BotFileError, bot_file_paths, bot_for, bot_rngs
from ...interpreter.core.state import State
from ...interpreter.files import log as gamelog
from ...interpreter.games.game import Game, GameError
from ...interpreter.games.check import load_pack
from ...interpreter.games.loading import load_game
from ...interpreter.packs.folders import shipped_packs
from ...interpreter.packs.model import LoadError
from ..common.arguments import Usage
from ..study.simulate import typed_options

PERSON = "person"  # a seat played by someone through its page, as the start page names it
MAX_GAMES = 20     # unfinished games at once (`serve --max-games`)
IDLE_HOURS = 24.0  # an unfinished game untouched this long expires (`serve --idle`)


class Refused(Exception):
    """A request that cannot be carried out: the message (and hint) for the one who sent it, and
    the HTTP status that says so."""

    def __init__(self, message: str, hint: str = "", status: int = 400):
        super().__init__(message)
        self.hint, self.status = hint, status


class Table:
    """One game on the server: its state, who plays each seat, the seats' tokens and its log."""

    def __init__(self, id: str, pack: str, state: State, seats: Sequence[str | None],
                 tokens: Sequence[str | None], path: Path):
        self.id, self.pack, self.state, self.path = id, pack, state, path
        self.game: Game = state.game
        self.seats = list(seats)     # a bot's name per seat, None for a person
        self.tokens = list(tokens)   # a person's secret per seat
        self.touched = time.time()
        self.lock = threading.Lock()  # one action at a time, whichever thread carries it
        # bots draw as `bots.play` seeds them; a game replayed from its log reseeds them at its step
        step = len(state.history)
        self.rngs = bot_rngs(state) if not step else \
            [random.Random(f"{state.seed}/{seat}/{step}") for seat in range(len(seats))]

    @property
    def step(self) -> int:
        """How many actions have been played: what an action sent from a page must name."""
        return len(self.state.history)

    def admits(self, seat: int, token: str) -> bool:
        """Whether `token` is the secret of that seat (a person's)."""
        return 0 <= seat < len(self.tokens) and self.tokens[seat] is not None and \
            secrets.compare_digest(self.tokens[seat].encode(), token.encode())

    def act(self, seat: int, step: int, index: int) -> None:
        """The person at `seat` plays their `index`-th legal action, seen at `step`; then the bots
        play until a person must act. Raises Refused, the game unchanged, for a stale or illegal one."""
        with self.lock:
            state = self.state
            if state.is_terminal():
                raise Refused("the game is over")
            if step != self.step:
                raise Refused("the game has moved on since that action was offered", "choose again from the page")
            if seat not in state.current_players():
                raise Refused("it is not your turn", "wait for the others")
            actions = state.legal_actions(seat)
            if not 0 <= index < len(actions):
                raise Refused(f"there is no action {index}", f"choose one from 0 to {len(actions) - 1}")
            self._apply(seat, actions[index])
            self._bots_play()

    def start(self) -> None:
        """Let the bots play until a person must act (at the start, or on a replayed game)."""
        with self.lock:
            self._bots_play()

    def _bots_play(self) -> None:
        state = self.state
        while not state.is_terminal():
            bots = [s for s in state.current_players() if self.seats[s] is not None]
            if not bots:
                return
            for seat in bots:
                bot = bot_for(self.game, self.seats[seat])
                self._apply(seat, bot.act(state, seat, state.legal_actions(seat), self.rngs[seat]))

    def _apply(self, seat: int, action) -> None:
        state = self.state
        line = gamelog.action_line(self.game, self.step, seat, action)
        state.apply(seat, action)
        self.touched = time.time()
        _append(self.path, [line] + ([gamelog.result_line(state)] if state.is_terminal() else []))

    def summary(self) -> dict:
        """What the list of games shows of it (nothing hidden: counts and, at the end, scores)."""
        state = self.state
        return {"id": self.id, "pack": self.game.pack.name, "players": self.game.players, "step": self.step,
                "seats": [PERSON if s is None else s for s in self.seats], "finished": state.is_terminal(),
                "scores": [s["total"] for s in state.scores()] if state.is_terminal() else None}


class Tables:
    """The games of one server, kept in `folder`; the packs it offers (shipped ids and the folders
    given to `serve`) and the bot files its seats may name."""

    def __init__(self, folder: Path, packs: Sequence[str] = (), bot_files: Sequence[str] = (),
                 max_games: int = MAX_GAMES, idle_hours: float = IDLE_HOURS):
        self.folder = Path(folder)
        # what a game may be started with, as its log names it: a shipped id, or a folder's whole path
        self.packs = [p.name for p in shipped_packs()] + [Path(p).resolve().as_posix() for p in packs]
        self.bot_files = set(bot_files)
        self.max_games, self.idle = max_games, idle_hours * 3600
        self.tables: dict[str, Table] = {}
        self._offered: list[dict] | None = None

    def open(self) -> list[str]:
        """Read the folder's games again (made if missing); the warnings for logs that could not be."""
        self.folder.mkdir(parents=True, exist_ok=True)
        warnings = []
        for path in sorted(self.folder.glob("*.jsonl")):
            if path.name.endswith(".expired.jsonl"):
                continue
            try:
                table = self._restore(path)
            except (gamelog.LogError, OSError, ValueError, KeyError, TypeError) as err:
                reason = err.diagnostic.message if isinstance(err, gamelog.LogError) else str(err)
                warnings.append(safe(f"{path}: not resumed: {reason}"))
                continue
            self.tables[table.id] = table
        return warnings

    def _restore(self, path: Path) -> Table:
        _whole_lines(path)  # a line torn by a kill mid-write is dropped
        log = gamelog.read(path)
        game, _ = gamelog.game_of(log)
        state = gamelog.replay(log, game)
        header = json.loads(path.read_text(encoding="utf-8").split("\n", 1)[0])
        tokens = json.loads(_seats_file(path).read_text(encoding="utf-8"))["tokens"]
        table = Table(path.name.removesuffix(".jsonl"), log.pack, state, header["bots"], tokens, path)
        table.start()  # bots owed a move when the server stopped make it now
        return table

    def create(self, pack: str, players: int, seats: Sequence[str], options: dict | None = None,
               wonders: str | None = None, seed: int | None = None) -> Table:
        """A new game; each seat is PERSON or a bot's name. Raises Refused for what cannot be played."""
        self.expire()
        if sum(not t.state.is_terminal() for t in self.tables.values()) >= self.max_games:
            raise Refused(f"too many games: this server plays {self.max_games} at once", "finish or wait for one",
                          status=429)
        if pack not in self.packs:
            raise Refused(f"no pack {pack!r} on this server", f"packs: {', '.join(self.packs)}")
        seed = secrets.randbelow(1 << 31) if seed is None else seed
        # options as `simulate --options` takes them: each of the type of its default
        words = {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in (options or {}).items()}
        try:
            loaded = load_pack(pack)
            game = load_game(loaded, players=players, seed=seed, wonders=wonders or None,
                             **typed_options(loaded, words))
        except LoadError:
            raise Refused(f"the pack {pack!r} has errors", f"wonderforge check {pack}") from None
        except (GameError, Usage) as err:
            raise Refused(str(err), getattr(err, "hint", "") or "") from None
        bots = self._seats(game, seats)
        table_id = secrets.token_hex(8)
        path = self.folder / f"{table_id}.jsonl"
        tokens = [secrets.token_urlsafe(24) if b is None else None for b in bots]
        try:
            state = game.new_state()
        except GameError as err:
            raise Refused(str(err)) from None
        _seats_file(path).write_text(json.dumps({"tokens": tokens}), encoding="utf-8")
        os.chmod(_seats_file(path), 0o600)
        _append(path, [gamelog.header(game, pack) | {"seed": seed, "bots": bots}])
        table = self.tables[table_id] = Table(table_id, pack, state, bots, tokens, path)
        table.start()
        return table

    def _seats(self, game: Game, seats: Sequence[str]) -> list[str | None]:
        if len(seats) != game.players or not all(isinstance(s, str) for s in seats):
            raise Refused(f"say who plays each of the {game.players} seats", f"{PERSON} or a bot's name")
        if PERSON not in seats:
            raise Refused("no seat is played by a person", "make one seat a person")
        files = set(bot_file_paths(s for s in seats if s != PERSON)) - self.bot_files
        if files:
            raise Refused(f"bot file {sorted(files)[0]!r} was not given to this server",
                          "start it with `wonderforge serve --bot-file FILE`")
        for name in set(seats) - {PERSON}:
            try:
                bot_for(game, name)
            except BotFileError as err:
                raise Refused(str(err), "wonderforge check PACK --bots FILE lists them") from None
            except ValueError as err:
                raise Refused(str(err)) from None
        return [None if s == PERSON else s for s in seats]

    def get(self, table_id: str) -> Table | None:
        """The game of that id, if the server holds it."""
        return self.tables.get(table_id)

    def expire(self, now: float | None = None) -> list[str]:
        """Drop the unfinished games idle too long (their files renamed `.expired`); their ids."""
        now = time.time() if now is None else now
        gone = [t for t in self.tables.values() if not t.state.is_terminal() and now - t.touched > self.idle]
        for table in gone:
            del self.tables[table.id]
            for path in (table.path, _seats_file(table.path)):
                if path.exists():
                    path.rename(path.with_name(path.name.replace(table.id, f"{table.id}.expired", 1)))
        return [t.id for t in gone]

    def listing(self) -> list[dict]:
        """Every game held, the latest first."""
        return [t.summary() for t in sorted(self.tables.values(), key=lambda t: -t.touched)]

    def offered(self) -> list[dict]:
        """The packs a game may be started with: what the start page needs to ask for one."""
        if self._offered is not None:
            return self._offered
        out = self._offered = []
        for key in self.packs:
            try:
                game = load_game(key)
            except (LoadError, GameError):
                continue
            rules, components = game.pack.rules, game.pack.components
            out.append({"key": key, "name": game.pack.name, "players": rules["players"],
                        "options": {k: v.get("default") for k, v in (rules.get("options") or {}).items()
                                    if isinstance(v, dict)},
                        "wonders": sorted(components.get("wonders", {})),
                        "bots": _bot_names(game) + sorted(self.bot_files)})
        return out


def _bot_names(game: Game) -> list[str]:
    return list(BOTS) + sorted(pack_bots(game.pack)[0])


def _seats_file(log: Path) -> Path:
    return log.with_name(log.name.removesuffix(".jsonl") + ".seats.json")


def _append(path: Path, lines: list[dict]) -> None:
    """Lines added to a log, on disk before the action is told (one write: a kill tears one line at most)."""
    with open(path, "a", encoding="utf-8") as out:
        gamelog.write(out, lines)


def _whole_lines(path: Path) -> None:
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        with open(path, "r+b") as f:
            f.truncate(data.rfind(b"\n") + 1)


def default_folder() -> Path:
    """Where games are kept without `--data`: the user's data folder, else ./wonderforge-games."""
    base = os.environ.get("XDG_DATA_HOME") or (Path.home() / ".local" / "share" if Path.home().is_dir() else None)
    return Path(base) / "wonderforge" / "games" if base else Path("wonderforge-games")

"""Watch a game again: the frames of a replay viewer, from a log (`play --log`, a server's game) or
from a `simulate --out` line (played again from its seed and bots), and the viewer as one
self-contained page (`wonderforge replay LOG --html FILE`).

A frame is the position after an action: each seat's view (`State.observation`, what the seat's
page is shown) and, where the whole game may be shown (`everything`), all of them together. The
score after each period (a round, an age) is kept beside. A long game keeps about MAX_FRAMES
frames: every k-th action's, each period's start and the last (the page says so).
"""

from __future__ import annotations

import json
import math
import tempfile
from pathlib import Path
from typing import Sequence

from ...dsl.limits import MAX_LOG_BYTES, MAX_LOG_LINE_CHARS
from ...interpreter.bots.registry import play
from ...interpreter.core.actions import Action
from ...interpreter.core.state import State
from ...interpreter.files import log as gamelog
from ...interpreter.games.game import Game
from ...interpreter.games.loading import load_game
from .seats import pieces
from .tables import Refused, Table, Tables

MAX_FRAMES = 300  # frames in one replay, whatever the game's length: bounds the page and the reply
STATIC = Path(__file__).parent / "static"
ALL = -1  # the seat of the view of everything


class ReplayError(Exception):
    """A file that holds no game to watch: the message and a hint."""

    def __init__(self, message: str, hint: str = ""):
        super().__init__(message)
        self.hint = hint


def frames(game: Game, seed: int, actions: Sequence[tuple[int, Action]], names: Sequence[str],
           seats: Sequence[int] | None = None, everything: bool = True, title: str = "") -> dict:
    """The replay of `actions` from `seed`: per kept frame, the step, the period, the action that led
    there (when everything is shown) and the views of `seats` (all by default); the totals at each
    period's start and at the end; the final scores when the game is over."""
    state = game.new_state(seed)
    seats = list(range(game.players) if seats is None else seats)
    stride = max(1, math.ceil((len(actions) + 1) / MAX_FRAMES))  # past MAX_FRAMES, every k-th is kept
    out, periods, last_round = [_frame(state, 0, None, seats, everything)], [], state.round
    for step, (seat, action) in enumerate(actions, 1):
        state.apply(seat, action)
        begins = state.round != last_round
        if begins:  # (`round` counts from 0: the period that ended is its number + 1)
            periods.append({"ended": last_round + 1, "step": step, "totals": state.totals()})
            last_round = state.round
        if begins or step % stride == 0 or step == len(actions):
            out.append(_frame(state, step, (seat, action), seats, everything))
    over = state.is_terminal()
    if over and (not periods or periods[-1]["step"] != len(actions)):
        periods.append({"ended": last_round + 1, "step": len(actions), "totals": state.totals()})
    return {"type": "replay", "title": title, "pack": game.pack.name, "names": list(names), "seats": seats,
            "everything": everything, "actions": len(actions), "kept": len(out), "frames": out,
            "periods": periods, "over": over, "pieces": _pieces(game, out),
            **({"scores": state.scores(), "winners": state.winners()} if over else {})}


def _frame(state: State, step: int, played: tuple[int, Action] | None, seats: list[int], everything: bool) -> dict:
    """A frame's views, what they share written once (`shared`): each view is its `keys`, in order,
    each from its own `views` entry if there, else from `shared` (see `view`)."""
    views = {str(seat): state.observation(seat) for seat in seats}
    if everything:
        views[str(ALL)] = everything_view(state)
    first = next(iter(views.values()))
    shared = {k: v for k, v in first.items() if all(k in w and w[k] == v for w in views.values())}
    frame = {"step": step, "period": state.round + 1, "shared": shared,
             "keys": {seat: list(v) for seat, v in views.items()},
             "views": {seat: {k: x for k, x in v.items() if k not in shared} for seat, v in views.items()}}
    if everything and played is not None:
        frame["played"] = {"seat": played[0], "action": str(played[1])}
    return frame


def view(frame: dict, seat: int) -> dict:
    """A seat's view in a frame (ALL: everything), whole again (as replay.js makes it)."""
    own = frame["views"][str(seat)]
    return {k: own[k] if k in own else frame["shared"][k] for k in frame["keys"][str(seat)]}


def everything_view(state: State) -> dict:
    """All seats' views as one: what every seat sees alike once, what differs per seat (a hand)
    under `KEY of seat N`, and each player as their own view shows them."""
    views = [state.observation(seat) for seat in range(len(state.players))]
    out: dict = {}
    for key, value in views[0].items():
        if key == "seat":
            continue
        if key == "players":
            out[key] = [views[p["seat"]]["players"][i] if isinstance(p, dict) and "seat" in p else p
                        for i, p in enumerate(value)]
        elif all(v.get(key) == value for v in views):
            out[key] = value
        else:
            out |= {f"{key} of seat {seat}": v.get(key) for seat, v in enumerate(views)}
    return out


def _pieces(game: Game, kept: list[dict]) -> dict:
    """The pack's data of every piece the kept frames name (once for the whole replay)."""
    out: dict = {}
    for frame in kept:
        for seen in (frame["shared"], *frame["views"].values()):
            out |= pieces(game, seen)
    return out


def seat_names(bots: Sequence[str | None]) -> list[str]:
    """How the viewer names the seats: by who played them."""
    return [f"seat {s} ({'person' if b is None else b})" for s, b in enumerate(bots)]


# ---- reading what to watch ---------------------------------------------------------------------


def of_log(log: gamelog.GameLog, game: Game) -> dict:
    """The replay of a read log, all shown (who holds a log can replay it all anyway), checked action
    by action: LogError where one is not legal."""
    actions = gamelog.replay(log, game).history
    bots = json.loads(log.header_text).get("bots") if log.header_text else None
    names = seat_names(bots if isinstance(bots, list) and len(bots) == log.players else ["?"] * log.players)
    return frames(game, log.seed, actions, names, title=f"{log.pack}, seed {log.seed}")


def of_record(rec: dict, folder: Path) -> dict:
    """The replay of a `simulate --out` line: the game played again from its pack, seed and bots
    (with the pack's default options: a line does not hold them; ReplayError when the scores then
    differ from the line's)."""
    try:
        pack, seed, bots = rec["pack"], rec["seed"], [s["bot"] for s in rec["seats"]]
        target = pack if "/" not in pack and "\\" not in pack else folder / pack
        game = load_game(target, players=len(bots), seed=seed)
        state = play(game, bots, seed=seed)
    except (KeyError, TypeError) as err:
        raise ReplayError(f"not a game of `simulate --out`: {err!r}"[:200], "give a line of an --out file") from None
    if "scores" in rec and state.scores() != rec["scores"]:
        raise ReplayError(f"the game of seed {seed} played again ends otherwise than the line says",
                          "was it played with options, wonders or another pack version? "
                          "`simulate --seed N --games 1` with them gives the line again")
    return frames(game, seed, state.history, seat_names(bots), title=f"{pack}, seed {seed} (simulate)")


def sample_page(game: Game, bots: Sequence[str], seed: int, title: str) -> str:
    """The viewer page of the game `bots` play from `seed` (a report's sample game: `game` holds the
    run's options and wonders)."""
    state = play(game, bots, seed=seed)
    return page(frames(game, seed, state.history, seat_names(bots), title=title))


def read_records(path: Path, seed: int | None) -> dict:
    """The `simulate --out` line of that seed (the first game when None) of a file; ReplayError."""
    with path.open(encoding="utf-8-sig") as lines:
        for n, raw in enumerate(iter(lambda: lines.readline(MAX_LOG_LINE_CHARS + 1), ""), 1):
            if len(raw) > MAX_LOG_LINE_CHARS:
                raise ReplayError(f"{path}: line {n} is longer than {MAX_LOG_LINE_CHARS:,} characters",
                                  "an --out line is a few KB")
            try:
                rec = json.loads(raw) if raw.strip() else None
            except ValueError:
                raise ReplayError(f"{path}: line {n} is not JSON", "give a log or a `simulate --out` file") from None
            if isinstance(rec, dict) and "seats" in rec and (seed is None or rec.get("seed") == seed):
                return rec
    raise ReplayError(f"{path}: no game {'of seed ' + str(seed) + ' ' if seed is not None else ''}in the file",
                      "`simulate --out` writes one line per finished game")


def is_log(path: Path) -> bool:
    """Whether a file is a game log (its first line a header) rather than `simulate --out` lines."""
    try:
        with path.open("rb") as f:
            first = f.read(min(MAX_LOG_BYTES, 4096)).lstrip(b"\xef\xbb\xbf \t\r\n")
    except OSError:
        return True  # reading it as a log says what is wrong
    return first.startswith(b"{") and b'"header"' in first.split(b"\n", 1)[0]


# ---- the page ----------------------------------------------------------------------------------


def page(replay: dict) -> str:
    """The viewer as one page: its data, script and style inlined (works from file://, no network)."""
    html = (STATIC / "replay.html").read_text(encoding="utf-8")
    style = (STATIC / "style.css").read_text(encoding="utf-8")
    script = "\n".join((STATIC / name).read_text(encoding="utf-8") for name in ("common.js", "board.js", "replay.js"))
    data = json.dumps(replay, separators=(",", ":")).replace("<", "\\u003c")  # no `</script>` inside
    html = "\n".join(line for line in html.split("\n") if "/static/" not in line)  # the server's files
    inline = (f"<style>\n{style}</style>\n<script type=\"application/json\" id=\"replay-data\">{data}</script>\n"
              "<script>\n" + script.replace("</", "<\\/") + "</script>")
    return html.replace("<!-- inline -->", inline)


# ---- on the server -----------------------------------------------------------------------------


def of_table(table: Table, seat: int | None = None, token: str | None = None) -> dict:
    """The replay of a server's game: the whole game once it is over; while it is played, only the
    view of the seat whose token is given (Refused otherwise: the others' hands are still secret)."""
    with table.lock:
        state, history = table.state, list(table.state.history)
        over = state.is_terminal()
    if not over and (not isinstance(seat, int) or not isinstance(token, str) or not table.admits(seat, token)):
        raise Refused("this game is still being played: only a seat's own view of it can be watched",
                      "open the watch link on your seat's page", 403)
    return frames(table.game, state.seed, history, seat_names(table.seats), None if over else [seat], over,
                  f"game {table.id}")


def of_named(tables: Tables, name: str, given: Sequence[str], seed: int | None = None) -> dict:
    """The replay of a log named by its file name: a finished game's log in the data folder, or a log
    given to `serve --watch` (by its name or as given), or a game (`seed`, else the first) of a
    `simulate --out` file given so (a report's sample game); never any other path."""
    known = {p.name: p for p in tables.folder.glob("*.jsonl")} | \
        {n: Path(p) for p in given for n in (p, Path(p).name)}
    path = known.get(name)
    if path is None:
        raise Refused(f"no log {name[:80]!r} on this server", "name a finished game's log in the data folder "
                      "or one given to `serve --watch`", 404)
    if path.parent.resolve() != tables.folder.resolve() and not is_log(path):  # `simulate --out` lines
        try:
            return of_record(read_records(path, seed), path.parent)
        except ReplayError as err:
            raise Refused(str(err), err.hint) from None
    log = _read(path)
    if path.parent.resolve() == tables.folder.resolve() and log.result is None and name not in given:
        raise Refused("this game is still being played: watch it from a seat's page", status=403)
    return _of_read(log, None)


def of_upload(tables: Tables, text: str) -> dict:
    """The replay of a log's text sent to the server: of one of the packs the server offers only."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "uploaded.jsonl"
        path.write_text(text, encoding="utf-8")
        log = _read(path)
        if log.pack not in tables.packs:
            raise Refused(f"the log was played with {log.pack[:80]!r}, which this server does not offer",
                          "start the server with that pack folder: `wonderforge serve FOLDER`")
        return _of_read(log, "uploaded log")


def _read(path: Path) -> gamelog.GameLog:
    try:
        return gamelog.read(path)
    except gamelog.LogError as err:
        raise Refused(f"not a log: {err.diagnostic.message} (line {err.diagnostic.line})",
                      err.diagnostic.hint or "") from None


def _of_read(log: gamelog.GameLog, title: str | None) -> dict:
    try:
        game, _ = gamelog.game_of(log)
        replay = of_log(log, game)
    except gamelog.LogError as err:
        raise Refused(f"cannot replay the log: {err.diagnostic.message}", err.diagnostic.hint or "") from None
    return replay | ({"title": title} if title else {})

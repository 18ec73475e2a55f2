"""The web application of `wonderforge serve` and the server that runs it.

Pages: `/` starts a game and lists the games; `/play/ID/SEAT#TOKEN` is a seat's page; `/watch/ID`
(`/watch/ID/SEAT#TOKEN` while it is played) watches a game again, `/watch` a log sent or named.
API: `GET /api/packs`, `GET|POST /api/games`, `POST /api/replay` (replay.py). A seat's page talks
over `WS /ws/ID/SEAT`: its first message is `{"type": "hello", "token": ...}`; then it sends
`{"type": "act", "step": N, "action": I}` and receives `{"type": "view", ...}` (seats.py) after
every change, or `{"type": "error", "message", "hint"}` for what it sent that was refused (the
game unchanged).
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import socket
from pathlib import Path
from typing import Sequence

from . import replay as replaying
from .seats import ScreenFor, seat_message
from .tables import Refused, Table, Tables

try:
    from anyio import to_thread
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import FileResponse, JSONResponse
    from starlette.routing import Mount, Route, WebSocketRoute
    from starlette.staticfiles import StaticFiles
    from starlette.websockets import WebSocket, WebSocketDisconnect
except ImportError:  # the optional extra is missing: the command says what to install
    Starlette = None

STATIC = Path(__file__).parent / "static"
MAX_MESSAGE = 4096        # characters of one message from a page (an action is a few dozen)
MAX_BODY = 16384          # bytes of a request to start a game
MAX_UPLOAD = 1 << 20      # bytes of a log sent to be watched (a long game's log is tens of KB)
MAX_CONNECTIONS = 200     # seat pages connected at once
HELLO_SECONDS = 10        # how long a new connection has to give its token
# pages and their script come from this server only; nothing inline runs
HEADERS = {"Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:",
           "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}


def create_app(tables: Tables, screen_for: ScreenFor | None = None, max_connections: int = MAX_CONNECTIONS,
               logs: Sequence[str] = ()) -> Starlette:
    """The application serving `tables` (opened by the caller); `screen_for` words the actions;
    `logs`, the logs besides the data folder's that may be watched."""
    watchers: dict[str, set[tuple[WebSocket, int]]] = {}  # a game's connected pages and their seats
    live: set[WebSocket] = set()  # every connection, given its token or not yet

    def page(name: str):
        async def endpoint(request: Request):
            return FileResponse(STATIC / name, headers=HEADERS)
        return endpoint

    async def packs(request: Request):
        return JSONResponse(await to_thread.run_sync(tables.offered))

    async def games(request: Request):
        if request.method == "GET":
            tables.expire()
            return JSONResponse(tables.listing())
        try:
            asked = await _body(request)
            table = await to_thread.run_sync(lambda: tables.create(**_game_request(asked)))
        except Refused as err:
            return JSONResponse({"error": str(err), "hint": err.hint}, status_code=err.status)
        return JSONResponse({"id": table.id, "links": [{"seat": s, "url": f"/play/{table.id}/{s}#{t}"}
                                                       for s, t in enumerate(table.tokens) if t is not None]})

    async def seat_socket(ws: WebSocket):
        await ws.accept()
        if len(live) >= max_connections:
            return await _close(ws, Refused("too many connections to this server", "try again later"), 1013)
        live.add(ws)
        try:
            table, seat = tables.get(ws.path_params["table"]), ws.path_params["seat"]
            if table is None:
                return await _close(ws, Refused("no such game on this server", "it may have expired"), 4404)
            if await _admitted(ws, table, seat):
                await play(ws, table, seat)
        except WebSocketDisconnect:
            pass
        finally:
            live.discard(ws)

    async def play(ws: WebSocket, table: Table, seat: int) -> None:
        """Show the seat the game, and carry out its actions, each change shown to every page of the game."""
        here = watchers.setdefault(table.id, set())
        here.add((ws, seat))
        try:
            await _send_view(ws, table, seat, screen_for)
            while True:
                try:
                    await _act(table, seat, _message(await _text(ws)))
                except Refused as err:
                    await _send_error(ws, err)
                    continue
                for other, other_seat in list(here):
                    await _send_view(other, table, other_seat, screen_for)
        finally:
            here.discard((ws, seat))

    async def watch(request: Request):
        try:
            asked = await _body(request, MAX_UPLOAD)
            replay = await to_thread.run_sync(lambda: _watched(tables, asked, logs))
        except Refused as err:
            return JSONResponse({"error": str(err), "hint": err.hint}, status_code=err.status)
        return JSONResponse(replay)

    routes = [Route("/", page("start.html")), Route("/play/{table}/{seat:int}", page("seat.html")),
              Route("/watch", page("replay.html")), Route("/watch/{table}", page("replay.html")),
              Route("/watch/{table}/{seat:int}", page("replay.html")), Route("/api/replay", watch, methods=["POST"]),
              Route("/api/packs", packs), Route("/api/games", games, methods=["GET", "POST"]),
              WebSocketRoute("/ws/{table}/{seat:int}", seat_socket),
              Mount("/static", StaticFiles(directory=STATIC), name="static")]
    return Starlette(routes=routes)


async def _admitted(ws: WebSocket, table: Table, seat: int) -> bool:
    """Whether the connection's first message gives the seat's token in time (else it is closed)."""
    try:
        hello = _message(await asyncio.wait_for(_text(ws), HELLO_SECONDS))
        if hello.get("type") != "hello" or not isinstance(hello.get("token"), str) or not table.admits(seat, hello["token"]):
            raise Refused("this link's token is not that seat's", "open the link you were given whole")
    except (Refused, asyncio.TimeoutError) as err:
        await _close(ws, err if isinstance(err, Refused) else Refused("no token given in time"), 4403)
        return False
    return True


async def _text(ws: WebSocket) -> str:
    """The next message of a page, which is text (Refused for bytes)."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    if message.get("text") is None:
        raise Refused("send text (JSON), not bytes")
    return message["text"]


async def _body(request: Request, limit: int = MAX_BODY) -> dict:
    """A request's JSON object, refused past `limit` bytes or when it is not one."""
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > limit:
            raise Refused(f"request too large: at most {limit} bytes", status=413)
    try:
        asked = json.loads(data or b"{}")
    except (ValueError, RecursionError):  # (a UnicodeDecodeError is a ValueError)
        raise Refused("the request is not JSON") from None
    if not isinstance(asked, dict):
        raise Refused("the request is not a JSON object")
    return asked


def _game_request(asked: dict) -> dict:
    """`Tables.create`'s arguments from a start request, each of its type (Refused if not)."""
    kinds = {"pack": str, "players": int, "seats": list, "options": dict, "wonders": str}
    unknown = set(asked) - set(kinds)
    if unknown:
        raise Refused(f"unknown field {sorted(unknown)[0]!r}", f"fields: {', '.join(kinds)}")
    for name, kind in kinds.items():
        value = asked.get(name)
        if (value is None and name in ("pack", "players", "seats")) or \
                (value is not None and (not isinstance(value, kind) or isinstance(value, bool))):
            raise Refused(f"{name} should be a {kind.__name__}")
    return asked


def _watched(tables: Tables, asked: dict, logs: Sequence[str]) -> dict:
    """The replay a watch request asks for: `{"game": ID}` (and `"seat"`, `"token"` while it is
    played), `{"name": FILE}` (and `"seed"`: a game of a `simulate --out` file) or `{"text": LOG}`."""
    if isinstance(asked.get("game"), str):
        table = tables.get(asked["game"])
        if table is None:
            raise Refused("no such game on this server", "it may have expired", 404)
        return replaying.of_table(table, asked.get("seat"), asked.get("token"))
    if isinstance(asked.get("name"), str):
        seed = asked.get("seed")
        return replaying.of_named(tables, asked["name"], logs, seed if isinstance(seed, int) else None)
    if isinstance(asked.get("text"), str):
        return replaying.of_upload(tables, asked["text"])
    raise Refused("say which game to watch", 'send {"game": ID}, {"name": FILE} or {"text": LOG}')


def _message(text: str) -> dict:
    """A page's message, as an object; Refused when it is too large or not one."""
    if len(text) > MAX_MESSAGE:
        raise Refused(f"message too large: at most {MAX_MESSAGE} characters")
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: nested too deep
        raise Refused("the message is not JSON") from None
    if not isinstance(message, dict):
        raise Refused("the message is not a JSON object")
    return message


async def _act(table: Table, seat: int, message: dict) -> None:
    step, index = message.get("step"), message.get("action")
    if message.get("type") != "act" or not all(isinstance(v, int) and not isinstance(v, bool) for v in (step, index)):
        raise Refused("expected {\"type\": \"act\", \"step\": N, \"action\": I}")
    await to_thread.run_sync(table.act, seat, step, index)


async def _send_view(ws: WebSocket, table: Table, seat: int, screen_for: ScreenFor | None) -> None:
    def view() -> dict:
        with table.lock:  # not while a bot's move is being applied
            return seat_message(table.id, table.state, table.seats, seat, screen_for)
    message = await to_thread.run_sync(view)
    try:
        await ws.send_json(message)
    except (WebSocketDisconnect, RuntimeError):
        pass  # a page gone meanwhile: it is told again when it comes back


async def _send_error(ws: WebSocket, err: Refused) -> None:
    await ws.send_json({"type": "error", "message": str(err), "hint": err.hint})


async def _close(ws: WebSocket, err: Refused, code: int) -> None:
    await _send_error(ws, err)
    await ws.close(code)


def listening(host: str, port: int) -> socket.socket:
    """A socket listening on host:port (port 0: any free one), so that the address printed is open
    at once; OSError when it cannot be."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    return sock


def loopback(host: str) -> bool:
    """Whether only this machine can reach the host."""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def run(app: Starlette, sock: socket.socket) -> None:
    """Serve until Ctrl-C or SIGTERM."""
    import uvicorn
    config = uvicorn.Config(app, log_level="warning", ws_max_size=MAX_MESSAGE * 4, ws_ping_interval=20)
    uvicorn.Server(config).run(sockets=[sock])

"""`wonderforge serve` (issue 29): the games' API and a seat's WebSocket through starlette's
TestClient (a seat receives only its view, checked on the wire against the true state; forged,
stale, malformed and huge messages refused with the game unchanged; a server started again on the
same data folder goes on at the same position), and one whole game played through the pages in
Debian's Chromium, bots at the other seats, its screenshot kept in test-artifacts/serve/."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from wonderforge.interpreter.files import log as gamelog  # noqa: E402
from wonderforge.tools.cli.commands import main  # noqa: E402
from wonderforge.tools.cli.play import screen_for  # noqa: E402
from wonderforge.tools.serve.app import MAX_BODY, MAX_MESSAGE, create_app  # noqa: E402
from wonderforge.tools.serve.seats import _words  # noqa: E402
from wonderforge.tools.serve.tables import Tables  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = Path(os.environ.get("WONDERFORGE_ARTIFACTS") or ROOT / "test-artifacts") / "serve"
CHROMIUM = "/usr/bin/chromium"
NEED_BROWSER = os.environ.get("WONDERFORGE_NEED_BROWSER") == "1"


def server(folder: Path, **limits) -> tuple[Tables, TestClient]:
    tables = Tables(folder, **limits)
    assert tables.open() == []
    return tables, TestClient(create_app(tables, screen_for))


def start(client: TestClient, pack: str, seats: list[str], **more) -> dict:
    reply = client.post("/api/games", json={"pack": pack, "players": len(seats), "seats": seats, **more})
    assert reply.status_code == 200, reply.text
    return reply.json()


@contextmanager
def seat_socket(client: TestClient, link: dict):
    """The link's WebSocket, its token given: (socket, first view)."""
    path, token = link["url"].split("#")
    _, _, game, seat = path.split("/")
    with client.websocket_connect(f"/ws/{game}/{seat}") as ws:
        ws.send_json({"type": "hello", "token": token})
        yield ws, ws.receive_json()


def as_json(value):
    return json.loads(json.dumps(value))


def test_the_start_page_and_what_it_offers(tmp_path):
    _, client = server(tmp_path)
    page = client.get("/")
    assert page.status_code == 200 and "Start a game" in page.text
    assert "script-src" not in page.headers["content-security-policy"] and "'self'" in page.headers["content-security-policy"]
    assert client.get("/static/seat.js").status_code == 200
    offered = {p["key"]: p for p in client.get("/api/packs").json()}
    assert {"7-wonders", "architects", "architects-medals", "dice"} <= set(offered)
    assert offered["7-wonders"]["players"] == {"min": 3, "max": 7} and "greedy" in offered["7-wonders"]["bots"]
    assert "giza" in offered["7-wonders"]["wonders"]


def test_a_seat_receives_its_own_view_and_nothing_of_other_hands(tmp_path):
    tables, client = server(tmp_path)
    made = start(client, "7-wonders", ["person", "person", "greedy"], wonders="giza:a,*")
    assert [link["seat"] for link in made["links"]] == [0, 1]
    table = tables.get(made["id"])
    state, hand = table.state, table.game.rules.flow.hand_zone
    with seat_socket(client, made["links"][0]) as (ws, view):
        assert view["observation"] == as_json(state.observation(0))
        assert view["observation"]["players"][0]["wonder"] == "giza"
        own = {c.id for c in state.players[0].zones[hand]}
        others = {c.id for s in (1, 2) for c in state.players[s].zones[hand]} - own
        assert others, "the deal should give the other seats cards that seat 0 does not hold"
        assert _words(view) & others == set()                    # not their ids...
        assert not any(c in json.dumps(view) for c in others)    # ...anywhere on the wire
        assert len(view["actions"]) == len(state.legal_actions(0)) and view["waiting"] == [0, 1]
        assert any("pay" in a or "free" in a or "nothing" in a for a in view["actions"])  # priced, as the terminal says
        assert all(view["pieces"][c]["name"] for c in own)


def test_a_link_opens_its_own_seat_only(tmp_path):
    tables, client = server(tmp_path)
    made = start(client, "architects", ["person", "person"])
    game, tokens = made["id"], [link["url"].split("#")[1] for link in made["links"]]
    for seat, token in [(0, tokens[1]), (1, "x" * 32), (5, tokens[0])]:
        with client.websocket_connect(f"/ws/{game}/{seat}") as ws:
            ws.send_json({"type": "hello", "token": token})
            refused = ws.receive_json()
            assert refused["type"] == "error" and "token" in refused["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4403
    with client.websocket_connect("/ws/nothere/0") as ws:
        assert ws.receive_json()["message"] == "no such game on this server"
    assert tables.get(game).step == 0


def test_forged_stale_malformed_and_huge_messages_are_refused_and_change_nothing(tmp_path):
    tables, client = server(tmp_path)
    made = start(client, "architects", ["person", "greedy"])
    table = tables.get(made["id"])
    with seat_socket(client, made["links"][0]) as (ws, view):
        step, before = table.step, as_json(table.state.observation(0))
        bad = [{"type": "act", "step": step, "action": len(view["actions"])},   # no such action
               {"type": "act", "step": step - 1, "action": 0},                  # offered before
               {"type": "act", "step": step, "action": True},
               {"type": "act", "step": "0", "action": 0},
               {"type": "play"}, [1, 2]]
        for message in bad:
            ws.send_json(message)
            assert ws.receive_json()["type"] == "error"
        for text in ["{not json", "x" * (MAX_MESSAGE + 1), "[" * (MAX_MESSAGE - 1)]:
            ws.send_text(text)
            assert ws.receive_json()["type"] == "error"
        ws.send_bytes(b"\x00\xff")
        assert ws.receive_json()["message"] == "send text (JSON), not bytes"
        assert table.step == step and as_json(table.state.observation(0)) == before
        ws.send_json({"type": "act", "step": step, "action": 0})  # the connection still plays
        assert ws.receive_json()["step"] > step


def test_requests_to_start_a_game_are_checked(tmp_path):
    _, client = server(tmp_path, max_games=1)
    cases = [({"pack": "nope", "players": 3, "seats": ["person"] * 3}, "no pack"),
             ({"pack": "architects", "players": 9, "seats": ["person"] * 9}, "players"),
             ({"pack": "architects", "players": 2, "seats": ["greedy", "greedy"]}, "person"),
             ({"pack": "architects", "players": 2, "seats": ["person", "nobody"]}, "unknown bot"),
             ({"pack": "architects", "players": 2, "seats": ["person", "../x.yaml"]}, "not given to this server"),
             ({"pack": "architects", "players": "2", "seats": ["person", "greedy"]}, "players should be"),
             ({"pack": "architects", "players": 2, "seats": ["person", "greedy"], "eval": 1}, "unknown field"),
             ({"pack": "architects-medals", "players": 2, "seats": ["person", "greedy"], "options": {"medals": "maybe"}},
              "true or false"),
             ({"pack": "7-wonders", "players": 3, "seats": ["person"] * 3, "options": {"sides": "a"}}, "unknown option")]
    for body, words in cases:
        reply = client.post("/api/games", json=body)
        assert reply.status_code == 400 and words in reply.json()["error"], (body, reply.text)
    assert client.post("/api/games", content=b"[" * (MAX_BODY + 1)).status_code == 413
    assert client.post("/api/games", content=b"[" * MAX_BODY).json()["error"] == "the request is not JSON"
    start(client, "architects", ["person", "greedy"])
    assert client.post("/api/games", json={"pack": "dice", "players": 2, "seats": ["person", "greedy"]}).status_code == 429


def test_a_server_started_again_goes_on_where_it_was(tmp_path):
    tables, client = server(tmp_path)
    made = start(client, "7-wonders", ["person", "greedy", "random"], options={"side": "a"})
    with seat_socket(client, made["links"][0]) as (ws, view):
        for _ in range(4):
            ws.send_json({"type": "act", "step": view["step"], "action": len(view["actions"]) - 1})
            view = ws.receive_json()
    old = tables.get(made["id"]).state
    with open(tables.get(made["id"]).path, "a") as log:
        log.write('{"type":"action","st')  # a line torn by a kill mid-write
    again, client = server(tmp_path)           # the first server dropped: a new one on the same folder
    table = again.get(made["id"])
    assert table.game.options == {"side": "a"} and table.step == len(old.history) == view["step"]
    assert [as_json(table.state.observation(s)) for s in range(3)] == [as_json(old.observation(s)) for s in range(3)]
    with seat_socket(client, made["links"][0]) as (ws, resumed):
        assert resumed["observation"] == view["observation"] and resumed["actions"] == view["actions"]
        ws.send_json({"type": "act", "step": resumed["step"], "action": 0})
        assert ws.receive_json()["step"] > resumed["step"]


def test_a_whole_game_through_a_socket_matches_its_log(tmp_path):
    tables, client = server(tmp_path)
    made = start(client, "architects", ["person", "greedy", "random"])
    with seat_socket(client, made["links"][0]) as (ws, view):
        while not view["over"]:
            ws.send_json({"type": "act", "step": view["step"], "action": 0})
            view = ws.receive_json()
    assert [s["total"] for s in view["scores"]] == [s["total"] for s in tables.get(made["id"]).state.scores()]
    log = gamelog.read(tables.get(made["id"]).path)
    assert gamelog.matches(log, gamelog.replay(log))
    listed = client.get("/api/games").json()
    assert listed[0]["finished"] and listed[0]["scores"] == [s["total"] for s in view["scores"]]
    assert server(tmp_path)[0].get(made["id"]).state.is_terminal()  # finished games stay listed


def test_a_pack_folder_given_to_the_server_is_offered_and_resumed(tmp_path):
    bazaar = (ROOT / "tests" / "mods" / "bazaar").resolve().as_posix()
    tables, client = server(tmp_path / "games", packs=[bazaar])
    assert bazaar in [p["key"] for p in client.get("/api/packs").json()]
    made = start(client, bazaar, ["person", "greedy", "greedy"])
    assert gamelog.read(tables.get(made["id"]).path).pack == bazaar
    again, _ = server(tmp_path / "games", packs=[bazaar])
    assert again.get(made["id"]).game.pack.id == tables.get(made["id"]).game.pack.id == "bazaar"


def test_idle_games_expire(tmp_path):
    tables, client = server(tmp_path, idle_hours=1)
    made = start(client, "architects", ["person", "greedy"])
    assert tables.expire() == []
    assert tables.expire(now=time.time() + 3601) == [made["id"]]
    assert client.get("/api/games").json() == [] and (tmp_path / f"{made['id']}.expired.jsonl").is_file()
    assert server(tmp_path)[0].tables == {}


def test_the_command_line_refuses_what_it_cannot_serve(tmp_path, capsys):
    assert main(["serve", "--data", str(tmp_path), str(tmp_path / "nopack")]) == 2
    assert "no pack" in capsys.readouterr().err
    with pytest.raises(SystemExit):  # argparse's own error, status 2
        main(["serve", "--port", "http"])
    assert main(["serve", "--data", str(tmp_path), "--port", "70000"]) == 2
    assert "--port" in capsys.readouterr().err
    assert main(["serve", "--data", str(tmp_path), "--bot-file", str(tmp_path / "my-bots.yaml")]) == 2
    assert "no such bot file" in capsys.readouterr().err


def test_shared_on_the_network_it_prints_addresses_a_browser_can_open(tmp_path, capsys, monkeypatch):
    import socket
    from wonderforge.tools.cli import commands
    monkeypatch.setattr(commands.serving, "run", lambda app, sock: sock.close())
    assert main(["serve", "--data", str(tmp_path), "--host", "0.0.0.0", "--port", "0"]) == 0
    said = capsys.readouterr()
    assert " at http://127.0.0.1:" in said.out and f"http://{socket.gethostname()}:" in said.out
    assert "0.0.0.0:" not in said.out and "warning: listening on 0.0.0.0" in said.err


def test_the_scripts_never_write_markup():
    """Every text reaches the pages as text (textContent), never parsed as HTML."""
    for script in (ROOT / "tools" / "serve" / "static").glob("*.js"):
        text = script.read_text(encoding="utf-8")
        assert not any(w in text for w in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(")), script


def test_too_many_connections_are_refused(tmp_path):
    tables = Tables(tmp_path)
    tables.open()
    client = TestClient(create_app(tables, screen_for, max_connections=1))
    made = start(client, "architects", ["person", "greedy"])
    with seat_socket(client, made["links"][0]) as (_, view):
        assert view["type"] == "view"
        with client.websocket_connect(f"/ws/{made['id']}/0") as other:
            assert "too many connections" in other.receive_json()["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                other.receive_json()
            assert closed.value.code == 1013


# ---- in a browser -----------------------------------------------------------------------------


@contextmanager
def serving(data: Path):
    """`wonderforge serve --port 0` running on the data folder: (its process, its address)."""
    process = subprocess.Popen([sys.executable, "-m", "wonderforge.tools.cli.commands", "serve", "--port", "0",
                                "--data", str(data)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        assert " at http://127.0.0.1:" in line, line + process.stderr.read()
        yield process, line.split(" at ")[1].split()[0]
    finally:
        if process.poll() is None:
            process.terminate()
        process.wait(timeout=30)


def post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    return json.loads(urllib.request.urlopen(request).read())


@pytest.mark.slow
def test_a_server_killed_mid_game_goes_on_when_started_again(tmp_path):
    sockets = pytest.importorskip("websockets.sync.client")

    @contextmanager
    def seat(address: str, link: dict):
        path, token = link["url"].split("#")
        with sockets.connect(address.replace("http", "ws", 1) + "ws" + path.removeprefix("/play")) as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            yield ws, json.loads(ws.recv(timeout=60))

    with serving(tmp_path) as (process, address):
        made = post(address + "api/games", {"pack": "7-wonders", "players": 3, "seats": ["person", "greedy", "random"]})
        with seat(address, made["links"][0]) as (ws, view):
            for _ in range(3):
                ws.send(json.dumps({"type": "act", "step": view["step"], "action": 0}))
                view = json.loads(ws.recv(timeout=60))
            process.kill()  # SIGKILL: no chance to save anything more
            process.wait(timeout=30)
    with serving(tmp_path) as (_, address), seat(address, made["links"][0]) as (ws, resumed):
        assert resumed["step"] == view["step"] > 3
        assert resumed["observation"] == view["observation"] and resumed["actions"] == view["actions"]
        ws.send(json.dumps({"type": "act", "step": resumed["step"], "action": 0}))
        assert json.loads(ws.recv(timeout=60))["step"] > resumed["step"]


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium through Playwright; skipped when either is missing unless
    WONDERFORGE_NEED_BROWSER=1 (CI), where that fails."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        sync_playwright = None
    why = "playwright is not installed" if sync_playwright is None else \
        None if os.access(CHROMIUM, os.X_OK) else f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    if why:
        if NEED_BROWSER:
            pytest.fail(f"WONDERFORGE_NEED_BROWSER=1 but {why}")
        pytest.skip(why)
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                     args=["--no-sandbox", "--disable-gpu", "--no-first-run"])
        try:
            yield chromium
        finally:
            chromium.close()


def opened(browser, url: str, problems: list[str], sent: list[str] | None = None):
    """A page of its own (a device), its console errors and page errors gathered in `problems` (and
    the messages its sockets send in `sent`)."""
    tab = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    if sent is not None:
        tab.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(payload)))
    tab.on("console", lambda m: m.type in ("error", "warning") and problems.append(f"console: {m.text[:300]}"))
    tab.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    tab.goto(url)
    return tab


def by_keyboard_alone(tab, sent: list[str]) -> bool:
    """Every legal action on the page is reached with Tab, in order (the first has the focus), and
    the last is played with Enter: the action sent is that one."""
    count = tab.locator("#actions button").count()
    reached = [tab.locator("#actions button:focus").get_attribute("data-action")]
    for _ in range(count - 1):
        tab.keyboard.press("Tab")
        reached.append(tab.locator("#actions button:focus").get_attribute("data-action"))
    assert reached == [str(i) for i in range(count)]
    tab.keyboard.press("Enter")
    tab.wait_for_timeout(50)
    assert json.loads(sent[-1])["action"] == count - 1, sent[-1:]
    return True


@pytest.mark.slow
@pytest.mark.parametrize("pack", ["7-wonders", "architects", "architects-medals", "dice"])
def test_a_whole_game_played_through_the_pages(pack, browser, tmp_path, capsys):
    """Two people on two devices and two bots play a 4-player game to its end through the pages:
    the scores shown are those `wonderforge replay` finds in the game's log."""
    problems: list[str] = []
    with serving(tmp_path) as (_, address):
        start_page = opened(browser, address, problems)
        start_page.select_option("#pack", pack)
        start_page.fill("#players", "4")
        start_page.dispatch_event("#players", "change")
        for seat, who in enumerate(["person", "greedy", "person", "random"]):
            start_page.fill(f"[data-seat='{seat}']", who)
        start_page.click("button[type=submit]")
        start_page.locator("#links a").nth(1).wait_for()
        sent: list[str] = []  # by seat 0's page
        seats = [opened(browser, a.get_attribute("href"), problems, None if n else sent)
                 for n, a in enumerate(start_page.locator("#links a").all())]
        moves, ended = 0, lambda tab: tab.locator("#scores-box:not([hidden])").count() > 0
        while not all(map(ended, seats)):
            played = False
            for tab in seats:
                if tab is seats[0] and moves < 4 and tab.locator("#actions button").count():
                    moves, played = moves + 1, by_keyboard_alone(tab, sent)
                elif tab.locator("#actions button").count():
                    tab.keyboard.press("1")  # the first action, by its number (the page clears them at once)
                    moves, played = moves + 1, True
            if not played:  # (no wait_for_function: the pages' CSP forbids evaluating strings)
                seats[0].wait_for_timeout(20)
            assert moves < 1000
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        for n, tab in enumerate(seats):
            tab.screenshot(path=str(ARTIFACTS / f"{pack}-seat{2 * n}-end.png"), full_page=True)
            assert tab.locator("#scores tr").count() == 5 and tab.text_content("#error") == ""
        shown = [int(t) for t in seats[0].locator("#scores tr td:last-child").all_text_contents()]
    assert problems == [] and moves > 5
    [log] = tmp_path.glob("*.jsonl")
    assert main(["replay", str(log), "--format", "json"]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert shown == [p["total"] for p in replayed["scores"]], replayed

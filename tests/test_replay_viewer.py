"""The replay viewer (issue 29, watch any game again): its frames against the game replayed (each
seat's view is that seat's observation then; the totals after each period are simulate's), the
frames kept of a long game, `replay LOG --html FILE` from a log and from a `simulate --out` line,
the server's watch API (a game being played shows only the asking seat's view; named logs only
from the data folder or `serve --watch`), and the page opened from file:// in Debian's Chromium:
stepped, jumped, seat switched, no console error, its screenshot kept in test-artifacts/replay/."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from wonderforge.interpreter.bots.registry import play
from wonderforge.interpreter.files import log as gamelog
from wonderforge.interpreter.games.loading import load_game
from wonderforge.tools.cli.commands import main
from wonderforge.tools.serve import replay as replaying
from wonderforge.tools.serve.seats import _words
from wonderforge.tools.study.quality import play_game
from wonderforge.tools.study.records import record
from test_serve import browser  # noqa: F401  (Debian's Chromium, the fixture of the seat pages' tests)

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = Path(os.environ.get("WONDERFORGE_ARTIFACTS") or ROOT / "test-artifacts") / "replay"


def as_json(value):
    return json.loads(json.dumps(value))


def played(pack: str, players: int, seed: int, bots: str = "greedy"):
    game = load_game(pack, players=players)
    return game, play(game, [bots] * players, seed=seed)


@pytest.mark.parametrize("pack,players", [("7-wonders", 3), ("architects", 2), ("dice", 2)])
def test_each_frame_is_the_position_replayed_to_it(pack, players):
    game, state = played(pack, players, seed=4)
    replay = replaying.frames(game, 4, state.history, ["a"] * players)
    assert replay["kept"] == len(state.history) + 1 == len(replay["frames"])
    again = game.new_state(4)
    for step, frame in enumerate(replay["frames"]):
        if step:
            again.apply(*state.history[step - 1])
            assert frame["played"] == {"seat": state.history[step - 1][0], "action": str(state.history[step - 1][1])}
        assert frame["step"] == step
        for seat in range(players):
            assert replaying.view(frame, seat) == as_json(again.observation(seat))
        assert replaying.view(frame, -1) == as_json(replaying.everything_view(again))
    assert replay["over"] and replay["scores"] == state.scores() and replay["winners"] == state.winners()
    # the totals after each period are those simulate records for the game
    game2 = load_game(pack, players=players)
    finished, periods = play_game(game2, ["greedy"] * players, 4)
    assert [p["totals"] for p in replay["periods"]] == record(finished, pack, ["greedy"] * players, periods)["periods"]


def test_the_view_of_everything_holds_each_hand_and_a_seat_s_view_only_its_own():
    game, state = played("7-wonders", 3, seed=2)
    start = game.new_state(2)
    hands = [start.observation(s)["hand"] for s in range(3)]
    assert len({tuple(h) for h in hands}) == 3
    everything = replaying.everything_view(start)
    assert [everything[f"hand of seat {s}"] for s in range(3)] == hands
    seat_only = replaying.frames(game, 2, state.history, ["a"] * 3, seats=[1], everything=False)
    first = seat_only["frames"][0]
    assert list(first["views"]) == ["1"] and "played" not in seat_only["frames"][1]
    assert set(replaying.view(first, 1)["hand"]) == set(hands[1])
    # no piece is sent along that the seat's views do not name (or that a piece they name chains from)
    seen = set().union(*(_words(replaying.view(f, 1)) for f in seat_only["frames"]))
    sent = seat_only["pieces"]
    chained = {c for piece in seen if piece in sent for c in sent[piece].get("chain_from") or ()}
    assert set(seat_only["pieces"]) <= seen | chained
    assert not (set(hands[0]) | set(hands[2])) - set(hands[1]) & _words(replaying.view(first, 1))


def test_a_long_game_keeps_a_bounded_number_of_frames(monkeypatch):
    game, state = played("architects", 4, seed=1)
    monkeypatch.setattr(replaying, "MAX_FRAMES", 20)
    replay = replaying.frames(game, 1, state.history, ["a"] * 4)
    steps = [f["step"] for f in replay["frames"]]
    starts = [p["step"] for p in replay["periods"]]
    assert len(state.history) > 40 and len(steps) <= 20 + len(starts) + 1
    assert steps[0] == 0 and steps[-1] == len(state.history) and set(starts) <= set(steps)
    assert steps == sorted(set(steps)) and replay["kept"] == len(steps)


def test_the_page_of_a_log_and_of_a_simulate_line(tmp_path, capsys):
    game, state = played("7-wonders", 3, seed=9)
    log = tmp_path / "game.jsonl"
    with log.open("w") as out:
        gamelog.write(out, gamelog.lines_of(state, "7-wonders", ["greedy", None, "random"]))
    assert main(["replay", str(log), "--html", str(tmp_path / "game.html")]) == 0
    data = embedded(tmp_path / "game.html")
    assert data["names"] == ["seat 0 (greedy)", "seat 1 (person)", "seat 2 (random)"]
    assert replaying.view(data["frames"][-1], 0) == as_json(state.observation(0)) and data["everything"]
    # a simulate --out file: the game of the seed asked, played again
    assert main(["simulate", "7-wonders", "--players", "3", "--games", "2", "--seed", "7", "--bots", "greedy",
                 "--out", str(tmp_path / "sim.jsonl")]) == 0
    assert main(["replay", str(tmp_path / "sim.jsonl"), "--html", str(tmp_path / "sim.html"), "--seed", "8"]) == 0
    rec = json.loads((tmp_path / "sim.jsonl").read_text().splitlines()[1])
    data = embedded(tmp_path / "sim.html")
    assert rec["seed"] == 8 and [s["total"] for s in data["scores"]] == [s["total"] for s in rec["scores"]]
    capsys.readouterr()
    assert main(["replay", str(tmp_path / "sim.jsonl"), "--html", str(tmp_path / "x.html"), "--seed", "99"]) == 1
    assert "no game of seed 99" in capsys.readouterr().err and not (tmp_path / "x.html").exists()
    # a run with options: its line cannot say how to play the game again, and the command says so
    assert main(["simulate", "7-wonders", "--players", "3", "--games", "1", "--seed", "7", "--bots", "greedy",
                 "--options", "side=b", "--out", str(tmp_path / "b.jsonl")]) == 0
    capsys.readouterr()
    assert main(["replay", str(tmp_path / "b.jsonl"), "--html", str(tmp_path / "x.html")]) == 1
    assert "ends otherwise than the line says" in capsys.readouterr().err and not (tmp_path / "x.html").exists()


def embedded(page: Path) -> dict:
    """The replay inlined in a page (and nothing fetched by it)."""
    text = page.read_text(encoding="utf-8")
    assert "/static/" not in text and "http" not in text.replace("http-equiv", "")
    return json.loads(re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', text, re.S)[1])


def test_text_in_the_data_cannot_close_its_script():
    game, state = played("7-wonders", 3, seed=1)
    replay = replaying.frames(game, 1, state.history[:3], ["</script><script>alert(1)</script>"] * 3)
    text = replaying.page(replay)
    assert "alert(1)</script>" not in text and text.count("</script>") == 2
    data = re.search(r'id="replay-data">(.*?)</script>', text, re.S)[1]
    assert json.loads(data)["names"][0] == "</script><script>alert(1)</script>"


# ---- on the server -----------------------------------------------------------------------------


def test_the_server_shows_a_game_being_played_to_its_seats_alone(tmp_path):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient
    from wonderforge.tools.cli.play import screen_for
    from wonderforge.tools.serve.app import create_app
    from wonderforge.tools.serve.tables import Tables

    tables = Tables(tmp_path / "data")
    tables.open()
    given = tmp_path / "given.jsonl"
    _, state = played("dice", 2, seed=3)
    with given.open("w") as out:
        gamelog.write(out, gamelog.lines_of(state, "dice"))
    client = TestClient(create_app(tables, screen_for, logs=[str(given)]))
    made = client.post("/api/games", json={"pack": "7-wonders", "players": 3,
                                           "seats": ["person", "greedy", "person"]}).json()
    token = made["links"][0]["url"].split("#")[1]
    refused = client.post("/api/replay", json={"game": made["id"]})
    assert refused.status_code == 403 and "still being played" in refused.json()["error"]
    assert client.post("/api/replay", json={"game": made["id"], "seat": 2, "token": token}).status_code == 403
    mine = client.post("/api/replay", json={"game": made["id"], "seat": 0, "token": token}).json()
    assert mine["seats"] == [0] and not mine["everything"]
    assert replaying.view(mine["frames"][-1], 0) == as_json(tables.get(made["id"]).state.observation(0))
    assert client.post("/api/replay", json={"name": made["id"] + ".jsonl"}).status_code == 403
    for name in ("../given.jsonl", str(tmp_path / "data" / ".." / "given.jsonl"), "/etc/passwd"):
        assert client.post("/api/replay", json={"name": name}).status_code == 404
    shown = client.post("/api/replay", json={"name": "given.jsonl"}).json()
    assert shown["everything"] and [s["total"] for s in shown["scores"]] == state.totals()
    sent = client.post("/api/replay", json={"text": given.read_text()}).json()
    assert sent["frames"] == shown["frames"]
    bad = client.post("/api/replay", json={"text": '{"type": "header"}'})
    assert bad.status_code == 400 and bad.json()["error"].startswith("not a log")
    assert client.get("/watch/" + made["id"]).status_code == 200


def test_a_report_s_sample_game_is_watched_on_a_server(tmp_path, capsys):
    """`serve --watch OUT.jsonl`: a game of a `simulate --out` file, by its seed (the report's
    `/watch?name=...&seed=...`), played again; no other seed or file."""
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient
    from wonderforge.tools.cli.play import screen_for
    from wonderforge.tools.serve.app import create_app
    from wonderforge.tools.serve.tables import Tables

    out = tmp_path / "sim.jsonl"
    assert main(["simulate", "7-wonders", "--players", "3", "--games", "2", "--seed", "7", "--bots", "greedy",
                 "--out", str(out)]) == 0
    capsys.readouterr()
    tables = Tables(tmp_path / "data")
    tables.open()
    client = TestClient(create_app(tables, screen_for, logs=[str(out)]))
    rec = json.loads(out.read_text().splitlines()[1])
    shown = client.post("/api/replay", json={"name": "sim.jsonl", "seed": 8}).json()
    assert rec["seed"] == 8 and [s["total"] for s in shown["scores"]] == [s["total"] for s in rec["scores"]]
    missing = client.post("/api/replay", json={"name": "sim.jsonl", "seed": 99})
    assert missing.status_code == 400 and "no game of seed 99" in missing.json()["error"]
    assert client.get("/watch?name=sim.jsonl&seed=8").status_code == 200


# ---- in a browser -----------------------------------------------------------------------------


@pytest.mark.slow  # a real browser (about 3 s)
def test_the_page_steps_jumps_and_switches_seat_offline(browser, tmp_path):
    game, state = played("7-wonders", 3, seed=5)
    log = tmp_path / "game.jsonl"
    with log.open("w") as out:
        gamelog.write(out, gamelog.lines_of(state, "7-wonders", ["greedy"] * 3))
    assert main(["replay", str(log), "--html", str(tmp_path / "game.html")]) == 0
    problems: list[str] = []
    tab = offline(browser, tmp_path / "game.html", problems)
    assert tab.text_content("#status").startswith("Action 0 of 54")
    tab.click("#forward")
    tab.click("#forward")
    tab.click("#back")
    assert tab.text_content("#status").startswith("Action 1 of 54, period 1 — seat ")
    tab.keyboard.press("ArrowRight")
    assert tab.text_content("#status").startswith("Action 2 of 54")
    tab.select_option("#period", "18")
    assert tab.text_content("#status").startswith("Action 18 of 54, period 2")
    assert tab.locator("#periods tr").count() == 4  # a heading and the three ages
    hand = lambda seat: {game.pack.components["cards"][c].data.get("name", c)
                         for c in state_at(game, state, 18).observation(seat)["hand"]}
    tab.select_option("#seat", "1")
    assert set(tab.locator("#table .card .name").all_text_contents()) == hand(1)
    assert tab.locator(".player.you").count() == 1
    tab.select_option("#seat", "-1")
    assert set(tab.locator("#table .card .name").all_text_contents()) == hand(0) | hand(1) | hand(2)
    tab.click("#last")
    assert "the game is over" in tab.text_content("#status") and tab.locator("#scores tr").count() == 4
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(ARTIFACTS / "7-wonders-end.png"), full_page=True)
    tab.context.close()
    assert problems == []


def offline(browser, page: Path, problems: list[str]):
    """A tab on `page` opened from its file, any other request refused; each request, console error
    or warning and page error in `problems`."""
    tab = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    url = page.as_uri()
    tab.route("**/*", lambda r: r.continue_() if r.request.url == url else (problems.append(r.request.url), r.abort()))
    tab.on("console", lambda m: m.type in ("error", "warning") and problems.append(f"console: {m.text[:300]}"))
    tab.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    tab.goto(url)
    return tab


def state_at(game, state, step: int):
    again = game.new_state(state.seed)
    for seat, action in state.history[:step]:
        again.apply(seat, action)
    return again


@pytest.mark.slow  # a real browser and a server (about 4 s)
def test_a_finished_game_on_the_server_is_watched_from_its_listing(browser, tmp_path):
    from test_serve import serving
    _, state = played("dice", 2, seed=6)
    with (tmp_path / "finished1.jsonl").open("w") as out:
        gamelog.write(out, gamelog.lines_of(state, "dice", ["greedy", "random"]))
    (tmp_path / "finished1.seats.json").write_text(json.dumps({"tokens": [None, None]}))
    problems: list[str] = []
    with serving(tmp_path) as (_, address):
        tab = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        tab.on("console", lambda m: m.type in ("error", "warning") and problems.append(f"console: {m.text[:300]}"))
        tab.on("pageerror", lambda e: problems.append(f"page error: {e}"))
        tab.goto(address)
        tab.click("#games a:text('watch')")
        tab.locator("#viewer:not([hidden])").wait_for()
        assert tab.url.endswith("/watch/finished1")
        tab.click("#last")
        shown = [int(t) for t in tab.locator("#scores tr td:last-child").all_text_contents()]
        assert shown == state.totals() and "the game is over" in tab.text_content("#status")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        tab.screenshot(path=str(ARTIFACTS / "dice-served-end.png"), full_page=True)
        tab.context.close()
    assert problems == []

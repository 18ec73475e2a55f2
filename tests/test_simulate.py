"""`wonderforge simulate` and `bench`: seeded games on workers, their summary, streamed records,
two packs compared, and the statistics behind them (tools/study: simulate.py, running.py, summary.py,
render.py, bench.py, stats.py)."""

from __future__ import annotations

import io
import json
import math
import re
import random
import shutil
import threading
import time
from fractions import Fraction

import pytest

from wonderforge.interpreter import load_game
from wonderforge.interpreter.packs.folders import CONTENT
from wonderforge.tools.study import running, simulate as sim
from wonderforge.tools.cli.commands import main
from wonderforge.tools.study import progress as progress_module
from wonderforge.tools.study.pool import Pool, Watch
from wonderforge.tools.study.progress import Progress, decided
from wonderforge.tools.study.render import render, render_csv
from wonderforge.tools.study.stats import (Moments, incomplete_beta, t_quantile, t_two_sided, welch,
                                     wilson)
from wonderforge.tools.study.summary import Aggregate, summary
from helpers import alexandria_worth


def run_json(capsys, *argv: str) -> dict:
    assert main(["simulate", *argv, "--format", "json", "--quiet"]) == 0
    return json.loads(capsys.readouterr().out)


def without_run(data: dict) -> dict:
    return {k: v for k, v in data.items() if k != "run"}


# ---- the same seeds give the same summary, whatever the workers ---------------------------------


def test_one_and_two_workers_give_the_same_summary_and_lines(capsys, tmp_path):
    one = run_json(capsys, "architects", "--players", "3", "--games", "30", "--seed", "5", "--workers", "1",
                   "--out", str(tmp_path / "one.jsonl"))
    two = run_json(capsys, "architects", "--players", "3", "--games", "30", "--seed", "5", "--workers", "2",
                   "--out", str(tmp_path / "two.jsonl"))
    assert one["run"]["workers"] == 1 and two["run"]["workers"] == 2
    assert without_run(one) == without_run(two)
    assert (tmp_path / "one.jsonl").read_text() == (tmp_path / "two.jsonl").read_text()
    assert one["seeds"] == [5, 34]


def test_workers_started_by_spawn_give_the_same_aggregate():
    """Nothing a worker needs comes from the parent's memory: a spawned worker loads the pack itself."""
    game = load_game("7-wonders", players=3)
    bots = ["random", "greedy", "random"]
    alone = running.run(game, "7-wonders", bots, 100, 8, workers=1)
    spawned = running.run(game, "7-wonders", bots, 100, 8, workers=2, context="spawn")
    assert summary(game, "7-wonders", bots, 100, alone) == summary(game, "7-wonders", bots, 100, spawned)


def test_a_summary_does_not_depend_on_how_its_games_are_split():
    """Sums are exact: any split, merged in any order, gives the same figures."""
    game = load_game("dice", players=4)
    bots = ["random"] * 4
    whole = running.play_chunk([game], ["dice"], bots, 0, 12).aggregates[0]
    parts = [running.play_chunk([game], ["dice"], bots, s, n).aggregates[0] for s, n in ((8, 4), (0, 3), (3, 5))]
    merged = Aggregate(4)
    for part in parts:
        merged.merge(part)
    assert summary(game, "dice", bots, 0, merged) == summary(game, "dice", bots, 0, whole)


def test_game_i_is_played_from_seed_s_plus_i_with_the_bots_cycled(tmp_path):
    from wonderforge.interpreter.bots.registry import play
    game = load_game("architects", players=3)
    out = io.StringIO()
    running.run(game, "architects", ["greedy", "random", "greedy"], 40, 3, out=out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [line["seed"] for line in lines] == [40, 41, 42]
    state = play(game, ["greedy", "random", "greedy"], seed=41)
    assert lines[1]["scores"] == state.scores() and lines[1]["winners"] == state.winners()
    assert [s["bot"] for s in lines[1]["seats"]] == ["greedy", "random", "greedy"]
    assert [s["wonder"] for s in lines[1]["seats"]] == [p.side.wonder for p in state.players]


# ---- the summary ---------------------------------------------------------------------------------


def test_the_json_summary_of_7_wonders(capsys):
    data = run_json(capsys, "7-wonders", "--players", "4", "--games", "20", "--bots", "greedy,random",
                    "--workers", "1")
    assert {"games", "players", "mean_score", "wonders"} <= set(data)
    assert data["games"] == 20 and data["players"] == 4 and data["pack"] == "7-wonders"
    assert data["packs"] == [{"id": "7-wonders", "version": "1.0.0"}]
    wonders = data["wonders"]
    assert set(wonders) <= {"alexandria", "babylon", "ephesus", "giza", "halicarnassus", "olympia", "rhodes"}
    for entry in wonders.values():
        assert {"games", "wins", "win_rate", "mean_score", "win_rate_ci", "mean_score_ci", "mean_stages"} <= set(entry)
        assert entry["win_rate"] == pytest.approx(entry["wins"] / entry["games"], abs=1e-6)
        lo, hi = entry["win_rate_ci"]
        assert 0 <= lo <= entry["win_rate"] <= hi <= 1
    assert sum(w["games"] for w in wonders.values()) == 80          # every player had a wonder
    assert sum(w["wins"] for w in wonders.values()) == pytest.approx(20)  # one win per game, shares included
    assert set(data["sides"]) <= {f"{w}:{s}" for w in wonders for s in "ab"}
    assert [s["bot"] for s in data["seats"]] == ["greedy", "random", "greedy", "random"]
    assert set(data["bots"]) == {"greedy", "random"}
    assert list(data["categories"]) == ["military", "treasury", "wonder", "civilian", "science", "commerce", "guilds"]
    assert sum(c["mean"] for c in data["categories"].values()) == pytest.approx(data["mean_score"], abs=1e-4)
    city = data["components"]["city"]
    assert "lumber_yard" in city or "stone_pit" in city
    for entry in city.values():
        assert 0 < entry["taken_rate"] <= 1 and entry["taken"] <= 80
        assert {"win_rate_taken", "win_rate_taken_ci", "win_rate_not_taken", "win_rate_not_taken_ci"} <= set(entry)
    assert set(data["components"]["stages"]) <= {"1", "2", "3", "4"}
    assert data["run"]["games_per_second"] > 0


def test_architects_counts_cards_progress_tokens_and_stages(capsys):
    data = run_json(capsys, "architects", "--players", "2", "--games", "12", "--workers", "1")
    assert "sides" not in data
    assert {"city", "progress", "stages"} <= set(data["components"])
    kinds = {"gold", "stone", "clay", "wood", "glass", "papyrus", "gear", "compass", "tablet", "blue_vp3",
             "blue_vp2_cat", "red_0_horn", "red_1_horn", "red_2_horn"}
    assert set(data["components"]["city"]) <= kinds
    assert any(c["mean_copies"] > 1 for c in data["components"]["city"].values())


def test_dice_counts_boards_and_boxes(capsys):
    data = run_json(capsys, "dice", "--players", "3", "--games", "6", "--workers", "1")
    assert set(data["wonders"]) <= {"alexandria", "babylon", "ephesus", "giza", "halicarnassus", "olympia", "rhodes"}
    assert all("mean_stages" not in w for w in data["wonders"].values())
    assert list(data["components"]) == ["board"]
    assert any(box.startswith("wonder.") for box in data["components"]["board"])


def test_the_text_summary(capsys):
    assert main(["simulate", "7-wonders", "--games", "6", "--workers", "1", "--quiet"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("7-wonders (7-wonders 1.0.0): 6 games of 3 players, seeds 0-5")
    for heading in ("wonder ", "side ", "seat ", "category ", "city:", "stages:"):
        assert any(line.startswith(heading) for line in text.splitlines()), heading
    assert "95% CI" in text and "an even share of wins is 33.3%" in text


def test_options_reach_the_game(capsys):
    data = run_json(capsys, "7-wonders", "--games", "4", "--options", "side=b", "--workers", "1")
    assert data["options"] == {"side": "b"} and set(data["sides"]) <= {f"{w}:b" for w in data["wonders"]}
    data = run_json(capsys, "architects-medals", "--games", "3", "--options", "medals=false", "--workers", "1")
    assert data["options"]["medals"] is False and "medals" not in data["components"]


# ---- --out -------------------------------------------------------------------------------------


def test_out_writes_one_line_per_game(capsys, tmp_path):
    out = tmp_path / "games.jsonl"
    data = run_json(capsys, "7-wonders", "--players", "3", "--games", "9", "--seed", "3", "--out", str(out))
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [line["seed"] for line in lines] == list(range(3, 12))
    first = lines[0]
    assert set(first) == {"pack", "seed", "seats", "scores", "winners", "built", "actions", "periods"}
    # the totals after each age; the last are the final scores
    assert len(first["periods"]) == 3 and first["periods"][-1] == [s["total"] for s in first["scores"]]
    assert len(first["seats"]) == len(first["scores"]) == len(first["built"]) == 3
    assert {"bot", "wonder", "side"} <= set(first["seats"][0])
    assert set(first["scores"][0]) == {"total", "breakdown"}
    assert "city" in first["built"][0] and "stages" in first["built"][0]
    mean = sum(s["total"] for line in lines for s in line["scores"]) / 27
    assert data["mean_score"] == pytest.approx(mean, abs=1e-6)


@pytest.mark.parametrize("workers", [1, 2])
def test_out_streams_each_chunk_as_it_is_merged(tmp_path, workers):
    """Lines are on disk as the games are counted done, in seed order: nothing waits for the end."""
    game = load_game("architects", players=2)
    path = tmp_path / "games.jsonl"
    seen = []
    with open(path, "w", encoding="utf-8") as out:
        def progress(done: int) -> None:
            lines = path.read_text().splitlines()
            seen.append(done)
            assert len(lines) == done
            assert [json.loads(line)["seed"] for line in lines] == list(range(done))
        aggregate = running.run(game, "architects", ["random", "random"], 0, 40, workers=workers, out=out,
                            progress=progress)
    assert len(seen) > 1 and seen[-1] == 40 and aggregate.games == 40
    assert max(b - a for a, b in zip([0, *seen], seen)) <= running.MAX_CHUNK


def test_an_unfinished_game_is_counted_apart(monkeypatch):
    from wonderforge.interpreter.core.errors import EndlessGame
    game = load_game("architects", players=2)
    real = running.play_game

    def endless_on_seed_2(game, bots, seed, course):
        if seed == 2:
            raise EndlessGame("a game of architects passed 100 actions without ending (seed 2)")
        return real(game, bots, seed, course)

    monkeypatch.setattr(running, "play_game", endless_on_seed_2)
    out = io.StringIO()
    aggregate = running.run(game, "architects", ["random"] * 2, 0, 4, out=out)
    data = summary(game, "architects", ["random"] * 2, 0, aggregate)
    assert data["games"] == 3 and data["unfinished"]["seeds"] == [2] and data["seeds"] == [0, 3]
    assert json.loads(out.getvalue().splitlines()[2]) == {"pack": "architects", "seed": 2,
                                                          "unfinished": "a game of architects passed 100 actions "
                                                                        "without ending (seed 2)"}
    assert "WARNING: 1 games did not end" in render(data)
    assert "architects,summary,,,unfinished,1," in render_csv(data)


# ---- --against ---------------------------------------------------------------------------------



def test_against_reports_what_moved(capsys, tmp_path):
    mod = alexandria_worth(tmp_path, 44)
    data = run_json(capsys, "architects", "--players", "3", "--games", "60", "--against", str(mod))
    assert data["pack"] == "architects" and data["against"]["pack"] == str(mod)
    assert data["against"]["games"] == data["games"] == 60
    moves = data["moves"]
    alexandria = moves["wonders"]["alexandria"]
    assert alexandria["mean_score"]["delta"] > 30 and alexandria["mean_score"]["significant"]
    assert alexandria["win_rate"]["b"] > alexandria["win_rate"]["a"]
    assert alexandria["win_rate"]["p"] < 0.05 and alexandria["win_rate"]["significant"]
    # Random bots play the same games from the same seeds: the others' scores do not move at all.
    giza = moves["wonders"]["giza"]["mean_score"]
    assert giza["delta"] == 0 and not giza["significant"]
    assert moves["categories"]["wonder"]["delta"] > 0 and moves["categories"]["blue"]["delta"] == 0
    assert moves["mean_score"]["significant"]
    assert set(moves["components"]) >= {"city", "progress", "stages"}


def test_against_as_text(capsys, tmp_path):
    mod = alexandria_worth(tmp_path, 44)
    assert main(["simulate", "architects", "--games", "60", "--against", str(mod), "--quiet"]) == 0
    text = capsys.readouterr().out
    assert f"A = architects, B = {mod}" in text
    row = next(line for line in text.splitlines() if line.startswith("alexandria") and "*" in line)
    assert "+" in row
    assert "tests flagged" in text


def test_against_a_pack_without_the_bots_is_a_bad_command_line(capsys, tmp_path):
    """B must know the bots as A does: `rules` is each shipped pack's own bots.yaml."""
    mod = tmp_path / "no-bots"
    shutil.copytree(CONTENT / "architects", mod)
    (mod / "bots.yaml").unlink()
    assert main(["simulate", "architects", "--bots", "rules", "--games", "2", "--quiet", "--against", str(mod)]) == 2
    err = capsys.readouterr().err
    assert "rules" in err and "Traceback" not in err and "internal error" not in err


def test_against_writes_both_packs_games(capsys, tmp_path):
    mod = alexandria_worth(tmp_path, 44)
    out = tmp_path / "games.jsonl"
    run_json(capsys, "architects", "--games", "5", "--against", str(mod), "--out", str(out))
    packs = [json.loads(line)["pack"] for line in out.read_text().splitlines()]
    assert packs == ["architects", str(mod)] * 5  # seed by seed: A's game, then B's


# ---- --report ----------------------------------------------------------------------------------


def test_report_is_written_beside_any_format(capsys, tmp_path):
    """The page holds the run's own data (the browser test checks it draws: tests/test_balance_page.py)."""
    report = tmp_path / "report.html"
    assert main(["simulate", "dice", "--players", "3", "--games", "6", "--workers", "1", "--quiet", "--format", "csv",
                 "--report", str(report)]) == 0
    assert capsys.readouterr().out.startswith("pack,table,")
    html = report.read_text(encoding="utf-8")
    words = re.sub(r"</?span[^>]*>", "", html)  # the command is shown word by word
    assert html.startswith("<!doctype html>") and "wonderforge simulate dice --players 3 --games 6" in words


@pytest.mark.parametrize("argv, status, message", [
    (["--report", ""], 2, "--report names no file"),
    (["--report", str(CONTENT / "architects" / "report.html")], 2, "is inside the pack folder"),
    (["--report", "/no/such/folder/report.html"], 1, "cannot write /no/such/folder/report.html"),
])
def test_a_report_that_cannot_be_written_stops_the_run_before_it_plays(capsys, argv, status, message):
    assert main(["simulate", "architects", "--games", "100000", "--quiet", *argv]) == status
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_a_refused_report_leaves_no_trace_of_the_out_file(capsys, tmp_path):
    assert main(["simulate", "architects", "--games", "2", "--quiet", "--out", str(tmp_path / "games.jsonl"),
                 "--report", str(tmp_path / "no" / "r.html")]) == 1
    assert list(tmp_path.iterdir()) == []
    assert main(["simulate", "architects", "--games", "2", "--quiet", "--out", str(tmp_path / "same"),
                 "--report", str(tmp_path / "same")]) == 2
    assert "--report and --out both name" in capsys.readouterr().err and list(tmp_path.iterdir()) == []


def test_a_page_that_fails_still_prints_the_summary(capsys, monkeypatch, tmp_path):
    def broken(*args):
        raise RuntimeError("the charts' library broke")

    monkeypatch.setattr(sim, "report_page", broken)
    report = tmp_path / "r.html"
    assert main(["simulate", "architects", "--games", "3", "--workers", "1", "--quiet", "--format", "json",
                 "--report", str(report)]) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out)["games"] == 3
    assert "cannot make the report page: RuntimeError: the charts' library broke" in captured.err
    assert "Traceback" not in captured.err and list(tmp_path.iterdir()) == []


def test_without_the_charting_package_report_says_what_to_install(capsys, monkeypatch, tmp_path):
    real = sim.importlib.util.find_spec
    monkeypatch.setattr(sim.importlib.util, "find_spec", lambda name: None if name == "vl_convert" else real(name))
    assert main(["simulate", "architects", "--games", "2", "--report", str(tmp_path / "r.html")]) == 2
    err = capsys.readouterr().err
    assert "vl-convert-python" in err and "pip install 'wonderforge[report]'" in err
    assert not (tmp_path / "r.html").exists()


def test_a_failed_run_leaves_the_report_s_target_as_it_was(capsys, monkeypatch, tmp_path):
    report = tmp_path / "report.html"
    report.write_text("the last report")

    def broken(game, bots, seed, course):
        raise RuntimeError("boom")

    monkeypatch.setattr(running, "play_game", broken)
    assert main(["simulate", "architects", "--games", "2", "--workers", "1", "--quiet", "--report", str(report)]) == 1
    assert report.read_text() == "the last report" and list(tmp_path.iterdir()) == [report]


# ---- bad command lines -------------------------------------------------------------------------


@pytest.mark.parametrize("argv, message", [
    (["no-such-pack"], "no pack 'no-such-pack'"),
    (["7-wonders", "--players", "9"], "7-wonders plays with 3 to 7 players, not 9"),
    (["dice", "--players", "1"], "dice plays with 2 to 7 players, not 1"),
    (["7-wonders", "--options", "side"], "--options takes key=value words, not 'side'"),
    (["7-wonders", "--options", "colour=red"], "unknown option 'colour' for 7-wonders (its options: side)"),
    (["7-wonders", "--options", "side=c"], "option side must be one of random, a, b, not 'c'"),
    (["7-wonders", "--options", "wonders=giza"], "unknown option 'wonders' for 7-wonders"),  # --wonders, not an option
    (["dice", "--options", "players=3"], "unknown option 'players' for dice"),
    (["architects-medals", "--options", "medals=maybe"], "option medals of architects-medals is true or false"),
    (["7-wonders", "--bots", "greedy,clever"], "unknown bot 'clever'"),
    (["architects", "--against", "no-such-pack"], "no pack 'no-such-pack'"),
])
def test_a_bad_command_line_exits_2_with_a_clear_message(capsys, argv, message):
    assert main(["simulate", *argv, "--games", "2", "--quiet"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("wonderforge simulate: error: ") and message in captured.err


@pytest.mark.parametrize("argv", [["--games", "0"], ["--workers", "0"], ["--games", "many"],
                                  ["--format", "xml"]])
def test_bad_numbers_are_refused_by_the_parser(capsys, argv):
    with pytest.raises(SystemExit) as exit_:
        main(["simulate", "7-wonders", *argv])
    assert exit_.value.code == 2
    assert "error:" in capsys.readouterr().err


def test_a_pack_with_errors_exits_1(capsys, tmp_path):
    folder = tmp_path / "broken"
    shutil.copytree(CONTENT / "architects", folder)
    cards = folder / "wonders.yaml"
    cards.write_text(cards.read_text().replace("effect: vp 4", "effect: vpp 4", 1))
    assert main(["simulate", str(folder), "--games", "2", "--quiet"]) == 1
    assert "error[" in capsys.readouterr().err


# ---- progress ----------------------------------------------------------------------------------


def test_progress_off_a_terminal_is_a_line_every_tenth():
    stream = io.StringIO()
    progress = Progress("simulate dice", 200, stream=stream)
    for done in range(0, 201, 5):
        progress.update(done)
    progress.close()
    lines = stream.getvalue().splitlines()
    assert len(lines) == 10
    assert lines[0].startswith("simulate dice: 20/200 games, ") and lines[0].endswith("(10%)")
    assert "games/s" in lines[0] and "left" in lines[0]
    assert lines[-1].startswith("simulate dice: 200/200 games")


def test_progress_on_a_terminal_is_one_line_redrawn():
    stream = io.StringIO()
    progress = Progress("simulate dice", 50, stream=stream, tty=True)
    progress.update(10)
    progress.update(50)
    progress.close()
    text = stream.getvalue()
    assert text.count("\n") == 1 and text.endswith("\n") and text.startswith("\r")
    assert "[####" in text and "50/50 games" in text


def test_a_note_on_a_terminal_goes_above_the_bar_and_is_escaped_even_when_quiet():
    stream = io.StringIO()
    progress = Progress("simulate dice", 50, stream=stream, tty=True)
    progress.update(10)
    progress.note("waiting for worker 2 (pid 7)\x1b[2J")
    progress.update(50)
    progress.close()
    drawn = stream.getvalue().split("\r")
    assert drawn[1].startswith("simulate dice [") and drawn[2].strip() == ""  # the bar, then rubbed out
    assert drawn[3].startswith("waiting for worker 2 (pid 7)\\x1b[2J\n"), "a line of its own, escaped"
    assert all(part.startswith("simulate dice [") for part in drawn[4:]), "the bar drawn again below it"
    quiet = io.StringIO()
    Progress("simulate dice", 50, stream=quiet, quiet=True, tty=True).note("waiting")
    assert quiet.getvalue() == "waiting\n"


def test_progress_off_a_terminal_writes_a_line_at_least_every_heartbeat(monkeypatch):
    """A game of a slow bot may take minutes: with no game finished, a line comes all the same."""
    monkeypatch.setattr(progress_module, "TICK", 0.02)
    monkeypatch.setattr(progress_module, "HEARTBEAT", 0.1)
    stream = io.StringIO()
    progress = Progress("simulate dice", 10, stream=stream)
    time.sleep(0.55)
    progress.close()
    lines = stream.getvalue().splitlines()
    assert 3 <= len(lines) <= 6, lines
    assert all(line.startswith("simulate dice: 0/10 games, 0.0 games/s, time left unknown") for line in lines)


def _played(state, actions: int, rng: random.Random) -> None:
    """`actions` actions of a game at random, each told to the progress count as the game loop tells it."""
    for _ in range(actions):
        decided(state)
        seat = state.current_players()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))


def test_progress_reckons_the_time_left_from_decisions_before_any_game_ends():
    stream = io.StringIO()
    progress = Progress("simulate 7-wonders", 4, stream=stream)
    state = load_game("7-wonders", players=3).new_state(5)
    _played(state, 1, random.Random(2))
    guess = progress_module.counts()[progress_module.GUESS]  # a random game from the first position
    assert 40 < guess < 200 and not state.is_terminal()
    _played(state, guess // 2 - 1, random.Random(2))
    progress.start -= 60  # a minute of play: half of one of the 4 games' decisions
    line = progress.line(time.perf_counter(), bar=False)
    progress.close()
    left = re.search(r"0/4 games, 0\.0 games/s, ([\d,]+) decisions, (\d+)m(\d+)s left", line)
    assert int(left.group(1).replace(",", "")) == len(state.history) == guess // 2
    # 3.5 games to go at a minute per half game: about 7 minutes
    assert 6 * 60 <= int(left.group(2)) * 60 + int(left.group(3)) <= 8 * 60, line


def _slow_game(pack: str, actions: int) -> int:
    """A job playing `actions` actions of a game, a twentieth of a second each (as a slow bot would)."""
    state = load_game(pack).new_state(1)
    rng = random.Random(1)
    for _ in range(actions):
        _played(state, 1, rng)
        time.sleep(0.05)
    return len(state.history)


def test_a_worker_s_decisions_show_before_its_job_ends_and_keep_it_from_being_called_stalled():
    told = []
    pool = Pool(1, _slow_game, int, (), "fork", Watch(lambda *said: told.append(said), floor=0.6))
    progress_module.reset()
    seen, results = [], []
    playing = threading.Thread(target=lambda: results.extend(pool.results([("dice", 50)], 1)))
    try:
        playing.start()
        while playing.is_alive():
            seen.append(progress_module.everywhere()[progress_module.MADE])
            time.sleep(0.1)
    finally:
        playing.join()
        pool.close()
    assert results == [50]
    during = [n for n in seen if 0 < n < 50]
    assert len(during) >= 5 and during == sorted(during), seen  # counted as the job went on
    assert not told, told  # 2.5 s without a result, but never without a decision: not stalled
    assert pool.decisions not in progress_module.SOURCES  # closed: no longer counted


def test_quiet_and_pipes_keep_stdout_clean(capsys):
    assert main(["simulate", "dice", "--games", "10", "--workers", "1", "--format", "json"]) == 0
    captured = capsys.readouterr()
    json.loads(captured.out)
    assert "simulate dice: 10/10 games" in captured.err


# ---- bench -------------------------------------------------------------------------------------


def test_bench_json(capsys):
    assert main(["bench", "architects", "dice", "--players", "2,3", "--games", "3", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(r["pack"], r["players"]) for r in data["results"]] == [("architects", 2), ("architects", 3),
                                                                     ("dice", 2), ("dice", 3)]
    for r in data["results"]:
        assert {"pack", "players", "games_per_second"} <= set(r) and r["games_per_second"] > 0


def test_bench_default_player_counts():
    from wonderforge.tools.study.bench import default_players
    assert default_players(3, 7) == [3, 5, 7]
    assert default_players(2, 7) == [2, 4, 7]
    assert default_players(2, 2) == [2]


@pytest.mark.parametrize("argv, message", [
    (["no-such-pack"], "no pack 'no-such-pack'"),
    (["7-wonders", "--players", "2"], "7-wonders plays with 3 to 7 players, not 2"),
    (["dice", "--players", "x"], "--players takes whole numbers"),
])
def test_bench_bad_command_line(capsys, argv, message):
    assert main(["bench", *argv, "--games", "1"]) == 2
    assert message in capsys.readouterr().err


# ---- statistics --------------------------------------------------------------------------------


def test_wilson_interval():
    lo, hi = wilson(5, 10)
    assert (lo, hi) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(0, 10)[0] == 0 and wilson(10, 10)[1] == pytest.approx(1)
    assert wilson(Fraction(3, 2), 4) == pytest.approx(wilson(1.5, 4))
    assert wilson(0, 0) is None


def test_t_distribution():
    assert t_quantile(1) == pytest.approx(12.7062, abs=1e-4)
    assert t_quantile(10) == pytest.approx(2.2281, abs=1e-4)
    assert t_quantile(10 ** 6) == pytest.approx(1.96, abs=1e-3)
    assert t_two_sided(2.0, 5) == pytest.approx(0.101939, abs=1e-6)
    assert incomplete_beta(2, 3, 0.4) == pytest.approx(0.5248, abs=1e-4)


def test_mean_interval_and_exact_moments():
    m = Moments()
    for x in (1, 2, 3, 4, 10):
        m.add(x)
    assert (m.mean, m.variance) == (4.0, 12.5)
    lo, hi = m.interval()
    assert (lo + hi) / 2 == pytest.approx(4) and hi - 4 == pytest.approx(2.7764 * math.sqrt(12.5 / 5), abs=1e-3)
    part = Moments()
    part.add(10)
    rest = m - part
    assert (rest.n, rest.total, rest.squares) == (4, 10, 30)


def test_two_sample_tests():
    a, b = Moments(), Moments()
    for x in (1, 2, 3, 4, 5):
        a.add(x)
    for x in (3, 4, 5, 6, 9):
        b.add(x)
    test = welch(a, b)
    assert test.delta == pytest.approx(2.4) and test.statistic == pytest.approx(1.92154, abs=1e-4)
    assert test.p == pytest.approx(0.0956, abs=1e-3)  # scipy.stats.ttest_ind(equal_var=False)

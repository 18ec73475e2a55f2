"""`--format csv` of simulate, bench and score: it parses, it says what the JSON says, and text from
a pack or a scenario can never run as a spreadsheet formula."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest

from wonderforge.interpreter.packs.folders import CONTENT
from wonderforge.tools.study import csvout
from wonderforge.tools.cli.commands import main
from helpers import alexandria_worth

SCENARIOS = Path(__file__).parent / "scenarios"


def run(capsys, *argv: str) -> str:
    assert main([*argv]) == 0
    return capsys.readouterr().out


def rows_of(text: str) -> list[dict]:
    """The CSV's rows as dicts; its lines end with a line feed, no cell holds a line end."""
    assert text.endswith("\n") and "\r" not in text
    assert len(text.splitlines()) == len(list(csv.reader(io.StringIO(text, newline=""))))
    return list(csv.DictReader(io.StringIO(text, newline="")))


def number(cell: str):
    """A cell read back as JSON would have it: '' is None, true/false booleans, a number, else text."""
    if cell == "":
        return None
    if cell in ("true", "false"):
        return cell == "true"
    try:
        return json.loads(cell)
    except json.JSONDecodeError:
        return cell


# ---- simulate: the CSV holds the JSON's figures, and only those ---------------------------------


def json_figures(summary: dict, pack: str) -> dict[tuple, tuple]:
    """Every figure of a summary's tables, walked from the JSON independently of csvout:
    (pack, table, group, key, figure) -> (value, ci_low, ci_high)."""
    out = {}

    def entry(table, group, key, data):
        for name, value in data.items():
            if name == "ci" or name.endswith("_ci"):
                continue
            ci = data.get("ci" if name == "mean" else name + "_ci") or [None, None]
            out[(pack, table, group, key, name)] = (value, *ci)

    entry("summary", "", "", {k: summary[k] for k in ("games", "players", "mean_score", "mean_score_ci",
                                                      "shared_wins", "mean_actions")})
    for table in ("wonders", "sides", "bots", "categories"):
        for key, data in summary.get(table, {}).items():
            entry(table, "", key, data)
    for seat, data in enumerate(summary["seats"]):
        entry("seats", "", str(seat), data)
    for group, items in summary["components"].items():
        for key, data in items.items():
            entry("components", group, key, data)
    bots = summary["quality"]["skill_gap_bots"]
    entry("quality", "", "", summary["quality"] | {"skill_gap_bots": bots and "; ".join(bots)})
    for period in summary["periods"]:
        entry("periods", "", str(period["period"]), {k: v for k, v in period.items() if k != "period"})
    for key, data in summary["wonder_categories"].items():
        entry("wonder_categories", "", key, data)
    for name, counts in summary["histograms"].items():
        for group, pairs in (counts.items() if isinstance(counts, dict) else [("", counts)]):
            for value, n in pairs:
                entry(f"histograms.{name}", group, str(value), {"count": n})
    for group, ids in summary["never_taken"].items():
        for cid in ids:
            entry("never_taken", group, cid, {"taken": 0})
    if "never_taken_warning" in summary:
        entry("warnings", "", "", {"never_taken": summary["never_taken_warning"]})
    return out


def csv_figures(rows: list[dict]) -> dict[tuple, tuple]:
    out = {}
    for row in rows:
        where = (row["pack"], row["table"], row["group"], row["key"], row["figure"])
        assert where not in out, f"{where} twice"
        value = row["value"] or None if row["figure"] in ("bot", "skill_gap_bots") else number(row["value"])
        out[where] = (value, number(row["ci_low"]), number(row["ci_high"]))
    return out


@pytest.mark.parametrize("pack, players", [("7-wonders", "3"), ("architects", "2"), ("dice", "3")])
def test_simulate_csv_rows_are_the_json_figures(capsys, pack, players):
    argv = ["simulate", pack, "--players", players, "--games", "12", "--seed", "5", "--bots", "greedy,random",
            "--workers", "1", "--quiet"]
    data = json.loads(run(capsys, *argv, "--format", "json"))
    rows = rows_of(run(capsys, *argv, "--format", "csv"))
    assert list(rows[0]) == list(csvout.SUMMARY_HEADER)
    assert csv_figures(rows) == json_figures(data, pack)
    # The figures a designer filters for are there, as the JSON names them.
    assert {(r["table"], r["figure"]) for r in rows} >= {("wonders", "win_rate"), ("seats", "bot"),
                                                         ("categories", "mean"), ("components", "taken_rate")}
    if pack == "7-wonders":
        assert any(r["table"] == "sides" for r in rows) and any(r["group"] == "stages" for r in rows)


def test_simulate_csv_does_not_depend_on_the_workers(capsys):
    argv = ["simulate", "architects", "--games", "40", "--format", "csv", "--quiet"]
    assert run(capsys, *argv, "--workers", "1") == run(capsys, *argv, "--workers", "2")



def test_simulate_csv_against_gives_both_summaries_and_every_move(capsys, tmp_path):
    mod = str(alexandria_worth(tmp_path, 44))
    argv = ["simulate", "architects", "--players", "3", "--games", "60", "--against", mod, "--workers", "1",
            "--quiet"]
    data = json.loads(run(capsys, *argv, "--format", "json"))
    rows = rows_of(run(capsys, *argv, "--format", "csv"))
    summaries = [r for r in rows if not r["table"].startswith("moves")]
    assert csv_figures(summaries) == json_figures(data, "architects") | json_figures(data["against"], mod)

    moves = {}
    for r in rows:
        if r["table"].startswith("moves"):
            assert r["pack"] == f"architects -> {mod}"
            where = (r["table"], r["group"], r["key"], r["figure"])
            moves[where] = {m: number(r[m]) for m in csvout.MOVE} if r["a"] or r["pairs"] else number(r["value"])
    expected = {("moves", "", "", "mean_score"): data["moves"]["mean_score"]}
    for figure in ("tests", "flagged", "fdr"):  # the run's figures of the comparison, plain values
        expected[("moves", "", "", figure)] = data["moves"][figure]
    for table in ("wonders", "categories"):
        for key, move in data["moves"][table].items():
            for figure, m in (move.items() if table == "wonders" else [("mean", move)]):
                expected[(f"moves.{table}", "", key, figure)] = m
    for group, items in data["moves"]["components"].items():
        for key, move in items.items():
            for figure, m in move.items():
                expected[("moves.components", group, key, figure)] = {f: m[f] for f in csvout.MOVE}
    for c in data["moves"]["changed"]:  # what B changes: Alexandria
        for figure, value in c.items():
            if figure not in ("group", "id", "moves"):
                expected[("moves.changed", c["group"], c["id"], figure)] = value
    assert moves == expected
    # The move the mod makes is there, flagged, as in the JSON.
    alexandria = moves[("moves.wonders", "", "alexandria", "mean_score")]
    assert alexandria["delta"] > 30 and alexandria["significant"] is True


def test_simulate_csv_errors_stay_on_stderr(capsys):
    assert main(["simulate", "no-such-pack", "--format", "csv", "--quiet"]) == 2
    err = capsys.readouterr()
    assert err.out == "" and "no pack 'no-such-pack'" in err.err


# ---- the formula guard and the escapes ---------------------------------------------------------


@pytest.mark.parametrize("value, cell", [
    ("=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"),
    ("+1", "'+1"),
    ("-2+3", "'-2+3"),
    ("@SUM(A1)", "'@SUM(A1)"),
    ("\tx", "\\x09x"),           # escaped first (`safe`): a tab never begins a cell
    ("\r=1", "\\x0d=1"),
    ("a=b", "a=b"),
    ("rhodes:b", "rhodes:b"),
    ("\x1b[31mred", "\\x1b[31mred"),
    ("two\nlines", "two\\x0alines"),
    ("", ""),
    (None, ""),
    (True, "true"),
    (False, "false"),
    (-3, -3),                    # a number, even negative, is written as a number
    (-0.25, -0.25),
    (4.0, 4.0),
])
def test_a_cell(value, cell):
    assert csvout.cell(value) == cell


def test_text_with_commas_and_quotes_is_quoted_and_reads_back():
    text = csvout.render(["name", "=score"], [['a, "b"', -1], ["-x", None]])
    assert list(csv.reader(io.StringIO(text, newline=""))) == [["name", "'=score"], ['a, "b"', "-1"], ["'-x", ""]]


def test_score_csv_guards_a_scenario_names(capsys, tmp_path):
    text = (SCENARIOS / "alexandria.yaml").read_text()
    names = {"alice": '=HYPERLINK("http://evil","x")', "bob": "-1+2", "dave": "@dave, the \"third\"", "carol": "carol"}
    for old, new in names.items():
        text = text.replace(f"name: {old}\n", f"name: {json.dumps(new)}\n")
    (tmp_path / "scenario.yaml").write_text(text.replace("game: 7-wonders", "game: " + str(CONTENT / "7-wonders")))
    rows = list(csv.reader(io.StringIO(run(capsys, "score", str(tmp_path / "scenario.yaml"), "--format", "csv"),
                                       newline="")))
    assert [r[0] for r in rows[1:]] == ["'=HYPERLINK(\"http://evil\",\"x\")", "'-1+2", "'@dave, the \"third\"", "carol"]
    assert [r[-1] for r in rows[1:]] == ["true", "false", "false", "false"]


def test_simulate_csv_guards_a_pack_named_like_a_formula(capsys, tmp_path, monkeypatch):
    shutil.copytree(CONTENT / "architects", tmp_path / "=1+1")
    monkeypatch.chdir(tmp_path)
    rows = rows_of(run(capsys, "simulate", "=1+1", "--games", "3", "--workers", "1", "--format", "csv", "--quiet"))
    assert {r["pack"] for r in rows} == {"'=1+1"}


# ---- score and bench ---------------------------------------------------------------------------


@pytest.mark.parametrize("scenario", ["alexandria.yaml", "architects.yaml", "dice.yaml"])
def test_score_csv_is_the_json(capsys, scenario):
    path = str(SCENARIOS / scenario)
    data = json.loads(run(capsys, "score", path, "--format", "json"))
    rows = rows_of(run(capsys, "score", path, "--format", "csv"))
    categories = list(data["players"][0]["breakdown"])
    assert list(rows[0]) == ["name", *categories, "score", "winner"]
    assert [{k: v if k == "name" else number(v) for k, v in r.items()} for r in rows] == [
        {"name": p["name"], **p["breakdown"], "score": p["score"], "winner": p["name"] in data["winners"]}
        for p in data["players"]]


def test_score_csv_of_the_rule_book_example(capsys):
    rows = rows_of(run(capsys, "score", str(SCENARIOS / "alexandria.yaml"), "--format", "csv"))
    alice = rows[0]
    assert (alice["name"], alice["civilian"], alice["score"], alice["winner"]) == ("alice", "13", "37", "true")


def test_bench_csv(capsys):
    argv = ["bench", "architects", "dice", "--players", "2,3", "--games", "3", "--bots", "greedy,random"]
    data = json.loads(run(capsys, *argv, "--format", "json"))["results"]
    rows = rows_of(run(capsys, *argv, "--format", "csv"))
    assert list(rows[0]) == ["pack", "players", "bots", "games", "seconds", "games_per_second", "mean_score"]
    timed = ("seconds", "games_per_second")  # times differ from run to run; the rest does not
    assert [{k: v for k, v in r.items() if k not in timed} for r in rows] == [
        {"pack": d["pack"], "players": str(d["players"]), "bots": ",".join(d["bots"]), "games": "3",
         "mean_score": str(d["mean_score"])} for d in data]
    assert rows[1]["bots"] == "greedy,random,greedy" and all(float(r["games_per_second"]) > 0 for r in rows)

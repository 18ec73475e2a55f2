"""The balance report page (tools/balance_page.py): built from real runs of `wonderforge simulate`,
opened in headless Chromium (every chart drawn, no console error, no network), and checked without
a browser for what it must never hold (raw text from a pack, an external URL) and for its replay
commands, which are run."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from wonderforge.tools import balance_page
from wonderforge.tools.balance_page import PageError, page, quantiles, replay_command

CONTENT = Path(__file__).resolve().parent.parent / "content"
WONDERFORGE = [sys.executable, "-m", "wonderforge.tools.cli"]
CHROMIUM = "/usr/bin/chromium"
NEED_BROWSER = os.environ.get("WONDERFORGE_NEED_BROWSER") == "1"
GAMES = 30
COMMAND = "wonderforge simulate 7-wonders --players 4 --report report.html"


# ---- runs of simulate --------------------------------------------------------------------------


def simulate(tmp: Path, *argv: str) -> tuple[dict, list[dict], str]:
    """`wonderforge simulate ... --format json --report R.html` with its games written: (the summary,
    the games' records, the page it wrote). The page is read back as the command wrote it."""
    n = len(list(tmp.glob("games-*")))
    out, report = tmp / f"games-{n}.jsonl", tmp / f"report-{n}.html"
    args = ["simulate", *argv, "--games", str(GAMES), "--workers", "1", "--format", "json", "--quiet"]
    done = subprocess.run([*WONDERFORGE, *args, "--out", str(out), "--report", str(report)], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    return json.loads(done.stdout), records, report.read_text(encoding="utf-8")


def _all_moves(moves: dict):
    yield moves["mean_score"]
    for key in ("wonders", "sides"):
        for m in (moves.get(key) or {}).values():
            yield from (m["win_rate"], m["mean_score"])
    yield from moves["categories"].values()
    for table in moves["components"].values():
        for m in table.values():
            yield from (m["taken_rate"], m["win_rate_taken"])


# ---- the pages ---------------------------------------------------------------------------------

RUNS = {
    "7-wonders": ["7-wonders", "--players", "4", "--bots", "greedy,random"],
    "architects": ["architects", "--players", "3"],
    "architects-medals": ["architects-medals", "--options", "medals=true", "experts=true"],
    "dice": ["dice", "--players", "3"],
}


def boosted_alexandria(tmp: Path) -> Path:
    """A copy of Architects whose Alexandria scores 40 more points for its first stage."""
    folder = tmp / "architects-boosted"
    shutil.copytree(CONTENT / "architects", folder)
    wonders = folder / "wonders.yaml"
    text = wonders.read_text()
    stage = text.index("effect: vp 4", text.index("- id: alexandria\n"))
    wonders.write_text(text[:stage] + "effect: vp 44" + text[stage + len("effect: vp 4"):])
    return folder


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, tuple[dict, list[dict], str]]:
    """Each shipped pack's run, and an `--against` run: (data, records, the page written)."""
    tmp = tmp_path_factory.mktemp("runs")
    out = {name: simulate(tmp, *argv) for name, argv in RUNS.items()}
    out["against"] = simulate(tmp, "architects", "--players", "3", "--against", str(boosted_alexandria(tmp)))
    return out


@pytest.fixture(scope="module")
def pages(runs, tmp_path_factory) -> dict[str, Path]:
    """The report of each run, written."""
    tmp = tmp_path_factory.mktemp("pages")
    out = {}
    for name, (_, _, html) in runs.items():
        out[name] = tmp / f"{name}.html"
        out[name].write_text(html, encoding="utf-8")
    out["many-components"] = tmp / "many-components.html"
    out["many-components"].write_text(page(many_components(runs["architects"]), "wonderforge simulate x"),
                                      encoding="utf-8")
    return out


def many_components(run) -> dict:
    """A summary with 500 components (made from a real one): the page must stay usable."""
    data, records, _ = run
    data = json.loads(json.dumps(data))
    model = next(iter(data["components"]["city"].values()))
    data["components"] = {"cards": {f"card_{i:03}": model | {
        "taken": i, "taken_rate": i / 500, "win_rate_taken": (i * 37 % 100) / 100,
        "win_rate_taken_ci": [max(0, (i * 37 % 100) / 100 - 0.1), min(1, (i * 37 % 100) / 100 + 0.1)]}
        for i in range(500)}}
    return data


# ---- in a real browser -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium, headless, driven by Playwright; skipped when either is missing unless
    WONDERFORGE_NEED_BROWSER=1 (CI), where that fails."""
    why = None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        why = "playwright is not installed (pip install playwright; its browsers are not needed)"
    if why is None and not os.access(CHROMIUM, os.X_OK):
        why = f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    if why:
        if NEED_BROWSER:
            pytest.fail(f"WONDERFORGE_NEED_BROWSER=1 but {why}")
        pytest.skip(why)
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run"])
        try:
            yield chromium
        finally:
            chromium.close()


def open_page(browser, path: Path):
    """The page at `path`, loaded with every network request aborted; (page, problems), where problems
    lists each request attempted, console error and page error."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    problems: list[str] = []
    url = path.as_uri()

    def route(r):
        if r.request.url == url:
            return r.continue_()
        problems.append(f"network request: {r.request.url[:120]}")
        return r.abort()

    tab.route("**/*", route)
    tab.on("request", lambda r: r.url != url and not r.url.startswith("data:")
           and problems.append(f"request: {r.url[:120]}"))
    tab.on("console", lambda m: m.type == "error" and problems.append(f"console error: {m.text[:300]}"))
    tab.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    tab.goto(url)
    tab.wait_for_function("document.documentElement.dataset.charts === 'done'", timeout=60_000)
    return tab, problems


# Per chart container: whether vega-embed drew it, and how many marks of data its SVG holds.
CHARTS_DRAWN = """() => Array.from(document.querySelectorAll('.chart')).map((box) => ({
  name: box.dataset.chart, drawn: box.dataset.drawn || '', svg: !!box.querySelector('svg'),
  marks: box.querySelectorAll('svg g.role-mark > *').length}))"""


@pytest.mark.parametrize("name", [*RUNS, "against", "many-components"])
def test_the_page_draws_every_chart_offline(browser, pages, name, tmp_path):
    tab, problems = open_page(browser, pages[name])
    try:
        charts = tab.evaluate(CHARTS_DRAWN)
        tab.screenshot(path=str(tmp_path / f"{name}.png"), full_page=True)
    finally:
        tab.context.close()
    assert not problems, "\n".join(problems)
    expected = {"wonders", "scores", "categories", "heatmap", "components", "seats", "actions", "periods",
                "period-scores", "period-leaders"} | ({"ab-wonders", "moves-points"} if name == "against" else set())
    assert {c["name"] for c in charts} >= expected
    empty = [c["name"] for c in charts if c["drawn"] != "yes" or not c["svg"] or not c["marks"]]
    assert not empty, f"charts not drawn or empty in {name}: {', '.join(empty)}"
    assert (tmp_path / f"{name}.png").stat().st_size > 20_000


def test_the_components_table_sorts_by_a_clicked_header(browser, pages):
    tab, problems = open_page(browser, pages["7-wonders"])
    try:
        header = tab.locator("table.components-table th", has_text="taken").first
        column = "() => Array.from(document.querySelectorAll('table.components-table tbody tr'))" \
                 ".map((tr) => tr.cells[2].dataset.v)"
        header.click()
        up = [float(v) for v in tab.evaluate(column)]
        header.click()
        down = [float(v) for v in tab.evaluate(column)]
        assert tab.locator("table.components-table th", has_text="taken").first.get_attribute("aria-sort") \
            == "descending"
    finally:
        tab.context.close()
    assert not problems, "\n".join(problems)
    assert up == sorted(up) and down == sorted(up, reverse=True) and up[0] < up[-1]  # as numbers: 9 before 10


# ---- without a browser -------------------------------------------------------------------------

HOSTILE = "<script>alert(1)</script>\x1b[2J"


def _hostile(summary: dict, where: str) -> dict:
    """The summary with a hostile text at `where` (as a mod or a command line could bring)."""
    s = json.loads(json.dumps(summary))
    if where == "wonder":
        s["wonders"][HOSTILE] = s["wonders"].pop(next(iter(s["wonders"])))
        s["histograms"]["wonders"][HOSTILE] = [[10, 1]]
        s["wonder_categories"][HOSTILE] = {next(iter(s["categories"])): 3}
    elif where == "component":
        s["components"]["city"][HOSTILE] = next(iter(s["components"]["city"].values()))
    elif where == "category":
        s["categories"][HOSTILE] = next(iter(s["categories"].values()))
    elif where == "option":
        s["options"][HOSTILE] = HOSTILE
    elif where == "pack":
        s["pack"] = s["folder"] = HOSTILE
        s["packs"][0]["version"] = HOSTILE
    elif where == "bot":
        s["seats"][0]["bot"] = HOSTILE
        s["bots"][HOSTILE] = s["bots"].pop(next(iter(s["bots"])))
    return s


@pytest.mark.parametrize("where", ["wonder", "component", "category", "option", "pack", "bot", "command"])
def test_text_from_the_pack_or_the_command_is_escaped(runs, where):
    summary = _hostile(json.loads(json.dumps(runs["7-wonders"][0])), where)
    text = page(summary, HOSTILE if where == "command" else COMMAND)
    assert "<script>alert" not in text and "\x1b" not in text
    if where != "category":  # shown, escaped, in the HTML (a category only in charts)
        assert "&lt;script&gt;alert(1)&lt;/script&gt;\\x1b[2J" in text
    if where in ("wonder", "component", "category"):  # drawn: the chart data holds it as `safe` wrote it
        assert "<script>alert(1)</script>\\x1b[2J" in _strings(_chart_data(text))


def test_a_mod_s_hostile_name_in_the_diff_shows_escaped(tmp_path):
    mod = tmp_path / "hostile"
    shutil.copytree(CONTENT / "architects", mod)
    wonders = mod / "wonders.yaml"
    text = wonders.read_text()
    start = text.index("- id: alexandria\n")
    name = text.index("name:", start)
    end = text.index("\n", name)
    wonders.write_text(text[:name] + 'name: "<script>alert(1)</script>Alexandria"' + text[end:])
    _, _, html = simulate(tmp_path, "architects", "--against", str(mod))
    assert "<script>alert" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;Alexandria" in html


def _strings(data) -> set[str]:
    """Every string in `data`, however deep."""
    if isinstance(data, str):
        return {data}
    items = data.values() if isinstance(data, dict) else data if isinstance(data, list) else ()
    return set().union(*map(_strings, items))


def _chart_data(text: str) -> dict:
    found = re.search(r'<script type="application/json" id="wf-charts">(.*?)</script>', text, re.S)
    return json.loads(found.group(1))


def test_no_id_breaks_out_of_the_chart_data(runs):
    summary = json.loads(json.dumps(runs["architects"][0]))
    summary["components"]["city"]["</script><img src=x onerror=alert(1)>"] = \
        next(iter(summary["components"]["city"].values()))
    text = page(summary, COMMAND)
    block = re.search(r'<script type="application/json" id="wf-charts">(.*?)</script>', text, re.S).group(1)
    assert "<" not in block
    ids = [r["id"] for r in _chart_data(text)["charts"]["components"]["data"]["values"]]
    assert "</script><img src=x onerror=alert(1)>" in ids


# an attribute or a style that would fetch from elsewhere
EXTERNAL = re.compile(r"""(?:src|href|action|poster)\s*=\s*["']?\s*(?:https?:)?//"""
                      r"""|url\(\s*["']?\s*(?:https?:)?//|@import""", re.I)


@pytest.mark.parametrize("name", [*RUNS, "against"])
def test_no_external_url_anywhere(runs, name):
    text = runs[name][2]
    assert not EXTERNAL.search(text)
    ours = re.sub(r'<script type="module">.*?</script>', "", text, flags=re.S)  # the libraries set aside
    assert "http://" not in ours and "https://" not in ours and "//cdn" not in ours
    assert "$schema" not in text.split('<script type="module">')[0]  # Vega-Lite's schema would be a URL


def replayed(tmp: Path, command: str) -> dict:
    """The record of the game that `command` (a page's replay command) plays, run in `tmp`."""
    words = shlex.split(command)
    assert words[:2] == ["wonderforge", "simulate"] and words[-2:] == ["--out", words[-1]]
    done = subprocess.run([*WONDERFORGE, *words[1:], "--quiet"], cwd=tmp, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    lines = (tmp / words[-1]).read_text().splitlines()
    assert len(lines) == 1
    return json.loads(lines[0])


@pytest.mark.parametrize("argv", [
    ["7-wonders", "--players", "4", "--bots", "greedy,random", "--wonders", "giza:b,*"],
    ["architects-medals", "--players", "3", "--options", "medals=true", "experts=false"],
])
def test_a_sample_game_s_command_replays_that_game(tmp_path, argv):
    summary, records, text = simulate(tmp_path, *argv)
    by_seed = {r["seed"]: r for r in records}
    checked = 0
    for wonder, tally in summary["wonders"].items():
        seed = tally["example_seed"]
        if seed is None:
            continue
        line = replay_command(summary, seed)
        assert balance_page._e(line) in re.sub(r'</?span[^>]*>', "", text)  # shown as it is run
        game = replayed(tmp_path, line)
        assert game["scores"] == by_seed[seed]["scores"] and game["winners"] == by_seed[seed]["winners"]
        assert wonder in [game["seats"][i]["wonder"] for i in game["winners"]]
        checked += 1
        if checked == 2:
            break
    assert checked == 2


@pytest.mark.parametrize("summary, words", [
    ({"pack": "7-wonders", "folder": None, "players": 3, "seats": [{"bot": "greedy"}, {"bot": "random"},
                                                                   {"bot": "greedy"}],
      "options": {"side": "a"}},
     "wonderforge simulate 7-wonders --players 3 --bots greedy,random,greedy --seed 12 --games 1 "
     "--options side=a --out game-12.jsonl"),
    ({"pack": "mods/x", "folder": "/home/me/my mods/x", "players": 2, "seats": [{"bot": "random"}] * 2,
      "options": {"medals": True, "experts": False}, "wonders_assigned": ["giza:b", "*"]},
     "wonderforge simulate '/home/me/my mods/x' --players 2 --bots random,random --seed 12 --games 1 "
     "--options medals=true experts=false --wonders 'giza:b,*' --out game-12.jsonl"),
])
def test_the_replay_command_as_written(summary, words):
    assert replay_command(summary, 12) == words


@pytest.mark.parametrize("histogram, expected", [
    # eight scores 10, 20, 20, 30, 30, 30, 40, 50: the nearest-rank quartiles are the 2nd, 4th and 6th
    ([[20, 2], [10, 1], [30, 3], [40, 1], [50, 1]],
     {"n": 8, "min": 10, "p5": 10, "q1": 20, "median": 30, "q3": 30, "p95": 50, "max": 50, "mean": 28.75}),
    ([[7, 1]], {"n": 1, "min": 7, "p5": 7, "q1": 7, "median": 7, "q3": 7, "p95": 7, "max": 7, "mean": 7}),
    ([[5, 0]], None),
    ([], None),
])
def test_quantiles_of_a_histogram(histogram, expected):
    assert quantiles(histogram) == expected


def test_without_vl_convert_the_page_says_what_to_install(monkeypatch, runs):
    monkeypatch.setitem(sys.modules, "vl_convert", None)
    with pytest.raises(PageError, match=r"pip install 'wonderforge\[report\]'"):
        page(runs["architects"][0], "wonderforge simulate architects")


def test_a_run_whose_games_all_failed_still_gives_a_page(runs):
    summary = json.loads(json.dumps(runs["dice"][0]))
    summary |= {"games": 0, "unfinished": {"games": GAMES, "seeds": list(range(10)), "reason": "too long <here>"}}
    text = page(summary, COMMAND)
    assert "did not end" in text and "too long &lt;here&gt;" in text
    assert _chart_data(text)["charts"] == {}


def test_five_hundred_components_give_a_page_with_every_row_and_few_labels(runs):
    summary = many_components(runs["architects"])
    text = page(summary, "wonderforge simulate x")
    assert text.count("<tr>") >= 500
    rows = _chart_data(text)["charts"]["components"]["data"]["values"]
    assert len(rows) == 500 and sum(bool(r.get("extreme")) for r in rows) == 2 * balance_page.LABELLED


def test_the_against_page_holds_the_moves_the_method_and_the_diff(runs):
    text = runs["against"][2]
    assert "paired t-tests on the per-seed differences B - A" in text and "Benjamini-Hochberg" in text
    assert 'effect</code>: <code>vp 4</code> → <code>vp 44</code>' in text
    dumbbell = {r["name"]: r for r in _chart_data(text)["charts"]["ab-wonders"]["data"]["values"]}
    assert dumbbell["alexandria"]["b"] > dumbbell["alexandria"]["a"] and dumbbell["alexandria"]["star"] == "*"
    # the moves' table lists every test, the smallest q first
    body = text.split('class="sortable moves-table"')[1].split("</table>")[0]
    qs = [float(v) for v in re.findall(r'<td class="n" data-v="([^"]*)">[^<]*</td><td class="(?:yes)?">', body) if v]
    assert qs == sorted(qs) and len(qs) >= 10

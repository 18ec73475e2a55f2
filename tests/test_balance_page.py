"""The balance report page (tools/study/page/): built from real runs of `wonderforge simulate`,
opened in headless Chromium (every chart drawn, no console error or Vega warning, no network; with
--against, both packs drawn in every chart), and checked without a browser for what it must never
hold (raw text from a pack, an external URL), for its replay commands, which are run, and for A
and B side by side with --against (a wonder of one pack only included)."""

from __future__ import annotations

import json
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from wonderforge.tools.common.text import ci_pct, fig, option_text, pct
from wonderforge.tools.study.page import length
from wonderforge.tools.study.page.charts import A_COLOUR, B_COLOUR, FLAGGED, NOT_FLAGGED, move_spec
from wonderforge.tools.study.page.document import PageError, page
from wonderforge.tools.study.page.markup import esc
from wonderforge.tools.study.page.scoring import LABELLED
from wonderforge.tools.study.page.winners import quantiles, replay_command
from wonderforge.tools.study.quality import reached
from helpers import alexandria_worth

CONTENT = Path(__file__).resolve().parent.parent / "content"
MODS = Path(__file__).resolve().parent / "mods"
BAZAAR = MODS / "bazaar"             # 7 Wonders with two new yellow cards and a new guild
BLIND = MODS / "blind-rules.yaml"    # a rule bot that never builds a yellow or purple card
NEW = ["grand_bazaar", "watchtower", "cartographers_guild"]
WONDERFORGE = [sys.executable, "-m", "wonderforge.tools.cli.commands"]
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



def giza_less(tmp: Path) -> Path:
    """A pack extending 7 Wonders without Giza (for 3 to 6 players, as its 6 wonders deal)."""
    folder = tmp / "no-giza"
    folder.mkdir()
    schema = "# yaml-language-server: $schema=../../schemas/{}.schema.json\n"
    (folder / "pack.yaml").write_text(schema.format("pack") + "id: no-giza\nname: No Giza\nversion: 1.0.0\n"
                                      "extends: 7-wonders\nremove:\n  wonders: [giza]\n", encoding="utf-8")
    (folder / "rules.yaml").write_text(schema.format("rules") + "players: {min: 3, max: 6}\n", encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, tuple[dict, list[dict], str]]:
    """Each shipped pack's run, and two `--against` runs (B's Alexandria stronger; B without Giza):
    (data, records, the page written)."""
    tmp = tmp_path_factory.mktemp("runs")
    out = {name: simulate(tmp, *argv) for name, argv in RUNS.items()}
    out["against"] = simulate(tmp, "architects", "--players", "3", "--against", str(alexandria_worth(tmp, 44)))
    out["against-giza"] = simulate(tmp, "7-wonders", "--players", "4", "--against", str(giza_less(tmp)))
    out["bazaar"] = simulate(tmp, "7-wonders", "--players", "4", "--bots", str(BLIND), "--against", str(BAZAAR))
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
    out["many-components-against"] = tmp / "many-components-against.html"
    out["many-components-against"].write_text(page(*many_components_against(runs["against"])), encoding="utf-8")
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


def many_components_against(run) -> tuple:
    """page()'s arguments for two packs of 500 components, B lacking every tenth of A's and adding
    50 of its own, with a significant move for each of A's (one lacking in B has no B figure, as
    simulate gives a component that B's summary does not list)."""
    data, records, _ = run
    a, b = many_components((data, records, "")), many_components((data["against"], records, ""))
    cards = b["components"]["cards"]
    for i in range(0, 500, 10):
        cards[f"new_{i:03}"] = cards.pop(f"card_{i:03}")
    moved = {"a": 0.1, "b": 0.2, "delta": 0.1, "p": 0.01, "q": 0.04, "significant": True}
    lacking = moved | {"b": None, "delta": None, "p": 0.0, "q": 0.0}
    moves = data["moves"] | {"components": {"cards": {
        cid: dict.fromkeys(("taken_rate", "win_rate_taken"), moved if cid in cards else lacking)
        for cid in a["components"]["cards"]}}}
    return a, "wonderforge simulate x --against y", b, moves, data["diff"]


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
    lists each request attempted, console error or warning (Vega's warnings) and page error."""
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
    tab.on("console", lambda m: m.type in ("error", "warning")
           and problems.append(f"console {m.type}: {m.text[:300]}"))
    tab.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    tab.goto(url)
    tab.wait_for_function("document.documentElement.dataset.charts === 'done'", timeout=60_000)
    return tab, problems


# Per chart container: whether vega-embed drew it, how many marks of data its SVG holds, how many of
# them are in pack A's colour and in B's (fill or stroke), and the titles of its views.
CHARTS_DRAWN = """([a, b]) => Array.from(document.querySelectorAll('.chart')).map((box) => {
  const marks = Array.from(box.querySelectorAll('svg g.role-mark > *'));
  const coloured = (c) => marks.filter((m) => [m.getAttribute('fill'), m.getAttribute('stroke')]
    .some((v) => (v || '').toLowerCase() === c.toLowerCase())).length;
  return {name: box.dataset.chart, drawn: box.dataset.drawn || '', svg: !!box.querySelector('svg'),
          marks: marks.length, a: coloured(a), b: coloured(b),
          titles: Array.from(box.querySelectorAll('svg g.role-title text')).map((t) => t.textContent)};
})"""
PAIRED = ["against", "against-giza", "many-components-against", "bazaar"]
# the charts that draw A and B: in their colours, or (heat maps) one view each, titled with its pack
SIDE_BY_SIDE = {"wonders", "scores", "categories", "components", "seats", "actions", "periods", "period-scores",
                "period-leaders"}


@pytest.mark.slow  # a real browser
@pytest.mark.parametrize("name", [*RUNS, *PAIRED, "many-components"])
def test_the_page_draws_every_chart_offline(browser, pages, name, tmp_path):
    tab, problems = open_page(browser, pages[name])
    try:
        charts = tab.evaluate(CHARTS_DRAWN, [A_COLOUR, B_COLOUR])
        tab.screenshot(path=str(tmp_path / f"{name}.png"), full_page=True)
    finally:
        tab.context.close()
    assert not problems, "\n".join(problems)
    expected = {"wonders", "scores", "categories", "heatmap", "components", "seats", "actions", "periods",
                "period-scores", "period-leaders"} | ({"ab-wonders"} if name in PAIRED else set())
    assert {c["name"] for c in charts} >= expected
    empty = [c["name"] for c in charts if c["drawn"] != "yes" or not c["svg"] or not c["marks"]]
    assert not empty, f"charts not drawn or empty in {name}: {', '.join(empty)}"
    assert (tmp_path / f"{name}.png").stat().st_size > 20_000
    if name in PAIRED:
        drawn = {c["name"]: c for c in charts}
        one_colour = [n for n in SIDE_BY_SIDE if not (drawn[n]["a"] and drawn[n]["b"])]
        assert not one_colour, f"charts of {name} without marks of both packs: {', '.join(sorted(one_colour))}"
        assert [t[:4] for t in drawn["heatmap"]["titles"]] == ["A = ", "B = "]


@pytest.mark.slow  # a real browser
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


@pytest.mark.slow  # the pages of several simulations
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


@pytest.mark.slow  # the pages of several simulations
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


@pytest.mark.slow  # the pages of several simulations
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
@pytest.mark.slow  # a simulation run again as a command
def test_a_sample_game_s_command_replays_that_game(tmp_path, argv):
    summary, records, text = simulate(tmp_path, *argv)
    by_seed = {r["seed"]: r for r in records}
    checked = 0
    for wonder, tally in summary["wonders"].items():
        seed = tally["example_seed"]
        if seed is None:
            continue
        line = replay_command(summary, seed)
        assert esc(line) in re.sub(r'</?span[^>]*>', "", text)  # shown as it is run
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


@pytest.mark.slow  # the pages of several simulations
def test_without_vl_convert_the_page_says_what_to_install(monkeypatch, runs):
    monkeypatch.setitem(sys.modules, "vl_convert", None)
    with pytest.raises(PageError, match=r"pip install 'wonderforge\[report\]'"):
        page(runs["architects"][0], "wonderforge simulate architects")


@pytest.mark.slow  # the pages of several simulations
def test_a_run_whose_games_all_failed_still_gives_a_page(runs):
    summary = json.loads(json.dumps(runs["dice"][0]))
    summary |= {"games": 0, "unfinished": {"games": GAMES, "seeds": list(range(10)), "reason": "too long <here>"}}
    text = page(summary, COMMAND)
    assert "did not end" in text and "too long &lt;here&gt;" in text
    assert _chart_data(text)["charts"] == {}


@pytest.mark.slow  # the pages of several simulations
def test_five_hundred_components_give_a_page_with_every_row_and_few_labels(runs):
    summary = many_components(runs["architects"])
    text = page(summary, "wonderforge simulate x")
    assert text.count("<tr>") >= 500
    rows = _chart_data(text)["charts"]["components"]["data"]["values"]
    assert len(rows) == 500 and sum(bool(r.get("extreme")) for r in rows) == 2 * LABELLED


@pytest.mark.slow  # the pages of several simulations
def test_the_against_page_holds_the_moves_the_method_and_the_diff(runs):
    text = runs["against"][2]
    assert "paired t-tests over the seeds both packs played" in text and "Benjamini-Hochberg" in text
    assert 'effect</code>: <code>vp 4</code> → <code>vp 44</code>' in text
    dumbbell = {r["name"]: r for r in _chart_data(text)["charts"]["ab-wonders"]["data"]["values"]}
    assert dumbbell["alexandria"]["b"] > dumbbell["alexandria"]["a"] and dumbbell["alexandria"]["star"] == "*"
    # the moves' table lists every test, the smallest q first
    body = text.split('class="sortable moves-table"')[1].split("</table>")[0]
    qs = [float(v) for v in re.findall(r'<td class="n" data-v="([^"]*)">[^<]*</td><td class="(?:yes)?">', body) if v]
    assert qs == sorted(qs) and len(qs) >= 10


# ---- two packs side by side --------------------------------------------------------------------


def _packs_drawn(spec: dict) -> set[str]:
    """The packs a chart draws: those its rows name, and the titles of its views (side by side)."""
    rows = [r for part in [spec, *spec.get("hconcat", []), *spec.get("vconcat", []), *spec.get("layer", [])]
            for r in (part.get("data") or {}).get("values", [])]
    titles = [part["title"]["text"] for part in [*spec.get("hconcat", []), *spec.get("vconcat", [])]]
    return {r["pack"] for r in rows if "pack" in r} | set(titles)


@pytest.mark.slow  # the pages of several simulations
def test_with_against_every_section_shows_a_and_b_named_as_the_header_names_them(runs):
    summary, _, text = runs["against-giza"]
    a, b = "A = 7-wonders", f"B = {summary['against']['pack']}"
    assert f"<h1>Balance report: {esc(a)}, {esc(b)}</h1>" in text
    sections = dict(re.findall(r'<section id="([^"]+)">(.*?)</section>', text, re.S))
    for sid in ("wonders", "categories", "components", "seats", "length"):
        key = re.search(r'<p class="key">(.*?)</p>', sections[sid]).group(1)
        assert esc(a) in key and esc(b) in key, sid
    charts = _chart_data(text)["charts"]
    both = SIDE_BY_SIDE | {"sides", "side-scores", "heatmap"}
    assert {name: _packs_drawn(charts[name]) for name in both} == {name: {a, b} for name in both}


@pytest.mark.slow  # the pages of several simulations
def test_a_wonder_of_pack_a_only_is_drawn_for_a_alone(runs):
    summary, _, text = runs["against-giza"]
    assert "giza" in summary["wonders"] and "giza" not in summary["against"]["wonders"]
    charts = _chart_data(text)["charts"]
    for chart, name in (("wonders", "giza"), ("scores", "giza"), ("sides", "giza:a"), ("sides", "giza:b")):
        assert {r["pack"][0] for r in charts[chart]["data"]["values"] if r["name"] == name} == {"A"}, (chart, name)
    heat_a, heat_b = ({r["wonder"] for r in part["data"]["values"]} for part in charts["heatmap"]["hconcat"])
    assert "giza" in heat_a and "giza" not in heat_b
    dots = next(layer for layer in charts["ab-wonders"]["layer"] if "data" in layer and "which" in str(layer))
    assert [d["which"] for d in dots["data"]["values"] if d["name"] == "giza"] == ["a"]
    joined = [layer for layer in charts["ab-wonders"]["layer"] if layer["mark"].get("type") == "rule"
              and "x2" in layer["encoding"]]
    assert all("giza" not in [r["name"] for r in layer["data"]["values"]] for layer in joined)


@pytest.mark.slow  # the pages of several simulations
def test_with_against_the_wonders_say_their_moves(runs):
    summary, _, text = runs["against"]
    rows = _chart_data(text)["charts"]["wonders"]["data"]["values"]
    move = summary["moves"]["wonders"]["alexandria"]["win_rate"]
    assert move["significant"]
    said = {r["move"] for r in rows if r["name"] == "alexandria"}
    assert said == {f"q = {move['q']:.3g}, significant"}


def _components_table(text: str) -> list[list[tuple[str, str, str]]]:
    """The components table's rows: per cell (class, data-v, text)."""
    body = text.split('class="sortable components-table"')[1].split("</table>")[0]
    return [re.findall(r'<td(?: class="([^"]*)")?(?: data-v="([^"]*)")?>(.*?)</td>', row)
            for row in re.findall(r"<tr>(.*?)</tr>", body.split("<tbody>")[1])]


@pytest.mark.slow  # the pages of several simulations
def test_with_against_the_components_table_has_a_and_b_and_the_moves_q(runs):
    summary, _, text = runs["against"]
    heads = re.findall(r"<th [^>]*>(.*?)</th>", text.split('class="sortable components-table"')[1].split("</thead>")[0])
    assert heads == ["group", "component", "take rate, A", "B", "q", "win if taken, A", "B", "q", "difference, A (points of win rate)", "B"]
    rows = _components_table(text)
    listed = {(r[0][2], r[1][2]) for r in rows}
    expected = {(g, f"stage {c}" if g == "stages" else c) for s in (summary, summary["against"])
                for g, table in s["components"].items() for c in table}
    assert listed == expected
    for row in rows:
        group, cid = row[0][2], row[1][2].removeprefix("stage ") if row[0][2] == "stages" else row[1][2]
        a, b = summary["components"][group].get(cid), summary["against"]["components"][group].get(cid)
        assert row[2][1] == repr(a["taken_rate"]) and row[3][1] == repr(b["taken_rate"])
        for cell, figure in ((row[4], "taken_rate"), (row[7], "win_rate_taken")):
            move = summary["moves"]["components"][group][cid][figure]
            assert cell[1] == ("" if move["q"] is None else repr(move["q"]))
            assert ("yes" in cell[0]) == move["significant"]
    qs = [min((float(r[i][1]) for i in (4, 7) if r[i][1]), default=None) for r in rows]
    tested = [q for q in qs if q is not None]
    assert tested == sorted(tested) and qs[:len(tested)] == tested  # the clearest moves first


@pytest.mark.slow  # the pages of several simulations
@pytest.mark.parametrize("name", [*RUNS, "many-components"])
def test_one_pack_s_page_names_no_pack_in_its_charts(runs, pages, name):
    text = pages[name].read_text(encoding="utf-8")
    ours = text.split('<script type="module">')[0]  # the libraries set aside
    assert 'class="key"' not in ours and "(pack A)" not in ours
    summary = runs.get(name, runs["architects"])[0]
    assert f"<h1>Balance report: {esc(summary['pack'])}</h1>" in text
    assert not any(_packs_drawn(spec) for spec in _chart_data(text)["charts"].values())


@pytest.mark.parametrize("shown, expected", [
    # the figures in words that simulate's text and the page share; the page's missing value is a dash
    (pct(0.125), "12.5%"), (pct(0.125, 0), "12%"), (pct(None), "-"), (pct(None, missing="—"), "—"),
    (fig(1234.5), "1,234.50"), (fig(3.14159, 1), "3.1"), (fig(None), "-"),
    (ci_pct([0.1234, 0.5]), "[12.3, 50.0]"), (ci_pct([0.1234, 0.5], 0), "[12, 50]"), (ci_pct(None), ""),
    (option_text(True), "true"), (option_text(False), "false"), (option_text("a"), "a"), (option_text(3), "3"),
])
def test_the_figures_in_words(shown, expected):
    assert shown == expected


@pytest.mark.parametrize("counts, said", [
    ([(125, 1000)], "stand on the 125 of the 1000 games scored"),
    ([(200, 200)], ""),
    ([(125, 1000), (124, 998)], "stand on the 125 of the 1000 games of A and the 124 of the 998 games of B scored"),
])
def test_the_course_s_figures_say_when_they_stand_on_some_games(counts, said):
    from wonderforge.tools.study.page.overview import course_sample
    told = course_sample([{"games": games, "quality": {"course_games": course}} for course, games in counts])
    assert said in told and bool(told) is bool(said)


def test_periods_few_games_reached_are_not_drawn():
    """Architects and Dice games end after different numbers of rounds: a period reached by fewer
    than half of the games is left out of the curves and bars (JSON and CSV keep it)."""
    s = {"games": 10, "periods": [{"period": 1, "games": 10, "leader_won": 0.5},
                                  {"period": 2, "games": 5, "leader_won": 0.6},
                                  {"period": 3, "games": 4, "leader_won": 1.0}]}
    assert [p["period"] for p in reached(s)] == [1, 2]
    assert [r["period"] for r in length._leader_rows(s)] == [1, 2]


# ---- what B adds or changes, and what the bots never took ------------------------------------


@pytest.mark.slow  # the pages of several simulations
def test_an_against_page_on_cards_never_taken_says_so_first(runs):
    summary, _, text = runs["bazaar"]
    ids = re.findall(r'<section id="([^"]+)">', text)
    assert ids[:3] == ["run", "changed", "quality"]  # what the designer came for, first
    section = dict(re.findall(r'<section id="([^"]+)">(.*?)</section>', text, re.S))["changed"]
    warning = summary["moves"]["changed_warning"]
    assert warning.startswith(f"never taken by {BLIND}: grand_bazaar, watchtower, cartographers_guild")
    assert f'<p class="warning" id="changed-warning"><b>Warning:</b> {esc(warning)}.' in section
    rows = re.findall(r"<tr>(.*?)</tr>", section.split("<tbody>")[1])
    assert [re.search(r"<td>city: (\w+)</td>", r).group(1) for r in rows] == NEW
    for row in rows:  # never taken: 0.0% in B, 0 times, no takers' win rate; the others won their share
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row)
        assert cells[1:] == ["added", "—", "0.0%", "0", "—", "25.0%", "—", fig(summary["against"]["mean_score"])]
    # both packs' never-taken components are named in the run's section and the components'
    for sid in ("run", "components"):
        part = dict(re.findall(r'<section id="([^"]+)">(.*?)</section>', text, re.S))[sid]
        for s in (summary, summary["against"]):
            assert f"{esc(s['never_taken_warning'])}. A figure says what it stands on" in part


@pytest.mark.slow  # the pages of several simulations
@pytest.mark.parametrize("name", ["7-wonders", "architects", "against", "bazaar"])
def test_a_forest_plot_fills_only_what_the_adjusted_test_flags_and_says_which(runs, name):
    summary, _, text = runs[name]
    charts = _chart_data(text)["charts"]
    for chart, key in (("wonders", "wonders"), ("sides", "sides")):
        if chart not in charts:
            continue
        for s, label in ((summary, "A = "), (summary.get("against"), "B = ")):
            if s is None:
                continue
            rows = [r for r in charts[chart]["data"]["values"] if r.get("pack", label).startswith(label)]
            # the z-test of each row's wins against the even share, then Benjamini-Hochberg, worked out here
            even = 1 / s["players"]
            tallies = {k: t for k, t in s[key].items() if t["win_rate"] is not None}
            ps = {k: math.erfc(abs(t["win_rate"] - even) / math.sqrt(even * (1 - even) / t["games"]) / math.sqrt(2))
                  for k, t in tallies.items()}
            order = sorted(ps, key=ps.get)
            qs, running = {}, 1.0
            for rank in range(len(order), 0, -1):
                running = min(running, ps[order[rank - 1]] * len(order) / rank)
                qs[order[rank - 1]] = running
            assert {r["name"]: r["test"] for r in rows} == {k: FLAGGED if q < 0.05 else NOT_FLAGGED
                                                           for k, q in qs.items()}
        layers = charts[chart]["layer"]
        dots = next(layer for layer in layers if layer["mark"]["type"] == "point" and "tooltip" in layer["encoding"])
        assert dots["encoding"]["fill"]["condition"]["test"] == f"datum.test === {FLAGGED!r}"
        assert dots["encoding"]["fill"]["value"] == "white"
        key_layer = next(layer for layer in layers if layer["encoding"].get("fill", {}).get("field") == "test")
        assert key_layer["encoding"]["fill"]["scale"]["domain"] == [FLAGGED, NOT_FLAGGED]
    assert "z-test" in FLAGGED and "Benjamini-Hochberg q < 0.05" in FLAGGED


def test_the_moves_chart_does_not_take_the_packs_colours():
    spec = move_spec([{"kind": "wonder", "label": "giza · win rate", "delta": 0.05, "a": 0.2, "b": 0.25, "q": 0.01}],
                     "rate")
    colours = spec["encoding"]["color"]["scale"]["range"]
    assert not {c.lower() for c in colours} & {A_COLOUR.lower(), B_COLOUR.lower()}


@pytest.mark.slow  # the pages of several simulations
@pytest.mark.parametrize("name", [*RUNS, "bazaar"])
def test_pts_means_points_and_a_rate_s_move_says_points_of_win_rate(runs, name):
    text = runs[name][2].split('<script type="module">')[0]
    words = re.sub(r"<[^>]+>", " ", text.split('<script type="application/json"')[0])
    assert not re.search(r"\bpts\b", words)
    assert "first-seat advantage, in points of win rate" in words


# Where each section's title sits after following its link in the bar: (link, bar's bottom, title's
# top, the window's height, whether the page is scrolled to its end), one per link.
FOLLOW_LINKS = """async () => {
  const out = [];
  for (const a of document.querySelectorAll('nav a')) {
    a.click();
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    const title = document.querySelector(a.getAttribute('href') + ' h2');
    const end = document.documentElement.scrollHeight - window.innerHeight;
    out.push([a.getAttribute('href'), document.querySelector('nav').getBoundingClientRect().bottom,
              title.getBoundingClientRect().top, window.innerHeight, window.scrollY >= end - 1]);
  }
  return out;
}"""


@pytest.mark.slow  # a real browser
@pytest.mark.parametrize("width", [1280, 560])  # at 560 pixels the bar takes several lines
def test_a_section_title_is_not_under_the_sticky_bar_after_following_its_link(browser, pages, width):
    tab, problems = open_page(browser, pages["bazaar"])
    try:
        tab.set_viewport_size({"width": width, "height": 800})
        tab.wait_for_timeout(100)
        followed = tab.evaluate(FOLLOW_LINKS)
        warning = tab.locator("#changed-warning")
        tab.locator('nav a[href="#changed"]').click()
        seen = warning.is_visible() and warning.bounding_box()["y"] < 800
        said = warning.inner_text()
    finally:
        tab.context.close()
    assert not problems, "\n".join(problems)
    assert len(followed) == 11
    for href, bar, top, height, at_end in followed:
        assert bar <= top < height, (href, bar, top)
        assert top - bar < 60 or at_end, (href, bar, top)  # scrolled to it, not merely below the bar
    assert seen and all(cid in said for cid in NEW)


# ---- the sample games' pages -------------------------------------------------------------------


def _without_run(data: dict) -> dict:
    """A summary without its timings (`run`), also in B's under `against`."""
    return {k: _without_run(v) if isinstance(v, dict) else v for k, v in data.items() if k != "run"}


@pytest.fixture(scope="module")
def sampled(tmp_path_factory) -> tuple[Path, dict, list[dict], str]:
    """A run with options and --against written with its report: (its folder, the summary, the
    records, the CSV printed)."""
    tmp = tmp_path_factory.mktemp("sampled")
    argv = ["simulate", "7-wonders", "--players", "3", "--games", "12", "--workers", "1", "--quiet",
            "--options", "side=b", "--against", str(giza_less(tmp))]
    out = {}
    for form in ("json", "csv"):
        done = subprocess.run([*WONDERFORGE, *argv, "--format", form, "--out", str(tmp / f"{form}.jsonl"),
                               "--report", str(tmp / f"{form}.html")], capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        out[form] = done.stdout
    records = [json.loads(line) for line in (tmp / "json.jsonl").read_text().splitlines()]
    return tmp, json.loads(out["json"]), records, out["csv"]


def test_the_report_s_sample_games_are_pages_beside_it_that_replay_those_games(sampled):
    from wonderforge.tools.study.page.winners import MAX_SAMPLE_PAGES, sample_seeds
    tmp, summary, records, _ = sampled
    linked = re.findall(r'<a href="(json-(b-)?game-(\d+)\.html)">watch</a>', (tmp / "json.html").read_text())
    for n, s in enumerate([summary, summary["against"]]):
        seeds = [int(seed) for _, b, seed in linked if bool(b) == bool(n)]
        assert sorted(set(seeds)) == sorted(sample_seeds(s)[:MAX_SAMPLE_PAGES]) and seeds
        for seed in set(seeds):  # the page's game is the run's (its options and pack): the same scores
            text = (tmp / f"json-{'b-' * n}game-{seed}.html").read_text(encoding="utf-8")
            data = json.loads(re.search(r'<script type="application/json" id="replay-data">(.*?)</script>',
                                        text, re.S)[1])
            rec, = [r for r in records if r["seed"] == seed and r["pack"] == s["pack"]]
            assert data["scores"] == rec["scores"] and data["over"]
    assert sorted(p.name for p in tmp.glob("json-*game-*.html")) == sorted({name for name, _, _ in linked})
    assert f"The first {MAX_SAMPLE_PAGES} games of each table" in (tmp / "json.html").read_text()


def test_the_sample_pages_leave_json_and_csv_as_they_were(sampled):
    tmp, summary, _, csv = sampled
    argv = ["simulate", "7-wonders", "--players", "3", "--games", "12", "--workers", "1", "--quiet",
            "--options", "side=b", "--against", str(tmp / "no-giza")]
    plain = {form: subprocess.run([*WONDERFORGE, *argv, "--format", form], capture_output=True, text=True,
                                  timeout=300).stdout for form in ("json", "csv")}
    assert _without_run(json.loads(plain["json"])) == _without_run(summary)
    assert plain["csv"] == csv  # (CSV holds no timings)


@pytest.mark.slow  # a real browser (about 2 s)
def test_a_sample_game_s_page_opens_offline_with_no_console_error(browser, sampled):
    tmp = sampled[0]
    target = re.search(r'<a href="(json-game-\d+\.html)">', (tmp / "json.html").read_text())[1]
    from test_replay_viewer import offline
    problems: list[str] = []
    tab = offline(browser, tmp / target, problems)
    assert tab.text_content("#status").startswith("Action 0 of")
    tab.click("#last")
    assert "the game is over" in tab.text_content("#status") and tab.locator("#scores tr").count() == 4
    tab.context.close()
    assert problems == []

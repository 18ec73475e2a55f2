"""The page put together: `page(summary, command, ...)` takes the summary that `simulate --format
json` prints (and, with `--against`, pack B's summary, the moves and the pack diff) and returns the
whole HTML page: its header, its sections in order, the charts' specs as data, the style, and the
scripts that draw the charts and sort the tables, inlined: the page opens offline and fetches
nothing. Nothing is worked out again that the summary gives; the page only arranges it (and reads
quartiles off the score histograms).

Specs travel as JSON in a `<script type="application/json">` whose every `<` is written `\\u003c`,
so that no id can close the script; Vega, Vega-Lite and vega-embed come from the bundle of
vl-convert-python, with the drawing code, as one ES module.
"""

from __future__ import annotations

import functools
import json
import math
from typing import Sequence

from .... import version
from .charts import config
from .comparison import changed_section, comparison_section, diff_section
from .length import length_section
from .markup import Charts, esc
from .overview import glance, quality_section, run_section, subtitle
from .packs import Run, colour_key, runs_of
from .scoring import categories_section, components_section
from .winners import samples_section, seats_section, wonders_section


class PageError(RuntimeError):
    """The page cannot be made here (vl-convert-python missing): the message says what to install."""


# ---- the page ----------------------------------------------------------------------------------


def page(summary: dict, command: str, against: dict | None = None, moves: dict | None = None,
         diff: dict | None = None, samples: Sequence[dict[int, str]] = ()) -> str:
    """The whole HTML page of a run's summary (pack A's with `against`, B's summary, and its `moves`
    and `diff`), made by `command`, its sample games linked to the pages `samples` names (per pack,
    seed: file name); raises PageError without vl-convert-python."""
    bundle = _bundle()
    charts = Charts()
    s, moves = summary, moves or {}
    runs = runs_of(s, against)
    sections = [("run", "The run", run_section(s, command, against))]
    if against is not None:  # what the designer came for first
        sections.append(("changed", "B's new and changed components", changed_section(moves)))
    sections.append(("quality", "Quality of the game", quality_section(s, against)))
    if against is not None:
        sections += [("comparison", "A against B", comparison_section(charts, runs, moves)),
                     ("diff", "What B changes", diff_section(diff))]
    if any(r.s["games"] for r in runs):
        key = colour_key(runs)
        sections += [("wonders", "Wonders", key + wonders_section(charts, runs, moves)),
                     ("samples", "Sample games", samples_section(s, against, samples)),
                     ("categories", "Scoring categories", key + categories_section(charts, runs, moves)),
                     ("components", "Components", key + components_section(charts, runs, moves)),
                     ("seats", "Seats and bots", key + seats_section(charts, runs)),
                     ("length", "Game length and periods", key + length_section(charts, runs))]
    return _document(runs, sections, charts.specs, bundle)


def _document(runs: list[Run], sections: list[tuple[str, str, str]], specs: dict, bundle: str) -> str:
    s = runs[0].s
    title = "Balance report: " + (", ".join(esc(r.label) for r in runs) if len(runs) > 1 else esc(s["pack"]))
    nav = "".join(f'<a href="#{sid}">{name}</a>' for sid, name, _ in sections)
    body = "".join(f'<section id="{sid}"><h2>{name}</h2>{text}</section>' for sid, name, text in sections)
    data = _json({"config": config(), "charts": specs})
    return (f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{title}</title><style>{CSS}</style></head><body>'
            f'<header><h1>{title}</h1><p class="sub">{subtitle(runs)}</p>{glance(runs)}</header>'
            f'<nav aria-label="sections">{nav}</nav><main>{body}</main>'
            f'<footer>Made by WonderForge {esc(version())} from the summary of <code>wonderforge simulate'
            f'</code>. Intervals are 95% confidence intervals; a win shared by k players counts 1/k.</footer>'
            f'<script type="application/json" id="wf-charts">{data}</script>'
            f'<script>{SORT_JS}{NAV_JS}</script>'
            f'<script type="module">{bundle}</script></body></html>\n')


# ---- the charts' data --------------------------------------------------------------------------


def _json(data) -> str:
    """`data` as JSON for a `<script>` element: non-finite numbers as null, every `<` as `\\u003c`."""
    return json.dumps(_finite(data), ensure_ascii=False, separators=(",", ":"), allow_nan=False).replace("<", "\\u003c")


def _finite(x):
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, dict):
        return {k: _finite(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_finite(v) for v in x]
    return x


# ---- what the page runs ------------------------------------------------------------------------


def _bundle() -> str:
    """Vega, Vega-Lite and vega-embed with the page's drawing code, as one ES module; PageError
    without vl-convert-python."""
    try:
        import vl_convert
    except ImportError:
        raise PageError("the balance report needs vl-convert-python, which is not installed: "
                        "pip install 'wonderforge[report]' (pip install '.[report]' in a clone)") from None
    return _bundled(vl_convert.javascript_bundle)


@functools.lru_cache(maxsize=1)
def _bundled(make) -> str:
    # a second or so to make, the same every time: made once per process
    code = make(DRAW_JS)
    return code.replace("</script", "<\\/script").replace("<!--", "<\\!--")  # nothing may end the element


# Draws every chart of the JSON data into its container, marks each as drawn (or failed, saying
# why, on the console too) and the page as done when all are.
DRAW_JS = """
const data = JSON.parse(document.getElementById("wf-charts").textContent);
const drawn = Object.entries(data.charts).map(([name, spec]) => {
  const box = document.getElementById("chart-" + name);
  return vegaEmbed(box, spec, {renderer: "svg", actions: false, config: data.config})
    .then(() => { box.dataset.drawn = "yes"; })
    .catch((err) => {
      box.dataset.drawn = "failed";
      box.textContent = "This chart could not be drawn: " + err;
      console.error("chart " + name + ": " + err);
    });
});
Promise.all(drawn).then(() => { document.documentElement.dataset.charts = "done"; });
"""


# The sticky bar's height, for the sections' scroll margin (the bar wraps on a narrow window).
NAV_JS = """
const nav = document.querySelector("nav");
const navHeight = () => document.documentElement.style.setProperty("--nav", nav.offsetHeight + "px");
navHeight();
window.addEventListener("resize", navHeight);
"""


# Sorts a table by a clicked (or Enter-ed) header: numbers by their data-v, blanks last, text by locale.
SORT_JS = """
document.querySelectorAll("table.sortable").forEach((table) => {
  Array.from(table.tHead.rows[0].cells).forEach((th, col) => {
    const go = () => sortBy(table, th, col);
    th.addEventListener("click", go);
    th.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); } });
  });
});
function sortBy(table, th, col) {
  const up = th.getAttribute("aria-sort") !== "ascending";
  Array.from(th.parentNode.cells).forEach((h) => h.setAttribute("aria-sort", "none"));
  th.setAttribute("aria-sort", up ? "ascending" : "descending");
  const numeric = th.dataset.type === "num";
  const key = (row) => {
    const cell = row.cells[col];
    return numeric ? (cell.dataset.v === "" ? null : Number(cell.dataset.v)) : cell.textContent;
  };
  const body = table.tBodies[0];
  const rows = Array.from(body.rows).map((row) => [key(row), row]);
  rows.sort(([a], [b]) => {
    if (a === null || b === null) return (a === null) - (b === null);
    const order = numeric ? a - b : a.localeCompare(b);
    return up ? order : -order;
  });
  body.append(...rows.map(([, row]) => row));
}
"""


CSS = """
:root { --ink: #1d1d1f; --muted: #5f6368; --line: #e3e3e3; --accent: #0072B2; --warn: #D55E00;
        --a: #0072B2; --b: #D55E00; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif;
       color: var(--ink); background: #fafafa; }
header { background: #14324a; color: white; padding: 28px max(24px, calc(50% - 560px)) 20px; }
header h1 { margin: 0 0 4px; font-size: 26px; font-weight: 600; overflow-wrap: anywhere; }
header .sub { margin: 0 0 18px; color: #cfe0ee; overflow-wrap: anywhere; }
.tiles { display: grid; grid-template-columns: repeat(auto-fit, minmax(150px, 1fr)); gap: 10px; }
.tiles div { background: rgba(255,255,255,.1); border-radius: 8px; padding: 10px 14px; }
.tiles b { display: block; font-size: 22px; font-weight: 600; }
.tiles span { color: #cfe0ee; font-size: 13px; }
.tiles i { font-style: normal; font-size: 13px; font-weight: normal; color: #cfe0ee; }
nav { position: sticky; top: 0; z-index: 5; background: white; border-bottom: 1px solid var(--line);
      padding: 8px max(24px, calc(50% - 560px)); display: flex; flex-wrap: wrap; gap: 4px 18px; }
nav a { color: var(--accent); text-decoration: none; font-size: 14px; }
nav a:hover { text-decoration: underline; }
main { max-width: 1168px; margin: 0 auto; padding: 8px 24px 24px; }
section { scroll-margin-top: calc(var(--nav, 48px) + 8px); }  /* an anchor's title clear of the sticky bar */
section { background: white; border: 1px solid var(--line); border-radius: 10px; padding: 4px 24px 20px;
          margin: 18px 0; }
h2 { font-size: 20px; font-weight: 600; margin: 18px 0 4px; }
.lead { color: var(--muted); margin-top: 0; }
.key { font-size: 13px; color: var(--muted); }
.key .pack { color: var(--ink); font-weight: 600; overflow-wrap: anywhere; }
.key .pack::before { content: ""; display: inline-block; width: 10px; height: 10px; border-radius: 50%;
                     margin-right: 5px; background: var(--a); }
.key .pack.b::before { background: var(--b); }
.note { color: var(--muted); font-size: 13px; margin-bottom: 6px; }
figure { margin: 14px 0 22px; }
figcaption { color: var(--muted); font-size: 13px; max-width: 760px; margin-top: 4px; }
.chart { overflow-x: auto; min-height: 40px; }
table { border-collapse: collapse; font-size: 13px; margin: 8px 0; }
th, td { padding: 4px 8px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
th { background: #f3f5f7; font-weight: 600; position: sticky; top: 0; }
td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.yes { color: var(--warn); font-weight: 600; }
tbody tr:nth-child(even) { background: #fafbfc; }
table.sortable th { cursor: pointer; user-select: none; }
table.sortable th::after { content: " \\2195"; color: #aaa; }
table.sortable th[aria-sort="ascending"]::after { content: " \\2191"; color: var(--ink); }
table.sortable th[aria-sort="descending"]::after { content: " \\2193"; color: var(--ink); }
.scroll { max-height: 460px; overflow: auto; border: 1px solid var(--line); border-radius: 6px; }
.scroll table { margin: 0; width: 100%; }
.ci { color: var(--muted); font-size: 12px; white-space: nowrap; }
dl.facts { display: grid; grid-template-columns: max-content 1fr max-content 1fr; gap: 4px 14px; font-size: 13px;
           margin: 8px 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
@media (max-width: 760px) { dl.facts { grid-template-columns: max-content 1fr; } }
code, pre { font: 12.5px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre.cmd { background: #f3f5f7; padding: 8px 12px; border-radius: 6px; white-space: pre-wrap;
          overflow-wrap: anywhere; }
code.cmd { user-select: all; }
.w { display: inline-block; overflow-wrap: anywhere; max-width: 100%; }
table.quality td:not(:last-child) { white-space: nowrap; }
table.samples td:last-child { max-width: 760px; }
.warning { background: #fff1e8; border-left: 4px solid var(--warn); padding: 8px 12px; }
.empty { color: var(--muted); font-style: italic; }
ul.diff { padding-left: 18px; font-size: 13px; }
ul.diff li { margin: 2px 0; overflow-wrap: anywhere; }
.st { display: inline-block; min-width: 64px; font-size: 11px; text-transform: uppercase; font-weight: 600; }
.st.added { color: #009E73; } .st.removed { color: var(--warn); } .st.changed { color: var(--accent); }
footer { max-width: 1168px; margin: 0 auto; padding: 0 24px 32px; color: var(--muted); font-size: 12px; }
@media print {
  body { background: white; font-size: 11px; }
  header { background: white; color: black; padding: 0 0 8px; }
  header .sub, .tiles span { color: #444; }
  .tiles div { border: 1px solid #ccc; }
  nav { display: none; }
  main { max-width: none; padding: 0; }
  section { border: none; padding: 0; margin: 12px 0; break-inside: auto; }
  figure, tr, .tiles { break-inside: avoid; }
  h2 { break-after: avoid; }
  .scroll { max-height: none; overflow: visible; border: none; }
  th { position: static; }
  table.sortable th::after { content: ""; }
}
"""

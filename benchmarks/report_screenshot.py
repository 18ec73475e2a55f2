"""Make the README's picture of the balance report: a 7 Wonders run's page, its first screens.

    python benchmarks/report_screenshot.py [--games N] [--summary FILE.json] [--html FILE] [--out PNG]

Plays `wonderforge simulate 7-wonders --players 4 --bots expert --games N
--format json` (1000 games by default; or reads such a summary saved with `--summary`), makes its
page (tools/study/page/), opens it in Debian's Chromium through Playwright (headless, every
network request refused) and saves the top of the page, `HEIGHT` pixels of it, as a PNG
(docs/images/report.png by default). Needs `pip install vl-convert-python playwright` and
/usr/bin/chromium.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

from wonderforge.tools.study.page.document import page

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
WIDTH, HEIGHT = 1200, 1750   # CSS pixels: the header, the run, the quality and the wonders' win rates
RUN = ["simulate", "7-wonders", "--players", "4", "--bots", "expert"]


def summary(games: int) -> tuple[dict, str]:
    """The summary of the run, and its command as typed."""
    argv = [*RUN, "--games", str(games), "--format", "json", "--quiet"]
    done = subprocess.run([sys.executable, "-m", "wonderforge.tools.cli.commands", *argv], capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout), shlex.join(["wonderforge", *RUN, "--games", str(games), "--report", "report.html"])


def screenshot(html: Path, png: Path) -> None:
    """The top of the page at `html`, once every chart is drawn, as `png`; fails on a network request,
    a console error or a chart not drawn."""
    from playwright.sync_api import sync_playwright

    problems: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                    args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        try:
            tab = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
            url = html.resolve().as_uri()
            tab.route("**/*", lambda r: r.continue_() if r.request.url == url
                      else (problems.append(r.request.url), r.abort()))
            tab.on("console", lambda m: m.type == "error" and problems.append(m.text))
            tab.on("pageerror", lambda e: problems.append(str(e)))
            tab.goto(url)
            tab.wait_for_function("document.documentElement.dataset.charts === 'done'", timeout=60_000)
            failed = tab.evaluate("Array.from(document.querySelectorAll('.chart'))"
                                  ".filter((c) => c.dataset.drawn !== 'yes').map((c) => c.dataset.chart)")
            if problems or failed:
                sys.exit(f"report_screenshot: the page is not right: {problems + failed}")
            png.parent.mkdir(parents=True, exist_ok=True)
            tab.screenshot(path=str(png), clip={"x": 0, "y": 0, "width": WIDTH, "height": HEIGHT})
        finally:
            browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games to play (default 1000)")
    parser.add_argument("--summary", type=Path, help="a saved `simulate --format json` summary, instead of a run")
    parser.add_argument("--command", help="with --summary: the command that made it, for the page's header")
    parser.add_argument("--html", type=Path, help="also keep the page there")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images" / "report.png")
    args = parser.parse_args()
    if args.summary:
        data, command = json.loads(args.summary.read_text()), args.command or "wonderforge simulate 7-wonders"
    else:
        data, command = summary(args.games)
    with tempfile.TemporaryDirectory() as tmp:
        html = args.html or Path(tmp, "report.html")
        html.write_text(page(data, command), encoding="utf-8")
        screenshot(html, args.out)
    print(f"{args.out}: {args.out.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()

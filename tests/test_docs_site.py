"""The documentation (README.md, mkdocs.yml, docs/): the site builds with `mkdocs build --strict`, so
no link or anchor is broken and no page is left out of the nav; the README's links lead to a page
and an anchor of it; and the Python examples run, showing the scores they give."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
# a link of Markdown, `[text](target)`, and a fenced Python example
LINK = re.compile(r"\]\(([^)\s]+)\)")
PYTHON = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)
# an example's comment showing the first seat's scores: `state.scores()  # [{"total": 37, "breakdown": {...`
SHOWN = re.compile(r'state\.scores\(\)\)?\s+# \[(\{"total": \d+, "breakdown": \{.*?), \.\.\.\}')


def build(config: Path, site: Path) -> subprocess.CompletedProcess:
    """`mkdocs build --strict` of `config` into `site`, its output kept."""
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")  # Material's notice about MkDocs 2, not ours
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(site)],
                          capture_output=True, text=True, env=env, timeout=120)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    done = build(ROOT / "mkdocs.yml", out)
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def page(site: Path, target: str) -> Path:
    """The built file of a page of docs/ (`language.md` -> `language/index.html`)."""
    stem = Path(target).stem
    return site / "index.html" if stem == "index" else site / stem / "index.html"


def test_every_page_of_docs_is_built(site):
    pages = sorted(DOCS.glob("*.md"))
    assert len(pages) >= 18
    assert [p.name for p in pages if not page(site, p.name).is_file()] == []


def test_a_broken_link_an_unknown_anchor_and_a_page_out_of_the_nav_fail_the_build(tmp_path):
    shutil.copy(ROOT / "mkdocs.yml", tmp_path)
    shutil.copytree(DOCS, tmp_path / "docs")
    with (tmp_path / "docs" / "trust.md").open("a", encoding="utf-8") as out:
        out.write("\n[a](language.md#no-such-heading) [b](no-such-page.md) [c](#nor-here)\n")
    (tmp_path / "docs" / "stray.md").write_text("# Stray\n", encoding="utf-8")
    done = build(tmp_path / "mkdocs.yml", tmp_path / "site")
    said = done.stdout + done.stderr
    assert done.returncode != 0
    assert all(word in said for word in ("#no-such-heading", "no-such-page.md", "#nor-here", "stray.md")), said


def test_the_readme_links_lead_to_a_page_and_its_anchor(site):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = [t for t in LINK.findall(readme) if "://" not in t]
    assert len(targets) >= 20
    for target in targets:
        path, _, anchor = target.partition("#")
        assert (ROOT / path).exists(), target
        if path.startswith("docs/") and path.endswith(".md"):
            html = page(site, path).read_text(encoding="utf-8")
            assert not anchor or f'id="{anchor}"' in html, target


EXAMPLES = [(path.name, n, code) for path in [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
            for n, code in enumerate(PYTHON.findall(path.read_text(encoding="utf-8")), 1)]


@pytest.mark.parametrize(("name", "n", "code"), EXAMPLES, ids=[f"{name}-{n}" for name, n, _ in EXAMPLES])
def test_each_python_example_runs_and_gives_the_scores_it_shows(name, n, code, capsys):
    space: dict = {}
    exec(compile(code, f"{name}, example {n}", "exec"), space)
    for shown in SHOWN.findall(code):
        first = json.loads(shown + "}}")  # the seat's total and the first categories shown
        got = space["state"].scores()[0]
        assert got["total"] == first["total"] and got["breakdown"].items() >= first["breakdown"].items(), (shown, got)


def test_the_examples_include_the_engine_s_and_the_readme_s():
    assert {name for name, _, _ in EXAMPLES} >= {"README.md", "python.md", "engine.md"}

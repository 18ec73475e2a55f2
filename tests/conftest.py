"""Shared fixtures: a small pack vocabulary for the effect-language tests.

`vocabulary_from_rules` turns the `vocabulary:` mapping of a pack's rules.yaml (plus the
ids of its components) into a `Vocabulary`, the way docs/language.md describes it.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from typing import Iterable, Mapping

import pytest

# the parser's tables are kept in a folder of this test process's own, not in the user's cache
# folder (dsl/parser.py); the commands the tests start inherit it
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="wonderforge-tests-")
atexit.register(shutil.rmtree, os.environ["XDG_CACHE_HOME"], True)

from wonderforge.dsl.vocabulary import Vocabulary


def vocabulary_from_rules(vocabulary: Mapping, components: Mapping[str, Iterable[str]] | None = None) -> Vocabulary:
    """A `Vocabulary` from a rules.yaml `vocabulary:` mapping and component ids by kind.

    `resources` maps each resource class to its resources; `wild` resources are resources
    too; `zones` has `shared` and `player` lists; `components` may give `cards`, `dice`
    and `buildings` (the ids of the pack's cards, dice and buildings).
    """
    resources = vocabulary.get("resources") or {}
    zones = vocabulary.get("zones") or {}
    components = components or {}
    return Vocabulary.build(
        resource=[r for names in resources.values() for r in names] + list(vocabulary.get("wild") or ()),
        resource_class=list(resources),
        colour=vocabulary.get("colours") or (),
        symbol=vocabulary.get("symbols") or (),
        counter=vocabulary.get("counters") or (),
        token=vocabulary.get("tokens") or (),
        icon=vocabulary.get("icons") or (),
        pawn=vocabulary.get("pawns") or (),
        period=vocabulary.get("periods") or (),
        box_tag=vocabulary.get("box_tags") or (),
        shared_zone=zones.get("shared") or (),
        player_zone=zones.get("player") or (),
        card=components.get("cards") or (),
        die=components.get("dice") or (),
        building=components.get("buildings") or (),
    )


# A small pack: enough words for every construct of the language.
SMALL_VOCABULARY = {
    "resources": {"raw": ["wood", "stone", "clay", "ore"], "manufactured": ["glass", "papyrus"]},
    "wild": ["gold"],
    "colours": ["brown", "grey", "yellow", "blue", "green", "red", "purple"],
    "symbols": ["compass", "gear", "tablet"],
    "counters": ["coin", "vp", "shield"],
    "tokens": ["progress", "defeat", "victory", "culture", "conflict"],
    "icons": ["horn", "cat"],
    "pawns": ["cat"],
    "periods": ["age"],
    "box_tags": ["defence"],
    "zones": {"shared": ["central_deck", "discard_pile"], "player": ["city", "deck", "hand", "discard"]},
}
SMALL_COMPONENTS = {
    "cards": ["lighthouse", "scientists_guild"],
    "dice": ["red", "black", "purple", "yellow"],
    "buildings": ["agora", "market", "barracks_east"],
}


@pytest.fixture(scope="session")
def vocab() -> Vocabulary:
    """The small pack vocabulary (`SMALL_VOCABULARY` and `SMALL_COMPONENTS`)."""
    return vocabulary_from_rules(SMALL_VOCABULARY, SMALL_COMPONENTS)


@pytest.fixture(scope="session")
def make_vocab():
    """`vocabulary_from_rules`, for tests that build their own vocabulary."""
    return vocabulary_from_rules


class _TrustAcrossWorkers:
    """With pytest-xdist (`-n`), each worker keeps its own tally: it sends it back when it ends,
    and the controller adds them up for the report."""

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session):
        from trust import TALLY
        output = getattr(session.config, "workeroutput", None)
        if output is not None:
            output["trust"] = dict(TALLY)

    def pytest_testnodedown(self, node, error):
        from trust import TALLY
        TALLY.update(getattr(node, "workeroutput", {}).get("trust", {}))


def pytest_configure(config):
    if config.pluginmanager.hasplugin("xdist"):
        config.pluginmanager.register(_TrustAcrossWorkers(), "trust-across-workers")


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """Prints the trust report: what the trust tests ran (see tests/trust.py)."""
    from trust import SCALE, TALLY

    if not TALLY:
        return
    terminalreporter.section(f"trust report (scale {SCALE})")
    for kind, n in sorted(TALLY.items()):
        terminalreporter.write_line(f"{n:>12,}  {kind}")

"""A pack's `evaluation.yaml`: the expert bot's weights (expert.py), learned by `wonderforge train`,
which also value the search bot's playouts cut short (ismcts.py).

The file lies beside `pack.yaml`; a pack without one uses its nearest base's (a mod of 7 Wonders
plays with 7 Wonders' weights, its new cards valued by the same features), and a pack with none in
its lineage the bot's untrained default. `check` reads it with the pack: its schema
(schemas/evaluation.schema.json), and every weight naming a feature of the pack.
"""

from __future__ import annotations

import weakref
from pathlib import Path

from ...dsl.diagnostics import Diagnostic, did_you_mean
from ..packs.model import Pack
from ..packs.reading import read_file
from ..packs.schemas import EVALUATION_KIND
from .expert import LATE, Evaluation, Features, feature_names

FILE_NAME = f"{EVALUATION_KIND}.yaml"


def evaluation_file(pack: Pack) -> Path | None:
    """The evaluation file a pack plays with: its own, else its nearest base's; None when none has one."""
    for layer in reversed(list(pack.lineage())):
        path = layer.folder / FILE_NAME
        if path.exists() or path.is_symlink():
            return path
    return None


def read_evaluation(path: Path, pack: Pack, own: bool = True) -> tuple[dict | None, list[Diagnostic]]:
    """A file's `evaluation` (None when it cannot be used) and its problems, checked against the
    pack; a base's file (not `own`) may weigh features the pack lacks (it changed the base's
    scoring): those weights are left unused."""
    data, source, diagnostics = read_file(path, EVALUATION_KIND)
    if source is None or not isinstance(data, dict) or not isinstance(data.get("evaluation"), dict):
        return None, diagnostics
    evaluation = data["evaluation"]
    known = feature_names(pack)
    known += [n + LATE for n in known]
    for key in ("weights", "expert_weights"):
        for name in evaluation.get(key) or {}:
            if own and name not in known:
                diagnostics.append(source.diagnostic(
                    "E-EVAL-FEATURE", f"this pack has no feature '{name}'", ("evaluation", key, name), key=True,
                    hint=did_you_mean(name, known) or "train the file again: wonderforge train PACK"))
    errors = any(d.severity == "error" for d in diagnostics)
    return (None if errors else evaluation), diagnostics


def evaluation_diagnostics(pack: Pack) -> list[Diagnostic]:
    """What `check` reports of a pack's own evaluation file (a base's is checked with the base)."""
    path = pack.folder / FILE_NAME
    if not path.exists() and not path.is_symlink():
        return []
    return read_evaluation(path, pack)[1]


# by pack (a view's positions are played on a twin of the game, with the same pack) and player
# count; a pack is not hashable: keyed by its id, each entry dropped when its pack is
_LOADED: dict[int, dict[int, Evaluation]] = {}


def _loaded(pack: Pack) -> dict[int, Evaluation]:
    found = _LOADED.get(id(pack))
    if found is None:
        found = _LOADED[id(pack)] = {}
        weakref.finalize(pack, _LOADED.pop, id(pack), None)
    return found


def evaluation_for(game) -> Evaluation:
    """The evaluation the expert bot plays with in this game (its pack's file, read once)."""
    loaded = _loaded(game.pack)
    found = loaded.get(game.players)
    if found is None:
        path = evaluation_file(game.pack)
        own = path is not None and path.parent == game.pack.folder
        data = (read_evaluation(path, game.pack, own)[0] if path is not None else None) or {}
        found = loaded[game.players] = Evaluation(Features(game), data.get("weights") or {}, data.get("steps"),
                                                  data.get("temperature"), data.get("spread"),
                                                  data.get("expert_weights"))
    return found


def set_evaluation(game, weights: dict[str, float], steps: float | None) -> Evaluation:
    """Make the expert bot play this game's pack with these weights (training tries them before
    writing them)."""
    found = _loaded(game.pack)[game.players] = Evaluation(Features(game), weights, steps)
    return found

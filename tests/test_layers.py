"""How the code is put together (issues 13 and 25): sub-packages by layer, imports running one way
from the effect language up to the command line, with no circle and no `TYPE_CHECKING` import to hide
one; the flow kinds named in one registry only; modules of one concern and folders that stay small."""

from __future__ import annotations

import ast
import re
import shutil
import tomllib
from functools import cache
from pathlib import Path


from wonderforge.interpreter.flows.kinds import FLOWS

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("dsl", "interpreter", "tools")

# The layers, lowest first: a module imports from its own layer or lower ones only. A package's
# `__init__` says the same in words.
LAYERS = ["dsl", "interpreter.packs", "interpreter.core", "interpreter.flows", "interpreter.bots", "interpreter.games",
          "interpreter.files", "interpreter", "tools.common", "tools.authoring", "tools.study", "tools.editor", "tools.serve",
          "tools.cli", "tools"]

MOST_LINES = 650    # a module longer than this holds more than one concern
MOST_MODULES = 15   # a folder of more modules hides its design


@cache
def modules(root: Path = ROOT) -> dict[str, set[str]]:
    """Every module of dsl/, interpreter/ and tools/ (dotted, `__init__` for a package's own), with
    the modules of these it imports."""
    out = {}
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*.py")):
            name = ".".join(path.relative_to(root).with_suffix("").parts)
            out[name] = {dep for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                         if isinstance(node, ast.ImportFrom) and node.level
                         for dep in imported(name, node, root)} - {name}
    return out


def imported(name: str, node: ast.ImportFrom, root: Path) -> set[str]:
    """The modules a relative import of module `name` reads (a package's `__init__` for its names)."""
    package = name.split(".")[:-1]
    base = package[:len(package) - node.level + 1]
    target = base + (node.module.split(".") if node.module else [])
    if (root / Path(*target)).with_suffix(".py").is_file():
        return {".".join(target)}
    if not target:  # the top package (`from .. import version`): above every layer here
        return set()
    modules_named = {".".join(target + [a.name]) for a in node.names
                     if (root / Path(*target, a.name)).with_suffix(".py").is_file()}
    return modules_named or {".".join(target + ["__init__"])}


def layer(module: str) -> int:
    """The index of the layer a module belongs to: the longest layer name it falls under."""
    found = [i for i, prefix in enumerate(LAYERS) if module == prefix or module.startswith(prefix + ".")]
    assert found, f"{module} belongs to no layer: add its package to LAYERS"
    return max(found, key=lambda i: len(LAYERS[i]))


def upward(graph: dict[str, set[str]]) -> list[str]:
    """The imports of a lower layer from a higher one."""
    return [f"{m} ({LAYERS[layer(m)]}) imports {d} ({LAYERS[layer(d)]})"
            for m, deps in graph.items() for d in sorted(deps) if layer(d) > layer(m)]


def test_imports_run_from_the_language_up_to_the_tools():
    assert upward(modules()) == []


def test_an_upward_import_is_caught(tmp_path):
    for folder in FOLDERS:
        shutil.copytree(ROOT / folder, tmp_path / folder, ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "interpreter" / "core" / "planted.py").write_text("from ...tools.cli import commands\n")
    (tmp_path / "interpreter" / "packs" / "planted.py").write_text("from ..games.game import Game\n")
    assert upward(modules(tmp_path)) == ["interpreter.core.planted (interpreter.core) imports tools.cli.commands (tools.cli)",
                                         "interpreter.packs.planted (interpreter.packs) imports interpreter.games.game "
                                         "(interpreter.games)"]


def circle(graph: dict[str, set[str]]) -> list[str]:
    """A circle of imports, if any (the modules along it)."""
    done: set[str] = set()
    path: list[str] = []

    def visit(module: str) -> list[str]:
        if module in path:
            return path[path.index(module):] + [module]
        if module in done:
            return []
        path.append(module)
        for dep in sorted(graph.get(module, ())):
            found = visit(dep)
            if found:
                return found
        path.pop()
        done.add(module)
        return []

    for module in graph:
        found = visit(module)
        if found:
            return found
    return []


def test_no_module_imports_itself_through_others():
    assert circle(modules()) == []


def test_a_circle_is_caught():
    assert circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_every_package_says_what_it_holds_and_may_import():
    for init in sorted(p for folder in FOLDERS for p in (ROOT / folder).rglob("__init__.py")):
        if init.parent.name in FOLDERS:
            continue
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
        assert "Imports" in doc, f"{init.relative_to(ROOT)}: its docstring should say what it may import"


def test_modules_of_one_concern_in_small_folders():
    long = [f"{p.relative_to(ROOT)} ({n} lines)" for folder in FOLDERS for p in sorted((ROOT / folder).rglob("*.py"))
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MOST_LINES]
    crowded = [f"{d.relative_to(ROOT)} ({n} modules)" for folder in FOLDERS for d in [ROOT / folder, *(ROOT / folder).rglob("*/")]
               if d.is_dir() and (n := len([p for p in d.glob("*.py") if p.name != "__init__.py"])) > MOST_MODULES]
    assert long == [] and crowded == []


def test_no_import_hides_behind_type_checking():
    found = [str(p.relative_to(ROOT)) for folder in FOLDERS
             for p in (ROOT / folder).rglob("*.py") if "TYPE_CHECKING" in p.read_text(encoding="utf-8")]
    assert found == []


def test_only_the_registry_names_a_flow_kind():
    named = re.compile(r"[\"'](%s)[\"']" % "|".join(FLOWS))
    registry = ROOT / "interpreter" / "flows" / "kinds.py"
    found = [f"{p.relative_to(ROOT)}:{n}" for folder in ("interpreter", "tools") for p in sorted((ROOT / folder).rglob("*.py"))
             if p != registry for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if named.search(line)]
    assert found == []


def test_every_package_is_in_the_wheel():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"])
    found = {"wonderforge." + ".".join(p.parent.relative_to(ROOT).parts)
             for folder in FOLDERS for p in (ROOT / folder).rglob("__init__.py")}
    assert found - listed == set(), "a package pyproject.toml's `packages` leaves out of an installed WonderForge"

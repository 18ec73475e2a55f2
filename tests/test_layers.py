"""How the code is put together (issue 13): imports run one way, from the effect language up to the
tools, with no circle and no `TYPE_CHECKING` import to hide one; the flow kinds are named in one
registry only."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from wonderforge.interpreter.flows import FLOWS

ROOT = Path(__file__).resolve().parents[1]

# Each module's layer, lowest first: a module imports from its own layer or lower ones only.
LAYERS = {
    "dsl": ["dsl.*"],
    "packs": ["interpreter.yamlsource", "interpreter.modify", "interpreter.packs", "interpreter.catalogue", "interpreter.boards",
              "interpreter.rules"],
    "core": ["interpreter.actions", "interpreter.events", "interpreter.military", "interpreter.payment",
             "interpreter.hidden", "interpreter.state", "interpreter.scoring", "interpreter.decisions", "interpreter.flow",
             "interpreter.choosing"],
    "flows": ["interpreter.draft", "interpreter.turns", "interpreter.rolls", "interpreter.flows"],
    "games": ["interpreter.game", "interpreter.dealing", "interpreter.check", "interpreter.loading",
              "interpreter.scenario", "interpreter.reach", "interpreter.log", "interpreter.view", "interpreter.botwords", "interpreter.botfile",
              "interpreter.rulebot", "interpreter.ismcts", "interpreter.bots", "interpreter.__init__"],
    "tools": ["tools.*"],
}
ORDER = list(LAYERS)


def modules() -> dict[str, set[str]]:
    """Every module of dsl/, interpreter/ and tools/, with the modules of these it imports."""
    out = {}
    for folder in ("dsl", "interpreter", "tools"):
        for path in sorted((ROOT / folder).glob("*.py")):
            name, deps = f"{folder}.{path.stem}", set()
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom) and node.level == 1:
                    deps |= {f"{folder}.{node.module.split('.')[0]}"} if node.module else {f"{folder}.{a.name}" for a in node.names}
                elif isinstance(node, ast.ImportFrom) and node.level == 2 and node.module:
                    deps.add(node.module.split(".")[0] + ("." + node.module.split(".")[1] if "." in node.module else ".__init__"))
            out[name] = deps - {name}
    return out


def layer(module: str) -> int:
    for i, patterns in enumerate(LAYERS.values()):
        if any(module == p or p.endswith(".*") and module.startswith(p[:-1]) for p in patterns):
            return i
    raise AssertionError(f"{module} belongs to no layer: add it to LAYERS")


def test_imports_run_from_the_language_up_to_the_tools():
    wrong = [f"{m} ({ORDER[layer(m)]}) imports {d} ({ORDER[layer(d)]})"
             for m, deps in modules().items() for d in deps if layer(d) > layer(m)]
    assert wrong == []


def test_no_module_imports_itself_through_others():
    graph, done, path = modules(), set(), []

    def visit(module: str) -> None:
        assert module not in path, f"a circle of imports: {' -> '.join(path[path.index(module):] + [module])}"
        if module in done:
            return
        path.append(module)
        for dep in graph.get(module, ()):
            visit(dep)
        path.pop()
        done.add(module)

    for module in graph:
        visit(module)


def test_no_import_hides_behind_type_checking():
    found = [str(p.relative_to(ROOT)) for folder in ("dsl", "interpreter", "tools")
             for p in (ROOT / folder).glob("*.py") if "TYPE_CHECKING" in p.read_text(encoding="utf-8")]
    assert found == []


def test_only_the_registry_names_a_flow_kind():
    named = re.compile(r"[\"'](%s)[\"']" % "|".join(FLOWS))
    found = [f"{p.relative_to(ROOT)}:{n}" for folder in ("interpreter", "tools") for p in sorted((ROOT / folder).glob("*.py"))
             if p.name != "flows.py" for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if named.search(line)]
    assert found == []

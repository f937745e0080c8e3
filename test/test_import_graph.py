"""The layers of mini_iree, checked on its import graph.

The graph is read statically (``ast``) from every module of the package (tests,
benchmarks, docs and examples left out). An edge ``a -> b`` is an ``import`` or
``from ... import`` in ``a`` naming module ``b`` (``from pkg import name`` is an
edge to ``pkg.name`` when that is a module, else to ``pkg``). Edges are
*module-level* when the import runs as the module is imported, and *deferred*
when it sits inside a function or under ``if TYPE_CHECKING:``. Importing
``a.b.c`` also runs ``a/b/__init__.py``; those implicit edges to parent packages
are left out (a package and its submodules import each other by design).

* no cycles among module-level edges: a cycle makes what a module sees at import
  time depend on which module of the cycle was imported first;
* the layers, on every edge, deferred ones included (an import moved into a
  function still ties the layers together): dialects/ import no compiler/ and
  no passes/ module; no pass imports another pass's module (only the
  registry, ``passes/__init__.py``); compiler/layout and compiler/ir import no
  pass.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from conftest import REPO

PACKAGE = "mini_iree"
_SKIPPED_DIRS = {"test", "benchmarks", "docs", "examples", "__pycache__"}


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    path: str
    line: int
    deferred: bool

    def __str__(self) -> str:
        kind = " (deferred)" if self.deferred else ""
        return f"{self.source} -> {self.target}  [{self.path}:{self.line}]{kind}"


def _module_files(root: Path) -> dict[str, Path]:
    """Module name -> file, for every module of the package under ``root``."""
    modules: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root)
        if any(part in _SKIPPED_DIRS or part.startswith(".") for part in relative.parts[:-1]):
            continue
        parts = list(relative.with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join([PACKAGE, *parts])] = path
    return modules


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.Module) -> list[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Every import statement of a module, with whether it is deferred."""
    found: list[tuple[ast.Import | ast.ImportFrom, bool]] = []

    def visit(node: ast.AST, deferred: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom):
                found.append((child, deferred))
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                visit(child, True)
            elif isinstance(child, ast.If) and _is_type_checking(child.test):
                for statement in child.body:
                    visit(ast.Module(body=[statement], type_ignores=[]), True)
                for statement in child.orelse:
                    visit(ast.Module(body=[statement], type_ignores=[]), deferred)
            else:
                visit(child, deferred)

    visit(tree, False)
    return found


def _targets(node: ast.Import | ast.ImportFrom, module: str, is_package: bool, known: dict) -> list[str]:
    """The package modules an import statement names."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        if node.level:
            base = module.split(".") if is_package else module.split(".")[:-1]
            base = base[: len(base) - (node.level - 1)]
            stem = ".".join(base + ([node.module] if node.module else []))
        else:
            stem = node.module or ""
        names = [f"{stem}.{alias.name}" if f"{stem}.{alias.name}" in known else stem for alias in node.names]
    targets = []
    for name in names:
        if name != PACKAGE and not name.startswith(PACKAGE + "."):
            continue
        while name not in known and "." in name:  # `import a.b.Class`-like spellings: the longest module prefix
            name = name.rpartition(".")[0]
        targets.append(name)
    return targets


@cache
def import_graph() -> tuple[dict[str, Path], tuple[Edge, ...]]:
    modules = _module_files(REPO)
    edges: list[Edge] = []
    for module, path in modules.items():
        tree = ast.parse(path.read_text(), str(path))
        for node, deferred in _imports(tree):
            for target in dict.fromkeys(_targets(node, module, path.name == "__init__.py", modules)):
                if target != module:
                    edges.append(Edge(module, target, str(path.relative_to(REPO)), node.lineno, deferred))
    return modules, tuple(edges)


def _cycles(nodes: list[str], edges: list[Edge]) -> list[list[Edge]]:
    """One cycle (as its edges) per strongly connected component with more than one module (Tarjan)."""
    successors: dict[str, list[Edge]] = {node: [] for node in nodes}
    for edge in edges:
        successors[edge.source].append(edge)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for edge in successors[node]:
            if edge.target not in index:
                connect(edge.target)
                low[node] = min(low[node], low[edge.target])
            elif edge.target in on_stack:
                low[node] = min(low[node], index[edge.target])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(component)

    for node in nodes:
        if node not in index:
            connect(node)
    cycles = []
    for component in components:
        # A shortest path back to the start, inside the component, names the cycle.
        start = min(component)
        paths: dict[str, list[Edge]] = {start: []}
        frontier = [start]
        cycle: list[Edge] | None = None
        while frontier and cycle is None:
            following = []
            for node in frontier:
                for edge in successors[node]:
                    if edge.target == start:
                        cycle = [*paths[node], edge]
                        break
                    if edge.target in component and edge.target not in paths:
                        paths[edge.target] = [*paths[node], edge]
                        following.append(edge.target)
                if cycle is not None:
                    break
            frontier = following
        assert cycle is not None
        cycles.append(cycle)
    return cycles


def _in(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def _show(edges: list[Edge]) -> str:
    return "\n  ".join(str(edge) for edge in edges)


def test_the_graph_is_read():
    """The graph holds the package and edges it is known to have (an empty graph would pass every rule)."""
    modules, edges = import_graph()
    assert len(modules) > 100
    assert "mini_iree.passes.set_encoding" in modules
    pairs = {(e.source, e.target, e.deferred) for e in edges}
    assert ("mini_iree.passes.set_encoding", "mini_iree.compiler.analysis.encoding_properties", False) in pairs
    assert ("mini_iree.passes", "mini_iree.compiler.era", True) in pairs  # an import inside a function


def test_cycles_are_named():
    """The cycle finder names one cycle per tangle, as the edges that close it."""
    edges = [Edge(a, b, f"{a}.py", 1, False) for a, b in [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d"), ("d", "e")]]
    edges.append(Edge("e", "d", "e.py", 1, False))
    cycles = _cycles(["a", "b", "c", "d", "e"], edges)
    assert sorted([(e.source, e.target) for e in cycle] for cycle in cycles) == [
        [("a", "b"), ("b", "c"), ("c", "a")],
        [("d", "e"), ("e", "d")],
    ]
    assert _cycles(["a", "b"], [Edge("a", "b", "a.py", 1, False)]) == []


def test_no_import_cycles_at_module_level():
    modules, edges = import_graph()
    cycles = _cycles(list(modules), [e for e in edges if not e.deferred])
    message = "\n".join(
        f"cycle {' -> '.join([c[0].source, *(e.target for e in c)])}:\n  {_show(c)}" for c in cycles
    )
    if cycles:
        pytest.fail("module-level import cycles:\n" + message)


def test_dialects_import_no_compiler_or_pass_module():
    _, edges = import_graph()
    bad = [
        e
        for e in edges
        if _in(e.source, "mini_iree.dialects")
        and (_in(e.target, "mini_iree.compiler") or _in(e.target, "mini_iree.passes"))
    ]
    if bad:
        pytest.fail("dialects/ import from the layers above them:\n  " + _show(bad))


def test_no_pass_imports_another_pass():
    _, edges = import_graph()
    bad = [
        e
        for e in edges
        if _in(e.source, "mini_iree.passes")
        and e.source != "mini_iree.passes"
        and _in(e.target, "mini_iree.passes")
        and e.target != "mini_iree.passes"
    ]
    if bad:
        pytest.fail(
            "passes import other passes' modules (shared helpers belong in compiler/analysis; "
            "a pass run whole is passes.pass_class(flag)):\n  " + _show(bad)
        )


def test_layout_and_ir_import_no_pass():
    _, edges = import_graph()
    bad = [
        e
        for e in edges
        if (_in(e.source, "mini_iree.compiler.layout") or _in(e.source, "mini_iree.compiler.ir"))
        and _in(e.target, "mini_iree.passes")
    ]
    if bad:
        pytest.fail("compiler/layout and compiler/ir import passes:\n  " + _show(bad))

"""The import graph of the package has no cycle between files, and no module reaches a
``_private`` name of another package. (The layer contract between packages is
import-linter's, in pyproject.toml; .ci/run runs it.)"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "forest_files"
# Private by name, public by contract: Forest 0.4's tests import it from ``core``.
FOREST_CONTRACT = {("forest_files.store.recall", "_plain_language_fts_query")}


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE.parent).with_suffix("")
        parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
        found[".".join(parts)] = path
    return found


def _imports(path: Path, name: str, modules: dict[str, Path]) -> list[tuple[str, str, int]]:
    """(imported module, imported name or "", line) for every import in ``path``,
    deferred ones and TYPE_CHECKING ones included."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name, "", node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1])
                base = f"{base}.{node.module}" if node.module else base
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                if sub in modules:
                    out.append((sub, "", node.lineno))
                else:
                    out.append((base, alias.name, node.lineno))
    return [(m, n, line) for m, n, line in out if m.startswith("forest_files")]


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        for target, _name, _line in _imports(path, name, modules):
            while target not in modules and "." in target:
                target = target.rpartition(".")[0]
            if target != name and target in modules:
                graph[name].add(target)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            comp = []
            while True:
                top = stack.pop()
                on.discard(top)
                comp.append(top)
                if top == node:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _package_of(module: str) -> str:
    parts = module.split(".")
    return ".".join(parts[:2]) if len(parts) > 2 else module


def test_import_graph_has_no_cycle_between_files_accepted() -> None:
    graph = _graph()
    # A package's face (its __init__) handing names on is not a cycle of its own.
    faces = {m for m, p in _modules().items() if p.name == "__init__.py"}
    trimmed = {m: {t for t in ts if t not in faces} for m, ts in graph.items() if m not in faces}
    assert _cycles(trimmed) == []


def test_no_private_name_reached_across_packages_accepted() -> None:
    modules = _modules()
    reached = []
    for name, path in modules.items():
        for target, imported, line in _imports(path, name, modules):
            names = [imported, *target.split(".")]
            private = any(n.startswith("_") and not n.startswith("__") for n in names if n)
            if (target, imported) in FOREST_CONTRACT:
                continue
            if private and _package_of(target) != _package_of(name):
                reached.append(f"{name}:{line} -> {target} {imported}".strip())
    assert reached == []


# Attribute names that are public API despite the underscore (namedtuple's).
PUBLIC_UNDERSCORE = {"_replace", "_asdict", "_fields", "_make"}


def test_no_private_method_called_across_packages_accepted() -> None:
    """``obj._name`` where ``_name`` is defined only in other packages: a private
    interface reached from outside (the store's, ``Repository``'s)."""
    trees = {path: ast.parse(path.read_text(encoding="utf-8")) for path in _modules().values()}

    def room(path: Path) -> str:
        parts = path.relative_to(PACKAGE).parts
        return parts[0] if len(parts) > 1 else "(face)"

    defined: dict[str, set[str]] = {}
    for path, tree in trees.items():
        for node in ast.walk(tree):
            is_def = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            if is_def and node.name.startswith("_") and not node.name.startswith("__"):
                defined.setdefault(node.name, set()).add(room(path))
    reached = []
    for path, tree in trees.items():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Attribute) or node.attr not in defined:
                continue
            if node.attr in PUBLIC_UNDERSCORE:
                continue
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                continue
            if room(path) not in defined[node.attr]:
                reached.append(f"{path.relative_to(PACKAGE)}:{node.lineno} .{node.attr}")
    assert reached == []

"""The tests import only what the test extra declares.

The README's test command installs ``.[test]`` alone; ``bash .ci/run`` installs the dev
extra beside it, so a test module importing a package only the dev extra brings passed in
CI and failed at collection for a newcomer; one a declared package happens to require
today (click, through the MCP SDK's uvicorn) breaks the day that package stops. Every
module a test file imports at its top level is the standard library's, the repository's
own, or a distribution the core dependencies or the test extra name.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OWN = {"forest_files", "tests", "bench"}


def _name(requirement: str) -> str:
    """The distribution a requirement names."""
    found = re.match(r"\s*([A-Za-z0-9._-]+)", requirement)
    assert found, requirement
    return found.group(1)


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _declared() -> set[str]:
    """The distributions the core dependencies and the test extra name."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    listed = project["dependencies"] + project["optional-dependencies"]["test"]
    return {_norm(_name(r)) for r in listed}


def _top_imports(path: Path) -> set[str]:
    """The top-level packages ``path`` imports in its module body (not in a function, a
    ``try`` or an ``if``: those choose at run time)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_tests_import_only_what_the_test_extra_declares_accepted() -> None:
    declared = _declared()
    provided = metadata.packages_distributions()
    strays = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for name in sorted(_top_imports(path) - OWN - set(sys.stdlib_module_names)):
            dists = {_norm(d) for d in provided.get(name, [])}
            if not dists & declared:
                strays.append(f"{path.relative_to(ROOT)}: {name} ({', '.join(sorted(dists))})")
    assert not strays, "not declared by .[test] or the core: " + "; ".join(strays)

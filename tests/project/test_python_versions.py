"""The package on every Python its metadata admits (``requires-python >= 3.11``), not
only the one the suite runs on.

Python 3.13 cleans docstrings when it compiles them, through UTF-8: a docstring
holding a lone surrogate (``\\udce9`` written as an escape, not spelled out) stops
the module compiling, and doors/streams.py had one: every ``forest`` command on 3.13
ended in a traceback before the boundary existed to catch it.

Stores: byte-compiled copies under tmp_path only.
Refuses: nothing; fails when a module cannot be compiled by an admitted Python.
Returns: nothing.
Test: this file.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TREES = ("forest_files", "tests", "bench", "examples")
ADMITTED = ("python3.11", "python3.12", "python3.13", "python3.14")


def _surrogate(text: str) -> bool:
    return any("\ud800" <= c <= "\udfff" for c in text)


def test_docstrings_hold_no_lone_surrogate_refused() -> None:
    """No docstring of the package holds a lone surrogate (Python 3.13 refuses to
    compile it): write ``\\\\udce9`` to show one. (Tests, benches and examples: the
    compile test below, where a 3.13 is installed.)"""
    found = []
    for path in sorted((ROOT / "forest_files").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                doc = ast.get_docstring(node, clean=False)
                if doc and _surrogate(doc):
                    found.append(f"{path.relative_to(ROOT)}: {getattr(node, 'name', 'module')}")
    assert not found, found


@pytest.mark.slow
@pytest.mark.parametrize("python", ADMITTED)
def test_every_module_compiles_on_admitted_python_accepted(python: str, tmp_path: Path) -> None:
    """Each admitted Python found on this machine byte-compiles every module (a copy,
    so nothing is written beside the sources); one not installed here, or a shim that
    runs none (pyenv's for a version not selected), is skipped."""
    found = shutil.which(python)
    runs = (
        found is not None
        and subprocess.run(
            [found, "-c", "pass"], capture_output=True, timeout=60, check=False
        ).returncode
        == 0
    )
    if found is None or not runs:
        pytest.skip(f"{python} is not installed here")
    copy = tmp_path / "src"
    for tree in TREES:
        shutil.copytree(ROOT / tree, copy / tree, ignore=shutil.ignore_patterns("__pycache__"))
    done = subprocess.run(
        [found, "-m", "compileall", "-q", "-j", "0", *TREES],
        cwd=copy,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


def test_sql_numbered_placeholders_refused() -> None:
    """No statement of the store's (the one place SQL lives) binds ``?1``: Python 3.12
    warns and 3.14 refuses a numbered placeholder given a sequence, as a named one;
    name it (``:entry``) and pass a dict, or use plain ``?``."""
    numbered = re.compile(r"\?\d")
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in sorted((ROOT / "forest_files").rglob("*"))
        if path.suffix in (".py", ".sql") and "store" in path.parts
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if numbered.search(line)
    ]
    assert not found, found

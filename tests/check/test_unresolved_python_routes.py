"""An unresolved Python-symbol binding's routes speak of symbols: a file that no
longer parses is routed to its syntax error (the routes said to restore "the
heading, symbol or markers" and that "no heading stands where it stood"), and a
symbol gone with nothing to rebind to says no symbol stands there."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.helpers.cli import findings, ok
from tests.helpers.git import commit_all, make_repo, write


def _unresolved(tmp_path: Path, now: str) -> dict[str, Any]:
    root = make_repo(tmp_path)
    ok(root, "init")
    write(root, "m.py", "def total():\n    return 1\n")
    ok(root, "adopt", "m.py::total", "--words", "Signed off")
    commit_all(root, "adopt")
    write(root, "m.py", now)
    (found,) = findings(root)
    assert found["kind"] == "unresolved", found
    return found


def test_symbol_file_not_valid_python_routed_to_the_syntax_error_detected(
    tmp_path: Path,
) -> None:
    found = _unresolved(tmp_path, "def total(:\n    return 1\n")
    notes = " ".join(f"{r['label']} {r['note']}" for r in found["routes"])
    assert "syntax error" in notes and "line 1" in notes, notes
    assert "heading" not in notes


def test_symbol_gone_no_candidate_route_speaks_of_symbols_detected(tmp_path: Path) -> None:
    found = _unresolved(tmp_path, "X = 1\n")
    notes = " ".join(f"{r['label']} {r['note']}" for r in found["routes"])
    assert "no symbol stands where it stood" in notes, notes
    assert "heading" not in notes

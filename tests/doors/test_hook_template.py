"""The hook template ships twice (top-level hooks/ for readers, packaged for the installer)."""

from __future__ import annotations

from pathlib import Path

from forest_files.doors.hooks import MARKER, template

ROOT = Path(__file__).resolve().parents[2]


def test_hook_template_copies_identical_accepted() -> None:
    packaged = (ROOT / "forest_files" / "doors" / "hooks" / "template.sh").read_bytes()
    public = (ROOT / "hooks" / "forest-hook.sh").read_bytes()
    assert packaged == public, (
        "hooks/forest-hook.sh and forest_files/doors/hooks/template.sh differ; re-sync with "
        "cp forest_files/doors/hooks/template.sh hooks/forest-hook.sh"
    )


def test_hook_template_records_interpreter_and_marker_accepted() -> None:
    text = template("/opt/py/bin/python3")
    assert "FOREST_PYTHON='/opt/py/bin/python3'" in text
    assert MARKER in text
    assert "@PYTHON@" not in text


def test_hook_template_runs_only_installed_code_accepted() -> None:
    """``-E`` (no PYTHON* variable) and ``-P`` (not the repository's directory on the
    path); neither ``-s`` nor ``-I``, which would lose a ``pip install --user``."""
    text = template("/opt/py/bin/python3")
    [line] = [line for line in text.splitlines() if line.startswith("exec ")]
    assert line == 'exec "$FOREST_PYTHON" -E -P -c \''

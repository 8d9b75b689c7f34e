"""``forest restore`` of a Python symbol in a file that does not parse says to fix it,
then restore (the shared refusal says "before binding": adopt's words)."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, make_repo, write

WORDS = "I adopt these words as written"


def test_restore_symbol_in_file_with_syntax_error_says_restore_refused(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(repo, "m.py", "def f():\n    return 1\n")
    commit_all(repo, "init")
    ok(repo, "adopt", "m.py::f", "--words", WORDS)
    (repo / "m.py").write_text("def f(:\n    return 1\n")
    got = forest(repo, "restore", "m.py::f")
    assert got.exit_code == 1
    line = got.stderr.strip()
    assert line.startswith("forest: m.py: not valid Python (line 1")
    assert "binding" not in line and "nothing was written" in line
    assert "then restore again" in line
    assert (repo / "m.py").read_text() == "def f(:\n    return 1\n"

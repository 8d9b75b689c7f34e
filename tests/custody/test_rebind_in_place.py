"""``forest rebind`` to the place the binding stands already (old and new naming the
same selector) is refused: the append-only ledger never gains an act that moves
nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, make_repo, write

DOC = "# T\n\nx\n\n## A\n\na\n"


def _ledger(repo: Path) -> dict[str, bytes]:
    folder = repo / ".forest" / "ledger"
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        ("t.md", "t.md", ()),
        ("t.md#A", "t.md#T/A", ()),
        ("t.md#T/A", "t.md#A", ("--words", "same place, new text")),
    ],
)
def test_rebind_to_where_it_stands_refused(
    tmp_path: Path, old: str, new: str, words: tuple[str, ...]
) -> None:
    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(repo, "t.md", DOC)
    ok(repo, "adopt", "t.md", "--words", "first")
    ok(repo, "adopt", "t.md#A", "--words", "first")
    commit_all(repo, "adopt")
    if words:
        write(repo, "t.md", DOC.replace("\na\n", "\nb\n"))
    before = _ledger(repo)
    log = ok(repo, "log").stdout
    result = forest(repo, "rebind", old, new, *words)
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith("forest: ") and "nothing recorded" in line, line
    assert "forest supersede" in line
    assert "rebound" not in result.stdout
    assert _ledger(repo) == before
    assert ok(repo, "log").stdout == log

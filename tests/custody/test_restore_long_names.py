"""``forest restore`` of a file whose name is near the 255-byte limit: its
temporary file beside it has a short name of fixed length, never the file's own
name with more around it (which no filesystem could create)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, git, make_repo, write

TEXT = "# T\n\nground words\n"


@pytest.mark.parametrize("size", [231, 240, 255])
def test_restore_name_of_many_bytes_recovers(tmp_path: Path, size: int) -> None:
    name = "é" * ((size - 3) // 2) + "n" * ((size - 3) % 2) + ".md"
    assert len(name.encode("utf-8")) == size
    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(repo, f"sub/{name}", TEXT)
    ok(repo, "adopt", f"sub/{name}", "--words", "first")
    commit_all(repo, "adopt")
    write(repo, f"sub/{name}", "# T\n\nedited words\n")
    result = forest(repo, "restore", f"sub/{name}")
    assert result.exit_code == 0, result.output
    assert (repo / "sub" / name).read_text(encoding="utf-8") == TEXT
    (repo / "sub" / name).unlink()  # a whole-file binding's missing file is recreated
    ok(repo, "restore", f"sub/{name}")
    assert (repo / "sub" / name).read_text(encoding="utf-8") == TEXT
    assert os.listdir(repo / "sub") == [name]  # no temporary file left beside it
    assert git(repo, "status", "--porcelain") == ""

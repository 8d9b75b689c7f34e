"""``forest restore`` of a bound file the reader refuses (a NUL byte, bytes that are not
UTF-8, a lone CR). A whole-file binding writes the adopted text over the whole file,
its bytes kept exactly in the capture first (it refused, so the file had to be fixed by
hand before the route that restores it worked). A section binding cannot be spliced
into a file whose lines are not text: refused in one line naming the byte, what to do
first, and that nothing was written."""

from __future__ import annotations

from pathlib import Path

import pytest

from forest_files.custody.restore import splice
from forest_files.kernel.errors import ForestError
from tests.custody.test_restore import captures, kinds, new_repo
from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all

WHOLE = "line one\nline two\n"
DOC = "# Doc\n\n## Canon\n\nThe sky is blue.\n"
BAD = {
    "nul": b"line one\x00\nline two\n",
    "not-utf8": b"line \xff one\nline two\n",
    "lone-cr": b"line one\rline two\n",
}


@pytest.mark.parametrize("how", sorted(BAD))
def test_restore_whole_file_the_reader_refuses_recovers(tmp_path: Path, how: str) -> None:
    repo = new_repo(tmp_path, {"whole.txt": WHOLE})
    ok(repo, "adopt", "whole.txt", "--words", "the whole file")
    commit_all(repo, "adopt")
    (repo / "whole.txt").write_bytes(BAD[how])
    done = forest(repo, "restore", "whole.txt")
    assert done.exit_code == 0, done.output
    assert (repo / "whole.txt").read_bytes() == WHOLE.encode()
    (kept,) = captures(repo)
    assert kept.read_bytes().endswith(BAD[how])  # after its one line of header
    assert kinds(repo) == ["clean"]


@pytest.mark.parametrize("how", sorted(BAD))
def test_restore_section_of_a_file_the_reader_refuses_refused(tmp_path: Path, how: str) -> None:
    repo = new_repo(tmp_path, {"doc.md": DOC})
    ok(repo, "adopt", "doc.md#Doc/Canon", "--words", "canon")
    commit_all(repo, "adopt")
    bad = DOC.encode().replace(b"The sky is blue.\n", BAD[how])
    (repo / "doc.md").write_bytes(bad)
    ledger = sorted(p.name for p in (repo / ".forest/ledger/segments").iterdir())
    refused = forest(repo, "restore", "doc.md#Doc/Canon")
    assert refused.exit_code == 1, refused.output
    (line,) = refused.stderr.splitlines()
    assert line.startswith("forest: doc.md: ") and "at byte offset" in line, line
    assert "nothing was written" in line and "then restore again" in line, line
    assert "bind a text file instead" not in line, line  # adopt's advice, not a restore's
    assert (repo / "doc.md").read_bytes() == bad
    assert sorted(p.name for p in (repo / ".forest/ledger/segments").iterdir()) == ledger
    assert not captures(repo)


def test_restore_whole_file_with_exclusions_the_reader_refuses_refused() -> None:
    """The excluded parts are kept as they stand: they cannot be read in such a file."""
    with pytest.raises(ForestError, match="nothing was written"):
        splice(BAD["nul"], "whole.txt", ("#Drafts",), WHOLE, "whole.txt")

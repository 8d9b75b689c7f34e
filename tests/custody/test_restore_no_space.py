"""A restore the disk has no room for says to free space, never to make the file
writable (custody/restore_files.py ``fix_for``, custody/restore_capture.py).

The bound file's new text (a whole-file binding of 800 KB) or the capture of the
text a restore replaces (a section grown to 800 KB) cannot be written under a
file-size limit of 256 KiB, in a child process alone (tests/helpers/fsize.py):
``EFBIG``, as on a full disk or over a quota. Before the fix the one line said
"make big.md and its directory writable" (or the captures folder), which the file
already was. Either way nothing is written: the file byte-identical, no temporary
file beside it, no capture or part file; with room again the same command restores.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from forest_files.kernel.paths import CAPTURES_DIR
from forest_files.kernel.state import shared_dir
from tests.helpers.cli import forest
from tests.helpers.custody import DOC, adopted_repo
from tests.helpers.fsize import limited

pytest.importorskip("resource")

LIMIT = 256 * 1024
# ~800 KB each: under [policy] max_body_bytes, over the limit
BIG = "# Big\n\n" + "a line of the bound file, long enough to count\n" * 17_000
GROWN = "grown words\n" * 66_000
FREE = "free space (a full disk, a quota or a file-size limit), then run the same command again"


def _leftovers(root: Path) -> list[str]:
    """Temporary files of a restore beside the bound files, and captures or part files."""
    found = [p.name for p in root.iterdir() if p.name.startswith(".forest-")]
    captures = shared_dir(root, create=False) / CAPTURES_DIR
    if captures.is_dir():
        found += [p.name for p in captures.iterdir()]
    return found


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")
@pytest.mark.parametrize(
    ("path", "text", "target", "edit", "said"),
    [
        ("big.md", BIG, None, BIG.replace("a line", "A line", 3), "its new text cannot be"),
        ("a.md", DOC, "a.md#Keep", DOC.replace("kept words\n", GROWN), "cannot be kept in"),
    ],
    ids=["new-text", "capture"],
)
def test_restore_without_room_said_to_free_space_refused(
    tmp_path: Path, path: str, text: str, target: str | None, edit: str, said: str
) -> None:
    root = adopted_repo(tmp_path, path, text, target)
    bound = root / path
    bound.write_text(edit, encoding="utf-8")
    before = bound.read_bytes()
    done = limited(root, LIMIT, "restore", target or path)
    assert done.returncode == 1, done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith("forest: ") and said in line, line
    assert "(File too large)" in line and line.endswith(FREE), line
    assert "writable" not in line, line
    assert bound.read_bytes() == before
    assert _leftovers(root) == []
    again = forest(root, "restore", target or path)  # room again: restored
    assert again.exit_code == 0, again.output
    assert bound.read_text(encoding="utf-8") == text

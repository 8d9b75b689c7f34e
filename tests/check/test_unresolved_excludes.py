"""An unresolved whole-file binding carries its exclusions (check/binding_check.py, as a
missing file's finding does), so its routes never offer a ``forest restore`` that
refuses: restore writes a whole file again only when ground holds all of it
(custody/restore_files.py ``recreate_allowed``). Bound with ``--exclude``, a file
git never held, replaced by a symlink, was offered ``rm -- n.md && forest restore
n.md``: pasted, the ``rm`` ran and the restore refused. (A file the reader refuses:
tests/check/test_unresolved_not_text.py.)"""

from __future__ import annotations

from pathlib import Path

from tests.helpers.cli import findings, ok
from tests.helpers.git import commit_all, git, make_repo, pasted, write

NOTES = "# Notes\n\nkeep\n\n## Scratch\n\nwip\n"


def test_whole_file_with_exclusions_turned_symlink_offered_no_restore_detected(
    tmp_path: Path,
) -> None:
    root = make_repo(tmp_path)
    ok(root, "init")
    commit_all(root, "init")
    write(root, "n.md", NOTES)
    ok(root, "adopt", "n.md", "--exclude", "#Notes/Scratch", "--words", "notes")
    (root / "n.md").unlink()
    (root / "n.md").symlink_to("elsewhere.md")
    (found,) = findings(root)
    assert found["kind"] == "unresolved" and "symlink" in found["detail"], found
    put_back = found["routes"][0]
    assert "forest restore" not in (put_back["command"] or ""), put_back
    assert "no commit holds n.md" in put_back["note"], put_back
    before = git(root, "status", "--porcelain", "--ignored")
    refused = pasted(root, "forest restore n.md")  # what the route offered before
    assert refused.returncode == 1 and "nothing was written" in refused.stderr
    assert git(root, "status", "--porcelain", "--ignored") == before

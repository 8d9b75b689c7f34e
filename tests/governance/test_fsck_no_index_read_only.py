"""``forest fsck`` in a repository with no index (``.git/forest/woods.db`` removed, or
never made in this clone), mounted read-only (tests/helpers/read_only_mount.py): no sync
can make the index there, so fsck says the one line a read-only mount gets
(kernel/access.py ``mounted_read_only``), exit 1, every file as it was. Before, it
reported ``missing: woods.db: no index; run `forest sync``` and ``forest rebuild
repairs the index``, exit 3: a sync that then printed the mount line, a rebuild refused
the same way. Off the mount the missing index stays a fault whose fix is the sync.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from forest_files.kernel.shellword import shell_word
from tests.helpers.cli import forest
from tests.helpers.custody import adopted_repo
from tests.helpers.read_only_mount import run_read_only

DOC = "# Doc\n\nThe sky is blue.\n"
REMOUNT = "is mounted read-only: remount it read-write, or work in a clone on a writable disk"


def _snapshot(top: Path) -> dict[str, str]:
    """Every path under ``top``: a file with the SHA-256 of its bytes."""
    return {
        p.relative_to(top).as_posix(): (
            hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir"
        )
        for p in sorted(top.rglob("*"))
    }


def test_fsck_read_only_mount_no_index_refused(tmp_path: Path) -> None:
    repo = adopted_repo(tmp_path, "doc.md", DOC, name="my repo's")
    woods = repo / ".git" / "forest" / "woods.db"
    for made in woods.parent.glob("woods.db*"):
        made.unlink()
    before = _snapshot(repo)

    done = run_read_only(repo, "forest fsck")
    as_json = run_read_only(repo, "forest fsck --json")

    said = done.stdout + done.stderr
    assert done.returncode == 1 and done.stdout == "", said
    [line] = done.stderr.strip().splitlines()
    assert line == (
        f"forest: no index to check; the filesystem holding {shell_word(str(woods))} "
        f"{REMOUNT}, then run `forest sync`"
    ), line
    assert "rebuild" not in said and "chmod" not in said, said
    assert as_json.returncode == 1 and as_json.stdout == "", as_json.stdout
    assert as_json.stderr.strip() == line, as_json.stderr
    assert _snapshot(repo) == before
    off = forest(repo, "fsck")  # off the mount: the missing index, the sync that makes it
    assert off.exit_code == 3 and "missing: woods.db: no index; run `forest sync`" in off.stdout


def test_fsck_help_read_only_mount_exit_detected() -> None:
    done = forest(Path("."), "fsck", "--help")
    said = " ".join(done.stdout.split())
    assert done.exit_code == 0, said
    assert "Exit 1 on a read-only mount" in said, said

"""A ledger that cannot be written: the act is refused in one line naming the
directory and the fix, and leaves the ledger exactly as it was
(custody/recording.py).

Real repositories, the real CLI in process. Tests run as root, so a directory
nobody may write is made with ``chattr +i`` (tests/helpers/immutable.py; skipped
where the file system has no such flag). Before the fix the bodies written just
before the segment stayed in ``.forest/ledger/bodies`` (text never adopted, which
``git add -- .forest/ledger`` then committed) and the user saw an internal error.
"""

from __future__ import annotations

import errno
import hashlib
import os
import shutil
import sys
from pathlib import Path

import pytest

from forest_files.custody.recording import unwritable
from forest_files.kernel.access import access_fix, beyond_modes
from forest_files.kernel.hashing import hash_body
from forest_files.ledger.segments import body_path
from tests.helpers.cli import forest
from tests.helpers.fsize import limited
from tests.helpers.immutable import immutable
from tests.helpers.watch import EDITED, bound_repo

# (text saved into a.md first, or None; the command)
ACTS = {
    "supersede": (EDITED, ("supersede", "a.md#Keep", "--words", "bold now")),
    # the words are the adoption's: their body is on disk already and must stay
    "supersede-known-words": (EDITED, ("supersede", "a.md#Keep", "--words", "adopt")),
    "seal": (None, ("seal", "a.md#Keep", "--words", "withheld for now")),
}


def _ledger(root: Path) -> dict[str, str]:
    """Every path under .forest/ledger, a file with the SHA-256 of its bytes."""
    base = root / ".forest" / "ledger"
    return {
        p.relative_to(base).as_posix(): (
            hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir"
        )
        for p in sorted(base.rglob("*"))
    }


@pytest.mark.parametrize("name", sorted(ACTS))
def test_record_segments_unwritable_refused(tmp_path: Path, name: str) -> None:
    text, argv = ACTS[name]
    root = bound_repo(tmp_path)
    if text is not None:
        (root / "a.md").write_text(text, encoding="utf-8")
    before = _ledger(root)
    with immutable(root / ".forest" / "ledger" / "segments"):
        result = forest(root, *argv)
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith("forest: cannot write .forest/ledger/segments ("), line
    # root meets the immutable flag: kernel/access.py's advice beyond the modes
    fix = beyond_modes(str(root / ".forest" / "ledger" / "segments" / "new"))
    assert line.endswith(f"): {fix}, then run the command again; nothing was recorded"), line
    assert _ledger(root) == before
    assert forest(root, "verify").exit_code == 0
    again = forest(root, *argv)  # writable again: the same command records
    assert again.exit_code == 0, again.output
    assert len(_ledger(root)) > len(before)


def test_record_known_body_kept_when_segment_fails_recovers(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    words = root / body_path(Path(".forest/ledger"), hash_body("adopt"))
    assert words.is_file()  # the adoption's words: another act's body
    (root / "a.md").write_text(EDITED, encoding="utf-8")
    with immutable(root / ".forest" / "ledger" / "segments"):
        assert forest(root, "supersede", "a.md#Keep", "--words", "adopt").exit_code == 1
    assert words.is_file()
    assert not (
        root / body_path(Path(".forest/ledger"), hash_body("## Keep\n\nedited words\n\n"))
    ).exists()


def test_record_bodies_unwritable_refused(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    (root / "a.md").write_text(EDITED, encoding="utf-8")
    before = _ledger(root)
    with immutable(root / ".forest" / "ledger" / "bodies"):
        result = forest(root, "supersede", "a.md#Keep", "--words", "bold now")
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith("forest: cannot write .forest/ledger/bodies ("), line
    assert "nothing was recorded" in line
    assert _ledger(root) == before


@pytest.mark.parametrize("err", ["ENOSPC", "EDQUOT", "EFBIG", "EACCES", "EROFS"])
def test_record_unwritable_fix_follows_the_error_accepted(tmp_path: Path, err: str) -> None:
    code = getattr(errno, err, None)
    if code is None:
        pytest.skip(f"no {err} here")
    where = tmp_path / ".forest" / "ledger" / "segments" / "x.jsonl"
    refused = OSError(code, os.strerror(code), str(where))
    line = str(unwritable(tmp_path, refused))
    space = err in ("ENOSPC", "EDQUOT", "EFBIG")
    assert line.startswith("cannot write .forest/ledger/segments ("), line
    assert ("free space (a full disk, a quota or a file-size limit), then" in line) is space
    assert (f"): {access_fix(str(where), refused)}, then" in line) is not space
    assert line.endswith("run the command again; nothing was recorded")


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")
def test_record_under_a_file_size_limit_every_size_recovers(tmp_path: Path) -> None:
    """A supersede whose writes fail part way, at every size from the index's first
    page to past the segment: one `forest:` line with the fix, the ledger and the
    index whole, and the same command records once the limit is gone."""
    built = bound_repo(tmp_path)
    for limit in (1024, 8192, 24_576, 40_960, 65_536, 98_304, 131_072, 262_144, 1 << 22):
        root = tmp_path / f"r{limit}"
        shutil.copytree(built, root, symlinks=True)
        (root / "a.md").write_text(EDITED, encoding="utf-8")
        before = _ledger(root)
        done = limited(root, limit, "supersede", "a.md#Keep", "--words", "bold now")
        said = done.stderr
        assert done.returncode in (0, 1), (limit, said)
        for bad in ("savepoint", "Traceback", "not a SQLite database", "dropped it"):
            assert bad not in said, (limit, said)
        assert all(line.startswith("forest: ") for line in said.splitlines()), (limit, said)
        assert forest(root, "verify").exit_code == 0, limit
        if done.returncode == 1:
            assert "free space (a full disk, a quota or a file-size limit)" in said, (limit, said)
            assert _ledger(root) == before, limit
            again = forest(root, "supersede", "a.md#Keep", "--words", "bold now")
            assert again.exit_code == 0, (limit, again.output)
        assert forest(root, "check").exit_code == 0, limit

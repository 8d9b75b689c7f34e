"""The stamp files of a read in a ``.git/forest`` this user may not write, as a user who
is not root meets it (tests/helpers/unprivileged.py).

A working-tree read takes two filesystem stamps before it reads anything, each the mtime
of a file written then: the verdict's (``cache/.verdict-stamp``, custody/verdict.py
``stamp``), so what it remembers afterwards (a clean verdict, the contests, the binding
map) is never racily clean, and the stat cache's (``cache/.stamp``, custody/statcache.py
``StatCache.stamp``), which dates the sizes and hashes it keeps. Where the folders may
not be written, nothing either dates can be remembered, so no stamp is taken: a read
(``forest check``, ``forest status``) leaves every file of ``.git/forest`` as it was,
byte for byte and mtime for mtime, even a stamp file the user still owns (before: each
was rewritten with the process id by every read).
"""

from __future__ import annotations

import os
from pathlib import Path

from tests.helpers.places import module_place
from tests.helpers.read_only_state import state_digests
from tests.helpers.unprivileged import handed_copy, run_as_user

DOC = "# Doc\n\nThe sky is blue.\n"


place = module_place({"doc.md": DOC}, "doc.md")


def _held(repo: Path) -> dict[str, tuple[str, int]]:
    """Every file of ``.git/forest``: the digest of its bytes and its mtime."""
    digests = state_digests(repo)
    return {name: (digest, (repo / name).stat().st_mtime_ns) for name, digest in digests.items()}


def _read_leaves_state(place: tuple[Path, Path], stamp: str) -> None:
    base, bin_dir = place
    repo = handed_copy(base, stamp.strip(".").replace("-", ""))
    done = run_as_user(repo, "printf '# Doc\\n\\nThe sky is green.\\n' > doc.md", bin_dir)
    assert done.returncode == 0, done.stderr
    assert run_as_user(repo, "forest check", bin_dir).returncode == 1  # stamps written
    state = repo / ".git" / "forest"
    probe = state / "cache" / stamp
    assert probe.is_file() and probe.stat().st_uid == os.stat(repo).st_uid
    for folder in (state, state / "cache"):
        folder.chmod(0o555)
    try:
        before = _held(repo)
        for command, code in (("forest check", 1), ("forest status", 0)):
            done = run_as_user(repo, command, bin_dir)
            assert done.returncode == code, (command, done.stdout, done.stderr)
            assert "sky is green" not in done.stderr
            after = _held(repo)
            assert after == before, (command, [n for n in after if after[n] != before.get(n)])
    finally:
        for folder in (state, state / "cache"):
            folder.chmod(0o755)


def test_verdict_stamp_state_folder_read_only_read_leaves_it_accepted(
    place: tuple[Path, Path],
) -> None:
    _read_leaves_state(place, ".verdict-stamp")


def test_statcache_stamp_state_folder_read_only_read_leaves_it_accepted(
    place: tuple[Path, Path],
) -> None:
    _read_leaves_state(place, ".stamp")

"""The stat cache's stamp file in a ``.git/forest`` this user may not write, as a user
who is not root meets it (tests/helpers/unprivileged.py).

A working-tree read takes the stat cache's racy-clean stamp before it stats and reads
a file (the mtime of ``cache/.stamp``, written then; custody/statcache.py
``StatCache.stamp``). Where the cache folder may not be written, no stat cache can be
saved, so nothing the stamp dates can be remembered: a read (``forest check``,
``forest status``) leaves every file of ``.git/forest`` as it was, byte for byte and
mtime for mtime, even the stamp file the user still owns (before: rewritten with the
process id by every read).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.read_only_state import state_digests
from tests.helpers.unprivileged import adopted_place, handed_copy, run_as_user

DOC = "# Doc\n\nThe sky is blue.\n"


@pytest.fixture(scope="module")
def place() -> Iterator[tuple[Path, Path]]:
    with adopted_place({"doc.md": DOC}, "doc.md") as made:
        yield made


def _held(repo: Path) -> dict[str, tuple[str, int]]:
    """Every file of ``.git/forest``: the digest of its bytes and its mtime."""
    digests = state_digests(repo)
    return {name: (digest, (repo / name).stat().st_mtime_ns) for name, digest in digests.items()}


def test_statcache_stamp_state_folder_read_only_read_leaves_it_accepted(
    place: tuple[Path, Path],
) -> None:
    base, bin_dir = place
    repo = handed_copy(base, "statstamp")
    done = run_as_user(repo, "printf '# Doc\\n\\nThe sky is green.\\n' > doc.md", bin_dir)
    assert done.returncode == 0, done.stderr
    assert run_as_user(repo, "forest check", bin_dir).returncode == 1  # stamps written
    state = repo / ".git" / "forest"
    probe = state / "cache" / ".stamp"
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

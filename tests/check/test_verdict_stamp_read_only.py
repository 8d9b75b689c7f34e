"""The verdict's stamp file in a ``.git/forest`` this user may not write, as a user who
is not root meets it (tests/helpers/unprivileged.py).

A working-tree check takes a filesystem stamp before it reads anything (the mtime of
``cache/.verdict-stamp``, written then; custody/verdict.py ``stamp``), so what it
remembers afterwards (a clean verdict, the contests, the binding map) is never racily
clean. Where neither the cache folder nor the state folder may be written, nothing
can be remembered, so no stamp is needed: a read (``forest check``, ``forest
status``) leaves the stamp file byte for byte, even one the user still owns (before:
rewritten with the process id by every check).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.unprivileged import adopted_place, handed_copy, run_as_user

DOC = "# Doc\n\nThe sky is blue.\n"


@pytest.fixture(scope="module")
def place() -> Iterator[tuple[Path, Path]]:
    with adopted_place({"doc.md": DOC}, "doc.md") as made:
        yield made


def _stamp_file(path: Path) -> tuple[bytes, int]:
    return path.read_bytes(), path.stat().st_mtime_ns


def test_verdict_stamp_state_folder_read_only_read_leaves_it_accepted(
    place: tuple[Path, Path],
) -> None:
    base, bin_dir = place
    repo = handed_copy(base, "stamp")
    done = run_as_user(repo, "printf '# Doc\\n\\nThe sky is green.\\n' > doc.md", bin_dir)
    assert done.returncode == 0, done.stderr
    assert run_as_user(repo, "forest check", bin_dir).returncode == 1  # stamp written
    state = repo / ".git" / "forest"
    probe = state / "cache" / ".verdict-stamp"
    assert probe.is_file() and probe.stat().st_uid == os.stat(repo).st_uid
    for folder in (state, state / "cache"):
        folder.chmod(0o555)
    try:
        before = _stamp_file(probe)
        for command, code in (("forest check", 1), ("forest status", 0)):
            done = run_as_user(repo, command, bin_dir)
            assert done.returncode == code, (command, done.stdout, done.stderr)
            assert "sky is green" not in done.stderr
            assert _stamp_file(probe) == before, command
    finally:
        for folder in (state, state / "cache"):
            folder.chmod(0o755)

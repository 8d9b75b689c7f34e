"""A database this user may write whose ``-wal`` or ``-shm`` it may not (another user's,
left by ``sudo forest …`` beside a ``woods.db`` handed back), as a user who is not root
meets it (tests/helpers/unprivileged.py): the refusal names that file, not only the
database, with the ``sudo chown`` that gives it back (kernel/access.py), and pasted that
fix is all it takes (as root here: the test's stand-in for ``sudo``); the act records
nothing meanwhile."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers.places import module_place
from tests.helpers.unprivileged import as_root, handed_copy, run_as_user

DOC = "# Doc\n\nThe sky is blue.\n"
ACT = "forest supersede doc.md --words 'the doc, again'"


place = module_place({"doc.md": DOC}, "doc.md")


@pytest.mark.parametrize("side", ["-wal", "-shm"])
def test_store_log_of_another_user_named_with_chown_refused(
    place: tuple[Path, Path], side: str
) -> None:
    if not as_root():
        pytest.skip("only root can leave a file owned by another user")
    base, bin_dir = place
    repo = handed_copy(base, f"log{side}")
    (repo / "doc.md").write_text(DOC.replace("blue", "green"))
    log = repo / ".git" / "forest" / f"woods.db{side}"
    log.write_bytes(b"")
    os.chown(log, 0, 0)  # what `sudo forest …` leaves behind
    log.chmod(0o644)
    ledger = sorted((repo / ".forest").rglob("*"))

    done = run_as_user(repo, ACT, bin_dir)

    said = done.stdout + done.stderr
    assert done.returncode == 1, said
    assert "Traceback" not in said and "internal error" not in said, said
    last = done.stderr.strip().splitlines()[-1]
    assert f"({log} is another user's)" in last, last
    assert f'sudo chown -R "$(id -un)" {log.parent}, then run the command again' in last, last
    assert sorted((repo / ".forest").rglob("*")) == ledger
    os.chown(log, 65534, 65534)  # the chown, as root for the user
    again = run_as_user(repo, ACT, bin_dir)
    assert again.returncode == 0, again.stdout + again.stderr

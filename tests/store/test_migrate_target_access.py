"""``migrate_to_latest`` with its TARGET in a folder this user may not enter (its own at
``0000``, root's at ``0700``) or write (its own at ``0555``), as a user who is not root
meets it (tests/helpers/unprivileged.py): one line naming the target and kernel/access.py's
fix (the folder's ``chmod``, or the ``sudo chown`` of another user's); it was a raw
``PermissionError`` and a traceback (from ``path.exists()``, or from the temporary
file's ``mkstemp``, naming ``.new.db.XXXX.migrating``). Nothing is made; the ``chmod``,
pasted, lets the same migration run. The folders are named ``my repo's …``: a fix that
is not quoted does not paste there."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from forest_files.kernel.shellword import shell_word
from tests.face.test_migrate import build_forest04
from tests.helpers.unprivileged import (
    as_root,
    hand_over,
    open_folder,
    run_as_user,
    script_beside,
    unprivileged_bin,
)

MIGRATE_TO = """import sys
import forest_files
try:
    forest_files.migrate_to_latest("woods.db", sys.argv[1])
except forest_files.ForestError as exc:
    sys.exit(f"forest: {exc}")
"""


@pytest.fixture(scope="module")
def place() -> Iterator[tuple[Path, Path, Path]]:
    """A Forest 0.4 store ``woods.db`` in a folder the unprivileged user owns, the script
    that migrates it to the path it is given, and the bin folder that user runs from."""
    with open_folder() as folder:
        bin_dir = unprivileged_bin(folder)
        source = folder / "my repo's source"
        source.mkdir()
        build_forest04(source / "woods.db")
        hand_over(source)
        yield source, script_beside(source, "migrate_to.py", MIGRATE_TO), bin_dir


def _digests(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir()}


@pytest.mark.parametrize(("mode", "owned"), [(0o000, True), (0o555, True), (0o700, False)])
def test_migrate_target_folder_out_of_reach_names_its_fix_refused(
    place: tuple[Path, Path, Path], mode: int, owned: bool
) -> None:
    """The target folder at ``mode``, the user's own (``owned``) or root's: exit 1, one
    line; pasted, the user's own ``chmod`` lets the same migration run."""
    if not owned and not as_root():
        pytest.skip("only root can own the folder the unprivileged user may not enter")
    source, script, bin_dir = place
    folder = source.parent / f"my repo's target {mode:04o}"
    folder.mkdir()
    if owned:
        hand_over(folder)
    folder.chmod(mode)
    target = folder / "new.db"
    before = _digests(source)
    command = f"python3 {shell_word(str(script))} {shell_word(str(target))}"
    done = run_as_user(source, command, bin_dir)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    [line] = done.stderr.strip().splitlines()
    fix = (
        f"chmod u+rwX {shell_word(str(folder))}"
        if owned
        else f'another user owns it: sudo chown -R "$(id -un)" {shell_word(str(folder))}'
    )
    assert line == (
        f"forest: cannot write target {target} (Permission denied); {fix}, "
        "then run the command again"
    ), line
    assert _digests(source) == before
    folder.chmod(0o755)
    assert list(folder.iterdir()) == []  # no temporary file, no target
    if not owned:
        return  # sudo is not the test's to type; the line named the folder's owner
    folder.chmod(mode)
    again = run_as_user(source, f"{fix} && {command}", bin_dir)
    assert again.returncode == 0, again.stderr
    assert target.is_file()

"""A bound file renamed to a name git holds as bytes that are not UTF-8, reported on a
strict UTF-8 terminal (``PYTHONIOENCODING=utf-8:strict``, as a desktop's UTF-8
locale gives): every door prints its finding and exits 1, never an internal error
on the name (doors/streams.py ``tolerant_streams``), and the rename it prints,
``git mv -- caf$'\\351'.md …`` (kernel/shellword.py), works pasted into bash."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.custody import DOC, init_and_adopt
from tests.helpers.git import commit_all, git, git_env, make_repo, pasted, write
from tests.helpers.template import copied_from

LEGACY = os.fsdecode(b"caf\xe9.md")
RENAME = "git mv -- caf$'\\351'.md 'café.md'"
ENTRY = "from forest_files.doors.entry import main; main()"
FULL = "from forest_files.doors.cli import main; main()"
HOOK = "from forest_files.doors.hooks.run import console; console()"


def _build(where: Path) -> Path:
    root = make_repo(where)
    write(root, "a.md", DOC)
    init_and_adopt(root, ["a.md#Keep"])
    commit_all(root, "adopt")
    git(root, "mv", "a.md", LEGACY)
    return root


repo = copied_from(_build)


def _strict(root: Path, code: str, *args: str) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, **git_env(), "PYTHONIOENCODING": "utf-8:strict"}
    return subprocess.run(
        [sys.executable, "-c", code, *args], cwd=root, env=env, capture_output=True, timeout=120
    )


@pytest.mark.parametrize(
    ("code", "args"),
    [
        (ENTRY, ("check",)),
        (ENTRY, ("check", "--staged")),
        (FULL, ("check", "--staged", "-v")),
        (HOOK, ("pre-commit",)),
    ],
)
def test_not_utf8_name_on_strict_terminal_internal_error_refused(
    repo: Path, code: str, args: tuple[str, ...]
) -> None:
    done = _strict(repo, code, *args)
    out = (done.stdout + done.stderr).decode("utf-8")  # plain UTF-8: nothing raw
    assert done.returncode == 1, out
    assert "internal error" not in out
    assert RENAME in out
    assert "caf\\xe9.md" in out  # the prose names its byte escaped (shellword.printable)


def test_not_utf8_rename_printed_on_strict_terminal_pasted_recovers(repo: Path) -> None:
    out = _strict(repo, ENTRY, "check").stdout.decode("utf-8")
    line = next(x for x in out.splitlines() if RENAME in x)
    command = line.split(": ", 1)[1].split("  (", 1)[0]
    done = pasted(repo, command)
    assert done.returncode == 0, done.stderr
    assert (repo / "café.md").read_text(encoding="utf-8") == DOC
    assert not (repo / LEGACY).exists()

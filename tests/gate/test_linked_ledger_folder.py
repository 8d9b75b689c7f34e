"""A ledger folder committed as a symlink is never followed out of the clone.

``.forest/ledger/bodies/<xx>`` (a body's prefix folder) committed, past the hooks,
as a link to a folder outside holding a body that hashes to its name: the working
tree's doors (check, status, verify) refuse it with one line whose removal works
pasted under the hooks, never judging custody by the body outside (before: check
and status said clean, having read it, while check --staged, the hook and ci
refused). The ledger's own readers (custody/ledger_dirs.py at every open;
ledger/segment_files.py listing segments and bodies) list nothing through a link.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from forest_files.doors import hooks as githooks
from forest_files.kernel.errors import ForestError
from forest_files.ledger.segments import read_ledger
from forest_files.ledger.verify import verify_ledger
from tests.helpers.cli import FOREST
from tests.helpers.custody import init_and_adopt
from tests.helpers.git import commit_all, git, git_env, make_repo, pasted_under_hooks, write

CANON = "# Canon\n\n## Family\n\nHer brother.\n"
LEDGER = Path(".forest/ledger")


def run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **git_env()}
    return subprocess.run(
        [FOREST, *args], cwd=root, env=env, capture_output=True, text=True, timeout=120
    )


def _linked_prefix(tmp_path: Path) -> tuple[Path, str, str]:
    """A fresh clone whose ``bodies/<xx>`` (the adopted text's) was committed as a link
    to ``outside/<xx>``, which holds that body, unchanged (it hashes to its name).
    Returns the clone, the prefix and the commit that still holds the real folder."""
    origin = make_repo(tmp_path, "origin")
    write(origin, "canon.md", CANON)
    init_and_adopt(origin, ["canon.md#Canon/Family"])
    adopt = commit_all(origin, "adopt")
    bodies = origin / LEDGER / "bodies"
    folder = next(p for p in bodies.iterdir() if b"Her brother" in next(p.iterdir()).read_bytes())
    (tmp_path / "outside").mkdir()
    shutil.move(folder, tmp_path / "outside" / folder.name)
    os.symlink(f"../../../../outside/{folder.name}", folder)
    commit_all(origin, "bodies moved out")  # no hook installed: as with --no-verify
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(origin), str(clone))
    assert (clone / LEDGER / "bodies" / folder.name).is_symlink()
    return clone, folder.name, adopt


@pytest.mark.parametrize("args", [["check"], ["status"], ["verify"]])
def test_linked_body_folder_every_door_refused(tmp_path: Path, args: list[str]) -> None:
    clone, prefix, _adopt = _linked_prefix(tmp_path)
    proc = run(clone, *args)
    assert proc.returncode == 3, (proc.stdout, proc.stderr)
    assert f".forest/ledger/bodies/{prefix} is a symlink" in proc.stderr, proc.stderr
    assert proc.stderr.count("forest:") == 1
    assert "clean" not in proc.stdout  # the body outside is never believed


def test_linked_body_folder_removal_pasted_under_hooks_recovers(tmp_path: Path) -> None:
    clone, prefix, adopt = _linked_prefix(tmp_path)
    outside = {p.name: p.read_bytes() for p in (tmp_path / "outside" / prefix).iterdir()}
    githooks.install(clone)
    said = run(clone, "check").stderr
    removal = said.split("Remove it (", 1)[1].split(") and bring", 1)[0]
    pasted_under_hooks(clone, removal)
    assert not os.path.lexists(clone / LEDGER / "bodies" / prefix)
    folder = f".forest/ledger/bodies/{prefix}"
    pasted_under_hooks(clone, f"git checkout {adopt} -- {folder} && git commit -q -m back")
    assert run(clone, "verify").returncode == 0
    proc = run(clone, "check")
    assert proc.returncode == 0 and "0 not clean" in proc.stdout, (proc.stdout, proc.stderr)
    assert {p.name: p.read_bytes() for p in (tmp_path / "outside" / prefix).iterdir()} == outside


def test_ledger_readers_linked_folders_never_read_detected(tmp_path: Path) -> None:
    """Below every door: verify lists nothing through a linked prefix folder (a forged
    body there, read, would be a ``body-hash`` fault) and the ledger read refuses a
    linked ``segments`` instead of reading the acts outside."""
    clone, prefix, _adopt = _linked_prefix(tmp_path)
    for body in (tmp_path / "outside" / prefix).iterdir():
        body.write_text("forged outside\n")
    ledger = clone / LEDGER
    report = verify_ledger(ledger)
    assert [f.path for f in report.faults if f.code == "stray"] == [str(LEDGER / "bodies" / prefix)]
    assert "body-hash" not in report.codes(), report.faults
    shutil.move(ledger / "segments", tmp_path / "outside-segments")
    os.symlink(tmp_path / "outside-segments", ledger / "segments")
    with pytest.raises(ForestError, match="segments is a symlink"):
        read_ledger(ledger)

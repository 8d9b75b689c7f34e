"""``forest ci --report FORMAT=FILE`` (and ``$GITHUB_STEP_SUMMARY``) where the file
cannot be written, on a clean range (the gate itself would pass): /dev/full, a folder,
a file where a folder belongs, a file-size limit. One ``forest:`` line naming the
report and the fix, exit 1 (a gate whose report was not written must not pass), no
crash log (it was exit 3, "internal error", and a crash log); a missing folder is made."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.doors.test_output_unwritable import DOC, limited
from tests.helpers.cli import FOREST
from tests.helpers.custody import adopted_repo
from tests.helpers.git import git_env


def _ci(root: Path, *args: str, **kw: object) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **git_env(), **kw.pop("env", {})}  # type: ignore[dict-item]
    return subprocess.run(
        [FOREST, "ci", *args],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        **kw,  # type: ignore[call-overload]
    )


@pytest.fixture
def clean(tmp_path: Path) -> Path:
    root = adopted_repo(tmp_path, "doc.md", DOC)
    (root / "folder").mkdir()
    (root / "plain").write_text("a file\n")
    assert _ci(root).returncode == 0
    return root


@pytest.mark.parametrize(
    ("target", "said"),
    [
        ("/dev/full", "/dev/full (No space left on device): free space"),
        ("folder", "folder (Is a directory): name a file, not a folder"),
        ("plain/r.json", "plain/r.json (Not a directory): name a file whose folders"),
    ],
    ids=["dev-full", "a-folder", "under-a-file"],
)
def test_ci_report_unwritable_one_line_exit_1_refused(clean: Path, target: str, said: str) -> None:
    done = _ci(clean, "--report", f"json={target}")
    assert done.returncode == 1, done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith("forest: cannot write the report "), line
    assert said in line, line
    assert not (clean / ".git" / "forest" / "crash").exists()


def test_ci_report_over_file_size_limit_one_line_exit_1_refused(clean: Path) -> None:
    """``ulimit -f`` of 256 bytes (SIGXFSZ ignored): the JSON report is longer, the
    warm state writes nothing past it."""
    done = _ci(clean, "--report", "json=r.json", preexec_fn=limited(256))
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines()[-1].startswith(
        f"forest: cannot write the report {clean / 'r.json'} (File too large): "
        "raise the file-size limit (`ulimit -f`)"
    ), done.stderr
    assert not (clean / ".git" / "forest" / "crash").exists()


def test_ci_step_summary_full_one_line_exit_1_refused(clean: Path) -> None:
    done = _ci(clean, "--format", "github", env={"GITHUB_STEP_SUMMARY": "/dev/full"})
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines()[-1].startswith(
        "forest: cannot write the step summary /dev/full ($GITHUB_STEP_SUMMARY) "
        "(No space left on device)"
    ), done.stderr


def test_ci_report_in_a_missing_folder_made_accepted(clean: Path) -> None:
    done = _ci(clean, "--report", "sarif=out/deep/forest.sarif")
    assert done.returncode == 0, done.stderr
    assert (clean / "out" / "deep" / "forest.sarif").read_text().startswith("{")

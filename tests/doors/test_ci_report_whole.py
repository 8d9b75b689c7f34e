"""``forest ci --report FORMAT=FILE`` and ``$GITHUB_STEP_SUMMARY`` whose write fails
part-way (a file-size limit standing in for a full disk or a quota): the refusal's one
line and exit 1 as before, and the file is left whole: the earlier report
byte-identical, or no file at all, and the step summary holding the earlier steps'
text only. A CI step that reads the file later (an upload, a summary shown) never
takes a report cut short for the verdict (it was left as far as it was written). A
run killed before its rename left a temporary file the next run removes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.doors.test_output_unwritable import DOC
from tests.helpers.cli import forest
from tests.helpers.custody import adopted_repo
from tests.helpers.fsize import limited

pytest.importorskip("resource")

LIMIT = 256  # bytes: the JSON report is longer; nothing else the gate writes grows past it
EARLIER = b'{"an earlier run": "its whole report"}\n'
STEPS = b"## an earlier step's summary\n"


@pytest.fixture
def clean(tmp_path: Path) -> Path:
    return adopted_repo(tmp_path, "doc.md", DOC)


@pytest.mark.parametrize("before", ["earlier", "none"])
def test_ci_report_cut_by_file_size_limit_left_whole_refused(clean: Path, before: str) -> None:
    """``earlier``: the report of an earlier run stays byte-identical; ``none``: no
    file is left; either way no temporary file beside it."""
    report = clean / "out" / "r.json"
    if before == "earlier":
        report.parent.mkdir()
        report.write_bytes(EARLIER)
    done = limited(clean, LIMIT, "ci", "--report", "json=out/r.json")
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines()[-1].startswith(
        f"forest: cannot write the report {report} (File too large): "
    ), done.stderr
    if before == "earlier":
        assert report.read_bytes() == EARLIER
    else:
        assert not report.exists()
    left = ["r.json"] if before == "earlier" else []
    assert sorted(p.name for p in report.parent.iterdir()) == left


def test_ci_step_summary_cut_by_file_size_limit_earlier_steps_kept_refused(
    clean: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The step summary is appended to (GitHub's contract): a block that does not fit
    is cut back off, the earlier steps' text left byte-identical."""
    summary = clean.parent / "step_summary.md"
    summary.write_bytes(STEPS)
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    done = limited(clean, len(STEPS) + 16, "ci", "--format", "github")
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines()[-1].startswith(
        f"forest: cannot write the step summary {summary} ($GITHUB_STEP_SUMMARY) (File too large)"
    ), done.stderr
    assert summary.read_bytes() == STEPS


def test_ci_report_whole_through_a_link_and_appended_summary_accepted(
    clean: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Within the limit: the report named by a symbolic link is written to its target,
    the link kept; the step summary holds the earlier steps' text, then the block."""
    target = clean.parent / "reports" / "r.json"
    target.parent.mkdir()
    target.write_bytes(EARLIER)
    (clean / "r.json").symlink_to(target)
    summary = clean.parent / "step_summary.md"
    summary.write_bytes(STEPS)
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    done = limited(clean, 1 << 20, "ci", "--format", "github", "--report", "json=r.json")
    assert done.returncode == 0, done.stderr
    assert (clean / "r.json").is_symlink()
    assert json.loads(target.read_text())["exit_code"] == 0
    assert summary.read_bytes().startswith(STEPS) and len(summary.read_bytes()) > len(STEPS)


def test_ci_report_leftover_of_a_killed_run_swept_recovers(
    clean: Path, dead_pid: int, live_pid: int
) -> None:
    """A run killed between the report's write and its rename left ``r.json.<pid>.tmp``:
    the next run removes it (its writer is gone) and writes the report; a live writer's
    temp file, and another file, are kept (the leftover stayed for ever, beside the
    report a CI uploads with its folder)."""
    folder = clean / "out"
    folder.mkdir()
    (folder / f"r.json.{dead_pid}.tmp").write_bytes(EARLIER[:9])
    (folder / f"r.json.{live_pid}.tmp").write_bytes(EARLIER[:9])
    (folder / "notes.txt").write_bytes(STEPS)
    done = forest(clean, "ci", "--report", f"json={folder / 'r.json'}")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert json.loads((folder / "r.json").read_text())["exit_code"] == 0
    kept = ["notes.txt", "r.json", f"r.json.{live_pid}.tmp"]
    assert sorted(p.name for p in folder.iterdir()) == sorted(kept)

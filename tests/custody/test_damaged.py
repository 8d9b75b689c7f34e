"""``forest verify`` names the command that brings damaged ledger files back from git
(custody/damaged.py), where HEAD holds them.

Real repository: a committed segment with a byte appended, and a committed body
file edited; the printed ``git checkout HEAD -- …`` pasted into bash; a segment
never committed gets no such command.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.helpers.cli import forest
from tests.helpers.custody import adopted_repo
from tests.helpers.git import commit_all, pasted, write


def _repo(tmp_path: Path) -> Path:
    return adopted_repo(tmp_path, "a.md", "# A\n\n## One\n\nfirst\n", "a.md#One")


def test_verify_damaged_committed_files_route_pasted_recovers(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    ledger = repo / ".forest" / "ledger"
    (segment,) = (ledger / "segments").iterdir()
    with segment.open("ab") as fh:
        fh.write(b" ")
    body = next(p for p in (ledger / "bodies").rglob("*.txt"))
    body.write_text("forged\n", encoding="utf-8")
    result = forest(repo, "verify")
    assert result.exit_code == 3
    found = re.search(r"restore them from git: `([^`]+)`", result.stderr)
    assert found, result.stderr
    command = found.group(1)
    assert command.startswith("git checkout HEAD -- ")
    assert segment.relative_to(repo).as_posix() in command
    assert body.relative_to(repo).as_posix() in command
    assert pasted(repo, command).returncode == 0
    assert forest(repo, "verify").exit_code == 0


def test_verify_damaged_uncommitted_segment_no_checkout_refused(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    write(repo, "b.md", "# B\n\n## Two\n\nsecond\n")
    assert forest(repo, "adopt", "b.md#Two", "--words", "w").exit_code == 0  # not committed
    ledger = repo / ".forest" / "ledger" / "segments"
    newest = max(ledger.iterdir(), key=lambda p: p.stat().st_mtime_ns)
    with newest.open("ab") as fh:
        fh.write(b" ")
    result = forest(repo, "verify")
    assert result.exit_code == 3
    assert "git checkout" not in result.stderr and "restore the damaged files" in result.stderr


def test_verify_body_missing_route_names_the_body_pasted_recovers(tmp_path: Path) -> None:
    """A committed body file deleted: the route named the segment of the act whose
    body is gone (``git checkout HEAD -- segments/….jsonl``, a no-op) and verify
    failed again after it was pasted; it names the missing body file now."""
    repo = _repo(tmp_path)
    ledger = repo / ".forest" / "ledger"
    body = next(p for p in (ledger / "bodies").rglob("*.txt"))
    body.unlink()
    result = forest(repo, "verify")
    assert result.exit_code == 3
    found = re.search(r"restore them from git: `([^`]+)`", result.stderr)
    assert found, result.stderr
    command = found.group(1)
    assert command == f"git checkout HEAD -- {body.relative_to(repo).as_posix()}"
    assert pasted(repo, command).returncode == 0
    assert forest(repo, "verify").exit_code == 0


def _adopted_then_superseded(tmp_path: Path) -> tuple[Path, set[Path], set[Path]]:
    """a.md#One adopted (one commit), then superseded (the next): (repo, the adopt's
    segments, the supersede's)."""
    repo = _repo(tmp_path)
    segments = repo / ".forest" / "ledger" / "segments"
    adopt = set(segments.iterdir())
    write(repo, "a.md", "# A\n\n## One\n\nsecond\n")
    ok = forest(repo, "supersede", "a.md#One", "--words", "w")
    assert ok.exit_code == 0, ok.stderr
    commit_all(repo, "supersede")
    return repo, adopt, set(segments.iterdir()) - adopt


def test_verify_dangling_dep_route_names_the_dependency_pasted_recovers(
    tmp_path: Path,
) -> None:
    """The adopt's segment deleted from the work tree: the supersede depending on it
    dangles. The route named the supersede's own segment (a no-op checkout); it names
    the missing segment now, and pasted, verify passes."""
    repo, adopt, later = _adopted_then_superseded(tmp_path)
    (gone,) = adopt
    gone.unlink()
    result = forest(repo, "verify")
    assert result.exit_code == 3 and "dangling-dep" in result.stdout
    found = re.search(r"restore them from git: `([^`]+)`", result.stderr)
    assert found, result.stderr
    command = found.group(1)
    assert gone.relative_to(repo).as_posix() in command
    assert not any(p.name in command for p in later)
    assert pasted(repo, command).returncode == 0
    assert forest(repo, "verify").exit_code == 0


def test_verify_dangling_dep_committed_no_checkout_refused(tmp_path: Path) -> None:
    """The adopt's segment deleted and committed (as a rebase dropping its commit
    leaves it): HEAD lacks the act too, so no checkout from HEAD is offered (it named
    the supersede's own segment, which changes nothing)."""
    repo, adopt, _ = _adopted_then_superseded(tmp_path)
    (gone,) = adopt
    gone.unlink()
    commit_all(repo, "drop the adopt")
    result = forest(repo, "verify")
    assert result.exit_code == 3 and "dangling-dep" in result.stdout
    assert "git checkout" not in result.stderr and "restore the damaged files" in result.stderr

"""``forest ci --base`` on a fresh clone: work done once per value, not once per commit.

A range of commits that share one ledger is judged with one read of that ledger's
remembered bound paths (history.py hands them from commit to commit through
``open_custody``'s ``bound``); a range that adds no act naming a body does not list
HEAD's ledger again for body sizes (range.py ``_body_sizes``). On a fresh clone
HEAD's open derives its view's bound paths and hands them to the range (judged_range.py),
so the ``.bound`` record is looked at once in all; each segment HEAD holds is hashed
against its name once, however many readers decode it (segments.py); the range reads
HEAD's segments from verify's listing of its ledger (range.py ``acts_at``). Counted, not
timed: the looks for cache records (found or not), the listings made, the hashes.

Test: forest_files/gate/history.py (judge_history), forest_files/check/opening_git.py,
forest_files/check/opening_views.py (view_map), forest_files/gate/judged_range.py (judge),
forest_files/gate/range.py (_body_sizes, acts_at), forest_files/ledger/segments.py (parse_segment).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from forest_files.custody.repository import Repository
from forest_files.doors.cli import app
from forest_files.gate.ci import run_gate
from forest_files.kernel import cache
from forest_files.kernel.paths import LEDGER_PREFIX
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.gittrace import git_traced
from tests.helpers.template import reused

ADA = "Ada Lovelace <ada@example.org>"
RANGE = 5


def _build(tmp_path: Path) -> Path:
    path = make_repo(tmp_path, "repo")
    Repository.init(path, project_id="p-repeats").close()
    toml = '[project]\nid = "p-repeats"\n\n[authority]\n"**" = ["' + ADA + '"]\n'
    write(path, "forest.toml", toml)
    write(path, "docs/a.md", "# A\n\nBound text.\n")
    write(path, "docs/b.md", "# B\n\nMore bound text.\n")
    result = CliRunner().invoke(
        app,
        ["adopt", "docs/a.md", "docs/b.md", "--words", "Adopted", "--as", ADA, "-C", str(path)],
    )
    assert result.exit_code == 0, result.stdout + result.stderr
    commit_all(path, "base")
    git(path, "checkout", "-q", "-b", "feature")
    for i in range(RANGE):
        write(path, f"notes/n{i}.txt", f"note {i}\n")
        commit_all(path, f"note {i}")
    return path


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return reused((__name__, "repo"), tmp_path / "repo", _build)


def _looks(monkeypatch: pytest.MonkeyPatch, suffix: str) -> list[str]:
    """Every look for a cache record whose name ends with ``suffix``, found or not."""
    seen: list[str] = []
    real = cache.read

    def counted(path: str | os.PathLike[str], kind: str) -> object | None:
        if os.fspath(path).endswith(suffix):
            seen.append(os.fspath(path))
        return real(path, kind)

    monkeypatch.setattr(cache, "read", counted)
    return seen


def test_ci_range_of_one_ledger_bound_paths_read_once_accepted(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every commit of the range but HEAD touches no bound path and shares HEAD's
    ledger: their bound paths are read from the view's record once, not per commit."""
    assert len(git(repo, "rev-list", "main..HEAD").split()) == RANGE
    seen = _looks(monkeypatch, ".bound")
    report = run_gate(repo, "main")
    assert report.exit_code == 0
    assert len(seen) == 1, seen


def test_ci_range_adding_no_act_head_ledger_not_listed_for_sizes_accepted(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A range that adds no act names no body whose size the merge-base's policy could
    judge: HEAD's ledger is not listed again for it (the view's build lists it once)."""
    from forest_files.gate import range as gate_range

    listed: list[str] = []
    real = gate_range.ledger_blobs

    def counting(root: Path, source: str, **kw: bool) -> object:
        listed.append(source)
        return real(root, source, **kw)

    monkeypatch.setattr(gate_range, "ledger_blobs", counting)
    report = run_gate(repo, "main")
    assert report.exit_code == 0
    assert listed == [], listed


def test_ci_fresh_clone_bound_record_looked_at_once_in_all_accepted(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fresh clone (no view cached): HEAD's open builds the view and learns its bound
    paths; the range's commits of that ledger take them from HEAD's open, so the
    view's ``.bound`` record is looked at once in the whole run, not again per range."""
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--branch", "feature", str(repo), str(clone))
    seen = _looks(monkeypatch, ".bound")
    report = run_gate(clone, "origin/main")
    assert report.exit_code == 0
    assert len(seen) == 1, seen
    assert len(set(seen)) == 1


def _segment_blobs(clone: Path) -> set[bytes]:
    """The bytes of every ledger segment HEAD holds."""
    names = git(
        clone, "ls-tree", "-r", "--name-only", "HEAD", "--", f"{LEDGER_PREFIX}segments/"
    ).split()
    assert names
    return {
        subprocess.run(
            ["git", "-C", str(clone), "show", f"HEAD:{name}"], capture_output=True, check=True
        ).stdout
        for name in names
    }


def test_ci_fresh_clone_each_segment_hashed_once_accepted(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fresh clone reads HEAD's segments for verify, for the view and for the range:
    each segment's bytes are hashed against its name once, not once per read."""
    from forest_files.ledger import segments

    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--branch", "feature", str(repo), str(clone))
    held = _segment_blobs(clone)
    segments._DECODED.clear()  # what an earlier test in this process decoded
    hashed: list[int] = []

    class Counting:
        def __getattr__(self, name: str) -> object:
            return getattr(hashlib, name)

        @staticmethod
        def sha256(data: bytes = b"") -> hashlib._Hash:
            if data in held:
                hashed.append(len(data))
            return hashlib.sha256(data)

    monkeypatch.setattr(segments, "hashlib", Counting())
    report = run_gate(clone, "origin/main")
    assert report.exit_code == 0
    assert len(hashed) == len(held), hashed


def test_ci_fresh_clone_head_ledger_listed_once_accepted(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Verify lists HEAD's ledger; the view's key (viewkey.py ``ledger_fingerprint``)
    is made from that listing, not from another ``ls-tree`` of the ledger. Counted from
    git's own trace; the key is the one a listing by the branch's name gives."""
    from forest_files.custody.viewkey import ledger_fingerprint

    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--branch", "feature", str(repo), str(clone))
    head = git(clone, "rev-parse", "HEAD").strip()
    trace = tmp_path / "trace.txt"
    with git_traced(monkeypatch, trace):
        report = run_gate(clone, "origin/main")
    assert report.exit_code == 0
    listed = [
        line
        for line in trace.read_text(encoding="utf-8").splitlines()
        if " ls-tree " in line and head in line and f" {LEDGER_PREFIX} " in f"{line} "
    ]
    assert len(listed) == 1, listed
    assert ledger_fingerprint(clone, head) == ledger_fingerprint(clone, "feature")


def test_ci_fresh_clone_blob_hash_cache_asked_once_per_binding_accepted(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """HEAD's bindings are judged from its tree: the blob hash cache (statcache.py) is
    asked once for each blob, by the prefetch of its batch: not again by the check in
    between (content_git.py ``known_hash``), nor as the hash computed from the blob's
    bytes is put (``remember``: statcache.py ``put_over``). The hashes put are those
    a second run finds."""
    from forest_files.custody.statcache import BlobHashCache

    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--branch", "feature", str(repo), str(clone))
    asked: list[str] = []
    real = BlobHashCache.get

    def counted(self: BlobHashCache, blob: str) -> str | None:
        asked.append(blob)
        return real(self, blob)

    monkeypatch.setattr(BlobHashCache, "get", counted)
    report = run_gate(clone, "origin/main")
    assert report.exit_code == 0
    bound = 2  # docs/a.md and docs/b.md, each its own blob
    assert len(set(asked)) == bound, asked
    assert len(asked) == bound, asked
    remembered = BlobHashCache(clone)
    assert all(remembered.get(blob) is not None for blob in set(asked))


def test_ci_fresh_clone_head_segments_not_listed_apart_accepted(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The range reads HEAD's acts from the segments of the ledger's listing verify made
    (range.py ``acts_at``): no ``ls-tree`` of HEAD's segments alone; the merge-base's
    are still listed alone (no listing of its whole ledger is at hand). Counted from
    git's own trace; the acts read are those a listing of the segments gives."""
    from forest_files.gate.range import acts_at

    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--branch", "feature", str(repo), str(clone))
    head = git(clone, "rev-parse", "HEAD").strip()
    base = git(clone, "merge-base", "HEAD", "origin/main").strip()
    trace = tmp_path / "trace.txt"
    with git_traced(monkeypatch, trace):
        report = run_gate(clone, "origin/main")
    assert report.exit_code == 0
    lines = [line for line in trace.read_text(encoding="utf-8").splitlines() if " ls-tree " in line]
    segments = f" {LEDGER_PREFIX}segments"
    assert [line for line in lines if head in line and segments in line] == [], lines
    assert len([line for line in lines if base in line and segments in line]) == 1, lines
    assert acts_at(clone, head, verified=True) == acts_at(clone, head)

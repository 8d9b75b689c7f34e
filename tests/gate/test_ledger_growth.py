"""The ledger only grows in EVERY commit of a range, against each of its parents
(ledger/growth.py), and a commit without a ledger is judged by its parent's
(ci/gate.py): a middle commit that removes or moves the ledger while it edits
bound text is caught even when the next commit puts everything back."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from forest_files.custody.repository import Repository
from forest_files.doors.cli import app
from forest_files.gate.ci import run_gate
from forest_files.gate.range import check_range
from forest_files.kernel.hashing import hash_body
from forest_files.ledger import make_act, read_ledger, write_segment
from forest_files.ledger.segment_files import segment_paths
from forest_files.ledger.segments import body_path
from tests.helpers.custody import BY, DOC, two_bound_files
from tests.helpers.git import commit_all, git, write

runner = CliRunner()
LEDGER = ".forest/ledger"
WORDS = "I adopt this text as written"


@pytest.fixture(autouse=True)
def _no_step_summary(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """main: a.md#Keep and b.md#Keep bound and committed; HEAD on ``feature``."""
    root = two_bound_files(tmp_path)
    git(root, "checkout", "-q", "-b", "feature")
    return root


def forest(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout + result.stderr


def details(root: Path) -> list[tuple[str, str]]:
    return [(f.code, f.detail) for f in check_range(root, "main").faults]


def adopt_text(root: Path, body: str) -> None:
    with Repository(root) as r:
        r.adopt_text(body, words=WORDS, by=BY)


def _remove_ledger(root: Path, how: str) -> None:
    if how == "rm":
        git(root, "rm", "-r", "-q", LEDGER)
    else:
        git(root, "mv", LEDGER, ".forest/old-ledger")


def _put_back_ledger(root: Path, how: str) -> None:
    if how == "rm":
        git(root, "checkout", "main", "--", LEDGER)
    else:
        git(root, "mv", ".forest/old-ledger", LEDGER)


@pytest.mark.parametrize("how", ["rm", "mv"])
def test_ledger_removed_and_restored_around_an_edit_detected(repo: Path, how: str) -> None:
    _remove_ledger(repo, how)
    write(repo, "a.md", DOC.replace("kept words", "edited while the ledger was away"))
    middle = commit_all(repo, "ledger away, bound text edited")
    _put_back_ledger(repo, how)
    write(repo, "a.md", DOC)
    commit_all(repo, "everything back")
    assert git(repo, "diff", "main", "HEAD") == ""  # the range's net change is nothing

    found = details(repo)
    assert found and {code for code, _ in found} == {"ledger-deleted"}
    assert all(middle[:12] in detail for _, detail in found)
    assert any("removed or moved" in detail for _, detail in found)
    code, out = forest("verify", "--repo", str(repo), "--base", "main")
    assert code == 3 and middle[:12] in out

    report = run_gate(repo, "main")
    assert ("drifted", middle) in {(f.kind, f.commit) for f in report.findings}
    code, out = forest("ci", "-C", str(repo), "--base", "main")
    assert code == 3 and middle[:12] in out and "kept words" not in out


def test_edit_in_a_later_commit_without_ledger_judged_by_the_nearest_one_detected(
    repo: Path,
) -> None:
    git(repo, "rm", "-r", "-q", LEDGER)
    gone = commit_all(repo, "ledger away")
    write(repo, "b.md", DOC.replace("kept words", "edited in the gap"))
    gap = commit_all(repo, "bound text edited, ledger still away")
    git(repo, "checkout", "main", "--", LEDGER)
    write(repo, "b.md", DOC.replace("kept", "second"))
    commit_all(repo, "everything back")
    findings = {(f.kind, f.commit, f.selector) for f in run_gate(repo, "main").findings}
    assert ("drifted", gap, "b.md#Title/Keep") in findings
    assert not any(commit == gone for rule, commit, _ in findings if rule == "drifted")


def test_segment_rewritten_and_restored_detected(repo: Path) -> None:
    [segment] = segment_paths(repo / LEDGER)
    original = segment.read_bytes()
    segment.write_bytes(b"".join(reversed(original.splitlines(keepends=True))))
    middle = commit_all(repo, "reorder a segment in place")
    segment.write_bytes(original)
    commit_all(repo, "put it back")
    found = details(repo)  # the rewrite, and the rewrite that put it back
    assert {code for code, _ in found} == {"ledger-rewritten"}
    assert any(middle[:12] in detail and segment.name in detail for _, detail in found)


def test_stray_garbage_removed_accepted(repo: Path) -> None:
    git(repo, "checkout", "-q", "main")
    write(repo, f"{LEDGER}/segments/notes.txt", "not a segment\n")
    write(repo, f"{LEDGER}/bodies/zz/{'a' * 64}.txt", "misfiled\n")
    write(repo, f"{LEDGER}/README", "stray\n")
    commit_all(repo, "garbage in the ledger")
    git(repo, "checkout", "-q", "feature")
    git(repo, "merge", "-q", "--ff-only", "main")
    git(repo, "rm", "-q", f"{LEDGER}/segments/notes.txt", f"{LEDGER}/README")
    git(repo, "rm", "-q", f"{LEDGER}/bodies/zz/{'a' * 64}.txt")
    commit_all(repo, "clean the garbage out")
    assert check_range(repo, "main").faults == ()
    code, out = forest("ci", "-C", str(repo), "--base", "main")
    assert code == 0, out


def _erase(root: Path, body: str) -> None:
    """Seal the ground holding ``body`` (live ground is never erased), then record an
    erase act of it through the ledger library (no CLI yet)."""
    ledger = root / LEDGER
    with Repository(root) as r:
        [ground] = [g for g in r.ground() if g.body_hash == hash_body(body)]
        r.seal(ground.content_id, words="sealed before its erasure", by="t <t@example.org>")
        scope = r.config.project_id
    sealed = next(a.id for a in read_ledger(ledger).acts.values() if a.kind == "seal")
    fields = {"body_hash": hash_body(body), "by": "t", "reason": "a paste", "at": "2026"}
    write_segment(ledger, [make_act("erase", [sealed], fields, scope=scope)], {})


def test_body_removed_by_its_commits_erasure_accepted(repo: Path) -> None:
    adopt_text(repo, "Words to erase later.")
    commit_all(repo, "adopt")
    _erase(repo, "Words to erase later.")
    body_path(repo / LEDGER, hash_body("Words to erase later.")).unlink()
    commit_all(repo, "erase")
    write(repo, "notes.txt", "later\n")
    commit_all(repo, "unrelated")
    assert check_range(repo, "main").faults == ()
    code, out = forest("verify", "--repo", str(repo), "--base", "main")
    assert code == 0, out


def test_body_removed_before_its_erasure_is_recorded_detected(repo: Path) -> None:
    adopt_text(repo, "Words to erase later.")
    commit_all(repo, "adopt")
    body = body_path(repo / LEDGER, hash_body("Words to erase later."))
    body.unlink()
    early = commit_all(repo, "body gone, no erasure yet")
    _erase(repo, "Words to erase later.")
    commit_all(repo, "erasure recorded later")
    found = details(repo)
    assert [code for code, _ in found] == ["ledger-deleted"]
    assert early[:12] in found[0][1] and body.name in found[0][1]


def _segments_at(root: Path, rev: str) -> set[str]:
    return set(git(root, "ls-tree", "--name-only", f"{rev}:{LEDGER}/segments").split())


@pytest.mark.parametrize("dropped", ["first", "second"])
def test_merge_dropping_a_parents_segment_detected(repo: Path, dropped: str) -> None:
    git(repo, "checkout", "-q", "-b", "side")
    adopt_text(repo, "Side ground.")
    commit_all(repo, "side adopts")
    git(repo, "checkout", "-q", "feature")
    adopt_text(repo, "Feature ground.")
    commit_all(repo, "feature adopts")
    base = _segments_at(repo, "main")
    [victim] = _segments_at(repo, "feature" if dropped == "first" else "side") - base
    git(repo, "merge", "-q", "--no-ff", "--no-commit", "side")
    git(repo, "rm", "-q", "-f", f"{LEDGER}/segments/{victim}")
    merge = commit_all(repo, "merge side, dropping one parent's segment")
    assert len(git(repo, "rev-list", "--parents", "-n", "1", merge).split()) == 3
    found = details(repo)
    assert [code for code, _ in found] == ["ledger-deleted"]
    assert merge[:12] in found[0][1] and victim in found[0][1]


def test_growth_from_the_range_diff_same_faults_detected(repo: Path) -> None:
    """The growth rule read from the range's one diff of every path (history.py
    ``range_diffs``, the gate's) finds what its own diff of ``.forest/ledger`` finds:
    a segment modified, then retyped to a link, then deleted; garbage removed (no
    fault); a sibling folder whose name starts like the ledger's is no ledger."""
    from forest_files.gate.growth import growth_faults
    from forest_files.gate.history import range_diffs
    from forest_files.gitio import range_parents

    write(repo, ".forest/ledgerx/seg.jsonl", "not the ledger\n")
    write(repo, f"{LEDGER}/junk.txt", "garbage\n")
    commit_all(repo, "a sibling folder and garbage")
    (seg,) = segment_paths(repo / LEDGER)
    seg.write_text(seg.read_text() + "\n")
    git(repo, "rm", "-q", "--", f"{LEDGER}/junk.txt", ".forest/ledgerx/seg.jsonl")
    commit_all(repo, "a segment modified, garbage and the sibling removed")
    seg.unlink()
    seg.symlink_to("../../../a.md")
    commit_all(repo, "a segment retyped")
    git(repo, "rm", "-q", "--", str(seg.relative_to(repo)))
    commit_all(repo, "a segment deleted")
    base = git(repo, "merge-base", "main", "HEAD").strip()
    head = git(repo, "rev-parse", "HEAD").strip()
    listed = range_parents(repo, f"{base}..{head}")
    every = range_diffs(repo, [c for c, _ in listed], dict(listed))
    own = growth_faults(repo, base, head, listed)
    shared = growth_faults(repo, base, head, listed, every)
    assert shared == own
    codes = sorted(f.code for f in own)
    assert codes == ["ledger-deleted", "ledger-rewritten", "ledger-rewritten"], own
    assert not any("ledgerx" in f.detail or "junk" in f.detail for f in own)

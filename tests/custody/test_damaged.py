"""``forest verify`` names the command that brings damaged ledger files back from git
(custody/damaged.py), where HEAD holds them.

Real repository: a committed segment with a byte appended, and a committed body
file edited; the printed ``git checkout HEAD -- …`` pasted into bash; a segment
never committed gets no such command. A dangling dependency whose act another
branch recorded: the act found where ``forest ci`` finds it (custody/holders.py),
checked out from its commit; held nowhere: the take-out, pasted.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from forest_files.ledger.acts import decode_line
from tests.helpers.cli import forest
from tests.helpers.custody import adopted_repo, supersede_as_it_stands
from tests.helpers.git import commit_all, git, pasted, write
from tests.helpers.ledger import write_forged_holder

_LEDGER = ".forest/ledger"


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


def _route(stderr: str) -> str:
    found = re.search(r"restore them from git: `([^`]+)`", stderr)
    assert found, stderr
    return found.group(1)


def test_verify_dangling_dep_committed_route_from_older_commit_recovers(tmp_path: Path) -> None:
    """The adopt's segment deleted and committed (as a rebase dropping its commit
    leaves it): HEAD lacks the act, the commit that added it holds it. No route was
    offered ("restore the damaged files"); it is checked out from that commit now."""
    repo, adopt, _ = _adopted_then_superseded(tmp_path)
    (gone,) = adopt
    gone.unlink()
    commit_all(repo, "drop the adopt")
    result = forest(repo, "verify")
    assert result.exit_code == 3 and "dangling-dep" in result.stdout
    command = _route(result.stderr)
    assert command.startswith("git checkout ") and not command.startswith("git checkout HEAD")
    assert gone.relative_to(repo).as_posix() in command
    assert pasted(repo, command).returncode == 0
    assert forest(repo, "verify").exit_code == 0


def _split(tmp_path: Path) -> tuple[Path, list[str], list[str]]:
    """main: a.md adopted; ``rooted`` adopts b.md (act R), ``superseded`` supersedes it
    (act S, depending on R); ``feature`` (off main) is checked out, holding nothing of
    them. Returns the root, R's ledger files and S's."""
    root = adopted_repo(tmp_path, "a.md", "# A\n\nfirst\n")
    git(root, "checkout", "-q", "-b", "rooted")
    write(root, "b.md", "# B\n\nsecond\n")
    assert forest(root, "adopt", "b.md", "--words", "b").exit_code == 0
    commit_all(root, "adopt b")
    git(root, "checkout", "-q", "-b", "superseded")
    write(root, "b.md", "# B\n\nsecond, amended\n")
    supersede_as_it_stands(root, "b.md")
    commit_all(root, "supersede b")
    rooted = git(root, "diff", "--name-only", "main", "rooted", "--", _LEDGER).splitlines()
    superseded = git(root, "diff", "--name-only", "rooted", "superseded", "--", _LEDGER)
    git(root, "checkout", "-q", "-b", "feature", "main")
    return root, rooted, superseded.splitlines()


def _copy_dependent(root: Path, files: list[str], *, commit: bool) -> None:
    """S's segment and bodies alone onto ``feature``: committed with no hook, or only
    in the working tree."""
    git(root, "checkout", "-q", "superseded", "--", *files)
    if commit:
        git(root, "commit", "-q", "--no-verify", "-m", "copy one segment")
    else:
        git(root, "rm", "-q", "--cached", "--", *files)  # untracked: the working tree alone


@pytest.mark.parametrize("commit", [True, False], ids=["committed", "working-tree"])
def test_verify_dangling_dep_act_on_other_branch_route_pasted_recovers(
    tmp_path: Path, commit: bool
) -> None:
    """The act depended on was recorded on a branch never merged: verify looked only in
    HEAD and said "restore the damaged files"; it finds the act where ``forest ci``
    does and checks its segment and bodies out from that commit (staged)."""
    root, rooted, superseded = _split(tmp_path)
    _copy_dependent(root, superseded, commit=commit)
    result = forest(root, "verify")
    assert result.exit_code == 3 and "dangling-dep" in result.stdout
    command = _route(result.stderr)
    holder = git(root, "rev-parse", "rooted")
    segment = next(f for f in rooted if "/segments/" in f)
    bodies = sorted(f for f in rooted if f != segment)
    assert command == " ".join(["git", "checkout", holder, "--", segment, *bodies])
    assert pasted(root, command).returncode == 0
    assert forest(root, "verify").exit_code == 0
    staged = git(root, "diff", "--cached", "--name-only", "--", _LEDGER).splitlines()
    assert set(rooted) <= set(staged)


@pytest.mark.parametrize("commit", [True, False], ids=["committed", "working-tree"])
def test_verify_dangling_dep_held_nowhere_take_out_pasted_recovers(
    tmp_path: Path, commit: bool
) -> None:
    """No commit any ref reaches holds the act: no checkout; the dependent segment's
    acts cannot stand here, fetch the branch or take it out (``git rm`` when the index
    holds it, ``rm`` when not), pasted, and verify passes."""
    root, _, superseded = _split(tmp_path)
    _copy_dependent(root, superseded, commit=commit)
    git(root, "branch", "-q", "-D", "rooted", "superseded")
    result = forest(root, "verify")
    assert result.exit_code == 3
    assert "git checkout" not in result.stderr
    assert "cannot stand here: fetch the branch that recorded it" in result.stderr
    found = re.search(r"take the segment out \(.*?\): `([^`]+)`", result.stderr)
    assert found, result.stderr
    command = found.group(1)
    assert command.startswith("git rm -q -f -- " if commit else "rm -f -- ")
    assert all(f in command for f in superseded)
    assert pasted(root, command).returncode == 0
    assert forest(root, "verify").exit_code == 0
    assert not any((root / f).exists() for f in superseded)


def test_verify_dangling_dep_id_as_text_elsewhere_never_a_holder(tmp_path: Path) -> None:
    """The missing id in a body, in a file outside the ledger and as the id of a forged
    line (a well-named segment whose line does not hash to it), on a branch any ref
    reaches: none is a holder, so verify offers no checkout, only the take-out."""
    root, rooted, superseded = _split(tmp_path)
    segment = next(f for f in rooted if "/segments/" in f)
    line = git(root, "show", f"rooted:{segment}").splitlines()[0].encode()
    missing = decode_line(line, segment="x", lineno=1).id
    _copy_dependent(root, superseded, commit=True)
    git(root, "branch", "-q", "-D", "rooted", "superseded")
    git(root, "checkout", "-q", "-b", "decoy", "main")
    write(root, "notes.md", f"# Notes\n\nact {missing}\n")
    assert forest(root, "adopt", "notes.md", "--words", "n").exit_code == 0  # a body
    write_forged_holder(root, line, missing)  # its id kept: it does not hash to it
    commit_all(root, "decoys")
    git(root, "checkout", "-q", "feature")
    assert missing in git(root, "log", "--all", "-p", "--format=", "--", f"{_LEDGER}/bodies")
    assert missing in git(root, "log", "--all", "-p", "--format=", "--", "notes.md")
    result = forest(root, "verify")
    assert result.exit_code == 3
    assert "git checkout" not in result.stderr
    assert "act " + missing[:12] + " is in no commit any ref reaches" in result.stderr


def _forged_segment(root: Path) -> str:
    """A new segment whose one act is the adopt's with another signature, re-hashed
    so every line check passes (name, id, canonical form): only the replay, which
    recomputes the entry's content id, refuses it. Its path under ``root``."""
    import hashlib

    from tests.helpers.acts import act_object, raw_line

    (segment,) = (root / _LEDGER / "segments").iterdir()
    obj = act_object(decode_line(segment.read_bytes().splitlines()[0], segment="x", lineno=1))
    obj["entry"]["signature"] = "Mallory <m@example.org>"
    forged = raw_line(obj) + b"\n"
    rel = f"{_LEDGER}/segments/{hashlib.sha256(forged).hexdigest()}.jsonl"
    (root / rel).write_bytes(forged)
    return rel


@pytest.mark.parametrize("staged", [False, True])
def test_verify_forged_act_listed_with_its_segment_fix_pasted_recovers(
    tmp_path: Path, staged: bool
) -> None:
    """Every other command stops at the forged act and names ``forest verify``; verify
    itself stopped there too, naming itself. It now lists the fault at its segment with
    the command that removes it (``rm -f``, or ``git rm -q -f`` once staged); pasted, the
    ledger verifies and the check runs again."""
    repo = _repo(tmp_path)
    rel = _forged_segment(repo)
    if staged:
        git(repo, "add", "--", rel)
    result = forest(repo, "verify")
    assert result.exit_code == 3, result.output
    assert "lists every fault" not in result.stderr, result.stderr
    name = rel.rsplit("/", 1)[1].removesuffix(".jsonl")
    (line,) = [ln for ln in result.stdout.splitlines() if ln.startswith("id-mismatch:")]
    assert f"segment {name}" in line and "forged or edited act" in line, line
    fix = result.stdout.split("fix, at the repository root: ", 1)[1].splitlines()[0]
    assert fix == (f"git rm -q -f -- {rel}" if staged else f"rm -f -- {rel}"), fix
    done = pasted(repo, fix)
    assert done.returncode == 0, done.stderr
    assert forest(repo, "verify").exit_code == 0
    assert forest(repo, "check").exit_code == 0

"""``forest ci``: an act that depends on an act the ledger lacks (``dangling-dep``) gets
a route, and that route, pasted into bash, clears the gate.

The usual cause, built here: ``rooted`` adopts b.md (act R), ``superseded`` (off
``rooted``) supersedes it (act S, which depends on R); ``feature`` (off main) takes
S's segment alone, as a branch that copied one segment file would. The missing act
is searched in every commit a ref reaches and accepted only from a whole segment
holding an act of that very id (custody/holders.py).
"""

from __future__ import annotations

import hashlib
import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from forest_files.custody.record import adopt_sections
from forest_files.custody.repository import Repository
from forest_files.custody.targets import read_section
from forest_files.ledger.acts import decode_line
from tests.gate.merging import break_after_merge, evil_merge
from tests.helpers.acts import act_object, raw_line
from tests.helpers.custody import BY, MAX, adopted_repo, supersede_as_it_stands
from tests.helpers.git import commit_all, git, pasted, write
from tests.helpers.ledger import write_forged_holder

# The slow lane (.ci/run runs it; the README's fast command leaves it out):
# branches, merges and rebases pasted, the gate run after each.
pytestmark = pytest.mark.slow

_LEDGER = ".forest/ledger"


def _new_files(root: Path, old: str, new: str) -> list[str]:
    return git(root, "diff", "--name-only", old, new, "--", _LEDGER).splitlines()


def _split(tmp_path: Path, *, in_merge: bool = False) -> tuple[Path, list[str], list[str]]:
    """main: a.md adopted. Returns the root (on ``feature``, which holds S's files alone,
    committed with no hook), R's ledger files and S's. ``in_merge``: R is recorded in
    the merge of a conflicting branch into ``rooted`` (an evil merge), no commit else."""
    root = adopted_repo(tmp_path, "a.md", "# A\n\nfirst\n")
    git(root, "checkout", "-q", "-b", "rooted")

    def adopt_b() -> None:
        write(root, "b.md", "# B\n\nsecond\n")
        with Repository(root) as repo:
            adopt_sections(repo, [read_section(root, "b.md", (), max_bytes=MAX)], words="b", by=BY)

    if in_merge:
        evil_merge(root, adopt_b, later=False)
    else:
        adopt_b()
        commit_all(root, "adopt b")
    git(root, "checkout", "-q", "-b", "superseded")
    write(root, "b.md", "# B\n\nsecond, amended\n")
    supersede_as_it_stands(root, "b.md")
    commit_all(root, "supersede b")
    rooted = _new_files(root, "main", "rooted")
    superseded = _new_files(root, "rooted", "superseded")
    git(root, "checkout", "-q", "-b", "feature", "main")
    git(root, "checkout", "-q", "superseded", "--", "b.md", *superseded)
    git(root, "commit", "-q", "--no-verify", "-m", "copy one segment")
    return root, rooted, superseded


def _segment(files: list[str]) -> str:
    (segment,) = [f for f in files if "/segments/" in f]
    return segment


def _segment_first(files: list[str]) -> list[str]:
    """A segment's files as a route names them: the segment, then its bodies."""
    return [_segment(files), *sorted(set(files) - {_segment(files)})]


def _ci(root: Path) -> tuple[int, dict[str, Any]]:
    done = pasted(root, "forest ci --base main --format json")
    return done.returncode, json.loads(done.stdout)


def _dangling(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [f for f in report["findings"] if "dangling-dep" in f["detail"]]


def _refused(root: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """The gate refuses (exit 3) with one dangling-dep finding of one route."""
    code, report = _ci(root)
    assert code == 3
    (found,) = _dangling(report)
    (route,) = found["routes"]
    return found, route


def _paste(root: Path, command: str) -> None:
    done = pasted(root, command)
    assert done.returncode == 0, (command, done.stdout, done.stderr)


def _gate_passes(root: Path) -> None:
    done = pasted(root, "forest ci --base main")
    assert done.returncode == 0, done.stdout + done.stderr


def test_ci_dangling_dep_added_by_head_bring_route_recovers(tmp_path: Path) -> None:
    root, rooted, _ = _split(tmp_path)
    found, route = _refused(root)  # the route as data: label, argv, command, note
    assert route["label"] == "bring the missing acts into HEAD"
    holder = git(root, "rev-parse", "rooted")
    assert route["argv"] == [
        ["git", "checkout", holder, "--", *_segment_first(rooted)],
        ["git", "commit", "--amend", "--no-edit", "--allow-empty"],
    ]
    assert route["command"] == " && ".join(shlex.join(s) for s in route["argv"])
    assert any(holder[:12] in h for h in found["hints"])
    _paste(root, route["command"])
    _gate_passes(root)


def test_ci_dangling_dep_added_earlier_rewrite_route_recovers(tmp_path: Path) -> None:
    """The missing act brought by a later commit: the commit that copied the segment
    still fails at its own ledger; the route rewrites the branch there."""
    root, rooted, _ = _split(tmp_path)
    bad = git(root, "rev-parse", "HEAD")
    git(root, "checkout", "-q", "rooted", "--", *rooted)
    git(root, "commit", "-q", "--no-verify", "-m", "bring the root too")
    code, report = _ci(root)
    assert code == 3
    (found,) = _dangling(report)
    assert found["commit"] == bad
    (route,) = found["routes"]
    assert route["label"] == f"rewrite the branch: bring them into {bad[:12]}"
    assert route["argv"] == [["git", "rebase", "-i", report["range"]["merge_base"]]]
    editor = f"sed -i 's/^pick {bad[:7]}/edit {bad[:7]}/'"
    _paste(root, f"GIT_SEQUENCE_EDITOR={shlex.quote(editor)} {route['command']}")
    assert git(root, "rev-parse", "HEAD") == bad  # stopped there
    (at_stop,) = [
        c for c in re.findall(r"`([^`]+)`", route["note"]) if c.startswith("git checkout")
    ]
    pasted(root, at_stop)
    if (root / ".git" / "rebase-merge").exists():  # the later commit became empty
        _paste(root, "git rebase --skip")
    assert not (root / ".git" / "rebase-merge").exists()
    _gate_passes(root)


def test_ci_dangling_dep_held_nowhere_take_out_route_recovers(tmp_path: Path) -> None:
    """No commit any ref reaches holds the missing act: the route takes the dependent
    segment (and the bodies only it names) out of the commit that added it, and says
    its acts are lost."""
    root, _, superseded = _split(tmp_path)
    git(root, "branch", "-q", "-D", "rooted", "superseded")
    found, route = _refused(root)
    assert route["label"] == "take the segment out of HEAD"
    assert "lost from this branch and must be recorded again" in route["note"]
    assert route["argv"][0] == ["git", "rm", "-q", "--", *_segment_first(superseded)]
    assert any("no commit any ref reaches holds" in h for h in found["hints"])
    _paste(root, route["command"])
    assert not git(root, "ls-tree", "-r", "--name-only", "HEAD", "--", _LEDGER + "/segments/"
                   + _segment(superseded).rsplit("/", 1)[1])  # fmt: skip
    _gate_passes(root)


def test_ci_dangling_dep_id_as_text_elsewhere_never_a_holder(tmp_path: Path) -> None:
    """The missing id in a body, in a file outside the ledger, in another act's deps and
    as the id of a forged line (a well-named segment whose line does not hash to it):
    none of them is a holder, so the route stays the take-out."""
    root, rooted, superseded = _split(tmp_path)
    segment = _segment(rooted)
    line = git(root, "show", f"rooted:{segment}").splitlines()[0].encode()
    missing = decode_line(line, segment="x", lineno=1).id
    git(root, "branch", "-q", "-D", "rooted", "superseded")
    git(root, "checkout", "-q", "-b", "decoy", "main")
    write(root, "notes.md", f"# Notes\n\nact {missing}\n")
    with Repository(root) as repo:  # a body holding the id as text
        adopt_sections(repo, [read_section(root, "notes.md", (), max_bytes=MAX)], words="n", by=BY)
    write_forged_holder(root, line, missing)  # its id kept: it does not hash to it
    commit_all(root, "decoys")
    git(root, "checkout", "-q", "feature")
    assert missing in git(root, "log", "--all", "-p", "--format=", "--", _LEDGER + "/bodies")
    _, route = _refused(root)
    assert route["label"] == "take the segment out of HEAD"
    assert route["argv"][0] == ["git", "rm", "-q", "--", *_segment_first(superseded)]


def test_ci_dep_not_hex_refused_never_searched(tmp_path: Path) -> None:
    """An act whose dep is no 64-hex id (an option, here) is a malformed line, never a
    dangling dependency: nothing is searched for it and git is handed nothing."""
    root, rooted, _ = _split(tmp_path)
    segment = _segment(rooted)
    line = git(root, "show", f"rooted:{segment}").splitlines()[0].encode()
    obj = act_object(decode_line(line, segment="x", lineno=1))
    trap = tmp_path / "pwned"
    obj["deps"] = [f"--output={trap}"]
    data = raw_line(obj) + b"\n"
    write(root, f"{_LEDGER}/segments/{hashlib.sha256(data).hexdigest()}.jsonl", data)
    commit_all(root, "hand-made segment")
    code, report = _ci(root)
    assert code == 3
    assert any('"deps" is not a list of 64-hex act ids' in f["detail"] for f in report["findings"])
    assert not trap.exists()


def test_ci_dangling_dep_of_deleted_segment_defers_to_put_back(tmp_path: Path) -> None:
    """A commit of the range deleted the segment that holds the missing act: the
    deletion's put-back route brings it back, and the dangling dependency says so."""
    root, rooted, _ = _split(tmp_path)
    git(root, "checkout", "-q", "-b", "dropped", "superseded")
    git(root, "rm", "-q", "--", _segment(rooted))
    git(root, "commit", "-q", "--no-verify", "-m", "drop the root's segment")
    code, report = _ci(root)
    assert code == 3
    (found,) = _dangling(report)
    assert [r["label"] for r in found["routes"]] == [
        "follows from the ledger-deleted finding above"
    ]
    assert found["routes"][0]["command"] is None
    (deleted,) = [f for f in report["findings"] if f["kind"] == "ledger-deleted"]
    _paste(root, deleted["routes"][0]["command"])
    _gate_passes(root)


def test_ci_dangling_dep_without_base_commit_on_top_recovers(tmp_path: Path) -> None:
    """No base, no range: the missing act's files are committed on top."""
    root, _, _ = _split(tmp_path)
    done = pasted(root, "forest ci --format json")
    assert done.returncode == 3
    (found,) = _dangling(json.loads(done.stdout))
    (route,) = found["routes"]
    assert route["label"] == "bring the missing acts back"
    assert route["argv"][-1][:3] == ["git", "commit", "-m"]
    _paste(root, route["command"])
    done = pasted(root, "forest ci")
    assert done.returncode == 0, done.stdout + done.stderr


def test_ci_dangling_dep_held_only_by_merge_bring_route_recovers(tmp_path: Path) -> None:
    """The missing act was recorded in a merge's conflict resolution and no other commit
    added its segment: the search diffs merges (combined), finds the merge as its holder,
    and the route brings its files from there; pasted, the gate passes."""
    root, rooted, _ = _split(tmp_path, in_merge=True)
    holder = git(root, "rev-parse", "rooted")
    assert len(git(root, "rev-parse", "rooted^@").split()) == 2  # the holder is the merge
    code, report = _ci(root)
    assert code == 3
    (found,) = _dangling(report)
    assert any(f"at commit {holder[:12]}" in h for h in found["hints"])
    (route,) = found["routes"]
    assert route["label"] == "bring the missing acts into HEAD"
    assert route["argv"][0] == ["git", "checkout", holder, "--", *_segment_first(rooted)]
    _paste(root, route["command"])
    _gate_passes(root)


def test_ci_dangling_dep_brought_by_merge_route_breaks_after_it_pasted_recovers(
    tmp_path: Path,
) -> None:
    """The dependent segment came into the range with a merge's conflict resolution
    alone, then a commit on top: the route brings the missing acts into that merge, at
    a ``break`` after its ``merge -C`` line (a merge cannot be marked ``edit``);
    pasted, the gate passes."""
    root, _, superseded = _split(tmp_path)
    git(root, "checkout", "-q", "-b", "merged", "main")
    copy = ("checkout", "-q", "superseded", "--", "b.md", *superseded)
    merge = evil_merge(root, lambda: git(root, *copy))
    code, report = _ci(root)
    assert code == 3
    (found,) = _dangling(report)
    (route,) = found["routes"]
    assert route["label"] == f"rewrite the branch: bring them into {merge[:12]}"
    assert route["argv"] == [
        ["git", "rebase", "-i", "--rebase-merges", report["range"]["merge_base"]]
    ]
    assert f"mark {merge[:12]} `edit`" not in route["note"]
    break_after_merge(root, route["command"], route["note"], merge, again=False)
    (at_stop,) = [
        c for c in re.findall(r"`([^`]+)`", route["note"]) if c.startswith("git checkout")
    ]
    _paste(root, at_stop)
    assert git(root, "rev-parse", "rooted") in at_stop
    _gate_passes(root)


def _segment_apart(root: Path, rooted: list[str], *, bodies: bool) -> tuple[str, str | None]:
    """R's segment alone in a commit of ``segment-only``, its bodies alone in one of
    ``bodies-only`` (when ``bodies``); no other ref reaches R. Returns both commits."""
    segment = _segment(rooted)
    held: list[str | None] = []
    for branch, files in (
        ("segment-only", [segment]),
        ("bodies-only", sorted(set(rooted) - {segment})),
    ):
        if branch == "bodies-only" and not bodies:
            held.append(None)
            continue
        git(root, "checkout", "-q", "-b", branch, "main")
        git(root, "checkout", "-q", "rooted", "--", *files)
        git(root, "commit", "-q", "--no-verify", "-m", branch)
        held.append(git(root, "rev-parse", "HEAD"))
    git(root, "checkout", "-q", "feature")
    git(root, "branch", "-q", "-D", "rooted", "superseded")
    assert held[0] is not None
    return held[0], held[1]


def test_ci_dangling_dep_holder_lacks_bodies_brought_from_their_commit_recovers(
    tmp_path: Path,
) -> None:
    """The holder's commit has the segment but not the bodies its acts name; another
    commit has them: the route checks the bodies out from there too (it brought the
    segment alone, and the gate then failed on the missing body); pasted, it passes."""
    root, rooted, _ = _split(tmp_path)
    at_segment, at_bodies = _segment_apart(root, rooted, bodies=True)
    _, route = _refused(root)
    assert route["label"] == "bring the missing acts into HEAD"
    assert route["argv"] == [
        ["git", "checkout", at_segment, "--", _segment(rooted)],
        ["git", "checkout", at_bodies, "--", *_segment_first(rooted)[1:]],
        ["git", "commit", "--amend", "--no-edit", "--allow-empty"],
    ]
    _paste(root, route["command"])
    _gate_passes(root)


def test_ci_dangling_dep_holder_bodies_nowhere_take_out_route_recovers(tmp_path: Path) -> None:
    """The holder's bodies are in no commit any ref reaches: bringing the segment alone
    would leave its act's body missing, so the route is the take-out, and the hint names
    the bodies; pasted, the gate passes."""
    root, rooted, superseded = _split(tmp_path)
    at_segment, _ = _segment_apart(root, rooted, bodies=False)
    found, route = _refused(root)
    assert route["label"] == "take the segment out of HEAD"
    assert route["argv"][0] == ["git", "rm", "-q", "--", *_segment_first(superseded)]
    (hint,) = found["hints"]
    assert at_segment[:12] in hint and "holds the bodies it needs" in hint
    assert all(body in hint for body in _segment_first(rooted)[1:])
    _paste(root, route["command"])
    _gate_passes(root)


def test_verify_dangling_dep_holder_lacks_bodies_brought_from_their_commit_recovers(
    tmp_path: Path,
) -> None:
    """``forest verify`` finds the same holders as the gate: its restore route checks
    the bodies the holder's commit lacks out from the commit that holds them (it
    brought the segment alone, and verify then failed on the missing body)."""
    root, rooted, _ = _split(tmp_path)
    at_segment, at_bodies = _segment_apart(root, rooted, bodies=True)
    done = pasted(root, "forest verify --json")
    assert done.returncode == 3, done.stderr
    (fault,) = [f for f in json.loads(done.stdout)["faults"] if f["code"] == "dangling-dep"]
    (route,) = fault["routes"]
    assert route["argv"] == [
        ["git", "checkout", at_segment, "--", _segment(rooted)],
        ["git", "checkout", at_bodies, "--", *_segment_first(rooted)[1:]],
    ]
    _paste(root, route["command"])
    done = pasted(root, "forest verify")
    assert done.returncode == 0, done.stdout + done.stderr

"""A bound file left in a merge conflict: no rebind to a "heading" of conflict text.

A conflict's ``=======`` under a line of text reads as a setext heading, so a bound
section below it seemed moved under that heading (a ``forest rebind`` onto conflict
text). Every failed binding of the file says it holds unresolved merge conflicts,
and its routes resolve them (by hand, then ``git add``; or one side whole), pasted
through ``bash -c``; in the hook's index the staged markers are found the same way.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from forest_files.check.conflicts import CONFLICT_DETAIL
from forest_files.text.conflict_markers import has_markers
from tests.helpers.cli import findings, forest, ok
from tests.helpers.git import commit_all, git, make_repo, pasted, write
from tests.helpers.template import copied_from

DOC = "# Doc\n\n## Alpha\n\nline one\nline two\nline three\n\n## Beta\n\nbeta text\n"


def _build(base: Path) -> Path:
    """Two branches edited the bound section Alpha each its own way; main merges."""
    root = make_repo(base)
    write(root, "docs/a.md", DOC)
    commit_all(root, "init")
    ok(root, "init")
    ok(root, "adopt", "docs/a.md#Doc/Alpha", "docs/a.md#Doc/Beta", "--words", "as it stands")
    commit_all(root, "adopt")
    for branch, start in (("other", "-b"), ("main", "")):
        git(root, "checkout", "-q", *filter(None, (start, branch)))
        write(root, "docs/a.md", DOC.replace("line two", f"line two {branch}"))
        commit_all(root, branch)
    return root


repo = copied_from(_build)


def _merged(root: Path) -> None:
    proc = pasted(root, "git merge -q other")
    assert proc.returncode == 1 and "CONFLICT" in proc.stdout, proc.stdout
    assert git(root, "ls-files", "-u", "--", "docs/a.md")


def _commands(found: dict[str, Any]) -> list[str]:
    return [r["command"] for r in found["routes"] if r["command"]]


def test_conflicted_file_offers_no_rebind_routes_resolve_pasted_detected(repo: Path) -> None:
    """Before: Beta was ``moved`` to ``docs/a.md#line one <<<<<<< HEAD …/Beta``."""
    _merged(repo)
    found = findings(repo)
    assert [f["kind"] for f in found] == ["unresolved", "unresolved"], found
    for f in found:
        assert f["detail"].startswith(CONFLICT_DETAIL), f
        assert not f["moved_to"] and not f["candidates"], f
        assert all("forest" not in c for c in _commands(f)), f
        assert "<<<<<<<" not in json.dumps(f["routes"]).replace("delete the <<<<<<<", ""), f
    labels = [r["label"] for r in found[1]["routes"]]
    assert labels == ["resolve the conflicts", "or keep HEAD's side", "or keep the other side"]
    assert "git add -- docs/a.md" in found[1]["routes"][0]["note"]
    theirs = _commands(found[1])[1]
    assert theirs == "git checkout --theirs -- docs/a.md && git add -- docs/a.md"
    done = pasted(repo, theirs)
    assert done.returncode == 0, done.stderr
    assert not git(repo, "ls-files", "-u")
    after = {f["selector"]: f for f in findings(repo)}
    assert after["docs/a.md#Doc/Beta"]["kind"] == "clean"
    assert after["docs/a.md#Doc/Alpha"]["kind"] == "drifted"  # the other side's edit


def test_conflict_markers_staged_check_staged_no_rebind_detected(repo: Path) -> None:
    """``git add`` of the file with its markers (as ``git commit -a`` does): the
    index holds them, and the hook's check reads the index. git's stages are gone
    (``git checkout --ours`` reads the staged markers), so no side was offered; git's
    resolve-undo record keeps them: each side's route puts the conflict back first."""
    _merged(repo)
    git(repo, "add", "--", "docs/a.md")
    result = forest(repo, "check", "--staged", "--json")
    assert result.exit_code == 1, result.stdout
    report = json.loads(result.stdout)
    assert report["commit_route"] is None
    for f in report["findings"]:
        assert f["kind"] == "unresolved" and f["detail"].startswith(CONFLICT_DETAIL), f
        assert "conflict markers" in f["detail"]
        again = "git checkout -m -- docs/a.md && git checkout"
        assert [c[: len(again)] for c in _commands(f)] == [again, again], f
    (ours, _) = _commands(report["findings"][0])
    done = pasted(repo, ours)
    assert done.returncode == 0, done.stderr
    assert not has_markers((repo / "docs/a.md").read_bytes())
    assert git(repo, "status", "--porcelain", "--", "docs/a.md") == ""  # HEAD's, staged


def test_conflicted_file_of_two_bindings_routes_printed_once_detected(repo: Path) -> None:
    """Each bound section of a file in conflict printed the same resolve block again
    (N sections, N blocks); the text prints them once per file, after its last
    binding; ``--json`` keeps one finding per binding, each with its routes. The
    hook's text (``check --staged``, the markers staged) the same."""
    from forest_files.check.staged import judge_staged
    from forest_files.check.text import hook_refusal

    _merged(repo)
    text = forest(repo, "check").stdout
    assert text.count("unresolved docs/a.md#Doc/") == 2, text
    assert text.count("resolve the conflicts:") == 1 and text.count("--theirs") == 1, text
    assert text.index("Doc/Beta") < text.index("resolve the conflicts:")  # after the last
    assert all(f["routes"] for f in findings(repo))
    git(repo, "add", "--", "docs/a.md")
    hook = "\n".join(hook_refusal(judge_staged(repo)))
    assert hook.count("unresolved docs/a.md#Doc/") == 2, hook
    assert hook.count("resolve the conflicts:") == 1, hook


def test_section_moved_into_file_with_conflict_markers_no_rebind_detected(
    tmp_path: Path,
) -> None:
    """A bound section cut from one file and pasted below conflict markers in another:
    no move is found there (its "parent" would be conflict text)."""
    root = make_repo(tmp_path)
    write(root, "x.md", "# X\n\n## Gamma\n\ngamma one\ngamma two\n\n## Rest\n\nrest\n")
    write(root, "y.md", "# Y\n\ntext\n")
    commit_all(root, "init")
    ok(root, "init")
    ok(root, "adopt", "x.md#X/Gamma", "--words", "as it stands")
    commit_all(root, "adopt")
    write(root, "x.md", "# X\n\n## Rest\n\nrest\n")
    conflict = "<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> other\n"
    write(root, "y.md", f"# Y\n\ntext\n{conflict}\n## Gamma\n\ngamma one\ngamma two\n\n## Z\n")
    (gone,) = findings(root)
    assert gone["kind"] == "unresolved" and not gone["moved_to"], gone
    assert not any("y.md" in c for c in (*_commands(gone), *gone["candidates"])), gone


def test_file_renamed_into_conflict_markers_no_rebind_detected(repo: Path) -> None:
    """A bound file renamed, and the renamed file left with conflict markers (one
    branch renamed it, the other edited it): similar text, but no rebind into it."""
    git(repo, "mv", "docs/a.md", "docs/b.md")
    conflict = "<<<<<<< HEAD\nline two main\n=======\nline two other\n>>>>>>> other\n"
    write(repo, "docs/b.md", DOC.replace("line two\n", conflict))
    for f in findings(repo):
        assert f["kind"] == "missing" and not f["candidates"], f
        assert not any("docs/b.md" in c for c in _commands(f)), f


def test_setext_heading_of_seven_equals_not_conflict_accepted() -> None:
    """Only the three markers in git's order make a conflict: a heading underlined
    with ``=======``, or the markers in another order, is none."""
    assert has_markers(b"a\n<<<<<<< HEAD\nb\n=======\nc\n>>>>>>> other\n")
    assert has_markers(b"<<<<<<<\r\nb\r\n=======\r\nc\r\n>>>>>>>\r\n")
    assert not has_markers(b"Title\n=======\n\ntext\n")
    assert not has_markers(b">>>>>>> x\n=======\n<<<<<<< y\n")
    assert not has_markers(b"<<<<<<<< eight\n=======\n>>>>>>> x\n")
    assert not has_markers(b"<<<<<<< HEAD\n========\n>>>>>>> x\n")


def test_supersede_or_adopt_of_unmerged_file_refused(repo: Path) -> None:
    """``forest supersede`` of a bound section of a file git left unmerged, or an
    adoption of the file whole: each recorded the conflict text (markers, or a
    section cut short by a ``=======`` read as a setext heading) as ground. Now
    refused in one line naming the resolve; the ledger byte-identical."""
    _merged(repo)
    ledger = sorted(p.read_bytes() for p in (repo / ".forest/ledger").rglob("*") if p.is_file())
    for args in (
        ("supersede", "docs/a.md#Doc/Alpha", "--words", "both lines"),
        ("supersede", "docs/a.md", "--words", "both lines", "--yes"),
        ("adopt", "docs/a.md", "--words", "the whole file"),
    ):
        refused = forest(repo, *args)
        assert refused.exit_code == 1, (args, refused.output)
        (line,) = refused.stderr.splitlines()
        assert "merge conflict" in line and "git add -- docs/a.md" in line, line
    after = sorted(p.read_bytes() for p in (repo / ".forest/ledger").rglob("*") if p.is_file())
    assert after == ledger


SECTIONS = "# Doc\n\n## Alpha\n\nalpha\n\n## Gamma\n\ngamma\n\n## Beta\n\nbeta one\n\nbeta two\n"


def test_conflict_in_one_section_others_judged_detected(tmp_path: Path) -> None:
    """The merge changed Alpha cleanly (the other branch drifted it) and left a
    conflict in Beta, the last section: Alpha was reported ``unresolved`` as if the
    conflict were its own. Now a section the conflict leaves whole (the same text
    whichever side is kept) is judged: Alpha ``drifted`` at its lines (its routes still
    resolve the file first: a restore writes nothing into a file with markers, and a
    supersede's ``git add`` would stage them), Gamma ``clean``, Beta ``unresolved``."""
    root = make_repo(tmp_path)
    write(root, "a.md", SECTIONS)
    commit_all(root, "init")
    ok(root, "init")
    ok(root, "adopt", *(f"a.md#Doc/{s}" for s in ("Alpha", "Gamma", "Beta")), "--words", "so")
    commit_all(root, "adopt")
    git(root, "checkout", "-q", "-b", "other")
    write(root, "a.md", SECTIONS.replace("beta one", "beta other").replace("alpha\n", "alpha 2\n"))
    git(root, "commit", "-q", "-am", "other")
    git(root, "checkout", "-q", "main")
    write(root, "a.md", SECTIONS.replace("beta one", "beta main"))
    git(root, "commit", "-q", "-am", "main")
    assert pasted(root, "git merge -q other").returncode == 1
    for args in ((), ("--staged",)):  # the markers in the work tree, then staged
        if args:
            git(root, "add", "--", "a.md")
        shown = forest(root, "check", *args, "--json", "-v")
        found = {f["selector"]: f for f in json.loads(shown.stdout)["findings"]}
        alpha, beta = found["a.md#Doc/Alpha"], found["a.md#Doc/Beta"]
        assert found["a.md#Doc/Gamma"]["kind"] == "clean", found
        assert beta["kind"] == "unresolved" and beta["detail"].startswith(CONFLICT_DETAIL), beta
        assert alpha["kind"] == "drifted", (args, alpha)
        assert (alpha["start_line"], alpha["end_line"]) == (3, 6), alpha
        assert alpha["detail"].startswith(CONFLICT_DETAIL), alpha
        assert "not in this section" in alpha["detail"], alpha
        assert all("forest" not in c for c in _commands(alpha)), alpha  # resolve first

"""``forest ci`` after ``git mv OLD NEW`` of a bound folder committed without the hook:
one route for the whole folder (``forest rebind OLD/ NEW/`` amending HEAD), said once
in every format; pasted, the gate passes. A folder moved in an earlier commit has
none: its findings' rebase stops there, where ``forest check`` prints the folder's."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from tests.check.test_findings_schema import validate
from tests.gate.test_ci_gate import validate_sarif
from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, git, make_repo, pasted, write

# The slow lane: a clone, the gate run in five formats, a route pasted, the gate again.
pytestmark = pytest.mark.slow

FILES = [f"docs/d{n}.md" for n in range(1, 5)]
FOLDER = (
    "forest rebind docs/ guide/ && git add -- .forest/ledger && "
    "git commit --amend --no-edit --allow-empty"
)


def _bound(tmp_path: Path) -> Path:
    """``main``: four files under docs/, each bound whole."""
    up = make_repo(tmp_path, "up")
    git(up, "checkout", "-q", "-b", "main")
    for n, path in enumerate(FILES, 1):
        write(up, path, f"# Page {n}\n\nbody {n}\n")
    ok(up, "init")
    ok(up, "adopt", *FILES, "--words", "w")
    commit_all(up, "adopt")
    return up


def _moved_in(tmp_path: Path, *later: str) -> Path:
    """A clone of ``feat``: main's four bound docs/ files moved to guide/ by a commit
    made without the hook, then a commit for each of ``later``."""
    up = _bound(tmp_path)
    git(up, "checkout", "-q", "-b", "feat")
    git(up, "mv", "docs", "guide")
    git(up, "commit", "-q", "--no-verify", "-m", "move docs to guide")
    for name in later:
        write(up, name, "later\n")
        git(up, "add", "--", name)
        git(up, "commit", "-q", "--no-verify", "-m", name)
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--branch", "feat", f"file://{up}", str(clone))
    return clone


def _ci(clone: Path, fmt: str) -> str:
    result = forest(clone, "ci", "--base", "origin/main", "--format", fmt)
    assert result.exit_code == 1, result.output
    return result.stdout


def test_ci_folder_moved_in_head_one_folder_route_accepted(tmp_path: Path) -> None:
    clone = _moved_in(tmp_path)
    for fmt in ("text", "json", "sarif", "junit", "github"):
        out = _ci(clone, fmt)
        shown = out if fmt in ("text", "github") else out.replace("&amp;", "&")
        assert shown.count(FOLDER) == 1, (fmt, out)
        for path in FILES:  # each moved finding keeps its own route too
            assert f"forest rebind {path} guide/" in shown, (fmt, path)
    doc = json.loads(_ci(clone, "json"))
    validate(doc)  # the documented field (docs/findings.schema.json)
    (route,) = doc["range"]["folder_routes"]
    assert route["command"] == FOLDER
    sarif = json.loads(validated := _ci(clone, "sarif"))
    validate_sarif(validated)
    (route,) = sarif["runs"][0]["properties"]["folderRoutes"]
    assert route["command"] == FOLDER
    alone = forest(clone, "ci").stdout  # HEAD alone: check's route, committed on top
    assert alone.count("forest rebind docs/ guide/ && git add -- .forest/ledger\n") == 1
    done = pasted(clone, FOLDER)
    assert done.returncode == 0, done.stderr
    assert forest(clone, "ci", "--base", "origin/main").exit_code == 0
    assert git(clone, "status", "--porcelain") == ""


def test_ci_folder_moved_before_head_rebase_stop_folder_route_accepted(tmp_path: Path) -> None:
    """Moved in an earlier commit: no folder route at HEAD (an amend of HEAD would
    leave the move's commit failing); the rebase stops there, where ``forest check``
    prints the folder's route, and pasting it with the note's amend clears the gate."""
    clone = _moved_in(tmp_path, "notes.txt")
    out = _ci(clone, "text")
    assert "forest rebind docs/ guide/" not in out
    moved = git(clone, "rev-parse", "HEAD~1")
    (rebase,) = {
        line.split(": ", 1)[1].split("  (")[0]
        for line in out.splitlines()
        if line.strip().startswith(f"rewrite the branch at {moved[:12]}: git rebase")
    }
    editor = f"sed -i 's/^pick {moved[:7]}/edit {moved[:7]}/'"
    stop = pasted(clone, f"GIT_SEQUENCE_EDITOR={shlex.quote(editor)} {rebase}")
    assert stop.returncode == 0, stop.stderr
    assert git(clone, "rev-parse", "HEAD") == moved
    checked = forest(clone, "check")
    (line,) = [x for x in checked.stdout.splitlines() if x.startswith("or move the 4 bindings")]
    route = line.split(": ", 1)[1]
    go_on = "git commit --amend --no-edit && git rebase --continue"
    done = pasted(clone, f"{route} && {go_on}")
    assert done.returncode == 0, done.stderr
    assert forest(clone, "ci", "--base", "origin/main").exit_code == 0
    assert git(clone, "status", "--porcelain") == ""


def test_ci_folder_moved_partly_before_head_no_folder_route_refused(tmp_path: Path) -> None:
    """One file of the folder moved by an earlier commit, the rest by HEAD: an amend of
    HEAD would leave the earlier commit failing, so no folder route is offered."""
    up = _bound(tmp_path)
    git(up, "checkout", "-q", "-b", "partly")
    (up / "guide").mkdir()
    git(up, "mv", FILES[0], "guide/d1.md")
    git(up, "commit", "-q", "--no-verify", "-m", "move one")
    for path in FILES[1:]:
        git(up, "mv", path, path.replace("docs/", "guide/"))
    git(up, "commit", "-q", "--no-verify", "-m", "move the rest")
    result = forest(up, "ci", "--base", "main")
    assert result.exit_code == 1, result.output
    assert "forest rebind docs/d2.md guide/d2.md" in result.stdout
    assert "forest rebind docs/ guide/" not in result.stdout


def test_ci_one_rebase_for_several_findings_printed_once_accepted(tmp_path: Path) -> None:
    """Four findings the same rebase settles (a folder moved in an earlier commit):
    text printed the whole rebase under each of them; it prints it under the first,
    and says "the same as for the finding above" under the others. JSON keeps every
    finding's routes whole."""
    clone = _moved_in(tmp_path, "notes.txt")
    moved = git(clone, "rev-parse", "HEAD~1")
    label = f"rewrite the branch at {moved[:12]}"
    out = _ci(clone, "text").splitlines()
    whole = [x for x in out if x.strip().startswith(f"{label}: git rebase -i")]
    same = [x for x in out if x.strip() == f"{label}: the same as for the finding above"]
    assert (len(whole), len(same)) == (1, len(FILES) - 1), out
    doc = json.loads(_ci(clone, "json"))
    rebases = [
        r["command"]
        for f in doc["findings"]
        for r in f["routes"]
        if r["label"].startswith(label) and r["command"]
    ]
    assert len(rebases) == len(FILES) and len(set(rebases)) == 1, rebases

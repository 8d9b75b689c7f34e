"""``forest ci`` typed in a subfolder: its text and JSON reports' commands are pasted
there (``git -C ..``), as ``forest check``'s; SARIF, JUnit and GitHub's are read at
the top of a checkout and stay as run there."""

from __future__ import annotations

import json
import re
from pathlib import Path

from forest_files.gate.ci import run_gate
from forest_files.gate.signing.verdicts import mixed_detail, problem_of
from forest_files.gitio.signatures import CommitSignature
from tests.helpers.cli import console, typed_beside
from tests.helpers.custody import adopted_repo
from tests.helpers.git import commit_all, git, pasted, write

DOC = "docs/a.md"


forest = console  # typed in a directory, through entry.main


def _drifted_head(tmp_path: Path) -> Path:
    """main: docs/a.md adopted; ``feature``'s HEAD edits it silently (no hooks)."""
    root = adopted_repo(tmp_path, DOC, "# A\n\nfirst\n")
    git(root, "checkout", "-q", "-b", "feature")
    write(root, DOC, "# A\n\nsecond\n")
    commit_all(root, "silent edit")
    return root


def _commands(note: str) -> list[str]:
    """The ``git`` and ``forest`` commands a note names in backquotes."""
    return [c for c in re.findall(r"`([^`]+)`", note) if c.split(" ")[0] in ("git", "forest")]


def _line(text: str, label: str) -> str:
    (found,) = [x for x in text.splitlines() if x.strip().startswith(f"{label}: ")]
    return found.strip()[len(label) + 2 :].split("  (")[0]


def test_ci_text_routes_pasted_in_a_subfolder_accepted(tmp_path: Path) -> None:
    """Before, ``forest ci`` in docs/ printed ``git add -- docs/a.md``, which git
    refuses there (no docs/docs/a.md)."""
    root = _drifted_head(tmp_path)
    docs = root / "docs"
    proc = forest(docs, "ci", "--base", "main")
    assert proc.returncode == 1, proc.stderr
    restore = _line(proc.stdout, "restore ground in HEAD")
    assert "git -C .. add -- docs/a.md" in restore
    done = pasted(docs, restore)
    assert done.returncode == 0, (restore, done.stderr)
    assert forest(docs, "ci", "--base", "main").returncode == 0


def test_ci_json_routes_pasted_in_a_subfolder_accepted(tmp_path: Path) -> None:
    """JSON follows ``forest check --json``'s rule: each route's ``command`` and
    ``argv`` run where the command was typed."""
    root = _drifted_head(tmp_path)
    docs = root / "docs"
    checked = json.loads(forest(docs, "check", "--json").stdout)
    assert any("-C" in step for f in checked["findings"] for r in f["routes"] for step in r["argv"])
    proc = forest(docs, "ci", "--base", "main", "--format", "json")
    assert proc.returncode == 1, proc.stderr
    (found,) = json.loads(proc.stdout)["findings"]
    (adopt,) = [r for r in found["routes"] if r["label"] == "adopt the change in HEAD"]
    assert adopt["argv"][1][:3] == ["git", "-C", ".."]
    done = pasted(docs, adopt["command"].replace("'…'", "'why it is right'"))
    assert done.returncode == 0, (adopt["command"], done.stderr)
    assert forest(root, "ci", "--base", "main").returncode == 0


def test_ci_machine_formats_in_a_subfolder_keep_top_commands_accepted(tmp_path: Path) -> None:
    """SARIF, JUnit and GitHub, asked for in docs/: their commands are the top's (a
    checkout's reports are read there), and pasted at the top they clear the gate."""
    root = _drifted_head(tmp_path)
    docs = root / "docs"
    sarif = tmp_path / "forest.sarif"
    proc = forest(docs, "ci", "--base", "main", "--format", "github", "--report", f"sarif={sarif}")
    assert proc.returncode == 1, proc.stderr
    assert "git -C" not in proc.stdout and "git add -- docs/a.md" in proc.stdout
    (result,) = json.loads(sarif.read_text())["runs"][0]["results"]
    routes = result["properties"]["routes"]
    (restore,) = [r for r in routes if r["label"] == "restore ground in HEAD"]
    assert "git -C" not in restore["command"]
    done = pasted(root, restore["command"])
    assert done.returncode == 0, (restore["command"], done.stderr)
    assert forest(docs, "ci", "--base", "main").returncode == 0


def test_ci_rewrite_notes_reached_from_where_typed_accepted(tmp_path: Path) -> None:
    """Before, ``forest -C ../repo ci`` built its rewrite routes' notes with a bare
    `git push --force-with-lease`, `git rebase --skip` and `forest check`: pasted
    beside the repository, none found it. Every command a note names now reaches it."""
    root = adopted_repo(tmp_path, DOC, "# A\n\nfirst\n")
    git(root, "checkout", "-q", "-b", "feature")
    write(root, DOC, "# A\n\nsecond\n")
    commit_all(root, "silent edit")  # a drift at an earlier commit: record or undo it there
    (root / DOC).unlink()
    commit_all(root, "deleted")  # a missing file there: `forest check` names the route
    write(root, DOC, "# A\n\nfirst\n")
    commit_all(root, "put back")
    with typed_beside(root):
        report = run_gate(root, "main")
    named = [c for r in report.findings for x in r.routes for c in _commands(x.note)]
    reached = ("git -C ../repo ", "forest -C ../repo ")
    assert {c for c in named if not c.startswith(reached)} == set(), named
    for needed in ("push --force-with-lease", "rebase --skip", "rebase --continue", "check"):
        assert any(c.endswith(needed) for c in named), (needed, named)


def test_ci_notes_text_where_typed_sarif_at_the_top_accepted(tmp_path: Path) -> None:
    """Typed in docs/ with text on stdout and a SARIF report: the text's notes name
    `git -C .. push`, pasted there; the SARIF's name `git push`, as its steps, read at
    the top of a checkout (the notes are text the gate writes: it judges again)."""
    root = _drifted_head(tmp_path)
    sarif = tmp_path / "forest.sarif"
    proc = forest(root / "docs", "ci", "--base", "main", "--report", f"sarif={sarif}")
    assert proc.returncode == 1, proc.stderr
    assert "(`git -C .. push --force-with-lease`)" in proc.stdout, proc.stdout
    (result,) = json.loads(sarif.read_text())["runs"][0]["results"]
    notes = [r["note"] for r in result["properties"]["routes"]]
    assert any("(`git push --force-with-lease`)" in n for n in notes), notes
    assert not any("-C" in c for n in notes for c in _commands(n)), notes


def test_ci_signing_fixes_reached_from_where_typed_accepted(tmp_path: Path) -> None:
    """Before, the signing faults of ``forest -C ../repo ci`` named a bare `git commit
    --amend -S --no-edit` (and `git config …`, `git commit -S`): pasted beside the
    repository, git found none. Each is now built with the fault, from where typed;
    `git -C ../repo config commit.gpgsign true` pasted there sets the repository's."""
    root = _drifted_head(tmp_path)
    unsigned, x509 = (CommitSignature("c" * 40, f, "N", "", "", "") for f in ("none", "x509"))
    with typed_beside(root) as beside:
        fixes = [problem_of(sig, "Ada <ada@example.org>", (), (), 0.0) for sig in (unsigned, x509)]
        mixed = mixed_detail("c" * 40, ["Ada <ada@example.org>", "Bob <bob@example.org>"])
    named = [c for text in (*(p.fix for p in fixes if p), mixed) for c in _commands(text)]
    assert "git -C ../repo commit --amend -S --no-edit" in named, named
    assert {c for c in named if not c.startswith("git -C ../repo ")} == set(), named
    setting = next(c for c in named if c.endswith("commit.gpgsign true"))
    assert pasted(beside, setting).returncode == 0
    assert git(root, "config", "--local", "commit.gpgsign") == "true"

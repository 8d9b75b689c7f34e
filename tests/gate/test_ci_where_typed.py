"""``forest ci`` typed in a subfolder: its text and JSON reports' commands are pasted
there (``git -C ..``), as ``forest check``'s; SARIF, JUnit and GitHub's are read at
the top of a checkout and stay as run there."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers.cli import console
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

"""A ``.gitattributes`` rule that makes git rewrite ledger files as it stores them is named.

A repository whose ``.gitattributes`` sends ``*.txt`` through a clean filter (an LFS
rule written before ``forest init``'s line is overridden by a later one, or a filter
of the team's own) stores every body file converted: its bytes no longer hash to its
name. The pre-commit hook refused that commit with "does not hash to its name" and no
cause; the CI gate, for a commit made without the hook, the same. Both now name the
rule (the attribute and its value) and the fix: the line that unsets conversion for
the ledger, at the end of ``.gitattributes``, then ``git add --renormalize``. Pasted,
the fix lets the same commit land and the gate pass. A body edited by hand (no rule)
keeps its plain message.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.helpers.cli import FOREST
from tests.helpers.custody import init_and_adopt
from tests.helpers.git import commit_all, git, git_env, make_repo, pasted, write

RULE = "filter=shout"


def _run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **git_env()}
    return subprocess.run(args, cwd=root, env=env, capture_output=True, text=True, check=False)


def _shouting(tmp_path: Path) -> Path:
    """Hooks installed, a clean filter that upper-cases ``*.txt`` configured after
    ``forest init``'s line, and a new adoption staged (its body files converted)."""
    root = make_repo(tmp_path)
    write(root, "canon.md", "# Canon\n\nThe rule.\n")
    init_and_adopt(root, ["canon.md"])
    assert _run(root, FOREST, "hooks", "install").returncode == 0
    commit_all(root, "adopt")
    with (root / ".gitattributes").open("a") as fh:
        fh.write(f"*.txt {RULE}\n")
    git(root, "config", "filter.shout.clean", "tr a-z A-Z")
    git(root, "config", "filter.shout.smudge", "cat")
    git(root, "add", ".gitattributes")
    git(root, "commit", "-q", "-m", "attributes")
    write(root, "rules.md", "# Rules\n\nanother rule\n")
    assert _run(root, FOREST, "adopt", "rules.md", "--words", "adopt").returncode == 0
    git(root, "add", "-A")
    return root


def test_hook_names_the_rule_that_rewrites_ledger_files_refused(tmp_path: Path) -> None:
    root = _shouting(tmp_path)
    head = git(root, "rev-parse", "HEAD")
    done = _run(root, "git", "commit", "-q", "-m", "rules")
    assert done.returncode != 0
    assert git(root, "rev-parse", "HEAD") == head
    assert "does not hash to its name" in done.stderr and RULE in done.stderr
    fix = done.stderr.split("end .gitattributes with the line '", 1)[1].split("'", 1)[0]
    renormalise = done.stderr.split("names the rule), then ", 1)[1].split(" (", 1)[
        0
    ]  # the advice after it, in brackets
    with (root / ".gitattributes").open("a") as fh:
        fh.write(fix + "\n")
    pasted_fix = pasted(root, f"git add .gitattributes && {renormalise}")
    assert pasted_fix.returncode == 0, pasted_fix.stderr
    landed = _run(root, "git", "commit", "-q", "-m", "rules")
    assert landed.returncode == 0, landed.stderr
    gate = _run(root, FOREST, "ci")
    assert gate.returncode == 0, gate.stdout + gate.stderr


def test_gate_names_the_rule_for_a_commit_made_without_the_hook_refused(
    tmp_path: Path,
) -> None:
    root = _shouting(tmp_path)
    git(root, "commit", "-q", "--no-verify", "-m", "rules")
    gate = _run(root, FOREST, "ci", "--format", "json")
    assert gate.returncode == 3
    faults = [f for f in json.loads(gate.stdout)["findings"] if f["kind"] == "ledger-fault"]
    assert faults and all(RULE in f["detail"] and "--renormalize" in f["detail"] for f in faults)
    assert not any("(edited?)" in f["detail"] for f in faults)  # the rule is the cause named


def test_body_edited_by_hand_keeps_its_plain_message_accepted(tmp_path: Path) -> None:
    root = make_repo(tmp_path)
    write(root, "canon.md", "# Canon\n\nThe rule.\n")
    init_and_adopt(root, ["canon.md"])
    (body,) = [
        p
        for p in (root / ".forest" / "ledger" / "bodies").rglob("*.txt")
        if "The rule." in p.read_text()
    ]
    body.write_text("# Canon\n\nAnother rule.\n")
    commit_all(root, "edited body")
    gate = _run(root, FOREST, "ci", "--format", "json")
    assert gate.returncode == 3
    details = [f["detail"] for f in json.loads(gate.stdout)["findings"]]
    assert any("does not hash to its name" in d for d in details)
    assert not any(".gitattributes" in d for d in details)


def test_segment_edited_by_hand_under_eol_rule_keeps_its_plain_message_accepted(
    tmp_path: Path,
) -> None:
    """``* text=auto eol=lf`` (a common first line) before ``forest init``'s
    ``-text``: with ``text`` unset git ignores ``eol``, so a segment edited by hand is
    not blamed on the rule (the note sent the user to edit .gitattributes and
    renormalise, which changes nothing)."""
    root = make_repo(tmp_path)
    write(root, ".gitattributes", "* text=auto eol=lf\n")
    write(root, "canon.md", "# Canon\n\nThe rule.\n")
    init_and_adopt(root, ["canon.md"])
    (segment,) = (root / ".forest" / "ledger" / "segments").glob("*.jsonl")
    segment.write_bytes(segment.read_bytes().replace(b"adopt", b"ADOPT", 1))
    commit_all(root, "edited segment")
    gate = _run(root, FOREST, "ci", "--format", "json")
    assert gate.returncode == 3
    details = [f["detail"] for f in json.loads(gate.stdout)["findings"]]
    assert any("segment name is not the SHA-256 of its bytes" in d for d in details)
    assert not any(".gitattributes" in d for d in details), details


@pytest.mark.slow  # the hook twice and the gate
def test_hook_names_info_attributes_when_the_rule_is_there_refused(tmp_path: Path) -> None:
    """The same clean filter set in ``.git/info/attributes``, which outranks every
    ``.gitattributes`` (forest init's ``-filter`` line included): the refusal names that
    file, not ``.gitattributes`` (whose line changes nothing there); the line appended
    where it says and the renormalise pasted, the commit lands and the gate passes."""
    root = _shouting(tmp_path)
    git(root, "reset", "-q", "HEAD~1")  # the filter rule out of .gitattributes ...
    git(root, "checkout", "-q", "--", ".gitattributes")
    info = root / ".git" / "info" / "attributes"
    info.parent.mkdir(exist_ok=True)
    info.write_text(f"*.txt {RULE}\n")  # ... and into git's own, unshared file
    git(root, "add", "-A")
    done = _run(root, "git", "commit", "-q", "-m", "rules")
    assert done.returncode != 0 and RULE in done.stderr, done.stderr
    assert "a rule in .git/info/attributes (which outranks .gitattributes)" in done.stderr
    fix = done.stderr.split("end .git/info/attributes with the line '", 1)[1].split("'", 1)[0]
    renormalise = done.stderr.split("names the rule), then ", 1)[1].split(" (", 1)[
        0
    ]  # the advice after it, in brackets
    with info.open("a") as fh:
        fh.write(fix + "\n")
    pasted_fix = pasted(root, renormalise)
    assert pasted_fix.returncode == 0, pasted_fix.stderr
    landed = _run(root, "git", "commit", "-q", "-m", "rules")
    assert landed.returncode == 0, landed.stderr
    gate = _run(root, FOREST, "ci")
    assert gate.returncode == 0, gate.stdout + gate.stderr

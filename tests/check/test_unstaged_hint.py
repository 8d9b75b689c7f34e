"""The working tree's ledger not staged while several findings stand: its hint (the
``git add -- .forest/ledger``) is said once per run at every door that prints it,
not once per finding (check/unstaged.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forest_files.check.staged import judge_staged
from forest_files.check.text import hook_refusal
from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, git, make_repo, pasted, write

HINT = "acts recorded in the working tree are not staged"
PAGES = ("p1.md", "p2.md", "p3.md")


def _adopted(tmp_path: Path) -> Path:
    """Three pages committed and adopted whole (the adoption not yet committed)."""
    root = make_repo(tmp_path)
    ok(root, "init")
    for name in PAGES:
        write(root, name, f"# {name}\n\nwords\n")
    commit_all(root, "init")
    ok(root, "adopt", *PAGES, "--words", "The pages")
    return root


def _edited(root: Path) -> None:
    """Every page edited and staged, and p1's edit superseded: the act recorded in the
    working tree's ledger, which is not staged."""
    for name in PAGES:
        write(root, name, f"# {name}\n\nwords, edited\n")
    git(root, "add", *PAGES)
    ok(root, "supersede", "p1.md", "--words", "Edited")


@pytest.mark.slow  # three checks of the index and an adoption: over half a second
def test_unstaged_ledger_many_findings_hint_once_per_door_detected(tmp_path: Path) -> None:
    root = _adopted(tmp_path)
    commit_all(root, "adopt")
    _edited(root)
    shown = forest(root, "check", "--staged")
    blocks = [ln for ln in shown.stdout.splitlines() if ln.startswith("drifted ")]
    assert shown.exit_code == 1 and len(blocks) == 3
    assert shown.stdout.count(HINT) == 1, shown.stdout  # forest check --staged
    (line,) = [ln for ln in shown.stdout.splitlines() if HINT in ln]
    assert line.endswith("`git add -- .forest/ledger`")
    refusal = "\n".join(hook_refusal(judge_staged(root)))
    assert refusal.count(HINT) == 1, refusal  # the pre-commit hook
    data = json.loads(forest(root, "check", "--staged", "--json").stdout)
    assert [n for n in data["notes"] if HINT in n] == [line]  # JSON: one note
    assert not [h for f in data["findings"] for h in f["hints"] if HINT in h]


@pytest.mark.slow  # an adoption, a supersede and a refused commit through the real hook
def test_hook_refusal_says_verdict_then_notes_then_findings_once_detected(
    tmp_path: Path,
) -> None:
    """A refused commit with a note (an unbound file ``[require]`` asks for) and the
    working tree's ledger not staged: the verdict first, then each note and the hint
    once, then the findings, the route for the whole commit last (before: the note
    above the verdict, saying "committed anyway" of a refused commit)."""
    root = _adopted(tmp_path)
    ok(root, "hooks", "install")
    with (root / "forest.toml").open("a", encoding="utf-8") as toml:
        toml.write('\n[require]\n"docs/*.md" = "file"\n')
    commit_all(root, "adopt")
    write(root, "docs/draft.md", "# Draft\n")
    git(root, "add", "docs")
    _edited(root)
    refused = pasted(root, "git commit -q -m edits")
    assert refused.returncode == 1
    lines = refused.stderr.splitlines()
    assert lines[0].startswith("forest-files: commit refused — 3 "), refused.stderr

    def at(text: str) -> int:
        (index,) = [i for i, line in enumerate(lines) if text in line]  # each once
        return index

    note, hint = at("warning: unbound docs/draft.md"), at(HINT)
    first = min(i for i, line in enumerate(lines) if line.startswith("drifted "))
    assert 0 < note < hint < first < at("or adopt all 3 drifted sections at once")
    assert "committed anyway" not in refused.stderr


@pytest.mark.slow  # an adoption, a supersede, three checks of the index and a commit
@pytest.mark.parametrize("flag", ["assume-unchanged", "skip-worktree"])
def test_file_taken_as_unchanged_hint_clears_it_pasted_recovers(tmp_path: Path, flag: str) -> None:
    """``git update-index --assume-unchanged`` (or ``--skip-worktree``) on a bound
    file, then an edit superseded as the routes say: ``git add`` of the file stages
    nothing, so the hook refused the commit (drifted: the staged ledger's new ground
    against the old text), and its routes (restore, supersede, each ending in ``git
    add``) came back to the same refusal. The finding now says why and how out; a
    check fails before the fix (no such hint)."""
    root = _adopted(tmp_path)
    commit_all(root, "adopt")
    git(root, "update-index", f"--{flag}", "--", "p1.md")
    write(root, "p1.md", "# p1.md\n\nwords, edited\n")
    ok(root, "supersede", "p1.md", "--words", "Edited")
    git(root, "add", "--", ".forest/ledger")
    pasted(root, "git add -- p1.md")  # stages nothing (skip-worktree: git refuses it)
    data = json.loads(forest(root, "check", "--staged", "--json").stdout)
    (found,) = [f for f in data["findings"] if f["kind"] != "clean"]
    assert found["kind"] == "drifted" and found["path"] == "p1.md", found
    (hint,) = [h for h in found["hints"] if "take it as unchanged" in h]
    command = hint.rsplit("`", 2)[1]
    assert command == f"git update-index --no-{flag} -- p1.md && git add -- p1.md", hint
    assert pasted(root, command).returncode == 0
    assert forest(root, "check", "--staged").exit_code == 0
    assert pasted(root, "git commit -q -m edited").returncode == 0
    assert git(root, "show", "HEAD:p1.md").endswith("words, edited")  # git() strips


@pytest.mark.slow  # an adoption, a supersede, two checks of the index and a commit
def test_ignored_ledger_files_hook_names_the_rule_pasted_recovers(tmp_path: Path) -> None:
    """A ``*.jsonl`` ignore rule: the supersede's segment is passed over by ``git add
    -- .forest/ledger`` without a word, the hook refused the edit as drift, and its
    supersede route recorded nothing new: the same refusal again. The refusal now
    names the ignored file and the ``git check-ignore`` that shows the rule."""
    root = _adopted(tmp_path)
    commit_all(root, "adopt")
    write(root, ".gitignore", "*.jsonl\n")  # the adoption's segment is tracked already
    commit_all(root, "ignore")
    write(root, "p1.md", "# p1.md\n\nwords, edited\n")
    ok(root, "supersede", "p1.md", "--words", "Edited")
    git(root, "add", "--", ".forest/ledger", "p1.md")  # the new segment left out
    data = json.loads(forest(root, "check", "--staged", "--json").stdout)
    assert [f["kind"] for f in data["findings"] if f["kind"] != "clean"] == ["drifted"]
    (note,) = [n for n in data["notes"] if "git ignores custody files" in n]
    command = note.split("`")[1]
    assert command.startswith("git check-ignore -v -- .forest/ledger/segments/"), note
    assert pasted(root, command).stdout.startswith(".gitignore:1:*.jsonl\t"), note
    write(root, ".gitignore", "")
    git(root, "add", "--", ".gitignore", ".forest/ledger")
    assert forest(root, "check", "--staged").exit_code == 0
    assert pasted(root, "git commit -q -m edited").returncode == 0

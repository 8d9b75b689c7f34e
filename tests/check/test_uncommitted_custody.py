"""Custody the working tree holds and git does not (check/uncommitted.py): said by the
installed pre-commit hook, ``forest init`` and every act's commit
step, with a step that works pasted.

Before, ``forest adopt`` followed by a commit of other files left the ledger
untracked while ``forest status`` and ``forest check`` showed the binding clean: no
clone and no ``forest ci`` ever saw it. A ``.gitignore`` that hides ``.forest/``
made ``forest init``'s own step fail half-way, silently for custody.

Real repositories, the real hook installed by ``forest hooks install``, real ``git
commit``; printed steps pasted into bash.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.helpers.cli import ok
from tests.helpers.git import commit_all, git, make_repo, pasted, write

TEXT = "# A\n\ntext\n"


def _commit(root: Path, args: str) -> subprocess.CompletedProcess[str]:
    """``git commit -q ARGS`` typed by a user: the installed hooks run."""
    return pasted(root, f"git commit -q {args}")


def _adopted_uncommitted(tmp_path: Path, *, setup_committed: bool) -> Path:
    """``a.md`` adopted, the hooks installed; forest init's files committed or not,
    the ledger never."""
    root = make_repo(tmp_path)
    write(root, "a.md", TEXT)
    write(root, "b.txt", "x\n")
    commit_all(root, "start")
    ok(root, "init")
    ok(root, "hooks", "install")
    if setup_committed:
        git(root, "add", "--", "forest.toml", ".gitattributes", ".forest/.gitignore")
        git(root, "commit", "-q", "--no-verify", "-m", "setup")
    ok(root, "adopt", "a.md", "--words", "I adopt a")
    return root


def _step(line: str) -> str:
    return line.rsplit("commit: ", 1)[1]


def test_hook_says_ledger_left_out_and_its_step_commits_it_hostile(tmp_path: Path) -> None:
    """An adoption never staged, then a commit of another file: the commit goes on
    (advice, not a refusal) and the hook names the ledger files it left out; the
    step pasted puts custody in git, and the hook is quiet after."""
    root = _adopted_uncommitted(tmp_path, setup_committed=True)
    write(root, "b.txt", "y\n")
    done = _commit(root, "-a -m other")
    assert done.returncode == 0, done.stderr
    (line,) = [ln for ln in done.stderr.splitlines() if "not in git" in ln]
    assert line.startswith("forest: 3 ledger file(s) not in git"), line
    assert "this commit leaves them out" in line
    assert _step(line) == "git add -- .forest/ledger && git commit"
    pasted_step = pasted(root, f"{_step(line)} -q -m custody")
    assert pasted_step.returncode == 0, pasted_step.stderr
    assert git(root, "ls-files", "--others", "--exclude-standard") == ""
    write(root, "b.txt", "z\n")
    again = _commit(root, "-a -m quiet")
    assert again.returncode == 0 and "not in git" not in again.stderr, again.stderr


def test_hook_says_custody_never_committed_from_a_subdirectory_hostile(tmp_path: Path) -> None:
    """forest.toml itself never committed: the hook, which otherwise returns at once
    (nothing under custody in the index or HEAD), says so; its step, pasted in the
    subdirectory where ``git commit`` was typed, commits custody."""
    root = _adopted_uncommitted(tmp_path, setup_committed=False)
    write(root, "sub/b.txt", "y\n")
    git(root, "add", "sub/b.txt")
    done = pasted(root / "sub", "git commit -q -m other")
    assert done.returncode == 0, done.stderr
    (line,) = [ln for ln in done.stderr.splitlines() if "not in git yet" in ln]
    assert line.startswith("forest: custody is not in git yet"), line
    step = _step(line)
    assert step == "git -C .. add -- forest.toml .gitattributes .forest && git -C .. commit", step
    assert pasted(root / "sub", f"{step} -q -m custody").returncode == 0
    assert {"forest.toml", ".gitattributes", ".forest/.gitignore"} <= set(
        git(root, "ls-files").split()
    )
    assert git(root, "status", "--porcelain") == ""


def test_adopt_step_carries_init_files_never_committed_accepted(tmp_path: Path) -> None:
    """``forest init`` without its commit, then ``forest adopt``: the adopt's step
    names forest init's files too, so one paste commits the whole of custody."""
    root = _adopted_uncommitted(tmp_path, setup_committed=False)
    write(root, "c.md", "# C\n\nc\n")
    out = ok(root, "adopt", "c.md", "--words", "c").stdout
    line = next(ln for ln in out.splitlines() if "commit it" in ln)
    step = line.split(": ", 1)[1]
    assert step == (
        "git add -- .forest/ledger forest.toml .gitattributes .forest/.gitignore c.md && git commit"
    ), step
    assert pasted(root, f"{step} -q -m custody").returncode == 0
    assert git(root, "status", "--porcelain") == ""


@pytest.mark.parametrize("rule", [".forest/\n", "*.jsonl\n"])
def test_ignored_ledger_named_with_its_rule_at_every_door_hostile(
    tmp_path: Path, rule: str
) -> None:
    """A ``.gitignore`` that hides the ledger (``.forest/``, or a pattern that catches its
    segments): ``git add`` refuses those files, so no commit can carry them. ``forest
    init`` (when it hides init's files), the adopt's step and the hook
    name the files and the ``git check-ignore`` that finds the rule; pasted, it does."""
    root = make_repo(tmp_path)
    write(root, "a.md", TEXT)
    write(root, ".gitignore", rule)
    commit_all(root, "start")
    init = ok(root, "init")
    if rule == ".forest/\n":
        assert "git ignores custody files" in init.stderr, init.stderr
    ok(root, "hooks", "install")
    adopt = ok(root, "adopt", "a.md", "--words", "I adopt a")
    assert "git ignores custody files" in adopt.stdout + adopt.stderr
    git(root, "add", "--", "forest.toml", ".gitattributes")
    done = _commit(root, "-m config")
    assert done.returncode == 0, done.stderr
    (line,) = [ln for ln in done.stderr.splitlines() if "git ignores" in ln]
    see = line.split("`")[1]
    assert see.startswith("git check-ignore -v -- .forest/"), see
    found = pasted(root, see)
    assert found.returncode == 0 and f".gitignore:1:{rule.strip()}" in found.stdout, found.stdout


@pytest.mark.slow  # six `forest status` processes and two pasted steps
def test_status_says_ledger_never_committed_warm_and_json_pasted_recovers(
    tmp_path: Path,
) -> None:
    """Before, ``forest status`` after ``forest adopt`` showed the binding clean and
    said nothing, while the hook, ``init`` and the act's own step named the ledger
    files no commit held. Status says it in one line on stderr (the table on stdout
    stays rows) and among ``--json``'s notes, warm or not, with the step reached from
    where it was typed; it still exits 0 (it reports; the hook decides). Pasted, the
    line goes; an act recorded after, with the git index unchanged, brings it back."""
    from tests.helpers.cli import console

    root = _adopted_uncommitted(tmp_path, setup_committed=True)
    (root / "sub").mkdir()
    said = []
    for _ in range(2):  # judged, then answered by the remembered verdict: no git
        done = console(root / "sub", "status")
        assert done.returncode == 0 and done.stdout.startswith("clean "), done
        (line,) = done.stderr.splitlines()
        said.append(line)
    assert said[0] == said[1] and said[0].startswith("forest: 3 ledger file(s) not in git")
    step = _step(said[0])
    assert step == "git -C .. add -- .forest/ledger && git -C .. commit", step
    shown = console(root / "sub", "status", "--json")
    assert shown.returncode == 0 and shown.stderr == ""
    assert json.loads(shown.stdout)["notes"] == [said[0]]
    assert pasted(root / "sub", f"{step} -q --no-verify -m custody").returncode == 0
    quiet = console(root / "sub", "status")
    assert quiet.returncode == 0 and quiet.stderr == "", quiet.stderr
    index = (root / ".git" / "index").stat()
    write(root, "c.md", "# C\n\nc\n")
    ok(root, "adopt", "c.md", "--words", "c")
    assert (root / ".git" / "index").stat().st_mtime_ns == index.st_mtime_ns
    again = console(root, "status")
    assert "ledger file(s) not in git" in again.stderr, again.stderr


@pytest.mark.slow  # eight `forest status` processes
def test_status_line_follows_an_ignore_rule_edit_alone_detected(tmp_path: Path) -> None:
    """The listing ``forest status`` remembers was keyed by the git index, the ledger and
    forest.toml: a rule added to (or taken from) ``$GIT_DIR/info/exclude``, the root
    ``.gitignore`` or ``.forest/.gitignore`` touches none of them, so status kept saying
    "never committed" of files git now ignores (or the reverse). Each edit of an
    ignore file alone changes the line."""
    from tests.helpers.cli import console

    def said(root: Path) -> str:
        done = console(root, "status")
        assert done.returncode == 0, done
        return done.stderr

    root = _adopted_uncommitted(tmp_path, setup_committed=True)
    never, ignored = "ledger file(s) not in git", "git ignores custody files"
    assert never in said(root)
    assert never in said(root)  # warm: the remembered listing
    edits = (
        (root / ".git" / "info" / "exclude", "/.forest/ledger/\n"),
        (root / ".gitignore", "/.forest/ledger/\n"),  # none yet: created, then removed
        (root / ".forest" / ".gitignore", "/ledger/\n"),
    )
    for where, rule in edits:
        before = where.read_text(encoding="utf-8") if where.exists() else None
        where.write_text((before or "") + rule, encoding="utf-8")
        assert ignored in said(root), where
        if before is None:
            where.unlink()
        else:
            where.write_text(before, encoding="utf-8")
        assert never in said(root), where

"""The step ``forest init``, ``forest adopt`` and ``forest supersede`` print after they
record: a command that works pasted (doors/cli/app.py, files_cmds.py, custody_cmds.py;
``kernel/shellword.commit_ledger_with``, ``gitio.to_stage``).

They ended with prose ("commit .forest/ledger with the files", "commit forest.toml,
.gitattributes and .forest/"): a user had to work out which files to stage, and an
adopted file left unstaged was refused by the hook on the next commit. The step names
the ledger and exactly the files a commit would otherwise miss (new or edited, not an
unchanged committed one), quoted for a shell, reached from where it was typed.

Real repositories, the real CLI in process; every printed step pasted into bash.
"""

from __future__ import annotations

from pathlib import Path

from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, conflicted_merge, git, make_repo, pasted, write

HOOKLESS = "core.hooksPath=/dev/null"  # the step is judged alone, not the hook


def _step(out: str) -> str:
    (line,) = [ln for ln in out.splitlines() if "commit it" in ln]
    return line.split("commit it", 1)[1].split(": ", 1)[1]


def _custody(tmp_path: Path, files: dict[str, str], *targets: str) -> Path:
    """``files`` committed, then ``forest init`` (and ``targets`` adopted) committed."""
    root = make_repo(tmp_path)
    for name, text in files.items():
        write(root, name, text)
    commit_all(root, "start")
    ok(root, "init")
    for target in targets:
        ok(root, "adopt", target, "--words", "Adopted")
    commit_all(root, "custody")
    return root


def test_init_step_pasted_commits_custody_files_accepted(tmp_path: Path) -> None:
    root = make_repo(tmp_path)
    write(root, "a.md", "# A\n\ntext\n")
    commit_all(root, "start")
    step = _step(ok(root, "init").stdout)
    assert step == "git add -- forest.toml .gitattributes .forest && git commit"
    done = pasted(root, f"{step} -q -m custody")
    assert done.returncode == 0, done.stderr
    assert git(root, "status", "--porcelain") == ""
    assert "forest.toml" in git(root, "ls-files")


def test_adopt_step_names_new_and_edited_files_only_accepted(tmp_path: Path) -> None:
    """An unchanged committed file needs no staging; a new file and an edited one do:
    only those two are named, and the pasted step leaves nothing for the hook to refuse."""
    root = _custody(tmp_path, {"kept.md": "# Kept\n\nsame\n", "edited.md": "# Edited\n\nold\n"})
    write(root, "edited.md", "# Edited\n\nnew\n")
    write(root, "docs/it's new.md", "# New\n\nfresh\n")
    out = ok(root, "adopt", "kept.md", "edited.md", "docs/it's new.md", "--words", "Adopted")
    step = _step(out.stdout)
    assert step == ("git add -- .forest/ledger edited.md 'docs/it'\"'\"'s new.md' && git commit"), (
        step
    )
    done = pasted(root, f"{step} -q -m adopted")
    assert done.returncode == 0, done.stderr
    assert git(root, "status", "--porcelain") == ""
    assert forest(root, "check", "--rev", "HEAD").exit_code == 0


def test_adopt_step_with_glob_character_name_stages_that_file_alone_hostile(
    tmp_path: Path,
) -> None:
    """A file named ``n*.md`` is a pathspec pattern to git: the step stages it
    literally, so the unbound ``notes.md`` beside it stays out of the commit."""
    root = _custody(tmp_path, {"seed.md": "seed\n"})
    write(root, "n*.md", "# Star\n\nbound\n")
    write(root, "notes.md", "# Notes\n\nnot for this commit\n")
    step = _step(ok(root, "adopt", "n*.md", "--words", "Adopted").stdout)
    assert "--literal-pathspecs" in step, step
    done = pasted(root, f"{step} -q -m adopted")
    assert done.returncode == 0, done.stderr
    assert git(root, "ls-files", "--", "notes.md") == ""
    assert git(root, "--literal-pathspecs", "status", "--porcelain", "--", "n*.md", ".forest") == ""


def test_adopt_step_from_subdirectory_pasted_there_accepted(tmp_path: Path) -> None:
    root = _custody(tmp_path, {"book/ch1.md": "# One\n\ntext\n"})
    write(root, "book/ch1.md", "# One\n\nrevised\n")
    result = pasted(root / "book", "forest adopt book/ch1.md --words Adopted")
    assert result.returncode == 0, result.stderr
    step = _step(result.stdout)
    assert step == "git -C .. add -- .forest/ledger book/ch1.md && git -C .. commit", step
    done = pasted(root / "book", f"{step} -q -m adopted")
    assert done.returncode == 0, done.stderr
    assert git(root, "status", "--porcelain") == ""


def test_supersede_step_pasted_passes_the_hook_accepted(tmp_path: Path) -> None:
    """The supersede's step stages the edited file with the ledger; pasted with the
    hooks installed, the commit is accepted."""
    root = _custody(
        tmp_path, {"canon.md": "# Canon\n\n## Rule\n\nThe sky is green.\n"}, "canon.md#Rule"
    )
    ok(root, "hooks", "install")
    write(root, "canon.md", "# Canon\n\n## Rule\n\nThe sky is blue.\n")
    out = ok(root, "supersede", "canon.md#Rule", "--words", "Corrected")
    step = _step(out.stdout)
    assert step == "git add -- .forest/ledger canon.md && git commit", step
    done = pasted(root, f"{step} -q -m corrected")
    assert done.returncode == 0, done.stdout + done.stderr
    assert git(root, "status", "--porcelain") == ""
    assert git(root, "-c", HOOKLESS, "log", "-1", "--format=%s") == "corrected"


def test_retire_during_conflicted_merge_stage_step_pasted_accepted(tmp_path: Path) -> None:
    """While a merge leaves a file in conflict git refuses any commit, so an act's step
    stages alone and says what is left (``retire`` printed ``… && git commit``, which
    failed pasted; ``resolve`` had the same fix, now shared: doors/cli/commit_step.py)."""
    root = _custody(tmp_path, {"canon.md": "# Canon\n\n## Rule\n\nsky\n"}, "canon.md#Rule")
    conflicted_merge(root)
    out = ok(root, "retire", "canon.md#Rule", "--words", "Dropped from canon").stdout
    (line,) = [ln for ln in out.splitlines() if ln.startswith("stage it")]
    assert "git commit" not in line and "the 1 file(s) still in conflict" in line, line
    done = pasted(root, line.removeprefix("stage it: ").split("  (")[0])
    assert done.returncode == 0, done.stderr
    assert ".forest/ledger/segments/" in git(root, "diff", "--cached", "--name-only")


def test_adopt_step_after_init_edited_tracked_gitattributes_carries_it_detected(
    tmp_path: Path,
) -> None:
    """A repository that tracks a .gitattributes: ``forest init`` appends the ledger's
    line to it. An adopt before the init is committed names it beside forest.toml, so
    the pasted step commits the line (it reached no clone: status showed it modified)."""
    root = make_repo(tmp_path)
    write(root, ".gitattributes", "*.png binary\n")
    write(root, "a.md", "# A\n\ntext\n")
    commit_all(root, "start")
    ok(root, "init")
    step = _step(ok(root, "adopt", "a.md", "--words", "Adopted").stdout)
    assert ".gitattributes" in step.split(" && ")[0], step
    done = pasted(root, f"{step} -q -m custody")
    assert done.returncode == 0, done.stderr
    assert git(root, "status", "--porcelain") == ""
    assert ".forest/ledger/**" in git(root, "show", "HEAD:.gitattributes")

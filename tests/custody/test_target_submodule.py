"""A submodule typed as an adoption target (custody/target_refusals.py): one refusal
naming the submodule and where its files are bound — the submodule's own repository.

Real repository: ``forest adopt 'vendor/the sub'`` (a gitlink, mode 160000) said
"not a regular file (directory); bind a regular file", as for any folder, and a file
inside a submodule not checked out said "no such file in the working tree".
"""

from __future__ import annotations

from pathlib import Path

import pytest

import forest_files.doors.cli  # noqa: F401  (registers every command)
from tests.custody.test_target_names import snapshot
from tests.helpers.cli import forest
from tests.helpers.git import commit_all, git, make_repo, pasted, write

SUB = "vendor/the sub"
WORDS = "I adopt these words as written"


def _with_submodule(tmp_path: Path) -> Path:
    sub = make_repo(tmp_path, "sub")
    write(sub, "inner.md", "# Inner\n\ntext\n")
    commit_all(sub, "sub")
    repo = make_repo(tmp_path)
    write(repo, "ok.md", "# A\n\ntext\n")
    commit_all(repo, "files")
    git(repo, "submodule", "add", "-q", str(sub), SUB)
    commit_all(repo, "submodule")
    assert forest(repo, "init").exit_code == 0
    commit_all(repo, "forest")
    return repo


def _refused(repo: Path, target: str) -> str:
    before = snapshot(repo)
    result = forest(repo, "adopt", target, "--words", WORDS)
    assert result.exit_code == 1, (result.stdout, result.stderr)
    line = result.stderr.strip()
    assert len(line.splitlines()) == 1 and line.startswith("forest: "), line
    assert "Traceback" not in result.output
    assert snapshot(repo) == before
    return line


def _steps(line: str) -> str:
    """The steps a refusal names, in brackets at its end."""
    assert line.endswith(")"), line
    return line.rsplit("run forest there (", 1)[1].removesuffix(")")


@pytest.mark.parametrize("target", [SUB, f"{SUB}@block", f"{SUB}#Inner"])
def test_adopt_submodule_names_its_repository_refused(tmp_path: Path, target: str) -> None:
    repo = _with_submodule(tmp_path)
    line = _refused(repo, target)
    assert "not a regular file (directory)" not in line, line
    assert f"'{SUB}' is a git submodule" in line, line
    assert "inside the submodule's own repository" in line, line
    cd = _steps(line)
    assert cd == f"cd '{SUB}'", line
    proc = pasted(repo, f"{cd} && git rev-parse --show-toplevel")
    assert proc.returncode == 0 and proc.stdout.strip().endswith(SUB), proc.stderr


def test_adopt_submodule_not_checked_out_names_update_refused(tmp_path: Path) -> None:
    repo = _with_submodule(tmp_path)
    git(repo, "submodule", "deinit", "-q", "-f", "--", SUB)
    for target in (SUB, f"{SUB}/inner.md"):
        line = _refused(repo, target)
        assert f"'{SUB}'" in line and "submodule" in line, line
        assert "no such file" not in line and "(directory)" not in line, line
        steps = _steps(line)
        assert steps == f"git submodule update --init -- '{SUB}' && cd '{SUB}'", line
        proc = pasted(repo, f"{steps} && test -f inner.md")
        assert proc.returncode == 0, proc.stderr
        git(repo, "submodule", "deinit", "-q", "-f", "--", SUB)


def test_adopt_file_inside_submodule_names_its_repository_refused(tmp_path: Path) -> None:
    repo = _with_submodule(tmp_path)
    line = _refused(repo, f"{SUB}/inner.md#Inner")
    assert f"inside the submodule '{SUB}'" in line, line
    assert line.endswith(f"(cd '{SUB}')"), line


def test_adopt_glob_inside_submodule_names_its_repository_refused(tmp_path: Path) -> None:
    """A glob into a submodule matched nothing git lists here, and said only "the
    pattern matches no file; check the glob"; it names the submodule, as a path does."""
    repo = _with_submodule(tmp_path)
    line = _refused(repo, f"{SUB}/*.md")
    assert f"inside the submodule '{SUB}'" in line and "check the glob" not in line, line
    assert _steps(line) == f"cd '{SUB}'", line
    assert "check the glob" in _refused(repo, "elsewhere/*.md")

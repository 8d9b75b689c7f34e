"""One rule for what a bound path is (files/special.py): a regular file, in every source.

Adoption refuses symlinks, git's and forest's own files; a check reports a bound
path holding a symlink, a directory, a FIFO or a submodule as ``unresolved`` with
one detail, whether it judges the working tree, the git index or a commit; an
unbound symlink beside a bound file causes no finding anywhere; restore keeps a
file's mode, refuses what is not a regular file, and recreates a deleted
whole-file binding. Every refusal is one ``forest:`` line and writes nothing.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import forest_files.doors.cli  # noqa: F401  (registers every command)
from forest_files.custody.special import git_mode_kind, special_path_reason
from forest_files.doors import hooks as githooks
from forest_files.doors.cli import app
from tests.helpers.custody import age_files, init_and_adopt
from tests.helpers.git import commit_all, git, git_env, make_repo, write
from tests.helpers.template import built_once, copy_repo

CANON = "# Canon\n\n## Rules\n\nThe first rule stands.\n\n## Elsewhere\n\nOther words.\n"
RULES = "canon.md#Canon/Rules"
WORDS = "I adopt these words as written"
runner = CliRunner()
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")


def _run(root: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **git_env()}
    return subprocess.run(
        list(args), cwd=root, env=env, capture_output=True, text=True, timeout=timeout
    )


def forest(root: Path, *args: str, timeout: float = 0) -> subprocess.CompletedProcess[str]:
    """``forest ARGS`` in ``root``: in this process (the rule, not the process, is the
    subject); in a process of its own with ``timeout`` where a FIFO could block a read."""
    if timeout:
        code = "from forest_files.doors.cli import main; main()"
        return _run(root, sys.executable, "-c", code, *args, timeout=timeout)
    with contextlib.chdir(root):
        result = runner.invoke(app, list(args))
    return subprocess.CompletedProcess(args, result.exit_code, result.stdout, result.stderr)


def snapshot(root: Path) -> dict[str, bytes | str]:
    """Every entry under ``root`` (git's own files included): bytes, or a symlink's
    target, or the kind of anything else, with its mode."""
    out: dict[str, bytes | str] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            if name.startswith("audit.db"):
                continue  # the audit log records the refusal (by its code): that is its job
            full = os.path.join(dirpath, name)
            st = os.lstat(full)
            key = f"{os.path.relpath(full, root)} {st.st_mode:o}"
            if stat.S_ISLNK(st.st_mode):
                out[key] = os.readlink(full)
            elif name == "woods.db":  # its content: opening it may bump SQLite's counter
                conn = sqlite3.connect(full)
                out[key] = "\n".join(conn.iterdump())
                conn.close()
            elif stat.S_ISREG(st.st_mode):
                out[key] = Path(full).read_bytes()
            else:
                out[key] = "special"
    return out


def refused(
    root: Path, *args: str, match: str, timeout: float = 0
) -> subprocess.CompletedProcess[str]:
    """``forest ARGS`` exits 1 with one ``forest:`` line matching ``match`` on stderr,
    and every byte under ``root`` (ledger, index, files, .git) is as before."""
    before = snapshot(root)
    proc = forest(root, *args, timeout=timeout)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    line = proc.stderr.strip()
    assert len(line.splitlines()) == 1 and line.startswith("forest: "), proc.stderr
    assert match in line, line
    assert "Traceback" not in proc.stderr
    assert snapshot(root) == before
    return proc


def _adopted(directory: Path) -> Path:
    root = make_repo(directory)
    write(root, "canon.md", CANON)
    init_and_adopt(root, [RULES])
    commit_all(root, "adopt")
    age_files(root)
    assert forest(root, "check").returncode == 0  # the index records the aged ledger
    return root


@pytest.fixture(scope="module")
def _template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_once(tmp_path_factory, _adopted)


@pytest.fixture
def repo(_template: Path, tmp_path: Path) -> Path:
    """``canon.md#Canon/Rules`` adopted and committed, every file aged (a private copy
    of one repository built once for the module)."""
    return copy_repo(_template, tmp_path / "repo")


# --- the pure rule ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        ".git/config",
        ".git",
        ".GIT/hooks/pre-commit",
        "docs/.git/config",
        ".forest/woods.db",
        ".forest/ledger/segments/x.jsonl",
        ".Forest/x",
        "forest.toml",
        "FOREST.toml",
    ],
)
def test_special_path_reason_own_files_refused(path: str) -> None:
    assert special_path_reason(path) is not None


@pytest.mark.parametrize(
    "path", ["canon.md", "docs/forest.toml", "docs/.forest/x.md", ".github/x.md", ".gitignore"]
)
def test_special_path_reason_other_paths_accepted(path: str) -> None:
    assert special_path_reason(path) is None


@pytest.mark.parametrize(
    ("mode", "kind"),
    [
        ("100644", None),
        ("100755", None),
        ("100664", None),
        ("120000", "symlink"),
        ("160000", "submodule"),
        ("040000", "directory"),
    ],
)
def test_git_mode_kind_each_mode_accepted(mode: str, kind: str | None) -> None:
    assert git_mode_kind(mode) == kind


# --- adoption ---------------------------------------------------------------------------


def test_adopt_symlink_inside_repo_refused(repo: Path) -> None:
    os.symlink("canon.md", repo / "alias.md")
    refused(repo, "adopt", "alias.md#Rules", "--words", WORDS, match="alias.md: is a symlink")
    proc = refused(repo, "adopt", "alias.md", "--words", WORDS, match="(canon.md)")
    assert "bind the file it leads to instead" in proc.stderr


def test_adopt_through_symlinked_directory_inside_repo_refused(repo: Path) -> None:
    write(repo, "docs/lore.md", "# Lore\n\nours\n")
    os.symlink("docs", repo / "linked")
    refused(repo, "adopt", "linked/lore.md", "--words", WORDS, match="symlinked directory linked")


@pytest.mark.parametrize(
    ("path", "match"),
    [
        (".git/config", "inside .git/"),
        (".forest/notes.md", "inside .forest/"),
        ("forest.toml", "is forest.toml"),
    ],
)
def test_adopt_own_files_refused(repo: Path, path: str, match: str) -> None:
    if not (repo / path).exists():  # a file of the user's under .forest/: refused all the same
        write(repo, path, "notes\n")
    assert (repo / path).is_file()
    refused(repo, "adopt", path, "--words", WORDS, match=match)


@needs_fifo
def test_adopt_fifo_refused(repo: Path) -> None:
    os.mkfifo(repo / "pipe.md")
    refused(
        repo, "adopt", "pipe.md", "--words", WORDS, match="not a regular file (fifo)", timeout=20
    )


def test_adopt_glob_skips_a_symlink_accepted(repo: Path) -> None:
    write(repo, "docs/index.md", "# Index\n\nwords\n")
    os.symlink("index.md", repo / "docs" / "README.md")
    proc = forest(repo, "adopt", "docs/*.md", "--words", WORDS, "--json")
    assert proc.returncode == 0, proc.stderr
    assert [b["selector"] for b in json.loads(proc.stdout)] == ["docs/index.md"]


# --- checks: one detail from every source -------------------------------------------------


def _unresolved(proc: subprocess.CompletedProcess[str], kind: str) -> None:
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert f"unresolved {RULES} not a regular file ({kind})" in proc.stdout, proc.stdout


def _ci_finding(root: Path, kind: str) -> None:
    proc = forest(root, "ci", "--format", "json")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    doc = json.loads(proc.stdout)
    found = [f for f in doc["findings"] if f["kind"] != "clean"]
    assert [(f["kind"], f["selector"]) for f in found] == [("unresolved", RULES)]
    assert found[0]["detail"] == f"not a regular file ({kind})" and found[0]["routes"]


def _symlinked(repo: Path) -> None:
    """canon.md replaced by a symlink to an identical copy, staged and committed."""
    write(repo, "copy.md", CANON)
    (repo / "canon.md").unlink()
    os.symlink("copy.md", repo / "canon.md")
    commit_all(repo, "canon.md becomes a symlink")


def test_check_bound_file_replaced_by_symlink_detected(repo: Path) -> None:
    _symlinked(repo)
    for args in ([], ["--staged"], ["--rev", "HEAD"]):
        _unresolved(forest(repo, "check", *args), "symlink")
    for args in ([], ["--staged"]):
        _unresolved(
            _run(repo, sys.executable, "-m", "forest_files.doors.fastcheck", *args), "symlink"
        )
    _ci_finding(repo, "symlink")


def test_hook_staged_symlink_at_bound_path_refused(repo: Path) -> None:
    githooks.install(repo)
    write(repo, "copy.md", CANON)
    (repo / "canon.md").unlink()
    os.symlink("copy.md", repo / "canon.md")
    git(repo, "add", "-A")
    head = git(repo, "rev-parse", "HEAD")
    proc = _run(repo, "git", "commit", "-q", "-m", "swap")
    assert proc.returncode != 0, proc.stdout + proc.stderr
    assert f"unresolved {RULES} not a regular file (symlink)" in proc.stderr
    assert git(repo, "rev-parse", "HEAD") == head


def test_check_bound_file_replaced_by_submodule_detected(repo: Path) -> None:
    head = git(repo, "rev-parse", "HEAD")
    git(repo, "rm", "-q", "--cached", "canon.md")
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{head},canon.md")
    for args in (["--staged"],):
        _unresolved(forest(repo, "check", *args), "submodule")
    git(repo, "commit", "-q", "-m", "canon.md becomes a gitlink")
    _unresolved(forest(repo, "check", "--rev", "HEAD"), "submodule")
    _ci_finding(repo, "submodule")


def test_check_bound_file_replaced_by_directory_detected(repo: Path) -> None:
    (repo / "canon.md").unlink()
    write(repo, "canon.md/inner.md", CANON)
    _unresolved(forest(repo, "check"), "directory")
    _unresolved(_run(repo, sys.executable, "-m", "forest_files.doors.fastcheck"), "directory")
    git(repo, "add", "-A")  # git holds files under canon.md/: a tree where the file was
    _unresolved(forest(repo, "check", "--staged"), "directory")


@needs_fifo
def test_check_bound_file_replaced_by_fifo_detected(repo: Path) -> None:
    (repo / "canon.md").unlink()
    os.mkfifo(repo / "canon.md")
    _unresolved(forest(repo, "check", timeout=20), "fifo")
    _unresolved(
        _run(repo, sys.executable, "-m", "forest_files.doors.fastcheck", timeout=20), "fifo"
    )


def test_check_unbound_symlink_beside_bound_file_accepted(tmp_path: Path) -> None:
    root = make_repo(tmp_path)
    write(root, "index.md", CANON)
    os.symlink("index.md", root / "README.md")
    init_and_adopt(root, ["index.md#Rules"])
    commit_all(root, "adopt")
    githooks.install(root)
    for args in ([], ["--staged"], ["--rev", "HEAD"]):
        proc = forest(root, "check", *args)
        assert proc.returncode == 0, proc.stdout + proc.stderr
    assert _run(root, sys.executable, "-m", "forest_files.doors.fastcheck").returncode == 0
    ci = forest(root, "ci", "--format", "json")
    kinds = {f["kind"] for f in json.loads(ci.stdout)["findings"]}
    assert ci.returncode == 0 and kinds == {"clean"}, ci.stdout
    # a moved search (the bound file renamed) does not take the symlink for the file
    git(root, "mv", "index.md", "elsewhere.md")
    os.unlink(root / "README.md")
    os.symlink("elsewhere.md", root / "README.md")
    git(root, "add", "-A")
    for args in ([], ["--staged"]):
        proc = forest(root, "check", "--json", *args)
        found = json.loads(proc.stdout)["findings"]
        assert [(f["kind"], f["moved_to"]) for f in found] == [
            ("moved", "elsewhere.md#Canon/Rules")
        ], args


# --- restore ----------------------------------------------------------------------------


def test_restore_executable_file_keeps_its_mode_accepted(tmp_path: Path) -> None:
    root = make_repo(tmp_path)
    write(root, "run.md", CANON)
    os.chmod(root / "run.md", 0o755)
    init_and_adopt(root, ["run.md#Rules"])
    commit_all(root, "adopt")
    assert git(root, "ls-files", "-s", "run.md").startswith("100755")
    write(root, "run.md", CANON.replace("first rule stands", "first rule bends"))
    proc = forest(root, "restore", "run.md#Rules")
    assert proc.returncode == 0, proc.stderr
    assert (root / "run.md").read_text(encoding="utf-8") == CANON
    assert stat.S_IMODE(os.lstat(root / "run.md").st_mode) == 0o755
    assert git(root, "status", "--porcelain") == ""
    assert not [p for p in os.listdir(root) if p.endswith(".forest-restore")]


def _replace(root: Path, kind: str) -> None:
    (root / "canon.md").unlink()
    if kind == "symlink":
        write(root, "copy.md", CANON)
        os.symlink("copy.md", root / "canon.md")
    elif kind == "directory":
        (root / "canon.md").mkdir()
    else:
        os.mkfifo(root / "canon.md")


@pytest.mark.parametrize("kind", ["symlink", "directory", pytest.param("fifo", marks=needs_fifo)])
def test_restore_non_regular_file_at_bound_path_refused(repo: Path, kind: str) -> None:
    _replace(repo, kind)
    timeout = 20 if kind == "fifo" else 0  # a FIFO in a process of its own: it must not block
    refused(repo, "restore", RULES, match=f"canon.md: not a regular file ({kind})", timeout=timeout)


def test_restore_deleted_whole_file_binding_recovers(tmp_path: Path) -> None:
    root = make_repo(tmp_path)
    write(root, "docs/whole.md", CANON)
    init_and_adopt(root, ["docs/whole.md"])
    commit_all(root, "adopt")
    (root / "docs" / "whole.md").unlink()
    proc = forest(root, "restore", "docs/whole.md")
    assert proc.returncode == 0, proc.stderr
    assert "was gone" in proc.stdout
    assert (root / "docs" / "whole.md").read_text(encoding="utf-8") == CANON
    assert stat.S_IMODE(os.lstat(root / "docs" / "whole.md").st_mode) == 0o644
    assert forest(root, "check").returncode == 0


def test_restore_deleted_file_of_section_binding_refused(repo: Path) -> None:
    (repo / "canon.md").unlink()
    refused(repo, "restore", RULES, match="the file is gone")

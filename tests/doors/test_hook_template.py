"""The hook template ships twice (top-level hooks/ for readers, packaged for the installer)."""

from __future__ import annotations

from pathlib import Path

from forest_files.doors.hooks import MARKER, template

ROOT = Path(__file__).resolve().parents[2]


def test_hook_template_copies_identical_accepted() -> None:
    packaged = (ROOT / "forest_files" / "doors" / "hooks" / "template.sh").read_bytes()
    public = (ROOT / "hooks" / "forest-hook.sh").read_bytes()
    assert packaged == public, (
        "hooks/forest-hook.sh and forest_files/doors/hooks/template.sh differ; re-sync with "
        "cp forest_files/doors/hooks/template.sh hooks/forest-hook.sh"
    )


def test_hook_template_records_interpreter_and_marker_accepted() -> None:
    text = template("/opt/py/bin/python3")
    assert "FOREST_PYTHON=/opt/py/bin/python3\n" in text
    assert MARKER in text
    assert "@PYTHON@" not in text


def test_hook_template_runs_only_installed_code_accepted() -> None:
    """``-E`` (no PYTHON* variable) and ``-P`` (not the repository's directory on the
    path); neither ``-s`` nor ``-I``, which would lose a ``pip install --user``."""
    text = template("/opt/py/bin/python3")
    [line] = [line for line in text.splitlines() if line.startswith("exec ")]
    assert line == 'exec "$FOREST_PYTHON" -E -P -c \''


def test_hook_interpreter_path_with_quote_and_command_refused(tmp_path: Path) -> None:
    """An interpreter under a path holding ``'`` and ``$(…)`` (a venv in "Bob's
    projects"): the installed hook runs it as one word, runs nothing the path spells,
    and still refuses drift."""
    import os
    import shutil
    import subprocess
    import sys

    from forest_files.doors import hooks as githooks
    from tests.helpers.custody import init_and_adopt
    from tests.helpers.git import commit_all, git, git_env, make_repo, write

    venv = tmp_path / "Bob's $(touch PWNED) projects" / "venv"
    (venv / "bin").mkdir(parents=True)
    cfg = (Path(sys.prefix) / "pyvenv.cfg").read_text()
    (venv / "pyvenv.cfg").write_text(cfg)
    os.symlink(Path(sys.prefix) / "lib", venv / "lib")  # the same installed packages
    base = Path(sys.base_prefix) / "bin" / Path(sys.executable).name
    os.symlink(
        base if base.exists() else shutil.which("python3") or sys.executable,
        venv / "bin" / "python",
    )
    root = make_repo(tmp_path)
    write(root, "canon.md", "# Canon\n\nThe rule.\n")
    init_and_adopt(root, ["canon.md"])
    commit_all(root, "adopt")
    githooks.install(root, python=str(venv / "bin" / "python"))
    write(root, "canon.md", "# Canon\n\nAnother rule.\n")
    git(root, "add", "canon.md")
    proc = subprocess.run(
        ["git", "commit", "-q", "-m", "drift"],
        cwd=root,
        env={**os.environ, **git_env()},
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 1, proc.stderr
    assert "drifted" in proc.stderr and "Syntax error" not in proc.stderr, proc.stderr
    assert not (root / "PWNED").exists() and not (tmp_path / "PWNED").exists()

"""Hostile: a bound section moved (``git mv``) to a place no selector can name.

A long new path and a long heading path can be longer together than a selector may be
(``MAX_SELECTOR_CHARS``): the moved search named that place all the same, and the
hook's route for the commit refused its own ``moved_to`` (``selector_paths``) with
"the selector is longer than 4096 characters" and the selector examples, as if the
user had typed it. A path with a control character is no selector either: the
finding said only "the bound file is gone". Now the finding names no place it cannot
rebind to, says where the text stands and why, and its printed routes work pasted.
A path with an invisible character is a selector: its rebind route works pasted.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from forest_files.doors.hooks.run import main as hook
from forest_files.kernel.bounds import MAX_SELECTOR_CHARS
from forest_files.kernel.shellword import BASH_ONLY
from tests.helpers.cli import forest
from tests.helpers.git import commit_all, git, git_env, make_repo, write

HEAD = "H" + "x" * (MAX_SELECTOR_CHARS - 60)  # a.md#HEAD fits; under a long path it does not
LONG_DIR = "d" * 60 + "/" + "e" * 60


def _bound(tmp: Path, heading: str) -> Path:
    root = make_repo(tmp / "repo")
    write(root, "a.md", f"# {heading}\n\nbody\n\n# Other\n\nmore\n")
    commit_all(root, "docs")
    assert forest(root, "init").exit_code == 0
    done = forest(root, "adopt", f"a.md#{heading}", "--words", "as written")
    assert done.exit_code == 0, done.stdout + done.stderr
    commit_all(root, "custody")
    return root


def _hook(root: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    monkeypatch.chdir(root)
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = hook(["pre-commit"])
    return code, err.getvalue()


def _paste(root: Path, tmp: Path, command: str) -> None:
    bin_dir = tmp / "bin"
    bin_dir.mkdir(exist_ok=True)
    script = bin_dir / "forest"
    python = shlex.quote(sys.executable)
    script.write_text(f'#!/bin/sh\nexec {python} -m forest_files.doors.entry "$@"\n')
    script.chmod(0o755)
    env = {**os.environ, **git_env(), "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(
        ["bash", "-c", command], cwd=root, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr


def _route(err: str, label: str) -> str:
    (command,) = re.findall(rf"^  (?:or )?{label}: (.*)$", err, re.MULTILINE)
    return command.removesuffix(f"  ({BASH_ONLY})")  # said after a $'\\ooo' word


def test_hook_section_moved_past_selector_length_says_why_pasted_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _bound(tmp_path, HEAD)
    (root / LONG_DIR).mkdir(parents=True)
    git(root, "mv", "a.md", f"{LONG_DIR}/b.md")
    code, err = _hook(root, monkeypatch)
    assert code == 1
    assert "the selector is longer than" not in err and "valid selectors" not in err, err[:400]
    size = len(f"{LONG_DIR}/b.md#{HEAD}")
    why = f"where no selector can name it (its selector would be {size} characters, longer than"
    assert f"stands in {LONG_DIR}/b.md (line 1), {why}" in err, err[-300:]
    assert "forest rebind" not in err
    staged = forest(root, "check", "--staged")
    assert staged.exit_code == 1 and "valid selectors" not in staged.stdout + staged.stderr
    assert why in staged.stdout
    _paste(root, tmp_path, _route(err, "bring the file back"))
    assert _hook(root, monkeypatch)[0] == 0  # the copy at the long path is unbound text


@pytest.mark.parametrize("name", ["x\x01.md", "tab\there.md"], ids=["soh", "tab"])
def test_hook_section_moved_to_a_control_character_path_says_why_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    root = _bound(tmp_path, "Top")
    git(root, "mv", "a.md", name)
    code, err = _hook(root, monkeypatch)
    assert code == 1
    shown = name.replace("\x01", "\\x01").replace("\t", "\\x09")
    assert f"stands in {shown} (line 1), where no selector can name it (the path" in err, err
    assert "forest rebind" not in err
    _paste(root, tmp_path, _route(err, "bring the file back"))
    assert _hook(root, monkeypatch)[0] == 0


def test_hook_section_moved_to_an_invisible_character_path_rebind_pasted_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _bound(tmp_path, "Top")
    git(root, "mv", "a.md", "z\u200bb.md")
    code, err = _hook(root, monkeypatch)
    assert code == 1 and "its unchanged text stands at z<U+200B>b.md#Top" in err, err
    _paste(root, tmp_path, _route(err, "move the binding"))
    assert _hook(root, monkeypatch) == (0, "")

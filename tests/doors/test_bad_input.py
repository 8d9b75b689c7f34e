"""Bad input at every registered command: a broken ``forest.toml`` of any shape, no
repository, a ledger of format 1 or of a newer format. Each is one ``forest:`` line
saying what to do (a broken forest.toml: exit 2), never a traceback, and nothing is
written: the directory is byte-for-byte what it was. The commands are read from the
typer tree, so a command registered later is checked without a line here."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer.main

from forest_files.doors.cli import app
from forest_files.doors.cli.command import REPORTS_CONFIG
from tests.helpers.acts import raw_line
from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, git_env, make_repo, write
from tests.helpers.template import built_once, copy_repo

SKIP = {("tour",), ("completion",)}  # read no repository (tour builds its own)


def _leaves(group: Any, prefix: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    for name, cmd in sorted(group.commands.items()):
        if hasattr(cmd, "commands"):
            yield from _leaves(cmd, (*prefix, name))
        elif (*prefix, name) not in SKIP:
            yield (*prefix, name), cmd


TARGET_NEEDED = {("adopt",), ("supersede",)}


def _argv(path: tuple[str, ...], cmd: Any) -> list[str]:
    """``path`` with a value for each required argument and option, so parsing passes."""
    argv = list(path)
    if path in TARGET_NEEDED:  # targets optional only beside a bulk flag (--unbound, --staged)
        argv.append("a.md")
    for param in cmd.params:
        if not param.required:
            continue
        value = "some plain words" if param.name == "words" else "a.md"
        if param.param_type_name == "argument":
            argv.append(value)
        else:
            argv += [param.opts[0], "2024-01-01" if "as_of" in param.name else value]
    return argv


COMMANDS = [_argv(path, cmd) for path, cmd in _leaves(typer.main.get_command(app))]
IDS = [" ".join(c[: 2 if c[0] in ("hooks", "proposal", "watch") else 1]) for c in COMMANDS]

SHAPES: dict[str, bytes | str] = {
    "nested-arrays": b"x = " + b"[" * 5000 + b"]" * 5000 + b"\n",
    "nested-inline-tables": b"x = " + b"{a=" * 3000 + b"1" + b"}" * 3000 + b"\n",
    "nested-table-headers": b"[" + b".".join([b"t"] * 2000) + b"]\n",
    "wrong-types": b"project = 5\npolicy = 'x'\nauthority = [1]\n",
    "wrong-types-inside": b"[project]\nid = 5\n[policy]\nmax_body_bytes = 'x'\nsigned = 3\n",
    "binary": bytes(range(256)) * 4,
    "huge": b"# " + b"x" * (2 * 1024 * 1024) + b"\n",
    "directory": "directory",
    "dangling-link": "dangling-link",
    "fifo": "fifo",
}


def _snapshot(root: Path) -> dict[str, str]:
    """Every path under ``root`` (the git directory included) with its bytes' hash."""
    seen: dict[str, str] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            rel = path.relative_to(root).as_posix()
            if path.is_symlink() or not path.is_file():
                seen[rel] = "-"
            else:
                seen[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return seen


def _break(root: Path, shape: str) -> None:
    config = root / "forest.toml"
    config.unlink()
    body = SHAPES[shape]
    if body == "directory":
        config.mkdir()
        (config / "forest.toml").write_text("[project]\n", encoding="utf-8")
    elif body == "dangling-link":
        config.symlink_to(root / "nowhere.toml")
    elif body == "fifo":
        os.mkfifo(config)
    else:
        assert isinstance(body, bytes)
        config.write_bytes(body)


def _build(tmp: Path) -> Path:
    root = make_repo(tmp)
    write(root, "a.md", "# A\n\ntext\n\n# B\n\nmore\n")
    commit_all(root, "a")
    ok(root, "init")
    ok(root, "adopt", "a.md", "--words", "the first words", "--as", "Ada <ada@example.org>")
    commit_all(root, "custody")
    return root


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_once(tmp_path_factory, _build)


def _one_line_refusal(stderr: str) -> str:
    assert "Traceback" not in stderr and "internal error" not in stderr, stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("forest: "), stderr
    return lines[0]


@pytest.mark.parametrize("argv", COMMANDS, ids=IDS)
def test_bad_input_nested_config_every_command_refused(
    template: Path, tmp_path: Path, argv: list[str]
) -> None:
    if argv[0] == "ci":
        pytest.skip("ci judges the committed forest.toml: tests/gate/test_ci_config_fault.py")
    root = copy_repo(template, tmp_path / "r")
    _break(root, "nested-arrays")
    before = _snapshot(root)
    result = forest(root, *argv)
    if " ".join(argv[:2]) in REPORTS_CONFIG:  # watch status/stop: report the watcher anyway
        assert result.exit_code in (0, 1) and "Traceback" not in result.stderr, result.stderr
        assert _snapshot(root) == before
        return
    assert result.exit_code == 2, (argv, result.stdout, result.stderr)
    line = _one_line_refusal(result.stderr)
    assert "forest.toml" in line and "nested too deeply" in line
    assert _snapshot(root) == before


SOME = [["verify"], ["adopt", "a.md", "--words", "w w"], ["hooks", "status"]]


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("argv", SOME, ids=["verify", "adopt", "hooks status"])
def test_bad_input_config_shape_refused(
    template: Path, tmp_path: Path, shape: str, argv: list[str]
) -> None:
    root = copy_repo(template, tmp_path / "r")
    _break(root, shape)
    before = _snapshot(root)
    result = forest(root, *argv)
    assert result.exit_code == 2, (shape, result.stdout, result.stderr)
    assert "forest.toml" in _one_line_refusal(result.stderr)
    assert _snapshot(root) == before


@pytest.mark.parametrize("shape", ["nested-inline-tables", "directory", "wrong-types"])
def test_bad_input_config_light_check_refused(template: Path, tmp_path: Path, shape: str) -> None:
    """The console entry's light path (``forest check``, no typer) refuses the same way;
    its clock probe (.git/forest/cache/.verdict-stamp, custody/verdict.py) is the one
    file it touches before reading forest.toml."""
    root = copy_repo(template, tmp_path / "r")
    _break(root, shape)
    before = _snapshot(root)
    done = subprocess.run(
        [sys.executable, "-P", "-m", "forest_files", "check"],
        cwd=root,
        env={**os.environ, **git_env()},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert "forest.toml" in _one_line_refusal(done.stderr)
    assert _work_tree(_snapshot(root)) == _work_tree(before)


@pytest.mark.parametrize("argv", COMMANDS, ids=IDS)
def test_bad_input_outside_repository_refused(tmp_path: Path, argv: list[str]) -> None:
    outside = tmp_path / "plain"
    outside.mkdir()
    result = forest(outside, *argv)
    assert result.exit_code in (1, 2), (argv, result.stdout, result.stderr)
    _one_line_refusal(result.stderr)
    assert list(outside.iterdir()) == []


def _ledger_of_format(root: Path, version: int) -> None:
    """The segment's first act rewritten with ledger format ``version`` (ids kept true)."""
    segment = next((root / ".forest" / "ledger" / "segments").iterdir())
    lines = segment.read_bytes().splitlines()
    act = json.loads(lines[0])
    act["v"] = version
    data = b"\n".join([raw_line(act), *lines[1:]]) + b"\n"
    segment.unlink()  # a segment is named by the SHA-256 of its bytes
    (segment.parent / f"{hashlib.sha256(data).hexdigest()}.jsonl").write_bytes(data)
    commit_all(root, f"format {version}")


@pytest.mark.parametrize("version", [1, 4])
@pytest.mark.parametrize("argv", COMMANDS, ids=IDS)
def test_bad_input_ledger_format_refused(
    template: Path, tmp_path: Path, argv: list[str], version: int
) -> None:
    """What to do next, no traceback; a refusal writes nothing in the work tree (the
    git directory's local audit log records it, as it records any refusal)."""
    root = copy_repo(template, tmp_path / "r")
    _ledger_of_format(root, version)
    before = _work_tree(_snapshot(root))
    result = forest(root, *argv)
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    if result.exit_code != 0:
        assert result.stderr.strip().splitlines()[-1].startswith("forest: "), result.stderr
    if result.exit_code == 3:
        said = result.stdout + result.stderr
        named = "format 1" if version == 1 else "upgrade forest-files"
        assert named in said or "bad-version" in said, said
    if result.exit_code != 0:  # a refusal writes nothing (hooks install does its job)
        assert _work_tree(_snapshot(root)) == before


def _work_tree(seen: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in seen.items() if not k.startswith(".git/forest")}

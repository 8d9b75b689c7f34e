"""A lone surrogate at every door of a repository: a file name that is not UTF-8, a CLI
option (decoded from argv with surrogateescape), a hand-written ledger line with an
escaped ``\\ud800``, forest.toml. Each is one ``forest:`` line saying the value is not
valid Unicode text (or not UTF-8) and how to fix it, the exit code of the one error
boundary, and the ledger, the index and every file byte-identical.

The store and codec layers are in tests/store/test_store_lone_surrogate.py.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from forest_files.custody.config import ConfigBroken, parse_config_text
from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.state import local_state
from tests.helpers.template import copied_from

DOC = "# Title\n\n## Keep\n\nbody text\n"
NOT_UTF8_NAME = os.fsdecode(b"b\xff.md")  # what git's bytes decode to: "b\udcff.md"
BAD = "\udcff"  # a non-UTF-8 byte on a command line, as Python's argv holds it


def _build(tmp: Path) -> Path:
    root = make_repo(tmp)
    write(root, "a.md", DOC)
    (root / NOT_UTF8_NAME).write_text(DOC)
    commit_all(root, "docs")
    ok(root, "init")
    ok(root, "adopt", "a.md#Title/Keep", "--words", "the first words")
    commit_all(root, "custody")
    for segment in (root / ".forest").rglob("*.jsonl"):  # older than the racy window, so
        os.utime(segment, ns=(1_000_000_000_000_000_000,) * 2)  # the check's mark settles
    ok(root, "check")  # the index built and in step (it re-reads the aged segments once)
    return root


root = copied_from(_build, "r")


def _state(root: Path) -> dict[str, bytes]:
    """Every work-tree file (the ledger included) and the index, as bytes."""
    out = {}
    for dirpath, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d != ".git"]
        for name in files:
            path = Path(dirpath) / name
            out[os.fsencode(path.relative_to(root))] = path.read_bytes()
    out[b"woods.db"] = (local_state(root) / "woods.db").read_bytes()
    return {os.fsdecode(k): v for k, v in out.items()}


def _refused(root: Path, args: list[str], code: int, *needles: str) -> str:
    before = _state(root)
    result = forest(root, *args)
    assert result.exit_code == code, (args, result.stdout, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("forest: "), result.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    assert _state(root) == before, "a refused command changed the ledger, index or a file"
    return lines[0]


@pytest.mark.parametrize("target", [NOT_UTF8_NAME, NOT_UTF8_NAME + "#Title/Keep", "b*.md"])
def test_adopt_not_utf8_file_name_refused(root: Path, target: str) -> None:
    """Was an internal error (UnicodeEncodeError in the content id): the ledger records
    UTF-8 only, so the name is refused with the rename that fixes it."""
    _refused(root, ["adopt", target, "--words", "ok"], 1, "not valid UTF-8", "git mv")


@pytest.mark.parametrize(
    "args",
    [
        ["adopt", "a.md#Title/Keep", "--words", "adopt" + BAD],
        ["adopt", "a.md#Title/Keep", "--words", "adopt", "--as", "Ada" + BAD],
        ["retire", "a.md#Title/Keep", "--words", "gone" + BAD],
        ["retire", "a.md#Title/Keep", "--words", "gone", "--as", "Ada" + BAD],
        ["supersede", "a.md#Title/Keep", "--words", "new" + BAD],
        ["renormalise", "a.md#Title/Keep", "--normalise", "trailing-whitespace", "--as", BAD],
    ],
    ids=["adopt-words", "adopt-as", "retire-words", "retire-as", "supersede-words", "renorm-as"],
)
def test_cli_option_lone_surrogate_refused(root: Path, args: list[str]) -> None:
    if args[0] == "supersede":
        write(root, "a.md", DOC.replace("body text", "changed text"))
    _refused(root, args, 1, "is not valid Unicode text", "give it as UTF-8 text")


def test_git_identity_not_utf8_refused(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No --as: the signature is git's identity, whose name holds a Latin-1 byte."""
    monkeypatch.setenv("GIT_AUTHOR_NAME", os.fsdecode(b"Jos\xe9"))
    _refused(
        root, ["retire", "a.md#Title/Keep", "--words", "gone"], 1,
        "is not valid Unicode text", "set git's user.name and user.email as UTF-8", "--as",
    )  # fmt: skip


def test_ledger_line_escaped_lone_surrogate_refused(root: Path) -> None:
    """A committed, hand-written act whose meta holds ``\\ud800`` (the segment named by its
    hash, so only the line is at fault): a damaged ledger (exit 3) naming the field and
    the fix, never the text, and nothing rebuilt from it."""
    segments = root / ".forest" / "ledger" / "segments"
    line = next(segments.iterdir()).read_bytes()
    bad = line.replace(b'"meta":{"path"', b'"meta":{"note":"x\\ud800","path"', 1)
    assert bad != line
    (segments / f"{hashlib.sha256(bad).hexdigest()}.jsonl").write_bytes(bad)
    commit_all(root, "a hand-written act")
    for args in (["verify"], ["check"]):
        before = _state(root)
        result = forest(root, *args)
        assert result.exit_code == 3, (args, result.stderr)
        assert "'entry' field holds an escaped lone surrogate" in result.stdout + result.stderr
        assert "not valid Unicode text" in result.stdout + result.stderr
        assert "x\\ud800" not in result.stdout + result.stderr
        assert _state(root) == before


def test_config_not_utf8_byte_refused(root: Path) -> None:
    config = root / "forest.toml"
    config.write_bytes(config.read_bytes() + b"# note \xff\n")
    _refused(root, ["check"], 2, "not UTF-8", "save it as UTF-8")
    git(root, "add", "forest.toml")
    git(root, "commit", "-q", "--no-verify", "-m", "a forest.toml that is not UTF-8")
    _refused(root, ["check", "--rev", "HEAD"], 2, "not UTF-8", "save it as UTF-8")


def test_config_escaped_lone_surrogate_refused(root: Path) -> None:
    config = root / "forest.toml"
    config.write_text(config.read_text() + '\n[authority]\n"**" = ["Ada \\ud800"]\n')
    _refused(root, ["check"], 2, "not valid TOML", "fix that line")


def test_config_text_lone_surrogate_refused() -> None:
    """forest.toml text handed in as a str (a library caller) holding a lone surrogate."""
    with pytest.raises(ConfigBroken, match=r"not valid Unicode text .*save it as UTF-8"):
        parse_config_text('[project]\nid = "abc"\n# \ud800\n', "forest.toml")

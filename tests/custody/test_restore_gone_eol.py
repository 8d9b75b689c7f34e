"""``forest restore`` of a whole-file binding whose file is gone writes it with the line
ends ``git checkout`` would give it: git's ``core.autocrlf`` and ``core.eol`` read with
the ``text``, ``eol`` (and old ``crlf``) attributes, as git's convert.c decides. Each
case is judged against git itself: the same file deleted and checked out again."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.custody.test_restore import kinds, new_repo
from tests.helpers.cli import ok
from tests.helpers.git import commit_all, git, write

LF = b"line one\nline two\nline three\n"
CRLF = LF.replace(b"\n", b"\r\n")


@pytest.mark.parametrize(
    ("config", "attributes", "expected"),
    [
        ({"core.autocrlf": "true"}, "", CRLF),
        ({"core.autocrlf": "input"}, "", LF),
        ({"core.autocrlf": "false", "core.eol": "crlf"}, "", LF),
        ({"core.eol": "crlf"}, "* text=auto\n", CRLF),
        ({"core.eol": "crlf"}, "*.txt text\n", CRLF),
        ({"core.autocrlf": "true"}, "*.txt -text\n", LF),
        ({"core.autocrlf": "true"}, "*.txt eol=lf\n", LF),
        ({"core.autocrlf": "true"}, "*.txt text=auto\n", CRLF),
        ({"core.autocrlf": "input"}, "*.txt eol=crlf\n", CRLF),
        ({"core.autocrlf": "input"}, "*.txt text=auto eol=crlf\n", CRLF),
        ({"core.autocrlf": "true", "core.eol": "lf"}, "*.txt text\n", CRLF),
        ({"core.autocrlf": "false", "core.eol": "crlf"}, "*.txt crlf\n", CRLF),
        ({"core.autocrlf": "true"}, "*.txt -crlf\n", LF),
        ({"core.autocrlf": "true"}, "*.txt crlf=input\n", LF),
        ({"core.autocrlf": "yes"}, "", CRLF),
    ],
    ids=[
        "autocrlf-true",
        "autocrlf-input",
        "autocrlf-false-eol-crlf",
        "eol-crlf-text-auto",
        "eol-crlf-text",
        "autocrlf-true-not-text",
        "autocrlf-true-eol-lf",
        "autocrlf-true-text-auto",
        "autocrlf-input-eol-crlf",
        "autocrlf-input-auto-eol-crlf",
        "autocrlf-beats-core-eol",
        "old-crlf-attribute",
        "old-crlf-unset",
        "old-crlf-input",
        "autocrlf-yes",
    ],
)
def test_restore_whole_file_gone_line_ends_as_git_checkout_recovers(
    tmp_path: Path, config: dict[str, str], attributes: str, expected: bytes
) -> None:
    repo = new_repo(tmp_path, {"whole.txt": LF})
    if attributes:
        write(repo, ".gitattributes", attributes)
        commit_all(repo, "attributes")
    ok(repo, "adopt", "whole.txt", "--words", "the whole file")
    commit_all(repo, "adopt")
    for key, value in config.items():
        git(repo, "config", key, value)
    path = repo / "whole.txt"
    path.unlink()
    git(repo, "checkout", "--", "whole.txt")
    assert path.read_bytes() == expected  # git itself, as the case says
    path.unlink()
    ok(repo, "restore", "whole.txt")
    assert path.read_bytes() == expected
    assert kinds(repo) == ["clean"]

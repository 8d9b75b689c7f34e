"""``forest restore`` of a whole-file binding writes ground over the whole file (its
file the reader refuses, or gone) in the file's own style where that is unambiguous:
its BOM kept, CRLF line ends where every line end of it was CRLF (a file gone: where
``git checkout`` would write them, test_restore_gone_eol.py), else ground as custody
holds it (LF, no BOM).
Either way the restored file checks clean."""

from __future__ import annotations

from pathlib import Path

import pytest

from forest_files.custody.restore_splice import in_file_style
from tests.custody.test_restore import captures, kinds, new_repo
from tests.helpers.cli import ok
from tests.helpers.git import commit_all, write

CRLF = b"line one\r\nline two\r\nline three\r\n"
BOM = b"\xef\xbb\xbf"


def _adopted(tmp_path: Path, raw: bytes, attributes: str = "") -> Path:
    repo = new_repo(tmp_path, {"whole.txt": raw})
    if attributes:
        write(repo, ".gitattributes", attributes)
        commit_all(repo, "attributes")
    ok(repo, "adopt", "whole.txt", "--words", "the whole file")
    commit_all(repo, "adopt")
    return repo


@pytest.mark.parametrize(
    ("adopted", "broken"),
    [
        (CRLF, CRLF.replace(b"line two\r\n", b"line\rtwo\r\n")),  # a lone CR
        (BOM + CRLF, BOM + CRLF.replace(b"two", b"t\x00wo")),  # a NUL byte
        (BOM + CRLF.replace(b"\r\n", b"\n"), BOM + b"line \xff one\nline two\n"),
    ],
    ids=["crlf-lone-cr", "bom-crlf-nul", "bom-lf-not-utf8"],
)
def test_restore_whole_file_not_text_keeps_its_style_recovers(
    tmp_path: Path, adopted: bytes, broken: bytes
) -> None:
    repo = _adopted(tmp_path, adopted)
    (repo / "whole.txt").write_bytes(broken)
    ok(repo, "restore", "whole.txt")
    assert (repo / "whole.txt").read_bytes() == adopted
    (kept,) = captures(repo)
    assert kept.read_bytes().endswith(broken)
    assert kinds(repo) == ["clean"]


def test_restore_whole_file_not_text_of_mixed_line_ends_writes_ground_accepted(
    tmp_path: Path,
) -> None:
    """LF and CRLF both: no convention to keep, ground is written as custody holds it."""
    repo = _adopted(tmp_path, b"line one\r\nline two\nline three\r\n")
    (repo / "whole.txt").write_bytes(b"line one\r\nline\rtwo\nline three\r\n")
    ok(repo, "restore", "whole.txt")
    assert (repo / "whole.txt").read_bytes() == b"line one\nline two\nline three\n"
    assert kinds(repo) == ["clean"]


@pytest.mark.parametrize(
    ("attributes", "expected"),
    [
        ("", CRLF.replace(b"\r\n", b"\n")),
        ("*.txt eol=crlf\n", CRLF),
        ("*.txt -text eol=crlf\n", CRLF.replace(b"\r\n", b"\n")),
    ],
    ids=["no-attribute", "eol-crlf", "not-text"],
)
def test_restore_whole_file_gone_follows_eol_attribute_recovers(
    tmp_path: Path, attributes: str, expected: bytes
) -> None:
    repo = _adopted(tmp_path, CRLF, attributes)
    (repo / "whole.txt").unlink()
    ok(repo, "restore", "whole.txt")
    assert (repo / "whole.txt").read_bytes() == expected
    assert kinds(repo) == ["clean"]


def test_restore_whole_file_drifted_crlf_and_bom_kept_recovers(tmp_path: Path) -> None:
    repo = _adopted(tmp_path, BOM + CRLF)
    (repo / "whole.txt").write_bytes(BOM + CRLF.replace(b"two", b"2"))
    ok(repo, "restore", "whole.txt")
    assert (repo / "whole.txt").read_bytes() == BOM + CRLF
    assert kinds(repo) == ["clean"]


@pytest.mark.parametrize(
    ("like", "expected"),
    [
        (b"", b"a\nb\n"),
        (b"x\r\ny", b"a\r\nb\r\n"),
        (b"x\r\ny\n", b"a\nb\n"),
        (b"x\ry", b"a\nb\n"),  # no line end at all: nothing says CRLF
        (BOM + b"x", BOM + b"a\nb\n"),
        (b"x" + BOM, b"a\nb\n"),  # a BOM not at the start is none
    ],
)
def test_in_file_style_only_unambiguous_style_kept(like: bytes, expected: bytes) -> None:
    assert in_file_style("a\nb\n", like) == expected


@pytest.mark.parametrize(
    ("attributes", "expected"),
    [("", CRLF.replace(b"\r\n", b"\n")), ("*.txt eol=crlf\n", CRLF)],
    ids=["no-attribute", "eol-crlf"],
)
def test_rewrite_of_a_gone_file_follows_eol_attribute_as_restore_does_accepted(
    tmp_path: Path, attributes: str, expected: bytes
) -> None:
    """``plan_rewrite`` (a proposal's adoption, the MCP door) of a whole file that is gone
    writes it as restore does: CRLF where git's ``eol`` attribute says ``crlf`` (it wrote
    LF whatever the attribute said)."""
    from forest_files.custody.restore_rewrite import plan_rewrite

    repo = _adopted(tmp_path, CRLF, attributes)
    (repo / "whole.txt").unlink()
    text = CRLF.decode().replace("\r\n", "\n")
    plan = plan_rewrite(repo, "whole.txt", "whole.txt", (), text)
    assert plan is not None and plan.after == expected

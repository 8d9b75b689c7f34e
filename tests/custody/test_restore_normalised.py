"""``forest restore`` of a binding with declared normalisations: the ledger holds the
NORMALISED body, so the bytes a normalisation drops (trailing spaces, blank-line runs,
comments, docstrings, ``*`` bullets, ``_`` emphasis, reference links) are in no record.
A restore writes ground's lines only where the section's lines differ from ground under
the normalisations: a line that reads as ground's keeps its bytes, a line that reads as
nothing (a run of blank lines, the blank lines that end the section, a comment line, a
docstring) stays. A changed line comes back as ground holds it (normalised). Either way
the file checks clean."""

from __future__ import annotations

from pathlib import Path

import pytest

from forest_files.custody.restore_splice import splice
from tests.custody.test_restore import kinds
from tests.helpers.cli import ok
from tests.helpers.git import commit_all, make_repo, write

DOC = "# Doc\n\n## Rules\n\nFirst rule.  \nSecond rule.\n\n\nThird rule.\t\n  \n\n## Else\n\nx\n"
BOTH = '["trailing-whitespace", "blank-lines"]'


def _adopted(tmp_path: Path, normalise: str, doc: str | bytes = DOC) -> Path:
    repo = make_repo(tmp_path)
    ok(repo, "init")
    toml = repo / "forest.toml"
    rule = f'\n[bind."docs/*.md"]\nnormalise = {normalise}\n'
    toml.write_text(toml.read_text(encoding="utf-8") + rule, encoding="utf-8")
    write(repo, "docs/a.md", doc)
    commit_all(repo, "init")
    ok(repo, "adopt", "docs/a.md#Rules", "--words", "the rules as agreed")
    commit_all(repo, "adopt")
    return repo


@pytest.mark.parametrize(
    "normalise",
    [BOTH, '["trailing-whitespace"]', '["blank-lines"]'],
    ids=["both", "trailing-whitespace", "blank-lines"],
)
def test_restore_normalised_keeps_untouched_lines_bytes_recovers(
    tmp_path: Path, normalise: str
) -> None:
    repo = _adopted(tmp_path, normalise)
    path = repo / "docs" / "a.md"
    path.write_text(DOC.replace("Second rule.", "Second RULE."), encoding="utf-8")
    assert kinds(repo) == ["drifted"]
    ok(repo, "restore", "docs/a.md#Doc/Rules")
    assert path.read_text(encoding="utf-8") == DOC
    assert kinds(repo) == ["clean"]


def test_restore_normalised_crlf_keeps_untouched_lines_bytes_recovers(tmp_path: Path) -> None:
    raw = DOC.replace("\n", "\r\n").encode()
    repo = _adopted(tmp_path, BOTH, raw)
    path = repo / "docs" / "a.md"
    path.write_bytes(raw.replace(b"Second rule.", b"Second RULE."))
    ok(repo, "restore", "docs/a.md#Doc/Rules")
    assert path.read_bytes() == raw
    assert kinds(repo) == ["clean"]


def test_restore_normalised_changed_line_comes_back_as_ground_holds_it_recovers(
    tmp_path: Path,
) -> None:
    """The trailing tab of a line the person changed is in no record: the line comes
    back as ground holds it; the lines around it keep their bytes."""
    repo = _adopted(tmp_path, BOTH)
    path = repo / "docs" / "a.md"
    path.write_text(DOC.replace("Third rule.\t", "Third RULE. "), encoding="utf-8")
    ok(repo, "restore", "docs/a.md#Doc/Rules")
    assert path.read_text(encoding="utf-8") == DOC.replace("Third rule.\t", "Third rule.")
    assert kinds(repo) == ["clean"]


def test_restore_normalised_removed_and_added_lines_recovers() -> None:
    """A line the person removed comes back, one they added goes; the blank-line runs
    and trailing spaces of the lines around them stay as they are."""
    ground = "## Rules\n\nFirst rule.\nSecond rule.\n\nThird rule.\n"
    now = "## Rules\n\n\nFirst rule.  \nAdded.\n\n\nThird rule.\t\n\n\n## Else\n"
    items = ("normalise:blank-lines@1", "normalise:trailing-whitespace@1")
    new, _old = splice(now.encode(), "a.md#Rules", items, ground, "a.md")
    assert new.decode() == (
        "## Rules\n\n\nFirst rule.  \nSecond rule.\n\n\nThird rule.\t\n\n\n## Else\n"
    )


PY = (
    "def f(a):\n"
    '    """Add one.\n\n    The offset is agreed.\n    """\n'
    "    # why we add one\n"
    "    b = a + 1  # the offset\n"
    "    return b\n\n\n"
    "def g():\n    return 0\n"
)


@pytest.mark.parametrize("normalise", ["py-comments", "py-docstrings"])
def test_restore_python_normalised_keeps_comments_and_docstring_recovers(
    tmp_path: Path, normalise: str
) -> None:
    """Under ``py-comments`` or ``py-docstrings`` ground holds no comment (no docstring):
    a restore of one drifted line removed every comment line, the comment after a
    kept statement and the whole docstring, lines nobody changed. Only the drifted
    line is written now; the rest of the function and of the file keep their bytes."""
    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(repo, "m.py", PY)
    commit_all(repo, "init")
    ok(repo, "adopt", "m.py::f", "--normalise", normalise, "--words", "f as agreed")
    commit_all(repo, "adopt")
    path = repo / "m.py"
    outside = PY.replace("return 0", "return 1")
    path.write_text(outside.replace("return b\n", "return b * 2\n"), encoding="utf-8")
    assert kinds(repo) == ["drifted"]
    ok(repo, "restore", "m.py::f")
    assert path.read_text(encoding="utf-8") == outside
    assert kinds(repo) == ["clean"]


MD = (
    "# A\n\n## R\n\n* one *item*\n* two __bold__\n+ three [link][r]\n\n"
    "See [here](http://x).\n\n## E\n\ne\n\n[r]: http://r\n"
)


@pytest.mark.parametrize(
    "normalise",
    [
        '["list-markers"]',
        '["emphasis"]',
        '["link-style"]',
        '["link-style", "emphasis", "list-markers", "trailing-whitespace", "blank-lines"]',
    ],
    ids=["list-markers", "emphasis", "link-style", "all"],
)
def test_restore_markdown_normalised_keeps_unchanged_lines_bytes_recovers(
    tmp_path: Path, normalise: str
) -> None:
    """Under a Markdown normalisation a restore wrote every line that differs from
    ground's normalised text as ground holds it: the ``*``/``+`` bullets, ``__bold__``
    and the reference link of lines nobody changed came back ``-``, ``**`` and inline.
    Only the drifted line is written now."""
    repo = make_repo(tmp_path)
    ok(repo, "init")
    toml = repo / "forest.toml"
    rule = f'\n[bind."f.md"]\nnormalise = {normalise}\n'
    toml.write_text(toml.read_text(encoding="utf-8") + rule, encoding="utf-8")
    write(repo, "f.md", MD)
    commit_all(repo, "init")
    ok(repo, "adopt", "f.md#A/R", "--words", "the rules as agreed")
    commit_all(repo, "adopt")
    path = repo / "f.md"
    outside = MD.replace("\ne\n", "\nee\n")
    path.write_text(outside.replace("See [here]", "SEE [here]"), encoding="utf-8")
    assert kinds(repo) == ["drifted"]
    ok(repo, "restore", "f.md#A/R")
    assert path.read_text(encoding="utf-8") == outside
    assert kinds(repo) == ["clean"]


def test_restore_normalised_drifted_line_comes_back_as_ground_holds_it_recovers() -> None:
    """The ledger holds the normalised body only: a drifted line comes back as ground
    holds it (its comment, its ``*`` bullet are in no record); the lines around it,
    their comments and bullets, keep their bytes."""
    ground = "def f(a):\n    b = a + 1\n    return b\n"
    now = "def f(a):\n    # why\n    b = a + 2  # the offset\n    return b  # done\n"
    new, _old = splice(now.encode(), "m.py::f", ("normalise:py-comments@1",), ground, "m.py")
    assert new.decode() == "def f(a):\n    # why\n    b = a + 1\n    return b  # done\n"
    ground = "## R\n\n- one\n- two\n\n"
    now = "## R\n\n* one\n* TWO\n\n## E\n"
    items = ("normalise:list-markers@1",)
    new, _old = splice(now.encode(), "a.md#R", items, ground, "a.md")
    assert new.decode() == "## R\n\n* one\n- two\n\n## E\n"

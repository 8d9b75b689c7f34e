"""``forest restore`` of a binding with declared normalisations (``trailing-whitespace``,
``blank-lines``): the ledger holds the NORMALISED body, so the bytes a normalisation
drops (trailing spaces, blank-line runs) are in no record. A restore writes ground's
lines only where the section's lines differ from ground under the normalisations; a
line that reads as ground's (its trailing spaces, a run of blank lines, the blank
lines that end the section) is kept byte for byte. A changed line comes back as ground
holds it (its own trailing spaces are nowhere recorded). Either way the file checks
clean."""

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

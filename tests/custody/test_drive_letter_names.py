"""A letter and a colon (``Q:A.md``) is a plain relative name git tracks; only a
Windows drive (``C:``, ``C:/``, ``C:\\``) is refused as absolute, and the rename
route printed for a name no selector can name never renames a file onto itself."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forest_files.kernel.repopath import check_repo_path
from forest_files.text.selector import parse_selector, validate_path
from forest_files.text.selector_errors import SelectorError
from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, make_repo, write

RELATIVE = ("Q:A.md", "a/C:/x.md", "1:x.md", "C:x.md", "CC:/x.md")
DRIVES = ("C:", "C:/x.md", "c:/", "Z:/a/b.md", "C:\\x.md")


def test_letter_colon_name_relative_only_drive_absolute_accepted() -> None:
    for name in RELATIVE:
        assert validate_path(name) == name
        assert parse_selector(name).path == name
        assert check_repo_path(name) == name
    for name in DRIVES:
        with pytest.raises(SelectorError):
            validate_path(name)
        with pytest.raises(ValueError, match="relative to the repository root"):
            check_repo_path(name)


def test_adopt_check_status_of_letter_colon_name_accepted(tmp_path: Path) -> None:
    """``Q:A.md`` adopted, checked and listed; ``C:/x.md`` beside it still refused."""
    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(repo, "C:/x.md", "# T\n\nwords\n")
    refused = forest(repo, "adopt", "C:/x.md", "--words", "first")
    assert refused.exit_code == 1, refused.output
    assert "is absolute" in refused.stderr
    assert not list((repo / ".forest" / "ledger" / "segments").rglob("*"))
    write(repo, "Q:A.md", "# T\n\nwords\n")
    ok(repo, "adopt", "Q:A.md", "--words", "first")
    commit_all(repo, "adopt")
    assert "0 not clean" in ok(repo, "check", "Q:A.md").stdout
    (found,) = json.loads(ok(repo, "check", "--json").stdout)["findings"]
    assert (found["kind"], found["path"]) == ("clean", "Q:A.md")
    assert "Q:A.md" in ok(repo, "status").stdout
    ok(repo, "verify")
    write(repo, "Q:A.md", "# T\n\nother words\n")
    assert forest(repo, "check", "Q:A.md").exit_code == 1


def test_required_drive_like_path_rename_route_never_onto_itself_refused(tmp_path: Path) -> None:
    """``C:/x.md`` required by [require]: no selector names it, and replacing
    backslashes changes nothing, so no ``git mv -- C:/x.md C:/x.md`` is printed."""
    repo = make_repo(tmp_path)
    write(repo, "C:/x.md", "# T\n\nwords\n")
    ok(repo, "init")
    with (repo / "forest.toml").open("a", encoding="utf-8") as fh:
        fh.write('\n[require]\n"**/*.md" = "file"\n')
    commit_all(repo, "init")
    result = forest(repo, "check")
    assert result.exit_code == 1, result.output
    assert "no selector can name it" in result.stdout
    assert "mv --" not in result.stdout
    (found,) = json.loads(forest(repo, "check", "--json").stdout)["findings"]
    assert [r["label"] for r in found["routes"]] == ["rename it first"]
    assert not any(r["argv"] for r in found["routes"]), found["routes"]

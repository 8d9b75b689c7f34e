"""The attributes a door asks of a path are asked in one ``git check-attr``: an
adoption's filter and rewriting attributes (``filter``, ``ident``,
``working-tree-encoding``) and a drift's rewriting ones. Counted with git's own trace
(``GIT_TRACE``) of a door run in this process; the answers are checked to be the ones
each attribute asked alone gives.

Test: forest_files/gitio/content.py, forest_files/custody/target_refusals.py
"""

from __future__ import annotations

from pathlib import Path

import pytest

from forest_files import gitio
from tests.helpers.cli import forest
from tests.helpers.custody import adopted_repo
from tests.helpers.git import commit_all, git, make_repo, write

RULES = (
    "*.enc working-tree-encoding=UTF-16\n"
    "id.md ident\n"
    "both.md ident working-tree-encoding=UTF-16\n"
    "lfs.bin filter=lfs\n"
    "off.md -ident\n"
)
PATHS = ["plain.md", "id.md", "x.enc", "both.md", "lfs.bin", "off.md", "not/there.md"]


def _attrs_asked(trace: Path) -> list[str]:
    said = trace.read_text(encoding="utf-8") if trace.exists() else ""
    return [line for line in said.splitlines() if "built-in: git check-attr" in line]


@pytest.fixture
def traced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    trace = tmp_path / "git-trace.txt"
    monkeypatch.setenv("GIT_TRACE", str(trace))
    return trace


def test_check_attrs_each_attribute_as_asked_alone_accepted(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    write(repo, ".gitattributes", RULES)
    commit_all(repo, "rules")
    attrs = ("filter", "ident", "working-tree-encoding")
    together = gitio.check_attrs(repo, attrs, PATHS)
    alone = {attr: gitio.check_attr(repo, attr, PATHS) for attr in attrs}
    assert together == {p: {a: alone[a][p] for a in attrs} for p in PATHS}
    assert together["both.md"] == {
        "filter": "unspecified",
        "ident": "set",
        "working-tree-encoding": "UTF-16",
    }
    assert together["off.md"]["ident"] == "unset"
    assert gitio.check_attrs(repo, attrs, []) == {}


def test_check_attrs_option_as_attribute_refused(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    with pytest.raises(gitio.UnknownRef, match="attribute '--all'"):
        gitio.check_attrs(repo, ("ident", "--all"), ["a.md"])


def test_drifted_check_asks_rewriting_attributes_once_accepted(
    tmp_path: Path, traced: Path
) -> None:
    """Before: one ``check-attr`` for ``ident`` and another for
    ``working-tree-encoding`` on every drifted or unresolved file's check."""
    repo = adopted_repo(tmp_path, "f.md", "# A\n\nwords\n", "f.md#A")
    write(repo, "f.md", "# A\n\nother words\n")
    traced.unlink(missing_ok=True)  # the set-up's own adoption asked too
    done = forest(repo, "check")
    assert done.exit_code == 1 and "f.md#A" in done.stdout, done.stdout
    assert len(_attrs_asked(traced)) == 1, _attrs_asked(traced)


def test_adoption_asks_filter_and_rewriting_attributes_once_accepted(
    tmp_path: Path, traced: Path
) -> None:
    """Before: three ``check-attr`` per adoption (``filter``, ``ident``,
    ``working-tree-encoding``)."""
    repo = make_repo(tmp_path)
    write(repo, "f.md", "# A\n\nwords\n")
    commit_all(repo, "base")
    assert forest(repo, "init").exit_code == 0
    traced.unlink(missing_ok=True)
    done = forest(repo, "adopt", "f.md#A", "--words", "the text")
    assert done.exit_code == 0, done.stderr
    assert len(_attrs_asked(traced)) == 1, _attrs_asked(traced)


@pytest.mark.parametrize(
    ("rule", "said"),
    [
        ("f.md ident working-tree-encoding=UTF-16\n", "(the ident attribute)"),
        ("f.md working-tree-encoding=UTF-16\n", "(the working-tree-encoding=UTF-16 attribute)"),
        ("f.md filter=lfs\n", "filter 'lfs'"),
    ],
    ids=["both", "encoding", "filter"],
)
def test_adoption_of_rewritten_file_refused(tmp_path: Path, rule: str, said: str) -> None:
    """Asked together, each attribute still refuses the adoption, the first rewriting
    one named where two are set."""
    repo = make_repo(tmp_path)
    write(repo, "f.md", "# A\n\nwords\n")
    commit_all(repo, "base")
    write(repo, ".gitattributes", rule)  # committed alone: git would re-encode f.md
    git(repo, "add", ".gitattributes")
    git(repo, "commit", "-q", "-m", "rules")
    assert forest(repo, "init").exit_code == 0
    done = forest(repo, "adopt", "f.md#A", "--words", "the text")
    assert done.exit_code == 1, done.stdout
    assert said in done.stderr, done.stderr

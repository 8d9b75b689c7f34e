"""``forest check`` after ``git mv OLD NEW`` of a bound folder: one route, ``forest rebind
OLD/ NEW/``, after the findings, that records every move when pasted; never offered
where pasting it would not record exactly the moves the findings name."""

from __future__ import annotations

from pathlib import Path

import pytest

from forest_files.check.finding import Finding
from forest_files.check.findings import CheckReport, Reported
from forest_files.check.folder_move import folder_routes
from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, git, make_repo, pasted, write

PAGE = "# Page {n}\n\nintro {n}\n\n## Part\n\npart {n}\n"
ROUTE = "or move the 4 bindings under docs/guide/ at once: "
COMMAND = "forest rebind docs/guide/ docs/manual/ && git add -- .forest/ledger"


def _site(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path)
    write(repo, "docs/guide/a.md", PAGE.format(n=1))
    write(repo, "docs/guide/deep/b.md", PAGE.format(n=2))
    write(repo, "docs/guide/c.md", PAGE.format(n=3))
    write(repo, "docs/other.md", PAGE.format(n=4))
    ok(repo, "init")
    ok(repo, "adopt", "docs/guide/a.md", "docs/guide/deep/b.md", "docs/guide/c.md", "--words", "w")
    ok(repo, "adopt", "docs/guide/a.md#Part", "docs/other.md", "--words", "w")
    commit_all(repo, "adopt")
    return repo


def _routes(repo: Path, *args: str) -> list[str]:
    result = forest(repo, "check", *args)
    assert result.exit_code == 1, result.output
    return [line for line in result.stdout.splitlines() if line.startswith("or move the ")]


@pytest.mark.slow
def test_check_folder_moved_whole_one_rebind_route_accepted(tmp_path: Path) -> None:
    repo = _site(tmp_path)
    git(repo, "mv", "docs/guide", "docs/manual")
    assert _routes(repo) == [ROUTE + COMMAND]
    done = pasted(repo, COMMAND)
    assert done.returncode == 0, done.stderr
    assert "4 bindings moved in one segment" in done.stdout
    assert forest(repo, "check").exit_code == 0
    assert forest(repo, "check", "--staged").exit_code == 0


def _moved(path: str, to: str, selector: str = "", moved_to: str = "") -> Reported:
    finding = Finding(
        kind="moved",
        path=path,
        selector=selector or path,
        binding=f"bind {selector or path}",
        ground="g",
        expected_hash="h",
        moved_to=moved_to or to,
    )
    return Reported(finding)


def test_folder_routes_every_binding_moved_with_folder_accepted() -> None:
    """Two files (one with a bound heading) moved from ``a/`` to ``b/x/``, one file moved
    from the top (no folder to name), another folder with one file moved."""
    report = CheckReport(
        "worktree",
        "working tree",
        items=(
            _moved("a/one.md", "b/x/one.md"),
            _moved("a/one.md", "", "a/one.md#T/H", "b/x/one.md#T/H"),
            _moved("a/deep/two.md", "b/x/deep/two.md"),
            _moved("top.md", "c/top.md"),
            _moved("d/only.md", "e/only.md"),
        ),
    )
    (route,) = folder_routes(report)
    assert route.line() == (
        "or move the 3 bindings under a/ at once: "
        "forest rebind a/ b/x/ && git add -- .forest/ledger"
    )


def _edited_on_the_way(repo: Path) -> None:
    git(repo, "mv", "docs/guide", "docs/manual")
    write(repo, "docs/manual/deep/b.md", PAGE.format(n=2) + "more\n")


def _one_left_behind(repo: Path) -> None:
    (repo / "docs/manual").mkdir()
    git(repo, "mv", "docs/guide/a.md", "docs/guide/c.md", "docs/manual/")


def _one_file_moved(repo: Path) -> None:
    git(repo, "rm", "-q", "docs/guide/deep/b.md")
    ok(repo, "retire", "docs/guide/deep/b.md", "--words", "gone")
    git(repo, "rm", "-q", "docs/guide/c.md")
    ok(repo, "retire", "docs/guide/c.md", "--words", "gone")
    (repo / "docs/manual").mkdir()
    git(repo, "mv", "docs/guide/a.md", "docs/manual/a.md")  # one file: its own route


def _moved_inside_as_well(repo: Path) -> None:
    git(repo, "mv", "docs/guide", "docs/manual")
    write(repo, "docs/manual/a.md", "# Page 1\n\nintro 1\n\n# Part\n\npart 1\n")


@pytest.mark.parametrize(
    "reorganise", [_edited_on_the_way, _one_left_behind, _one_file_moved, _moved_inside_as_well]
)
def test_check_folder_moved_in_part_route_refused(tmp_path: Path, reorganise: object) -> None:
    """A binding under the folder that did not move unchanged to the same place under
    the new folder: the directory rebind would refuse it or move it wrongly."""
    repo = _site(tmp_path)
    assert callable(reorganise)
    reorganise(repo)
    assert _routes(repo) == []


def test_check_folder_moved_narrowed_to_paths_route_refused(tmp_path: Path) -> None:
    """A check narrowed to some paths does not see every binding of the folder."""
    repo = _site(tmp_path)
    git(repo, "mv", "docs/guide", "docs/manual")
    assert _routes(repo, "docs/guide/a.md", "docs/guide/c.md") == []

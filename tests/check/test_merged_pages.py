"""Two bound pages merged into one (``cat a.md b.md > ab.md``): each whole-file binding
is ``moved`` to the heading section its unchanged text stands in, at every door, and
the rebind routes pasted leave them clean; the search looks only at the change's
files and at no section another binding holds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forest_files.check.staged import judge_staged
from tests.helpers.cli import findings, forest, ok
from tests.helpers.git import commit_all, git, make_repo, pasted, write
from tests.helpers.template import reused

WORDS = "The two pages as written"
A, B = "# A\n\nalpha words\n", "# B\n\nbeta words\n"


def _build(tmp_path: Path) -> Path:
    root = make_repo(tmp_path)
    ok(root, "init")
    write(root, "a.md", A)
    write(root, "b.md", B)
    commit_all(root, "init")
    ok(root, "adopt", "a.md", "b.md", "--words", WORDS)
    commit_all(root, "adopt")
    return root


@pytest.fixture
def pages(tmp_path: Path) -> Path:
    return reused((__name__, "pages"), tmp_path / "repo", _build)


def _merge(root: Path) -> None:
    write(root, "ab.md", A + B)
    git(root, "rm", "-q", "a.md", "b.md")
    git(root, "add", "ab.md")


def _moved(found: list[dict[str, object]]) -> dict[object, object]:
    return {f["selector"]: (f["kind"], f["moved_to"]) for f in found}


MOVED = {"a.md": ("moved", "ab.md#A"), "b.md": ("moved", "ab.md#B")}


@pytest.mark.slow  # the routes pasted into a real shell
def test_pages_merged_into_one_moved_routes_pasted_accepted(pages: Path) -> None:
    _merge(pages)
    found = findings(pages)
    assert _moved(found) == MOVED
    for f in found:
        (route,) = [r for r in f["routes"] if r["label"] == "move the binding"]
        done = pasted(pages, route["command"])
        assert done.returncode == 0, (route["command"], done.stderr)
    assert [f["kind"] for f in findings(pages)] == ["clean", "clean"]


def test_pages_merged_into_one_staged_and_hook_detected(pages: Path) -> None:
    _merge(pages)
    full = json.loads(forest(pages, "check", "--staged", "--json").stdout)["findings"]
    assert _moved(full) == MOVED  # the whole index judged
    hook = {
        r.finding.selector: (r.finding.kind, r.finding.moved_to) for r in judge_staged(pages).failed
    }
    assert hook == MOVED  # the hook's path: the staged change only


def test_pages_merged_into_a_new_file_committed_rev_and_ci_detected(pages: Path) -> None:
    """Judged in a commit, the change's files are its added files too: the commit's
    diff was asked for modified and deleted files only, so a page merged into a file
    the commit adds was no place at ``check --rev`` and ``forest ci``."""
    base = git(pages, "rev-parse", "HEAD")
    _merge(pages)
    git(pages, "commit", "-q", "--no-verify", "-m", "merged")
    for command in ("forest check --rev HEAD --json", f"forest ci --base {base} --format json"):
        ran = pasted(pages, command)
        found = json.loads(ran.stdout)["findings"]
        assert _moved(found) == MOVED, (command, ran.stdout)


def test_page_text_as_a_section_of_an_unchanged_file_not_moved_refused(tmp_path: Path) -> None:
    """The search reads the outline of the change's files only: a section holding a
    deleted page's text in a file the change leaves alone is no place it went."""
    root = make_repo(tmp_path)
    ok(root, "init")
    write(root, "a.md", A)
    write(root, "old.md", "# Old\n\n" + A)  # a.md's text, committed long ago
    commit_all(root, "init")
    ok(root, "adopt", "a.md", "--words", WORDS)
    commit_all(root, "adopt")
    git(root, "rm", "-q", "a.md")
    assert _moved(findings(root)) == {"a.md": ("missing", None)}


def test_page_merged_into_a_bound_section_not_moved_refused(pages: Path) -> None:
    """A section another binding holds is no place a merged page went: that one
    stays ``missing``, its partner is ``moved``."""
    _merge(pages)
    ok(pages, "adopt", "ab.md#A", "--words", WORDS)
    got = _moved(findings(pages))
    assert got["a.md"] == ("missing", None) and got["b.md"] == MOVED["b.md"]


def test_page_gone_outlines_only_the_change_files_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cost bound: a whole page gone makes the check outline the files of the
    change (here one untracked file), never every Markdown file of the tree."""
    from forest_files.text import extract
    from forest_files.text.markdown import Heading, outline
    from forest_files.text.normalise import LineIndex

    root = make_repo(tmp_path)
    ok(root, "init")
    write(root, "a.md", A)
    for n in range(5):
        write(root, f"other{n}.md", f"# Other {n}\n\nwords {n}\n")
    commit_all(root, "init")
    ok(root, "adopt", "a.md", "--words", WORDS)
    commit_all(root, "adopt")
    git(root, "rm", "-q", "a.md")
    write(root, "new.md", "# New\n\nnew words\n")  # untracked: part of the change
    outlined: list[str] = []

    def counted(text: str, lines: LineIndex) -> list[Heading]:
        outlined.append(text.partition("\n")[0])
        return outline(text, lines)  # the real one, called through

    monkeypatch.setattr(extract, "outline", counted)
    assert _moved(findings(root)) == {"a.md": ("missing", None)}
    assert outlined == ["# New"]

"""A real documentation site's pages (tests/data/mkdocs-material-docs: admonitions,
content tabs, footnotes, all headings bound), edited as a docs team edits them: a
section cut from one page and pasted into another, where the blank line before the
next heading (or its absence at the end of a page) is the only difference in its
text. The check offers the section's new place, and the printed routes, pasted,
keep custody."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from tests.helpers import cli as in_process
from tests.helpers.git import commit_all, git, make_repo
from tests.helpers.git import pasted as bash
from tests.helpers.template import copied_from

CORPUS = Path(__file__).resolve().parents[1] / "data" / "mkdocs-material-docs"
PAGES = ("admonitions.md", "content-tabs.md", "footnotes.md")
WORDS = "The section moved with the reorganised pages"
EMBEDDED = "docs/content-tabs.md#Content tabs/Usage/Embedded content"
ANCHORS = "docs/content-tabs.md#Content tabs/Configuration/Anchor links"


def _build(base: Path) -> Path:
    repo = make_repo(base)
    in_process.ok(repo, "init")
    (repo / "docs").mkdir()
    for page in PAGES:
        shutil.copyfile(CORPUS / page, repo / "docs" / page)
    commit_all(repo, "docs")
    in_process.ok(repo, "adopt", "docs/*.md", "--headings", "--yes", "--words", "reviewed")
    commit_all(repo, "custody")
    return repo


repo = copied_from(_build)


def _cut(repo: Path, page: str, heading: str, until: str | None) -> list[str]:
    """The lines of ``page`` from ``heading`` up to ``until`` (or the end), removed from
    it; a page the cut leaves ending in blank lines keeps one line end."""
    path = repo / "docs" / page
    lines = path.read_text(encoding="utf-8").split("\n")
    lo = lines.index(heading)
    hi = lines.index(until) if until is not None else len(lines)
    cut, rest = lines[lo:hi], lines[:lo] + lines[hi:]
    text = "\n".join(rest)
    path.write_text(text.rstrip("\n") + "\n" if until is None else text, encoding="utf-8")
    return cut


def _paste(repo: Path, page: str, section: list[str], before: str | None) -> None:
    """``section`` pasted into ``page`` before the line ``before`` (its text ending in
    one blank line there), or at the end of the page (no blank line after it)."""
    path = repo / "docs" / page
    lines = path.read_text(encoding="utf-8").split("\n")
    body = "\n".join(section).strip("\n")
    if before is None:
        text = "\n".join(lines).rstrip("\n") + "\n\n" + body + "\n"
    else:
        at = lines.index(before)
        text = "\n".join([*lines[:at], *body.split("\n"), "", *lines[at:]])
    path.write_text(text, encoding="utf-8")


def _finding(repo: Path, selector: str) -> dict[str, Any]:
    (found,) = [f for f in in_process.findings(repo) if f["selector"] == selector]
    return found


def _rebind(found: dict[str, Any]) -> str:
    (route,) = [r for r in found["routes"] if "forest rebind" in (r["command"] or "")]
    command: str = route["command"]
    return command.replace("'…'", f"'{WORDS}'")


def test_docs_last_section_moved_into_another_page_candidate_route_pasted_accepted(
    repo: Path,
) -> None:
    """The last section of content-tabs.md pasted into admonitions.md before its next
    heading gains the blank line that separates them: not its unchanged text, so no
    move; it was unresolved with no candidate and a route that was no command ("no
    heading stands where it stood"). Its new place is offered, and the rebind pasted
    keeps the chain there."""
    section = _cut(repo, "content-tabs.md", "### Embedded content", None)
    _paste(repo, "admonitions.md", section, "## Customization")
    found = _finding(repo, EMBEDDED)
    new = "docs/admonitions.md#Admonitions/Usage/Embedded content"
    assert found["kind"] == "unresolved" and found["candidates"] == [new], found
    command = _rebind(found)
    assert command.startswith(f"forest rebind '{EMBEDDED}' '{new}' --words "), command
    done = bash(repo, command)
    assert done.returncode == 0, done.stderr
    after = in_process.findings(repo)
    assert [f["kind"] for f in after if f["selector"] == new] == ["clean"], after
    assert all(f["kind"] in ("clean", "drifted") for f in after), after


def test_docs_section_moved_to_the_end_of_another_page_candidate_route_pasted_accepted(
    repo: Path,
) -> None:
    """A section from the middle of a page pasted at the end of another loses the
    blank line before the next heading: its new place is offered too."""
    section = _cut(repo, "content-tabs.md", "### Anchor links", "### Linked content tabs")
    _paste(repo, "footnotes.md", section, None)
    found = _finding(repo, ANCHORS)
    new = "docs/footnotes.md#Footnotes/Usage/Anchor links"
    assert found["kind"] == "unresolved" and found["candidates"] == [new], found
    done = bash(repo, _rebind(found))
    assert done.returncode == 0, done.stderr
    assert [f["kind"] for f in in_process.findings(repo) if f["selector"] == new] == ["clean"]


def test_docs_section_moved_between_pages_staged_one_commit_route_accepted(repo: Path) -> None:
    """Staged, the move is taken into the commit's one route (rebound beside the pages'
    drifted headings); pasted, the staged check is clean."""
    section = _cut(repo, "content-tabs.md", "### Embedded content", None)
    _paste(repo, "admonitions.md", section, "## Customization")
    git(repo, "add", "-A")
    out = in_process.forest(repo, "check", "--staged").stdout
    marker = "or record the whole commit at once (1 rebound where they stand now"
    assert marker in out, out
    route = out.split(marker, 1)[1].split(": ", 1)[1].split("  (replace", 1)[0]
    done = bash(repo, route.replace("'…'", f"'{WORDS}'"))
    assert done.returncode == 0, done.stderr
    assert in_process.forest(repo, "check", "--staged").exit_code == 0


def test_section_pasted_elsewhere_beside_a_renamed_sibling_each_keeps_its_place_detected(
    tmp_path: Path,
) -> None:
    """Two sections of one page gone at once: ``One`` pasted at the end of b.md (its
    place there, line 3), ``Two`` renamed ``Deux`` in place (line 3 of a.md). The
    ranking told candidates apart by the gone binding's file and a line, so the two
    places were one and ``One`` lost its own; each is now offered to its binding."""
    root = make_repo(tmp_path)
    in_process.ok(root, "init")
    (root / "a.md").write_text("# A\n\n## One\n\none\n\n## Two\n\ntwo\n", encoding="utf-8")
    (root / "b.md").write_text("# B\n", encoding="utf-8")
    commit_all(root, "pages")
    in_process.ok(root, "adopt", "a.md#A/One", "a.md#A/Two", "--words", "reviewed")
    commit_all(root, "custody")
    (root / "a.md").write_text("# A\n\n## Deux\n\ntwo\n", encoding="utf-8")
    (root / "b.md").write_text("# B\n\n## One\n\none\n", encoding="utf-8")
    assert _finding(root, "a.md#A/One")["candidates"] == ["b.md#B/One"]
    assert _finding(root, "a.md#A/Two")["candidates"] == ["a.md#A/Deux"]


def test_section_pasted_under_another_h1_blank_ends_changed_says_why_words_detected(
    tmp_path: Path,
) -> None:
    """A section cut from the middle of a page and pasted at the end of another, under
    its H1, loses only the blank line that ended it: unresolved, its place first,
    and its rebind takes words. The finding said nothing of why (its text reads
    unchanged); its hint and its rebind's note say the text differs only by the
    blank lines at its end, in text and in JSON, and the rebind pasted is clean."""
    root = make_repo(tmp_path)
    in_process.ok(root, "init")
    (root / "a.md").write_text("# One\n\n## Sec\n\nsec text\n\n## Next\n\nnext\n", encoding="utf-8")
    (root / "b.md").write_text("# Two\n\nintro\n", encoding="utf-8")
    commit_all(root, "pages")
    in_process.ok(root, "adopt", "a.md#One/Sec", "--words", "reviewed")
    commit_all(root, "custody")
    (root / "a.md").write_text("# One\n\n## Next\n\nnext\n", encoding="utf-8")
    (root / "b.md").write_text("# Two\n\nintro\n\n## Sec\n\nsec text\n", encoding="utf-8")
    found = _finding(root, "a.md#One/Sec")
    assert found["kind"] == "unresolved" and found["candidates"][0] == "b.md#Two/Sec", found
    why = "b.md#Two/Sec holds its adopted text but for the blank lines at its end"
    assert any(h.startswith(why) for h in found["hints"]), found["hints"]
    route = found["routes"][0]
    assert route["command"].startswith("forest rebind 'a.md#One/Sec' 'b.md#Two/Sec' --words")
    assert "differs only by the blank lines at its end" in route["note"], route
    text = in_process.forest(root, "check").stdout
    assert why in text and "differs only by the blank lines at its end" in text, text
    assert bash(root, route["command"].replace("'…'", f"'{WORDS}'")).returncode == 0
    assert in_process.forest(root, "check").exit_code == 0

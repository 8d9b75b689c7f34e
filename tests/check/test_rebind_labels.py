"""A rebind route says what happened: "moved" when the section (or file) keeps its
name and only its place changed (another parent, another folder), "renamed" only when
its name changed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.helpers.cli import finding_of, ok
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.template import copied_from

MARA = "## Mara\n\nMara is a weaver.\nShe sings at night.\nShe keeps bees.\n"
CANON = f"# Canon\n\n## Elias\n\nElias is a smith.\n\n{MARA}\n# Appendix\n\n## Notes\n\nnotes\n"


def _build(base: Path) -> Path:
    root = make_repo(base)
    ok(root, "init")
    write(root, "docs/canon.md", CANON)
    commit_all(root, "init")
    ok(root, "adopt", "docs/canon.md#Canon/Mara", "docs/canon.md", "--words", "Adopted")
    commit_all(root, "adopt")
    return root


repo = copied_from(_build)


def _first_rebind(found: dict[str, Any]) -> tuple[str, str]:
    route = next(r for r in found["routes"] if r["argv"] and r["argv"][0][1] == "rebind")
    return route["label"], route["argv"][0][3]


def test_section_moved_under_another_parent_and_edited_labelled_moved_detected(
    repo: Path,
) -> None:
    moved = CANON.replace(f"{MARA}\n", "") + "\n" + MARA.replace("bees", "goats")
    write(repo, "docs/canon.md", moved)
    found = finding_of(repo, "docs/canon.md#Canon/Mara")
    assert found["kind"] == "unresolved", found
    assert _first_rebind(found) == (
        "keep the chain at the moved section",
        "docs/canon.md#Appendix/Mara",
    )


def test_section_renamed_in_place_labelled_renamed_detected(repo: Path) -> None:
    write(repo, "docs/canon.md", CANON.replace("## Mara\n", "## Mara Weaver\n"))
    found = finding_of(repo, "docs/canon.md#Canon/Mara")
    assert _first_rebind(found) == (
        "keep the chain at the renamed section",
        "docs/canon.md#Canon/Mara Weaver",
    )


def test_file_moved_to_another_folder_and_edited_labelled_moved_detected(repo: Path) -> None:
    git(repo, "mv", "docs", "notes")
    write(repo, "notes/canon.md", CANON.replace("bees", "wasps"))
    whole = finding_of(repo, "docs/canon.md")
    section = finding_of(repo, "docs/canon.md#Canon/Mara")
    assert _first_rebind(whole) == ("keep the chain at the moved file", "notes/canon.md")
    assert _first_rebind(section) == (
        "keep the chain at the moved file",
        "notes/canon.md#Canon/Mara",
    )


def test_file_renamed_and_edited_labelled_renamed_detected(repo: Path) -> None:
    git(repo, "mv", "docs/canon.md", "docs/lore.md")
    write(repo, "docs/lore.md", CANON.replace("bees", "wasps"))
    assert _first_rebind(finding_of(repo, "docs/canon.md")) == (
        "keep the chain at the renamed file",
        "docs/lore.md",
    )

"""A fence opened inside the paragraph a bound block id (``^id``) ends hides the id:
taken out, the fence's line joins the lines into one block that begins above it, so
no "close the fence before line N" brings the block back (closed, the lines above it
stay a block of their own, the id's block changed: drifted). ``forest check`` and
``forest restore`` name it hidden and say to take the fence's line out (closed further
on: its closing line too); followed to the letter, the check is clean
(custody/restore_hidden.py ``Hidden.take_out``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.custody.test_restore_hidden import bound_book
from tests.custody.test_restore_swallowed import state
from tests.helpers.cli import finding_of, findings, forest
from tests.helpers.git import write

TEXT = "# A\n\ntext a\n\n# B\n\nFirst line\nThe treaty holds. ^treaty\n\nb\n\n# C\n\nc\n"
ALONE = TEXT.replace("holds. ^treaty", "holds.\n^treaty")


def _kinds(repo: Path) -> list[tuple[str, str]]:
    return [(f["selector"], f["kind"]) for f in findings(repo)]


def _without(text: str, *numbers: int) -> str:
    lines = text.splitlines(keepends=True)
    return "".join(x for n, x in enumerate(lines, 1) if n not in numbers)


@pytest.mark.parametrize(
    ("text", "edited", "said", "take"),
    [
        (
            TEXT,
            TEXT.replace("First line\n", "First line\n```\n"),
            "(line 9) is hidden by the code fence opened at line 8 in #B, which an edit left "
            "open over it",
            "take out line 8 ",
        ),
        (
            ALONE,
            ALONE.replace("First line\n", "First line\n~~~~\n"),
            "(line 10) is hidden by the code fence opened at line 8 in #B, which an edit left "
            "open over it",
            "take out line 8 ",
        ),
        (
            TEXT,
            TEXT.replace("First line\n", "First line\n````\n").replace("\nc\n", "\n````\nc\n"),
            "(line 9) is hidden by the code fence opened at line 8 in #B, which runs over it "
            "to line 15",
            "take out lines 8 and 15 ",
        ),
    ],
    ids=["backticks-left-open", "tildes-id-alone", "closed-further-on"],
)
def test_block_id_fence_opened_inside_its_paragraph_take_out_followed_clean_detected(
    tmp_path: Path, text: str, edited: str, said: str, take: str
) -> None:
    """Before: ``unresolved f.md#{^treaty}: no heading or block carries the id``, routed
    to ``forest show`` and a rebind (the fence never named), and ``forest restore``
    said the same; a fence closed before the id's line (the advice a hidden heading
    gets) leaves the block drifted, not clean."""
    repo = bound_book(tmp_path, "f.md#A", "f.md#{^treaty}", text=text)
    write(repo, "f.md", edited)
    found = finding_of(repo, "f.md#{^treaty}")
    assert found["kind"] == "unresolved", found
    assert found["detail"].startswith(f"f.md#{{^treaty}}: its block id `^treaty` {said}"), found
    (note,) = [r["note"] for r in found["routes"] if r["label"] == "take the block out"]
    assert note.startswith(take) and "begins at line 7" in note, note
    assert not any((r["command"] or "").startswith("forest show") for r in found["routes"])
    before = state(repo)
    refused = forest(repo, "restore", "f.md#{^treaty}")
    assert refused.exit_code == 1 and f"nothing was written — {take}" in refused.stderr, refused
    assert state(repo) == before
    numbers = [int(n) for n in re.findall(r"[0-9]+", note.split(" (")[0])]
    line = int(re.findall(r"\(line ([0-9]+)\)", found["detail"])[0])
    closed = edited.splitlines(keepends=True)
    closed.insert(line - 1, closed[numbers[0] - 1])  # a close before the id's line
    write(repo, "f.md", "".join(closed))
    assert _kinds(repo) == [("f.md#A", "clean"), ("f.md#{^treaty}", "drifted")]
    write(repo, "f.md", _without(edited, *numbers))
    assert _kinds(repo) == [("f.md#A", "clean"), ("f.md#{^treaty}", "clean")]


def test_block_id_fence_opened_inside_its_paragraph_in_bound_section_restored_detected(
    tmp_path: Path,
) -> None:
    """The fence in bound B: the restore of B with the id is routed first (pasted:
    clean), the fence's line taken out second."""
    from tests.helpers.git import pasted

    repo = bound_book(tmp_path, "f.md#B", "f.md#{^treaty}", text=TEXT)
    write(repo, "f.md", TEXT.replace("First line\n", "First line\n```\n"))
    found = finding_of(repo, "f.md#{^treaty}")
    labels = [r["label"] for r in found["routes"]]
    assert labels[:2] == ["restore it with the section holding the block", "or take the block out"]
    assert pasted(repo, found["routes"][0]["command"]).returncode == 0
    assert (repo / "f.md").read_text() == TEXT
    assert _kinds(repo) == [("f.md#B", "clean"), ("f.md#{^treaty}", "clean")]

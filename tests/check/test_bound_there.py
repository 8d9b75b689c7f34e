"""A bound heading renamed to the name of a heading another live binding holds (that
heading's own section deleted): the finding names the binding that holds the heading
standing where the section stood, and its first route ends that binding, then moves
this one there; pasted in order, ``forest check`` is clean. A heading merely deleted
beside a bound sibling edited in its own words gets no such route."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from forest_files.check.findings import WORDS_PLACEHOLDER
from tests.helpers.cli import finding_of, findings, ok
from tests.helpers.git import commit_all, make_repo, pasted, write
from tests.helpers.template import copied_from

pytestmark = pytest.mark.slow  # routes pasted through bash

ELIAS = "## Elias\n\nElias is a smith.\nHe lives by the sea.\nHe has two brothers.\n"
MARA = "## Mara\n\nMara is a weaver.\nShe sings at night.\nShe keeps bees.\n"
CANON = f"# Canon\n\n{ELIAS}\n{MARA}"
WORDS = "Elias is called Mara now"


def _build(base: Path) -> Path:
    root = make_repo(base)
    ok(root, "init")
    write(root, "canon.md", CANON)
    commit_all(root, "init")
    ok(root, "adopt", "canon.md#Canon/Elias", "canon.md#Canon/Mara", "--words", "Adopted")
    commit_all(root, "adopt")
    return root


repo = copied_from(_build)


@pytest.mark.parametrize("edited", [True, False], ids=["edited", "unchanged"])
def test_renamed_onto_a_bound_heading_names_its_binding_retire_then_rebind_pasted_accepted(
    repo: Path, edited: bool
) -> None:
    renamed = ELIAS.replace("## Elias", "## Mara")
    if edited:
        renamed = renamed.replace("the sea", "the grey sea")
    write(repo, "canon.md", f"# Canon\n\n{renamed}")
    there = finding_of(repo, "canon.md#Canon/Mara")
    mara = there["binding"]
    # the drifted binding's own "adopt the change" would make Elias's text Mara's ground:
    # its finding says whose text it holds, beside that route
    assert there["kind"] == "drifted", there
    assert any("reads as the ground of canon.md#Canon/Elias" in h for h in there["hints"]), there
    gone = finding_of(repo, "canon.md#Canon/Elias")
    assert gone["kind"] == "unresolved", gone
    said = " ".join([*gone["hints"], *(r["note"] for r in gone["routes"])])
    assert "no heading stands where it stood" not in said, said
    assert "where it stood, canon.md#Canon/Mara (line 3), is bound by another binding" in said
    assert mara[:12] in said, said
    first = gone["routes"][0]
    assert first["argv"][:2] == [
        ["forest", "retire", "canon.md#Canon/Mara", "--binding", mara, "--words", "…"],
        ["forest", "rebind", "canon.md#Canon/Elias", "canon.md#Canon/Mara", "--words", "…"],
    ], first
    refused = pasted(repo, first["command"])  # as printed: the words are the user's
    assert refused.returncode == 1, refused
    done = pasted(repo, first["command"].replace(shlex.quote(WORDS_PLACEHOLDER), repr(WORDS)))
    assert done.returncode == 0, done.stderr
    clean = pasted(repo, "forest check")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert [f["kind"] for f in findings(repo)] == ["clean"]


def test_heading_deleted_beside_a_bound_sibling_edited_in_its_own_words_detected(
    repo: Path,
) -> None:
    """The sibling's text reads like its own ground, not the gone one's: no retire of it."""
    write(repo, "canon.md", f"# Canon\n\n{MARA.replace('bees', 'goats')}")
    gone = finding_of(repo, "canon.md#Canon/Elias")
    assert gone["kind"] == "unresolved", gone
    assert not any("retire 'canon.md#Canon/Mara'" in (r["command"] or "") for r in gone["routes"])
    assert not any("bound by another binding" in h for h in gone["hints"]), gone
    assert finding_of(repo, "canon.md#Canon/Mara")["hints"] == []

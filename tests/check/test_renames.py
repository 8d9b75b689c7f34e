"""Renames that follow the text: the three likeliest candidates each a whole route (the
rest in the hint), likeliest first, never shared; a heading's rebind carries its bound
subtree; a renamed and edited file is offered ``rebind OLD NEW``; the routes pasted
through ``bash -c``."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from forest_files.check.findings import WORDS_PLACEHOLDER
from tests.helpers.cli import findings, forest, ok
from tests.helpers.git import commit_all, git, git_env, make_repo, write
from tests.helpers.git import pasted as shell
from tests.helpers.template import copied_from

# The slow lane (.ci/run runs it; the README's fast command leaves it out):
# renames committed and their routes pasted.
pytestmark = pytest.mark.slow

WORDS = "Renamed in review and right"
CANON = (
    "# Canon\n\n"
    "## Elias\n\nElias is a smith.\nHe lives by the sea.\nHe has two brothers.\n\n"
    "### Youth\n\nborn in the north\n\n"
    "## Mara\n\nMara is a weaver.\nShe sings at night.\nShe keeps bees.\n\n"
    "## Other\n\nother text\n"
)
ADR = "# ADR 1: Use git\n\n" + "".join(f"Decision line {n}.\n" for n in range(1, 9))
BIN = Path(sys.executable).parent


def _build(base: Path) -> Path:
    root = make_repo(base)
    ok(root, "init")
    write(root, "canon.md", CANON)
    write(root, "adr-1.md", ADR)
    commit_all(root, "init")
    targets = ("canon.md#Canon/Elias", "canon.md#Canon/Elias/Youth", "canon.md#Canon/Mara")
    ok(root, "adopt", *targets, "adr-1.md", "--words", "Adopted as it stands")
    commit_all(root, "adopt")
    return root


repo = copied_from(_build)


def edit(root: Path, old: str, new: str) -> None:
    write(root, "canon.md", (root / "canon.md").read_text().replace(old, new))


def finding_of(root: Path, selector: str) -> dict[str, Any]:
    (found,) = [f for f in findings(root) if f["selector"] == selector]
    return found


def rebinds(finding: dict[str, Any]) -> list[str]:
    """The rebind routes' targets, in the order printed."""
    return [r["argv"][0][3] for r in finding["routes"] if r["argv"] and r["argv"][0][1] == "rebind"]


def filled(command: str) -> str:
    return command.replace(shlex.quote(WORDS_PLACEHOLDER), shlex.quote(WORDS))


def test_renamed_heading_candidates_likeliest_first_pasted_accepted(repo: Path) -> None:
    """A new heading before the renamed one: document order would offer it first; the
    route with the shared text comes first, and pasted it keeps the chain (the bound
    child follows in the same command)."""
    edit(repo, "## Elias\n", "## Aaron\n\nnew man\n\n## Elias the Smith\n")
    edit(repo, "He lives by the sea.", "He lives by the grey sea.")
    gone = finding_of(repo, "canon.md#Canon/Elias")
    assert gone["kind"] == "unresolved"
    targets = rebinds(gone)
    assert targets[0] == "canon.md#Canon/Elias the Smith"
    assert "canon.md#Canon/Aaron" in targets[1:]
    commands = [r["command"] for r in gone["routes"] if r["command"]]
    assert all(" NEW" not in c for c in commands)
    assert all(c.endswith("&& git add -- .forest/ledger") for c in commands if "rebind" in c)
    first = next(c for c in commands if "rebind" in c)
    refused = shell(repo, first)
    assert refused.returncode == 1 and "say why this text is right" in refused.stderr
    done = shell(repo, filled(first))
    assert done.returncode == 0, done.stderr
    assert "canon.md#Canon/Elias the Smith/Youth" in done.stdout
    assert [f["kind"] for f in findings(repo)] == ["clean"] * 4
    assert "A  .forest/ledger/" in git(repo, "status", "--short")


def test_two_renamed_bindings_never_offered_the_same_target_detected(repo: Path) -> None:
    edit(repo, "## Elias\n", "## Elias Smith\n")
    edit(repo, "## Mara\n", "## Mara Weaver\n")
    elias = rebinds(finding_of(repo, "canon.md#Canon/Elias"))
    mara = rebinds(finding_of(repo, "canon.md#Canon/Mara"))
    assert elias[0] == "canon.md#Canon/Elias Smith" and mara[0] == "canon.md#Canon/Mara Weaver"
    assert not set(elias) & set(mara)


def test_case_only_heading_rename_rebind_route_pasted_accepted(repo: Path) -> None:
    edit(repo, "## Mara\n", "## MARA\n")
    gone = finding_of(repo, "canon.md#Canon/Mara")
    assert rebinds(gone)[0] == "canon.md#Canon/MARA"
    first = next(r["command"] for r in gone["routes"] if "rebind" in (r["command"] or ""))
    assert shell(repo, filled(first)).returncode == 0
    assert finding_of(repo, "canon.md#Canon/MARA")["kind"] == "clean"


def test_rebind_onto_a_bound_section_refused(repo: Path) -> None:
    edit(repo, "## Elias\n", "## Elias Smith\n")
    ledger = sorted((repo / ".forest" / "ledger").rglob("*"))
    result = forest(repo, "rebind", "canon.md#Canon/Elias", "canon.md#Canon/Mara", "--words", WORDS)
    assert result.exit_code == 1
    assert "canon.md#Canon/Mara is bound already" in result.stderr
    assert "forest retire" in result.stderr
    assert sorted((repo / ".forest" / "ledger").rglob("*")) == ledger


def test_rebind_heading_carries_bound_descendants_one_segment_accepted(repo: Path) -> None:
    edit(repo, "## Elias\n", "## Elias Smith\n")
    segments = repo / ".forest" / "ledger" / "segments"
    before = set(segments.iterdir())
    out = ok(repo, "rebind", "canon.md#Canon/Elias", "canon.md#Canon/Elias Smith", "--words", WORDS)
    assert "rebound canon.md#Canon/Elias/Youth -> canon.md#Canon/Elias Smith/Youth" in out.stdout
    assert "2 bindings moved in one segment (one act each)" in out.stdout
    assert "git add -- .forest/ledger" in out.stdout
    assert len(set(segments.iterdir()) - before) == 1
    kinds = {f["selector"]: f["kind"] for f in findings(repo)}
    assert kinds["canon.md#Canon/Elias Smith/Youth"] == "clean"
    assert set(kinds.values()) == {"clean"}


def test_rebind_heading_whose_child_is_gone_leaves_it_named_accepted(repo: Path) -> None:
    """A child renamed as well is not carried blindly: it stays, named, for its own rebind."""
    edit(repo, "## Elias\n", "## Elias Smith\n")
    edit(repo, "### Youth\n", "### Childhood\n")
    out = ok(repo, "rebind", "canon.md#Canon/Elias", "canon.md#Canon/Elias Smith", "--words", WORDS)
    assert "left canon.md#Canon/Elias/Youth where it is" in out.stdout
    assert finding_of(repo, "canon.md#Canon/Elias/Youth")["kind"] == "unresolved"


def test_file_renamed_and_edited_rebind_route_pasted_accepted(repo: Path) -> None:
    git(repo, "mv", "adr-1.md", "0001-use-git.md")
    text = (repo / "0001-use-git.md").read_text().replace("line 3.", "line three.")
    write(repo, "0001-use-git.md", text)
    gone = finding_of(repo, "adr-1.md")
    assert gone["kind"] == "missing" and gone["candidates"] == ["0001-use-git.md"]
    command = next(r["command"] for r in gone["routes"] if "rebind" in (r["command"] or ""))
    assert command.startswith("forest rebind adr-1.md 0001-use-git.md --words ")
    assert shell(repo, filled(command)).returncode == 0
    assert finding_of(repo, "0001-use-git.md")["kind"] == "clean"
    chain = json.loads(ok(repo, "log", "0001-use-git.md", "--json").stdout)["chain"]
    assert len(chain) == 2  # the chain kept: the old ground, then the edited text


def test_file_renamed_and_mostly_rewritten_not_offered_detected(repo: Path) -> None:
    """Under git's 50% similarity a new file is no rename: no rebind is offered."""
    git(repo, "rm", "-q", "adr-1.md")
    write(repo, "0001-other.md", "# ADR 1: Use git\n\n" + "Something else.\n" * 8)
    gone = finding_of(repo, "adr-1.md")
    assert gone["kind"] == "missing" and not gone["candidates"] and not rebinds(gone)


def test_check_path_naming_no_binding_usage_error_refused(repo: Path) -> None:
    env = {**os.environ, **git_env(), "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    for arg in ("nothere.md", "canon.md#Canon/Nobody"):
        proc = subprocess.run(
            ["forest", "check", arg], cwd=repo, env=env, capture_output=True, text=True
        )
        assert proc.returncode == 2, (arg, proc.stderr)
        assert proc.stderr.startswith("forest: check: ") and "names no binding" in proc.stderr
    one = subprocess.run(
        ["forest", "check", "canon.md#Mara"], cwd=repo, env=env, capture_output=True, text=True
    )
    assert one.returncode == 0 and "1 binding(s) checked" in one.stdout


def test_section_with_two_bindings_route_retires_by_binding_pasted_accepted(repo: Path) -> None:
    """Two branches bound one section: the route ends one binding by id (a `resolve
    --pick` of a bind act would fail with "unknown entry")."""
    for branch, by in (("b1", "Ada <ada@example.org>"), ("b2", "Bob <bob@example.org>")):
        git(repo, "checkout", "-q", "-b", branch, "main")
        ok(repo, "adopt", "canon.md#Canon/Other", "--words", f"bound on {branch}", "--as", by)
        commit_all(repo, branch)
        git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-edit", "b1")
    git(repo, "merge", "-q", "--no-edit", "b2")
    first, second = (f for f in findings(repo) if f["kind"] == "contested")
    commands = [r["command"] for r in first["routes"] if r["command"]]
    assert commands and all("resolve" not in c for c in commands)
    assert commands[0].startswith(
        f"forest retire 'canon.md#Canon/Other' --binding {first['binding']} --words "
    )
    done = shell(repo, filled(commands[0]))
    assert done.returncode == 0, done.stderr
    assert "commit it: git add -- .forest/ledger" in done.stdout  # the retire's reminder
    assert {f["kind"] for f in findings(repo)} == {"clean"}
    assert second["binding"] in {f["binding"] for f in findings(repo)}


def test_file_a_moved_binding_stands_at_never_offered_to_another_detected(
    tmp_path: Path,
) -> None:
    """Two bound files alike; one renamed unchanged (``moved``, standing at q2.md), the
    other renamed away out of sight: q2.md was offered to the second as its renamed
    file, and pasting that rebind re-grounded it with the first's text."""
    root = make_repo(tmp_path)
    for name in ("sp ace.md", "q'uote.md"):
        write(root, name, f"# T\n\n## Hero\n\nbody of {name}\nline2\nline3\nline4\n")
    commit_all(root, "files")
    ok(root, "init")
    ok(root, "adopt", "--words", "w", "sp ace.md")
    ok(root, "adopt", "--words", "w", "q'uote.md")
    commit_all(root, "adopt")
    git(root, "mv", "--", "sp ace.md", "gone.txt")  # another suffix: no candidate
    git(root, "mv", "--", "q'uote.md", "q2.md")
    moved = finding_of(root, "q'uote.md")
    assert moved["kind"] == "moved" and moved["moved_to"] == "q2.md", moved
    missing = finding_of(root, "sp ace.md")
    assert "q2.md" not in missing.get("candidates", []), missing


def test_renamed_edited_file_of_two_bound_sections_both_followed_pasted_accepted(
    repo: Path,
) -> None:
    """``git mv`` of a file holding several bound sections, one of them edited: the
    unedited ones are ``moved`` to the new file, and the edited one is offered the
    same routes as a file of one bound section renamed and edited (the file the
    others moved to was dropped from its candidates: bring back or retire only)."""
    git(repo, "mv", "canon.md", "lore.md")
    write(repo, "lore.md", (repo / "lore.md").read_text().replace("keeps bees", "keeps wasps"))
    moved = finding_of(repo, "canon.md#Canon/Elias")
    assert moved["kind"] == "moved" and moved["moved_to"] == "lore.md#Canon/Elias", moved
    gone = finding_of(repo, "canon.md#Canon/Mara")
    assert gone["kind"] == "missing" and gone["candidates"] == ["lore.md#Canon/Mara"], gone
    labels = [r["label"] for r in gone["routes"]]
    assert labels == [
        "keep the chain at the renamed file",
        "bring the file back",
        "or end the binding",
    ]
    command = gone["routes"][0]["command"]
    assert command.startswith("forest rebind 'canon.md#Canon/Mara' 'lore.md#Canon/Mara' --words ")
    assert shell(repo, filled(command)).returncode == 0
    for old in ("canon.md#Canon/Elias/Youth", "canon.md#Canon/Elias"):  # the child first
        route = finding_of(repo, old)["routes"][0]["command"]
        done = shell(repo, route)
        assert done.returncode == 0, done.stderr
    assert {f["kind"] for f in findings(repo)} == {"clean"}


def test_renamed_among_many_headings_three_rebind_routes_then_a_note_detected(
    repo: Path,
) -> None:
    """Ten headings a renamed and edited section may stand at: the hint lists them all,
    likeliest first; only the three likeliest are written out as rebind routes (ten
    near-identical lines hid the restore and retire routes), then one note says the
    others take the same rebind."""
    extra = "".join(f"## Note {n}\n\nunrelated note {n}\n\n" for n in range(1, 9))
    edit(repo, "## Elias\n", extra + "## Elias the Smith\n")
    edit(repo, "He lives by the sea.", "He lives by the grey sea.")
    gone = finding_of(repo, "canon.md#Canon/Elias")
    assert gone["kind"] == "unresolved" and len(gone["candidates"]) > 3
    assert rebinds(gone) == gone["candidates"][:3]
    assert rebinds(gone)[0] == "canon.md#Canon/Elias the Smith"
    after = [r for r in gone["routes"] if r["label"] == "or at" and not r["argv"]]
    others = len(gone["candidates"]) - 3
    assert [r["note"] for r in after] == [
        f"the same rebind with the selector of the other {others} places listed above"
    ]
    labels = [r["label"] for r in gone["routes"]]
    assert labels[-2:] == ["put the section back", "or end the binding"]


def test_renamed_heading_put_back_route_shows_the_adopted_text_pasted_accepted(
    repo: Path,
) -> None:
    """ "put the section back" names the command that prints the adopted text (it was a
    note with no command): ``forest show GROUND``, carrying ``-C`` when typed with it;
    pasted where it was typed, it prints the section as adopted."""
    edit(repo, "## Elias\n", "## Elias the Smith\n")
    edit(repo, "He lives by the sea.", "He lives by the grey sea.")
    typed = shell(repo.parent, f"forest -C {shlex.quote(repo.name)} check --json")
    (gone,) = [f for f in json.loads(typed.stdout)["findings"] if f["kind"] == "unresolved"]
    assert gone["selector"] == "canon.md#Canon/Elias"
    (back,) = [r for r in gone["routes"] if r["label"] == "put the section back"]
    assert back["argv"] == [["forest", "-C", repo.name, "show", gone["ground"]]]
    shown = shell(repo.parent, back["command"])
    assert shown.returncode == 0, shown.stderr
    assert "## Elias\n\nElias is a smith.\nHe lives by the sea.\n" in shown.stdout

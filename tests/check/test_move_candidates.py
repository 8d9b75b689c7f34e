"""Rename candidates the moves search used to miss: a heading id (``file.md#{id}``) no
heading carries any more, and a heading moved under another parent *and* edited.
Each is offered as whole ``forest rebind … --words`` routes, likeliest first, never
a bound section, never one target to two bindings; the routes pasted through
``bash -c`` from ``forest check``, the hook (``check --staged``) and ``forest ci``."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

from forest_files.check.findings import WORDS_PLACEHOLDER
from tests.helpers.cli import findings, forest, ok
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.git import pasted as shell
from tests.helpers.template import copied_from

WORDS = "Reviewed: the new id and text are right"
DOC = (
    "# Canon { #canon }\n\n"
    "## Elias { #elias }\n\nElias is a smith.\nHe lives by the sea.\nHe has two brothers.\n\n"
    "## Mara { #mara }\n\nMara is a weaver.\nShe sings at night.\nShe keeps bees.\n\n"
    "## Hill of Bells { #hill }\n\nThe one true hill of the coast.\n"
    "Its bells ring when a storm is a day away.\n\n"
    "## Greyridge { #ridge }\n\nA spine of bare rock east of the hill.\n"
    "Goats and hermits live there.\n\n"
    "## Lands\n\n### Glass Road\n\nA causeway of fused sand.\nIt never floods.\n"
    "Tolls are paid in lamp oil.\n\n"
    "## History\n\n### Present Age\n\nThe lamps are lit.\n"
)
BOUND = (
    "doc.md#{elias}",
    "doc.md#{mara}",
    "doc.md#{hill}",
    "doc.md#{ridge}",
    "doc.md#Canon/Lands/Glass Road",
    "doc.md#Canon/History/Present Age",
)
ROAD = (
    "### Glass Road\n\nA causeway of fused sand.\nIt never floods.\nTolls are paid in lamp oil.\n\n"
)


def _build(base: Path) -> Path:
    root = make_repo(base)
    ok(root, "init")
    write(root, "doc.md", DOC)
    commit_all(root, "init")
    ok(root, "adopt", *BOUND, "--words", "Adopted as it stands")
    commit_all(root, "adopt")
    return root


repo = copied_from(_build)


def edit(root: Path, old: str, new: str) -> None:
    text = (root / "doc.md").read_text()
    assert text.count(old) == 1, old
    write(root, "doc.md", text.replace(old, new))


def finding_of(found: list[dict[str, Any]], selector: str) -> dict[str, Any]:
    (one,) = [f for f in found if f["selector"] == selector]
    return one


def rebinds(finding: dict[str, Any]) -> list[str]:
    """The rebind routes' targets, in the order printed."""
    return [r["argv"][0][3] for r in finding["routes"] if r["argv"] and r["argv"][0][1] == "rebind"]


def first_rebind(finding: dict[str, Any]) -> str:
    return next(r["command"] for r in finding["routes"] if "rebind" in (r["command"] or ""))


def filled(command: str) -> str:
    return command.replace(shlex.quote(WORDS_PLACEHOLDER), shlex.quote(WORDS))


def kinds(root: Path) -> dict[str, str]:
    return {f["selector"]: f["kind"] for f in findings(root)}


def test_anchor_id_changed_rebind_route_pasted_accepted(repo: Path) -> None:
    """The author changed an id: the heading with the new id comes first, in anchor
    form, as a complete route that keeps the chain when pasted."""
    edit(repo, "## Elias { #elias }", "## Elias { #elias-smith }")
    edit(repo, "He has two brothers.", "He has three brothers.")
    gone = finding_of(findings(repo), "doc.md#{elias}")
    assert gone["kind"] == "unresolved"
    targets = rebinds(gone)
    assert targets[0] == "doc.md#{elias-smith}"
    assert not {"doc.md#{mara}", "doc.md#{hill}", "doc.md#{ridge}"} & set(targets)  # bound
    command = first_rebind(gone)
    assert command.startswith("forest rebind 'doc.md#{elias}' 'doc.md#{elias-smith}' --words ")
    assert command.endswith(" && git add -- .forest/ledger")
    assert shell(repo, command).returncode == 1  # the placeholder as printed: refused
    done = shell(repo, filled(command))
    assert done.returncode == 0, done.stderr
    assert set(kinds(repo).values()) == {"clean"}
    chain = json.loads(ok(repo, "log", "doc.md#{elias-smith}", "--json").stdout)["chain"]
    assert len(chain) == 2  # the old ground, then the edited text: one chain


def test_anchor_id_dropped_heading_without_id_offered_by_path_accepted(repo: Path) -> None:
    """The id is gone and the heading has none now: its heading path is the target."""
    edit(repo, "## Mara { #mara }", "## Mara")
    targets = rebinds(finding_of(findings(repo), "doc.md#{mara}"))
    assert targets[0] == "doc.md#Canon/Mara"


def test_anchor_merged_sections_target_offered_once_detected(repo: Path) -> None:
    """Two anchored sections merged under a new id: the merged heading is offered to
    one binding (the one sharing most text), never to both."""
    edit(
        repo,
        "## Hill of Bells { #hill }\n\nThe one true hill of the coast.\n",
        "## Highlands { #highlands }\n\nThe one true hill of the coast.\nGoats live there.\n",
    )
    edit(repo, "## Greyridge { #ridge }\n\nA spine of bare rock east of the hill.\n", "")
    edit(repo, "Goats and hermits live there.\n\n", "")
    found = findings(repo)
    hill, ridge = (finding_of(found, s) for s in ("doc.md#{hill}", "doc.md#{ridge}"))
    assert rebinds(hill)[0] == "doc.md#{highlands}"
    assert "doc.md#{highlands}" not in rebinds(ridge)
    assert all(" NEW" not in (r["command"] or "") for r in hill["routes"] + ridge["routes"])
    assert shell(repo, filled(first_rebind(hill))).returncode == 0
    assert kinds(repo)["doc.md#{highlands}"] == "clean"


def test_anchor_candidate_already_bound_not_offered_refused(repo: Path) -> None:
    """Merged into a heading a live binding holds (by its id, or by its heading path
    under an id it gained since): that heading is no candidate."""
    ok(repo, "adopt", "doc.md#Canon/Lands", "--words", "Bound by path")
    commit_all(repo, "bind lands")
    edit(repo, "## Greyridge { #ridge }\n\n", "")  # its text joins the Hill of Bells
    edit(repo, "## Lands\n", "## Lands { #lands }\n")
    ridge = finding_of(findings(repo), "doc.md#{ridge}")
    assert ridge["kind"] == "unresolved"
    targets = rebinds(ridge)
    assert "doc.md#{hill}" not in targets
    assert not [t for t in targets if t in ("doc.md#{lands}", "doc.md#Canon/Lands")]
    assert all("Hill of Bells" not in t for t in targets)


def test_renamed_heading_sibling_bound_by_its_id_not_offered_refused(repo: Path) -> None:
    """A sibling a live binding holds by its id is the same section as its heading
    path: not offered to the renamed heading under either name."""
    edit(repo, "## History\n", "### Salt Flats { #flats }\n\nWhite and wide.\n\n## History\n")
    ok(repo, "adopt", "doc.md#{flats}", "--words", "Bound by id")
    commit_all(repo, "bind flats")
    edit(repo, "### Glass Road\n", "### Old Road\n")
    edit(repo, "It never floods.\n", "It floods.\n")
    targets = rebinds(finding_of(findings(repo), "doc.md#Canon/Lands/Glass Road"))
    assert targets[0] == "doc.md#Canon/Lands/Old Road"
    assert not [t for t in targets if "Salt Flats" in t or "flats" in t]


def test_anchor_and_path_bindings_competing_for_one_heading_offered_once_detected(
    repo: Path,
) -> None:
    """One heading named two ways (``#{pair}`` for the anchored binding, its heading
    path for the path binding's sibling search) is still one target: offered once."""
    edit(repo, "## Lands\n\n### Glass Road\n", "## Lands\n\n### Old Road { #pair }\n")
    edit(repo, "It never floods.\n", "It never floods at all.\n")
    edit(repo, "## Elias { #elias }\n\nElias is a smith.\n", "## Elias\n\nElias is a smith.\n")
    found = findings(repo)
    road = finding_of(found, "doc.md#Canon/Lands/Glass Road")
    assert rebinds(road)[0] == "doc.md#Canon/Lands/Old Road"
    offered = rebinds(road) + rebinds(finding_of(found, "doc.md#{elias}"))
    same = [t for t in offered if t in ("doc.md#{pair}", "doc.md#Canon/Lands/Old Road")]
    assert len(same) == 1, offered


def test_anchor_on_two_headings_one_line_finding_no_candidate_refused(repo: Path) -> None:
    """An id written on two headings: the binding's finding names the fix in one line
    and offers no rebind; no route names the duplicated id; rebinding onto it is
    refused and records nothing."""
    edit(repo, "## History\n", "## History { #elias }\n")
    edit(repo, "## Mara { #mara }", "## Mara { #maria }")
    edit(repo, "## Hill of Bells { #hill }", "## Hill of Bells { #maria }")
    found = findings(repo)
    elias = finding_of(found, "doc.md#{elias}")
    assert elias["kind"] == "unresolved" and not elias["candidates"] and not rebinds(elias)
    assert "\n" not in elias["detail"] and "give each its own id" in elias["detail"]
    mara = rebinds(finding_of(found, "doc.md#{mara}"))
    assert mara and "doc.md#{maria}" not in mara  # the duplicated id: by heading path
    assert "doc.md#Canon/Mara" in mara
    ledger = sorted((repo / ".forest" / "ledger").rglob("*"))
    refused = forest(repo, "rebind", "doc.md#{mara}", "doc.md#{maria}", "--words", WORDS)
    assert refused.exit_code != 0
    assert refused.stderr.count("\n") == 1 and "give each its own id" in refused.stderr
    assert sorted((repo / ".forest" / "ledger").rglob("*")) == ledger


def test_heading_moved_under_another_parent_and_edited_route_pasted_accepted(
    repo: Path,
) -> None:
    edit(repo, ROAD, "")
    edit(
        repo,
        "### Present Age\n",
        ROAD.replace("never floods", "never floods now") + "### Present Age\n",
    )
    road = finding_of(findings(repo), "doc.md#Canon/Lands/Glass Road")
    assert road["kind"] == "unresolved"
    assert rebinds(road)[0] == "doc.md#Canon/History/Glass Road"
    command = first_rebind(road)
    assert " --words " in command and " NEW" not in command
    done = shell(repo, filled(command))
    assert done.returncode == 0, done.stderr
    assert set(kinds(repo).values()) == {"clean"}


def test_heading_moved_and_edited_target_already_bound_not_offered_refused(repo: Path) -> None:
    """A heading of the same name under another parent that a binding holds is no
    candidate for the moved one."""
    edit(repo, ROAD, "")
    edit(repo, "### Present Age\n", "### Glass Road\n\nA causeway, rebuilt.\n\n### Present Age\n")
    ok(repo, "adopt", "doc.md#Canon/History/Glass Road", "--words", "A new road")
    road = finding_of(findings(repo), "doc.md#Canon/Lands/Glass Road")
    assert "doc.md#Canon/History/Glass Road" not in rebinds(road)


def _routes_of(doc: dict[str, Any], selector: str) -> list[str]:
    (f,) = [f for f in doc["findings"] if f["selector"] == selector]
    return [r["command"] for r in f["routes"] if r["command"] and "rebind" in r["command"]]


def test_moved_and_edited_route_from_hook_and_ci_pasted_accepted(repo: Path) -> None:
    """The same first rebind from ``check --staged`` (the hook's check) and ``forest
    ci``, which records it in HEAD, the commit that made the change (an amend);
    pasted from the hook's it is staged with the ledger and the commit passes."""
    edit(repo, "## Elias { #elias }", "## Elias { #smith }")
    edit(repo, "He has two brothers.", "He has a brother.")
    git(repo, "add", "doc.md")
    staged = json.loads(forest(repo, "check", "--staged", "--json").stdout)
    git(repo, "commit", "-q", "--no-verify", "-m", "silent")
    ci = json.loads(forest(repo, "ci", "--base", "HEAD~1", "--format", "json").stdout)
    hook_route = _routes_of(staged, "doc.md#{elias}")[0]
    assert _routes_of(ci, "doc.md#{elias}")[0] == hook_route.split(" && git add")[0] + (
        " && git add -- .forest/ledger && git commit --amend --no-edit --allow-empty"
    )
    assert hook_route.startswith("forest rebind 'doc.md#{elias}' 'doc.md#{smith}' --words ")
    git(repo, "reset", "-q", "--soft", "HEAD~1")
    assert shell(repo, filled(hook_route)).returncode == 0
    assert json.loads(forest(repo, "check", "--staged", "--json").stdout)["ok"]


def test_anchor_route_hostile_name_from_hook_text_pasted_accepted(tmp_path: Path) -> None:
    """A file name with a quote, ``$(…)`` and a space: the hook's printed rebind route
    for a changed id, pasted through ``bash -c``, runs nothing else and the commit
    passes the hook."""
    root = make_repo(tmp_path)
    ok(root, "init")
    name = "it's $(touch pwned) `touch pwned2`.md"
    write(root, name, "# T\n\n## A { #a }\n\none\ntwo\nthree\n\n## B\n\nb\n")
    commit_all(root, "init")
    ok(root, "adopt", f"{name}#{{a}}", "--words", "Adopted as it stands")
    commit_all(root, "adopt")
    write(root, name, "# T\n\n## A { #a2 }\n\none\ntwo\nthree!\n\n## B\n\nb\n")
    git(root, "add", "-A")
    hook = shell(root, "forest-hook pre-commit")
    assert hook.returncode == 1
    lines = [
        ln for ln in hook.stderr.splitlines() if "keep the chain at the renamed section: " in ln
    ]
    command = lines[0].split(": ", 1)[1].split("  (", 1)[0]
    assert command == (
        f"forest rebind {shlex.quote(name + '#{a}')} {shlex.quote(name + '#{a2}')} "
        f"--words {shlex.quote(WORDS_PLACEHOLDER)} && git add -- .forest/ledger"
    )
    assert "where it may stand now, likeliest first: " in hook.stderr
    done = shell(root, filled(command))
    assert done.returncode == 0, done.stderr
    assert shell(root, "forest-hook pre-commit").returncode == 0
    assert not (root / "pwned").exists() and not (root / "pwned2").exists()


def test_anchor_gone_in_a_large_file_nearest_names_kept_detected(tmp_path: Path) -> None:
    """Past the pool of candidates the ranking reads, a heading late in a large file
    whose name reads like the id gone is still offered, first."""
    root = make_repo(tmp_path)
    ok(root, "init")
    filler = "".join(f"## Part {n}\n\nfiller {n}\n\n" for n in range(150))
    target = "## Glass Road { #glass-road }\n\nA causeway of fused sand.\nIt never floods.\n"
    write(root, "big.md", "# Big\n\n" + filler + target)
    commit_all(root, "init")
    ok(root, "adopt", "big.md#{glass-road}", "--words", "Adopted as it stands")
    commit_all(root, "adopt")
    write(root, "big.md", "# Big\n\n" + filler + target.replace("{ #glass-road }", "{ #road }"))
    gone = finding_of(findings(root), "big.md#{glass-road}")
    assert rebinds(gone)[0] == "big.md#{road}"
    assert len(gone["candidates"]) <= 12


def test_rebind_onto_heading_bound_under_another_name_refused(repo: Path) -> None:
    """``forest rebind`` onto a heading a live binding holds by its id, named by its
    path (or held by its path, named by an id it gained) is refused like the same
    selector: one line naming the binding and the fix; nothing recorded."""
    edit(repo, "## Greyridge { #ridge }\n", "## Greyridge\n")
    edit(repo, "### Present Age\n", "### Present Age { #now }\n")
    ledger = sorted((repo / ".forest" / "ledger").rglob("*"))
    for old, new in (
        ("doc.md#{ridge}", "doc.md#Canon/Hill of Bells"),
        ("doc.md#{ridge}", "doc.md#{now}"),
    ):
        refused = forest(repo, "rebind", old, new, "--words", WORDS)
        assert refused.exit_code == 1, (new, refused.stdout)
        assert "is bound already" in refused.stderr and "forest retire" in refused.stderr
        assert refused.stderr.count("\n") == 1
    assert sorted((repo / ".forest" / "ledger").rglob("*")) == ledger
    done = forest(repo, "rebind", "doc.md#{ridge}", "doc.md#Canon/Greyridge", "--words", WORDS)
    assert done.exit_code == 0, done.stderr

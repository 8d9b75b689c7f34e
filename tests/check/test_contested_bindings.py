"""Two bindings of one section (two branches each adopted it, then merged): each
binding's "end this binding" route says whether the file holds that binding's ground
now, so the user ends the stale binding, not the one the file still honours.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, git, make_repo, pasted, write

RULES = "canon.md#Canon/Rules"
CANON = "# Canon\n\n## Rules\n\none\n\ntwo\n"
EDITED = CANON.replace("two", "TWO")
LABEL = "end this binding (keep the other)"


def _two_bindings(tmp_path: Path) -> tuple[Path, str, str]:
    """Branch ``a`` adopts the section as it stands; branch ``b`` edits it and adopts
    its own text; main merges both: the file holds ``b``'s text."""
    root = make_repo(tmp_path)
    write(root, "canon.md", CANON)
    ok(root, "init")
    commit_all(root, "init")
    bound = {}
    for branch, text in (("a", CANON), ("b", EDITED)):
        git(root, "checkout", "-q", "-b", branch, "main")
        write(root, "canon.md", text)
        done = ok(root, "adopt", RULES, "--words", f"{branch} adopts", "--json")
        bound[branch] = str(json.loads(done.stdout)[0]["binding"])
        commit_all(root, branch)
        git(root, "checkout", "-q", "main")
    git(root, "merge", "-q", "--no-edit", "a")
    git(root, "merge", "-q", "--no-edit", "b")
    assert (root / "canon.md").read_text() == EDITED
    return root, bound["a"], bound["b"]


def _routes(root: Path) -> dict[str, dict[str, str]]:
    shown = forest(root, "check", "--json")
    assert shown.exit_code == 1, shown.output
    found = json.loads(shown.stdout)["findings"]
    assert {f["kind"] for f in found} == {"contested"}, found
    return {f["binding"]: f["routes"] for f in found}


HOLDS = "the file holds this binding's ground now: to keep that text, end the other"
GONE = "the file no longer holds this binding's ground: it holds other text there now"


@pytest.mark.slow  # two branches, two adoptions, a merge, three checks and a pasted route
def test_two_bindings_route_names_the_one_the_file_holds_pasted_recovers(tmp_path: Path) -> None:
    root, stale, honest = _two_bindings(tmp_path)
    routes = _routes(root)
    assert [(r["label"], r["note"]) for r in routes[honest]] == [(LABEL, HOLDS)], routes
    assert [(r["label"], r["note"]) for r in routes[stale]] == [(LABEL, GONE)], routes
    shown = forest(root, "check")
    assert f"bindings: {min(stale, honest)}, {max(stale, honest)}" in shown.stdout
    assert "head " not in shown.stdout  # bind acts are not a chain's heads
    command = routes[stale][0]["command"].replace("'…'", "'a bound the old text'")
    done = pasted(root, command)
    assert done.returncode == 0, done.stderr
    clean = forest(root, "check")
    assert clean.exit_code == 0, clean.output


@pytest.mark.slow  # the same two bindings, the file then edited past both grounds
def test_two_bindings_file_holding_neither_ground_no_route_claims_it_refused(
    tmp_path: Path,
) -> None:
    root, stale, honest = _two_bindings(tmp_path)
    write(root, "canon.md", EDITED.replace("one", "ONE"))
    routes = _routes(root)
    assert {b: [r["note"] for r in rs] for b, rs in routes.items()} == {
        stale: [GONE],
        honest: [GONE],
    }

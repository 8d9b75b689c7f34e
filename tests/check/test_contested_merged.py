"""A contest whose file holds neither head's text: git merged both branches' edits.

Two branches each supersede one bound section, each editing another line of it;
git merges the text cleanly, and the ledger's two segments leave the ground with two
live heads. ``forest check`` offered only "keep X's text" and "keep Y's text", and
either left the merged file drifted, so a second check and a supersede were needed to
keep what git merged. Now the contest also offers the route that keeps the merged
text (``forest resolve`` on one head, then ``forest supersede``), at every door that
reads the file; a file that holds one head's text gets no such route.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, git, make_repo, pasted, write

RULES = "canon.md#Canon/Rules"
CANON = "# Canon\n\n## Rules\n\none\n\ntwo\n\nthree\n"
MERGED = "# Canon\n\n## Rules\n\nONE\n\ntwo\n\nTHREE\n"
LABEL = "or keep the text the file holds now (neither head's: read it before you adopt it)"


def _contested(tmp_path: Path) -> Path:
    """Branches ``a`` (line one edited) and ``b`` (line three) each supersede the
    section; ``b`` merges ``a``: the file holds both edits, the ground two heads."""
    root = make_repo(tmp_path)
    write(root, "canon.md", CANON)
    ok(root, "init")
    ok(root, "adopt", RULES, "--words", "The rules as agreed")
    commit_all(root, "adopt")
    for branch, old, new in (("a", "one", "ONE"), ("b", "three", "THREE")):
        git(root, "checkout", "-q", "-b", branch, "main")
        write(root, "canon.md", CANON.replace(f"\n{old}\n", f"\n{new}\n"))
        ok(root, "supersede", RULES, "--words", f"{new} is louder")
        commit_all(root, branch)
    git(root, "merge", "-q", "--no-edit", "a")
    assert (root / "canon.md").read_text() == MERGED  # git merged both edits
    return root


def _routes(root: Path, *args: str) -> dict[str, str]:
    shown = forest(root, "check", *args, "--json")
    assert shown.exit_code == 1, shown.output
    (found,) = json.loads(shown.stdout)["findings"]
    assert found["kind"] == "contested" and len(found["candidates"]) == 2, found
    return {r["label"]: r["command"] for r in found["routes"]}


@pytest.mark.slow  # two branches, two supersedes, a merge and three checks
def test_contest_of_merged_edits_routes_to_keeping_them_pasted_recovers(
    tmp_path: Path,
) -> None:
    root = _contested(tmp_path)
    routes = _routes(root)
    assert len(routes) == 3 and LABEL in routes, routes
    staged = _routes(root, "--staged")  # the hook's check: the file staged with the act
    assert staged[LABEL].endswith("git add -- .forest/ledger canon.md"), staged
    command = routes[LABEL].replace("'…'", "'both edits stand'")
    done = pasted(root, command)
    assert done.returncode == 0, done.stderr
    clean = forest(root, "check")
    assert clean.exit_code == 0, clean.output
    assert (root / "canon.md").read_text() == MERGED  # the file untouched: its text adopted
    chain = ok(root, "log", RULES).stdout
    assert "both edits stand" in chain.splitlines()[-1] and " ground " in chain.splitlines()[-1]


@pytest.mark.slow  # the same contest, its file put back to one head's text
def test_contest_file_holding_one_heads_text_gets_no_merged_route_refused(
    tmp_path: Path,
) -> None:
    root = _contested(tmp_path)
    write(root, "canon.md", MERGED.replace("THREE", "three"))  # branch a's text alone
    routes = _routes(root)
    assert LABEL not in routes and len(routes) == 2, routes
    (keep_a,) = [c for c in routes.values() if "\nONE\n" in _text_of(root, _picked(c))]
    done = pasted(root, keep_a.replace("'…'", "'one is right'"))
    assert done.returncode == 0, done.stderr
    assert forest(root, "check").exit_code == 0  # a's text kept: nothing else to adopt


def _picked(command: str) -> str:
    """The head a ``forest resolve … --pick HEAD`` route keeps."""
    return command.split("--pick ", 1)[1].split()[0]


def _text_of(root: Path, content_id: str) -> str:
    """The adopted text of ``content_id``, as ``forest show`` prints it."""
    return ok(root, "show", content_id).stdout


def _conflicted_supersedes(tmp_path: Path) -> Path:
    """``RULES`` adopted, superseded on branches a and b on the same line, and b
    merging a: canon.md left in conflict."""
    root = make_repo(tmp_path)
    write(root, "canon.md", CANON)
    ok(root, "init")
    ok(root, "adopt", RULES, "--words", "The rules as agreed")
    commit_all(root, "adopt")
    for branch in ("a", "b"):
        git(root, "checkout", "-q", "-b", branch, "main")
        write(root, "canon.md", CANON.replace("\none\n", f"\none {branch}\n"))
        ok(root, "supersede", RULES, "--words", f"{branch} says so")
        commit_all(root, branch)
    assert pasted(root, "git merge -q a").returncode == 1  # canon.md in conflict
    return root


@pytest.mark.slow  # two branches, two supersedes, a conflicted merge and two checks
def test_contest_of_conflicted_merge_gets_no_merged_route_refused(tmp_path: Path) -> None:
    """Both branches edit the same line: git leaves the file in conflict, its
    ``=======`` under a text line read as a setext heading, so the section seemed to
    stand as its heading alone. The route "keep the text the file holds now (both
    edits merged)" was offered; pasted, it adopted the heading alone as ground and
    staged the markers (the commit went through, the rules out of custody)."""
    root = _conflicted_supersedes(tmp_path)
    for args in ((), ("--staged",)):  # the markers in the work tree, then staged
        if args:
            git(root, "add", "--", "canon.md")
        shown = forest(root, "check", *args, "--json")
        (found,) = json.loads(shown.stdout)["findings"]
        assert found["kind"] == "contested", found
        assert found["start_line"] is None and found["end_line"] is None, found
        labels = [r["label"] for r in found["routes"]]  # a head each, and by hand
        assert LABEL not in labels and len(labels) == 3, labels
        assert "resolve the conflicts" in labels, labels


@pytest.mark.slow  # two branches, two supersedes, a conflicted merge, each side kept
def test_contest_file_holding_one_sides_text_says_which_head_detected(tmp_path: Path) -> None:
    """Both branches supersede the same line; the merge conflicts and the file is put
    back to one side whole (``git checkout --ours`` or ``--theirs``). The contest said
    "two live successors" and no more: nothing said which head the file holds. Now the
    detail names that head and the side of the merge it came from, and its route notes
    that the file holds its text already; the other head's route that a restore follows."""
    root = _conflicted_supersedes(tmp_path)
    for side, git_head, text in (("--ours", "HEAD", "one b"), ("--theirs", "MERGE_HEAD", "one a")):
        git(root, "checkout", "-m", "--", "canon.md")  # the conflict again, then one side
        git(root, "checkout", side, "--", "canon.md")
        git(root, "add", "--", "canon.md")
        shown = forest(root, "check", "--json")
        (found,) = json.loads(shown.stdout)["findings"]
        assert found["kind"] == "contested", found
        (held,) = [h for h in found["candidates"] if f"\n{text}\n" in _text_of(root, h)]
        assert f"the file holds head {held[:12]}'s text ({git_head}'s side" in found["detail"]
        notes = {_picked(r["command"]): r["note"] for r in found["routes"]}
        assert "the file holds this text now" in notes[held], notes
        (other,) = set(notes) - {held}
        assert "forest restore" in notes[other], notes


def _conflicted_contest(tmp_path: Path) -> Path:
    """Branches ``a`` and ``b`` supersede the same line differently, hooks installed;
    ``b`` merges ``a``: the file is left unmerged (``UU``), the ground two heads."""
    from forest_files.doors import hooks as githooks

    root = make_repo(tmp_path)
    write(root, "canon.md", CANON)
    ok(root, "init")
    ok(root, "adopt", RULES, "--words", "The rules as agreed")
    commit_all(root, "adopt")
    githooks.install(root)
    for branch in ("a", "b"):
        git(root, "checkout", "-q", "-b", branch, "main")
        write(root, "canon.md", CANON.replace("\none\n", f"\none {branch}\n"))
        ok(root, "supersede", RULES, "--words", f"{branch} says so")
        commit_all(root, branch)
    assert pasted(root, "git merge -q --no-edit a").returncode == 1
    assert git(root, "status", "--porcelain", "--", "canon.md") == "UU canon.md"
    return root


@pytest.mark.slow  # two branches, a conflicted merge, each side's route pasted
@pytest.mark.parametrize(("side", "text"), [("HEAD", "one b"), ("MERGE_HEAD", "one a")])
def test_contest_unmerged_file_side_route_pasted_merge_committed_recovers(
    tmp_path: Path, side: str, text: str
) -> None:
    """The file unmerged: only the two ``forest resolve`` routes were offered, and
    either left the file in conflict (git refuses the merge's commit). Each head that
    one side of the merge brought now has the route that takes that side's file
    whole, stages it, keeps that head and stages the ledger."""
    root = _conflicted_contest(tmp_path)
    shown = forest(root, "check", "--json")
    assert shown.exit_code == 1, shown.output
    (found,) = json.loads(shown.stdout)["findings"]
    assert found["kind"] == "contested", found
    routes = {r["label"]: r["command"] for r in found["routes"]}
    assert "resolve the conflicts" in routes, routes
    (head,) = [h for h in found["candidates"] if f"\n{text}\n" in _text_of(root, h)]
    label = f"keep {head[:12]}'s text ({side}'s side of the merge, the whole file)"
    flag = "--ours" if side == "HEAD" else "--theirs"
    assert routes[label].startswith(f"git checkout {flag} -- canon.md && git add -- canon.md && ")
    assert _picked(routes[label]) == head
    done = pasted(root, routes[label].replace("'…'", f"'{text} is right'"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert forest(root, "check").exit_code == 0
    committed = pasted(root, "git commit -q --no-edit")  # through the installed hook
    assert committed.returncode == 0, committed.stdout + committed.stderr
    assert git(root, "rev-parse", "-q", "--verify", "HEAD^2")  # the merge concluded
    assert f"\n{text}\n" in (root / "canon.md").read_text()
    assert git(root, "status", "--porcelain") == ""

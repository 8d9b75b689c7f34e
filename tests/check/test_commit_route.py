"""One finding per edit, one route per commit (issue 26, part 6): an edit inside nested
bindings is shown once, at the innermost, with the enclosing ones named beneath it;
several drifts at the index end with ``forest supersede --staged --expect DIGEST``,
which records them all, or refuses when the staged state changed or a binding's
path is someone else's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from forest_files.check.commit_route import staged_digest
from forest_files.doors import hooks as githooks
from tests.helpers import cli as in_process
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.git import pasted as bash
from tests.helpers.template import copied_from

WORDS = "The release as reviewed"
WIKI = """# Wiki v1

The canon.

## Elias

Elias keeps the lighthouse.

## Mara

Mara sails at dawn.
"""
LAW = "# Law\n\nNo ship leaves at night.\n"
ROUTE = re.compile(
    r"forest supersede --staged --expect ([0-9a-f]+) --words '…' && git add -- \.forest/ledger"
)


def _build(base: Path) -> Path:
    repo = make_repo(base)
    in_process.ok(repo, "init")
    toml = repo / "forest.toml"
    governed = '\n[authority]\n"canon/**" = ["Ada Lovelace <ada@example.org>"]\n'
    toml.write_text(toml.read_text(encoding="utf-8") + governed, encoding="utf-8")
    write(repo, "docs/wiki.md", WIKI)
    write(repo, "canon/law.md", LAW)
    targets = ("docs/wiki.md", "docs/wiki.md#Wiki v1", "docs/wiki.md#Elias", "docs/wiki.md#Mara")
    in_process.ok(repo, "adopt", *targets, "--words", "canon", "--as", "Test Author <a@b.c>")
    in_process.ok(
        repo, "adopt", "canon/law.md", "--words", "law", "--as", "Ada Lovelace <ada@example.org>"
    )
    commit_all(repo, "canon")
    return repo


repo = copied_from(_build)


def _stage_release(repo: Path) -> None:
    text = WIKI.replace("lighthouse", "harbour light").replace("dawn", "dusk")
    write(repo, "docs/wiki.md", text)
    git(repo, "add", "-A")


def _route(repo: Path) -> tuple[str, str]:
    out = in_process.forest(repo, "check", "--staged").stdout
    found = ROUTE.search(out)
    assert found is not None, out
    return out, found.group(0).replace("'…'", f"'{WORDS}'")


def _segments(repo: Path) -> int:
    return len(list((repo / ".forest/ledger/segments").glob("*.jsonl")))


def test_commit_route_nested_edit_shown_once_detected(repo: Path) -> None:
    write(repo, "docs/wiki.md", WIKI.replace("lighthouse", "harbour light"))
    git(repo, "add", "-A")
    out, _ = _route(repo)  # Elias, the H1 and the file all drift: one block
    assert out.count("drifted docs/wiki.md#Wiki v1/Elias") == 1
    assert "drifted docs/wiki.md#Wiki v1 lines" not in out
    assert "drifted docs/wiki.md lines" not in out
    enclosed = [line.strip() for line in out.splitlines() if "enclosed by" in line]
    said = ": drifted too: after a restore here, check it again; a supersede needs its own act"
    assert enclosed == [
        f"enclosed by docs/wiki.md#Wiki v1 lines 1-11{said}",
        f"enclosed by docs/wiki.md lines 1-11{said}",
    ]
    doc = in_process.forest(repo, "check", "--staged", "--json").stdout
    assert doc.count('"kind": "drifted"') == 3  # display only: every binding still fails
    # the one edit was Elias's: restoring it mends the enclosing bindings too
    assert in_process.forest(repo, "restore", "docs/wiki.md#Wiki v1/Elias").exit_code == 0
    assert in_process.forest(repo, "check", "docs/wiki.md").exit_code == 0


def test_commit_route_pasted_supersedes_all_accepted(repo: Path) -> None:
    githooks.install(repo)
    _stage_release(repo)
    refused = bash(repo, "git commit -q -m release")
    assert refused.returncode != 0 and ROUTE.search(refused.stderr), refused.stderr
    _, route = _route(repo)
    pasted = bash(repo, route)
    assert pasted.returncode == 0, pasted.stderr
    assert "4 in one segment" in pasted.stdout  # file, H1, Elias, Mara: one act each
    assert bash(repo, "git commit -q -m release").returncode == 0
    assert in_process.kinds(repo) == ["clean"] * 5


def test_commit_route_staged_state_changed_refused(repo: Path) -> None:
    _stage_release(repo)
    _, route = _route(repo)
    before = _segments(repo)
    write(repo, "docs/wiki.md", WIKI.replace("lighthouse", "beacon").replace("dawn", "dusk"))
    git(repo, "add", "-A")  # the staged text changed after the route was printed
    proc = bash(repo, route)
    assert proc.returncode != 0
    assert proc.stderr.startswith("forest: the staged sections changed since the route")
    assert proc.stderr.count("\n") == 1 and "beacon" not in proc.stderr
    assert _segments(repo) == before  # nothing recorded


def test_commit_route_working_tree_edit_after_staging_not_adopted(repo: Path) -> None:
    _stage_release(repo)
    _, route = _route(repo)
    write(repo, "docs/wiki.md", WIKI.replace("lighthouse", "unstaged words"))
    assert bash(repo, route).returncode == 0  # the index's text is what is adopted
    staged = in_process.forest(repo, "check", "--staged", "--json").stdout
    assert '"kind": "drifted"' not in staged


def test_commit_route_authority_per_binding_refused(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _stage_release(repo)
    write(repo, "canon/law.md", LAW.replace("night", "noon"))
    git(repo, "add", "-A")
    out = in_process.forest(repo, "check", "--staged").stdout
    assert "--expect" not in out  # Test Author holds no authority over canon/: no route
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Ada Lovelace")  # the holder's route, pasted
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "ada@example.org")  # by Test Author
    out, route = _route(repo)
    assert "canon/law.md" in out
    before = _segments(repo)
    proc = bash(repo, route)  # Test Author holds no authority over canon/
    assert proc.returncode != 0 and "holds no authority over canon/law.md" in proc.stderr
    assert _segments(repo) == before


def test_commit_route_digest_order_free_and_covering_accepted() -> None:
    a, b = ("bind-a", "1" * 64), ("bind-b", "2" * 64)
    assert staged_digest([a, b]) == staged_digest([b, a])
    assert staged_digest([a, b]) != staged_digest([a, ("bind-b", "3" * 64)])
    assert staged_digest([a, b]) != staged_digest([a])


def test_commit_route_staged_without_expect_refused(repo: Path) -> None:
    _stage_release(repo)
    proc = in_process.forest(repo, "supersede", "--staged", "--words", WORDS)
    assert proc.exit_code != 0 and "--staged needs --expect DIGEST" in proc.stderr


def test_commit_route_in_staged_json_same_as_hook_accepted(repo: Path) -> None:
    """``check --staged --json`` carries the one route for the commit (``commit_route``)
    the hook's text prints; pasted from the JSON (argv joined as printed), it records
    the release. The working-tree door has none."""
    import json

    _stage_release(repo)
    _, route = _route(repo)
    doc = json.loads(in_process.forest(repo, "check", "--staged", "--json").stdout)
    given = doc["commit_route"]
    assert given is not None and ROUTE.fullmatch(given["command"]), given
    assert given["command"].replace("'…'", f"'{WORDS}'") == route
    assert given["argv"][0][:3] == ["forest", "supersede", "--staged"]
    assert json.loads(in_process.forest(repo, "check", "--json").stdout)["commit_route"] is None
    assert bash(repo, route).returncode == 0
    assert (
        json.loads(in_process.forest(repo, "check", "--staged", "--json").stdout)["commit_route"]
        is None
    )  # nothing left to record

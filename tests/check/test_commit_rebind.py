"""The one route per commit takes in renames (issue 26, parts 3 and 6): a binding whose
section stands at exactly one new place is rebound by ``forest supersede --staged
--expect DIGEST`` (its bound descendants carried), beside the drifted ones, in one
segment; the digest covers the old and new selector and the staged section there, so
the route refuses when the text, the candidate or the number of candidates changed,
a signer holds one of the paths not, or the target became bound — the ledger
byte-identical every time."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from forest_files.check.commit_plan import Step, plan
from forest_files.check.commit_route import commit_route, plan_digest
from forest_files.check.engine import Finding
from forest_files.custody.bindings import Binding
from forest_files.doors import hooks as githooks
from tests.helpers import cli as in_process
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.git import pasted as bash
from tests.helpers.template import copied_from

# The slow lane (.ci/run runs it; the README's fast command leaves it out):
# commits with the hook, rebinds pasted.
pytestmark = pytest.mark.slow

WORDS = "Release v2 as reviewed"
ADA = "Ada Lovelace <ada@example.org>"
WIKI = """# Wiki v1

The canon.

## Elias

Elias keeps the lighthouse.

## Mara

Mara sails at dawn.
"""
NOTES = "# Notes\n\nTides run high in spring.\n"
LAW = "# Law\n\nNo ship leaves at night.\n"
ROUTE = re.compile(
    r"or record the whole commit at once \((\d+) rebound where they stand now, (\d+) drifted "
    r"adopted\): (forest supersede --staged --expect [0-9a-f]+ --words '…' "
    r"&& git add -- \.forest/ledger)"
)
ANY_ROUTE = re.compile(r"forest supersede --staged --expect ([0-9a-f]+) --words '…'")


def _build(base: Path) -> Path:
    repo = make_repo(base)
    in_process.ok(repo, "init")
    toml = repo / "forest.toml"
    governed = f'\n[authority]\n"canon/**" = ["{ADA}"]\n'
    toml.write_text(toml.read_text(encoding="utf-8") + governed, encoding="utf-8")
    write(repo, "docs/wiki.md", WIKI)
    write(repo, "docs/notes.md", NOTES)
    write(repo, "canon/law.md", LAW)
    in_process.ok(repo, "adopt", "docs/wiki.md", "--headings", "--yes", "--words", "canon")
    in_process.ok(repo, "adopt", "docs/notes.md", "--words", "notes")
    in_process.ok(repo, "adopt", "canon/law.md#Law", "--words", "law", "--as", ADA)
    commit_all(repo, "canon")
    return repo


repo = copied_from(_build)


def _stage(repo: Path, wiki: str, notes: str = NOTES.replace("high", "low")) -> None:
    write(repo, "docs/wiki.md", wiki)
    write(repo, "docs/notes.md", notes)
    git(repo, "add", "-A")


def _release(repo: Path) -> None:
    """The H1 bumped, Elias edited (a carried descendant that drifted), notes edited."""
    _stage(repo, WIKI.replace("Wiki v1", "Wiki v2").replace("lighthouse", "harbour light"))


def _route(repo: Path) -> tuple[str, str]:
    out = in_process.forest(repo, "check", "--staged").stdout
    found = ROUTE.search(out)
    assert found is not None, out
    return out, found.group(3).replace("'…'", f"'{WORDS}'")


def _ledger(repo: Path) -> dict[str, bytes]:
    base = repo / ".forest" / "ledger"
    return {str(p.relative_to(base)): p.read_bytes() for p in base.rglob("*") if p.is_file()}


def test_commit_rebind_h1_rename_and_drift_one_route_accepted(repo: Path) -> None:
    githooks.install(repo)
    _release(repo)
    refused = bash(repo, "git commit -q -m v2")
    assert refused.returncode != 0
    found = ROUTE.search(refused.stderr)
    assert found is not None, refused.stderr
    assert found.group(1, 2) == ("3", "1")  # the H1 with Elias and Mara; notes.md
    before = set(_ledger(repo))
    pasted = bash(repo, found.group(3).replace("'…'", f"'{WORDS}'"))
    assert pasted.returncode == 0, pasted.stderr
    assert "rebound docs/wiki.md#Wiki v1 -> docs/wiki.md#Wiki v2" in pasted.stdout
    assert "rebound docs/wiki.md#Wiki v1/Elias -> docs/wiki.md#Wiki v2/Elias" in pasted.stdout
    assert "4 in one segment" in pasted.stdout
    assert "note: 1 of 4 texts are unchanged" in pasted.stdout  # Mara, carried as it was
    assert len([p for p in set(_ledger(repo)) - before if p.startswith("segments/")]) == 1
    assert bash(repo, "git commit -q -m v2").returncode == 0
    assert in_process.kinds(repo) == ["clean"] * 5
    log = in_process.ok(repo, "log", "docs/wiki.md#Wiki v2/Elias").stdout
    assert WORDS in log  # the carried descendant's new text adopted with the words


def test_commit_rebind_one_rename_alone_no_commit_route_accepted(repo: Path) -> None:
    """One rename (with what it carries) is one command already: its own route."""
    write(repo, "docs/wiki.md", WIKI.replace("Wiki v1", "Wiki v2"))
    git(repo, "add", "-A")
    out = in_process.forest(repo, "check", "--staged").stdout
    assert ANY_ROUTE.search(out) is None, out
    rebind = "forest rebind 'docs/wiki.md#Wiki v1' 'docs/wiki.md#Wiki v2' --words '…'"
    assert rebind in out
    pasted = bash(repo, rebind.replace("'…'", f"'{WORDS}'") + " && git add -- .forest/ledger")
    assert pasted.returncode == 0, pasted.stderr
    assert "Wiki v2/Mara" in pasted.stdout  # descendants carried
    assert in_process.forest(repo, "check", "--staged").exit_code == 0


def test_commit_rebind_text_changed_after_printing_refused(repo: Path) -> None:
    _release(repo)
    _, route = _route(repo)
    before = _ledger(repo)
    _stage(repo, WIKI.replace("Wiki v1", "Wiki v2").replace("dawn", "dusk"))
    proc = bash(repo, route)
    assert proc.returncode != 0
    assert proc.stderr.startswith("forest: the staged sections changed since the route")
    assert proc.stderr.count("\n") == 1 and "dusk" not in proc.stderr
    assert _ledger(repo) == before


def test_commit_rebind_candidate_renamed_again_refused(repo: Path) -> None:
    _release(repo)
    _, route = _route(repo)
    before = _ledger(repo)
    _stage(repo, WIKI.replace("Wiki v1", "Wiki v3").replace("lighthouse", "harbour light"))
    proc = bash(repo, route)
    assert proc.returncode != 0 and "changed since the route was printed" in proc.stderr
    assert _ledger(repo) == before


def test_commit_rebind_second_candidate_left_out_refused(repo: Path) -> None:
    renamed = WIKI.replace("## Mara", "## Mara the Sailor")
    _stage(repo, renamed)  # Mara renamed: one candidate; the H1 and notes drift
    out, route = _route(repo)
    assert "(1 rebound where they stand now, 2 drifted adopted)" in out
    before = _ledger(repo)
    _stage(repo, renamed + "\n## Tobin\n\nTobin rows.\n")  # a second candidate
    proc = bash(repo, route)
    assert proc.returncode != 0 and "changed since the route was printed" in proc.stderr
    assert _ledger(repo) == before
    again = in_process.forest(repo, "check", "--staged").stdout
    assert "or adopt all 2 drifted sections at once" in again  # Mara is never taken in
    assert "the other finding needs its own route above" in again
    assert "forest rebind 'docs/wiki.md#Wiki v1/Mara' 'docs/wiki.md#Wiki v1/Mara the" in again


def test_commit_rebind_non_holder_of_one_binding_refused(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _release(repo)
    write(repo, "canon/law.md", LAW.replace("# Law", "# Laws"))
    git(repo, "add", "-A")  # Ada's heading renamed in the same commit
    out = in_process.forest(repo, "check", "--staged").stdout
    assert ROUTE.search(out) is None, out  # the test author holds nothing of canon/
    assert "ask a holder (Ada Lovelace <ada@example.org>) to keep the chain at the renamed" in out
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Ada Lovelace")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "ada@example.org")
    out, route = _route(repo)  # Ada's route, pasted by the test author
    assert "(4 rebound where they stand now, 1 drifted adopted)" in out
    before = _ledger(repo)
    proc = bash(repo, route)
    assert proc.returncode != 0 and "holds no authority over canon/law.md" in proc.stderr
    assert proc.stderr.count("\n") == 1
    assert _ledger(repo) == before


def test_commit_rebind_target_bound_after_printing_refused(repo: Path) -> None:
    _release(repo)
    _, route = _route(repo)
    in_process.ok(repo, "adopt", "docs/wiki.md#Wiki v2", "--words", "bound meanwhile")
    before = _ledger(repo)  # the working-tree ledger binds the target now (unstaged)
    proc = bash(repo, route)
    assert proc.returncode != 0
    assert "docs/wiki.md#Wiki v2 is bound already" in proc.stderr, proc.stderr
    assert _ledger(repo) == before


def test_commit_rebind_digest_covers_selectors_detected() -> None:
    step = Step("rebind", "bind-a", "a.md#Old", "a.md#New", "1" * 64)
    other = step._replace(new="a.md#Newer")
    drift = Step("supersede", "bind-b", "b.md", "b.md", "2" * 64)
    assert plan_digest([step, drift]) == plan_digest([drift, step])
    assert plan_digest([step, drift]) != plan_digest([other, drift])
    assert plan_digest([step, drift]) != plan_digest([step._replace(old="a.md#X"), drift])
    carried = Step("rebind", "bind-c", "a.md#Old/C", "a.md#New/C", "3" * 64, True)
    assert commit_route([step, carried]) is None  # one command of its own already
    assert commit_route([step, carried, drift]) is not None


def test_commit_rebind_files_only_renamed_words_not_recorded_said_detected(repo: Path) -> None:
    """Two bound files renamed, their texts unchanged: the one route rebinds them all,
    and says the words it asked for were not recorded (nothing was adopted; they
    were dropped in silence)."""
    git(repo, "mv", "docs/wiki.md", "docs/book.md")
    git(repo, "mv", "docs/notes.md", "docs/tides.md")
    out, route = _route(repo)
    assert "(4 rebound where they stand now, 0 drifted adopted)" in out
    pasted = bash(repo, route)
    assert pasted.returncode == 0, pasted.stderr
    assert "note: all 4 texts are unchanged" in pasted.stdout
    log = in_process.ok(repo, "log", "--json").stdout
    assert WORDS not in log  # what the note says


def test_commit_rebind_file_renamed_and_edited_accepted(repo: Path) -> None:
    git(repo, "mv", "docs/notes.md", "docs/tides.md")
    write(repo, "docs/tides.md", NOTES.replace("high", "low"))
    write(repo, "docs/wiki.md", WIKI.replace("dawn", "dusk"))
    git(repo, "add", "-A")  # notes.md renamed and edited: one candidate, by similarity
    out, route = _route(repo)
    assert "(1 rebound where they stand now, 2 drifted adopted)" in out
    pasted = bash(repo, route)
    assert pasted.returncode == 0, pasted.stderr
    assert "rebound docs/notes.md -> docs/tides.md" in pasted.stdout
    assert in_process.forest(repo, "check", "--staged").exit_code == 0


def _bound(act: str, selector: str) -> Binding:
    path = selector.partition("#")[0]
    return Binding(act, path, selector, (), "n", "sha256", "h", 1, "by", False)


def _finding(
    kind: str,
    act: str,
    selector: str,
    *,
    moved_to: str | None = None,
    candidates: tuple[str, ...] = (),
    actual_hash: str | None = None,
) -> Finding:
    path = selector.partition("#")[0]
    return Finding(
        kind, path, selector, act, "g", "e", actual_hash, moved_to=moved_to, candidates=candidates
    )


MOVED = "# W\n\n## A\n\nx\n\n## B\n\n### C\n\nc text\n\n## D\n\n## E\n"


def test_commit_plan_moved_and_choices_detected() -> None:
    """A moved section (one place) is rebound; two candidates, or a target two
    rebinds or a staying binding would hold, are never taken in."""
    read = {"w.md": MOVED.encode()}.get
    moved = _finding("moved", "m", "w.md#W/A/C", moved_to="w.md#W/B/C")
    two = _finding("unresolved", "t", "w.md#W/Q", candidates=("w.md#W/D", "w.md#W/E"))
    held = _finding("unresolved", "h", "w.md#W/R", candidates=("w.md#W/A",))
    drift = _finding("drifted", "d", "w.md#W", actual_hash="9" * 64)
    bindings = [_bound(f.binding, f.selector) for f in (moved, two, held, drift)]
    bindings.append(_bound("a", "w.md#W/A"))  # stays where it is
    steps = plan([moved, two, held, drift], bindings, read)
    assert [(s.kind, s.binding, s.new) for s in steps] == [
        ("rebind", "m", "w.md#W/B/C"),
        ("supersede", "d", "w.md#W"),
    ]
    clash = _finding("unresolved", "k", "w.md#W/K", candidates=("w.md#W/B/C",))
    bindings.append(_bound("k", clash.selector))
    steps = plan([moved, clash, drift], bindings, read)
    assert [s.binding for s in steps] == ["d"]  # two rebinds onto one place: neither

"""A body older commits lack because a later forget erased it and history was rewritten.

``forest forget``'s route rewrites history with the real ``git filter-repo``; then the
commits before the forget's no longer replay (``body-missing``, exit 3). That stays a
fault, but ``forest ci --base`` and ``forest check --rev`` name the erase act and the
commit to judge from, and that route pasted passes. A body no later erase act names
(deleted by hand), and one erased by an act its signer held no authority for, keep
the old words: nothing explains them away.
"""

from __future__ import annotations

from pathlib import Path

from forest_files.custody.applied import deps_for
from forest_files.custody.repository import Repository
from forest_files.gate.ci import run_gate
from forest_files.governance.forget import forget
from forest_files.ledger.kinds import EraseAct
from forest_files.ledger.segment_write import write_segment
from forest_files.ledger.segments import body_path
from tests.helpers.cli import forest
from tests.helpers.custody import BY
from tests.helpers.filter_repo import PATH, needs_filter_repo
from tests.helpers.forgetting import WORDS, adopted_then_cleaned
from tests.helpers.git import commit_all, git

pytestmark = needs_filter_repo
_AUTH = '\n[authority]\n"doc.md" = ["t <t@example.org>"]\n'


def _rewritten(root: Path, body: str) -> None:
    """Every commit's ``body`` taken out, as forget's route does (here in place)."""
    git(
        root,
        "filter-repo",
        "--force",
        "--quiet",
        "--invert-paths",
        "--path",
        body,
        env={"PATH": PATH},
    )


def _forgotten_then_rewritten(tmp_path: Path) -> tuple[Path, str, str]:
    """adopt, clean, forget (committed), then history rewritten: (root, act, commit)."""
    root, old = adopted_then_cleaned(tmp_path)
    commit_all(root, "clean")
    with Repository(root) as repo:
        report = forget(repo, old, words=WORDS, by=BY)
    commit_all(root, "forget")
    _rewritten(root, body_path(Path(".forest/ledger"), report.body_hash).as_posix())
    return root, report.act_id, git(root, "rev-parse", "HEAD")


def _missing(root: Path, base: str) -> list[tuple[str, tuple[str, ...], tuple[str, ...]]]:
    report = run_gate(root, base)
    assert report.exit_code == 3
    return [
        (r.finding.detail, r.hints, tuple(route.command for route in r.routes))
        for r in report.findings
        if "body-missing" in r.finding.detail
    ]


def test_ci_body_erased_by_later_forget_rewritten_detected(tmp_path: Path) -> None:
    root, act, forgot = _forgotten_then_rewritten(tmp_path)
    first = git(root, "rev-list", "--max-parents=0", "HEAD")
    ((_detail, hints, routes),) = _missing(root, first)
    assert any(f"erase act {act[:12]}" in h and forgot[:12] in h for h in hints)
    assert routes[0] == f"forest ci --base {forgot}"
    assert run_gate(root, forgot).exit_code == 0  # the route, pasted: judged from there
    said = forest(root, "check", "--rev", "HEAD~1")
    assert said.exit_code == 3
    assert f"erase act {act[:12]}" in said.stderr
    assert f"`forest check --rev {forgot}`" in said.stderr
    assert forest(root, "check", "--rev", forgot).exit_code == 0


def test_ci_body_missing_no_erase_act_detected(tmp_path: Path) -> None:
    """A body taken out of history by hand, no erase act: HEAD holds it again, the older
    commits do not; their fault names no erase act and routes nowhere new."""
    root, old = adopted_then_cleaned(tmp_path)
    commit_all(root, "clean")
    with Repository(root) as repo:
        body_hash = str(repo.synced().require(repo.store().local_id(old), "t")["body_hash"])
    body = body_path(root / ".forest/ledger", body_hash)
    kept = body.read_bytes()
    _rewritten(root, body.relative_to(root).as_posix())
    body.parent.mkdir(parents=True, exist_ok=True)
    body.write_bytes(kept)
    commit_all(root, "body back")
    first = git(root, "rev-list", "--max-parents=0", "HEAD")
    found = _missing(root, first)
    assert found and all(not hints and not routes for _d, hints, routes in found)
    said = forest(root, "check", "--rev", "HEAD~1")
    assert said.exit_code == 3 and "erase act" not in said.stderr


def test_ci_body_erased_by_non_holder_not_explained_detected(tmp_path: Path) -> None:
    """An erase act by hand for a non-holder, its body then taken out of history: the
    gate's authority fault, and the older commits' body-missing explained by nothing."""
    root, old = adopted_then_cleaned(tmp_path, authority=_AUTH)
    commit_all(root, "clean")
    with Repository(root) as repo:
        store = repo.synced()
        entry = store.local_id(old)
        body_hash = str(store.require(entry, "t")["body_hash"])
        payload = EraseAct(body_hash, "Mallory <m@x>", "mine now", "2026-01-01T00:00:00Z", ())
        act = repo.act(payload, deps_for(store, refs=[entry], status_of=[entry]))
        write_segment(root / ".forest/ledger", [act], {})
    body_path(root / ".forest/ledger", body_hash).unlink()
    commit_all(root, "forged forget")
    _rewritten(root, body_path(Path(".forest/ledger"), body_hash).as_posix())
    first = git(root, "rev-list", "--max-parents=0", "HEAD")
    assert any(r.kind == "authority" for r in run_gate(root, first).findings)
    found = _missing(root, first)
    assert found and all(not hints and not routes for _d, hints, routes in found)
    forgot = git(root, "rev-parse", "HEAD")
    said = forest(root, "check", "--rev", "HEAD~1")
    assert said.exit_code == 3 and "erase act" not in said.stderr and forgot not in said.stderr

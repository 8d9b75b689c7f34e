"""Rebind proposals: a heading renamed (with or without an edit) is kept as the
binding's likeliest new selector; listed, shown and adopted like text proposals
(``forest proposal adopt ID --words``, one rebind act); refused without words,
onto a target bound already, or once the binding moved; closed when the heading
comes back."""

from __future__ import annotations

import threading
from pathlib import Path

from forest_files.doors.review.closing import close_left_behind
from forest_files.doors.watch import judge
from forest_files.doors.watch.renames import propose_rebind
from forest_files.proposals.rebinds import RebindStore
from tests.helpers.cli import forest, ok
from tests.helpers.custody import BY, age_files, init_and_adopt
from tests.helpers.git import commit_all, make_repo, write
from tests.helpers.template import copied_from

CANON = (
    "# Canon\n\n## Elias\n\nElias keeps the lantern at the north gate of the city.\n"
    "He was born in the winter of the long frost.\n\n"
    "## Mara\n\nMara sails the southern coast road with her brother.\n"
)
OLD, NEW = "a.md#Canon/Elias", "a.md#Canon/Elias the Keeper"


def _build(tmp: Path) -> Path:
    root = make_repo(tmp)
    write(root, "a.md", CANON)
    init_and_adopt(root, ["a.md#Elias"])
    commit_all(root, "adopt")
    age_files(root)
    return root


root = copied_from(_build)


def _rename(root: Path, text: str = CANON, taken: frozenset[str] = frozenset()) -> str | None:
    """What the watcher does for a renamed heading."""
    (root / "a.md").write_text(text.replace("## Elias", "## Elias the Keeper"), encoding="utf-8")
    (item,) = judge.check(root, ("a.md",), threading.Event())
    assert item.finding.kind == "unresolved", item.finding
    done = propose_rebind(root, item, (), taken)
    return None if done is None else done[0]


def test_rebind_proposal_for_renamed_heading_adopted_accepted(root: Path) -> None:
    pid = _rename(root)
    assert pid is not None
    listed = ok(root, "proposals").stdout
    assert f"{pid} rebind {OLD} -> {NEW}" in listed
    shown = ok(root, "proposal", "show", pid).stdout
    assert f"stands for: forest rebind {OLD!r} {NEW!r} --words" in shown
    assert "## Elias{+ the Keeper+}" in shown
    ok(root, "proposal", "adopt", pid, "--words", "Elias earned his title", "--as", BY)
    with RebindStore(root) as store:
        assert store.get(pid).status == "adopted"
    assert "0 open proposal(s)" in ok(root, "proposals").stdout
    assert forest(root, "check", NEW).exit_code == 0  # the binding follows the heading


def test_rebind_proposal_renamed_and_edited_accepted(root: Path) -> None:
    edited = CANON.replace("long frost", "long, bitter frost")
    pid = _rename(root, edited)
    assert pid is not None
    with RebindStore(root) as store:
        p = store.get(pid)
    assert (p.old_selector, p.new_selector) == (OLD, NEW) and 0.6 <= p.score < 1


def test_rebind_proposal_target_bound_already_not_offered_refused(root: Path) -> None:
    """The likeliest target is bound: no proposal names it (Mara's section is not
    close enough to stand in)."""
    assert _rename(root, taken=frozenset({NEW})) is None


def test_rebind_proposal_adopt_onto_bound_target_refused(root: Path) -> None:
    pid = _rename(root)
    assert pid is not None
    ok(root, "adopt", NEW, "--words", "bound by hand meanwhile", "--as", BY)
    before = sorted((root / ".forest" / "ledger" / "segments").iterdir())
    out = forest(root, "proposal", "adopt", pid, "--words", "follow it", "--as", BY)
    assert out.exit_code == 1 and "bound already" in out.stderr
    assert sorted((root / ".forest" / "ledger" / "segments").iterdir()) == before


def test_rebind_proposal_adopt_without_words_refused(root: Path) -> None:
    pid = _rename(root)
    assert pid is not None
    out = forest(root, "proposal", "adopt", pid, "--words", "  ", "--as", BY)
    # the refusal of every recording command's blank words (options.words_given)
    assert out.exit_code == 1 and out.stderr.startswith("forest: --words"), out.stderr
    assert "say why" in out.stderr
    with RebindStore(root) as store:
        assert store.get(pid).status == "open"


def test_rebind_proposal_heading_back_closed_accepted(root: Path) -> None:
    pid = _rename(root)
    (root / "a.md").write_text(CANON, encoding="utf-8")
    assert [(s.proposal.id, s.why) for s in close_left_behind(root)] == [(pid, "heading back")]


def test_rebind_proposal_target_offered_to_another_binding_refused(root: Path) -> None:
    """Another binding's open rebind proposal names the target: not offered twice."""
    with RebindStore(root) as store:
        store.propose(
            binding="another",
            path="a.md",
            old="a.md#Canon/Gone",
            new=NEW,
            derived_from="0" * 64,
            score=1.0,
        )
    assert _rename(root) is None

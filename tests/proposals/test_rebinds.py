"""Rebind proposals: a heading renamed (with or without an edit) is kept as the
binding's likeliest new selector; listed, shown and adopted like text proposals
(``forest proposal adopt ID --words``, one rebind act); refused without words,
onto a target bound already, or once the binding moved; closed when the heading
comes back."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from forest_files.doors.review.closing import close_left_behind
from forest_files.doors.watch import judge
from forest_files.doors.watch.renames import propose_rebind
from forest_files.kernel.shellword import BASH_ONLY
from forest_files.proposals.rebinds import RebindStore
from tests.helpers.cli import forest, ok
from tests.helpers.custody import BY, age_files, init_and_adopt
from tests.helpers.git import commit_all, git, make_repo, pasted, write
from tests.helpers.state import shared_state
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


def test_rebind_proposal_of_another_worktree_kept_accepted(root: Path, tmp_path: Path) -> None:
    """A rename seen in a linked worktree is not closed by the main worktree, whose
    heading never moved (before: `forest proposals` there discarded it as "heading
    back"); put back in its own worktree, it closes there."""
    other = tmp_path / "other"
    git(root, "worktree", "add", "-q", "-b", "side", str(other))
    pid = _rename(other)
    assert pid is not None
    for door in ("proposals", "watch status"):
        shown = forest(root, *door.split())
        assert shown.exit_code == 0 and "closed proposal" not in shown.stderr, shown.stderr
    assert close_left_behind(root) == []
    with RebindStore(root) as store:
        assert (store.get(pid).status, store.get(pid).worktree) == ("open", "worktrees/other")
    (other / "a.md").write_text(CANON, encoding="utf-8")  # put back where it was seen
    assert f"closed proposal {pid} ({OLD}): heading back" in forest(other, "proposals").stderr
    with RebindStore(root) as store:
        assert store.get(pid).status == "discarded"


def _version_one(root: Path) -> Path:
    """A rebinds.db of schema 1 (before worktrees were recorded), one open proposal."""
    import sqlite3

    from forest_files.proposals import rebinds

    path = shared_state(root) / rebinds.REBINDS_DB_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    for side in ("", "-wal", "-shm"):
        Path(f"{path}{side}").unlink(missing_ok=True)
    with sqlite3.connect(path) as conn:  # in WAL mode, as every local store is
        conn.execute("PRAGMA journal_mode = WAL")
        conn.executescript(rebinds._V1 + "PRAGMA user_version = 1;")
        conn.execute(
            "INSERT INTO rebinds VALUES ('r1', 'b1', 'a.md', ?, ?, 'g', 0.9, 't', 't', 'open')",
            (OLD, NEW),
        )
    conn.close()
    return path


def test_rebind_proposal_version_one_file_upgraded_accepted(root: Path) -> None:
    """A version-1 rebinds.db is upgraded in place: its open proposal is kept with no
    worktree (judged anywhere, as before); a new one records where it was seen."""
    from forest_files.proposals import rebinds

    _version_one(root)
    with RebindStore(root) as store:
        (kept,) = store.open_rebinds()
        assert (kept.id, kept.worktree, kept.new_selector) == ("r1", None, NEW)
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == rebinds.SCHEMA_VERSION
        store.close("r1", "discarded")
    pid = _rename(root)
    assert pid is not None
    with RebindStore(root) as store:
        assert store.get(pid).worktree == "."


def test_rebind_proposal_version_one_upgraded_by_two_at_once_accepted(root: Path) -> None:
    """Two processes opening a version-1 file at once: both succeed (the loser of the
    upgrade finds the column there and the file at version 2), the proposal kept."""
    failed: list[BaseException] = []
    for _ in range(6):
        _version_one(root)
        gate = threading.Barrier(2)

        def open_store(gate: threading.Barrier = gate) -> None:
            gate.wait(30)
            try:
                with RebindStore(root) as store:
                    assert [r.id for r in store.open_rebinds()] == ["r1"]
            except BaseException as exc:
                failed.append(exc)

        threads = [threading.Thread(target=open_store) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
    assert failed == []


def test_rebind_proposal_show_escape_and_invisible_in_section_detected(root: Path) -> None:
    """The renamed section the watcher proposes a rebind for holds an ESC sequence, a
    C1 CSI, a zero-width space and a word with a Cyrillic o: ``forest proposal show``
    printed the working tree's section as it stood (the ESC reached the terminal,
    ``lea\u200bves`` looked like ``leaves``); each control is written escaped, the
    invisible character as its code and the mixed word named, as a text proposal's
    diff shows them."""
    edited = CANON.replace("long frost", "long \x1b[31mfrost\u009b0m, lea\u200bves, n\u043erth")
    pid = _rename(root, edited)
    assert pid is not None
    shown = ok(root, "proposal", "show", pid).stdout
    assert not any(c in shown for c in "\x1b\u009b\u200b"), repr(shown)
    assert "\\x1b[31mfrost\\x9b0m" in shown and "lea<U+200B>ves" in shown, shown
    (note,) = [line for line in shown.splitlines() if "look-alike" in line]
    assert "line 4" in note and "U+043E" in note, note


def test_rebind_proposal_show_control_in_new_heading_detected(root: Path) -> None:
    """The heading was renamed to one holding a C1 CSI (U+009B): the proposal's first
    line and the diff's ``+++`` line printed the new selector raw; both escape it."""
    renamed = CANON.replace("## Elias", "## Elias\u009b2K the Keeper")
    (root / "a.md").write_text(renamed, encoding="utf-8")
    (item,) = judge.check(root, ("a.md",), threading.Event())
    done = propose_rebind(root, item, (), frozenset())
    assert done is not None
    shown = ok(root, "proposal", "show", done[0]).stdout
    assert "\u009b" not in shown, repr(shown)
    assert f"rebind {OLD} -> a.md#Canon/Elias\\x9b2K the Keeper" in shown, shown


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("Eli\u200bas", "<U+200B>"),  # zero-width space: reads as Elias
        ("Elias\u00a0the Keeper", "<U+00A0>"),  # no-break space: reads as a space
        ("Eli\u00adas", "<U+00AD>"),  # soft hyphen
        ("Elias\u2060", "<U+2060>"),  # word joiner
    ],
    ids=["zwsp", "nbsp", "shy", "wj"],
)
@pytest.mark.slow  # the route pasted into bash
def test_rebind_proposal_invisible_in_new_heading_shown_and_pasted_recovers(
    root: Path, name: str, code: str
) -> None:
    """The heading was renamed to one holding a character a terminal shows as nothing or
    as a plain space: ``forest proposals`` and ``forest proposal show`` printed the new
    selector raw (``-> a.md#Canon/Elias``, a rebind onto what reads as the old name) and
    its route held the character unseen, so one typed over never named the heading.
    Each shows it as its code, the route writes it as ``$'\\ooo'``; pasted, it rebinds."""
    (root / "a.md").write_text(CANON.replace("## Elias", f"## {name}"), encoding="utf-8")
    (item,) = judge.check(root, ("a.md",), threading.Event())
    done = propose_rebind(root, item, (), frozenset())
    assert done is not None
    listed = ok(root, "proposals").stdout
    shown = ok(root, "proposal", "show", done[0]).stdout
    for out in (listed, shown):
        assert not any(not c.isascii() and c not in "…“”" for c in out), repr(out)
        assert code in out, out
    (route,) = [ln for ln in shown.splitlines() if ln.startswith("  stands for: ")]
    assert route.endswith(f" ({BASH_ONLY})"), route  # its $'\\ooo' word is not sh's
    route = route.removeprefix("  stands for: ").removesuffix(f" ({BASH_ONLY})")
    route = route.replace("'…'", "'the heading is his'")
    assert "$'\\" in route, route
    rebound = pasted(root, f"{route} --as '{BY}'")
    assert rebound.returncode == 0, rebound.stderr
    assert ok(root, "check").exit_code == 0

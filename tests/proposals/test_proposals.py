"""Proposals: the divergent text is kept locally, one open per binding; adopting one
is an ordinary supersession with words and authority; discarding keeps nothing;
``forest rebuild`` leaves them alone; ``forest review`` refuses without a terminal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import forest_files.doors.cli  # noqa: F401  (registers every command)
from forest_files.custody.proposals import MAX_VERSIONS, NoSuchProposal, ProposalStore
from forest_files.custody.repository import Repository
from forest_files.doors.cli import app
from forest_files.doors.watch import judge
from forest_files.kernel.errors import AuthorityRefused, ForestError
from forest_files.proposals.adopt import ProposalStale, adopt_proposal
from tests.helpers.custody import BY, DOC
from tests.helpers.git import commit_all, git
from tests.helpers.state import shared_state
from tests.helpers.watch import EDITED, bound_repo

SENTINEL = "QUOKKA-SENTINEL-5521"
runner = CliRunner()


def _capture(root: Path, text: str) -> str:
    """What the watcher does for a drifted section: judge it, keep its text."""
    import threading

    (root / "a.md").write_text(text, encoding="utf-8")
    (item,) = judge.check(root, ("a.md",), threading.Event())
    assert item.finding.kind == "drifted"
    done = judge.capture(root, item, (), 1 << 20)
    assert done is not None
    return done.split(" ")[0]


def _ground(root: Path) -> list[str]:
    with Repository(root) as repo:
        return [g.content_id for g in repo.ground()]


def _segments(root: Path) -> list[Path]:
    return sorted((root / ".forest" / "ledger" / "segments").iterdir())


def test_proposal_captured_derived_from_ground_accepted(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    (ground,) = _ground(root)
    pid = _capture(root, EDITED)
    with ProposalStore(root) as store:
        p = store.get(pid[:6])
        assert (p.derived_from, p.status, p.source) == (ground, "open", "watch")
        assert p.text == "## Keep\n\nedited words\n\n"
        assert "text" not in p.as_dict()


def test_proposal_one_open_per_binding_replaced_accepted(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    first = _capture(root, EDITED)
    second = _capture(root, DOC.replace("kept words", "second words"))
    assert first == second
    assert _capture(root, DOC.replace("kept words", "second words")) == first
    with ProposalStore(root) as store:
        assert len(store.open_proposals()) == 1 and store.versions(first) == 1


def test_proposal_versions_bounded_at_limit_accepted(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    with ProposalStore(root) as store:
        for n in range(MAX_VERSIONS + 2):  # the first, then MAX_VERSIONS + 1 replacements
            done = store.propose(
                binding="b",
                path="a.md",
                selector="a.md",
                derived_from="g",
                ground_hash="h",
                text=f"v{n}",
            )
        assert store.versions(done.proposal.id) == MAX_VERSIONS


def test_proposal_adopt_by_non_holder_refused(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    cfg = root / "forest.toml"
    cfg.write_text(cfg.read_text() + '\n[authority]\n"**" = ["Owner <o@example.org>"]\n')
    commit_all(root, "authority")
    pid = _capture(root, EDITED)
    (root / "a.md").write_text(DOC)  # the file no longer holds the proposal
    before, segments = (root / "a.md").read_bytes(), _segments(root)
    with pytest.raises(AuthorityRefused):
        adopt_proposal(root, pid, words="take it", by="Mallory <m@example.org>")
    assert (root / "a.md").read_bytes() == before and _segments(root) == segments
    with ProposalStore(root) as store:
        assert store.get(pid).status == "open"


def test_proposal_adopt_without_words_refused(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    pid = _capture(root, EDITED)
    with pytest.raises(ForestError, match="words"):
        adopt_proposal(root, pid, words="  ", by=BY)


def test_proposal_adopt_writes_text_and_supersedes_accepted(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    pid = _capture(root, EDITED)
    (root / "a.md").write_text(DOC)  # restored meanwhile: adopt writes the text back
    new = adopt_proposal(root, pid, words="the edit is right", by=BY)
    assert (root / "a.md").read_text() == EDITED
    assert _ground(root) == [new]
    with ProposalStore(root) as store:
        p = store.get(pid)
        assert (p.status, p.adopted_as) == ("adopted", new)
    out = runner.invoke(app, ["check", "--repo", str(root)])
    assert out.exit_code == 0, out.output


def test_proposal_adopt_after_ground_moved_refused(tmp_path: Path) -> None:
    from tests.helpers.custody import supersede_as_it_stands

    root = bound_repo(tmp_path)
    pid = _capture(root, EDITED)
    (root / "a.md").write_text(DOC.replace("kept words", "someone else"))
    supersede_as_it_stands(root, "a.md#Keep")
    with pytest.raises(ProposalStale, match="moved on"):
        adopt_proposal(root, pid, words="too late", by=BY)


def test_proposal_discard_keeps_no_text_accepted(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    pid = _capture(root, DOC.replace("kept words", SENTINEL))
    _capture(root, DOC.replace("kept words", SENTINEL + " again"))  # an earlier version too
    with ProposalStore(root) as store:
        p = store.discard(pid)
        assert p.text is None and p.status == "discarded" and store.versions(pid) == 0
    for f in (root / ".forest").glob("local.db*"):
        assert SENTINEL.encode() not in f.read_bytes(), f
    with pytest.raises(ForestError, match="not open"), ProposalStore(root) as store:
        store.discard(pid)


def test_proposal_version_two_file_upgraded_accepted(tmp_path: Path) -> None:
    """A local.db of schema 2 (before worktrees were recorded) is upgraded in place:
    its open proposal keeps its text, with no worktree (judged anywhere, as before);
    a new one records the worktree it was captured in."""
    import sqlite3

    from forest_files.custody import proposals_sql

    root = bound_repo(tmp_path)
    path = shared_state(root) / "local.db"
    path.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(path) as conn:
        conn.executescript(proposals_sql._V2 + "PRAGMA user_version = 2;")
        row = ("p1", "b1", "a.md", "a.md#Title/Keep", "g", "h", "old text", "th", "watch")
        conn.execute(
            "INSERT INTO proposals VALUES "
            "(?, ?, ?, ?, ?, ?, ?, ?, ?, 't', 't', 'open', NULL, NULL, NULL)",
            row,
        )
    conn.close()
    with ProposalStore(root) as store:
        (kept,) = store.open_proposals()
        assert (kept.id, kept.text, kept.worktree) == ("p1", "old text", None)
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == 3
    pid = _capture(root, EDITED)
    with ProposalStore(root) as store:
        assert store.get(pid).worktree == "."


def test_proposal_version_two_upgraded_by_two_at_once_accepted(tmp_path: Path) -> None:
    """Two stores opening one version-2 file at once: both may see version 2, one
    adds the column, the other's ALTER then finds it: it takes the upgraded file as
    it is instead of failing."""
    import sqlite3
    import threading

    from forest_files.custody import proposals_sql

    root = bound_repo(tmp_path)
    path = shared_state(root) / "local.db"
    path.parent.mkdir(parents=True, exist_ok=True)
    for _ in range(6):
        for side in ("", "-wal", "-shm"):
            Path(f"{path}{side}").unlink(missing_ok=True)
        with sqlite3.connect(path) as conn:  # in WAL mode, as every local.db is
            conn.execute("PRAGMA journal_mode = WAL")
            conn.executescript(proposals_sql._V2 + "PRAGMA user_version = 2;")
        conn.close()
        gate = threading.Barrier(2)
        failed: list[BaseException] = []

        def open_store(gate: threading.Barrier, failed: list[BaseException]) -> None:
            gate.wait(30)
            try:
                with ProposalStore(root) as store:
                    assert store.open_proposals() == []
            except BaseException as exc:
                failed.append(exc)

        threads = [threading.Thread(target=open_store, args=(gate, failed)) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert failed == []


def test_proposal_survives_rebuild_accepted(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    pid = _capture(root, EDITED)
    with Repository(root) as repo:
        repo.rebuild()
    out = runner.invoke(app, ["rebuild", "--repo", str(root)])
    assert out.exit_code == 0, out.output
    with ProposalStore(root) as store:
        assert store.get(pid).status == "open"


def test_proposal_store_never_offered_to_git_accepted(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    _capture(root, EDITED)
    assert (shared_state(root) / "local.db").is_file()  # in the git directory
    assert not list(root.glob(".forest/local.db*"))
    assert "local.db" not in git(root, "status", "--porcelain", "--ignored")


def test_proposal_unknown_id_refused(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    with pytest.raises(NoSuchProposal, match="forest proposals"), ProposalStore(root) as s:
        s.get("nope")


def test_proposal_cli_list_show_adopt_accepted(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    pid = _capture(root, DOC.replace("kept words", SENTINEL))
    listed = runner.invoke(app, ["proposals", "--json", "--repo", str(root)])
    assert listed.exit_code == 0 and SENTINEL not in listed.output
    assert [p["id"] for p in json.loads(listed.output)] == [pid]
    shown = runner.invoke(app, ["proposal", "show", pid, "--repo", str(root)])
    assert shown.exit_code == 0 and f"[-kept words-]{{+{SENTINEL}+}}" in shown.output
    shown_json = runner.invoke(app, ["proposal", "show", pid, "--json", "--repo", str(root)])
    assert SENTINEL not in shown_json.output
    done = runner.invoke(
        app, ["proposal", "adopt", pid, "--words", "fine", "--as", BY, "--repo", str(root)]
    )
    assert done.exit_code == 0, done.output
    again = runner.invoke(app, ["proposal", "drop", pid, "--repo", str(root)])
    assert again.exit_code == 1 and "not open" in again.output


def test_review_without_terminal_refused(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    out = runner.invoke(app, ["review", "--repo", str(root)])
    assert out.exit_code == 1 and "needs a terminal" in out.output


@pytest.mark.parametrize("words", ["…", "...", "'…'"])
def test_proposal_adopt_placeholder_words_refused(tmp_path: Path, words: str) -> None:
    root = bound_repo(tmp_path)
    pid = _capture(root, EDITED)
    segments = _segments(root)
    with pytest.raises(ForestError, match="placeholder of a printed route"):
        adopt_proposal(root, pid, words=words, by=BY)
    assert _segments(root) == segments
    with ProposalStore(root) as store:
        assert store.get(pid).status == "open"


def test_proposal_show_escapes_kept_claims_and_text_refused(tmp_path: Path) -> None:
    """A proposal kept before the MCP door refused them (or by another door) whose claim,
    reason or text holds a line break, an escape or a C1 control: ``forest proposal show``
    prints each escaped, so no line is forged and the terminal obeys nothing."""
    from tests.helpers.cli import ok

    root = bound_repo(tmp_path)
    with Repository(root) as repo:
        (g,) = repo.ground()
    with ProposalStore(root) as store:
        pid = store.propose(
            binding="b", path="a.md", selector="a.md#Title/Keep", derived_from=g.content_id,
            ground_hash=g.body_hash, text="## Keep\n\nkept \x1b[31mred\u009b0m words\n\n",
            source="mcp", claimed_by="Ada \u009b2K <ada@example.org>",
            reason="clearer\nproposal 0123456789ab adopted",
        ).proposal.id  # fmt: skip
    shown = ok(root, "proposal", "show", pid).stdout
    assert not any(c in shown for c in "\x1b\u009b"), shown
    assert "reason: clearer\\x0aproposal 0123456789ab adopted" in shown
    assert "\nproposal 0123456789ab adopted" not in shown


def test_proposal_show_invisible_and_lookalike_characters_detected(tmp_path: Path) -> None:
    """A proposal (an agent's, through MCP) whose text holds characters a terminal shows
    as nothing or as a plain space (U+200B, U+00AD, U+200F, a tag character, U+00A0),
    or a word mixing look-alike scripts (``w\u043erds`` with a Cyrillic o): ``forest
    proposal show`` printed ``kept [-words-]{+words+}``, a change no reviewer can see,
    then adopted as sent. Each such character is shown as its code, and each mixed word
    is named with its line and the foreign letters' codes."""
    from tests.helpers.cli import ok

    root = bound_repo(tmp_path)
    with Repository(root) as repo:
        (g,) = repo.ground()
    text = (
        "## Keep\n\nkept w\u200bords, wo\u00adrds, \u200fwords\U000e0041 and\u00a0w\u043erds"
        "\nand a caf\u00e9 in \u0391\u03b8\u03ae\u03bd\u03b1 "
        "\u041c\u043e\u0441\u043a\u0432\u0430\n\n"
    )
    with ProposalStore(root) as store:
        pid = store.propose(
            binding="b", path="a.md", selector="a.md#Title/Keep", derived_from=g.content_id,
            ground_hash=g.body_hash, text=text, source="mcp",
            claimed_by="Bot (agent) <bot@example.org>", reason="clearer",
        ).proposal.id  # fmt: skip
    shown = ok(root, "proposal", "show", pid).stdout
    for code in ("w<U+200B>ords", "<U+00AD>", "<U+200F>", "<U+E0041>", "<U+00A0>"):
        assert code in shown, (code, shown)
    assert not any(c in shown for c in "\u200b\u00ad\u200f\U000e0041\u00a0"), shown
    (note,) = [line for line in shown.splitlines() if "look-alike" in line]
    assert "line 3" in note and "w\u043erds" in note and "U+043E" in note, note
    assert "caf\u00e9" in shown and "\u0391\u03b8\u03ae\u03bd\u03b1" in shown  # one script each

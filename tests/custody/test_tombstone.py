"""Non-resurrection: the tombstone an erase act carries refuses the erased content's
return (another file, another heading, a supersede, a proposal, a replayed act) on
every clone, never blocks a common short line, and a pre-erase act merged later is
an ``erased-content`` finding naming the forget, not a replay failure."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from forest_files.check.text import one_line
from forest_files.custody.bindings import all_bindings
from forest_files.custody.lookup import find_binding
from forest_files.custody.proposals import ProposalStore
from forest_files.custody.record import adopt_sections
from forest_files.custody.repository import Repository
from forest_files.custody.targets import read_section
from forest_files.custody.tombstone import (
    MIN_LINE,
    fingerprint,
    line_fingerprints,
    normalise_line,
    tombstone_for,
)
from forest_files.gate.ci import run_gate
from forest_files.gate.range import check_range
from forest_files.governance.forget import forget
from forest_files.kernel.errors import ForestError
from forest_files.ledger import LedgerError, read_ledger, write_segment
from forest_files.ledger.segments import body_path
from forest_files.proposals.adopt import adopt_proposal
from tests.helpers.custody import BY, MAX, supersede_as_it_stands
from tests.helpers.forgetting import DOC, SECRET, SENTINEL, WORDS, adopted_then_cleaned, tree_bytes
from tests.helpers.git import commit_all, git, make_repo, write


def forgotten(tmp_path: Path) -> tuple[Path, str]:
    """The secret's ground forgotten and everything committed; returns root, erase act."""
    root, old = adopted_then_cleaned(tmp_path)
    with Repository(root) as repo:
        act = forget(repo, old, words=WORDS, by=BY).act_id
    commit_all(root, "forget")
    return root, act


def refused_unchanged(root: Path, call) -> str:  # type: ignore[no-untyped-def]
    """``call`` is refused, names no text, and leaves every file as it was."""
    before = tree_bytes(root)
    with pytest.raises(ForestError) as info:
        call()
    after = tree_bytes(root)
    changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    assert [
        c for c in changed if not c.startswith((".git/forest/woods.db", ".git/forest/audit.db"))
    ] == []
    assert SENTINEL not in str(info.value)
    return str(info.value)


def _adopt(root: Path, target: str) -> None:
    with Repository(root) as repo:
        adopt_sections(repo, [read_section(root, target, (), max_bytes=MAX)], words="ok", by=BY)


# --- the fingerprints ---------------------------------------------------------------


def test_tombstone_common_short_line_never_blocked_accepted() -> None:
    assert line_fingerprints("p", "## Status\n- [ ] todo\n| a | b |\n\n") == frozenset()
    body = f"## Status\n{SECRET}\n"
    assert tombstone_for("p", body) == (fingerprint("p", SECRET),)
    assert len(normalise_line("x" * (MIN_LINE - 1))) < MIN_LINE
    assert line_fingerprints("p", "y" * MIN_LINE) == {fingerprint("p", "y" * MIN_LINE)}


def test_tombstone_markers_and_spaces_normalised_detected() -> None:
    want = fingerprint("p", SECRET)
    for form in (
        f"- {SECRET}",
        f"> * {SECRET}  ",
        f"1. {SECRET}",
        f"## {SECRET}",
        "  " + SECRET.replace(" ", "   "),
    ):
        assert line_fingerprints("p", form) == {want}, form


def test_tombstone_salted_by_project_accepted() -> None:
    assert fingerprint("p", SECRET) != fingerprint("q", SECRET)
    assert tombstone_for("p", SECRET, keep=[f"intro\n{SECRET}\n"]) == ()


def test_tombstone_holds_no_text_accepted(tmp_path: Path) -> None:
    root, act = forgotten(tmp_path)
    erase = read_ledger(root / ".forest/ledger").acts[act]
    assert SENTINEL not in repr(erase.fields) and "deploy" not in repr(erase.fields)


# --- live refusals -----------------------------------------------------------------


def test_erased_line_in_another_file_refused(tmp_path: Path) -> None:
    root, act = forgotten(tmp_path)
    write(root, "c.md", f"# C\n\n## Copy\n\nSomething else.\n- {SECRET}\n")
    message = refused_unchanged(root, lambda: _adopt(root, "c.md#Copy"))
    assert act[:12] in message and "forest forget" in message


def test_erased_line_under_another_heading_refused(tmp_path: Path) -> None:
    root, _act = forgotten(tmp_path)
    text = (root / "doc.md").read_text(encoding="utf-8")
    write(root, "doc.md", text.replace("other words", f"other words\n\n### Deep\n\n{SECRET}"))
    refused_unchanged(root, lambda: _adopt(root, "doc.md#Other"))


def test_erased_line_supersede_refused(tmp_path: Path) -> None:
    root, _act = forgotten(tmp_path)
    write(root, "doc.md", DOC)  # the secret pasted back into its old section
    refused_unchanged(root, lambda: supersede_as_it_stands(root, "doc.md#Keys"))


def test_erased_line_proposal_adopt_refused(tmp_path: Path) -> None:
    root, _act = forgotten(tmp_path)
    with Repository(root) as repo:
        store = repo.synced()
        binding = find_binding(all_bindings(store), "doc.md#Keys")
        (ground,) = repo.ground()
    section = read_section(root, "doc.md#Keys", (), max_bytes=MAX).text
    with ProposalStore(root) as local:
        pid = local.propose(
            binding=binding.bind_act,
            path="doc.md",
            selector=binding.selector,
            derived_from=ground.content_id,
            ground_hash=ground.body_hash,
            text=section + f"{SECRET}\n",
        ).proposal.id
    ledger = {k: v for k, v in tree_bytes(root).items() if k.startswith(".forest/ledger")}
    with pytest.raises(ForestError) as info:
        adopt_proposal(root, pid, words="ok", by=BY)
    assert SENTINEL not in str(info.value)
    # Known gap (proposals/adopt.py, outside this change): the proposed text is
    # written into the file (and what was there captured) before the refusal.
    assert {k: v for k, v in tree_bytes(root).items() if k.startswith(".forest/ledger")} == ledger
    with ProposalStore(root) as local:
        assert local.get(pid).status == "open"


def test_erased_identical_short_body_refused(tmp_path: Path) -> None:
    """A body with no long line is tombstoned by its hash: the same body is refused."""
    root = make_repo(tmp_path)
    with Repository.init(root, project_id="p") as repo:
        cid = repo.adopt_text("pin 4921", words="ok", by=BY)
        repo.seal(cid, words="hide it", by=BY)
        report = forget(repo, cid, words=WORDS, by=BY)
        assert report.lines == 0
    with Repository(root) as repo:
        message = refused_unchanged(root, lambda: repo.adopt_text("pin 4921", words="ok", by=BY))
        assert report.act_id[:12] in message
        repo.adopt_text("pin 4922", words="ok", by=BY)  # another short body is fine


def test_live_act_after_forget_depends_on_erase_accepted(tmp_path: Path) -> None:
    root, act = forgotten(tmp_path)
    write(root, "c.md", "# C\n\n## Fine\n\nNothing secret in this line at all.\n")
    _adopt(root, "c.md#Fine")
    acts = read_ledger(root / ".forest/ledger").acts.values()
    (adopt,) = [a for a in acts if a.kind == "adopt" and a.payload.binding.path == "c.md"]
    assert act in adopt.deps


# --- replay and the gate -----------------------------------------------------------


def test_replayed_act_depending_on_erase_refused(tmp_path: Path) -> None:
    """A hand-written adopt that depends on the erase and brings the secret back is
    refused by replay exactly as the live command refuses it."""
    root, act = forgotten(tmp_path)
    write(root, "c.md", "# C\n\n## Fine\n\nNothing secret in this line at all.\n")
    _adopt(root, "c.md#Fine")
    ledger = root / ".forest/ledger"
    snap = read_ledger(ledger)
    (adopt,) = [
        a for a in snap.acts.values() if a.kind == "adopt" and a.payload.binding.path == "c.md"
    ]
    text = f"Nothing secret in this line at all.\n{SECRET}\n"
    # Written by hand (the live command refuses it): a supersede depending on the erase.
    from forest_files.custody.plan import plan_supersede

    with Repository(root) as repo:
        store = repo.synced()
        old = store.local_id(adopt.payload.entry.content_id)
        planned = plan_supersede(store, old, text, words="ok", by=BY)
        forged = repo.act(planned, {adopt.id})
        assert act in forged.deps
        write_segment(
            ledger,
            [forged],
            {planned.entry.body_hash: text, planned.record.body_hash: "ok"},
        )
        with pytest.raises(LedgerError, match=act[:12]):
            repo.rebuild()
    os.remove(body_path(ledger, planned.entry.body_hash))


def test_replayed_act_naming_only_later_erase_refused(tmp_path: Path) -> None:
    """A new act names only the latest erase act (test_erase_deps.py); a hand-written
    supersede that brings back the secret an earlier forget erased is still refused
    by replay, naming that earlier erase: it lies in the act's dependency closure."""
    root, first = forgotten(tmp_path)
    with Repository(root) as repo:
        other = repo.adopt_text("another token = 0451-x9z8-SECOND\n", words="ok", by=BY)
        repo.seal(other, words="hide it", by=BY)
        second = forget(repo, other, words=WORDS, by=BY).act_id
    commit_all(root, "forget again")
    write(root, "c.md", "# C\n\n## Fine\n\nNothing secret in this line at all.\n")
    _adopt(root, "c.md#Fine")
    ledger = root / ".forest/ledger"
    (adopt,) = [
        a
        for a in read_ledger(ledger).acts.values()
        if a.kind == "adopt" and a.payload.binding and a.payload.binding.path == "c.md"
    ]
    text = f"Nothing secret in this line at all.\n{SECRET}\n"
    from forest_files.custody.plan import plan_supersede

    with Repository(root) as repo:
        store = repo.synced()
        old = store.local_id(adopt.payload.entry.content_id)
        planned = plan_supersede(store, old, text, words="ok", by=BY)
        forged = repo.act(planned, {adopt.id})
        assert second in forged.deps and first not in forged.deps
        write_segment(
            ledger,
            [forged],
            {planned.entry.body_hash: text, planned.record.body_hash: "ok"},
        )
        with pytest.raises(LedgerError, match=first[:12]):
            repo.rebuild()
    os.remove(body_path(ledger, planned.entry.body_hash))


def test_merged_pre_erase_act_erased_content_detected(tmp_path: Path) -> None:
    """Branch ``side`` adopted the secret line in another file before it saw the
    forget; merged, every clone still replays, and the gate names the forget."""
    root, old = adopted_then_cleaned(tmp_path)
    commit_all(root, "clean")
    git(root, "checkout", "-q", "-b", "side")
    write(root, "c.md", f"# C\n\n## Copy\n\n* {SECRET}\n")
    _adopt(root, "c.md#Copy")
    commit_all(root, "copy on side")
    git(root, "checkout", "-q", "main")
    with Repository(root) as repo:
        act = forget(repo, old, words=WORDS, by=BY).act_id
    commit_all(root, "forget")
    git(root, "merge", "-q", "--no-edit", "side")
    with Repository(root) as repo:
        repo.sync()  # replay accepts it: made without the erase in its deps
        repo.rebuild()
    report = run_gate(root, None)
    found = [f for f in report.findings if f.kind == "erased-content"]
    assert len(found) == 1 and found[0].path == "c.md"
    said = one_line(found[0])
    assert act[:12] in said and SENTINEL not in said
    assert report.exit_code == 1
    from forest_files.gate.render import render
    from forest_files.gate.render_github import step_summary

    for fmt in ("text", "json", "sarif", "junit", "github"):
        out = render(report, fmt)
        assert "erased-content" in out and SENTINEL not in out, fmt
    assert SENTINEL not in step_summary(report)


def test_committed_forget_body_deletion_accepted_by_gate(tmp_path: Path) -> None:
    root, old = adopted_then_cleaned(tmp_path)
    commit_all(root, "clean")
    git(root, "checkout", "-q", "-b", "pr")
    with Repository(root) as repo:
        forget(repo, old, words=WORDS, by=BY)
    commit_all(root, "forget")
    assert check_range(root, "main").faults == ()
    assert [f.kind for f in run_gate(root, "main").findings] == []


def test_forget_by_non_holder_in_ci_refused(tmp_path: Path) -> None:
    """An erase act written by hand for a non-holder (live refuses it) is an authority
    fault in the gate, judged over the chain's bound paths."""
    auth = '\n[authority]\n"doc.md" = ["t <t@example.org>"]\n'
    root, old = adopted_then_cleaned(tmp_path, authority=auth)
    commit_all(root, "clean")
    git(root, "checkout", "-q", "-b", "pr")
    from forest_files.custody.applied import deps_for
    from forest_files.ledger.kinds import EraseAct

    with Repository(root) as repo:
        store = repo.synced()
        entry = store.local_id(old)
        body_hash = str(store.require(entry, "t")["body_hash"])
        payload = EraseAct(body_hash, "Mallory <m@x>", "mine now", "2026-01-01T00:00:00Z", ())
        act = repo.act(payload, deps_for(store, refs=[entry], status_of=[entry]))
        write_segment(root / ".forest/ledger", [act], {})
    body_path(root / ".forest/ledger", body_hash).unlink()
    commit_all(root, "forged forget")
    codes = [f.code for f in check_range(root, "main").faults]
    assert codes == ["authority"]

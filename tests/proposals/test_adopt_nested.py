"""Adopting a proposal never removes another bound section: a proposed text for
``## A`` that lacks a bound ``### A.1`` standing in A's lines (an agent's text, never
checked against the file) is refused before any byte is written, naming the nested
binding and the ways out (custody/restore_nested.py, proposals/adopt.py)."""

from __future__ import annotations

import hashlib
from pathlib import Path

from forest_files.custody.proposals import ProposalStore
from tests.helpers.cli import forest, ok
from tests.helpers.custody import BY
from tests.helpers.git import commit_all, make_repo, pasted, write
from tests.helpers.state import shared_state

BOOK = "# Book\n\n## A\n\nA text.\n\n### A.1\n\nA.1 text.\n\n## B\n\nB text.\n"


def _book(tmp_path: Path) -> Path:
    """book.md with every heading bound (## A's ground holds ### A.1)."""
    root = make_repo(tmp_path)
    ok(root, "init")
    write(root, "book.md", BOOK)
    commit_all(root, "init")
    ok(root, "adopt", "book.md", "--headings", "--words", "adopt", "--as", BY, "--yes")
    commit_all(root, "adopt")
    return root


def _state(root: Path) -> dict[str, str]:
    paths = [root / "book.md", *(root / ".forest" / "ledger").rglob("*")]
    paths += (shared_state(root) / "captures").glob("*")
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(paths)
        if p.is_file()
    }


def agent_proposal(root: Path, selector: str, text: str) -> str:
    """An open ``mcp`` proposal of ``text`` for ``selector`` against its ground."""
    from forest_files.custody.bindings import all_bindings
    from forest_files.custody.record import ground_body
    from forest_files.custody.repository import Repository

    with Repository(root) as repo:
        store = repo.synced()
        (b,) = [b for b in all_bindings(store) if b.selector == selector]
        head, _state = ground_body(store, b)
        assert head is not None
        cid, ground_hash = store.content_id(head), store.get(head)["body_hash"]
    with ProposalStore(root) as kept:
        done = kept.propose(
            binding=b.bind_act, path=b.path, selector=b.selector, derived_from=cid,
            ground_hash=ground_hash, text=text, source="mcp",
        )  # fmt: skip
    return done.proposal.id


def test_proposal_adopt_removing_a_nested_bound_section_refused(tmp_path: Path) -> None:
    root = _book(tmp_path)
    pid = agent_proposal(root, "book.md#Book/A", "## A\n\nA, shorter.\n\n")
    before = _state(root)
    got = forest(root, "proposal", "adopt", pid, "--words", "take it", "--as", BY)
    assert got.exit_code == 1, got.output
    (line,) = got.stderr.splitlines()
    assert line.startswith(
        f"forest: proposal {pid}: its text, written into book.md#Book/A, would "
        "remove book.md#Book/A/A.1"
    )
    assert "(line 7)" in line and f"`forest proposal discard {pid}`" in line
    assert "`forest retire 'book.md#Book/A/A.1' --words '…'`" in line
    assert _state(root) == before
    with ProposalStore(root) as kept:
        assert kept.get(pid).status == "open"
    retire = line.split("retire it first (`", 1)[1].split("`", 1)[0]
    done = pasted(root, retire.replace("'…'", "'A.1 goes'") + f" --as '{BY}'")
    assert done.returncode == 0, done.stderr
    ok(root, "proposal", "adopt", pid, "--words", "take it", "--as", BY)  # as the line says
    assert "A.1" not in (root / "book.md").read_text(encoding="utf-8")


def test_proposal_adopt_keeping_the_nested_bound_section_accepted(tmp_path: Path) -> None:
    root = _book(tmp_path)
    text = "## A\n\nA, shorter.\n\n### A.1\n\nA.1 text.\n\n"
    pid = agent_proposal(root, "book.md#Book/A", text)
    ok(root, "proposal", "adopt", pid, "--words", "take it", "--as", BY)
    assert (root / "book.md").read_text(encoding="utf-8") == BOOK.replace("A text.", "A, shorter.")

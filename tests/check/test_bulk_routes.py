"""Bulk routes: many targets, files and globs in one supersede or restore; a bulk
supersede listed and confirmed (law 4 per target); adopt --skip-bound."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import forest_files.doors.cli  # noqa: F401  (registers every command)
from forest_files.custody.bindings import all_bindings
from forest_files.custody.lookup import find_binding
from forest_files.custody.record import supersede_sections
from forest_files.custody.repository import Repository
from forest_files.custody.targets import read_section
from forest_files.kernel.errors import ForestError
from forest_files.kernel.hashing import hash_body
from tests.helpers.cli import forest, kinds, ok
from tests.helpers.git import commit_all, make_repo, write
from tests.helpers.state import shared_state
from tests.helpers.template import reused

WORDS = "Adopted as the canon stands"
SENTINEL = "QUOKKA-SENTINEL-4411"
NESTED = f"# Canon\n\nIntro.\n\n## Rules\n\nThe frist rule: {SENTINEL}.\n\n## Other\n\nx\n"


def segments(repo: Path) -> list[str]:
    return sorted(p.name for p in (repo / ".forest" / "ledger" / "segments").iterdir())


def _build_nested(tmp_path: Path) -> Path:
    root = make_repo(tmp_path)
    ok(root, "init")
    write(root, "canon.md", NESTED)
    write(root, "other.md", "# Elsewhere\n\nfine\n")
    commit_all(root, "init")
    ok(root, "adopt", "canon.md", "canon.md#Canon", "canon.md#Rules", "other.md", "--words", WORDS)
    commit_all(root, "adopt")
    return root


@pytest.fixture
def nested(tmp_path: Path) -> Path:
    """canon.md bound three times: the file, its H1, and the H2 inside it."""
    # A private copy of one built once per worker process (template.reused).
    return reused((__name__, "nested"), tmp_path / "repo", _build_nested)


def _typo(root: Path) -> None:
    path = root / "canon.md"
    path.write_text(path.read_text().replace("frist", "first"))


def test_nested_typo_superseded_in_one_command_one_segment_accepted(nested: Path) -> None:
    _typo(nested)
    assert kinds(nested) == ["drifted", "drifted", "drifted", "clean"]
    before = segments(nested)
    result = ok(nested, "supersede", "canon.md", "--words", "Typo fixed", "--yes")
    assert len(segments(nested)) == len(before) + 1
    assert kinds(nested) == ["clean", "clean", "clean", "clean"]
    listing = [line for line in result.stdout.splitlines() if line.startswith("  ")]
    assert len(listing) == 3
    shape = r"  canon\.md\S* lines \d+-\d+ new [0-9a-f]{12} \+1 \u22121 lines"
    for line in listing:  # selector, line range, 12-hex hash, one-line change summary
        assert re.fullmatch(shape, line), line
    assert SENTINEL not in result.stdout + result.stderr
    assert "3 in one segment" in result.stdout
    assert "Typo fixed" in ok(nested, "log", "canon.md#Rules").stdout


def test_bulk_supersede_off_terminal_without_yes_refused(nested: Path) -> None:
    _typo(nested)
    before = segments(nested)
    result = forest(nested, "supersede", "canon.md", "--words", "Typo fixed")
    assert result.exit_code == 1
    assert result.stderr.startswith("forest: ") and "--yes" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert segments(nested) == before
    assert SENTINEL not in result.stdout + result.stderr


def test_one_target_supersede_needs_no_yes_accepted(nested: Path) -> None:
    path = nested / "other.md"
    path.write_text("# Elsewhere\n\nbetter\n")
    ok(nested, "supersede", "other.md", "--words", "Amended")
    assert kinds(nested)[-1] == "clean"


def test_bulk_supersede_glob_many_files_accepted(nested: Path) -> None:
    _typo(nested)
    (nested / "other.md").write_text("# Elsewhere\n\nbetter\n")
    ok(nested, "supersede", "*.md", "--words", "Both amended", "--yes")
    assert set(kinds(nested)) == {"clean"}


def test_supersede_shown_hash_changed_before_recording_refused(nested: Path) -> None:
    """Law 4 per target: the act records the hash that was listed, or nothing."""
    _typo(nested)
    with Repository(nested) as r:
        bindings = all_bindings(r.synced())
        items = []
        for target in ("canon.md#Rules", "other.md"):
            b = find_binding(bindings, target)
            items.append((b, read_section(nested, b.selector, (), max_bytes=1 << 20)))
        listed = [(b, s, hash_body(s.text)) for b, s in items]
        stale = [listed[0], (listed[1][0], listed[1][1], hash_body("what was shown"))]
        before = segments(nested)
        with pytest.raises(ForestError, match="changed since it was shown"):
            supersede_sections(r, stale, words="Typo fixed", by="t <t@example.org>")
    assert segments(nested) == before


def test_supersede_all_clean_targets_refused(nested: Path) -> None:
    result = forest(nested, "supersede", "canon.md", "--words", "nothing")
    assert result.exit_code == 1 and "nothing to supersede" in result.stderr


# --- restore -----------------------------------------------------------------------------


def test_restore_clean_section_no_op_accepted(nested: Path) -> None:
    path = nested / "canon.md"
    before = path.stat().st_mtime_ns
    result = ok(nested, "restore", "canon.md#Rules")
    assert "already holds its ground; nothing changed" in result.stdout
    assert path.stat().st_mtime_ns == before
    assert not (shared_state(nested) / "captures").exists()


def test_restore_file_path_restores_every_nested_binding_accepted(nested: Path) -> None:
    _typo(nested)
    result = ok(nested, "restore", "canon.md")
    assert result.stdout.splitlines()[0].startswith("restored canon.md;")
    assert "nothing changed" in result.stdout  # the H1 and H2 are ground once the file is
    assert kinds(nested) == ["clean", "clean", "clean", "clean"]
    assert (nested / "canon.md").read_text() == NESTED


def test_restore_many_one_target_unrestorable_nothing_written_refused(nested: Path) -> None:
    """All or nothing: the second target's file is now a directory, so the first
    target's file keeps its edit and no capture is written."""
    _typo(nested)
    edited = (nested / "canon.md").read_bytes()
    (nested / "other.md").unlink()
    (nested / "other.md").mkdir()
    (nested / "other.md" / "inside.txt").write_text("not a file binding\n")
    result = forest(nested, "restore", "canon.md#Rules", "other.md")
    assert result.exit_code == 1, result.output
    assert "other.md" in result.stderr and "nothing was written" in result.stderr
    assert (nested / "canon.md").read_bytes() == edited
    assert not (shared_state(nested) / "captures").exists()


# --- adopt --skip-bound ------------------------------------------------------------------


def test_adopt_skip_bound_takes_in_only_new_files_accepted(tmp_path: Path) -> None:
    root = make_repo(tmp_path)
    ok(root, "init")
    write(root, "doc/adr/0001-a.md", "# 1. A\n\nDate: 2024-01-01\n")
    commit_all(root, "init")
    ok(root, "adopt", "doc/adr/*.md", "--words", "Accepted ADRs")
    write(root, "doc/adr/0002-b.md", "# 2. B\n\nDate: 2024-02-01\n")
    before = segments(root)
    refused = forest(root, "adopt", "doc/adr/*.md", "--words", "Accepted ADRs")
    assert refused.exit_code == 1 and refused.stderr.count("\n") == 1, refused.stderr
    said = refused.stderr  # a bulk adoption: the fix names --skip-bound, not only supersede
    assert "1 of the 2 sections named is already bound (doc/adr/0001-a.md)" in said, said
    assert "add --skip-bound to adopt only the others" in said, said
    assert "`forest supersede doc/adr/0001-a.md --words '…'`" in said, said
    assert segments(root) == before  # nothing adopted
    result = ok(root, "adopt", "doc/adr/*.md", "--words", "Accepted ADRs", "--skip-bound")
    assert "bound doc/adr/0002-b.md" in result.stdout
    assert "skipped 1 target(s) already bound" in result.stdout
    every = forest(root, "adopt", "doc/adr/*.md", "--words", "Accepted ADRs")
    assert every.exit_code == 1, every.stdout  # none left to take in: no --skip-bound named
    assert "all 2 sections named are already bound (doc/adr/0001-a.md, …)" in every.stderr
    assert "--skip-bound" not in every.stderr, every.stderr
    assert kinds(root) == ["clean", "clean"]
    before = segments(root)
    again = ok(root, "adopt", "doc/adr/*.md", "--words", "Accepted ADRs", "--skip-bound")
    assert "skipped 2" in again.stdout and "nothing new to adopt" in again.stdout
    assert segments(root) == before


def test_bulk_supersede_reads_git_facts_once_per_pass_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Superseding many files gathered the repository's facts (submodules, filters,
    attributes: four git calls) once per target, twice over (the listing and the
    read after the question): 3,000 targets took four minutes. Once per pass now,
    whatever the count; every target is still checked against them."""
    from forest_files.custody.target_refusals import RepoFacts

    root = make_repo(tmp_path)
    ok(root, "init")
    for n in range(12):
        write(root, f"docs/d{n:02}.md", f"# D{n}\n\nwords {n}\n")
    commit_all(root, "docs")
    ok(root, "adopt", "docs/*.md", "--words", WORDS)
    commit_all(root, "adopt")
    for n in range(12):
        write(root, f"docs/d{n:02}.md", f"# D{n}\n\nwords {n}, changed\n")
    gathered: list[int] = []
    real = RepoFacts.gather

    def counting(root: Path, paths: list[str], **kw: bool) -> RepoFacts:
        gathered.append(len(paths))
        return real(root, paths, **kw)

    monkeypatch.setattr(RepoFacts, "gather", counting)
    ok(root, "supersede", "docs/*.md", "--yes", "--words", "all changed")
    assert gathered == [12, 12], gathered
    assert kinds(root) == ["clean"] * 12

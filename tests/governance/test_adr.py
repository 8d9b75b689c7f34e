"""ADRs read from real MADR and Nygard files (examples/adr-gate) and their custody:
the listing (governance/adr.py) and the decision log from the ledger (adr_log.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from forest_files.custody.config import new_config
from forest_files.custody.repository import Repository
from forest_files.governance.adr import AdrRefused, adr_set, list_adrs, read_adr
from forest_files.governance.adr_log import decision_log
from tests.helpers.cli import ok
from tests.helpers.git import commit_all, make_repo, write

ADRS = Path(__file__).resolve().parents[2] / "examples" / "adr-gate" / "docs" / "adr"
NYGARD_SUPERSEDED = """# 7. Use flat files

Date: 2022-01-01

## Status

Superseded by [9. Use SQLite](0009-use-sqlite.md)

## Context

x
"""


def test_read_adr_madr_and_nygard_accepted() -> None:
    nygard = ADRS / "0001-record-architecture-decisions.md"
    assert read_adr(nygard.name, nygard.read_bytes()) == (
        1, "Record architecture decisions", "Accepted", (),
    )  # fmt: skip
    madr = ADRS / "0004-keep-the-index-in-the-git-directory.md"
    assert read_adr(madr.name, madr.read_bytes()) == (
        4, "Keep the local index in the git directory", "proposed", (),
    )  # fmt: skip


@pytest.mark.parametrize(
    ("status", "successor"),
    [
        ('"superseded by [ADR-0004](0004-keep-the-index-in-the-git-directory.md)"', ("4",)),
        ("Superseded by ADR-12", ("12",)),
        ("superseded by the storage decision", ("the storage decision",)),
        ("accepted", ()),
        # adr-tools' own spelling, which `adr new -s N` writes into the old ADR
        ("Superceded by [10. Use plugins](0010-use-plugins.md)", ("10",)),
        ("superceded by: the storage decision", ("the storage decision",)),
    ],
)
def test_read_adr_superseded_by_accepted(status: str, successor: tuple[str, ...]) -> None:
    text = f"---\nstatus: {status}\n---\n# Keep X\n"
    assert read_adr("docs/adr/0003-keep-x.md", text.encode())[3] == successor


def test_read_adr_nygard_superseded_section_accepted() -> None:
    got = read_adr("0007-use-flat-files.md", NYGARD_SUPERSEDED.encode())
    assert got == (7, "Use flat files", "Superseded by [9. Use SQLite](0009-use-sqlite.md)", ("9",))


def test_read_adr_superseded_twice_names_both_accepted() -> None:
    """adr-tools' ``adr new -s 3`` run twice (ADR 3 split into two decisions) leaves
    two "Superceded by" lines in ADR 3's Status: both successors, in order. Before,
    only the first was named and ADR 6 was lost from ``forest adr list``."""
    text = (
        "# 3. Use one queue\n\n## Status\n\n"
        "Superceded by [5. Use a queue per tenant](0005-use-a-queue-per-tenant.md)\n\n"
        "Superceded by [6. Use a dead-letter queue](0006-use-a-dead-letter-queue.md)\n\n"
        "## Context\n\nx\n"
    )
    got = read_adr("doc/adr/0003-use-one-queue.md", text.encode())
    assert got[3] == ("5", "6")


@pytest.mark.parametrize(
    "data",
    [
        b"\xff\xfe not text",
        b"",
        b"---\nstatus: a\nstatus: b\n---\n",  # key twice: no status judged, no crash
        b"```\n## Status\n```\nAccepted\n",  # a fenced "Status" is no section
    ],
)
def test_read_adr_hostile_file_no_status_recovers(data: bytes) -> None:
    number, _, status, successor = read_adr("docs/adr/0005-x.md", data)
    assert (number, status, successor) == (5, None, ())


def test_adr_set_without_adr_rules_refused() -> None:
    with pytest.raises(AdrRefused) as info:
        adr_set(new_config("p"), [])
    assert "forest adr list 'docs/adr/*.md'" in str(info.value)


def test_adr_set_bad_glob_refused() -> None:
    with pytest.raises(AdrRefused):
        adr_set(new_config("p"), ["docs/{a,b}/*.md"])


def _repo(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path)
    ok(repo, "init")
    for f in ADRS.iterdir():
        write(repo, f"docs/adr/{f.name}", f.read_text())
    write(repo, "docs/adr/template.md", "---\nstatus: proposed\n---\n# Title\n")
    write(repo, "notes.md", "# Not an ADR\n")
    with (repo / "forest.toml").open("a") as fh:
        fh.write(
            '\n[require]\n"docs/adr/*.md" = { bind = "file", when = { status = "accepted" }, '
            'except = ["docs/adr/template.md"] }\n"notes.md" = "file"\n'
        )
    commit_all(repo, "start")
    return repo


def test_list_and_log_follow_custody_accepted(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    adr2 = "docs/adr/0002-use-madr-for-new-decisions.md"
    ok(repo, "adopt", adr2, "--exclude", "meta:status", "--words", "Accepted in October")
    path = repo / adr2
    path.write_text(path.read_text().replace("keep their format", "keep their format too"))
    ok(repo, "supersede", adr2, "--words", "Amended wording")
    ok(repo, "adopt", "notes.md", "--words", "Notes")
    moved = "docs/adr/0002-use-madr.md"
    (repo / adr2).rename(repo / moved)  # a move into and out of the ADR globs: both kept
    ok(repo, "rebind", adr2, moved, "--words", "Renamed")
    (repo / moved).rename(repo / "old-adr.md")
    ok(repo, "rebind", moved, "old-adr.md")
    (repo / "old-adr.md").rename(repo / adr2)
    ok(repo, "rebind", "old-adr.md", adr2)
    with Repository(repo) as r:
        found = list_adrs(r, adr_set(r.config, []))
        log = decision_log(r, adr_set(r.config, []))
    assert [a.number for a in found] == [1, 2, 3, 4]  # the template excepted, notes.md not an ADR
    two = found[1]
    assert (two.bound, two.status, two.selector) == (True, "accepted", adr2)
    assert two.adopted_by is not None and two.adopted_at is not None
    assert two.ground is not None and len(two.ground) == 64
    assert not found[0].bound and found[0].ground is None
    assert [(d.event, d.path, d.words) for d in log] == [
        ("adopted", adr2, "Accepted in October"),
        ("amended", adr2, "Amended wording"),
        ("moved", adr2, ""),  # the same text: no new words
        ("moved", "docs/adr/0002-use-madr.md", ""),
        ("moved", "old-adr.md", ""),
    ]
    assert [d.moved_to for d in log[2:]] == ["docs/adr/0002-use-madr.md", "old-adr.md", adr2]
    assert log[1].ground == two.ground  # the amendment is the ground listed


def test_log_after_directory_move_keeps_each_decision_history_accepted(tmp_path: Path) -> None:
    """The ADR directory renamed (every binding rebound): the log under the new glob
    still starts at each adoption, and under the old glob still sees later acts."""
    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(repo, "doc/adr/0001-one.md", "# 1. One\n\n## Status\n\nAccepted\n\n## Decision\n\nx\n")
    commit_all(repo, "start")
    ok(repo, "adopt", "doc/adr/0001-one.md", "--exclude", "#Status", "--words", "Accepted")
    (repo / "docs").mkdir()
    (repo / "doc/adr").rename(repo / "docs/decisions")
    new = "docs/decisions/0001-one.md"
    ok(repo, "rebind", "doc/adr/0001-one.md", new)
    write(repo, new, (repo / new).read_text().replace("x\n", "y\n"))
    ok(repo, "supersede", new, "--words", "Amended after the move")
    with Repository(repo) as r:
        after = decision_log(r, adr_set(r.config, ["docs/decisions/*.md"]))
        before = decision_log(r, adr_set(r.config, ["doc/adr/*.md"]))
    expected = [
        ("adopted", "doc/adr/0001-one.md", "Accepted"),
        ("moved", "doc/adr/0001-one.md", ""),
        ("amended", new, "Amended after the move"),
    ]
    assert [(d.event, d.path, d.words) for d in after] == expected
    assert [(d.event, d.path, d.words) for d in before] == expected

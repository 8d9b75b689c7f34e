"""Bulk-adoption target selection (check/adopt_select.py): ``--where`` uses the one
front-matter matcher of ``[require] when``; ``--headings`` reads the Markdown outline."""

from __future__ import annotations

from pathlib import Path

import pytest

from forest_files.check.adopt_select import (
    AdoptSelectRefused,
    heading_targets,
    parse_where,
    where_filter,
)
from forest_files.check.front_matter import when_holds
from forest_files.custody.config import RequireRule
from forest_files.custody.target_refusals import TargetRefused
from tests.helpers.git import make_repo, write

ADRS = Path(__file__).resolve().parents[2] / "examples" / "adr-gate" / "docs" / "adr"
LIMIT = 1 << 20


def madr(status: str) -> str:
    return f"---\nstatus: {status}\ndate: 2024-01-02\n---\n# Use X\n\n## Context\n\nWhy.\n"


@pytest.mark.parametrize(
    "item",
    ["status", "=accepted", "sta tus=accepted", "status=", "status=a,,b", "st\x01=a", "s=\x07"],
)
def test_parse_where_bad_syntax_refused(item: str) -> None:
    with pytest.raises(AdoptSelectRefused) as info:
        parse_where([item])
    assert "\n" not in str(info.value)
    assert "--where" in str(info.value)


def test_parse_where_and_of_keys_one_of_values_accepted() -> None:
    got = parse_where(["status=accepted, final", "team=core"])
    assert got == (("status", ("accepted", "final")), ("team", ("core",)))


def test_parse_where_too_many_keys_refused() -> None:
    with pytest.raises(AdoptSelectRefused):
        parse_where([f"k{n}=v" for n in range(17)])


def test_when_holds_is_require_when_matching_accepted(tmp_path: Path) -> None:
    from forest_files.check.coverage import unbound

    data = madr("Accepted").encode()
    when = (("status", ("accepted",)),)
    assert when_holds("a.md", data, when) is True  # case-insensitive, as [require] when
    assert when_holds("a.md", madr("proposed").encode(), when) is False
    assert when_holds("a.md", b"# no front matter\n", when) is False
    twice = b"---\nstatus: accepted\nstatus: proposed\n---\n# X\n"
    assert when_holds("a.md", twice, when) is None
    # [require] holds the unjudgeable file to its rule (fail closed): the same matcher
    rule = RequireRule("*.md", "file", when=when)
    found = unbound([rule], ["a.md"], lambda _: twice, [])
    assert [f.selector for f in found] == ["a.md"]


def test_where_filter_keeps_accepted_adrs_accepted(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    for f in ADRS.iterdir():
        write(repo, f"docs/adr/{f.name}", f.read_text())
    specs = [f"docs/adr/{f.name}" for f in sorted(ADRS.iterdir())]
    kept, left = where_filter(repo, specs, parse_where(["status=accepted"]), max_bytes=LIMIT)
    assert [s.rsplit("/", 1)[1][:4] for s in kept] == ["0002", "0003"]
    # Nygard's 0001 has no front matter; 0004 is proposed
    assert [p.rsplit("/", 1)[1][:4] for p in left] == ["0001", "0004"]


def test_where_filter_key_given_twice_refused(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    write(repo, "a.md", "---\nstatus: proposed\nstatus: accepted\n---\n# A\n")
    with pytest.raises(AdoptSelectRefused) as info:
        where_filter(repo, ["a.md"], parse_where(["status=accepted"]), max_bytes=LIMIT)
    assert "a.md" in str(info.value) and "twice" in str(info.value)


def test_where_filter_symlink_target_refused(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    write(repo, "real.md", madr("accepted"))
    (repo / "link.md").symlink_to("real.md")
    with pytest.raises(TargetRefused):
        where_filter(repo, ["link.md"], parse_where(["status=accepted"]), max_bytes=LIMIT)


CANON = """---
title: canon   # a comment, not a heading
---
# Canon

```
# not a heading (in a fence)
```

## People

### Elias

### Mara

## Places

### Elias

> # quoted, not a heading
"""


def test_heading_targets_every_heading_from_the_outline_accepted(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    write(repo, "canon.md", CANON)
    got = heading_targets(repo, ["canon.md"], None, max_bytes=LIMIT)
    assert got == [
        "canon.md#Canon",
        "canon.md#Canon/People",
        "canon.md#Canon/People/Elias",
        "canon.md#Canon/People/Mara",
        "canon.md#Canon/Places",
        "canon.md#Canon/Places/Elias",
    ]
    level3 = heading_targets(repo, ["canon.md", "canon.md"], 3, max_bytes=LIMIT)
    assert level3 == [g for g in got if g.count("/") == 2]


def test_heading_targets_repeated_full_path_indexed_accepted(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    write(repo, "log.md", "# Log\n\n## Entry\n\na\n\n## Entry\n\nb\n")
    got = heading_targets(repo, ["log.md"], 2, max_bytes=LIMIT)
    assert got == ["log.md#Log/Entry[1]", "log.md#Log/Entry[2]"]


@pytest.mark.parametrize(
    ("spec", "level", "why"),
    [
        ("canon.md#Canon", None, "takes files"),
        ("canon.md", 7, "1 to 6"),
        ("canon.md", 5, "no level-5 heading"),
        ("plain.md", None, "no heading"),
    ],
)
def test_heading_targets_bad_request_refused(
    tmp_path: Path, spec: str, level: int | None, why: str
) -> None:
    repo = make_repo(tmp_path)
    write(repo, "canon.md", CANON)
    write(repo, "plain.md", "just text\n# in a paragraph? no: this is a heading line\n"[:10])
    with pytest.raises(AdoptSelectRefused) as info:
        heading_targets(repo, [spec], level, max_bytes=LIMIT)
    assert why in str(info.value)


NYGARD = "# 2. Use shell\n\n## Status\n\nAccepted\n\n### History\n\nold\n\n## Decision\n\nShell.\n"


@pytest.mark.parametrize(
    ("excludes", "defaults"),
    [(["#Status"], None), (["#2. Use shell/Status"], None), ([], ("meta:x", "#Status"))],
)
def test_heading_targets_excluded_heading_not_bound_refused(
    tmp_path: Path, excludes: list[str], defaults: tuple[str, ...] | None
) -> None:
    """``--headings --exclude '#Status'`` (or a ``[bind]`` default) bound the Status
    section on its own, so a status change the exclusion was for drifted it."""
    repo = make_repo(tmp_path)
    write(repo, "0002-shell.md", NYGARD)
    got = heading_targets(
        repo,
        ["0002-shell.md"],
        None,
        max_bytes=LIMIT,
        excludes=excludes,
        defaults=None if defaults is None else lambda _path: defaults,
    )
    assert got == ["0002-shell.md#2. Use shell", "0002-shell.md#2. Use shell/Decision"]


def test_heading_targets_indexed_exclusion_leaves_only_that_one_accepted(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    write(repo, "log.md", "# Log\n\n## Entry\n\na\n\n## Entry\n\nb\n")
    got = heading_targets(repo, ["log.md"], 2, max_bytes=LIMIT, excludes=["#Entry[2]"])
    assert got == ["log.md#Log/Entry[1]"]


def test_heading_targets_heading_with_its_own_id_named_by_it_accepted(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    text = (
        "# Book\n\n## Status { #status }\n\na\n\n"
        '## <a id="cast"></a>Cast\n\nb\n\n'
        "## One {#twice}\n\nc\n\n## Two {#twice}\n\nd\n"
    )
    write(repo, "book.md", text)
    got = heading_targets(repo, ["book.md"], None, max_bytes=LIMIT)
    # an id two headings carry names neither (it was recorded as a path before)
    assert got == [
        "book.md#Book",
        "book.md#{status}",
        "book.md#{cast}",
        "book.md#Book/One",
        "book.md#Book/Two",
    ]

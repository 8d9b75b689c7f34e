"""extract(): whole-file and section text, exclusions, hashes, real MADR decisions, big files."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from forest_files.text.exclude import MAX_EXCLUSIONS, ExcludeError, parse_exclusion
from forest_files.text.extract import HASH_ALGO, NORMALISATION, extract, section_hash
from forest_files.text.normalise import decode_bytes
from forest_files.text.selector import Selector, parse_selector
from forest_files.text.selector_errors import AmbiguousSelector, SectionNotFound, SelectorError

CORPUS = Path(__file__).resolve().parents[1] / "data" / "madr-decisions"
WHOLE = Selector("adr.md")


def test_constants_declared() -> None:
    assert (HASH_ALGO, NORMALISATION) == ("sha256", "utf8-nobom-lf")
    assert section_hash("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"


def test_whole_file_exact_accepted() -> None:
    out = extract("a\nb", WHOLE, ())
    assert (out.text, out.start_line, out.end_line, out.excludes_matched) == ("a\nb", 1, 2, ())
    empty = extract("", WHOLE, ())
    assert (empty.text, empty.start_line, empty.end_line) == ("", 1, 0)


def test_extract_crlf_and_bom_same_hash_accepted() -> None:
    sel = parse_selector("a.md#Decision")
    a = extract("# T\n## Decision\nYes.\n## Next\n", sel, ())
    b = extract("\ufeff# T\r\n## Decision\r\nYes.\r\n## Next\r\n", sel, ())
    assert a.text == b.text == "## Decision\nYes.\n"
    assert section_hash(a.text) == section_hash(b.text)


def test_body_not_scrubbed_accepted() -> None:
    body = "token=sk-live-THIS-LOOKS-SECRET  \t\n\n\x0c  trailing spaces   \n"
    assert extract(body, WHOLE, ()).text == body


# --- exclusion grammar -------------------------------------------------------


@pytest.mark.parametrize("text", ["#Status", "#Decision/Status[2]", r"#A\/B", "meta:status"])
def test_exclusion_round_trip_accepted(text: str) -> None:
    assert str(parse_exclusion(text)) == text


@pytest.mark.parametrize("text", ["Status", "#", "meta:", "meta: x", "meta:a:b", "#A//B", "x:y"])
def test_exclusion_bad_syntax_refused(text: str) -> None:
    with pytest.raises(SelectorError, match=r"exclusion|heading"):
        parse_exclusion(text)


def test_exclusion_duplicate_refused() -> None:
    with pytest.raises(ExcludeError, match="twice"):
        extract("x\n", WHOLE, ("#Status", "#Status"))


def test_exclusion_limit_at_n_accepted_n_plus_one_refused() -> None:
    many = tuple(f"meta:k{i}" for i in range(MAX_EXCLUSIONS))
    assert extract("x\n", WHOLE, many).excludes_matched == ()
    with pytest.raises(ExcludeError, match="at most"):
        extract("x\n", WHOLE, (*many, "meta:extra"))


def test_exclusion_on_symbol_refused() -> None:
    with pytest.raises(ExcludeError, match="Python symbol"):
        extract("def f():\n    pass\n", parse_selector("a.py::f"), ("#Status",))


# --- exclusion behaviour -----------------------------------------------------

NYGARD = """\
# 3. Use PostgreSQL

Date: 2024-01-01

## Status

Accepted

## Context

We need a database.

## Decision

We will use PostgreSQL.

### Status

Nested status note.

## Consequences

Backups matter.
"""


def test_exclusion_heading_in_whole_file_ambiguous_refused() -> None:
    with pytest.raises(AmbiguousSelector) as info:
        extract(NYGARD, WHOLE, ("#Status",))
    assert info.value.candidates == (
        "#3. Use PostgreSQL/Status",
        "#3. Use PostgreSQL/Decision/Status",
    )


def test_exclusion_status_section_removed_accepted() -> None:
    excl = ("#3. Use PostgreSQL/Status",)
    out = extract(NYGARD, WHOLE, excl)
    assert out.excludes_matched == excl
    assert "Accepted" not in out.text
    assert "## Context\n\nWe need a database." in out.text
    assert "Nested status note." in out.text
    changed = NYGARD.replace("Accepted", "Superseded by [5. Use SQLite](0005-sqlite.md)")
    assert section_hash(extract(changed, WHOLE, excl).text) == section_hash(out.text)
    edited = NYGARD.replace("We will use PostgreSQL.", "We will use MySQL.")
    assert section_hash(extract(edited, WHOLE, excl).text) != section_hash(out.text)


def test_exclusion_subheading_of_bound_section_accepted() -> None:
    out = extract(NYGARD, parse_selector("adr.md#Decision"), ("#Status",))
    assert out.text == "## Decision\n\nWe will use PostgreSQL.\n\n"
    assert out.excludes_matched == ("#Status",)
    assert (out.start_line, out.end_line) == (13, 20)


def test_exclusion_matching_nothing_recorded_not_error_accepted() -> None:
    out = extract(NYGARD, parse_selector("adr.md#Context"), ("#Status", "meta:status"))
    assert out.excludes_matched == ()
    assert out.text == "## Context\n\nWe need a database.\n\n"


def test_exclusion_renamed_status_heading_counts_as_drift_detected() -> None:
    excl = ("#3. Use PostgreSQL/Status",)
    before = extract(NYGARD, WHOLE, excl)
    renamed = NYGARD.replace("## Status\n", "## State\n", 1)
    after = extract(renamed, WHOLE, excl)
    assert after.excludes_matched == ()
    assert section_hash(after.text) != section_hash(before.text)


FRONT = """\
---
title: Use PostgreSQL
status: accepted
deciders:
  - ana
  - bo

tags:
- db

- storage
date: 2024-01-01
---
# Use PostgreSQL

status: this line is body text, not front matter
"""


def test_exclusion_meta_key_removed_with_continuation_accepted() -> None:
    out = extract(FRONT, WHOLE, ("meta:status", "meta:deciders", "meta:tags"))
    assert out.excludes_matched == ("meta:status", "meta:deciders", "meta:tags")
    assert out.text == (
        "---\ntitle: Use PostgreSQL\n\ndate: 2024-01-01\n---\n# Use PostgreSQL\n\n"
        "status: this line is body text, not front matter\n"
    )


def test_exclusion_meta_quoted_key_accepted() -> None:
    text = '---\n"status": accepted\nx: 1\n---\nbody\n'
    assert extract(text, WHOLE, ("meta:status",)).text == "---\nx: 1\n---\nbody\n"


def test_exclusion_meta_duplicate_key_refused() -> None:
    text = "---\nstatus: a\nstatus: b\n---\nbody\n"
    with pytest.raises(AmbiguousSelector, match="appears 2 times"):
        extract(text, WHOLE, ("meta:status",))


def test_exclusion_meta_without_front_matter_unmatched_accepted() -> None:
    text = "status: accepted\n\n# T\n"
    out = extract(text, WHOLE, ("meta:status",))
    assert (out.text, out.excludes_matched) == (text, ())


def test_exclusion_in_region_accepted() -> None:
    text = "<!-- forest:begin d -->\n## D\nkeep\n### Status\ndrop\n<!-- forest:end d -->\n# After\n"
    out = extract(text, parse_selector("a.md@d"), ("#Status",))
    assert out.text == "## D\nkeep\n"


# --- real MADR decisions -----------------------------------------------------


def _adrs(tmp_path: Path) -> list[Path]:
    for src in CORPUS.glob("*.md"):
        shutil.copy(src, tmp_path / src.name)
    found = sorted(tmp_path.glob("00[0-9][0-9]-*.md"))
    assert len(found) >= 19
    return found


def _hash(path: Path, text: str, excludes: tuple[str, ...]) -> str:
    return section_hash(extract(text, Selector(path.name), excludes).text)


def _with_status(text: str, value: str) -> str:
    """Set front-matter ``status`` (replacing or inserting it after the opening ---)."""
    if re.search(r"^status:.*$", text.split("\n---", 1)[0], re.M):
        return re.sub(r"^status:.*$", f"status: {value}", text, count=1, flags=re.M)
    return text.replace("---\n", f"---\nstatus: {value}\n", 1)


def test_madr_status_change_hash_unchanged_accepted(tmp_path: Path) -> None:
    excludes = ("meta:status",)
    for path in _adrs(tmp_path):
        original = decode_bytes(path.read_bytes(), path.name)
        assert original.startswith("---\n"), path.name
        base = _hash(path, original, excludes)
        for value in ("accepted", "superseded by [ADR-0005](0005-example.md)"):
            path.write_text(_with_status(original, value), encoding="utf-8")
            changed = decode_bytes(path.read_bytes(), path.name)
            assert changed != original
            assert _hash(path, changed, excludes) == base, path.name
            assert extract(changed, Selector(path.name), excludes).excludes_matched == excludes


def test_madr_decision_text_change_detected(tmp_path: Path) -> None:
    excludes = ("meta:status",)
    for path in _adrs(tmp_path):
        original = decode_bytes(path.read_bytes(), path.name)
        decision = extract(original, Selector(path.name, "heading", ("Decision Outcome",)), ())
        line = next(ln for ln in decision.text.split("\n")[1:] if ln.strip())
        edited = original.replace(line, line + " Unless it rains.", 1)
        assert _hash(path, edited, excludes) != _hash(path, original, excludes), path.name


def test_madr_existing_status_value_change_accepted(tmp_path: Path) -> None:
    path = next(p for p in _adrs(tmp_path) if p.name.startswith("0003-"))
    original = path.read_text(encoding="utf-8")
    assert "status: on hold" in original
    changed = original.replace("status: on hold", "status: accepted")
    assert _hash(path, original, ("meta:status",)) == _hash(path, changed, ("meta:status",))
    assert _hash(path, original, ()) != _hash(path, changed, ())


def test_madr_crlf_checkout_same_hash_accepted(tmp_path: Path) -> None:
    for path in _adrs(tmp_path):
        raw = path.read_bytes()
        crlf = raw.replace(b"\n", b"\r\n")
        assert _hash(path, decode_bytes(raw, path.name), ()) == _hash(
            path, decode_bytes(crlf, path.name), ()
        )


def test_madr_consequences_excluded_from_decision_outcome_accepted(tmp_path: Path) -> None:
    path = next(p for p in _adrs(tmp_path) if p.name.startswith("0004-"))
    text = path.read_text(encoding="utf-8")
    sel = Selector(path.name, "heading", ("Decision Outcome",))
    out = extract(text, sel, ("#Consequences",))
    assert out.excludes_matched == ("#Consequences",)
    assert "### Consequences" not in out.text
    assert out.selector.parts[-1] == "Decision Outcome"
    assert len(out.selector.parts) == 2  # canonical: the full path from the title
    start = text.index("### Consequences")
    nxt = text.find("\n#", start + 1)
    stop = nxt if nxt >= 0 else len(text)
    consequences = text[start:stop]
    edited = text.replace(consequences, consequences.replace("Good", "Great"), 1)
    assert edited != text
    assert extract(edited, sel, ("#Consequences",)).text == out.text


def test_madr_front_matter_not_headings_accepted(tmp_path: Path) -> None:
    # 'parent: Decisions' over a '---' line would be a setext heading if front
    # matter were parsed as Markdown.
    for path in _adrs(tmp_path):
        text = path.read_text(encoding="utf-8")
        with pytest.raises(SectionNotFound, match="no heading matches"):
            extract(text, Selector(path.name, "heading", ("parent: Decisions nav_order: 0",)), ())


def test_whole_file_path_does_not_import_markdown_parser_accepted() -> None:
    code = (
        "import sys\n"
        "from forest_files.text.extract import extract\n"
        "from forest_files.text.selector import Selector\n"
        "extract('---\\nstatus: x\\n---\\nbody\\n', Selector('a.md'), ('meta:status',))\n"
        "assert 'pyromark' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# --- size --------------------------------------------------------------------


def test_five_megabyte_file_accepted() -> None:
    para = "A paragraph line of ordinary prose, long enough to be realistic here.\n"
    chunk = "## Part {i}\n\n" + para * 20 + "\n"
    parts = []
    size, i = 0, 0
    while size < 5 * 1024 * 1024:
        block = chunk.format(i=i)
        parts.append(block)
        size += len(block)
        i += 1
    text = "<!-- forest:begin big -->\n" + "".join(parts) + "<!-- forest:end big -->\n"
    raw = text.replace("\n", "\r\n").encode()
    t0 = time.perf_counter()
    decoded = decode_bytes(raw, "big.md")
    whole = extract(decoded, Selector("big.md"), ())
    region = extract(decoded, parse_selector("big.md@big"), ())
    section_hash(whole.text)
    fast = time.perf_counter() - t0
    heading = extract(decoded, parse_selector(f"big.md#Part {i - 1}"), ())
    total = time.perf_counter() - t0
    assert whole.text == text
    assert region.text == "".join(parts)
    assert heading.text == chunk.format(i=i - 1) + "<!-- forest:end big -->\n"
    assert fast < 2
    assert total < 15

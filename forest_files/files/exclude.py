"""Exclusions: named sub-parts of a bound section that are left out of its hash.

Two forms, repeatable, recorded with the binding in canonical form:

* ``#Sub`` / ``#Sub/Deeper[n]`` — a heading inside the bound section, matched
  like a heading selector (full path or unique tail, ``[n]`` for the n-th
  match). Its whole section (``markdown.py`` boundaries, clipped to the bound
  range) is removed: heading line, body and trailing blank lines. The bound
  heading itself is never a candidate. Two matches without ``[n]`` are an
  ``AmbiguousSelector`` error, so a second ``Status`` heading cannot quietly
  hide new text.
* ``meta:key`` — a top-level key of the leading YAML front matter (see
  ``markdown.front_matter_end``), when the front matter lies inside the bound
  range (in practice: whole-file bindings). Its line ``key: ...`` and its
  continuation lines (indented lines, ``- item`` lines, and blank lines
  between them) are removed. This is line-based on purpose: the remaining
  bytes stay exactly as written, which a YAML load/dump round trip would not
  keep (comments, quoting, order), and the hook's fast path loads no YAML
  library. A key given twice in the front matter is refused as ambiguous.

An exclusion that matches nothing is not an error; ``extract`` reports which
ones matched and the caller records the rest.

Stores: nothing.
Refuses (``ExcludeError``): other syntax, duplicates, more than
``MAX_EXCLUSIONS``, and any exclusion on a Python-symbol binding.
Returns: ``Exclusion`` values and inclusive line ranges to remove.
Test: tests/test_extract.py
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from forest_files.files.markdown import Heading, front_matter_end, matching
from forest_files.files.normalise import LineIndex
from forest_files.files.selector import (
    AmbiguousSelector,
    SelectorError,
    parse_heading_path,
    pick,
    render_heading_path,
)

MAX_EXCLUSIONS = 64
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f]")
_EXAMPLES = "valid exclusions: '#Status', '#Decision/Status[2]', 'meta:status'"


class ExcludeError(SelectorError):
    """An exclusion is malformed or does not apply to this kind of binding."""


@dataclass(frozen=True)
class Exclusion:
    """One parsed exclusion; ``parts`` for headings, ``key`` for front matter."""

    kind: str  # "heading" | "meta"
    parts: tuple[str, ...] = ()
    index: int | None = None
    key: str = ""

    def __str__(self) -> str:
        if self.kind == "meta":
            return f"meta:{self.key}"
        return "#" + render_heading_path(self.parts, self.index)


def parse_exclusion(text: str) -> Exclusion:
    """Parse ``#Heading/Path[n]`` or ``meta:key``."""
    if text.startswith("meta:"):
        key = text[5:]
        if not key or key != key.strip() or ":" in key or _CONTROL_RE.search(key):
            raise ExcludeError(f"invalid front-matter key in {text!r}; {_EXAMPLES}")
        return Exclusion("meta", key=key)
    if text.startswith("#") and len(text) > 1:
        if _CONTROL_RE.search(text):
            raise ExcludeError(f"exclusion {text!r} contains a control character")
        parts, index = parse_heading_path(text[1:])
        return Exclusion("heading", parts, index)
    raise ExcludeError(f"cannot read exclusion {text!r}; {_EXAMPLES}")


def parse_exclusions(texts: tuple[str, ...]) -> tuple[Exclusion, ...]:
    """Parse every exclusion; refuse too many and duplicates (after canonicalising)."""
    if len(texts) > MAX_EXCLUSIONS:
        raise ExcludeError(f"{len(texts)} exclusions given; at most {MAX_EXCLUSIONS} allowed")
    parsed = tuple(parse_exclusion(t) for t in texts)
    seen: set[str] = set()
    for ex in parsed:
        if str(ex) in seen:
            raise ExcludeError(f"exclusion {str(ex)!r} is given twice")
        seen.add(str(ex))
    return parsed


def heading_range(
    ex: Exclusion, headings: list[Heading], lo: int, hi: int, owner_line: int | None
) -> tuple[int, int] | None:
    """Lines of the heading section ``ex`` names inside ``lo..hi`` (clipped), or None."""
    inside = [h for h in headings if lo <= h.start_line <= hi and h.start_line != owner_line]
    chosen = pick(
        [h.path for h in inside],
        matching(inside, ex.parts),
        ex.index,
        lambda parts, n: "#" + render_heading_path(parts, n),
        f"exclusion {str(ex)!r}",
    )
    if chosen is None:
        return None
    h = inside[chosen[0]]
    return h.start_line, min(h.end_line, hi)


def meta_range(ex: Exclusion, lines: LineIndex, lo: int, hi: int) -> tuple[int, int] | None:
    """Lines of front-matter key ``ex.key`` with its continuation lines, or None."""
    fm_end = front_matter_end(lines)
    if not fm_end or lo > 1 or hi < fm_end:
        return None
    key = re.escape(ex.key)
    key_re = re.compile(rf"""(?:{key}|"{key}"|'{key}')[ \t]*:(?:[ \t]|$)""")
    starts = [n for n in range(2, fm_end) if key_re.match(lines.line(n))]
    if len(starts) > 1:
        raise AmbiguousSelector(
            f"front-matter key {ex.key!r} appears {len(starts)} times "
            f"(lines {', '.join(map(str, starts))}); remove the duplicate",
            [f"line {n}" for n in starts],
        )
    if not starts:
        return None
    end = starts[0]
    for n in range(starts[0] + 1, fm_end):
        line = lines.line(n)
        if not line.strip():
            continue  # a blank line belongs to the key only if more continuation follows
        if line[0] in " \t" or line == "-" or line.startswith("- "):
            end = n
        else:
            break
    return starts[0], end

"""Exclusions: named sub-parts of a bound section that are left out of its hash.

Three forms, repeatable, recorded with the binding in canonical form:

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
* ``line:PREFIX`` — every line of the bound section whose text (normalised:
  LF endings, no BOM) starts with ``PREFIX``, compared literally character
  for character from the line's first character: leading whitespace counts
  (``line:Date:`` does not remove ``  Date: …``; write ``line:  Date:`` for
  that), case counts, and nothing is a pattern — no regular expression, no
  glob — so a prefix from a hostile ledger costs one ``startswith`` per line.
  Only the lines that start with it go; never a continuation line, never the
  line after. The bound section's own heading line is never removed (the
  section would lose the line that names it). ``PREFIX`` must hold a
  non-space character, no control character (a tab included), and at most
  ``MAX_LINE_PREFIX`` characters.

At adoption (``extract(..., strict=True)``) an exclusion that matches nothing
is refused, saying what the section does hold (its headings, the front-matter
keys, or that there is no front matter); a check of an existing binding
accepts it (the excluded part may come and go), and ``extract`` reports which
ones matched.

Stores: nothing.
Refuses (``ExcludeError``): other syntax, duplicates, more than
``MAX_EXCLUSIONS``, a bad ``line:`` prefix, any exclusion on a Python-symbol
binding, and (strict) an exclusion that matches nothing.
Returns: ``Exclusion`` values and inclusive line ranges to remove.
Test: tests/text/test_extract.py, tests/text/test_selector_rules.py
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from forest_files.kernel import bounds
from forest_files.text.markdown import Heading, Peers, front_matter_end, matching
from forest_files.text.normalise import LineIndex
from forest_files.text.selector import parse_heading_path, render_heading_path
from forest_files.text.selector_errors import AmbiguousSelector, SelectorError
from forest_files.text.selector_pick import pick

MAX_EXCLUSIONS = bounds.MAX_EXCLUDES
MAX_LINE_PREFIX = bounds.MAX_LINE_PREFIX  # the ledger's bound too (ledger.kinds)
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f]")
_EXAMPLES = "valid exclusions: '#Status', '#Decision/Status[2]', 'meta:status', 'line:Date:'"


class ExcludeError(SelectorError):
    """An exclusion is malformed or does not apply to this kind of binding."""


@dataclass(frozen=True)
class Exclusion:
    """One parsed exclusion; ``parts`` for headings, ``key`` for front matter."""

    kind: str  # "heading" | "meta" | "line" | "normalise" (normalisers.py: never a cut)
    parts: tuple[str, ...] = ()
    index: int | None = None
    key: str = ""  # the front-matter key, or the line prefix

    def __str__(self) -> str:
        if self.kind in ("meta", "line", "normalise"):
            return f"{self.kind}:{self.key}"
        return "#" + render_heading_path(self.parts, self.index)


def line_prefix_problem(prefix: str) -> str | None:
    """Why ``prefix`` cannot be a ``line:`` exclusion, or None when it can."""
    if not prefix.strip():
        return "needs a prefix with a non-space character (an empty prefix would remove every line)"
    if len(prefix) > MAX_LINE_PREFIX:
        return f"is longer than {MAX_LINE_PREFIX} characters"
    if _CONTROL_RE.search(prefix):
        return "contains a control character (a tab included)"
    return None


def parse_exclusion(text: str) -> Exclusion:
    """Parse ``#Heading/Path[n]``, ``meta:key`` or ``line:PREFIX`` (or the in-memory
    ``normalise:NAME@V`` a declared normalisation rides as: text/normalisers.py)."""
    if text.startswith("normalise:"):
        from forest_files.text.normalisers import canonical

        return Exclusion("normalise", key=canonical(text[10:]))
    if text.startswith("line:"):
        problem = line_prefix_problem(text[5:])
        if problem is not None:
            shown = text if len(text) <= 60 else text[:60] + "…"
            raise ExcludeError(f"line exclusion {shown!r} {problem}; {_EXAMPLES}")
        return Exclusion("line", key=text[5:])
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
    if sum(not t.startswith("normalise:") for t in texts) > MAX_EXCLUSIONS:
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
        lines=[h.start_line for h in inside],
        same=Peers(inside),
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


def line_ranges(
    ex: Exclusion, lines: LineIndex, lo: int, hi: int, owner_line: int | None
) -> list[tuple[int, int]]:
    """Each line of ``lo..hi`` that starts with the literal prefix ``ex.key``
    (one-line ranges), never the bound heading's own line."""
    prefix = ex.key
    return [
        (n, n) for n in range(lo, hi + 1) if n != owner_line and lines.line(n).startswith(prefix)
    ]


def _front_matter_keys(lines: LineIndex, fm_end: int) -> list[str]:
    """Top-level keys of the front matter, read the same line-based way."""
    keys = []
    for n in range(2, fm_end):
        line = lines.line(n)
        if line[:1] in ("", " ", "\t", "-", "#"):
            continue
        key, colon, _ = line.partition(":")
        if colon:
            keys.append(key.strip().strip("'\""))
    return keys


def unmatched(
    ex: Exclusion,
    where: str,
    headings: list[Heading] | None,
    lines: LineIndex,
    span: tuple[int, int],
    owner_line: int | None,
) -> ExcludeError:
    """The refusal for an exclusion that matched nothing: what the section holds.
    Names headings and keys only, never body text."""
    lo, hi = span
    drop = f"check the spelling, or drop --exclude {str(ex)!r}"
    if ex.kind == "line":
        return ExcludeError(
            f"{where}: exclusion {str(ex)!r} matches no line (a line must start with that "
            f"exact text, leading spaces and case included); {drop}"
        )
    if ex.kind == "meta":
        fm_end = front_matter_end(lines)
        if not fm_end:
            return ExcludeError(
                f"{where}: exclusion {str(ex)!r} names a front-matter key, but the file has "
                f"no front matter (a '---' block on line 1); {drop}"
            )
        if lo > 1 or hi < fm_end:
            return ExcludeError(
                f"{where}: exclusion {str(ex)!r}: the front matter (lines 1-{fm_end}) is "
                f"outside the bound section; bind the whole file to exclude a key, or {drop}"
            )
        keys = ", ".join(dict.fromkeys(_front_matter_keys(lines, fm_end))) or "none"
        return ExcludeError(
            f"{where}: exclusion {str(ex)!r} matches no front-matter key; keys there: {keys}; "
            f"type one of them as --exclude 'meta:KEY', or drop the exclusion"
        )
    inside = [h for h in headings or () if lo <= h.start_line <= hi and h.start_line != owner_line]
    import difflib  # only for a refusal: the likeliest heading first

    names = list(dict.fromkeys(h.name for h in inside))
    near = difflib.get_close_matches(ex.parts[-1], names, n=3, cutoff=0.5)
    ordered = list(dict.fromkeys([*near, *names]))[:10]
    shown = ", ".join(f"'#{render_heading_path((n,), None)}'" for n in ordered)
    if not shown:
        return ExcludeError(
            f"{where}: exclusion {str(ex)!r} matches no heading: the section holds no "
            f"headings below its own; {drop}"
        )
    return ExcludeError(
        f"{where}: exclusion {str(ex)!r} matches no heading inside the section; headings "
        f"there: {shown}; type one of them as --exclude, or drop the exclusion"
    )

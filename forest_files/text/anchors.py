"""Stable anchors in Markdown: ids a selector can name that survive a retitle.

Three kinds of id, all named by the selector ``file.md#{id}`` (heading ids) or
``file.md#{^id}`` (Obsidian block ids); see selector.py for the grammar:

* an attribute list closing a heading (mkdocs ``attr_list``, Pandoc):
  ``## Status { #status }``, ``## Status {#status .note}``, ``## Status {: #status }``.
  The heading's name never includes the attribute list (``Status``); its
  source text keeps it, so a binding recorded with it still resolves.
* an HTML anchor in a heading: ``## <a id="status"></a>Status`` or
  ``<a name="status">`` (also on ``<span>``). An empty anchor element is not
  part of the heading's name either.
* an Obsidian block id: `` ^id`` ending a line of a paragraph or list (the
  block is the run of non-blank lines that ends on that line), or alone on a
  line (the block is the run of non-blank lines just before it, through the
  id line). Lines inside fenced code are not scanned.

A heading id picks the heading's section (markdown.py); a block id picks its
block's lines.

Stores: nothing.
Refuses: ``SectionNotFound`` for an id that is nowhere (listing the ids the
file has), ``AmbiguousSelector`` for an id found twice (one line naming each
place and the fix).
Returns: ``split_heading`` (name without attribute list or empty anchors, and
the ids), ``resolve_anchor`` (first and last line of the anchored section, and
the owning heading's first line or None).
Test: tests/text/test_stable_anchors.py
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from forest_files.text.selector import Selector, render
from forest_files.text.selector_errors import AmbiguousSelector, SectionNotFound

if TYPE_CHECKING:
    from forest_files.text.normalise import LineIndex


class Heading(Protocol):
    """What an anchor needs of a heading (markdown.Heading)."""

    @property
    def anchors(self) -> tuple[str, ...]: ...

    @property
    def start_line(self) -> int: ...

    @property
    def end_line(self) -> int: ...


ID = r"[A-Za-z0-9_][A-Za-z0-9_:.-]*"
BLOCK_ID = r"[A-Za-z0-9][A-Za-z0-9-]*"
_VALUE = r"""(?:"[^"]*"|'[^']*'|[^\s{}"']+)"""
_ATTR = rf"(?:#{ID}|\.[A-Za-z_][\w-]*|[A-Za-z_][\w.:-]*={_VALUE})"
_ATTR_LIST = re.compile(rf"[ \t]*\{{:?[ \t]*({_ATTR}(?:[ \t]+{_ATTR})*)[ \t]*\}}\Z")
_HASH_ID = re.compile(rf"(?:^|\s)#({ID})")
_HTML_ID = re.compile(
    rf"""<(a|span)\b[^<>]*?\b(?:id|name)[ \t]*=[ \t]*["']({ID})["'][^<>]*?(/?)>""", re.I
)
_EMPTY_ANCHOR = re.compile(
    rf"""[ \t]*<(a|span)\b[^<>]*?\b(?:id|name)[ \t]*=[ \t]*["']{ID}["'][^<>]*?"""
    r"""(?:/>|>[ \t]*</\1[ \t]*>)[ \t]*""",
    re.I,
)
_BLOCK = re.compile(rf"(?:^|[ \t])\^({BLOCK_ID})[ \t]*$", re.M)
_FENCE = re.compile(r"^[ ]{0,3}(`{3,}|~{3,})")


def split_heading(name: str) -> tuple[str, tuple[str, ...]]:
    """``name`` without a closing attribute list and empty HTML anchors, and the ids
    they (and any HTML anchor in it) carry. A heading that would be left with no
    name keeps ``name``."""
    ids: list[str] = []
    clean = name
    m = _ATTR_LIST.search(clean) if "{" in clean else None
    if m is not None:
        ids.extend(_HASH_ID.findall(m.group(1)))
        clean = clean[: m.start()].rstrip()
    if "<" in clean:
        ids.extend(m.group(2) for m in _HTML_ID.finditer(clean))
        clean = _EMPTY_ANCHOR.sub(" ", clean).strip()
        clean = re.sub(r"[ \t]{2,}", " ", clean)
    return (clean or name), tuple(ids)


def block_ids(lines: LineIndex) -> list[tuple[str, int, int]]:
    """Each Obsidian block id of the text: (``^id``, first line, last line) of its
    block, in document order; lines in fenced code are skipped."""
    text = lines.text
    if "^" not in text:
        return []
    found: list[tuple[str, int, int]] = []
    fence = ""
    for n in range(1, lines.count + 1):
        line = lines.line(n).rstrip("\n")
        f = _FENCE.match(line)
        if fence:
            if f and f.group(1)[0] == fence[0] and len(f.group(1)) >= len(fence):
                fence = ""
            continue
        if f:
            fence = f.group(1)
            continue
        m = _BLOCK.search(line)
        if m is None:
            continue
        alone = not line[: m.start()].strip()
        found.append(("^" + m.group(1), _block_start(lines, n, alone), n))
    return found


def _block_start(lines: LineIndex, n: int, alone: bool) -> int:
    """First line of the block an id on line ``n`` closes."""
    k = n - 1
    if alone:
        while k >= 1 and not lines.line(k).strip():
            k -= 1
        if k < 1:
            return n
    while k >= 1 and lines.line(k).strip() and not lines.line(k).lstrip().startswith("#"):
        k -= 1
    return k + 1


def resolve_anchor(
    sel: Selector, headings: Sequence[Heading], blocks: list[tuple[str, int, int]] | None
) -> tuple[int, int, int | None]:
    """(first line, last line, owning heading's first line or None) of the section
    ``sel`` (kind ``anchor``) names. ``blocks`` is ``block_ids`` (None when the id
    is a heading id: blocks are not scanned)."""
    wanted = sel.parts[0]
    hits: list[tuple[int, int, int | None]] = []
    if wanted.startswith("^"):
        hits = [(lo, hi, None) for bid, lo, hi in blocks or () if bid == wanted]
    else:
        hits = [(h.start_line, h.end_line, h.start_line) for h in headings if wanted in h.anchors]
    shown = render(sel)
    if len(hits) > 1:
        where = ", ".join(str(lo) for lo, _, _ in hits)
        raise AmbiguousSelector(
            f"{shown}: the id {wanted!r} is on {len(hits)} places (lines {where}); "
            "give each its own id in the file, or bind one by its heading path",
            [f"{shown} (line {lo})" for lo, _, _ in hits],
        )
    if not hits:
        raise SectionNotFound(_missing(shown, wanted, headings, blocks))
    return hits[0]


def _missing(
    shown: str,
    wanted: str,
    headings: Sequence[Heading],
    blocks: list[tuple[str, int, int]] | None,
) -> str:
    have = [f"#{{{a}}}" for h in headings for a in h.anchors]
    have += [f"#{{{b}}}" for b, _, _ in blocks or ()]
    listed = ", ".join(have[:8]) if have else "none"
    return (
        f"{shown}: no heading or block carries the id {wanted!r} (ids in the file: {listed}); "
        "add the id to the section, or bind it by its heading path"
    )

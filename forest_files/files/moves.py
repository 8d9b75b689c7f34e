"""The moved search: where a section that left its place stands now, by section hash.

Stores: nothing.
Refuses: nothing (a candidate that is not UTF-8 text or not valid Python is
simply no candidate).
Returns: for a binding whose file is gone or whose selector matches nothing,
the one selector of another place whose section hashes to ground (the
finding becomes ``moved``); for an unresolved heading or symbol with no such
place, the sections that stand where it stood (same parent, bound by no
other binding) with their first lines — a renamed heading's candidates.
Test: tests/test_moves.py

One ``MoveIndex`` serves one check run: each candidate file is read and
parsed at most once, every heading section, symbol, region and the whole
file hashed once per exclusion set the missing bindings use. Nothing is
computed for display that is not shown (no similarity suggestions).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from forest_files.errors import ForestError
from forest_files.files.content import ContentSource
from forest_files.files.normalise import LineIndex, decode_bytes, normalise_text
from forest_files.files.selector import Selector, parse_selector, render
from forest_files.hashing import hash_body
from forest_files.ledger.bindings import Binding

if TYPE_CHECKING:
    from forest_files.files.markdown import Heading

Excludes = tuple[str, ...]
Key = tuple[Excludes, str, str]  # (exclusions, selector kind, section hash)
_BATCH = 1000  # candidate blobs read per ``git cat-file --batch`` (and held at once)
MAX_CANDIDATES = 12  # renamed-section candidates listed in a hint
_MARKDOWN = (".md", ".markdown", ".mdx", ".mdown", ".mkd")


@dataclass(frozen=True)
class Place:
    """A section somewhere in the content: where it is and its first line."""

    path: str
    kind: str
    parts: tuple[str, ...]
    index: int | None
    line: int

    @cached_property
    def selector(self) -> str:
        """Its full selector (rendered once, and only for a place that is looked at)."""
        return render(Selector(self.path, self.kind, self.parts, self.index))  # type: ignore[arg-type]


class MoveIndex:
    """Section hashes of the candidate files, built once for a set of bindings."""

    def __init__(
        self,
        source: ContentSource,
        candidates: Iterable[str],
        wanted: Sequence[Binding],
        bound: Iterable[str] = (),
    ) -> None:
        self._hits: dict[Key, list[Place]] = {}
        self._children: dict[tuple[str, str, tuple[str, ...]], list[Place]] = {}
        self._bound = set(bound)
        suffixes = {_suffix(b.path) for b in wanted}
        sets = sorted({b.excludes for b in wanted})
        own = {b.path for b in wanted}
        chosen = [p for p in sorted(set(candidates) | own) if _suffix(p) in suffixes]
        prefetch = getattr(source, "prefetch", None)  # a git source: blobs in batches
        for start in range(0, len(chosen), _BATCH):
            batch = chosen[start : start + _BATCH]
            if prefetch is not None:  # every blob: a known file hash finds no section
                prefetch(batch, known_too=True)
            for path in batch:
                self._add(source, path, sets, keep_outline=path in own)

    def _add(
        self, source: ContentSource, path: str, sets: list[Excludes], keep_outline: bool
    ) -> None:
        data = source.read(path)
        if data is None:
            return
        try:
            text = normalise_text(decode_bytes(data, path))
        except ForestError:
            return
        lines = LineIndex(text)
        heads = _outline(text, lines, path)
        for place, kind, lo, hi, owner in _sections(text, lines, path, heads):
            if keep_outline and kind in ("heading", "symbol"):
                self._children.setdefault((path, kind, place.parts[:-1]), []).append(place)
            for excludes in sets:
                body = _text(text, lines, heads, (kind, lo, hi, owner), excludes)
                if body is not None:
                    self._hits.setdefault((excludes, kind, hash_body(body)), []).append(place)

    def moved_to(self, binding: Binding, expected: str) -> str | None:
        """The one other place whose section (under the binding's exclusions) hashes
        to ``expected``; None when there is none or more than one."""
        hits = self._hits.get((binding.excludes, _kind(binding), expected), [])
        if len(hits) > 2:
            return None
        found = [h.selector for h in hits]
        others = [sel for sel in found if sel != binding.selector]
        return others[0] if len(others) == 1 else None

    def renamed(self, binding: Binding) -> tuple[Place, ...]:
        """Sections under the same parent as the binding's, bound by no other binding
        (in document order): where a renamed heading or symbol may stand now."""
        sel = parse_selector(binding.selector)
        if sel.kind not in ("heading", "symbol"):
            return ()
        places = self._children.get((binding.path, sel.kind, sel.parts[:-1]), [])
        free = [p for p in places if p.selector not in self._bound]
        return tuple(free[:MAX_CANDIDATES])


def _kind(binding: Binding) -> str:
    """The selector kind of a binding, from the marker after its (escaped) path."""
    if binding.selector == binding.path:
        return "file"
    from forest_files.files.selector import _render_path  # the one escaping rule

    marker = binding.selector[len(_render_path(binding.path)) : len(_render_path(binding.path)) + 1]
    return {"#": "heading", "@": "region", ":": "symbol"}.get(marker) or parse_selector(
        binding.selector
    ).kind


def _suffix(path: str) -> str:
    name = path.rpartition("/")[2]
    dot = name.rfind(".")
    return name[dot:] if dot > 0 else ""


def _outline(text: str, lines: LineIndex, path: str) -> list[Heading] | None:
    """The file's headings, parsed once (None for a file that is not Markdown)."""
    if _suffix(path) not in _MARKDOWN:
        return None
    from forest_files.files.markdown import outline

    return outline(text, lines)


def _sections(
    text: str, lines: LineIndex, path: str, heads: list[Heading] | None
) -> Iterable[tuple[Place, str, int, int, int | None]]:
    """(place, kind, first line, last line, owning heading line) of every section."""
    yield Place(path, "file", (), None, 1), "file", 1, lines.count, None
    if _suffix(path) == ".py":
        yield from _symbols(text, path)
    if heads is not None:
        index = _ordinals([h.path for h in heads])
        for h, n in zip(heads, index, strict=True):
            start = h.start_line
            yield Place(path, "heading", h.path, n, start), "heading", start, h.end_line, start
    yield from _regions(lines, path)


def _symbols(text: str, path: str) -> Iterable[tuple[Place, str, int, int, int | None]]:
    from forest_files.files.pysymbol import symbols

    try:
        found = symbols(text, path)
    except ForestError:
        return
    index = _ordinals([s.path for s in found])
    for s, n in zip(found, index, strict=True):
        yield (
            Place(path, "symbol", s.path, n, s.start_line),
            "symbol",
            s.start_line,
            s.end_line,
            None,
        )


def _regions(lines: LineIndex, path: str) -> Iterable[tuple[Place, str, int, int, int | None]]:
    if "forest:begin" not in lines.text:
        return
    from forest_files.files.region import markers, resolve_region

    for name in sorted({nm for kind, nm, _ in markers(lines) if kind == "begin"}):
        try:
            lo, hi = resolve_region(lines, Selector(path, "region", (name,)))
        except ForestError:
            continue
        yield Place(path, "region", (name,), None, lo), "region", lo, hi, None


def _ordinals(paths: Sequence[tuple[str, ...]]) -> list[int | None]:
    """The ``[n]`` each full path needs (None when it occurs once)."""
    counts: dict[tuple[str, ...], int] = {}
    for p in paths:
        counts[p] = counts.get(p, 0) + 1
    seen: dict[tuple[str, ...], int] = {}
    out: list[int | None] = []
    for p in paths:
        seen[p] = seen.get(p, 0) + 1
        out.append(seen[p] if counts[p] > 1 else None)
    return out


def _text(
    text: str,
    lines: LineIndex,
    heads: list[Heading] | None,
    span: tuple[str, int, int, int | None],
    excludes: Excludes,
) -> str | None:
    """The section's text under ``excludes`` (None when they cannot apply to it)."""
    kind, lo, hi, owner = span
    if not excludes:
        return text[lines.offset(lo) : lines.offset(hi + 1)]
    if kind == "symbol":
        return None
    # extract's own exclusion steps, on the outline already parsed for this file
    from forest_files.files.exclude import parse_exclusions
    from forest_files.files.extract import _assemble, _exclusion_cuts

    try:
        cuts, _ = _exclusion_cuts(parse_exclusions(excludes), text, lines, heads, lo, hi, owner)
    except ForestError:
        return None
    return _assemble(lines, lo, hi, cuts)

"""What an adopted Markdown section reads from outside its hash: the reference-link
and footnote definitions it uses that no binding holds (text/refdefs.py finds them).

A section hashes its own lines; a definition elsewhere in the file changes what a
reader of the section sees without drift. Adoption warns once per such section and
names the routes into custody: adopt the heading holding the definitions, or the
whole file, or move the definitions into the section. A definition on a line some
live binding of the file holds (its lines, less its exclusions) is in custody: a
change there drifts that binding, so it is not named. A binding declaring
``link-style`` hashes its links' targets already: only its footnotes are judged.

Stores: nothing.
Refuses: nothing (a file or section that cannot be read now is left unjudged).
Returns: ``Unheld`` values, one per section with something outside, and each as one
warning line (``warning``) whose commands work pasted.
Test: tests/check/test_adopt_refs.py
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from forest_files.kernel.errors import ForestError

if TYPE_CHECKING:
    from forest_files.custody.bindings import Binding
    from forest_files.custody.repository import Repository
    from forest_files.custody.section_text import SectionText
    from forest_files.text.extract import Document
    from forest_files.text.refdefs import Outside, References

_KINDS = ("heading", "anchor")  # Markdown sections; a whole file holds every definition


@dataclass(frozen=True)
class Unheld:
    """A section's labels defined outside every bound line, and the headings that
    hold those definitions (full selectors, in file order)."""

    path: str
    selector: str
    labels: tuple[Outside, ...]
    holders: tuple[str, ...]

    def warning(self) -> str:
        """One line: which labels, where, why it matters and the ways in."""
        from forest_files.kernel.shellword import command_text, forest_step, printable

        words = ("--words", "…")
        named = ", ".join(_named(o) for o in self.labels)
        whole = command_text(forest_step("adopt", self.path, options=words))
        ways = [f"the whole file `{whole}`"]
        if self.holders:  # every definition lies under a heading: adopt those alone
            ways.insert(0, f"`{command_text(forest_step('adopt', *self.holders, options=words))}`")
        return (
            f"forest: {printable(self.selector)} uses {named} defined outside it: their "
            "text is not in its hash, so changing it is no drift; bring them into "
            f"custody with {' or '.join(ways)}, or move the definitions into the section"
        )


def _named(o: Outside) -> str:
    from forest_files.kernel.shellword import printable

    where = f"line {o.line}" if o.line else "inside a list or quote"
    return f"[{printable(o.label)}] ({where})"


def unheld(repo: Repository, sections: Sequence[SectionText]) -> list[Unheld]:
    """The adopted ``sections`` that use definitions no live binding holds, read
    from the working tree now (after the adoption, so its own bindings count)."""
    from forest_files.custody.bindings import all_bindings
    from forest_files.text.refdefs import References
    from forest_files.text.selector import parse_selector

    by_path: dict[str, list[SectionText]] = {}
    for s in sections:
        by_path.setdefault(s.path, []).append(s)
    # Read first, parse after: most files hold no definition and cost one read.
    docs = {p: d for p in sorted(by_path) if (d := _document(repo, p)) is not None}
    judged = {
        p: kept
        for p in docs
        if (kept := [s for s in by_path[p] if parse_selector(s.selector).kind in _KINDS])
    }
    if not judged:
        return []
    bound: dict[str, list[Binding]] = {}
    for b in all_bindings(repo.synced(), paths=judged):
        if b.path in judged:
            bound.setdefault(b.path, []).append(b)
    out: list[Unheld] = []
    for path, held in judged.items():
        doc = docs[path]
        held_by = [h for b in bound.get(path, ()) for h in _held(doc, b.selector, b.excludes)]
        refs = References(doc.text)
        for section in held:
            got = _judge(doc, refs, section, held_by)
            if got is not None:
                out.append(got)
    return out


def _document(repo: Repository, path: str) -> Document | None:
    """The file's text as it stands now, when it holds a definition at all (a link's
    and a footnote's are ``[label]:``, the colon right after the bracket): a file with
    none reads nothing from outside and is not parsed. Read as the adoption left it,
    with no refusal checks again (they cost git calls per file); None when it is gone,
    no regular file or text now (the adoption stands, unjudged)."""
    import os

    from forest_files.custody.content_read import read_regular
    from forest_files.text.extract import Document
    from forest_files.text.normalise import decode_bytes

    data = read_regular(os.path.join(repo.root, path))
    if data is None or b"]:" not in data or len(data) > repo.config.max_body_bytes:
        return None
    try:
        return Document(decode_bytes(data, path))
    except ForestError:
        return None


def _held(doc: Document, selector: str, excludes: Sequence[str]) -> list[tuple[int, int]]:
    """The inclusive line ranges ``selector`` hashes in ``doc`` (none if it cannot
    be cut now)."""
    from forest_files.text.extract import extract
    from forest_files.text.selector import parse_selector

    try:
        got = extract(doc, parse_selector(selector), tuple(excludes))
    except ForestError:
        return []
    ranges: list[tuple[int, int]] = []
    pos = got.start_line
    for lo, hi in got.cuts:
        if lo > pos:
            ranges.append((pos, lo - 1))
        pos = max(pos, hi + 1)
    if pos <= got.end_line:
        ranges.append((pos, got.end_line))
    return ranges


def _judge(
    doc: Document, refs: References, section: SectionText, custody: list[tuple[int, int]]
) -> Unheld | None:
    links = not any(e.startswith("normalise:link-style@") for e in section.excludes)
    held = _held(doc, section.selector, section.excludes)
    if not held:
        return None
    found = [
        o
        for o in refs.outside(held, links=links)
        if not o.line or not any(lo <= o.line <= hi for lo, hi in custody)
    ]
    if not found:
        return None
    lines = [o.line for o in found]
    holders = _holders(doc, section.path, lines) if all(lines) else ()
    return Unheld(section.path, section.selector, tuple(found), holders)


def _holders(doc: Document, path: str, lines: list[int]) -> tuple[str, ...]:
    """The full selector of the innermost heading holding each line (once each, in
    file order); none when a line lies before the first heading (only the whole file
    holds it)."""
    from forest_files.check.coverage import canonical_paths
    from forest_files.text.selector import Selector, render

    heads = doc.headings()
    names = canonical_paths(heads)
    picked: set[int] = set()
    for line in lines:
        inner = [i for i, h in enumerate(heads) if h.start_line <= line <= h.end_line]
        if not inner:
            return ()
        picked.add(max(inner, key=lambda i: heads[i].start_line))
    return tuple(
        render(Selector(path, "heading", names[i][0], names[i][1])) for i in sorted(picked)
    )

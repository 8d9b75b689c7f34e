"""Restore's guard: a section's restore that would remove another bound section of its file.

A restore writes ground over the lines a section holds now. When another bound
section stands inside those lines and ground does not hold it (a heading demoted
into the section, a bound subsection added under it, a function or a region moved
into it), the restore deletes it: the capture keeps its text, but the printed route
would have removed bound text unasked.
Stores: nothing (texts in, selectors out).
Refuses (one-line ``ForestError``, before anything is written): ``refuse_removing``
(``removes`` finds, ``refusal`` words it): the section the restore would remove, the
line it stands on now, and the two ways out: move it back out first, or restore
anyway with ``--drop-nested`` (the removed text kept in the capture);
``refuse_rewrite`` (a proposed text written in, custody/restore_rewrite.py ``plan_rewrite``):
``RemovesBound``, which the door that wrote the text words with its own ways out
(proposals/adopt.py, doors/mcp/propose_checks.py).
Returns: ``removes``: (selector, line) of each bound section the new text loses — one
whose selector finds it now and not after, or, for a binding its selector no longer
finds (a demoted heading, a moved symbol), a section of its name that the file holds
fewer times after (where the check says it may stand now).
Test: tests/custody/test_restore_nested.py
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from forest_files.kernel.errors import ForestError
from forest_files.kernel.shellword import forest_text
from forest_files.text.extract import Document, extract
from forest_files.text.selector import Selector, parse_selector

DROP_NESTED = "--drop-nested"


@dataclass(frozen=True)
class Bound:
    """Another binding of a file being restored: its section must survive the restore."""

    selector: str
    excludes: tuple[str, ...] = ()


def removes(before: str, after: str, others: Sequence[Bound], path: str) -> list[tuple[str, int]]:
    """(selector, line now) of each of ``others`` whose section ``before`` holds and
    ``after`` does not (texts of ``path``, normalised or not)."""
    old, new = Document(before), Document(after)
    out: list[tuple[str, int]] = []
    for other in others:
        sel = parse_selector(other.selector)
        if sel.kind == "file":
            continue  # the file stays
        line = _found(old, sel, other.excludes, path)
        if line is not None:
            if _found(new, sel, other.excludes, path) is None:
                out.append((other.selector, line))
            continue
        named_old, named_new = _named(old, sel, path), _named(new, sel, path)
        if len(named_new) < len(named_old):  # a section of its name is gone
            gone = [n for n in named_old if n not in named_new] or named_old
            out.append((other.selector, gone[0]))
    return out


def _found(doc: Document, sel: Selector, excludes: tuple[str, ...], path: str) -> int | None:
    """The first line of ``sel``'s section in ``doc``, or None: not found (or twice)."""
    try:
        return extract(doc, sel, excludes).start_line
    except ForestError:
        return None


def _named(doc: Document, sel: Selector, path: str) -> list[int]:
    """The first lines of the sections named as ``sel``'s last part (heading name,
    symbol name, region name, anchor id), wherever they stand in ``doc``."""
    name = sel.parts[-1]
    try:
        if sel.kind == "heading":
            return [h.start_line for h in doc.headings() if h.name == name or h.text == name]
        if sel.kind == "anchor":
            return [h.start_line for h in doc.headings() if name in h.anchors]
        if sel.kind == "symbol":
            return [s.start_line for s in doc.symbols(path) if s.path[-1] == name]
        return [line for kind, found, line in doc.markers() if kind == "begin" and found == name]
    except ForestError:  # a file that no longer parses names nothing
        return []


def refuse_removing(
    bound: Sequence[Bound],
    path: str,
    target: str,
    texts: tuple[bytes, bytes],
    again: Sequence[str],
) -> None:
    """Refuse restoring ``target`` when its new text (``texts``: the file's bytes before
    and after, UTF-8) loses one of ``bound``'s sections (``target``'s own left out)."""
    others = [b for b in bound if b.selector != target]
    gone = removes(texts[0].decode("utf-8"), texts[1].decode("utf-8"), others, path)
    if gone:
        raise refusal(target, gone, again)


class RemovesBound(ForestError):
    """A new text for ``target`` would remove ``removed`` ((selector, line now), the
    first named), bound sections that stand in its lines now."""

    def __init__(self, target: str, removed: Sequence[tuple[str, int]]) -> None:
        self.target, self.removed = target, tuple(removed)
        super().__init__(f"{target}: the new text would remove {self.named}; nothing was written")

    @property
    def named(self) -> str:
        """``SEL, a bound section that stands in its lines now (line N)`` and how many
        more."""
        sel, line = self.removed[0]
        more = len(self.removed) - 1
        also = f" (and {more} more bound section(s))" if more else ""
        return f"{sel}, a bound section that stands in its lines now (line {line}){also}"


def refuse_rewrite(
    bound: Sequence[Bound], path: str, target: str, texts: tuple[bytes, bytes]
) -> None:
    """``RemovesBound`` when ``target``'s new text (``texts``: the file's bytes before
    and after) loses one of ``bound``'s sections."""
    others = [b for b in bound if b.selector != target]
    gone = removes(texts[0].decode("utf-8"), texts[1].decode("utf-8"), others, path)
    if gone:
        raise RemovesBound(target, gone)


def refusal(target: str, removed: Sequence[tuple[str, int]], again: Sequence[str]) -> ForestError:
    """One line: what restoring ``target`` would remove, and the ways out (``again``:
    the targets of the command, run again with ``--drop-nested``)."""
    sel, line = removed[0]
    more = f" (and {len(removed) - 1} more bound section(s))" if len(removed) > 1 else ""
    anyway = forest_text("restore", *again, options=(DROP_NESTED,))
    return ForestError(
        f"{target}: restoring it would remove {sel}, a bound section that stands in its "
        f"lines now (line {line}){more}; nothing was written — move that section back out "
        f"of {target} first (as it stood when adopted), then restore; or restore anyway, "
        f"its text kept in the capture: `{anyway}`"
    )

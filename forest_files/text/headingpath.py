"""Which headings a heading path names: the tail match, and its suffix index.

A selector's heading path matches every heading whose full path ends with it
(a unique tail such as ``#Elias`` suffices), each part naming its heading by the
comment-free name or by the source text (markdown.py says how both are read).

Stores: nothing.
Refuses: nothing (markdown.py's ``resolve_heading`` refuses what matches nothing).
Returns: ``matching``, the positions a heading path names; ``Peers``, the same
answer from a suffix index built once per text (``same`` for ``selector_pick.pick``).
Test: tests/text/test_selectors.py, tests/text/test_selector_rules.py,
      tests/text/test_extract.py
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class HeadingLike(Protocol):
    """What a heading path is matched against (markdown.Heading)."""

    @property
    def text(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def path(self) -> tuple[str, ...]: ...

    @property
    def raw_path(self) -> tuple[str, ...]: ...

    @property
    def start_line(self) -> int: ...


def matching(headings: Sequence[HeadingLike], parts: tuple[str, ...]) -> list[int]:
    """Positions of headings whose full path ends with ``parts`` (each part naming
    its heading by the comment-free name or by the source text)."""
    k = len(parts)
    last = parts[-1]
    out = []
    for pos, h in enumerate(headings):
        if (h.name != last and h.text != last) or len(h.path) < k:
            continue
        if h.path[-k:] == parts or all(
            part in (name, raw)
            for part, name, raw in zip(parts, h.path[-k:], h.raw_path[-k:], strict=True)
        ):
            out.append(pos)
    return out


class Peers:
    """``same`` for ``selector_pick.pick``: the headings a full path matches as a tail.
    The first call scans; later ones (an ambiguity listing many full paths, or the
    next selector of the same text when one ``Peers`` serves them all, as
    ``extract.Document`` shares it) use a suffix index built once, so a refusal
    over many headings, or many selectors of one file, stay linear."""

    def __init__(self, headings: Sequence[HeadingLike]) -> None:
        self.headings = headings
        self._calls = 0
        self._index: dict[tuple[str, ...], list[int]] | None = None
        self._odd: list[int] = []  # headings with a comment in their chain: scanned
        self._paths: list[tuple[str, ...]] | None = None
        self._lines: list[int] | None = None

    def full_paths(self) -> list[tuple[str, ...]]:
        """Each heading's full path, listed once."""
        if self._paths is None:
            self._paths = [h.path for h in self.headings]
        return self._paths

    def start_lines(self) -> list[int]:
        """Each heading's first line, listed once."""
        if self._lines is None:
            self._lines = [h.start_line for h in self.headings]
        return self._lines

    def __call__(self, parts: tuple[str, ...]) -> list[int]:
        self._calls += 1
        if self._calls == 1:
            return matching(self.headings, parts)
        if self._index is None:
            self._index = {}
            for pos, h in enumerate(self.headings):
                if h.path != h.raw_path:
                    self._odd.append(pos)
                    continue
                for k in range(1, len(h.path) + 1):
                    self._index.setdefault(h.path[-k:], []).append(pos)
        hits = list(self._index.get(parts, ()))
        if self._odd:
            odd = [self.headings[p] for p in self._odd]
            hits = sorted(hits + [self._odd[k] for k in matching(odd, parts)])
        return hits

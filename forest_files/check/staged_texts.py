"""Sections as the git index holds them, each file parsed once (the commit route's reads).

Stores: nothing.
Refuses: nothing (a section that cannot be read or extracted is None).
Returns: ``StagedTexts.text``: the canonical selector and text of a section at the
index; ``hash``: its section hash.
Test: tests/check/test_commit_rebind.py, tests/check/test_hook_move_cost.py
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from forest_files.kernel.errors import ForestError

if TYPE_CHECKING:
    from forest_files.text.extract import Document

ReadFile = Callable[[str], "bytes | None"]


class StagedTexts:
    """Sections as the index holds them, each file parsed once: ``parsed`` (path ->
    (normalised file hash, parse)) holds the check's own parses, used for the same
    content."""

    def __init__(
        self, read: ReadFile, parsed: Mapping[str, tuple[str, Document]] | None = None
    ) -> None:
        self._read = read
        self._parsed = parsed or {}
        self._docs: dict[str, Document | None] = {}

    def text(self, selector: str, excludes: tuple[str, ...]) -> tuple[str, str] | None:
        """(canonical selector, section text) at ``selector``; None when it is not there."""
        from forest_files.text.extract import extract
        from forest_files.text.selector import parse_selector, render

        try:
            sel = parse_selector(selector)
            doc = self._doc(sel.path)
            if doc is None:
                return None
            got = extract(doc, sel, excludes)
        except ForestError:
            return None
        return render(got.selector), got.text

    def hash(self, selector: str, excludes: tuple[str, ...]) -> str | None:
        from forest_files.kernel.hashing import hash_body

        found = self.text(selector, excludes)
        return None if found is None else hash_body(found[1])

    def _doc(self, path: str) -> Document | None:
        from forest_files.text.extract import Document
        from forest_files.text.normalise import decode_bytes, normalised_hash

        if path not in self._docs:
            data = self._read(path)
            kept = self._parsed.get(path)
            if data is None:
                self._docs[path] = None
            elif kept is not None and kept[0] == normalised_hash(data):
                self._docs[path] = kept[1]
            else:
                self._docs[path] = Document(decode_bytes(data, path))
        return self._docs[path]

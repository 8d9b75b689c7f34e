"""A conflicted file's two sides, to tell a drifted section the conflicts leave whole.

A section found at its selector with the same text in the file as it stands, with
HEAD's side of every conflict kept and with the other side kept, is one no conflict
is in and none moves (its bounds, its heading path): conflicts.py leaves it
``drifted``. The reader is conflicts.py's, where the check looked.

Stores: nothing (each file's three parses, for the one command).
Refuses: nothing; a section not found in one of the three (or a file not text) is
not left whole.
Returns: ``Sides``: ``left_whole(path, selector)``.
Test: tests/check/test_conflicts.py
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from forest_files.kernel.errors import ForestError
from forest_files.text.conflict_markers import sides

if TYPE_CHECKING:
    from forest_files.text.extract import Document


class Sides:
    """Each conflicted file as it stands, with HEAD's side of every conflict kept, and
    with the other side kept (a diff3 base dropped), each parsed once."""

    def __init__(self, read: Callable[[str], bytes | None]) -> None:
        self._read = read
        self._docs: dict[str, tuple[Document, ...]] = {}

    def left_whole(self, path: str, selector: str) -> bool:
        """The section at ``selector`` stands with the same text in all three: no
        conflict is in it, and none moves its bounds or its heading path."""
        from forest_files.text.extract import extract
        from forest_files.text.selector import parse_selector

        try:
            sel = parse_selector(selector)
            texts = {extract(doc, sel).text for doc in self._of(path)}
        except ForestError:
            return False  # not found in one of them (or not text): the conflict's
        return len(texts) == 1

    def _of(self, path: str) -> tuple[Document, ...]:
        from forest_files.text.extract import Document
        from forest_files.text.normalise import decode_bytes

        if path not in self._docs:
            data = self._read(path) or b""
            versions = (data, *sides(data))
            self._docs[path] = tuple(Document(decode_bytes(v, path)) for v in versions)
        return self._docs[path]

"""One file as coverage and ``forest adopt --where`` read it: its text, headings and
front matter, each worked out only when asked; the one front-matter matcher.

Stores: nothing.
Refuses: nothing; a file that cannot be judged (not UTF-8 text, a front-matter key
given twice) is said to be so (None), and its caller holds it to its rule.
Returns: ``when_holds`` (``[require] when``, ``forest adopt --where``): True when every
key equals one of its values (case-insensitive), False when one does not or is
absent, None when the file cannot be judged; ``front_matter_value``, a top-level key's
plain scalar; ``Document``, the lazily read file.
Test: tests/check/test_adopt_select.py, tests/check/test_coverage.py
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from forest_files.custody.config import RequireRule
    from forest_files.text.markdown import Heading
    from forest_files.text.normalise import LineIndex

When = tuple[tuple[str, tuple[str, ...]], ...]


def when_holds(path: str, data: bytes, when: When) -> bool | None:
    """The one front-matter matcher (``[require] when``, ``forest adopt --where``):
    True when every key equals one of its values (case-insensitive), False when one
    does not or is absent, None when the file cannot be judged (not UTF-8 text, a
    key given twice)."""
    return Document(path, data).judge(when)


def front_matter_value(path: str, data: bytes, key: str) -> str | None:
    """The plain scalar of top-level front-matter ``key`` (None when absent, not a
    scalar, given twice or the file is not text)."""
    return Document(path, data).front_matter(key)[1]


class Document:
    """One file's bytes, decoded, parsed and front matter read only when asked."""

    def __init__(self, path: str, data: bytes) -> None:
        from forest_files.kernel.errors import ForestError
        from forest_files.text.normalise import decode_bytes, normalise_text

        self.path = path
        try:
            self.text: str | None = normalise_text(decode_bytes(data, path))
        except ForestError:
            self.text = None
        self._lines: LineIndex | None = None

    def lines(self) -> LineIndex:
        from forest_files.text.normalise import LineIndex

        if self._lines is None:
            self._lines = LineIndex(self.text or "")
        return self._lines

    def headings(self) -> list[Heading]:
        from forest_files.text.markdown import outline

        return outline(self.text or "", self.lines())

    def holds(self, rule: RequireRule) -> bool:
        """Every ``when`` key of ``rule`` equals one of its values (case-insensitive);
        a key that cannot be judged holds the file to its rule (fail closed)."""
        return self.judge(rule.when) is not False

    def judge(self, when: When) -> bool | None:
        """False when a ``when`` key's value is none of its values (or absent), else
        None when a key cannot be judged, else True."""
        unknown = False
        for key, wanted in when:
            judged, value = self.front_matter(key)
            if not judged:
                unknown = True
                continue
            if value is None or value.casefold() not in {w.casefold() for w in wanted}:
                return False
        return None if unknown else True

    def front_matter(self, key: str) -> tuple[bool, str | None]:
        """(judged, the scalar value of top-level front-matter ``key``): the value is
        None when the key is absent or not a plain scalar; judged is False when the
        file is not text or gives the key twice."""
        from forest_files.text.exclude import Exclusion, meta_range
        from forest_files.text.selector_errors import AmbiguousSelector

        if self.text is None:
            return False, None
        lines = self.lines()
        try:
            found = meta_range(Exclusion("meta", key=key), lines, 1, lines.count)
        except AmbiguousSelector:
            return False, None
        if found is None:
            return True, None
        return True, _scalar(lines.line(found[0]).split(":", 1)[1])


def _scalar(raw: str) -> str | None:
    """A one-line YAML scalar: quotes removed, a trailing `` # comment`` dropped."""
    value = raw.strip()
    if value[:1] in ("'", '"'):
        end = value.find(value[0], 1)
        return value[1:end].strip() if end > 0 else None
    value = value.split(" #", 1)[0].strip()
    if not value or value[0] in "|>[{&*!":
        return None  # a block, flow collection, anchor or tag: not a plain scalar
    return value

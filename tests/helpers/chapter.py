"""A book whose chapter is cut into another file with one subsection renamed.

Shared by the tests of a moved chapter's subsections (tests/check/test_chapter_elsewhere.py)
and the differential of every door on it (tests/doors/test_doors_rebound.py): ``BOOK`` is
a.md as adopted, ``LEFT`` what stays in a.md, ``MOVED`` b.md with the chapter and ``Sub A``
renamed ``Sub Alpha``.
"""

from __future__ import annotations

BOOK = (
    "# Book\n\n## Chapter\n\nintro\n\n### Sub A\n\na text\n\n### Sub B\n\nb text\n\n"
    "## Other\n\nother\n"
)
LEFT = "# Book\n\n## Other\n\nother\n"
MOVED = "# Vol\n\n## Chapter\n\nintro\n\n### Sub Alpha\n\na text\n\n### Sub B\n\nb text\n\n## End\n"
CHAPTER, SUB_A = "a.md#Book/Chapter", "a.md#Book/Chapter/Sub A"

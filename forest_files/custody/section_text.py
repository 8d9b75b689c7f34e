"""The values file custody is recorded with: a section as read, and a section once bound.

Stores: nothing (frozen values).
Refuses: nothing (the acts that take them refuse: record_adopt.py, record_rebind.py).
Returns: ``SectionText`` (path, full selector, exclusions with any declared
``normalise:NAME@V`` items, normalisation, hash algorithm, the text read now) and
``BoundSection`` (content ids, never local row ids).
Test: tests/custody/test_file_custody.py
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SectionText:
    """A section as read from a file, ready to be recorded."""

    path: str
    selector: str
    excludes: tuple[str, ...]
    text: str
    normalisation: str
    hash_algo: str = "sha256"


@dataclass(frozen=True)
class BoundSection:
    path: str
    selector: str
    content_id: str
    binding: str

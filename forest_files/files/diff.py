"""Diffs ground -> now for a terminal (never in machine output: CI logs are public).

Stores: nothing.
Refuses: nothing; a section that cannot be read yields a one-line note.
Returns: unified diff text of the bound section.
Test: tests/test_cli_files.py
"""

from __future__ import annotations

import difflib

from forest_files.errors import ForestError
from forest_files.files.check import Finding
from forest_files.files.content import ContentSource
from forest_files.files.extract import extract
from forest_files.files.normalise import decode_bytes, normalise_text
from forest_files.files.selector import parse_selector
from forest_files.store.forest import ForestStore


def ground_text(store: ForestStore, content_id: str | None) -> str | None:
    local = None if content_id is None else store.id_for_content(content_id)
    row = None if local is None else store.get(local)
    return None if row is None else str(row["body"])


def current_text(finding: Finding, excludes: tuple[str, ...], content: ContentSource) -> str | None:
    data = content.read(finding.path)
    if data is None:
        return None
    try:
        text = normalise_text(decode_bytes(data, finding.path))
        return extract(text, parse_selector(finding.selector), excludes).text
    except ForestError:
        return None


def section_diff(
    store: ForestStore, finding: Finding, content: ContentSource, excludes: tuple[str, ...] = ()
) -> str:
    old = ground_text(store, finding.ground)
    new = current_text(finding, excludes, content)
    if old is None or new is None:
        return "  (no diff: ground or section not readable)"
    lines = difflib.unified_diff(
        old.splitlines(keepends=True),
        new.splitlines(keepends=True),
        fromfile=f"ground {finding.selector}",
        tofile=f"now {finding.selector}",
    )
    return "".join(lines).rstrip("\n")

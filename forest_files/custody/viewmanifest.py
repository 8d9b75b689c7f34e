"""A view's manifest: what a cached custody view was built from, sealed with it.

viewbuild.py extends a new view from an earlier one only when every input the
earlier one was built from is in the new source with the same content; the manifest
lists those inputs (each segment file with its blob id, each referenced body with
its blob id or ``-``, and the view it was extended from) and is sealed with the view
(viewkey.py), so a manifest this machine did not write is never read.
Stores: nothing (viewbuild.py seals ``manifest_rows`` with the view).
Refuses: nothing; a manifest of another version, damaged, or not sealed by this
machine reads as None (the view is then built by a full replay).
Returns: ``Manifest``; ``manifest_rows`` its sealed rows; ``sealed_manifest`` (config
key, manifest) of a view; ``built_from`` the fingerprint of the view a view extended.
Test: tests/custody/test_viewbuild.py, tests/doors/test_hooks.py
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from forest_files.custody.sources import LedgerBlobs
from forest_files.custody.viewkey import view_detail

MANIFEST_VERSION = "forest-view-manifest-v1"


@dataclass(frozen=True)
class Manifest:
    """What a view was built from: segment file → blob id, referenced body hash →
    blob id (None: absent), and the fingerprint of the view it extended (None: full)."""

    segments: Mapping[str, str]
    bodies: Mapping[str, str | None]
    parent: str | None = None

    def holds(self, where: LedgerBlobs) -> bool:
        """True if every input of the view is in ``where`` with the same content."""
        return all(where.segments.get(n) == b for n, b in self.segments.items()) and all(
            where.bodies.get(h) == b for h, b in self.bodies.items()
        )


def built_from(view: Path) -> str | None:
    """The fingerprint of the view ``view`` was extended from (None: a full replay,
    or no manifest)."""
    sealed = sealed_manifest(view)
    return None if sealed is None else sealed[1].parent


def manifest_rows(manifest: Manifest) -> tuple[str, ...]:
    lines = [MANIFEST_VERSION, f"parent {manifest.parent or '-'}"]
    lines += [f"segment {n} {b}" for n, b in sorted(manifest.segments.items())]
    lines += [f"body {h} {b or '-'}" for h, b in sorted(manifest.bodies.items())]
    return tuple(lines)


def sealed_manifest(view: Path) -> tuple[str, Manifest] | None:
    """(config key, manifest) sealed with ``view``; None when the view is not one this
    machine built, or the seal is of another version."""
    detail = view_detail(view)
    if not isinstance(detail, tuple) or len(detail) != 2 or not isinstance(detail[1], tuple):
        return None
    manifest = read_manifest(detail[1])
    return None if manifest is None else (str(detail[0]), manifest)


def read_manifest(lines: tuple[object, ...]) -> Manifest | None:
    """The manifest of sealed rows; None when of another version or damaged."""
    if len(lines) < 2 or not all(isinstance(line, str) for line in lines):
        return None
    head, parent, *rows = (str(line) for line in lines)
    if head != MANIFEST_VERSION or not parent.startswith("parent "):
        return None
    segments: dict[str, str] = {}
    bodies: dict[str, str | None] = {}
    for row in rows:
        kind, _, rest = row.partition(" ")
        key, _, blob = rest.partition(" ")
        if kind == "segment" and key and blob:
            segments[key] = blob
        elif kind == "body" and key and blob:
            bodies[key] = None if blob == "-" else blob
        else:
            return None
    origin = parent.removeprefix("parent ")
    return Manifest(segments, bodies, None if origin == "-" else origin)

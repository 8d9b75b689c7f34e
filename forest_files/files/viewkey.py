"""Naming cached custody views: a fingerprint of a source's ledger, and the bound
paths file beside each view. Light: standard library and gitio only, so the hook
can answer "does this commit touch anything bound?" without loading the store.

Stores: ``.forest/cache/views/<fingerprint>.paths`` (JSON list of bound paths),
written next to the view it describes.
Refuses: nothing.
Returns: fingerprints, view paths, bound path sets (None when not cached).
Test: tests/test_hooks.py
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from forest_files import gitio

LEDGER_PREFIX = ".forest/ledger/"


def ledger_fingerprint(root: Path, source: str, *, keep_index_file: bool = False) -> str:
    """A hash of every ledger blob id and of forest.toml at ``source`` (index or commit)."""
    # Only the ledger and forest.toml are listed: cost follows the ledger, not the tree.
    if source == "index":
        entries = gitio.ls_files_stage(root, LEDGER_PREFIX, keep_index_file=keep_index_file)
        entries += gitio.ls_files_stage(root, "forest.toml", keep_index_file=keep_index_file)
    else:
        entries = gitio.ls_tree(root, source, LEDGER_PREFIX) + gitio.ls_tree(
            root, source, "forest.toml"
        )
    digest = hashlib.sha256(b"forest-view-v1\0")
    for e in entries:
        if e.path.startswith(LEDGER_PREFIX) or e.path == "forest.toml":
            digest.update(f"{e.path}\0{e.blob}\0{e.stage}\n".encode())
    return digest.hexdigest()


def view_path(root: Path, fingerprint: str) -> Path:
    return root / ".forest" / "cache" / "views" / f"{fingerprint}.db"


def write_bound_paths(view: Path, paths: set[str]) -> None:
    target = view.with_suffix(".paths")
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(json.dumps(sorted(paths)), encoding="utf-8")
    tmp.replace(target)


def bound_paths(view: Path) -> set[str] | None:
    try:
        return set(json.loads(view.with_suffix(".paths").read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return None

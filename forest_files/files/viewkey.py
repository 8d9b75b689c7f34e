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
from forest_files.gitio._run import refuse_option

LEDGER_PREFIX = ".forest/ledger/"


def ledger_fingerprint(root: Path, source: str, *, keep_index_file: bool = False) -> str:
    """A hash of every ledger blob id and of forest.toml at ``source`` (index or commit).

    Hashes git's raw listing (only the ledger and forest.toml are listed), without
    parsing it: its cost follows the ledger's size in bytes, not the tree's.
    """
    spec = ["--", LEDGER_PREFIX, "forest.toml"]
    if source == "index":
        args = ["ls-files", "-s", "-z", "--full-name", *spec]
    else:
        refuse_option(source, "revision")
        args = ["ls-tree", "-r", "-z", "--full-tree", source, *spec]
    raw = gitio.run_git(root, args, keep_index_file=keep_index_file).stdout
    return hashlib.sha256(b"forest-view-v2\0" + raw).hexdigest()


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

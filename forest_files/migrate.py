"""Convert a Forest 0.3.x or 0.4 store into a new forest-files store.

Stores: one new file at ``new_path``. It is built beside the target under a
temporary name and linked into place only after the whole copy committed and
its views were checked, so a failed run leaves no target behind. The source is
opened read-only (``mode=ro``) inside one read transaction and never written.
Refuses: an existing target, even an empty one, or a leftover SQLite journal
beside it; a missing, non-SQLite or non-Forest source; a Forest version other
than 0.3.x and 0.4.0; a store that is already forest-files; any entry whose
body_hash is not the SHA-256 of its body (the whole run, naming the ids);
meta_json that is not a JSON object; an edge history the schema rejects.
A copy the disk refuses (full, a quota, a file-size limit) names the target and says
to free space (``NoSpace``); nothing is left there.
Returns: ``MigrationReport`` with counts and notes on every translation made.
Test: tests/face/test_migrate.py, tests/face/test_migrate_no_room.py

Forest 0.4's import path for the migration, kept here at the top. Its parts live
in the store room: opening and recognising the source (store/migrate_source.py),
the copy (store/migrate_copy.py), the report and the views compared
(store/migrate_report.py) and the target file (store/migrate_target.py);
``MigrationReport``, ``SourceVersion`` and ``MIGRATION_SCOPE`` are re-exported.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from forest_files.store.connection import translate
from forest_files.store.migrate_copy import build
from forest_files.store.migrate_report import MIGRATION_SCOPE, MigrationReport
from forest_files.store.migrate_source import SourceVersion, detect_version, open_source
from forest_files.store.migrate_target import discard, publish, refuse_existing_target, temp_beside

__all__ = ["MIGRATION_SCOPE", "MigrationReport", "SourceVersion", "migrate_to_latest"]


def migrate_to_latest(
    old_path: str | os.PathLike[str], new_path: str | os.PathLike[str]
) -> MigrationReport:
    """Copy the Forest store at ``old_path`` into a new forest-files store at ``new_path``."""
    old, new = Path(old_path), Path(new_path)
    refuse_existing_target(new)
    src = open_source(old)
    try:
        version = detect_version(src, old)
        tmp = temp_beside(new)
        try:
            report = build(src, tmp, version)
            publish(tmp, new)
        except BaseException:
            discard(tmp)
            raise
    except sqlite3.Error as exc:
        # A raw error here is the copy's, written beside ``new``: name that file (the
        # full disk, or the folder to make writable), not only the source.
        raise translate(exc, f"migrating {old}", path=str(new)) from exc
    finally:
        src.close()
    return report

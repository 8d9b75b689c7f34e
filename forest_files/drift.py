"""Whole-file drift with Forest semantics (the section engine is forest_files.files).

Stores: nothing.
Refuses: a ``file_path`` that is not a str or a Path (``BoundsRefused``,
store/args.py: ``None`` or a list raised a bare ``TypeError``); an id that is not
an adoption record; an id of another scope than
the store's (``ScopeMismatch``); a path that is a directory;
content that is not UTF-8 text (naming the byte offset).
Returns: Forest's list of warning dicts (empty when the file matches). Newlines
are normalised on both sides (CRLF/CR -> LF) and a UTF-8 BOM is dropped, and a
warning is added when the adopted entry is no longer current ground.
Test: tests/face/test_drift.py, tests/store/test_face_arguments.py
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forest_files.kernel.errors import ForestError
from forest_files.kernel.hashing import hash_body
from forest_files.store import args

if TYPE_CHECKING:
    from forest_files.store.forest import ForestStore

_ADOPTED_TARGET = """
SELECT t.id, t.body_hash FROM edges a JOIN entries t ON t.id = a.to_id
WHERE a.from_id = ? AND a.kind = 'adopts' ORDER BY a.id DESC LIMIT 1
"""


def _normalise(text: str) -> str:
    return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def _adopted(conn: sqlite3.Connection, entry_id: int) -> sqlite3.Row | None:
    row = conn.execute("SELECT bucket FROM entries WHERE id = ?", (entry_id,)).fetchone()
    if row is None:
        return None
    if row[0] != "adoption_record":
        raise ForestError(f"entry {entry_id} is not an adoption_record")
    target: sqlite3.Row | None = conn.execute(_ADOPTED_TARGET, (entry_id,)).fetchone()
    return target


def adoption_hash_for_entry(conn: sqlite3.Connection, entry_id: int) -> str | None:
    """Body hash of what the adoption record ``entry_id`` adopted, or None."""
    target = _adopted(conn, entry_id)
    return None if target is None else str(target[1])


def read_text_file(path: Path) -> str:
    """Read ``path`` as UTF-8 text or refuse, naming the first bad byte."""
    if path.is_dir():
        raise ForestError(f"{path} is a directory; give the path of a text file")
    data = path.read_bytes()
    nul = data.find(b"\x00")
    if nul >= 0:
        raise ForestError(
            f"{path} looks binary (NUL byte at offset {nul}); only UTF-8 text files can be checked"
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ForestError(
            f"{path} is not UTF-8 text (invalid byte at offset {exc.start}); re-encode it as UTF-8"
        ) from None


def check_file_drift(
    file_path: str | Path, store: ForestStore, adoption_entry_id: int
) -> list[dict[str, Any]]:
    """Compare a whole file with the body adopted by ``adoption_entry_id``."""
    path = Path(args.path("check_file_drift", "file_path", file_path, "Path('notes.md')"))
    store.in_scope(adoption_entry_id, "check_file_drift")
    if not path.exists():
        return [{"label": "warning", "text": f"file missing: {path}", "path": str(path)}]
    target = _adopted(store.conn, adoption_entry_id)
    if target is None:
        return [
            {
                "label": "warning",
                "text": f"no adoption_record for id {adoption_entry_id}",
                "id": adoption_entry_id,
            }
        ]
    stored = store.get(int(target[0]))
    expected = hash_body(_normalise(stored["body"])) if stored is not None else str(target[1])
    actual = hash_body(_normalise(read_text_file(path)))
    findings: list[dict[str, Any]] = []
    if actual != expected:
        findings.append(
            {
                "label": "warning",
                "text": "file does not match adoption trail",
                "path": str(path),
                "adoption_entry_id": adoption_entry_id,
                "expected_hash": str(target[1]),
                "actual_hash": actual,
            }
        )
    if not store.is_ground(int(target[0])):
        findings.append(
            {
                "label": "warning",
                "text": f"ground moved: adopted entry {target[0]} is no longer current ground",
                "path": str(path),
                "adoption_entry_id": adoption_entry_id,
            }
        )
    return findings

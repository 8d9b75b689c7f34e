"""Where a test finds forest-files' local state: inside the git directory."""

from __future__ import annotations

from pathlib import Path

from forest_files.kernel.state import git_dirs


def local_state(root: Path | str) -> Path:
    """``<git-dir>/forest`` of the worktree at ``root`` (not created)."""
    return git_dirs(root)[0] / "forest"


def shared_state(root: Path | str) -> Path:
    """``<git-common-dir>/forest`` of the clone at ``root`` (not created)."""
    return git_dirs(root)[1] / "forest"


def files_state(root: Path) -> dict[str, str]:
    """a.md, every ledger file and every capture, with the SHA-256 of their bytes: what a
    refused command must leave byte-identical."""
    import hashlib

    paths = [root / "a.md", *(root / ".forest" / "ledger").rglob("*")]
    paths += (shared_state(root) / "captures").glob("*")
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(paths)
        if p.is_file()
    }


def behind_the_triggers(root: Path, sql: str, *args: object) -> None:
    """``sql`` run on the index (``woods.db``) with its triggers dropped, then put back as
    they were: an edit made outside forest-files, which the triggers would refuse."""
    import sqlite3
    from contextlib import closing

    with closing(sqlite3.connect(local_state(root) / "woods.db")) as conn:
        saved = conn.execute("SELECT name, sql FROM sqlite_master WHERE type='trigger'").fetchall()
        with conn:
            for name, _sql in saved:
                conn.execute(f"DROP TRIGGER {name}")
            conn.execute(sql, args)
            for _name, made in saved:
                conn.execute(made)


def hashing_row(root: Path, where: str, signer: str, words: str) -> None:
    """The index's entry row ``where`` selects made ``signer``'s with ``words``, its
    content id recomputed to hash to its fields: a forged row the index's own checks
    cannot tell from a real one (only the ledger can)."""
    import dataclasses
    import sqlite3
    from contextlib import closing

    from forest_files.kernel.hashing import hash_body
    from forest_files.ledger.record import recompute_id, record_of_row

    with closing(sqlite3.connect(local_state(root) / "woods.db")) as conn:
        conn.row_factory = sqlite3.Row
        row = conn.execute(f"SELECT * FROM entries WHERE {where}").fetchone()
        origins = conn.execute(
            "SELECT t.content_id, g.kind FROM edges g JOIN entries t ON t.id = g.to_id "
            "WHERE g.from_id = ?",
            (row["id"],),
        ).fetchall()
    record = record_of_row(row, tuple((str(c), str(k)) for c, k in origins))
    forged = dataclasses.replace(record, signature=signer, body_hash=hash_body(words))
    behind_the_triggers(
        root,
        "UPDATE entries SET signature = ?, body = ?, body_hash = ?, content_id = ? WHERE id = ?",
        signer,
        words,
        forged.body_hash,
        recompute_id(forged),
        row["id"],
    )


def erasure_statements(where: str) -> tuple[str, str]:
    """The statements that make the entry row ``where`` selects look erased (its words
    the marker, an ``erasures`` row of Mallory's to back it): what a forget leaves, made
    where the ledger erased nothing."""
    return (
        "INSERT INTO erasures (entry_id, signature, reason) "
        f"SELECT id, 'Mallory <m@x>', 'forged' FROM entries WHERE {where}",
        f"UPDATE entries SET body = '[erased]' WHERE {where}",
    )


def forge_erasure(root: Path, where: str) -> str:
    """The row ``where`` selects made to look erased behind the triggers; its body hash."""
    import sqlite3
    from contextlib import closing

    with closing(sqlite3.connect(local_state(root) / "woods.db")) as conn:
        ((body_hash,),) = conn.execute(f"SELECT body_hash FROM entries WHERE {where}")
    for sql in erasure_statements(where):
        behind_the_triggers(root, sql)
    return str(body_hash)

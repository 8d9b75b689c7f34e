"""What a replay hashes of each body: its bytes once, as the reader reads them
(custody/apply_bodies.py), not its text again in the applier (apply_rules.py).

A view build (``forest ci`` on a fresh clone, the first hook) reads every body file
from git through ``body_reader``, which hashes the bytes against the body hash and
decodes them as strict UTF-8; the applier's ``ApplyRules.body`` then hashed the
decoded text once more, which can only give the same value. It takes that from the
reader's type (``HashedBodies``) now. Counted, not timed: hash calls. Bytes swapped
under a body hash after they were checked are still refused where they are read, and
text from any other reader is still hashed by the applier.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

import pytest

from forest_files import gitio
from forest_files.custody import apply_bodies, apply_rules
from forest_files.custody.replay import replay
from forest_files.custody.repository import Repository
from forest_files.custody.sources import body_reader, ledger_blobs, snapshot_of
from forest_files.custody.viewbuild import build_view
from forest_files.custody.viewkey import ledger_fingerprint, view_path
from forest_files.kernel import hashing
from forest_files.ledger.acts import LedgerError
from forest_files.store.forest import ForestStore
from tests.helpers.git import commit_all, make_repo

BY = "t <t@example.org>"
N = 12


def _adopted(tmp_path: Path) -> Path:
    root = make_repo(tmp_path / "r")
    with Repository.init(root, project_id="p") as repo:
        repo.adopt_many([f"body {i} of the batch\n" for i in range(N)], words="adopt", by=BY)
    commit_all(root, "adopt")
    return root


def _text_hashes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text the applier hashes (``hash_body`` as apply_rules.py calls it)."""
    hashed: list[str] = []
    real: Callable[[str], str] = hashing.hash_body

    def counting(text: str) -> str:
        hashed.append(text)
        return real(text)

    monkeypatch.setattr(apply_rules, "hash_body", counting)
    return hashed


def _byte_hashes(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """Every body's bytes the reader hashes (apply_bodies.py's call of ledger/segments.py
    ``body_text``, the one rule that hashes and decodes a body file's bytes)."""
    hashed: list[bytes] = []
    real = apply_bodies.body_text

    def body_text(body_hash: str, data: bytes) -> str:
        hashed.append(data)
        return real(body_hash, data)

    monkeypatch.setattr(apply_bodies, "body_text", body_text)
    return hashed


def test_view_build_body_hashed_once_as_bytes_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fresh view of a commit: each body's bytes hashed once by the reader, its text
    not again by the applier (before: N + 1 texts hashed again); rows as before."""
    root = _adopted(tmp_path)
    texts, blobs = _text_hashes(monkeypatch), _byte_hashes(monkeypatch)
    target = view_path(root, ledger_fingerprint(root, "HEAD"))
    assert build_view(root, "HEAD", False, target) == "full"
    assert texts == [], len(texts)
    assert len(blobs) == N + 1  # the N bodies and the adopting words, once each
    store = ForestStore(target)
    try:
        rows = store.conn.execute("SELECT body, body_hash FROM entries").fetchall()
    finally:
        store.close()
    bodies = [(b, h) for b, h in rows if str(b).startswith("body ")]
    assert len(bodies) == N
    assert all(hashlib.sha256(str(b).encode()).hexdigest() == h for b, h in rows if b)


def _head_ledger(root: Path) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """HEAD's segments by name and body bytes by hash, as a view build reads them."""
    where = ledger_blobs(root, "HEAD")
    data = gitio.cat_blobs(root, [*where.segments.values(), *where.bodies.values()])
    segments = {n: data[b] for n, b in where.segments.items()}
    return segments, {h: data[b] for h, b in where.bodies.items()}


def _replayed(tmp_path: Path, segments: dict[str, bytes], read: Callable[[str], str | None]) -> int:
    """Replay ``segments`` into a fresh store with ``read``; the entries it holds after."""
    tmp_path.mkdir(exist_ok=True)
    store = ForestStore(tmp_path / "fresh.db")
    try:
        store.init_schema()
        store.ensure_anchor("p")
        before = store.conn.execute("SELECT count(*) FROM entries").fetchone()[0]
        try:
            replay(store, snapshot_of(segments).ordered(), read)
        finally:
            after = store.conn.execute("SELECT count(*) FROM entries").fetchone()[0]
        return int(after) - int(before)
    finally:
        store.close()


def test_body_swapped_after_verify_refused(tmp_path: Path) -> None:
    """Every body hashed and matched (as verify does), then one body's bytes swapped
    for other UTF-8 text under the same hash before the replay reads them: refused
    ``body-hash`` where the reader reads them, nothing written."""
    root = _adopted(tmp_path)
    segments, bodies = _head_ledger(root)
    assert all(hashlib.sha256(b).hexdigest() == h for h, b in bodies.items())  # verified
    reader = body_reader(bodies)
    swapped = next(h for h, b in bodies.items() if b.startswith(b"body 3 "))
    bodies[swapped] = b"body 3 of the batch, swapped after verify\n"
    with pytest.raises(LedgerError) as caught:
        _replayed(tmp_path, segments, reader)
    assert caught.value.code == "body-hash"
    assert swapped in str(caught.value)
    assert _replayed(tmp_path / "again", segments, body_reader(_head_ledger(root)[1])) > 0


def test_body_text_from_another_reader_still_hashed_refused(tmp_path: Path) -> None:
    """A reader that is not ``HashedBodies`` (a caller's own function) whose text is
    not the body's: the applier hashes it and refuses it, nothing written."""
    root = _adopted(tmp_path)
    segments, bodies = _head_ledger(root)

    def forged(body_hash: str) -> str | None:
        return None if body_hash not in bodies else "forged text\n"

    with pytest.raises(LedgerError) as caught:
        _replayed(tmp_path, segments, forged)
    assert caught.value.code == "body-hash"

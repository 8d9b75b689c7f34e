"""Blobs of the git index or a commit's tree, by id: bytes read in batches, hashes kept.

content_git.py lists what stands at each path (path -> blob id); this module holds
what is read of those blobs: their bytes, taken from the working tree where the file
is that blob or else from one ``git cat-file --batch`` per batch, and their normalised
file hashes, kept on this machine in the blob hash cache (statcache.py).

Stores: blob file hashes in the blob hash cache (statcache.py, under the git
directory); nothing else.
Refuses: nothing (an id git does not have is gitio ``cat_blobs``' to refuse).
Returns: bytes of blobs (one, or several as a dict by id); a blob's known file hash.
Test: tests/custody/test_content_git_only.py, tests/gate/test_ci_repeats.py,
      tests/check/test_check.py
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from forest_files.custody.statcache import BlobHashCache


class BlobReads:
    """The bytes and file hashes of one repository's blobs, read as a check asks."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._cache: dict[str, bytes] = {}
        self._hashes: BlobHashCache | None = None  # blob id -> file hash (statcache.py)
        # What the last prefetch found in ``_hashes`` for its blobs (None: not there), so
        # the check that follows asks the blob hash cache once per binding, not again.
        self._looked: dict[str, str | None] = {}

    def _blob_hashes(self) -> BlobHashCache:
        if self._hashes is None:
            self._hashes = BlobHashCache(self.root)
        return self._hashes

    def known_hash(self, blob: str) -> str | None:
        """The normalised file hash of ``blob``, when this machine computed it."""
        if blob in self._looked:  # the prefetch of its batch asked the cache already
            return self._looked[blob]
        return self._blob_hashes().get(blob)

    def remember(self, blob: str, file_hash: str | None) -> None:
        """Record ``file_hash`` for ``blob``."""
        if blob not in self._looked:
            self._blob_hashes().put(blob, file_hash)
            return
        # The prefetch of its batch asked the cache for this blob (what it holds since:
        # ``_looked`` follows every put made here), so it is not asked a third time.
        self._blob_hashes().put_over(blob, file_hash, self._looked[blob])
        if file_hash is not None:
            self._looked[blob] = file_hash

    def save(self) -> None:
        if self._hashes is not None:
            self._hashes.save()

    def read(self, blob: str) -> bytes:
        if blob not in self._cache:
            self._read_from_git([blob])
        return self._cache[blob]

    def read_unedited(self, blobs: Mapping[str, str]) -> dict[str, bytes]:
        """The bytes of ``blobs`` (path -> blob id), each from the working tree's file
        when its bytes are that blob (checked out and not edited: no git asked,
        content_read.py ``read_as_blob``), the rest in one ``git cat-file``."""
        from forest_files.custody.content_read import read_as_blob

        for path, blob in blobs.items():
            data = None if blob in self._cache else read_as_blob(str(self.root / path), blob)
            if data is not None:
                self._cache[blob] = data
        self._read_from_git([b for b in blobs.values() if b not in self._cache])
        return {p: self._cache[b] for p, b in blobs.items()}

    def prefetch(self, blobs: Iterable[str], *, known_too: bool) -> None:
        """Read ``blobs`` in one ``git cat-file --batch``; blobs read by an earlier
        prefetch are let go (a check holds one batch at a time). A blob whose file hash
        is known is skipped (a check needs no bytes for it) unless ``known_too``."""
        wanted = list(blobs)
        self._looked = {}
        if not known_too:
            hashes = self._blob_hashes()
            self._looked = {b: hashes.get(b) for b in wanted}
            wanted = [b for b, known in self._looked.items() if known is None]  # no read needed
        keep = {b: self._cache[b] for b in wanted if b in self._cache}
        self._cache = keep
        self._read_from_git([b for b in wanted if b not in keep])

    def _read_from_git(self, blobs: list[str]) -> None:
        if blobs:
            from forest_files.gitio import cat_blobs  # by use: a worktree check needs no git

            self._cache.update(cat_blobs(self.root, blobs))

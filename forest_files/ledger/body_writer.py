"""The body files of a bulk adoption, written by a child process of their own.

A thread writing ten thousand files competes for the GIL with the recording
thread: every system call it makes must take the lock back, so it proceeds only
as fast as the recorder lets go (measured: 5 s on a thread against 1 s alone,
and the recorder slowed too). A child process has its own interpreter.

Stores: ``<ledger>/bodies/…`` through ``segment_write.write_bodies`` (the one body
writer: each body hashed again, temp file in ``.git/forest/tmp``, rename, one
sync). The batch comes through its stdin (``kernel.spawn``: started, fed and
heard there), the ledger directory as its one argument.
Refuses: what ``write_bodies`` refuses (a body under a hash that is not its own),
reported on stdout as one JSON object, never a traceback; a batch that does not
decode.
Returns: ``{"ok": true}``; ``{"error": "refused"|"os"|"batch", …}`` otherwise,
after the batch's digest (``spawn.serve``). The child ignores SIGINT: Ctrl-C
reaches the whole foreground group, and the parent decides
(``EarlyBodies.discard`` kills it and takes back what it wrote).
Test: tests/ledger/test_early_bodies.py
"""

from __future__ import annotations

import json
import struct
import sys
from collections.abc import Mapping
from pathlib import Path

_HEAD = struct.Struct(">64sQ")  # the body's hash (64 ASCII hex digits), its UTF-8 length


def encode_batch(bodies: Mapping[str, str]) -> bytes:
    """``bodies`` (hash -> text) as one blob: per body a head, then its UTF-8 bytes."""
    parts: list[bytes] = []
    for body_hash, text in bodies.items():
        data = text.encode("utf-8")
        parts += (_HEAD.pack(body_hash.encode("ascii"), len(data)), data)
    return b"".join(parts)


def decode_batch(blob: bytes) -> dict[str, str]:
    """The inverse of ``encode_batch``; ValueError for a blob it did not make."""
    out: dict[str, str] = {}
    at, size = 0, len(blob)
    while at < size:
        if at + _HEAD.size > size:
            raise ValueError("the batch ends inside a body's head")
        raw_hash, length = _HEAD.unpack_from(blob, at)
        at += _HEAD.size
        if at + length > size:
            raise ValueError("the batch ends inside a body")
        out[raw_hash.decode("ascii")] = blob[at : at + length].decode("utf-8")
        at += length
    return out


def _report(doc: dict[str, object]) -> bytes:
    return json.dumps(doc).encode("utf-8") + b"\n"


def _work(ledger_dir: Path, blob: bytes) -> bytes:
    """The child: write the batch's bodies; the report, whatever happened."""
    from forest_files.kernel.errors import ForestError
    from forest_files.ledger.segment_write import write_bodies

    try:
        bodies = decode_batch(blob)
    except ValueError as exc:
        return _report({"error": "batch", "message": str(exc)})
    try:
        write_bodies(ledger_dir, bodies)
    except ForestError as exc:
        return _report({"error": "refused", "message": str(exc)})
    except OSError as exc:
        return _report({"error": "os", "errno": exc.errno, "message": exc.strerror or str(exc)})
    return _report({"ok": True})


if __name__ == "__main__":
    from forest_files.kernel.spawn import serve

    serve(lambda blob: _work(Path(sys.argv[1]), blob))

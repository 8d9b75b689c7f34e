"""The ledger: custody acts that travel with the repository, as immutable files.

Stores: ``.forest/ledger/segments/*.jsonl`` and ``.forest/ledger/bodies/``.
Refuses: damaged, forged or newer-format files, with ``LedgerError``.
Returns: acts, snapshots, dependency order, verify reports.
Test: tests/test_ledger_codec.py

Imports only the standard library and ``forest_files.hashing``/``errors``: the
git hook reads the ledger on its fast path.
"""

from __future__ import annotations

from forest_files.ledger.acts import (
    FORMAT_VERSION,
    KINDS,
    Act,
    LedgerError,
    body_hashes,
    decode_line,
    encode_act,
    is_hex64,
    make_act,
    topo_order,
)
from forest_files.ledger.segments import (
    LedgerSnapshot,
    SegmentRef,
    body_path,
    read_body,
    read_ledger,
    read_segment,
    read_segment_bytes,
    write_segment,
)
from forest_files.ledger.verify import Fault, VerifyReport, verify_ledger

__all__ = [
    "FORMAT_VERSION",
    "KINDS",
    "Act",
    "Fault",
    "LedgerError",
    "LedgerSnapshot",
    "SegmentRef",
    "VerifyReport",
    "body_hashes",
    "body_path",
    "decode_line",
    "encode_act",
    "is_hex64",
    "make_act",
    "read_body",
    "read_ledger",
    "read_segment",
    "read_segment_bytes",
    "topo_order",
    "verify_ledger",
    "write_segment",
]

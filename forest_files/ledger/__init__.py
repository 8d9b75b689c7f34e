"""The ledger: custody acts that travel with the repository, as immutable files.

Stores: ``.forest/ledger/segments/*.jsonl`` and ``.forest/ledger/bodies/``,
written through temp files in ``.git/forest/tmp`` (``placing``).
Refuses: damaged, forged or newer-format files, with ``LedgerError``; verify
names anything else under the ledger a ``stray`` (``strays``).
Returns: acts, snapshots, dependency order, verify reports.
Test: tests/ledger/test_ledger_codec.py

Imports only the standard library and ``forest_files.kernel.hashing``/``errors``: the
git hook reads the ledger on its fast path. Names load lazily (PEP 562), so
``forest_files.custody.bindings`` alone does not load segments and verify.
"""

from __future__ import annotations

from forest_files.kernel.lazy import lazy_exports

TYPE_CHECKING = False
_EXPORTS: dict[str, str] = {
    "Act": "forest_files.ledger.acts",
    "FORMAT_VERSION": "forest_files.ledger.acts",
    "Fault": "forest_files.ledger.verify",
    "KINDS": "forest_files.ledger.acts",
    "LedgerError": "forest_files.ledger.acts",
    "LedgerSnapshot": "forest_files.ledger.segments",
    "SegmentRef": "forest_files.ledger.segment_write",
    "VerifyReport": "forest_files.ledger.verify",
    "body_hashes": "forest_files.ledger.acts",
    "body_path": "forest_files.ledger.segments",
    "decode_line": "forest_files.ledger.acts",
    "encode_act": "forest_files.ledger.acts",
    "is_hex64": "forest_files.ledger.acts",
    "make_act": "forest_files.ledger.acts",
    "read_body": "forest_files.ledger.segments",
    "read_ledger": "forest_files.ledger.segments",
    "read_segment": "forest_files.ledger.segments",
    "read_segment_bytes": "forest_files.ledger.segments",
    "topo_order": "forest_files.ledger.act_order",
    "verify_ledger": "forest_files.ledger.verify",
    "write_segment": "forest_files.ledger.segment_write",
}

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


__getattr__, __dir__ = lazy_exports(globals(), _EXPORTS)

if TYPE_CHECKING:
    from forest_files.ledger.act_order import topo_order
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
    )
    from forest_files.ledger.segment_write import SegmentRef, write_segment
    from forest_files.ledger.segments import (
        LedgerSnapshot,
        body_path,
        read_body,
        read_ledger,
        read_segment,
        read_segment_bytes,
    )
    from forest_files.ledger.verify import Fault, VerifyReport, verify_ledger

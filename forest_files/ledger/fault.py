"""The ledger's refusal and its id rule: what every module of the format refuses with.

Kept apart from the codec (``acts``) and the typed kinds (``kinds``) so both import it
and neither imports the other's module to refuse a line.

Stores: nothing.
Refuses: nothing itself.
Returns: ``LedgerError``; ``is_hex64`` (an act id, content id or body hash).
Test: tests/ledger/test_ledger_codec.py
"""

from __future__ import annotations

import re

from forest_files.kernel.errors import StoreCorruption

_HEX64 = re.compile(r"[0-9a-f]{64}")
HEX64_MATCH = _HEX64.fullmatch  # bound once: a ledger's decode asks it ~10 times an act


def is_hex64(value: object) -> bool:
    """True for a lowercase 64-digit hex string (an act id or a body hash)."""
    return isinstance(value, str) and len(value) == 64 and HEX64_MATCH(value) is not None


class LedgerError(StoreCorruption):
    """A ledger file is damaged, forged or from a newer format. Fail closed.

    ``code`` is one of the fault codes of ``forest_files.ledger.verify``. ``source``
    says which ledger was read when it is not the working tree's: ``"index"`` (git's
    index) or the commit named; set by whoever read it from git (custody/viewbuild.py).
    """

    source: str | None = None

    def __init__(
        self,
        reason: str,
        *,
        segment: str | None = None,
        line: int | None = None,
        act_id: str | None = None,
        code: str = "malformed",
    ) -> None:
        where = []
        if segment is not None:
            where.append(f"segment {segment}")
        if line is not None:
            where.append(f"line {line}")
        message = f"ledger {' '.join(where)}: {reason}" if where else f"ledger: {reason}"
        super().__init__(message)
        self.reason = reason
        self.segment = segment
        self.line = line
        self.act_id = act_id
        self.code = code

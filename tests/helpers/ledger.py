"""Ledger files removed by hand, as a person tidying an erasure would."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from forest_files.ledger.segments import body_path


def delete_body(ledger: Path, body_hash: str) -> None:
    """Remove one body file and, when it was the last of its prefix directory,
    that directory too (verify names an empty prefix directory a ``stray``)."""
    path = body_path(ledger, body_hash)
    path.unlink()
    with contextlib.suppress(OSError):  # other bodies still live there
        os.rmdir(path.parent)

"""The child of a parallel read (parallel_read.py): one part of the adoption targets,
read by ``targets.read_sections`` and answered as JSON through ``kernel.spawn``.

Stores: nothing.
Refuses: nothing itself: a part it cannot read answers None (exit 1), and the
parent reads that part again and says what is wrong.
Returns: the sections of its part, as JSON.
Test: tests/custody/test_parallel_read.py
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

from forest_files.kernel import spawn


def _work(job: bytes) -> bytes | None:
    """The child: read the listed part; every section as JSON, or None (exit 1)."""
    from forest_files.custody.targets import read_sections
    from forest_files.kernel.errors import ForestError

    try:
        doc = json.loads(job)
        sections = read_sections(
            Path(doc["root"]), doc["specs"], (), max_bytes=int(doc["max_bytes"]), parallel=False
        )
    except (ForestError, OSError, ValueError, KeyError, TypeError):
        return None  # the parent reads this part itself, and says what is wrong
    data = json.dumps({"sections": [asdict(s) for s in sections]}, ensure_ascii=False)
    return data.encode("utf-8")


if __name__ == "__main__":
    spawn.serve(_work)

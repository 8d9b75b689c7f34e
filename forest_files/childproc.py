"""Child Python processes of forest-files' own (the body writer, the parallel reader).

A bulk adoption hands work that would otherwise wait for the GIL to a child
interpreter: the same executable, running a module of this very installation
(its directory first on the child's ``PYTHONPATH``, whatever the parent's
``sys.path`` was).

Stores: nothing.
Refuses: nothing; ``command`` is None when this process has no interpreter to
start (an embedded or frozen Python): the caller then does the work itself.
Returns: the argv and the environment of a child.
Test: tests/test_early_bodies.py, tests/test_parallel_read.py
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity, where the system says)."""
    affinity = getattr(os, "sched_getaffinity", None)
    if affinity is not None:
        try:
            return max(1, len(affinity(0)))
        except OSError:
            pass
    return os.cpu_count() or 1


def command(module: str, *args: str) -> list[str] | None:
    """``python -m module args…`` with this interpreter, or None when there is none."""
    if not sys.executable:
        return None
    return [sys.executable, "-m", module, *args]


def env() -> dict[str, str]:
    """The environment, with this process's forest_files first on the child's path."""
    here = str(Path(__file__).resolve().parent.parent)
    out = dict(os.environ)
    out["PYTHONPATH"] = os.pathsep.join(p for p in (here, out.get("PYTHONPATH", "")) if p)
    return out

"""Cyclic garbage collection paused around work that allocates millions of lasting,
acyclic objects (decoding a ledger, replaying it, adopting many files at once).

Stores: nothing. Refuses: nothing.
Returns: ``gc_paused``, a context manager: collection off inside, restored after as it
was (even on error); reference counting frees everything as usual meanwhile.
Test: tests/kernel/test_gcpause.py
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic garbage collection meanwhile (restored after, even on error).

    Decoding or replaying a ledger allocates millions of acyclic objects that all
    stay alive; each automatic collection would walk all of them again (~20% of a
    rebuild).
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()

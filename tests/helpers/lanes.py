"""A matrix's cases split over the two lanes: the README's fast suite runs a few
representatives, ``bash .ci/run`` (the slow lane after it) runs every case.

A matrix repeats one rule over many states (a mode on each store, a damage on each
table); each case costs a repository and several ``forest`` processes. The cases
named ``fast`` run in both lanes; the others are marked ``slow``.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

import pytest


def lanes(cases: Iterable[str], fast: Collection[str]) -> list[Any]:  # pytest's ParameterSet
    """``cases`` as pytest parameters (each its own id), those not in ``fast`` slow."""
    listed = list(cases)
    unknown = sorted(set(fast) - set(listed))
    assert not unknown, f"no such case: {unknown}"
    return [pytest.param(c, marks=() if c in fast else pytest.mark.slow) for c in listed]

"""What a parallel worker's child processes hand back, watched without changing it."""

from __future__ import annotations

from collections.abc import Sized
from typing import Any

import pytest


def observe_results(monkeypatch: pytest.MonkeyPatch, child_class: Any) -> list[int | None]:
    """The size of what each child's ``result()`` handed back, in order (None: the
    child's answer was refused, so its part was done by the parent again)."""
    handed: list[int | None] = []
    result = child_class.result

    def observed(child: object) -> Sized | None:
        got: Sized | None = result(child)
        handed.append(None if got is None else len(got))
        return got

    monkeypatch.setattr(child_class, "result", observed)
    return handed

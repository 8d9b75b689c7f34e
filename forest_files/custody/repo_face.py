"""What custody's helper modules see of a ``Repository``: a Protocol, so they take the
repository without importing repository.py (no import cycle).

Stores: nothing.
Refuses: nothing.
Returns: ``Custodian`` (the attributes and methods a helper may use of the
repository) and ``Recorded`` (what a build hands ``record``: acts and bodies).
Test: tests/custody/test_repository.py
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from forest_files.custody.apply import Applied
from forest_files.custody.config import ForestConfig
from forest_files.ledger.acts import Act
from forest_files.ledger.kinds import BindSpec, Payload
from forest_files.store.forest import ForestStore

Recorded = tuple[list[Act], dict[str, str]]


class Custodian(Protocol):
    root: Path
    config: ForestConfig
    ledger_dir: Path

    def store(self) -> ForestStore: ...

    def synced(self) -> ForestStore: ...

    def authorize(self, path: str | None, by: str) -> None: ...

    def authorize_pathless(self, act: Act) -> None: ...

    def act(self, payload: Payload, deps: set[str]) -> Act: ...

    def record(
        self,
        build: Callable[[ForestStore], Recorded],
        *,
        bodies_first: Mapping[str, str] | None = None,
        also_judge: str | None = None,
        on_refusal: Callable[[BaseException], None] | None = None,
    ) -> list[Applied]: ...

    def adoptions(
        self,
        store: ForestStore,
        items: Sequence[tuple[str, Mapping[str, Any], BindSpec | None]],
        *,
        words: str,
        by: str,
    ) -> Recorded: ...

"""forest-files: custody of text that must stay true.

The custody store is Forest 0.4's ops contract (``import forest_files as
forest_memory`` works for most code); see README.md for the deliberate
deviations.

Names are loaded lazily (PEP 562), so ``import forest_files.ledger`` on the
git hook's fast path does not pay for the store, the CLI or their imports.
"""

from __future__ import annotations

from forest_files.kernel.lazy import lazy_exports

TYPE_CHECKING = False  # typing itself is not imported: the hook's start-up pays for every module
__version__ = "0.1.0"

_EXPORTS: dict[str, str] = {
    "MAX_SLICE": "forest_files.scroll",
    "CeremonyRefusal": "forest_files.kernel.errors",
    "ForeignStore": "forest_files.kernel.errors",
    "ForestError": "forest_files.kernel.errors",
    "ForestStore": "forest_files.store",
    "InvalidTransition": "forest_files.kernel.errors",
    "NotFound": "forest_files.kernel.errors",
    "Refusal": "forest_files.kernel.errors",
    "ScopeMismatch": "forest_files.kernel.errors",
    "Scroll": "forest_files.scroll",
    "ScrollError": "forest_files.kernel.errors",
    "StoreBusy": "forest_files.kernel.errors",
    "StoreConstraint": "forest_files.kernel.errors",
    "StoreCorruption": "forest_files.kernel.errors",
    "Trail": "forest_files.store",
    "answer_question": "forest_files.mycelium",
    "check_file_drift": "forest_files.drift",
    "commit_turn": "forest_files.turn",
    "default_scrub": "forest_files.scrub",
    "feed_question": "forest_files.mycelium",
    "fruits_near": "forest_files.mycelium",
    "hash_body": "forest_files.kernel.hashing",
    "is_open": "forest_files.mycelium",
    "migrate_to_latest": "forest_files.migrate",
    "plant_question": "forest_files.mycelium",
    "reopen_question": "forest_files.mycelium",
    "root_to_ground": "forest_files.ceremony",
}

__all__ = [
    "MAX_SLICE",
    "CeremonyRefusal",
    "ForeignStore",
    "ForestError",
    "ForestStore",
    "InvalidTransition",
    "NotFound",
    "Refusal",
    "ScopeMismatch",
    "Scroll",
    "ScrollError",
    "StoreBusy",
    "StoreConstraint",
    "StoreCorruption",
    "Trail",
    "answer_question",
    "check_file_drift",
    "commit_turn",
    "default_scrub",
    "feed_question",
    "fruits_near",
    "hash_body",
    "is_open",
    "migrate_to_latest",
    "plant_question",
    "reopen_question",
    "root_to_ground",
]


__getattr__, __dir__ = lazy_exports(globals(), _EXPORTS)

if TYPE_CHECKING:
    from forest_files.ceremony import root_to_ground
    from forest_files.drift import check_file_drift
    from forest_files.kernel.errors import (
        CeremonyRefusal,
        ForeignStore,
        ForestError,
        InvalidTransition,
        NotFound,
        Refusal,
        ScopeMismatch,
        ScrollError,
        StoreBusy,
        StoreConstraint,
        StoreCorruption,
    )
    from forest_files.kernel.hashing import hash_body
    from forest_files.migrate import migrate_to_latest
    from forest_files.mycelium import (
        answer_question,
        feed_question,
        fruits_near,
        is_open,
        plant_question,
        reopen_question,
    )
    from forest_files.scroll import MAX_SLICE, Scroll
    from forest_files.scrub import default_scrub
    from forest_files.store import ForestStore, Trail
    from forest_files.turn import commit_turn

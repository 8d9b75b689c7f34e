"""forest-files: custody of text that must stay true.

The custody store is Forest 0.4's ops contract (``import forest_files as
forest_memory`` works for most code); see README.md for the deliberate
deviations.
"""

from forest_files.ceremony import root_to_ground
from forest_files.drift import check_file_drift
from forest_files.errors import (
    CeremonyRefusal,
    ForeignStore,
    ForestError,
    ScrollError,
    StoreBusy,
    StoreConstraint,
    StoreCorruption,
)
from forest_files.hashing import hash_body
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

__version__ = "0.1.0"

__all__ = [
    "MAX_SLICE",
    "CeremonyRefusal",
    "ForeignStore",
    "ForestError",
    "ForestStore",
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

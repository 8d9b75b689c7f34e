"""forest-files' git hooks: ``install`` (the installer) and ``run`` (what a hook runs).

Names load lazily so the hook itself (``forest_files.githooks.run``) never pays
for the installer's imports.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # typing is not imported at run time: the hook pays for every module
if TYPE_CHECKING:
    from typing import Any

_INSTALL_NAMES = {
    "CHAINED",
    "HOOKS",
    "MARKER",
    "HookState",
    "install",
    "status",
    "template",
    "uninstall",
}


def __getattr__(name: str) -> Any:
    if name in _INSTALL_NAMES:
        return getattr(importlib.import_module("forest_files.githooks.installer"), name)
    raise AttributeError(f"module 'forest_files.githooks' has no attribute {name!r}")

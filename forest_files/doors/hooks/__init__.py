"""forest-files' git hooks: ``install`` (the installer) and ``run`` (what a hook runs).

Names load lazily so the hook itself (``forest_files.doors.hooks.run``) never pays
for the installer's imports.
"""

from __future__ import annotations

from forest_files.kernel.lazy import lazy_exports

_INSTALL_NAMES = {
    "CHAINED",
    "HOOKS",
    "SERVER_HOOKS",
    "MARKER",
    "HookState",
    "hooks_place",
    "install",
    "status",
    "template",
    "uninstall",
}


__getattr__, __dir__ = lazy_exports(
    globals(), dict.fromkeys(_INSTALL_NAMES, "forest_files.doors.hooks.installer")
)

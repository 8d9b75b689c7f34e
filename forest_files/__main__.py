"""``python -m forest_files``: the ``forest`` console script, run by this interpreter.

The same light entry as the installed ``forest`` command (doors/entry.py): ``check``
and ``status`` answered without typer, everything else by the full CLI, all inside
the one error boundary. Python puts the current directory first on ``sys.path`` for
``-m``; that entry is dropped here before anything else is imported, so a
``json.py`` or ``typer/`` in the repository being judged is never what runs. Only
``forest_files/`` itself is found before this runs: in a directory that has one
(a checkout of forest-files), use ``python -P -m forest_files`` or ``forest``.

Stores: nothing itself.
Refuses: what ``forest`` refuses.
Returns: ``forest``'s exit code.
Test: tests/doors/test_entry_module.py
"""

from __future__ import annotations

import os
import sys

if __name__ == "__main__":
    if sys.path and sys.path[0] in ("", ".", os.getcwd()):
        del sys.path[0]
    sys.argv[0] = "forest"
    from forest_files.doors.entry import main

    main()

"""Door two: the background watcher. Events only say where to look; a check decides.

Stores: proposals and rebind proposals (through ``forest_files.proposals``;
renames.py), the watcher's pid,
lock, state and log files under ``.git/forest/`` (daemon.py). Never the
ledger, never ground: the watcher roots, supersedes and rebinds nothing.
Refuses: a second watcher on one repository (daemon.py).
Returns: see watcher.py (``Watcher``) and daemon.py (``run_foreground``, ``detach``,
``stop``, ``status``).
Test: tests/doors/test_watch.py, tests/doors/test_watch_daemon.py
"""

"""The databases a child process opens, named in full: the lines a test's ``python -c``
script starts with to record each ``sqlite3.connect`` (Python's audit event) in ``opened``.

Root hands SQLite ``/proc/self/fd/N/NAME`` for a state file (kernel/paths.py
``through_folder``); the record names the folder that descriptor holds instead, so a
count of a view's opens reads the same as any other user's.
"""

from __future__ import annotations

RECORD_OPENS = """
import os, re, sys
opened = []
at_fd = re.compile(r"/proc/self/fd/([0-9]+)(?=/)")
full = lambda name: at_fd.sub(lambda m: os.readlink(m[0]), name, count=1)
sys.addaudithook(lambda e, a: opened.append(full(str(a[0]))) if e == "sqlite3.connect" else None)
"""

"""A blocking call's thread of ``forest mcp`` imports nothing on its way back.

The thread that ran a read or write of the stdio streams tells the awaiting session it
is done through ``anyio.from_thread``, which anyio imports on first use. Imported on that
thread, the import could fail there (under pytest, its assertion rewriter compiled the
module on the thread and hit CPython 3.11's "AST constructor recursion depth mismatch");
the thread died without telling the session, which waited for ever: the end-of-input
test hung a CI run. blocking.py imports it with itself, on the thread that loads it.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

pytest.importorskip("mcp")

PROBE = """
import sys
import forest_files.doors.mcp.blocking
print("anyio.from_thread" in sys.modules)
"""


def test_blocking_call_thread_imports_nothing_on_its_way_back_accepted() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "True", done.stdout + done.stderr

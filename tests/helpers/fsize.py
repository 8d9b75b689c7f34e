"""The ``forest`` CLI in a child process whose files may not grow past a limit.

``RLIMIT_FSIZE`` in the child alone (never the test's own process), with SIGXFSZ
ignored: a write past the limit fails with ``EFBIG``, as on a full disk or over a
quota. POSIX only: a test using it skips where ``resource`` is missing.
"""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

from tests.helpers.cli import FOREST
from tests.helpers.git import git_env


def limited(root: Path, limit: int, *args: str) -> subprocess.CompletedProcess[str]:
    """``forest ARGS`` run in ``root``, no file it writes growing past ``limit`` bytes."""

    def cap() -> None:
        import resource

        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run(
        [FOREST, *args],
        cwd=root,
        env={**os.environ, **git_env()},
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=cap,
    )

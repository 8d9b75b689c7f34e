"""The real ``git filter-repo`` for the erasure tests: found beside this interpreter (the
test extra installs it into the venv) or on PATH; tests skip with the reason where absent."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

# The venv's scripts first: git-filter-repo among them, wherever PATH points.
PATH = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
needs_filter_repo = pytest.mark.skipif(
    shutil.which("git-filter-repo", path=PATH) is None,
    reason="git-filter-repo is not installed (the test extra has it)",
)

"""``python -m forest_files.doors.mcp [-C DIR] [--read-only]``: the server without the
``forest`` command line around it (what an MCP client may launch; what tests run),
through the one error boundary as ``forest mcp`` is (doors/boundary.py ``run_guarded``).

Stores: nothing itself; the boundary's crash log for an internal error.
Refuses: a DIR outside a git working tree under custody (one ``forest: …`` line on
stderr, exit 1).
Returns: exit 0 when the client closes the stream; at SIGTERM or SIGHUP (128 + the
signal) or Ctrl-C (130), one ``forest: …`` line (server.py ``serve``); any other
failure as the boundary says and codes it (standard output unwritable: one line,
exit 1; an internal error: one line naming its crash log, exit 3), never a traceback.
Test: tests/doors/test_mcp_server.py, tests/doors/test_mcp_module_boundary.py
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

MODULE = "forest_files.doors.mcp"


def main(argv: list[str] | None = None) -> int:
    from forest_files.doors.boundary import run_guarded

    args = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(prog="forest-mcp", description=__doc__.splitlines()[0])
    parser.add_argument("-C", "--repo", default=".", help="Any path inside the repository.")
    parser.add_argument("--read-only", action="store_true", help="Serve no propose tool.")
    a = parser.parse_args(args)  # a bad option: argparse's usage line, exit 2
    line = [sys.executable, "-m", MODULE, *args]
    return run_guarded("mcp", lambda: _serve(Path(a.repo), a.read_only), line, repo=a.repo)


def _serve(repo: Path, read_only: bool) -> None:
    from forest_files.doors.mcp.server import serve

    serve(custody_root(repo), read_only=read_only)


def custody_root(path: Path) -> Path:
    """The repository's root, refused before serving if it is not under custody."""
    from forest_files.custody.repository import Repository

    with Repository(path) as repo:
        repo.sync()
        return repo.root


if __name__ == "__main__":
    sys.exit(main())

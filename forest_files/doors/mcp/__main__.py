"""``python -m forest_files.doors.mcp [-C DIR] [--read-only]``: the server without the
``forest`` command line around it (what an MCP client may launch; what tests run).

Stores: nothing itself. Refuses: a DIR outside a git working tree under custody
(one ``forest: …`` line on stderr, exit 1).
Returns: exit 0 when the client closes the stream; at SIGTERM or SIGHUP (128 + the
signal) or Ctrl-C (130), one ``forest: …`` line (server.py ``serve``).
Test: tests/doors/test_mcp_server.py
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="forest-mcp", description=__doc__.splitlines()[0])
    parser.add_argument("-C", "--repo", default=".", help="Any path inside the repository.")
    parser.add_argument("--read-only", action="store_true", help="Serve no propose tool.")
    args = parser.parse_args(argv)
    from forest_files.kernel.errors import ForestError

    try:
        root = custody_root(Path(args.repo))
    except ForestError as exc:
        print(f"forest: {exc}", file=sys.stderr)
        return 1
    from forest_files.doors.mcp.server import serve

    try:
        serve(root, read_only=args.read_only)
    except KeyboardInterrupt as exc:  # a stop signal: Ctrl-C, or Terminated
        from forest_files.kernel.exits import exit_code, one_line

        print(f"forest: {one_line(exc)}", file=sys.stderr)
        return exit_code(exc)
    return 0


def custody_root(path: Path) -> Path:
    """The repository's root, refused before serving if it is not under custody."""
    from forest_files.custody.repository import Repository

    with Repository(path) as repo:
        repo.sync()
        return repo.root


if __name__ == "__main__":
    sys.exit(main())

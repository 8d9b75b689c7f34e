"""``python -m forest_files.doors.mcp [-C DIR] [--read-only]``: the server without the
``forest`` command line around it (what an MCP client may launch; what tests run),
through the one error boundary as ``forest mcp`` is (doors/boundary.py ``run_guarded``).

Stores: nothing itself; the boundary's crash log for an internal error.
Refuses: a DIR outside a git working tree under custody (one ``forest: …`` line on
stderr, exit 1); an interpreter without the MCP SDK (the ``mcp`` extra): one line
naming the ``pip`` of this very interpreter that installs it, exit 1 (``forest mcp``
says the same, through ``serve_repo``).
Returns: exit 0 when the client closes the stream; at SIGTERM or SIGHUP (128 + the
signal) or Ctrl-C (130), one ``forest: …`` line (server.py ``serve``); any other
failure as the boundary says and codes it (standard output unwritable: one line,
exit 1; an internal error: one line naming its crash log, exit 3), never a traceback.
Test: tests/doors/test_mcp_server.py, tests/doors/test_mcp_module_boundary.py,
tests/doors/test_mcp_missing_sdk.py
"""

from __future__ import annotations

import argparse
import sys
from importlib import metadata
from pathlib import Path

from forest_files.kernel.errors import ForestError

MODULE = "forest_files.doors.mcp"


def main(argv: list[str] | None = None) -> int:
    from forest_files.doors.boundary import run_guarded

    args = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(prog="forest-mcp", description=__doc__.splitlines()[0])
    parser.add_argument("-C", "--repo", default=".", help="Any path inside the repository.")
    parser.add_argument("--read-only", action="store_true", help="Serve no propose tool.")
    a = parser.parse_args(args)  # a bad option: argparse's usage line, exit 2
    line = [sys.executable, "-m", MODULE, *args]
    return run_guarded("mcp", lambda: serve_repo(Path(a.repo), a.read_only), line, repo=a.repo)


def serve_repo(repo: Path, read_only: bool) -> None:
    """Serve ``repo``; refused, naming how to install it, where the SDK is missing."""
    try:
        from forest_files.doors.mcp.server import serve
    except ImportError as exc:
        if (exc.name or "").partition(".")[0] not in SDK:
            raise
        raise ForestError(missing_sdk()) from None
    serve(custody_root(repo), read_only=read_only)


# The distributions of the ``mcp`` extra; an ImportError of another name is a bug.
SDK = ("mcp", "pydantic", "pydantic_core")


def missing_sdk() -> str:
    """The refusal: the extra's requirements as this install declares them, installed
    by this very interpreter's pip (a ``pip`` on PATH may serve another Python, and
    forest-files is installed from a checkout or a URL, not by name)."""
    try:
        declared = metadata.requires("forest-files") or []
    except metadata.PackageNotFoundError:
        declared = []
    wanted = [r.partition(";")[0].strip() for r in declared if 'extra == "mcp"' in r]
    from forest_files.kernel.shellword import shell_word

    words = [sys.executable, "-m", "pip", "install", *(wanted or ["mcp", "pydantic"])]
    return (
        "`forest mcp` needs the MCP SDK (the mcp extra), which this Python does not "
        f"have; install it beside forest-files: {' '.join(map(shell_word, words))}"
    )


def custody_root(path: Path) -> Path:
    """The repository's root, refused before serving if it is not under custody."""
    from forest_files.custody.repository import Repository

    with Repository(path) as repo:
        repo.sync()
        return repo.root


if __name__ == "__main__":
    sys.exit(main())

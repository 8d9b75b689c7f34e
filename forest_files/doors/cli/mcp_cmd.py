"""``forest mcp``: serve one repository to an agent over the Model Context Protocol.

Stores: nothing itself (doors/mcp/).
Refuses: a repository not under custody; an interpreter without the ``mcp`` extra
(naming the pip of that interpreter that installs it: doors/mcp/__main__.py).
Returns: exit 0 when the client closes the stream.
Test: tests/doors/test_mcp_server.py, tests/doors/test_mcp_missing_sdk.py
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from forest_files.doors.cli.errors import boundary
from forest_files.doors.cli.options import RepoOpt, app


@app.command()
@boundary
def mcp(
    repo: RepoOpt = Path("."),
    read_only: Annotated[
        bool, typer.Option("--read-only", help="Serve no propose tool: reading only.")
    ] = False,
) -> None:
    """Serve this repository to an MCP client over stdio: read ground, recall, check,
    propose (a person adopts); no tool can make ground. docs/mcp.md registers it.

    Example: forest mcp -C ~/novel --read-only
    """
    from forest_files.doors.mcp.__main__ import serve_repo

    serve_repo(repo, read_only=read_only)

"""``forest mcp``: serve one repository to an agent over the Model Context Protocol.

Stores: nothing itself (doors/mcp/).
Refuses: a repository not under custody; a machine without the ``mcp`` extra
(naming how to install it).
Returns: exit 0 when the client closes the stream.
Test: tests/doors/test_mcp_server.py
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from forest_files.doors.cli.errors import boundary
from forest_files.doors.cli.options import RepoOpt, app
from forest_files.kernel.errors import ForestError


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
    try:
        from forest_files.doors.mcp.server import serve
    except ImportError:
        raise ForestError("forest mcp needs the MCP SDK: pip install 'forest-files[mcp]'") from None
    from forest_files.doors.mcp.__main__ import custody_root

    serve(custody_root(repo), read_only=read_only)

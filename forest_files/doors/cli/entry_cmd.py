"""``forest show``: one entry by content id, with its derived trust.

Stores: nothing.
Refuses: an unknown content id (``ForestError`` naming ``forest log``).
Returns: text (the entry's text on a terminal), or one JSON document with
``--json`` (metadata only, no text). Text shows each control character of the
entry escaped (kernel/shellword.py ``printable``), newlines and tabs but kept.
Test: tests/doors/test_cli_files.py, tests/check/test_control_chars.py
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from forest_files.doors.cli.errors import boundary
from forest_files.doors.cli.options import JsonOpt, RepoOpt, app
from forest_files.kernel.errors import ForestError
from forest_files.kernel.shellword import forest_text, printable


@app.command()
@boundary
def show(
    content_id: Annotated[str, typer.Argument(help="An entry's content id.")],
    repo: RepoOpt = Path("."),
    as_json: JsonOpt = False,
) -> None:
    """Show one entry by content id (its metadata, then its text; metadata only with --json),
    with its derived trust (ground, home or wild, and why: docs/governance.md).

    Example: forest show <content-id> --json
    """
    from forest_files.custody.repository import Repository

    with Repository(repo) as r:
        store = r.synced()
        local = store.local_id(content_id)  # a short id works too
        row = store.get(local)
        content_id = store.content_id(local)
        if row is None:
            raise ForestError(
                f"unknown entry {content_id}; `{forest_text('log')}` lists content ids"
            )
        meta = {
            "content_id": content_id,
            "bucket": row["bucket"],
            "signature": row["signature"],
            "created_at": row["created_at"],
            "body_hash": row["body_hash"],
            "ground": store.is_ground(local),
            "sealed": store.is_sealed(local),
        }
        trust = store.trust_of(local)
        source = None if trust.source_id is None else store.content_id(trust.source_id)
        meta["trust"] = {"level": trust.level.value, "reason": trust.reason, "source": source}
        sealed = store.is_sealed(local)
        body = "[sealed]" if sealed else str(row["body"])
    if as_json:
        typer.echo(json.dumps(meta))
        return
    for key, value in meta.items():
        if key != "trust":
            typer.echo(printable(f"{key}: {value}"))
    via = f", through {source}" if source else ""
    typer.echo(printable(f"trust: {trust.level.value} ({trust.reason}{via})"))
    typer.echo("")
    typer.echo(printable(body, keep="\n\t"))  # the text's own escapes are shown, not obeyed

"""``forest forget``: erase an adopted body with a tombstone, and say what it cannot do.

Stores: nothing itself (``governance.forget``).
Refuses: nothing itself (``errors.boundary``; the refusals are forget's).
Returns: text, or one JSON document with ``--json`` (ids and counts, never text).
Test: tests/test_cli_governance.py
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Annotated

import typer

from forest_files.cli.app import JsonOpt, RepoOpt, _emit, _identity, app
from forest_files.cli.errors import boundary
from forest_files.cli.files_cmds import AsOpt, WordsOpt

LineOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--line",
        help="Tombstone only this line of the body (repeatable; at least 16 characters). "
        "Default: every line of 16 characters or more that live ground does not hold.",
    ),
]


@app.command()
@boundary
def forget(
    content_id: Annotated[str, typer.Argument(help="Content id (or prefix) of the entry.")],
    words: WordsOpt,
    as_: AsOpt = None,
    line: LineOpt = None,
    repo: RepoOpt = Path("."),
    as_json: JsonOpt = False,
) -> None:
    """Erase a superseded or sealed body: index, full-text index, ledger body file and
    every local copy; later adopts of its lines are refused. Not cryptographic erasure.

    Example: forest forget 3f2a… --words "an API key was pasted here" --as "Ada <ada@x>"
    """
    from forest_files.repository import Repository

    with Repository(repo) as r:
        report = r.forget(content_id, words=words, by=_identity(repo, as_), lines=line or ())
    p = report.purged
    text = [
        f"erased: body {report.body_hash[:12]} of {report.content_id[:12]} "
        f"(erase act {report.act_id[:12]}; tombstone: {report.lines} line(s), "
        f"{report.kept_out} left out because live ground holds them)",
        f"purged: {p.bodies} ledger body file(s), {p.views} cached view file(s), "
        f"{p.cache_files} capture/cache file(s), {len(p.proposals)} proposal(s)",
        "next: commit the new segment WITH the body file's deletion: "
        "git add -A .forest/ledger && git commit",
        "forest forget cannot:",
        *(f"  - {c}" for c in report.cannot),
    ]
    obj = asdict(report)
    obj["purged"]["proposals"] = list(p.proposals)
    _emit(as_json, obj, "\n".join(text))

"""``forest adopt`` and the options the custody commands share (custody_cmds.py has
supersede, restore, rebind, retire, diff, show; check_cmds.py has check and status).

Stores: nothing itself.
Refuses: nothing itself (``errors.boundary`` maps exceptions to exit codes).
Returns: text, or one JSON document with ``--json`` (paths and content ids,
never section text).
Test: tests/doors/test_cli_files.py
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Annotated

import typer

from forest_files.doors.cli.errors import boundary
from forest_files.doors.cli.options import AsOpt, JsonOpt, RepoOpt, WordsOpt, app, identity

ExcludeOpt = Annotated[
    list[str] | None,
    typer.Option("--exclude", help="Leave out '#Sub' or 'meta:key' (repeatable)."),
]


TargetsArg = Annotated[
    list[str], typer.Argument(help="PATH, PATH#Heading/Sub, PATH::Sym, PATH@region or a glob.")
]
PathsArg = Annotated[list[str] | None, typer.Argument(help="Only bindings under these paths.")]
StagedOpt = Annotated[
    bool, typer.Option("--staged", help="Judge the git index against the staged ledger.")
]
RevOpt = Annotated[str | None, typer.Option("--rev", help="Judge a commit against its own ledger.")]
ShowDiffOpt = Annotated[bool, typer.Option("--show-diff", help="Print ground -> now diffs.")]


@app.command()
@boundary
def adopt(
    targets: Annotated[
        list[str], typer.Argument(help="PATH, PATH#Heading/Sub, PATH::Sym, PATH@region or a glob.")
    ],
    words: WordsOpt,
    as_: AsOpt = None,
    exclude: ExcludeOpt = None,
    repo: RepoOpt = Path("."),
    as_json: JsonOpt = False,
    skip_bound: Annotated[
        bool,
        typer.Option(
            "--skip-bound", help="Adopt only targets not bound yet (re-run a glob for new files)."
        ),
    ] = False,
) -> None:
    """Take file sections into custody: import, root and bind, in one ledger segment.

    Example: forest adopt 'docs/adr/*.md' --exclude meta:status --words "Accepted ADRs"
    """
    from forest_files.custody.bindconf import bind_defaults
    from forest_files.custody.record import adopt_sections, unbound_only
    from forest_files.custody.repository import Repository
    from forest_files.custody.targets import expand, read_sections

    with Repository(repo) as r:
        specs = expand(r.root, targets)
        with typer.progressbar(
            length=len(specs),
            label="reading",
            file=sys.stderr,
            hidden=len(specs) < 50 or not sys.stderr.isatty(),
        ) as bar:
            sections = read_sections(
                r.root,
                specs,
                tuple(exclude or ()),
                max_bytes=r.config.max_body_bytes,
                progress=bar.update,
                defaults=bind_defaults(r.config.bind),
            )
        skipped = 0
        if skip_bound:
            sections, skipped = unbound_only(r, sections)
        bound = adopt_sections(r, sections, words=words, by=identity(repo, as_)) if sections else []
    lines = [f"bound {b.selector} -> {b.content_id}" for b in bound]
    if skip_bound:
        lines.append(f"skipped {skipped} target(s) already bound")
    lines.append("commit .forest/ledger with the files" if bound else "nothing new to adopt")
    typer.echo(json.dumps([asdict(b) for b in bound]) if as_json else "\n".join(lines))

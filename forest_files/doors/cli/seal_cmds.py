"""``forest seal`` and ``forest unseal``: withhold an entry's text, or make it readable again.

Stores: nothing itself (custody/sealing.py records one act in one segment).
Refuses: nothing itself (``errors.boundary``: one ``forest:`` line, exit 1).
Returns: text naming the entry, its record and the next command, or one JSON
document with ``--json`` (ids only, never text).
Test: tests/doors/test_cli_seal.py, tests/doors/test_dash_c_hints.py
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from forest_files.check.findings import WORDS_PLACEHOLDER
from forest_files.doors.cli.errors import boundary
from forest_files.doors.cli.options import AsOpt, JsonOpt, RepoOpt, WordsOpt, app, emit, identity
from forest_files.kernel.shellword import for_bash, forest_text

if TYPE_CHECKING:
    from forest_files.custody.sealing import SealReport

PLACEHOLDER = ("--words", WORDS_PLACEHOLDER)  # the user's to fill in: as is, it is refused
EntryArg = Annotated[
    str,
    typer.Argument(
        help="A content id (or a unique prefix of 8+ hex digits), or a bound section "
        "(PATH, PATH#Heading): its ground to seal, its sealed ground to unseal."
    ),
]


def _run(repo: Path, given: str, *, sealing: bool, words: str, as_: str | None) -> SealReport:
    from forest_files.custody.repository import Repository
    from forest_files.custody.sealing import change_seal

    with Repository(repo) as r:
        return change_seal(r, given, sealing=sealing, words=words, by=identity(repo, as_))


def _next(repo: Path) -> str:
    from forest_files.custody.repository import find_root
    from forest_files.doors.cli.commit_step import commit_step

    return f"next: {commit_step(find_root(repo))}"


@app.command()
@boundary
def seal(
    entry: EntryArg,
    words: WordsOpt,
    as_: AsOpt = None,
    repo: RepoOpt = Path("."),
    as_json: JsonOpt = False,
) -> None:
    """Withhold an entry's text from show, recall and every read until unsealed (gated
    like supersede: authority over its paths, and signing in CI). A sealed ground is
    no longer live ground: its binding reports `unresolved`, and forest forget may erase it.

    Example: forest seal 'docs/ops.md#Keys' --words "a key was pasted here; erase next"
    """
    report = _run(repo, entry, sealing=True, words=words, as_=as_)
    cid = report.content_id
    lines = [
        f"sealed {cid[:12]} (sealing record {report.record[:12]}, act {report.act_id[:12]}): "
        "its text is withheld from every read",
        for_bash(f"to erase it: {forest_text('forget', cid, options=PLACEHOLDER)}"),
        for_bash(f"to read it again: {forest_text('unseal', cid, options=PLACEHOLDER)}"),
        _next(repo),
    ]
    emit(as_json, asdict(report), "\n".join(lines))


@app.command()
@boundary
def unseal(
    entry: EntryArg,
    words: WordsOpt,
    as_: AsOpt = None,
    repo: RepoOpt = Path("."),
    as_json: JsonOpt = False,
) -> None:
    """Make a sealed entry readable again (gated like supersede); a sealed ground is
    ground again, and its binding is checked as before.

    Example: forest unseal 'docs/ops.md#Keys' --words "the key was rotated; the note may stay"
    """
    report = _run(repo, entry, sealing=False, words=words, as_=as_)
    head = (
        f"unsealed {report.content_id[:12]} (unsealing record {report.record[:12]}, "
        f"act {report.act_id[:12]})"
    )
    if report.erased:  # sealed, then forgotten: the unseal brings back no text
        lines = [
            f"{head}: its text was erased (forest forget), so nothing is readable again; "
            "forest check now names it erased-content, with the routes out",
            _next(repo),
        ]
    else:
        lines = [
            f"{head}: its text is readable again",
            for_bash(f"show it: {forest_text('show', report.content_id)}"),
            _next(repo),
        ]
    emit(as_json, asdict(report), "\n".join(lines))

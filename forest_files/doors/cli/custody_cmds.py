"""``forest`` commands for a drifted section: see it (diff), adopt its text as
ground (supersede), or write ground back (restore: restore_cmd.py, registered here
so that ``forest --help`` lists the three in that order).

Stores: nothing itself; each calls one function of ``forest_files.custody``.
Refuses (``errors.boundary``): what the custody function asked refuses; a bulk
supersede with no terminal to confirm on and no ``--yes``, or not confirmed
(restore's refusals are restore_cmd.py's).
Returns: text, or one JSON document with ``--json`` (no section text in JSON). A
selector or a diff is printed with its control characters shown escaped
(kernel/shellword.py ``printable``, check/diff.py ``for_terminal``); JSON keeps them.
Test: tests/doors/test_cli_files.py, tests/check/test_control_chars.py
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from forest_files.doors.cli.errors import boundary
from forest_files.doors.cli.options import (
    AsOpt,
    JsonOpt,
    RepoOpt,
    WordsOpt,
    app,
    identity,
    words_unkept,
)
from forest_files.doors.cli.restore_cmd import restore
from forest_files.kernel.errors import ForestError
from forest_files.kernel.shellword import for_bash, forest_text, printable, stage_ledger

if TYPE_CHECKING:
    from forest_files.custody.bindings import Binding
    from forest_files.custody.section_text import SectionText

TargetArg = Annotated[str, typer.Argument(help="PATH, PATH#Heading/Sub, PATH::Sym or PATH@region.")]


@app.command()
@boundary
def diff(
    target: TargetArg,
    words: Annotated[
        bool,
        typer.Option(
            "--words", help="Mark changed words inside each line ([-old-]{+new+}), for prose."
        ),
    ] = False,
    repo: RepoOpt = Path("."),
) -> None:
    """Show ground -> working tree for a bound section, or for every binding of a file.

    Example: forest diff --words 'canon/characters.md#Elias'
    """
    import os
    import sys

    from forest_files.check.bulk import choose
    from forest_files.check.diff import for_terminal, section_diff
    from forest_files.check.engine import check_all
    from forest_files.check.text import no_diff
    from forest_files.custody.bindings import all_bindings
    from forest_files.custody.content import WorktreeSource
    from forest_files.custody.repository import Repository

    colour = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    with Repository(repo) as r:
        store = r.synced()
        every = all_bindings(store)
        chosen = [c.binding for c in choose(r.root, every, [target])]
        content = WorktreeSource(r.root)
        # every binding of the chosen files checked, as `forest check` does: the fence
        # hiding a heading is said to be in the bound section holding it (not "in #A")
        files = tuple(sorted({b.path for b in chosen}))
        found = {f.binding: f for f in check_all(store, every, content, paths=files)}
        for binding, finding in ((b, found[b.bind_act]) for b in chosen):
            if finding.kind not in ("drifted", "clean"):
                typer.echo(no_diff(finding))  # unresolved, moved, missing, contested
                continue
            typer.echo(f"{finding.kind} {printable(binding.selector)}")
            shown = section_diff(store, finding, content, binding.excludes, words=words)
            typer.echo(for_terminal(shown, colour=colour) or "(no change)")


OptTargetsArg = Annotated[
    list[str] | None,
    typer.Argument(
        help="Sections, files (every binding in them) or globs: PATH, PATH#Heading/Sub, "
        "PATH::Sym, PATH@region, 'docs/*.md'. None with --staged."
    ),
]
StagedOpt = Annotated[
    bool,
    typer.Option("--staged", help="Every drifted binding of the staged change (the hook's route)."),
]
ExpectOpt = Annotated[
    str | None,
    typer.Option(
        "--expect", help="With --staged: the digest the hook printed; refused if changed."
    ),
]
YesOpt = Annotated[
    bool, typer.Option("--yes", "-y", help="Record a bulk supersede without asking.")
]


@app.command()
@boundary
def supersede(
    words: WordsOpt,
    targets: OptTargetsArg = None,
    as_: AsOpt = None,
    yes: YesOpt = False,
    staged: StagedOpt = False,
    expect: ExpectOpt = None,
    repo: RepoOpt = Path("."),
    as_json: JsonOpt = False,
) -> None:
    """Adopt the text sections hold now as their new ground (the second route). A file
    means every changed binding in it; many targets are listed (lines, new hash, lines
    added and removed) and confirmed, then recorded in one segment with one set of words.
    With --staged --expect DIGEST (the hook's route): every drifted binding of the staged
    change, as the index holds it, if DIGEST is still the staged state's.

    Example: forest supersede 'docs/adr/0004-x.md' --words "Amended after review"
    """
    from forest_files.check.bulk import changes, choose
    from forest_files.custody.bindings import all_bindings
    from forest_files.custody.record import supersede_sections
    from forest_files.custody.repository import Repository
    from forest_files.custody.target_refusals import RepoFacts
    from forest_files.custody.targets import read_section
    from forest_files.doors.cli.commit_step import commit_step

    if staged or expect is not None:
        _supersede_staged(repo, targets, expect, words, identity(repo, as_), as_json)
        return
    if not targets:
        raise ForestError("name what to supersede (a section, a file or a glob), or use --staged")
    with Repository(repo) as r:
        store = r.synced()
        limit = r.config.max_body_bytes
        listed = changes(
            store, r.root, choose(r.root, all_bindings(store), targets), max_bytes=limit
        )
        if len(listed) > 1:
            _confirm([c.line() for c in listed], yes, err=as_json)
        # Read again after the question: each act records the hash that was listed.
        facts = RepoFacts.gather(r.root, [c.binding.path for c in listed], tally=False)

        def read(b: Binding) -> SectionText:
            return read_section(r.root, b.selector, b.excludes, max_bytes=limit, facts=facts)

        items = [(c.binding, read(c.binding), c.new_hash) for c in listed]
        # Read once more under the write lock: a restore may write the files meanwhile.
        made = supersede_sections(r, items, words=words, by=identity(repo, as_), again=read)
        step = commit_step(r.root, [c.binding.path for c in listed])
    pairs = [(c.binding.selector, new) for c, new in zip(listed, made, strict=True)]
    if as_json:
        docs = [{"selector": sel, "ground": new} for sel, new in pairs]
        typer.echo(json.dumps(docs[0] if len(docs) == 1 else {"superseded": docs}))
        return
    for sel, new in pairs:
        typer.echo(f"superseded {printable(sel)}: {new} is ground")
    typer.echo(f"{len(pairs)} in one segment; {step}")


def _supersede_staged(
    repo: Path, targets: list[str] | None, expect: str | None, words: str, by: str, as_json: bool
) -> None:
    """``supersede --staged --expect DIGEST`` (governance/staged_supersede.py)."""
    from forest_files.custody.repository import Repository
    from forest_files.governance.staged_supersede import supersede_staged

    if targets:
        raise ForestError("--staged supersedes what the hook listed; give no targets with it")
    if expect is None:
        raise ForestError(
            "--staged needs --expect DIGEST; paste the route "
            f"`{forest_text('check', options=('--staged',))}` prints"
        )
    with Repository(repo) as r:
        root = r.root
    done = supersede_staged(root, expect, words=words, by=by)
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "superseded": [{"selector": s, "ground": g} for s, g in done.superseded],
                    "rebound": [{"selector": o, "to": n} for o, n in done.rebound],
                }
            )
        )
        return
    for old, new in done.rebound:
        typer.echo(f"rebound {printable(old)} -> {printable(new)}")
    for sel, ground in done.superseded:
        typer.echo(f"superseded {printable(sel)}: {ground} is ground")
    count = len(done.rebound) + len(done.superseded)
    if done.unchanged:  # moves of unchanged text keep no words
        typer.echo(words_unkept(done.unchanged, count))
    typer.echo(for_bash(f"{count} in one segment; stage .forest/ledger ({stage_ledger()})"))


def _confirm(lines: list[str], yes: bool, *, err: bool) -> None:
    """Show what a bulk supersede would record; ask on a terminal unless ``--yes``."""
    import sys

    for line in lines:
        typer.echo(f"  {printable(line)}", err=err)
    if yes:
        return
    if not sys.stdin.isatty():
        raise ForestError(
            f"{len(lines)} sections would be superseded (listed above); no terminal to ask "
            "on — review the list, then run the same command with --yes"
        )
    if not typer.confirm(f"supersede these {len(lines)} sections with one set of words?"):
        raise ForestError("nothing superseded; run it again when the list is right")


app.command()(restore)  # here: `forest --help` lists diff, supersede, then restore

"""``forest`` commands for a drifted section: see it (diff), adopt its text as
ground (supersede), or write ground back (restore).

Stores: nothing itself; each calls one function of ``forest_files.custody``.
Refuses (``errors.boundary``): restore of a binding with no single ground; a
contest names the routes ``forest check`` prints out of it (check/routes.py's
``resolve_routes``, one ``forest resolve`` per head), then the restore again.
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
from forest_files.kernel.errors import ForestError
from forest_files.kernel.shellword import forest_text, printable, shell_word, stage_ledger

if TYPE_CHECKING:
    from forest_files.custody.bindings import Binding
    from forest_files.custody.section_text import SectionText
    from forest_files.store.forest import ForestStore

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
        chosen = [c.binding for c in choose(r.root, all_bindings(store), [target])]
        content = WorktreeSource(r.root)
        for binding, finding in zip(chosen, check_all(store, chosen, content), strict=True):
            if finding.kind not in ("drifted", "clean"):
                typer.echo(no_diff(finding))  # unresolved, moved, missing, contested
                continue
            typer.echo(f"{finding.kind} {printable(binding.selector)}")
            shown = section_diff(store, finding, content, binding.excludes, words=words)
            typer.echo(for_terminal(shown, colour=colour) or "(no change)")


TargetsArg = Annotated[
    list[str],
    typer.Argument(
        help="Sections, files (every binding in them) or globs: PATH, PATH#Heading/Sub, "
        "PATH::Sym, PATH@region, 'docs/*.md'."
    ),
]
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
    typer.echo(f"{count} in one segment; stage .forest/ledger ({stage_ledger()})")


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


@app.command()
@boundary
def restore(
    targets: TargetsArg,
    drop_nested: Annotated[
        bool,
        typer.Option(
            "--drop-nested",
            help="Restore even when that removes another bound section standing in the "
            "section's lines now (a heading demoted into it); its text is kept in the capture.",
        ),
    ] = False,
    repo: RepoOpt = Path("."),
) -> None:
    """Write ground back into sections (the first route); a file means every binding in
    it. The divergent text is captured under .git/forest/captures first, so nothing
    is lost; a section that already holds ground is left untouched, and a restore that
    would remove another bound section of the file is refused (unless --drop-nested).

    Example: forest restore 'canon/characters.md#Elias'
    """
    from forest_files.check.bulk import choose
    from forest_files.check.diff import ground_text
    from forest_files.custody.bindings import all_bindings
    from forest_files.custody.erased_ground import refuse_restore
    from forest_files.custody.record import ground_body
    from forest_files.custody.repository import Repository
    from forest_files.custody.restore import Bound, Wanted, audit_restored, restore_many
    from forest_files.custody.restore_gate import grounds_held

    with Repository(repo) as r:
        store = r.synced()
        live = all_bindings(store)
        chosen = choose(r.root, live, targets)
        wanted: list[Wanted] = []
        decided: list[tuple[Binding, str]] = []
        for c in chosen:  # every ground known before any file is written
            b = c.binding
            head, state = ground_body(store, b)
            if head is None:
                raise ForestError(_no_single_ground(store, b, state))
            cid = store.content_id(head)
            refuse_restore(r.root, store, b.selector, cid)
            text = ground_text(store, cid)
            assert text is not None
            wanted.append(Wanted(b.path, b.selector, b.excludes, text))
            decided.append((b, cid))
        # All or nothing, but a file whose ground another command changed meanwhile:
        # looked at again under the write lock the renames are made in.
        # Every section of those files must survive (unless --drop-nested); each may
        # also hold the block an edit left open over a heading named (restore_hidden.py).
        bound: dict[str, list[Bound]] = {}
        paths = {w.path for w in wanted}
        for b in live:
            if b.path in paths:
                bound.setdefault(b.path, []).append(Bound(b.selector, b.excludes))
        held = grounds_held(store, decided)
        done_all = restore_many(
            r.root, wanted, held, bound=bound, again=targets, drop_nested=drop_nested
        )
        audit_restored(r.root, store, [c.binding for c in chosen], done_all)
        for done in sorted(done_all, key=lambda d: d.step):  # as the work was done
            if done.outcome not in ("left", "changed"):
                typer.echo(printable(_restored(done.selector, done.outcome, done.kept)))
        for line in _leftovers(r.root, [w.path for w in wanted]):
            typer.echo(line)
    left = [done.selector for done in done_all if done.outcome == "left"]
    changed = [done.selector for done in done_all if done.outcome == "changed"]
    said = ([_left(left)] if left else []) + ([_changed(changed)] if changed else [])
    if said:
        raise ForestError("; and ".join(said))


def _leftovers(root: Path, paths: list[str]) -> list[str]:
    """The temp files of killed restores beside ``paths``: how many were removed (the
    first named), and those a restore may still be writing, with one ``rm`` for them."""
    from forest_files.custody.restore_leftovers import sweep_leftovers
    from forest_files.kernel.shellword import command_text, in_batches, printable

    swept = sweep_leftovers(root, paths)
    lines = []
    if swept.removed:
        more = f" and {len(swept.removed) - 1} more" if len(swept.removed) > 1 else ""
        lines.append(
            f"removed {printable(swept.removed[0])}{more}: temp files an interrupted "
            "restore left behind"
        )
    if swept.kept:
        steps = in_batches(("rm", "--"), list(swept.kept))  # ARG_MAX: one line a step
        rm = " && ".join(command_text(step) for step in steps)
        lines.append(
            f"kept {len(swept.kept)} temp file(s) of a restore still running or interrupted "
            f"within the hour ({printable(swept.kept[0])}); once none runs: {rm}"
        )
    return lines


def _no_single_ground(store: ForestStore, b: Binding, state: str) -> str:
    """Why a binding cannot be restored, with the routes out of a contest."""
    from forest_files.check.routes import no_single_ground
    from forest_files.kernel.shellword import forest_step

    heads = tuple(sorted(store.content_id(h) for h in store.contest_heads(b.entry_id)))
    again = forest_step("restore", b.selector)
    return no_single_ground(b.selector, state, heads, again, undone="nothing was restored")


def _left(selectors: list[str]) -> str:
    """The sections whose ground another command recorded, or whose binding it moved,
    while this restore ran: their files were left as they are (the serial order: that
    command first)."""
    more = f" and {len(selectors) - 1} more" if len(selectors) > 1 else ""
    files = "their files were" if more else "its file was"
    return (
        f"{printable(selectors[0])}{more}: not restored — another forest command recorded "
        f"a new ground, or moved the binding, while this restore ran; {files} left as "
        "found, nothing captured — "
        f"see where they stand: `{forest_text('check')}`"
    )


def _changed(selectors: list[str]) -> str:
    """The sections whose file changed after this restore read it (an editor's save):
    left as they are, so the save is not replaced by text no capture holds."""
    more = f" and {len(selectors) - 1} more" if len(selectors) > 1 else ""
    files = "their files" if more else "its file"
    again = forest_text("restore", *selectors)
    return (
        f"{printable(selectors[0])}{more}: not restored — {files} changed while this restore "
        f"ran (a save?); left as found, nothing captured — look, then: `{again}`"
    )


def _restored(selector: str, outcome: str, kept: Path | None) -> str:
    if outcome == "clean":
        return f"{selector} already holds its ground; nothing changed"
    if outcome == "recreated":
        return f"restored {selector}: the file was gone and is written again"
    # The capture's path quoted as a route's words are: pasted after `cat` or `less`
    # it names the file, whatever the repository's path holds (a space, a quote, $).
    return f"restored {selector}; the replaced text is kept in {shell_word(str(kept))}"

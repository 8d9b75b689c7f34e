"""``forest restore``: write ground back into bound sections, the first route out of
drift (registered by custody_cmds.py, after ``forest diff`` and ``forest supersede``).

Stores: nothing itself; custody/restore.py writes the files and their captures.
Refuses (``errors.boundary``): restore of a binding with no single ground; a
contest names the routes ``forest check`` prints out of it (check/routes.py's
``resolve_routes``, one ``forest resolve`` per head), then the restore again; a
section another command recorded or an editor saved meanwhile, left as found.
Returns: text: what was restored, where the replaced text is kept (one shell word),
the temp files of killed restores swept or kept. A selector is printed with its
control characters shown escaped (kernel/shellword.py ``printable``).
Test: tests/doors/test_cli_files.py, tests/doors/test_pasted_paths.py,
tests/custody/test_restore_hidden.py
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from forest_files.doors.cli.errors import boundary
from forest_files.doors.cli.options import RepoOpt
from forest_files.kernel.errors import ForestError
from forest_files.kernel.shellword import for_bash, forest_text, printable, shell_word

if TYPE_CHECKING:
    from forest_files.custody.bindings import Binding
    from forest_files.store.forest import ForestStore

TargetsArg = Annotated[
    list[str],
    typer.Argument(
        help="Sections, files (every binding in them) or globs: PATH, PATH#Heading/Sub, "
        "PATH::Sym, PATH@region, 'docs/*.md'."
    ),
]


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
                typer.echo(for_bash(printable(_restored(done.selector, done.outcome, done.kept))))
        for line in _leftovers(r.root, [w.path for w in wanted]):
            typer.echo(for_bash(line))
    left = [done.selector for done in done_all if done.outcome == "left"]
    changed = [done.selector for done in done_all if done.outcome == "changed"]
    said = ([_left(left)] if left else []) + ([_changed(changed)] if changed else [])
    if said:
        raise ForestError("; and ".join(said))


def _leftovers(root: Path, paths: list[str]) -> list[str]:
    """The temp files of killed restores beside ``paths``: removed, or kept with an
    ``rm`` (custody/restore_leftovers.py)."""
    from forest_files.custody.restore_leftovers import sweep_leftovers, swept_lines

    return swept_lines(sweep_leftovers(root, paths))


def _no_single_ground(store: ForestStore, b: Binding, state: str) -> str:
    """Why a binding cannot be restored, with the routes out of a contest."""
    from forest_files.check.route_contest import no_single_ground
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

"""``forest rebind`` and ``forest retire``: a binding moved to where its section
lives now, or ended by a recorded act.

Stores: nothing itself; each calls one function of ``forest_files.custody.record``.
Refuses: nothing itself (``errors.boundary``).
Returns: text; on stderr, one warning line per section a rebind moved a binding to
that reads link or footnote definitions from outside its hash, in ``forest adopt``'s
words and routes (check/adopt_refs.py).
Test: tests/doors/test_cli_files.py, tests/doors/test_dash_c_hints.py,
      tests/custody/test_rebind_commit_step.py, tests/check/test_adopt_refs.py
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from forest_files.doors.cli.commit_step import commit_step
from forest_files.doors.cli.custody_cmds import TargetArg
from forest_files.doors.cli.errors import boundary
from forest_files.doors.cli.options import AsOpt, RepoOpt, WordsOpt, app, identity, words_unkept
from forest_files.kernel.errors import ForestError
from forest_files.kernel.shellword import for_bash, printable

if TYPE_CHECKING:
    from forest_files.custody.bindings import Binding
    from forest_files.custody.record import SectionText
    from forest_files.custody.repository import Repository

BindingOpt = Annotated[
    str | None,
    typer.Option("--binding", help="Bind act id (or prefix) when a section has two bindings."),
]


def _find_binding(r: Repository, target: str, binding_id: str | None = None) -> Binding:
    """The binding ``target`` (and ``--binding``) names in ``r``'s synced index."""
    from forest_files.custody.bindings import all_bindings
    from forest_files.custody.lookup import find_binding

    return find_binding(all_bindings(r.synced()), target, binding_id, root=r.root)


def _words_if_given(words: str | None) -> str | None:
    """``--words`` when given: the same refusals as every ceremony's (a route's
    placeholder pasted as is records nothing)."""
    from forest_files.doors.cli.options import words_given

    return None if words is None else words_given(words)


OptWordsOpt = Annotated[
    str | None,
    typer.Option(
        "--words",
        help="Why the new text is right, when it differs from ground.",
        callback=_words_if_given,
    ),
]


@app.command()
@boundary
def rebind(
    old: TargetArg,
    new: Annotated[str, typer.Argument(help="Where the section lives now (or a new directory).")],
    words: OptWordsOpt = None,
    as_: AsOpt = None,
    repo: RepoOpt = Path("."),
) -> None:
    """Point a binding at the path/selector its section moved to; with --words, text
    that changed as well is adopted in the same act (the custody chain is kept).
    OLD and NEW ending in '/' move every binding under a directory, in one segment.

    Example: forest rebind 'docs/a.md#Intro' 'docs/b.md#Overview' --words "Renamed in review"
    """
    from forest_files.check.adopt_refs import unheld
    from forest_files.custody.bindings import all_bindings
    from forest_files.custody.lookup import find_binding, moves_under
    from forest_files.custody.rebind_dest import (
        refuse_directory_as_one,
        refuse_one_as_directory,
        refuse_unnameable,
    )
    from forest_files.custody.rebind_moves import (
        descendants,
        read_moves,
        refuse_bound_targets,
    )
    from forest_files.custody.record import rebind_sections
    from forest_files.custody.repository import Repository

    with Repository(repo) as r:
        bindings = all_bindings(r.synced())
        limit = r.config.max_body_bytes
        refuse_unnameable(r.root, old, new)
        left: list[tuple[Binding, str]] = []
        if old.endswith("/") or new.endswith("/"):
            refuse_one_as_directory(bindings, old, new, r.root)
            moves = read_moves(r.root, moves_under(bindings, old, new), max_bytes=limit)
        else:  # a heading carries its bound subtree to where its full selector is now
            refuse_directory_as_one(bindings, old, new)
            moves = read_moves(r.root, [(find_binding(bindings, old), new)], max_bytes=limit)
            refuse_bound_targets(bindings, moves, r.root)
            under = descendants(bindings, moves[0][0], moves[0][1].selector)
            left = _carried(r.root, under, moves, limit)
        refuse_bound_targets(bindings, moves, r.root)
        done = rebind_sections(r, moves, by=identity(repo, as_), words=words)
        # Judged at the new places, after the rebind: its own bindings count as custody.
        outside = [u.warning() for u in unheld(r, [section for _, section in moves])]
    for line in outside:  # a warning: nothing refused, the exit code kept
        typer.echo(for_bash(line), err=True)
    for binding, section in moves:
        typer.echo(printable(f"rebound {binding.selector} -> {section.selector}"))
    if words is not None and done.adopted < len(done.acts):
        typer.echo(words_unkept(len(done.acts) - done.adopted, len(done.acts)))
    for binding, why in left:
        typer.echo(printable(f"left {binding.selector} where it is ({why}); rebind it on its own"))
    one = f"{len(moves)} bindings moved in one segment (one act each)" if len(moves) > 1 else ""
    # the files of the move the index does not hold yet (an edit that moved a method, a
    # file moved with ``mv``) go with the ledger: the hook judges the index
    moved = sorted({p for b, s in moves for p in (b.path, s.path)})
    typer.echo(f"{one + '; ' if one else ''}{commit_step(r.root, moved)}")


def _carried(
    root: Path,
    under: list[tuple[Binding, str]],
    moves: list[tuple[Binding, SectionText]],
    limit: int,
) -> list[tuple[Binding, str]]:
    """Append to ``moves`` each descendant found at its new selector; the ones not
    found there (renamed or removed as well) are returned with why."""
    from forest_files.custody.rebind_moves import read_moves

    left: list[tuple[Binding, str]] = []
    for pair in under:
        try:
            moves += read_moves(root, [pair], max_bytes=limit)
        except ForestError as exc:
            left.append((pair[0], str(exc).split(": ", 1)[-1]))
    return left


@app.command()
@boundary
def retire(
    target: TargetArg,
    words: WordsOpt,
    as_: AsOpt = None,
    binding: BindingOpt = None,
    repo: RepoOpt = Path("."),
) -> None:
    """End a binding by a recorded act (a deleted or deprecated section).

    Example: forest retire docs/adr/0002-old.md --words "Superseded by ADR 0009"
    """
    from forest_files.custody.record import retire_binding
    from forest_files.custody.repository import Repository
    from forest_files.custody.retire_lookup import binding_to_retire

    with Repository(repo) as r:  # a refused target closes the index too
        found = binding_to_retire(r, target, binding)  # retired already: said so
        retire_binding(r, found, words=words, by=identity(repo, as_))
        step = commit_step(r.root)
    typer.echo(printable(f"retired {found.selector} (binding {found.bind_act[:12]})"))
    typer.echo(step)

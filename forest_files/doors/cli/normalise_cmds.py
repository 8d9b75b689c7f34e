"""``--normalise`` for ``forest adopt`` and ``forest renormalise``: declared normalisations.

``forest adopt TARGET --normalise NAME`` (repeatable) records the named
normalisations with each binding it makes, beside forest.toml's ``[bind]``
defaults; ``forest renormalise TARGET --normalise NAME… | --none [--words '…']``
changes those of an existing binding by a recorded act (custody/renormalise.py).

Stores: nothing itself (the custody functions record).
Refuses: an unknown normalisation or version (listing the known names), one that
does not fit the target, a ``normalise:`` item given to ``--exclude``, and
``renormalise`` with neither ``--normalise`` nor ``--none`` (or both).
Returns: text.
Test: tests/custody/test_renormalise.py, tests/custody/test_bind_normalise.py
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from forest_files.doors.cli.errors import boundary, usage
from forest_files.doors.cli.options import AsOpt, RepoOpt, app, identity, words_given
from forest_files.kernel.errors import ForestError
from forest_files.kernel.shellword import printable

NormaliseOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--normalise",
        metavar="NAME",
        help="Declare a normalisation (repeatable): trailing-whitespace, blank-lines, "
        "list-markers, emphasis, link-style, py-comments, py-docstrings "
        "(docs/normalisation.md).",
    ),
]


def with_normalise(exclude: list[str] | None, normalise: list[str] | None) -> tuple[str, ...]:
    """``--exclude`` values, then each ``--normalise`` as the ``normalise:NAME@V`` item
    the section is read with; an unknown name is refused here, before any file is read,
    as a usage error (exit 2: a bad option value, as click's own)."""
    given = tuple(exclude or ())
    if any(e.startswith("normalise:") for e in given):
        raise usage(
            "--exclude takes exclusions ('#Heading', 'meta:key', 'line:PREFIX'); "
            "declare a normalisation with --normalise NAME"
        )
    if not normalise:
        return given
    from forest_files.text.normalisers import NormaliseError, canonical_list

    try:
        names = canonical_list(normalise)
    except NormaliseError as exc:
        raise usage(str(exc)) from None
    return given + tuple(f"normalise:{n}" for n in names)


def _words(words: str | None) -> str | None:
    return None if words is None else words_given(words)


@app.command()
@boundary
def renormalise(
    target: Annotated[str, typer.Argument(help="A bound section: PATH, PATH#Heading, PATH::Sym.")],
    normalise: NormaliseOpt = None,
    none: Annotated[
        bool, typer.Option("--none", help="Declare no normalisation from now on.")
    ] = False,
    words: Annotated[
        str | None,
        typer.Option(
            "--words",
            help="Why the text read under the new normalisations is right, when it "
            "differs from ground.",
            callback=_words,
        ),
    ] = None,
    as_: AsOpt = None,
    repo: RepoOpt = Path("."),
) -> None:
    """Change the normalisations a binding reads its section with: one recorded act by
    a holder (a rebind in place, ledger format 3); with --words, text that reads
    differently under them becomes the new ground in the same act.

    Example: forest renormalise 'docs/adr/0003.md' --normalise trailing-whitespace
    """
    from forest_files.custody.bindings import all_bindings
    from forest_files.custody.lookup import find_binding
    from forest_files.custody.renormalise import renormalise as record
    from forest_files.custody.renormalise import rules_with
    from forest_files.custody.repository import Repository
    from forest_files.custody.targets import read_section
    from forest_files.doors.cli.commit_step import commit_step

    if none == bool(normalise):
        raise ForestError(
            "say what the binding reads with: --normalise NAME (repeatable) or --none"
        )
    names = tuple(r[10:] for r in with_normalise(None, normalise))
    with Repository(repo) as r:
        binding = find_binding(all_bindings(r.synced()), target, root=r.root)
        rules = rules_with(binding, names)
        section = read_section(r.root, binding.selector, rules, max_bytes=r.config.max_body_bytes)
        record(r, binding, section, names, by=identity(repo, as_), words=words)
        step = commit_step(r.root)
    reads = ", ".join(names) or "no normalisation"
    typer.echo(printable(f"{binding.selector} now reads with: {reads}"))
    typer.echo(step)

"""``forest`` commands that change or show one binding: diff, supersede, restore,
rebind, retire, chain, show.

Stores: nothing itself; each calls one function of ``forest_files.files``.
Refuses: nothing itself (``errors.boundary``).
Returns: text, or one JSON document with ``--json`` (no section text in JSON).
Test: tests/test_cli_files.py
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Annotated

import typer

from forest_files.cli.app import JsonOpt, RepoOpt, _identity, app
from forest_files.cli.errors import boundary
from forest_files.cli.files_cmds import AsOpt, WordsOpt
from forest_files.errors import ForestError

TargetArg = Annotated[str, typer.Argument(help="PATH, PATH#Heading/Sub, PATH::Sym or PATH@region.")]


BindingOpt = Annotated[
    str | None,
    typer.Option("--binding", help="Bind act id (or prefix) when a section has two bindings."),
]


def _open_binding(repo: Path, target: str, binding_id: str | None = None):  # type: ignore[no-untyped-def]
    from forest_files.files.lookup import find_binding
    from forest_files.ledger.bindings import all_bindings
    from forest_files.repository import Repository

    r = Repository(repo)
    store = r._synced()
    return r, store, find_binding(all_bindings(store), target, binding_id)


@app.command()
@boundary
def diff(target: TargetArg, repo: RepoOpt = Path(".")) -> None:
    """Show ground -> working tree for one bound section.

    Example: forest diff 'canon/characters.md#Elias'
    """
    from forest_files.files.check import check_binding
    from forest_files.files.content import WorktreeSource
    from forest_files.files.diff import section_diff

    r, store, binding = _open_binding(repo, target)
    with r:
        content = WorktreeSource(r.root)
        finding = check_binding(store, binding, content, all_paths=None)
        typer.echo(f"{finding.kind} {binding.selector}")
        if finding.kind in ("drifted", "clean"):
            typer.echo(section_diff(store, finding, content, binding.excludes) or "(no change)")


@app.command()
@boundary
def supersede(
    target: TargetArg,
    words: WordsOpt,
    as_: AsOpt = None,
    repo: RepoOpt = Path("."),
    as_json: JsonOpt = False,
) -> None:
    """Adopt the text the section holds now as its new ground (the second route).

    Example: forest supersede 'docs/adr/0004-x.md' --words "Amended after review"
    """
    from forest_files.files.record import supersede_section
    from forest_files.files.targets import read_section
    from forest_files.hashing import hash_body

    r, _, binding = _open_binding(repo, target)
    with r:
        section = read_section(
            r.root, binding.selector, binding.excludes, max_bytes=r.config.max_body_bytes
        )
        new = supersede_section(
            r,
            binding,
            section,
            words=words,
            by=_identity(repo, as_),
            expected_body_hash=hash_body(section.text),
        )
    text = f"superseded {binding.selector}: {new} is ground; commit .forest/ledger with the file"
    typer.echo(json.dumps({"selector": binding.selector, "ground": new}) if as_json else text)


@app.command()
@boundary
def restore(target: TargetArg, repo: RepoOpt = Path(".")) -> None:
    """Write ground back into exactly that section (the first route); the divergent
    text is captured under .forest/cache/captures first, so nothing is lost.

    Example: forest restore 'canon/characters.md#Elias'
    """
    from forest_files.files.diff import ground_text
    from forest_files.files.record import ground_body
    from forest_files.files.restore import restore_file

    r, store, binding = _open_binding(repo, target)
    with r:
        head, state = ground_body(store, binding)
        if head is None:
            raise ForestError(f"{binding.selector} has no single ground ({state}); resolve first")
        text = ground_text(store, store.content_id(head))
        assert text is not None
        kept = restore_file(r.root, binding.path, binding.selector, binding.excludes, text)
    if kept is None:
        typer.echo(f"restored {binding.selector}: the file was gone and is written again")
    else:
        typer.echo(f"restored {binding.selector}; the replaced text is kept in {kept}")


@app.command()
@boundary
def rebind(
    old: TargetArg,
    new: Annotated[str, typer.Argument(help="Where the unchanged section lives now.")],
    as_: AsOpt = None,
    repo: RepoOpt = Path("."),
) -> None:
    """Point a binding at the path/selector its unchanged text moved to.

    Example: forest rebind docs/old.md docs/new.md
    """
    from forest_files.files.record import rebind_section
    from forest_files.files.targets import read_section

    r, _, binding = _open_binding(repo, old)
    with r:
        section = read_section(r.root, new, binding.excludes, max_bytes=r.config.max_body_bytes)
        rebind_section(r, binding, section, by=_identity(repo, as_))
    typer.echo(f"rebound {binding.selector} -> {section.selector}")


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
    from forest_files.files.record import retire_binding

    r, _, found = _open_binding(repo, target, binding)
    with r:
        retire_binding(r, found, words=words, by=_identity(repo, as_))
    typer.echo(f"retired {found.selector} (binding {found.bind_act[:12]})")


def print_chain(target: str, repo: Path, as_json: bool) -> None:
    """The custody chain of one binding (``forest log TARGET``)."""
    from forest_files.files.lookup import chain as chain_of

    r, store, binding = _open_binding(repo, target)
    with r:
        links = chain_of(store, binding)
    if as_json:
        typer.echo(json.dumps({"selector": binding.selector, "chain": [asdict(x) for x in links]}))
        return
    typer.echo(binding.selector)
    for x in links:
        typer.echo(f"  {x.created_at} {x.status:<10} {x.content_id} by {x.adopted_by}: {x.words}")


@app.command()
@boundary
def show(
    content_id: Annotated[str, typer.Argument(help="An entry's content id.")],
    repo: RepoOpt = Path("."),
    as_json: JsonOpt = False,
) -> None:
    """Show one entry by content id (its text on a terminal; metadata only with --json).

    Example: forest show 3f2a…
    """
    from forest_files.repository import Repository

    with Repository(repo) as r:
        store = r._synced()
        local = store.local_id(content_id)  # a short id works too
        row = store.get(local)
        content_id = store.content_id(local)
        if row is None:
            raise ForestError(f"unknown entry {content_id}; `forest log` lists content ids")
        meta = {
            "content_id": content_id,
            "bucket": row["bucket"],
            "signature": row["signature"],
            "created_at": row["created_at"],
            "body_hash": row["body_hash"],
            "ground": store.is_ground(local),
            "sealed": store.is_sealed(local),
        }
        sealed = store.is_sealed(local)
        body = "[sealed]" if sealed else str(row["body"])
    if as_json:
        typer.echo(json.dumps(meta))
        return
    for key, value in meta.items():
        typer.echo(f"{key}: {value}")
    typer.echo("")
    typer.echo(body)

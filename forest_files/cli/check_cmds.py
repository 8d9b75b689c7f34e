"""``forest check`` and ``forest status``: the working tree, the git index or a commit
judged against its ledger. Each parses, calls the check, renders.

Stores: nothing itself (the check writes only its local caches).
Refuses: nothing itself (``errors.boundary`` maps exceptions to exit codes);
a check with any finding but ``clean`` exits 1 (``DriftFound``).
Returns: text, or one JSON document with ``--json``. Machine output carries
paths, line ranges and hashes — never section text; diffs appear only on a
terminal or with ``--show-diff``.
Test: tests/test_cli_files.py
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from forest_files.cli.app import JsonOpt, RepoOpt, app
from forest_files.cli.errors import boundary
from forest_files.errors import ForestError

if TYPE_CHECKING:
    from forest_files.files.check import Finding
    from forest_files.files.content import ContentSource
    from forest_files.ledger.bindings import Binding
    from forest_files.store.forest import ForestStore


class DriftFound(ForestError):
    """A check found a binding that is not clean (exit 1)."""


def _colour(kind: str) -> str:
    if not sys.stdout.isatty() or os.environ.get("NO_COLOR"):
        return kind
    code = {"clean": "32"}.get(kind, "31")
    return f"\x1b[{code}m{kind}\x1b[0m"


def _routes(kind: str, selector: str, path: str, detail: str = "") -> str:
    """The ways out of a finding, each as the exact command."""
    if kind == "unresolved" and detail.startswith("not a regular file"):
        return (
            f"  put the file back: remove what stands at {path}, then git checkout -- '{path}'\n"
            f"  or end the binding: forest retire '{selector}' --words \"…\""
        )
    if kind == "drifted":
        return (
            f"  restore ground:   forest restore '{selector}'\n"
            f'  adopt the change: forest supersede \'{selector}\' --words "…" --as "NAME"'
        )
    if kind == "missing":
        return (
            f"  bring the file back: git checkout -- '{path}'\n"
            f"  or end the binding:  forest retire '{selector}' --words \"…\""
        )
    if kind == "unresolved":
        return (
            "  put the section back (heading/symbol/markers), or move the binding:\n"
            f"  forest rebind '{selector}' NEW_TARGET, or forest retire '{selector}' --words \"…\""
        )
    return ""


@app.command()
@boundary
def check(
    paths: Annotated[
        list[str] | None, typer.Argument(help="Only bindings under these paths.")
    ] = None,
    staged: Annotated[
        bool, typer.Option("--staged", help="Judge the git index against the staged ledger.")
    ] = False,
    rev: Annotated[
        str | None, typer.Option("--rev", help="Judge a commit against its own ledger.")
    ] = None,
    show_diff: Annotated[
        bool, typer.Option("--show-diff", help="Print ground -> now diffs.")
    ] = False,
    repo: RepoOpt = Path("."),
    as_json: JsonOpt = False,
) -> None:
    """Compare every bound section with its current ground; exit 1 on any finding.

    Example: forest check --staged   (what the pre-commit hook runs)
    """
    from forest_files.files.check import check_all
    from forest_files.files.session import custody_at, remember_verdict, worktree_custody
    from forest_files.repository import Repository, find_root

    if staged and rev:
        raise typer.BadParameter("give --staged or --rev, not both")
    root = find_root(repo)
    source = "index" if staged else (rev or "worktree")
    want_diffs = show_diff or sys.stdout.isatty()
    content: ContentSource
    if source == "worktree":
        bmap, content, before = worktree_custody(root)
        bindings = bmap.bindings
        findings = check_all(
            None, bindings, content, paths=tuple(paths or ()), grounds=bmap.grounds
        )
        diffs = {}
        if want_diffs and any(f.failed for f in findings):  # ground text: from the store
            with Repository(root) as opened:
                diffs = _diffs(opened._synced(), findings, bindings, content)
        if not paths:
            remember_verdict(root, before, content, bindings, any(f.failed for f in findings))
    else:
        with custody_at(root, source, keep_index_file=staged) as (store, bindings, content):
            findings = check_all(store, bindings, content, paths=tuple(paths or ()))
            diffs = _diffs(store, findings, bindings, content) if want_diffs else {}
    failed = [f for f in findings if f.failed]
    if as_json:
        typer.echo(
            json.dumps(
                {"source": source, "ok": not failed, "findings": [asdict(f) for f in findings]}
            )
        )
    else:
        for f in findings:
            where = f" lines {f.start_line}-{f.end_line}" if f.start_line else ""
            typer.echo(f"{_colour(f.kind)} {f.selector}{where} {f.detail}".rstrip())
            routes = _routes(f.kind, f.selector, f.path, f.detail)
            if routes:
                typer.echo(routes)
            if f.kind == "contested":
                typer.echo(f"  candidates: {', '.join(f.candidates) or '(two bindings)'}")
            if f.binding in diffs:
                typer.echo(diffs[f.binding])
        typer.echo(
            f"{len(findings)} binding(s) checked against the {content.name}: "
            f"{len(failed)} not clean"
        )
    if failed:
        raise DriftFound(f"{len(failed)} binding(s) diverge from ground; see the routes above")


def _diffs(
    store: ForestStore, findings: list[Finding], bindings: list[Binding], content: ContentSource
) -> dict[str, str]:
    from forest_files.files.diff import section_diff

    excludes = {b.bind_act: b.excludes for b in bindings}
    return {
        f.binding: section_diff(store, f, content, excludes.get(f.binding, ()))
        for f in findings
        if f.kind == "drifted"
    }


@app.command()
@boundary
def status(repo: RepoOpt = Path("."), as_json: JsonOpt = False) -> None:
    """Every binding: path, full selector, finding, ground content id (working tree).

    Example: forest status --json
    """
    from forest_files.files.check import check_all
    from forest_files.files.session import custody_at
    from forest_files.repository import find_root

    with custody_at(find_root(repo), "worktree") as (store, bindings, content):
        findings = check_all(store, bindings, content)
    rows = [
        {"path": f.path, "selector": f.selector, "finding": f.kind, "ground": f.ground}
        for f in findings
    ]
    if as_json:
        typer.echo(json.dumps(rows))
        return
    for row in rows:
        typer.echo(f"{_colour(str(row['finding'])):<10} {row['selector']}  {row['ground'] or '-'}")
    if not rows:
        typer.echo("no bindings yet: forest adopt PATH[#Heading] --words …")

"""``forest log``'s text: one line per act, and one binding's chain (retired ones too).

Stores: nothing.
Refuses: a target that names no binding, live or retired (lookup.py).
Returns: text lines, or one JSON document for a chain with ``--json`` (ids,
signatures, words — never section text). Every text line is one line, its control
characters shown escaped (kernel/shellword.py ``printable``); JSON keeps them.
Test: tests/check/test_dead_ends.py, tests/doors/test_cli_files.py,
tests/check/test_control_chars.py
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from forest_files.kernel.shellword import printable

if TYPE_CHECKING:
    from forest_files.custody.log_entries import LogEntry


def log_line(e: LogEntry) -> str:
    """One act of ``forest log``: when, what, the section it is about, what it made,
    who, and the words (on one line)."""
    where = f" {e.selector}" if e.selector and e.selector != e.subject else ""
    said = _one_line(e.words)
    line = f"{e.created_at} {e.kind}{where} {e.subject} -> {e.result} by {e.by}"
    return printable(line + (f": “{said}”" if said else ""))


def _one_line(words: str) -> str:
    """Words as one line: runs of whitespace (line breaks too) as one space."""
    return " ".join(words.split())


def print_chain(target: str, repo: Path, as_json: bool) -> None:
    """The custody chain of one binding (``forest log TARGET``); a retired binding's
    chain too, ending with its retire act."""
    from forest_files.custody.bindings import all_bindings
    from forest_files.custody.lookup import NoSuchBinding, find_binding
    from forest_files.custody.lookup import chain as chain_of
    from forest_files.custody.repository import Repository

    r = Repository(repo)
    with r:
        store = r.synced()
        try:
            binding = find_binding(all_bindings(store), target, root=r.root)
        except NoSuchBinding:  # not live: a retired chain is still a history
            binding = find_binding(all_bindings(store, include_retired=True), target)
        links = chain_of(store, binding)
        ended = [e for e in r.log() if e.kind == "retire" and e.subject == binding.bind_act]
    if as_json:
        doc = {"selector": binding.selector, "retired": binding.retired}
        typer.echo(json.dumps({**doc, "chain": [asdict(x) for x in links]}))
        return
    typer.echo(printable(binding.selector + (" (retired)" if binding.retired else "")))
    for x in links:
        said = _one_line(x.words)
        typer.echo(
            printable(f"  {x.created_at} {x.status:<10} {x.content_id} by {x.adopted_by}: {said}")
        )
    for e in ended:
        said = _one_line(e.words)
        line = f"  {e.created_at} {'retired':<10} binding {e.subject[:12]} by {e.by}: {said}"
        typer.echo(printable(line))

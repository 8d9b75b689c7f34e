"""What ``forest adopt`` takes in beyond named targets: ``--where`` (front matter),
``--headings [--level N]`` (every heading of files), ``--unbound`` (what
``[require]`` reports), and the one question a bulk adoption asks.

Stores: nothing.
Refuses (usage, exit 2): ``--level`` without ``--headings`` or outside 1-6;
``--headings`` with ``--unbound``; no targets without ``--unbound``. Refuses: a bulk
list with no terminal to ask on and no ``--yes`` (one line, nothing written); a "no" at
the question.
Returns: ``Chosen`` (the target specs and what was left out).
Test: tests/doors/test_cli_adopt_bulk.py
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import typer

from forest_files.doors.cli.errors import usage
from forest_files.kernel.errors import ForestError

if TYPE_CHECKING:
    from forest_files.custody.repository import Repository


@dataclass(frozen=True)
class Chosen:
    specs: list[str]
    left_out: list[str]  # paths --where left out
    ask: bool  # a bulk selection: list it and ask once
    # --exclude items --headings used to leave headings out (tallied as matched)
    used: frozenset[str] = frozenset()


def choose(
    r: Repository,
    targets: Sequence[str],
    *,
    where: Sequence[str],
    headings: bool,
    level: int | None,
    unbound: bool,
    excludes: Sequence[str] = (),
) -> Chosen:
    """The target specs of one ``forest adopt``, in order."""
    from forest_files.check.adopt_select import (
        AdoptSelectRefused,
        heading_targets,
        parse_where,
        unbound_targets,
        where_filter,
    )
    from forest_files.custody.bindconf import bind_defaults
    from forest_files.custody.target_globs import expand

    if level is not None and not headings:
        raise usage("--level applies to --headings; add --headings or drop --level")
    if level is not None and not 1 <= level <= 6:
        raise usage(f"--level {level}: give a heading level from 1 to 6")
    if headings and unbound:
        raise usage("--headings and --unbound are two ways of choosing; give one")
    if not targets and not unbound:
        raise usage("name what to adopt (PATH, PATH#Heading, a glob), or give --unbound")
    try:
        when = parse_where(where)
    except AdoptSelectRefused as exc:
        raise usage(str(exc)) from None
    limit = r.config.max_body_bytes
    defaults = bind_defaults(r.config.bind)  # its [bind] exclusions leave headings out too
    specs = unbound_targets(r, targets) if unbound else expand(r.root, targets)
    left: list[str] = []
    used: set[str] = set()
    if when:
        specs, left = where_filter(r.root, specs, when, max_bytes=limit)
    if headings and specs:
        specs = heading_targets(
            r.root, specs, level, max_bytes=limit, excludes=excludes, defaults=defaults, used=used
        )
    elif headings:
        specs = []
    return Chosen(specs, left, ask=headings or unbound, used=frozenset(used))


def confirm(selectors: Sequence[str], yes: bool, *, err: bool) -> bool:
    """List a bulk adoption and ask once on a terminal; ``--yes`` elsewhere. True when
    the user was asked (the sections are read again after the answer)."""
    typer.echo(f"to adopt ({len(selectors)}):", err=err)
    from forest_files.kernel.shellword import printable

    for sel in selectors:  # a heading's escapes cannot hide a line of the list
        typer.echo(f"  {printable(sel)}", err=err)
    if yes:
        return False
    if not sys.stdin.isatty():
        raise ForestError(
            f"{len(selectors)} section(s) would be adopted (listed above); no terminal to "
            "ask on — review the list, then run the same command with --yes"
        )
    if not typer.confirm(f"adopt these {len(selectors)} section(s) with one set of words?"):
        raise ForestError("nothing adopted; run it again when the list is right")
    return True

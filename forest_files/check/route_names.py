"""Routes for a name the ledger cannot record or no selector can hold: the file
renamed first (``git mv``, or ``mv`` for a file git does not track), then the check
prints the route that adopts it, or moves the binding there.

Stores: nothing. Refuses: nothing.
Returns: ``Route`` values; ``utf8_name`` (the UTF-8 name offered for a name that is
not UTF-8).
Test: tests/check/test_coverage_not_utf8.py, tests/check/test_moved_not_utf8.py
"""

from __future__ import annotations

import os
from pathlib import Path

from forest_files.check.findings import Route
from forest_files.check.route_steps import stage_steps
from forest_files.kernel.shellword import forest_text, git_step


def utf8_name(path: str) -> str:
    """A UTF-8 name for ``path``, whose bytes are not UTF-8 (git's name decoded with
    surrogateescape): each byte that is not UTF-8 read as Latin-1, the usual legacy
    encoding of such a name (``b\\xff.md`` becomes ``bÿ.md``)."""
    return "".join(chr(ord(c) - 0xDC00) if "\udc80" <= c <= "\udcff" else c for c in path)


def then_adopt() -> str:
    """The note after a rename: ``forest check`` as the user runs it where they stand."""
    return f"`{forest_text('check')}` prints the route that adopts it"


THEN_REBIND = "the check prints the route that moves the binding there"


def rename_first(path: str, root: Path, source: str, then: str) -> Route:
    """A file whose name the ledger cannot record (not UTF-8): an unbound one, or
    the one a bound section moved into: ``git mv`` it to a UTF-8 name (``mv`` when
    git does not track it: ``git mv`` refuses an untracked file, and a new file a
    ``[require]`` glob names usually is one); the next check prints the adopt (or
    rebind) route there. (Rename and adopt are not one route: the adopt's
    placeholder words would be refused after the rename had already run.)"""
    from forest_files import gitio

    new = utf8_name(path)
    if new == path:  # never a git mv of a file onto itself
        return Route("rename it to a UTF-8 name", note=f"with git mv; then {then}")
    tracked = source == "index" or bool(gitio.ls_files_stage(root, path))
    rename = git_step("mv", "--", path, new) if tracked else ("mv", "--", path, new)
    return Route(
        "rename it to a UTF-8 name",
        (rename, *stage_steps(source, new)),
        f"the ledger records UTF-8 names only (pick another name if you like); then {then}",
    )


def rename_control(path: str, root: Path, source: str) -> Route:
    """A required file whose name holds a control character: ``git mv`` (``mv`` when
    git does not track it) to the name with each control character as ``_``; the name
    quoted as every step is (``$'\\033'``), so the route pastes and prints no control
    character."""
    from forest_files import gitio

    new = nameable("".join("_" if ord(c) < 32 or ord(c) == 127 else c for c in path), path)
    tracked = any(e.path == path for e in gitio.ls_files_stage(root, path))
    if new is None or not (tracked or os.path.lexists(os.path.join(root, path))):
        return Route("rename it first", note=f"then {then_adopt()}")  # gone, or no other name
    rename = git_step("mv", "--", path, new) if tracked else ("mv", "--", path, new)
    return Route(
        "rename it first",
        (rename, *stage_steps(source, new)),
        f"pick another name if you like; then {then_adopt()}",
    )


def nameable(new: str, old: str) -> str | None:
    """``new``, the name a rename route offers for ``old`` (a file no selector can
    name), if it is another name and a selector can name it; else None."""
    from forest_files.text.selector import validate_path
    from forest_files.text.selector_errors import SelectorError

    if new == old:
        return None
    try:
        return validate_path(new)
    except SelectorError:
        return None


def selector_path(selector: str) -> str:
    """The file a full selector names (a moved section's new place)."""
    from forest_files.text.selector import parse_selector

    return parse_selector(selector).path

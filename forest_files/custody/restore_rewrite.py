"""One restore worked out in memory, written by compare-and-swap, and undone.

The rewrite job of restore, for a caller that writes someone's text rather than
ground and must be able to take it back (a proposal's adoption, proposals/adopt.py;
the MCP door's checks; a nested route's check, check/route_nested.py).
Stores: ``write_rewrite``: the capture of the replaced text (restore_capture.py),
then the file, renamed into place (restore_files.py ``replace_file``);
``undo_rewrite``: the file's bytes as they were (removed when it was recreated), the
capture dropped.
Refuses: ``plan_rewrite``: every refusal of ``restore_section`` (restore.py), nothing
written; given the file's bindings, a text that would remove one of their sections
(``RemovesBound``, restore_nested.py). ``write_rewrite``: ``RewriteChanged``, nothing
written, when the file's bytes moved since the plan read them (a person's save wins).
Returns: the plan (``Rewrite``; None when the section holds the text already); the
capture's path; whether the undo put the file back (False, both left alone, when an
editor saved meanwhile).
Test: tests/proposals/test_adopt.py, tests/proposals/test_adopt_race.py,
tests/proposals/test_adopt_nested.py, tests/custody/test_restore_file_style.py
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from forest_files.custody.content import read_regular
from forest_files.custody.restore_capture import capture
from forest_files.custody.restore_files import (
    NEW_FILE_MODE,
    committed_text,
    read_for_restore,
    recreate_allowed,
    recreated,
    replace_file,
)
from forest_files.custody.restore_nested import Bound, refuse_rewrite
from forest_files.custody.restore_splice import refuse_erased, splice
from forest_files.kernel.errors import ForestError


@dataclass(frozen=True)
class Rewrite:
    """One section's restore worked out in memory (``plan_rewrite``), not yet written:
    the file's bytes now (None: no file, recreated) and after, its mode, and the
    text the section holds now (None when recreated: nothing to keep; the file's bytes
    when it was not text and a whole-file binding writes ground over it)."""

    path: str
    selector: str
    before: bytes | None
    after: bytes
    mode: int
    replaced: str | bytes | None


def plan_rewrite(
    root: Path,
    path: str,
    selector: str,
    excludes: tuple[str, ...],
    ground: str,
    *,
    bound: Sequence[Bound] = (),
) -> Rewrite | None:
    """What ``restore_section`` would write, with its refusals, writing nothing; None
    when the section holds ``ground`` already. ``bound``: the file's bindings, whose
    sections the new text must keep (``RemovesBound``, restore_nested.py)."""
    refuse_erased(selector, ground)
    data, mode = read_for_restore(root, path)
    if data is None:
        recreate_allowed(root, path, selector, excludes)
        return Rewrite(path, selector, None, recreated(root, path, ground), NEW_FILE_MODE, None)
    new, old_text = splice(
        data, selector, excludes, ground, path, committed=committed_text(root, path)
    )
    if old_text == ground:
        return None
    if bound and isinstance(old_text, str):  # text: another section may stand in it
        refuse_rewrite(bound, path, selector, (data, new))
    return Rewrite(path, selector, data, new, mode, old_text)


class RewriteChanged(ForestError):
    """The file's bytes are no longer those ``plan_rewrite`` read: nothing written."""


def write_rewrite(root: Path, plan: Rewrite) -> Path | None:
    """Write a planned restore (capturing the replaced text first); the capture.
    Written only while the file holds the bytes the plan read, looked at again just
    before the rename, else ``RewriteChanged`` (a person's save wins; no capture)."""
    full = root / plan.path
    replaced = plan.replaced
    keep = None if replaced is None else (lambda: capture(root, plan.selector, replaced))
    done, kept = replace_file(
        root,
        plan.path,
        plan.after,
        plan.mode,
        still=lambda: read_regular(str(full)) == plan.before,
        keep=keep,
    )
    if done != "written":
        raise RewriteChanged(f"{plan.path} changed after it was read; nothing was written")
    return kept


def undo_rewrite(root: Path, plan: Rewrite, kept: Path | None) -> bool:
    """Put the file back byte for byte as it was before ``write_rewrite`` (removed if
    it was recreated) and drop the capture; False, with both left alone, when the
    file no longer holds what was written (an editor saved meanwhile: it wins)."""
    full = root / plan.path
    if read_regular(str(full)) != plan.after:
        return False
    if plan.before is None:
        full.unlink()
    elif (
        replace_file(
            root,
            plan.path,
            plan.before,
            plan.mode,
            still=lambda: read_regular(str(full)) == plan.after,
        )[0]
        != "written"
    ):
        return False
    if kept is not None:
        kept.unlink(missing_ok=True)
    return True

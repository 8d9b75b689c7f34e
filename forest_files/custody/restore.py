"""Restore: write ground back into exactly one section, after capturing what was there.

Stores: the divergent section text as a local capture under
``.git/forest/captures/`` (ignored by git: it may hold text nobody adopted),
then the file with only the section's lines replaced — written to a temporary
file in the same directory, given the file's mode (an executable stays
executable), renamed into place. The file of a missing whole-file binding is
recreated from ground (mode 0644; CRLF line ends where ``git checkout`` would write
them: ``eol``/``text`` attributes, ``core.autocrlf``, ``core.eol``); so is a
whole-file binding's file the reader refuses (a NUL byte, not UTF-8, a lone CR),
over its bytes, which the capture keeps exactly, in the file's style where it is
unambiguous: its BOM, CRLF where every line end was CRLF
(restore_splice.py ``in_file_style``).
Refuses (one-line ``ForestError``, nothing written): a bound path holding a
symlink, directory, FIFO or other non-regular file (never followed, never
opened blocking); a path whose directory resolves outside the repository; a
missing file of a section binding (its lines are gone with it); a missing file a
sparse checkout leaves out (restore_sparse.py: ``git sparse-checkout add``, then
the restore); a section of a file that is not text (the byte to fix first); a
section that cannot be found (restore needs its lines; its heading hidden by a fence
or comment an edit left open above it: restore_hidden.py names the block and, of
the file's bindings ``bound``, the restore that brings it back); a heading's section an edit
made hide the sections after it (an unclosed fence or comment), where they cannot stay
after ground, or cut short by a heading made of ground's lines or put among them
(restore_swallowed.py, restore_cut_short.py; hidden sections that can stay are kept
after ground, as they stand); with exclusions, a result whose section would not hash
to ground (an excluded heading placed where it would
swallow ground lines); in ``restore_many`` and, given the file's bindings,
``restore_section`` (the watcher's), a restore that would remove another bound
section of its file (restore_nested.py: a heading demoted into it, a bound subsection
added under it, a symbol or region moved into it; the way out ``--drop-nested``).
Exclusions: the excluded parts are not in ground, so they are kept as they are
now, each placed where it stood relative to the surrounding kept lines.
``restore_many`` restores many sections all or nothing: every refusal above
comes before the first capture or write, and the files are written by
restore_commit.py (every new file prepared before the first rename; a failed
rename puts back the files renamed before it). Captures are kept only for the
texts of files that change. With a gate (restore_gate.py: the index's write lock
over the renames), a file holding a section whose ground changed since the
restore decided on it, or whose binding moved since, is left as it is (outcome
``left``, nothing captured); so is a file whose bytes changed after the restore
read them (outcome ``changed``: an editor's save is never overwritten unseen);
``restore_section`` takes a gate too (the watcher's).
A ground whose body an erase removed (the marker ``[erased]``) is refused: the
marker is never written into a file. ``audit_restored``: one audit record per
section written (``drift``/``restore-…``: binding, ground id and hash, path).
Returns: the capture path (``restore_section`` also says whether it restored,
recreated, or found the section holding ground already: then nothing is
written and nothing captured). Every byte outside the section's lines — other
lines, their line endings, a BOM — is left exactly as it was; the restored
lines use the line ending the section used (CRLF or LF); under declared
normalisations a line reading as ground's keeps its bytes (restore_merge.py).
Test: tests/custody/test_restore.py, tests/custody/test_restore_normalised.py,
tests/custody/test_restore_swallowed.py, tests/custody/test_restore_hidden.py

This module holds the entry points and is the one import path of restore; its
rooms: restore_splice.py (the new bytes of a file, worked out in memory:
``splice``, ``split_lines``; ground's lines merged into the section's by
restore_merge.py), restore_files.py (the bound file read safely and
replaced atomically), restore_capture.py (the replaced text kept first:
``capture``), restore_many.py (many sections restored all or nothing: ``Wanted``,
``restore_many``, ``Restored``; files written by restore_commit.py) and
restore_rewrite.py (one restore planned, written by compare-and-swap and undone,
for a caller writing someone's text: ``plan_rewrite``, ``write_rewrite``,
``undo_rewrite``; imported from there).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.custody.content import read_regular
from forest_files.custody.restore_capture import capture
from forest_files.custody.restore_files import (
    Gate,
    committed_text,
    open_gate,
    read_for_restore,
    recreate,
    replace_file,
)
from forest_files.custody.restore_hidden import hidden_refusal
from forest_files.custody.restore_many import Restored, Wanted, restore_many
from forest_files.custody.restore_nested import Bound, RemovesBound, refuse_removing
from forest_files.custody.restore_splice import WouldNotStand, refuse_erased, splice, split_lines
from forest_files.text.selector_errors import SectionNotFound

if TYPE_CHECKING:
    from forest_files.custody.bindings import Binding
    from forest_files.store.forest import ForestStore

__all__ = [
    "Bound",
    "RemovesBound",
    "Restored",
    "Wanted",
    "WouldNotStand",
    "audit_restored",
    "capture",
    "restore_file",
    "restore_many",
    "restore_section",
    "splice",
    "split_lines",
]


def restore_file(
    root: Path, path: str, selector: str, excludes: tuple[str, ...], ground: str
) -> Path | None:
    """Restore ground into the section; returns where the old text was captured
    (None when a missing whole-file binding's file was recreated: nothing to keep,
    or when the section already held ground: nothing written, nothing captured)."""
    return restore_section(root, path, selector, excludes, ground)[1]


def restore_section(
    root: Path,
    path: str,
    selector: str,
    excludes: tuple[str, ...],
    ground: str,
    *,
    expected: bytes | None = None,
    gate: Gate = open_gate,
    bound: Sequence[Bound] = (),
) -> tuple[str, Path | None]:
    """``("restored", capture)``, ``("recreated", None)``, or ``("clean", None)`` when
    the section already holds ground (the file is left untouched, no capture).
    ``expected`` (the watcher's compare-and-swap): write only while the file holds
    exactly these bytes — looked at again just before the rename — else
    ``("changed", None)``, nothing written (a live editor's save wins). ``gate``
    (restore_gate.py): the rename made under the index's write lock; a file it names
    is left as it is: ``("left", None)``. ``bound``: the file's bindings, whose
    sections must survive (restore_nested.py: refused, nothing written)."""
    full = root / path
    refuse_erased(selector, ground)
    data, mode = read_for_restore(root, path)
    if expected is not None and data != expected:
        return "changed", None
    if data is None:
        recreate(root, path, selector, excludes, ground)
        return "recreated", None
    committed = committed_text(root, path)
    try:
        new, old_text = splice(data, selector, excludes, ground, path, committed=committed)
    except SectionNotFound as exc:  # its heading hidden by a block an edit left open?
        holders = [(b.selector, b.excludes) for b in bound]
        target = (selector, excludes)
        raise hidden_refusal(data, path, target, holders, committed=committed) or exc from None
    if old_text == ground:
        return "clean", None
    if bound and isinstance(old_text, str):  # text: another section may stand in it
        refuse_removing(bound, path, selector, (data, new), (selector,))
    still = None if expected is None else (lambda: read_regular(str(full)) == expected)
    done, kept = replace_file(
        root,
        path,
        new,
        mode,
        still=still,
        keep=lambda: capture(root, selector, old_text),
        gate=gate,
    )
    return ("restored", kept) if done == "written" else (done, None)


def audit_restored(
    root: Path, store: ForestStore, chosen: Sequence[Binding], done: Sequence[Restored]
) -> None:
    """One audit record per section written: the binding, its ground's content id and
    body hash, the path (ids and hashes, never text)."""
    from forest_files.custody import auditlog as audit
    from forest_files.custody.record import ground_body

    events = []
    for binding, r in zip(chosen, done, strict=True):
        if r.outcome in ("clean", "left", "changed"):
            continue
        head, _state = ground_body(store, binding)
        row = store.require(head, "restore") if head is not None else None
        ground = () if row is None else (str(row["content_id"]), str(row["body_hash"]))
        targets = (binding.bind_act, *ground, binding.path)
        events.append(audit.Event("drift", "ok", f"restore-{r.outcome}", targets=targets))
    audit.append_events(root, events)

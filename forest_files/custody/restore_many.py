"""Many sections restored at once, all or none (``forest restore`` of many targets).

Each file is read once and every section is spliced in memory into its file's new
bytes so far (restore_splice.py), then the files are written all or nothing
(restore_commit.py), capturing only the texts of files that change.
Stores: through restore_commit.py ``write_all``: the captures, then the files.
Refuses (before any capture or file is written): every refusal of a section's
splice; a selector the file now holds twice (the occurrences, the rename or the
rebind); a restore that would remove another bound section of its file
(restore_nested.py; not with ``drop_nested``); a section not found, once every other
section is spliced (a section an edit hid, ``# B`` under an unclosed fence in ``# A``,
is judged again on A restored, which keeps it; B alone is refused naming that fence
and the restore of A with B, ``--drop-nested`` kept: restore_hidden.py).
Returns: one ``Restored`` per ``Wanted``, in the order given: ``restored`` (with its
capture), ``recreated``, ``clean``, ``left`` (the gate left its file) or ``changed``
(its bytes moved after they were read), each with its ``step``: the order the
sections were worked out in (a section judged again after the one hiding it was
spliced comes after it), the order ``forest restore`` prints them in.
Test: tests/custody/test_restore.py, tests/custody/test_restore_swallowed.py,
tests/custody/test_restore_hidden.py
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from forest_files.custody.restore_commit import Change, Keep, Written, write_all
from forest_files.custody.restore_files import (
    NEW_FILE_MODE,
    Gate,
    committed_text,
    open_gate,
    read_for_restore,
    recreate_allowed,
    recreated,
)
from forest_files.custody.restore_hidden import hidden_refusal
from forest_files.custody.restore_nested import DROP_NESTED, Bound, refuse_removing
from forest_files.custody.restore_splice import refuse_erased, splice
from forest_files.kernel.errors import ForestError
from forest_files.text.selector_errors import AmbiguousSelector, SectionNotFound


@dataclass(frozen=True)
class Wanted:
    """One section to restore: its binding's place and the ground text it must hold."""

    path: str
    selector: str
    excludes: tuple[str, ...]
    ground: str


@dataclass(frozen=True)
class Restored:
    selector: str
    outcome: str  # "restored", "recreated", "clean", "left" (the gate left its file) or
    # "changed" (its bytes moved after the restore read them: left as found)
    kept: Path | None  # the capture of the replaced text ("restored" only)
    step: int = 0  # its place in the order the sections were worked out in: a section an
    # edit hid comes after the one whose restore brings it back (what the door prints)


def restore_many(
    root: Path,
    wanted: Sequence[Wanted],
    gate: Gate = open_gate,
    *,
    bound: Mapping[str, Sequence[Bound]] | None = None,
    again: Sequence[str] = (),
    drop_nested: bool = False,
) -> list[Restored]:
    """Restore every section, or none: each file is read once and every splice is
    worked out in memory, so a section that cannot be restored (its file gone, a
    directory in its place, its heading missing, or, of ``bound``'s bindings of its
    file, one whose section it would remove: restore_nested.py, the way out ``again``
    with ``--drop-nested``; ``drop_nested``: not refused, ``bound`` then only names the
    section a restore of which brings back a heading an edit hid) refuses the whole
    command before any capture or file is written. Sections of one file are spliced in
    turn into one new text, written once; a section not found is judged again once the
    others are spliced (a section an edit hid is found again once the one hiding it
    holds ground). The files are written all or nothing (restore_commit.py), and only
    the texts of files that change are captured. The renames happen inside ``gate``;
    the files it leaves are reported ``left``."""
    before: dict[str, tuple[bytes | None, int]] = {}  # path -> (bytes now, or None: missing)
    files: dict[str, tuple[bytes, int]] = {}  # path -> the new bytes so far
    plans: dict[int, tuple[str, str | bytes | None]] = {}  # index -> (outcome, replaced text)
    left = list(enumerate(wanted))
    names = list(again) or list(dict.fromkeys(w.selector for w in wanted))
    while left:
        missed: list[tuple[int, Wanted, SectionNotFound]] = []
        for i, w in left:
            try:
                plans[i] = _plan_one(
                    root, w, (before, files), None if drop_nested else bound, names
                )
            except SectionNotFound as exc:
                missed.append((i, w, exc))
        if missed and len(missed) == len(left):  # nothing else spliced: judged on the last
            raise _not_found(root, missed[0], before, wanted, (bound, drop_nested)) from None
        left = [(i, w) for i, w, _exc in missed]
    order = [(wanted[i], *plans[i]) for i in plans]  # as spliced: the captures' order
    changes = [
        Change(path, *files[path], *before[path])
        for path in dict.fromkeys(w.path for w, outcome, _ in order if outcome != "clean")
    ]
    keeps = [Keep(w.path, w.selector, text) for w, _, text in order if text is not None]
    written = write_all(root, changes, keeps, gate)
    kept = iter(written.kept)
    done = {
        i: Restored(w.selector, outcome, next(kept) if text is not None else None, step)
        for step, (i, (w, outcome, text)) in enumerate(zip(plans, order, strict=True))
    }
    return [
        done[i] if done[i].outcome == "clean" else _settled(done[i], w.path, written)
        for i, w in enumerate(wanted)
    ]


def _plan_one(
    root: Path,
    w: Wanted,
    state: tuple[dict[str, tuple[bytes | None, int]], dict[str, tuple[bytes, int]]],
    bound: Mapping[str, Sequence[Bound]] | None,
    again: Sequence[str],
) -> tuple[str, str | bytes | None]:
    """``w`` spliced into its file's new bytes so far (``state``: each file's bytes as
    read, and as spliced); (outcome, the text it replaced). ``again``: the targets a
    ``--drop-nested`` restore would name."""
    before, files = state
    refuse_erased(w.selector, w.ground)
    if w.path not in before:
        before[w.path] = read_for_restore(root, w.path)
    data, mode = files.get(w.path) or before[w.path]
    if data is None:
        recreate_allowed(root, w.path, w.selector, w.excludes)
        files[w.path] = (recreated(root, w.path, w.ground), NEW_FILE_MODE)
        return "recreated", None
    try:
        new, old_text = splice(
            data, w.selector, w.excludes, w.ground, w.path, committed=committed_text(root, w.path)
        )
    except AmbiguousSelector as exc:
        raise _twice(w.selector, exc) from None
    if old_text == w.ground:
        return "clean", None
    if bound and isinstance(old_text, str):  # text: another section may stand in it
        refuse_removing(bound.get(w.path, ()), w.path, w.selector, (data, new), again)
    files[w.path] = (new, mode)
    return "restored", old_text


def _not_found(
    root: Path,
    missed: tuple[int, Wanted, SectionNotFound],
    before: Mapping[str, tuple[bytes | None, int]],
    wanted: Sequence[Wanted],
    bound: tuple[Mapping[str, Sequence[Bound]] | None, bool],
) -> ForestError:
    """The refusal of a section not found: named with the fence or comment an edit
    left open over its heading in the file as it stands (restore_hidden.py), and the
    bound section a restore of which brings it back (none named in this command: its
    restore did not; none when HEAD's file does not hold the heading either, which
    that restore refuses), with ``--drop-nested`` when this restore had it."""
    (_i, w, exc), (by_path, drop_nested) = missed, bound
    data = before[w.path][0]
    if data is None:
        return exc
    named = {x.selector for x in wanted if x.path == w.path}
    holders = [(b.selector, b.excludes) for b in (by_path or {}).get(w.path, ())]
    spare = [h for h in holders if h[0] not in named]
    options = (DROP_NESTED,) if drop_nested else ()
    target, committed = (w.selector, w.excludes), committed_text(root, w.path)
    return hidden_refusal(data, w.path, target, spare, options, committed) or exc


def _settled(r: Restored, path: str, written: Written) -> Restored:
    """``r`` as the writing ended: ``left`` (the gate's), ``changed`` (the file's
    bytes moved after they were read), or as planned."""
    if path in written.left:
        return Restored(r.selector, "left", None, r.step)
    if path in written.changed:
        return Restored(r.selector, "changed", None, r.step)
    return r


def _twice(selector: str, exc: AmbiguousSelector) -> ForestError:
    """A bound selector the file now holds more than once (a heading added twice, a
    merge that kept both): which occurrence is the bound one is the user's to say, so
    nothing is written; the ways out name the occurrences (``[n]`` of the selector
    names no binding, so it is no target for restore)."""
    from forest_files.kernel.shellword import forest_text

    where = str(exc).split(" matches ", 1)[-1].split("; choose", 1)[0]
    first = exc.candidates[0] if exc.candidates else selector
    rebind = forest_text("rebind", selector, first, options=("--words", "…"))
    return ForestError(
        f"{selector} now matches {where}; nothing was written — rename or remove the "
        f"occurrence that is not the bound one, then `{forest_text('restore', selector)}`; "
        f"or keep the text an occurrence holds as ground: `{rebind}` (or another of them)"
    )

"""Files left in a merge conflict: no section stands in them until it is resolved.

A conflict's ``=======`` line under a line of text reads as a setext heading, so a
bound section of such a file seems moved under a "heading" of conflict text, and
its rebind, restore or supersede would record or write that text.

Stores: nothing.
Refuses: nothing.
Returns: ``in_conflict`` (the findings, each failed binding whose file is unmerged in
the index, or holds conflict markers where the check looked (conflict_markers.py), made
``unresolved`` with ``CONFLICT_DETAIL`` and the reason ``conflict`` (what its routes
choose by: its ``what`` says how, ``UNMERGED`` or ``MARKED``), no place to move to and
no candidates; but a drifted section the conflicts leave whole (found at its selector
with the same text in the file as it stands, with HEAD's side kept and with the other
side kept: conflicts_sides.py) stays ``drifted`` at its lines, its detail saying the
conflicts are not in it, its routes still the file's: a restore writes nothing into a
file with markers, and a supersede's ``git add`` would stage them. A section the markers
cut short or push under a "heading" of conflict text is not found the same in all three,
so it is ``unresolved``. A contest there keeps its heads but stands at no lines with no
current text, so it gets no route that adopts what the file holds), with the index's
``Stages`` of those files: one ``git ls-files -u`` per command, and one ``git ls-files
--resolve-undo`` for all the files whose markers were staged, read once and handed to
every route (explain.py); ``conflict_routes`` (resolve the file, then ``git add``; or
keep one side whole, ``git checkout --ours``/``--theirs``, where the index holds that
side; with the markers staged by ``git add``, where git's resolve-undo record holds the
side, ``git checkout -m`` first, which puts the conflict back); ``unmerged_stages``;
``undone_stages``. The files are read where the check looked; from the index, their own
entries alone are listed, once, for their stages and blobs (not the whole index), or
taken from the check's own listing of them when it hands that down (``listed``).
Test: tests/check/test_conflicts.py, tests/check/test_route_reasons.py,
tests/check/test_conflicts_listing.py, tests/check/test_staged_listed_once.py
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from forest_files.check.conflicts_sides import Sides
from forest_files.check.finding import Reason, replaced
from forest_files.check.findings import Route
from forest_files.kernel.shellword import command_text, git_step
from forest_files.text.conflict_markers import has_markers

if TYPE_CHECKING:
    from forest_files.check.converted import Listed
    from forest_files.check.finding import Finding
    from forest_files.gitio import TreeEntry

CONFLICT_DETAIL = "the file has unresolved merge conflicts"
UNMERGED = "unmerged in the git index"  # the detail's words for a file git left unmerged
MARKED = "conflict markers in it"  # … for a file not unmerged that holds them (staged?)
# the kinds a binding's check gives that a conflict in its file can cause
_CAUSED = ("drifted", "moved", "unresolved", "missing")
_SIDES = ((2, "--ours", "or keep HEAD's side"), (3, "--theirs", "or keep the other side"))


class Stages(NamedTuple):
    """What the git index holds of the files in conflict, read once per command and
    handed to every route: each unmerged path's stages, and, of each path whose
    markers were staged, the stages git's resolve-undo record keeps."""

    unmerged: Mapping[str, frozenset[int]]
    undone: Mapping[str, frozenset[int]]


NO_STAGES = Stages({}, {})


def in_conflict(
    findings: Sequence[Finding], *, root: Path, source: str, listed: Listed | None = None
) -> tuple[list[Finding], Stages]:
    """``findings``, each failed binding's whose file is in a merge conflict made
    ``unresolved`` (``CONFLICT_DETAIL``), with no move or candidate left; and the
    index's stages of those files, for their routes (module docstring)."""
    paths = sorted({f.path for f in findings if f.kind in (*_CAUSED, "contested")})
    if not paths:
        return list(findings), NO_STAGES
    unmerged, read = _listed(root, source, paths, listed)
    marked = {p for p in paths if p not in unmerged and has_markers(read(p) or b"")}
    whole = Sides(read)
    out: list[Finding] = []
    for f in findings:
        if f.path not in unmerged and f.path not in marked:
            out.append(f)
            continue
        how = UNMERGED if f.path in unmerged else MARKED
        if f.kind == "contested":
            out.append(_contest_in_conflict(f, how))
            continue
        if f.kind not in _CAUSED:
            out.append(f)
            continue
        if f.kind == "drifted" and whole.left_whole(f.path, f.selector):
            detail = f"{CONFLICT_DETAIL} ({how}), not in this section, which drifted: "
            out.append(
                replaced(f, detail=detail + "resolve them first", reason=Reason("conflict", how))
            )
            continue
        out.append(
            replaced(
                f,
                kind="unresolved",
                detail=f"{CONFLICT_DETAIL} ({how}); resolve them first",
                start_line=None,
                end_line=None,
                moved_to=None,
                candidates=(),
                candidate_lines=(),
                # what the reader said of the file is not what to do first
                reason=Reason("conflict", how),
            )
        )
    marked_paths = sorted(marked.intersection(f.path for f in out if _marked(f)))
    return out, Stages(unmerged, undone_stages(root, source, marked_paths))


def _contest_in_conflict(f: Finding, how: str) -> Finding:
    """A contest whose file is in a merge conflict: its heads stand (a ``forest
    resolve`` route is still right), but no section stands in the file. A text line
    over ``=======`` reads as a setext heading, so the section seemed to be its own
    heading alone, and "keep the text the file holds now" adopted that (explain.py
    offers it only with a current hash)."""
    detail = f"{f.detail}; {CONFLICT_DETAIL} ({how}); resolve them first"
    return replaced(
        f,
        detail=detail,
        actual_hash=None,
        start_line=None,
        end_line=None,
        reason=Reason("conflict", how),
    )


def _marked(f: Finding) -> bool:
    """In conflict by the markers its file holds, not unmerged in the index."""
    return f.reason is not None and f.reason.kind == "conflict" and f.reason.what == MARKED


def conflict_routes(
    f: Finding, *, root: Path, source: str, stages: Stages | None = None
) -> tuple[Route, ...]:
    """Resolve the conflicts by hand, then stage the file; or, where the index holds
    the side, keep HEAD's (``--ours``) or the other side's (``--theirs``) whole. With
    the markers staged (``git add`` took the stages: ``--ours`` then reads the staged
    file, markers and all), where git's resolve-undo record keeps the sides,
    ``git checkout -m`` puts the conflict back first. ``stages``: the index's, as
    ``in_conflict`` read them for the whole command; None: read here for ``f``."""
    add = git_step("add", "--", f.path)
    routes = [
        Route(
            "resolve the conflicts",
            note="edit the file: keep the right text, delete the <<<<<<<, ======= and "
            f">>>>>>> lines, then {command_text(add)}; the next check shows what is left",
        )
    ]
    if stages is None:
        marked = [f.path] if _marked(f) else []
        stages = Stages(unmerged_stages(root, source), undone_stages(root, source, marked))
    held = stages.unmerged.get(f.path)
    again: tuple[tuple[str, ...], ...] = ()
    note = ""
    if held is None and _marked(f):
        held = stages.undone.get(f.path)
        again = (git_step("checkout", "-m", "--", f.path),)
        note = "git checkout -m puts back the conflict git add staged, then one side is taken"
    for stage, side, label in _SIDES:
        if stage in (held or ()):
            take = (*again, git_step("checkout", side, "--", f.path), add)
            routes.append(Route(label, take, note))
    return tuple(routes)


def undone_stages(root: Path, source: str, paths: Sequence[str]) -> dict[str, frozenset[int]]:
    """Each of ``paths`` -> the stages git's resolve-undo record keeps of it (``git
    add`` of a file in conflict records them: ``git checkout -m`` puts them back); a
    path it keeps none of is left out. One git call, none without ``paths``; past
    ``_NAMED`` paths the whole record is read and filtered (ARG_MAX)."""
    from forest_files import gitio

    if not paths:
        return {}
    named = list(paths) if len(paths) <= _NAMED else []
    out = gitio.run_git(
        root,
        ["ls-files", "--resolve-undo", "-z", "--full-name", "--", *named],
        keep_index_file=source == "index",
        ok_codes=(0, 128),
    )
    wanted = set(paths)
    stages: dict[str, set[int]] = {}
    for record in gitio.split_z(out.stdout) if out.returncode == 0 else []:
        meta, _, path = record.partition("\t")
        if path in wanted:
            stages.setdefault(path, set()).add(int(meta.rsplit(" ", 1)[1]))
    return {path: frozenset(held) for path, held in stages.items()}


_NAMED = 500  # paths named on git's command line at most


def unmerged_stages(root: Path, source: str) -> dict[str, frozenset[int]]:
    """Each path unmerged in the git index -> the stages it holds (1 base, 2 ours,
    3 theirs); nothing for a commit (the index is not where it looked)."""
    from forest_files import gitio

    if source not in ("worktree", "index"):
        return {}
    out = gitio.run_git(
        root,
        ["ls-files", "-u", "-z", "--full-name"],
        keep_index_file=source == "index",
        ok_codes=(0, 128),
    )
    stages: dict[str, set[int]] = {}
    for record in gitio.split_z(out.stdout) if out.returncode == 0 else []:
        meta, _, path = record.partition("\t")
        stages.setdefault(path, set()).add(int(meta.rsplit(" ", 1)[1]))
    return {path: frozenset(held) for path, held in stages.items()}


def _listed(
    root: Path, source: str, paths: list[str], listed: Listed | None
) -> tuple[dict[str, frozenset[int]], Callable[[str], bytes | None]]:
    """The index's unmerged stages (of ``paths`` at least: only their routes ask), and
    a reader of ``paths`` where the check looked (the index's entries: ``listed``'s)."""
    if source == "index":
        named = [p for p in paths if p]  # "": a contest bound to no file, no git pathspec
        entries = listed(named) if listed and named else None
        if entries is not None or len(paths) <= _NAMED:
            return _index_listed(root, named, entries)
    return unmerged_stages(root, source), _reader(root, source, paths)


def _reader(root: Path, source: str, paths: list[str]) -> Callable[[str], bytes | None]:
    """Reads ``paths`` where the check looked (the work tree, the index or a commit)."""
    from forest_files.custody.content import GitTreeSource, WorktreeSource

    if source == "worktree":
        return WorktreeSource(root, use_stat_cache=False).read
    rev = None if source == "index" else source
    tree = GitTreeSource(root, rev=rev, keep_index_file=rev is None, only=tuple(paths))
    tree.prefetch(paths, known_too=True)
    return tree.read


def _index_listed(
    root: Path, named: list[str], entries: list[TreeEntry] | None = None
) -> tuple[dict[str, frozenset[int]], Callable[[str], bytes | None]]:
    """The index's entries of ``named`` alone (``entries``, else one ``git ls-files -s``):
    the stages of each one unmerged, and a reader of their blobs (one ``git cat-file``);
    no regular file at stage 0 (gone, a symlink, unmerged) reads as None."""
    from forest_files import gitio
    from forest_files.custody.special import git_mode_kind

    if entries is None:
        entries = gitio.ls_files_stage(root, paths=named, keep_index_file=True) if named else []
    wanted = set(named)
    blobs: dict[str, str] = {}
    stages: dict[str, set[int]] = {}
    for e in entries:
        if e.path not in wanted:
            continue  # an entry under a path that is a directory in the index
        if e.stage != 0:
            stages.setdefault(e.path, set()).add(e.stage)
        elif git_mode_kind(e.mode) is None:
            blobs[e.path] = e.blob
    data = gitio.cat_blobs(root, blobs.values()) if blobs else {}
    unmerged = {path: frozenset(held) for path, held in stages.items()}
    return unmerged, lambda path: data[blobs[path]] if path in blobs else None

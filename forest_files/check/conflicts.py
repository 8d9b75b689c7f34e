"""Files left in a merge conflict: no section stands in them until it is resolved.

A conflict's ``=======`` line under a line of text reads as a setext heading, so a
bound section of such a file seems moved under a "heading" of conflict text, and
its rebind, restore or supersede would record or write that text.

Stores: nothing.
Refuses: nothing.
Returns: ``in_conflict`` (the findings, each failed binding whose file is
unmerged in the index, or holds conflict markers where the check looked
(conflict_markers.py), made ``unresolved`` with ``CONFLICT_DETAIL``, no place to
move to and no candidates; a contest there keeps its heads but stands at no lines
with no current text, so it gets no route that adopts what the file holds);
``conflict_routes`` (resolve the file, then ``git
add``; or keep one side whole, ``git checkout --ours``/``--theirs``, where the
index holds that side); ``unmerged_stages``.
Test: tests/check/test_conflicts.py
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.check.finding import replaced
from forest_files.check.findings import Route
from forest_files.kernel.shellword import command_text, git_step
from forest_files.text.conflict_markers import has_markers

if TYPE_CHECKING:
    from forest_files.check.finding import Finding

CONFLICT_DETAIL = "the file has unresolved merge conflicts"
# the kinds a binding's check gives that a conflict in its file can cause
_CAUSED = ("drifted", "moved", "unresolved", "missing")
_SIDES = ((2, "--ours", "or keep HEAD's side"), (3, "--theirs", "or keep the other side"))


def in_conflict(findings: Sequence[Finding], *, root: Path, source: str) -> list[Finding]:
    """``findings``, each failed binding's whose file is in a merge conflict made
    ``unresolved`` (``CONFLICT_DETAIL``), with no move or candidate left."""
    paths = sorted({f.path for f in findings if f.kind in (*_CAUSED, "contested")})
    if not paths:
        return list(findings)
    unmerged = unmerged_stages(root, source)
    marked = _marked(root, source, [p for p in paths if p not in unmerged])
    out: list[Finding] = []
    for f in findings:
        if f.path not in unmerged and f.path not in marked:
            out.append(f)
            continue
        how = "unmerged in the git index" if f.path in unmerged else "conflict markers in it"
        if f.kind == "contested":
            out.append(_contest_in_conflict(f, how))
            continue
        if f.kind not in _CAUSED:
            out.append(f)
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
            )
        )
    return out


def _contest_in_conflict(f: Finding, how: str) -> Finding:
    """A contest whose file is in a merge conflict: its heads stand (a ``forest
    resolve`` route is still right), but no section stands in the file. A text line
    over ``=======`` reads as a setext heading, so the section seemed to be its own
    heading alone, and "keep the text the file holds now" adopted that (explain.py
    offers it only with a current hash)."""
    detail = f"{f.detail}; {CONFLICT_DETAIL} ({how}); resolve them first"
    return replaced(f, detail=detail, actual_hash=None, start_line=None, end_line=None)


def conflict_routes(f: Finding, *, root: Path, source: str) -> tuple[Route, ...]:
    """Resolve the conflicts by hand, then stage the file; or, where the index holds
    the side, keep HEAD's (``--ours``) or the other side's (``--theirs``) whole."""
    add = git_step("add", "--", f.path)
    routes = [
        Route(
            "resolve the conflicts",
            note="edit the file: keep the right text, delete the <<<<<<<, ======= and "
            f">>>>>>> lines, then {command_text(add)}; the next check shows what is left",
        )
    ]
    stages = unmerged_stages(root, source).get(f.path, frozenset())
    for stage, side, label in _SIDES:
        if stage in stages:
            routes.append(Route(label, (git_step("checkout", side, "--", f.path), add)))
    return tuple(routes)


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


def _marked(root: Path, source: str, paths: list[str]) -> set[str]:
    """The ``paths`` that hold conflict markers where the check looked."""
    from forest_files.custody.content import GitTreeSource, WorktreeSource

    if not paths:
        return set()
    if source == "worktree":
        read = WorktreeSource(root, use_stat_cache=False).read
    else:
        rev = None if source == "index" else source
        tree = GitTreeSource(root, rev=rev, keep_index_file=rev is None, only=tuple(paths))
        tree.prefetch(paths, known_too=True)
        read = tree.read
    return {p for p in paths if has_markers(read(p) or b"")}

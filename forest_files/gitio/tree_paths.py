"""A few paths of a commit's tree listed with one ``git ls-tree``, each as its own listing.

``ls_tree(repo, rev, path)`` once per path costs one git process per path (the CI gate
reads a handful of bound files per commit). Git answers several pathspecs in one run
with the union of what each gives alone, in tree order, each entry once; each path's
own listing is then the entries that are that path or lie in it (a path ending in
``/`` names a directory only), which is what a listing of that path alone gives, in
the same order.

Stores: the listing of each path at a full commit id, as ``ls_tree`` keeps it
(seen_objects.py).
Refuses: what ``ls_tree`` refuses (an option for a revision, an unknown revision:
UnknownRef).
Returns: ``ls_tree_each``: one list of entries per asked path, in the asked order,
equal to ``[ls_tree(repo, rev, p) for p in paths]``. A path that is not plain (empty,
``.``/``..``/empty parts, leading ``/``), or an entry git gave that belongs to no
asked path (a pathspec git matched otherwise than literally), sends every
path the old way, one listing each.
Test: tests/gitio/test_tree_paths.py, tests/custody/test_content_git_only.py
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from forest_files.gitio import seen_objects
from forest_files.gitio._run import GitFailed, UnknownRef, refuse_option, run_git, split_z
from forest_files.gitio.content import _OBJECT_ID, ls_tree
from forest_files.gitio.records import TreeEntry


def ls_tree_each(repo: Path | str, rev: str, paths: Sequence[str]) -> list[list[TreeEntry]]:
    """``[ls_tree(repo, rev, p) for p in paths]``, asking git once for the paths not
    kept from an earlier read (see the module header)."""
    kept = seen_objects.seen().trees
    asked = [p for p in dict.fromkeys(paths) if (str(repo), rev, p) not in kept]
    if len(asked) > 1 and all(_plain(p) for p in asked):
        grouped = _listed_once(repo, rev, asked)
        if grouped is not None and _is_object_id(rev):
            for path in asked:
                seen_objects.seen().keep_tree((str(repo), rev, path), tuple(grouped[path]))
        if grouped is not None:
            return [list(grouped[p]) if p in grouped else ls_tree(repo, rev, p) for p in paths]
    return [ls_tree(repo, rev, p) for p in paths]


def _plain(path: str) -> bool:
    """A path git's pathspec takes as the same literal name ``ls_tree`` gives it alone."""
    body = path[:-1] if path.endswith("/") else path
    return bool(body) and all(part not in ("", ".", "..") for part in body.split("/"))


def _is_object_id(rev: str) -> bool:
    return _OBJECT_ID.fullmatch(rev) is not None


def _listed_once(repo: Path | str, rev: str, paths: list[str]) -> dict[str, list[TreeEntry]] | None:
    """Each of ``paths``' entries from one listing; None when an entry fits none."""
    refuse_option(rev, "revision")
    args = ["ls-tree", "-r", "-z", "--full-tree", "--end-of-options", rev, "--", *paths]
    try:
        proc = run_git(repo, args)
    except GitFailed as exc:
        raise UnknownRef(f"{repo}: {rev!r} does not name a tree: {exc.stderr.strip()}") from None
    names = {p for p in paths if not p.endswith("/")}  # a file, or a directory
    folders = {p[:-1] for p in paths if p.endswith("/")}  # a directory only
    out: dict[str, list[TreeEntry]] = {p: [] for p in paths}
    for record in split_z(proc.stdout):
        meta, _, path = record.partition("\t")
        mode, kind, blob = meta.split(" ")
        entry = TreeEntry(mode, kind, blob, path)
        fits = path in names
        if fits:
            out[path].append(entry)
        cut = path.rfind("/")
        while cut > 0:  # each directory the entry lies in, deepest first
            folder = path[:cut]
            if folder in names:
                out[folder].append(entry)
                fits = True
            if folder in folders:
                out[folder + "/"].append(entry)
                fits = True
            cut = path.rfind("/", 0, cut)
        if not fits:
            return None
    return out

"""What each commit of a range did, against each of its parents: one git call each
for the whole range, however many commits it holds.

Stores: nothing.
Refuses: a range or revision that does not resolve (UnknownRef).
Returns: (commit, parents) pairs oldest first; per (commit, parent) the changed
paths under one prefix; what one commit changed under a prefix; whether a tree
path exists at many revisions; the id and type of many names; one file's bytes at
many revisions; the bytes of many ``REV:PATH`` names; the commit that last deleted a
path, and where git still holds a file gone from the work tree; the branches whose
tip holds a file.
Test: tests/gitio/test_gitio.py, tests/gate/test_ledger_growth.py
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from forest_files.gitio._run import (
    DIFF_TREE_PAIRS,
    GitFailed,
    UnknownRef,
    decode,
    pairs_stdin,
    refuse_option,
    run_git,
)
from forest_files.gitio.content import ls_files_stage, ls_tree, parse_name_status
from forest_files.gitio.records import Change
from forest_files.gitio.repo import head_commit

_HEX = re.compile(r"[0-9a-f]{40}([0-9a-f]{24})?")  # an object id, SHA-1 or SHA-256


def range_parents(repo: Path | str, rev_range: str) -> list[tuple[str, tuple[str, ...]]]:
    """Each commit of ``rev_range`` with its parents, oldest first, merges included."""
    refuse_option(rev_range, "range")
    args = ["rev-list", "--reverse", "--topo-order", "--parents", "--end-of-options"]
    try:
        proc = run_git(repo, [*args, rev_range, "--"])
    except GitFailed as exc:
        raise UnknownRef(
            f"{repo}: range {rev_range!r} does not resolve: {exc.stderr.strip()}"
        ) from None
    out: list[tuple[str, tuple[str, ...]]] = []
    for line in decode(proc.stdout).splitlines():
        commit, *parents = line.split()
        out.append((commit, tuple(parents)))
    return out


def commit_changes(
    repo: Path | str, rev: str, prefix: str, *, filters: str | None = None
) -> list[Change]:
    """The paths under ``prefix`` that commit ``rev`` changed against its first parent
    (a root commit: against nothing), in one ``git diff-tree`` (``filters`` as for
    ``--diff-filter``). A merge shows none: git asks its pre-merge-commit hook about
    it. Renames are never detected, so a moved file is its deletion."""
    refuse_option(rev, "revision")
    args = ["diff-tree", "-r", "-z", "--no-renames", "--no-ext-diff", "--no-commit-id"]
    args += ["--root", "--name-status", *([f"--diff-filter={filters}"] if filters else [])]
    try:
        proc = run_git(repo, [*args, rev, "--", prefix])
    except GitFailed as exc:
        raise UnknownRef(f"{repo}: cannot read commit {rev!r}: {exc.stderr.strip()}") from None
    return parse_name_status(proc.stdout)


def diff_each_parent(
    repo: Path | str,
    pairs: Sequence[tuple[str, str]],
    prefix: str | None,
    *,
    filters: str | None = "MDT",
) -> list[list[Change]]:
    """For each (commit, parent) pair, in order: the paths under ``prefix`` (None:
    every path) that ``commit`` changed against ``parent`` (``filters`` as for
    ``--diff-filter``; None: every change).

    One ``git diff-tree --stdin`` for every pair. Renames are never detected, so a
    moved file is its deletion (and an addition elsewhere). ``--always`` prints
    each pair's commit line even when its diff is empty, which keeps the output
    aligned with the input.
    """
    if not pairs:
        return []
    request = pairs_stdin(pairs)
    args = list(DIFF_TREE_PAIRS)
    if filters:
        args.append(f"--diff-filter={filters}")
    args += ["--"] if prefix is None else ["--", prefix]
    try:
        proc = run_git(repo, args, stdin=request)
    except GitFailed as exc:
        raise UnknownRef(f"{repo}: cannot diff the range: {exc.stderr.strip()}") from None
    fields = decode(proc.stdout).split("\0")
    result: list[list[Change]] = []
    i = 0
    while i < len(fields):
        field = fields[i]
        if field.startswith(":"):  # ":<mode> <mode> <blob> <blob> <status>" then the path
            result[-1].append(Change(field.rsplit(" ", 1)[-1][:1], fields[i + 1]))
            i += 2
            continue
        if field:  # the commit line that opens the next pair
            result.append([])
        i += 1
    if len(result) != len(pairs):
        raise GitFailed(f"git diff-tree answered {len(result)} of {len(pairs)} diffs")
    return result


def trees_exist(repo: Path | str, revs: Sequence[str], path: str) -> dict[str, bool]:
    """Whether ``path`` is a directory (a tree) at each of ``revs``, in one
    ``git cat-file --batch-check``."""
    wanted = list(dict.fromkeys(revs))
    for rev in wanted:
        refuse_option(rev, "revision")
    found = objects_at(repo, [f"{rev}:{path}" for rev in wanted])
    return {rev: o is not None and o[1] == "tree" for rev, o in zip(wanted, found, strict=True)}


def objects_at(repo: Path | str, names: Sequence[str]) -> list[tuple[str, str] | None]:
    """(object id, type) of each of ``names`` (``REV``, ``REV^{commit}``, ``REV:PATH``),
    in order, None where it names nothing (or several: an ambiguous prefix), in one
    ``git cat-file --batch-check``; no process for no name. A name is one line of its
    request: one holding a newline, or empty, is refused (``ValueError``)."""
    if any(not name or "\n" in name for name in names):
        raise ValueError("an empty name, or one with a newline, cannot be looked up this way")
    if not names:
        return []
    request = "".join(f"{name}\n" for name in names).encode()
    proc = run_git(repo, ["cat-file", "--batch-check"], stdin=request)
    lines = decode(proc.stdout).splitlines()
    if len(lines) != len(names):
        raise GitFailed(f"git cat-file answered {len(lines)} of {len(names)} lookups")
    found: list[tuple[str, str] | None] = []
    for line in lines:  # "<id> <type> <size>"; else "<name> missing" (or "ambiguous")
        fields = line.split(" ")
        whole = len(fields) == 3 and fields[2].isdigit() and _HEX.fullmatch(fields[0])
        found.append((fields[0], fields[1]) if whole else None)
    return found


def objects_named(repo: Path | str, names: Sequence[str]) -> set[str]:
    """Which hex ``names`` (whole or abbreviated object names) name an object of the
    repository, in one ``git cat-file --batch-check`` (an ambiguous prefix counts:
    it names several)."""
    wanted = [n for n in dict.fromkeys(names) if n and all(c in "0123456789abcdef" for c in n)]
    if not wanted:
        return set()
    request = "".join(f"{name}\n" for name in wanted).encode()
    proc = run_git(repo, ["cat-file", "--batch-check"], stdin=request)
    lines = decode(proc.stdout).splitlines()
    if len(lines) != len(wanted):
        raise GitFailed(f"git cat-file answered {len(lines)} of {len(wanted)} lookups")
    return {n for n, line in zip(wanted, lines, strict=True) if not line.endswith(" missing")}


def files_at(repo: Path | str, revs: Sequence[str], path: str) -> dict[str, bytes | None]:
    """The bytes of the file ``path`` at each of ``revs`` (None where it is absent or
    no file: a directory or a submodule), in one ``git cat-file --batch``."""
    wanted = list(dict.fromkeys(revs))
    for rev in wanted:
        refuse_option(rev, "revision")
    return dict(zip(wanted, named_files(repo, [f"{rev}:{path}" for rev in wanted]), strict=True))


def named_files(repo: Path | str, names: Sequence[str]) -> list[bytes | None]:
    """The bytes of each ``REV:PATH`` of ``names``, in order (None where it is absent
    or no file), in one ``git cat-file --batch``."""
    if any("\n" in name for name in names):  # cat-file --batch reads one name per line
        raise ValueError("a path with a newline cannot be looked up this way")
    if not names:
        return []
    request = "".join(f"{name}\n" for name in names).encode()
    out = run_git(repo, ["cat-file", "--batch"], stdin=request).stdout
    found: list[bytes | None] = []
    pos = 0
    for _ in names:
        end = out.index(b"\n", pos)
        header = out[pos:end].rsplit(b" ", 2)
        pos = end + 1
        if len(header) != 3 or not header[2].isdigit():  # "<rev>:<path> missing"
            found.append(None)
            continue
        size = int(header[2])
        found.append(out[pos : pos + size] if header[1] == b"blob" else None)
        pos += size + 1  # content is followed by one LF
    return found


def last_deleted_by(repo: Path | str, path: str, *, beyond: Sequence[str] = ()) -> str | None:
    """The last commit HEAD reaches that deleted ``path``; None: none did (or no
    commit yet). ``beyond``: commit ids whose history is not walked (only HEAD's
    commits none of them reaches are searched)."""
    for commit in beyond:
        refuse_option(commit, "revision")
    args = ["log", "-1", "--format=%H", "--diff-filter=D", "HEAD"]
    stdin = None
    if beyond:  # on stdin: any number of branch tips stays within ARG_MAX
        args.append("--stdin")
        stdin = "".join(f"^{commit}\n" for commit in beyond).encode()
    out = run_git(repo, [*args, "--", path], stdin=stdin, ok_codes=(0, 128))
    commit = decode(out.stdout).strip() if out.returncode == 0 else ""
    return commit or None


def branches_holding(repo: Path | str, path: str) -> list[tuple[str, str]]:
    """The local and remote-tracking branches whose tip holds the file ``path``, as
    (commit id, short name), in git's ref order: one ``git for-each-ref`` and one
    ``git cat-file --batch-check``, however long their history."""
    listed = run_git(
        repo,
        ["for-each-ref", "--format=%(objectname) %(refname:short)", "refs/heads", "refs/remotes"],
    )
    tips = [line.split(" ", 1) for line in decode(listed.stdout).splitlines() if " " in line]
    if not tips:
        return []
    request = "".join(f"{commit}:{path}\n" for commit, _ in tips).encode()
    proc = run_git(repo, ["cat-file", "--batch-check"], stdin=request)
    lines = decode(proc.stdout).splitlines()
    if len(lines) != len(tips):
        raise GitFailed(f"git cat-file answered {len(lines)} of {len(tips)} lookups")
    return [
        (commit, name)
        for (commit, name), line in zip(tips, lines, strict=True)
        if line.split(" ")[1:2] == ["blob"]
    ]


def holding_rev(repo: Path | str, path: str) -> str | None:
    """Where git still holds a file gone from the work tree, as ``git checkout [REV] --
    PATH`` takes it: "" (the index), "HEAD", or the parent of the commit that last
    deleted it (``C^``); None: no commit HEAD reaches holds it."""
    if any(e.path == path for e in ls_files_stage(repo, path)):
        return ""
    if head_commit(repo) is None:
        return None
    if any(e.path == path for e in ls_tree(repo, "HEAD", path)):
        return "HEAD"
    gone = last_deleted_by(repo, path)
    return f"{gone}^" if gone is not None else None

"""What each commit of a range did, against each of its parents: one git call each
for the whole range, however many commits it holds.

Stores: nothing.
Refuses: a range or revision that does not resolve (UnknownRef).
Returns: (commit, parents) pairs oldest first; per (commit, parent) the changed
paths under one prefix; whether a tree path exists at many revisions.
Test: tests/test_gitio.py, tests/test_ledger_growth.py
"""

from __future__ import annotations

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
from forest_files.gitio.content import Change


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


def diff_each_parent(
    repo: Path | str, pairs: Sequence[tuple[str, str]], prefix: str, *, filters: str = "MDT"
) -> list[list[Change]]:
    """For each (commit, parent) pair, in order: the paths under ``prefix`` that
    ``commit`` changed against ``parent`` (``filters`` as for ``--diff-filter``).

    One ``git diff-tree --stdin`` for every pair. Renames are never detected, so a
    moved file is its deletion (and an addition elsewhere). ``--always`` prints
    each pair's commit line even when its diff is empty, which keeps the output
    aligned with the input.
    """
    if not pairs:
        return []
    request = pairs_stdin(pairs)
    args = list(DIFF_TREE_PAIRS)
    args += [f"--diff-filter={filters}", "--", prefix]
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
    if not wanted:
        return {}
    request = "".join(f"{rev}:{path}\n" for rev in wanted).encode()
    proc = run_git(repo, ["cat-file", "--batch-check"], stdin=request)
    lines = decode(proc.stdout).splitlines()
    if len(lines) != len(wanted):
        raise GitFailed(f"git cat-file answered {len(lines)} of {len(wanted)} lookups")
    return {rev: line.split(" ")[1:2] == ["tree"] for rev, line in zip(wanted, lines, strict=True)}

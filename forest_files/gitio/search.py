"""Where files came from: the commits that added files holding some hex words, and the
commit of a range that added a path (``git log``, one call for many words or paths;
a merge counts where it added what none of its parents held).

Stores: nothing.
Refuses: a word that is not lowercase hex, a range or revision that starts with
``-`` (``UnknownRef``), a path with a newline (``ValueError``: ``cat-file --batch``
reads one name a line).
Returns: ``Added`` (commit, path, blob) records (of files holding words, or of
named paths); path -> commit; path -> bytes.
Test: tests/gitio/test_gitio_search.py
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import NamedTuple

from forest_files.gitio._run import UnknownRef, decode, refuse_option, run_git
from forest_files.gitio.history import named_files

_HEX = re.compile(r"[0-9a-f]+")
_LOG = ("log", "-z", "--no-renames", "--no-abbrev", "--no-ext-diff", "--format=commit %H", "--raw")
# A merge diffed combined: only what it holds unlike every parent (a file its conflict
# resolution added), never what it took from one side (found at that side's commit).
_MERGES = "-c"


class Added(NamedTuple):
    """A regular file ``path`` a commit added (or changed), and its blob there."""

    commit: str
    path: str
    blob: str


_FILES = ("100644", "100755")
_LINKS = ("120000", "160000")  # a symlink, a submodule


def _records(raw: bytes, modes: Sequence[str] = _FILES) -> Iterator[tuple[str, str, str, str]]:
    """(commit, status, blob, path) of ``git log -z --raw --format='commit %H'``, only
    regular files (a symlink or a submodule is never a ledger file; ``modes``: which
    entries are kept). A merge's combined
    record (``-c``: one colon, mode and blob per parent, then the result's) gives the
    result's mode and blob."""
    fields = iter(decode(raw).split("\0"))
    commit = ""
    for field in fields:
        field = field.lstrip("\n")
        if field.startswith("commit "):
            commit = field.removeprefix("commit ")
        elif field.startswith(":"):  # ":<mode> <mode> <blob> <blob> <status>", then the path
            parents = len(field) - len(field.lstrip(":"))
            words = field[parents:].split(" ")
            mode, blob, status = words[parents], words[2 * parents + 1], words[-1]
            path = next(fields)
            if mode in modes:
                yield commit, status[:1], blob, path


def files_with(repo: Path | str, words: Sequence[str], prefix: str) -> list[Added]:
    """Each file under ``prefix`` that a commit any ref reaches added or changed with a
    line holding one of the hex ``words`` (``git log --all -G``), newest first; a merge
    that added or changed it unlike each of its parents too (an evil merge). A match
    is a place to look, never proof: the caller reads the blob."""
    if not words:
        return []
    for word in words:
        if not _HEX.fullmatch(word):
            raise UnknownRef(f"{word!r} is not a hex id")
    pattern = f"({'|'.join(words)})"  # extended regex: hex words only, nothing to escape
    args = [*_LOG, _MERGES, "--all", "--diff-filter=AM", f"-G{pattern}", "--", prefix]
    proc = run_git(repo, args)
    return [Added(c, p, b) for c, _, b, p in _records(proc.stdout)]


def paths_added(repo: Path | str, paths: Sequence[str]) -> list[Added]:
    """Each of ``paths`` (exact paths) as a commit any ref reaches added or changed it,
    merges diffed as ``files_with`` diffs them; newest first. The caller reads the blob."""
    if not paths:
        return []
    args = [*_LOG, _MERGES, "--all", "--diff-filter=AM", "--", *dict.fromkeys(paths)]
    return [Added(c, p, b) for c, _, b, p in _records(run_git(repo, args).stdout)]


def first_added(
    repo: Path | str, rev_range: str, paths: Sequence[str], *, links: bool = False
) -> dict[str, str]:
    """For each of ``paths`` the oldest commit of ``rev_range`` that added it (paths no
    commit of the range added are left out; parents before children,
    ``--topo-order``): a merge only when none of its parents held it. ``links``: the
    symlinks and submodules at or under ``paths`` instead of the regular files."""
    refuse_option(rev_range, "range")
    if not paths:
        return {}
    args = [*_LOG, _MERGES, "--topo-order", "--reverse", "--diff-filter=A"]
    args += ["--end-of-options", rev_range, "--", *paths]
    out: dict[str, str] = {}
    for commit, _, _, path in _records(run_git(repo, args).stdout, _LINKS if links else _FILES):
        out.setdefault(path, commit)
    return out


def blobs_at(repo: Path | str, rev: str, paths: Sequence[str]) -> dict[str, bytes | None]:
    """The bytes of each of ``paths`` at ``rev`` (None where absent or no file), in one
    ``git cat-file --batch``."""
    refuse_option(rev, "revision")
    wanted = list(dict.fromkeys(paths))
    return dict(zip(wanted, named_files(repo, [f"{rev}:{p}" for p in wanted]), strict=True))

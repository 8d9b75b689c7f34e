"""What a commit, the git index or a diff holds: paths, blob ids, bytes.

``repo`` is always the working-tree root (``toplevel()``): git reads
pathspecs and limits ``ls-files`` relative to the directory it runs in.

Stores: nothing.
Refuses: unknown revisions and missing objects (UnknownRef).
Returns: TreeEntry / Change records (NUL-split, paths unquoted) and blob bytes.
Test: tests/gitio/test_gitio.py, tests/gitio/test_check_attrs.py

Git objects never change under their id, so what one process has read by id is
kept (seen_objects.py): a tree listed at a full commit id and blob bytes, per
repository, within a byte budget. The CI gate reads HEAD's ledger for verify,
the range and the view: once from git, not three times.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from forest_files.gitio import seen_objects
from forest_files.gitio._run import (
    GitFailed,
    UnknownRef,
    decode,
    refuse_option,
    run_git,
    split_z,
)
from forest_files.gitio.pending import index_flag
from forest_files.gitio.records import Change, TreeEntry
from forest_files.gitio.repo import head_commit

SUBMODULE_MODE = "160000"
_OBJECT_ID = re.compile(r"[0-9a-f]{40}([0-9a-f]{24})?")


def forget_read_objects() -> None:
    """Drop every object this process kept (what a new process starts from)."""
    seen_objects.forget()


def ls_tree(repo: Path | str, rev: str, path_prefix: str = "") -> list[TreeEntry]:
    """Every entry under ``path_prefix`` in ``rev``'s tree, recursively."""
    key = (str(repo), rev, path_prefix)
    kept = seen_objects.seen().trees.get(key)
    if kept is not None:
        return list(kept)
    refuse_option(rev, "revision")
    args = ["ls-tree", "-r", "-z", "--full-tree", "--end-of-options", rev]
    if path_prefix:
        args += ["--", path_prefix]
    try:
        proc = run_git(repo, args)
    except GitFailed as exc:
        raise UnknownRef(f"{repo}: {rev!r} does not name a tree: {exc.stderr.strip()}") from None
    entries = []
    for record in split_z(proc.stdout):
        meta, _, path = record.partition("\t")
        mode, kind, blob = meta.split(" ")
        entries.append(TreeEntry(mode, kind, blob, path))
    if _OBJECT_ID.fullmatch(rev):  # a name (HEAD, a branch) may move; an id never does
        seen_objects.seen().keep_tree(key, tuple(entries))
    return entries


def ls_files_stage(
    repo: Path | str,
    prefix: str = "",
    *,
    keep_index_file: bool = False,
    paths: Sequence[str] = (),
) -> list[TreeEntry]:
    """Entries of the git index under ``prefix``, or at ``paths`` (from the top, taken
    literally) when given (pass ``keep_index_file=True`` from a hook so a temporary
    index named by GIT_INDEX_FILE is the one read)."""
    return _ls_files(repo, prefix, keep_index_file, paths, None)


def ls_files_flagged(
    repo: Path | str,
    prefix: str = "",
    *,
    keep_index_file: bool = False,
    paths: Sequence[str] = (),
) -> tuple[list[TreeEntry], dict[str, str]]:
    """``ls_files_stage``, and of the same listing (``-s -v``: one git call) each
    listed path the index is told to take as unchanged, with its flag, as
    ``taken_as_unchanged`` says it (pending.py ``index_flag``)."""
    flags: dict[str, str] = {}
    return _ls_files(repo, prefix, keep_index_file, paths, flags), flags


def _ls_files(
    repo: Path | str,
    prefix: str,
    keep_index_file: bool,
    paths: Sequence[str],
    flags: dict[str, str] | None,
) -> list[TreeEntry]:
    args = ["ls-files", "-s", *(["-v"] if flags is not None else []), "-z", "--full-name"]
    if paths:
        args += ["--", *paths]
    elif prefix:
        args += ["--", prefix]
    proc = run_git(repo, args, keep_index_file=keep_index_file)
    entries: list[TreeEntry] = []
    append = entries.append  # one entry per indexed file: 10,000 in a large tree
    for record in split_z(proc.stdout):
        if flags is not None:  # "H ", "S ", "h " ...: the tag, then the -s line
            tag, record = record[:1], record[2:]
        meta, _, path = record.partition("\t")
        mode, blob, stage = meta.split(" ")
        kind = "commit" if mode == SUBMODULE_MODE else "blob"
        append(TreeEntry(mode, kind, blob, path, 0 if stage == "0" else int(stage)))
        if flags is not None and tag != "H":
            flag = index_flag(tag)
            if flag is not None:
                flags[path] = flag
    return entries


def submodule_paths(repo: Path | str, *, keep_index_file: bool = False) -> list[str]:
    """Paths of submodules (gitlinks, mode 160000) in the git index."""
    entries = ls_files_stage(repo, keep_index_file=keep_index_file)
    return [e.path for e in entries if e.mode == SUBMODULE_MODE]


def parse_name_status(raw: bytes) -> list[Change]:
    fields = split_z(raw)
    changes: list[Change] = []
    i = 0
    while i < len(fields):
        status = fields[i]
        letter = status[:1]
        if letter in ("R", "C"):
            changes.append(Change(letter, fields[i + 2], fields[i + 1]))
            i += 3
        else:
            changes.append(Change(letter, fields[i + 1]))
            i += 2
    return changes


def _diff_opts(filters: str | None, renames: bool) -> list[str]:
    opts = ["-z", "--name-status", "--no-ext-diff", "--no-textconv"]
    opts.append("-M" if renames else "--no-renames")
    if filters:
        opts.append(f"--diff-filter={filters}")
    return opts


def diff_names(
    repo: Path | str,
    a: str,
    b: str,
    *,
    filters: str | None = "MD",
    paths: Sequence[str] = (),
    renames: bool = False,
) -> list[Change]:
    """Paths that differ between commits ``a`` and ``b`` (``filters`` as for
    ``--diff-filter``; None for all). Renames are split into D + A unless
    ``renames=True``."""
    refuse_option(a, "revision")
    refuse_option(b, "revision")
    args = ["diff-tree", "-r", *_diff_opts(filters, renames), a, b, "--", *paths]
    try:
        proc = run_git(repo, args)
    except GitFailed as exc:
        raise UnknownRef(f"{repo}: cannot diff {a!r}..{b!r}: {exc.stderr.strip()}") from None
    return parse_name_status(proc.stdout)


def _empty_tree(repo: Path | str) -> str:
    # Computed rather than hard-coded so SHA-256 repositories work too.
    proc = run_git(repo, ["hash-object", "-t", "tree", "--stdin"], stdin=b"")
    return decode(proc.stdout).strip()


def staged_changes(
    repo: Path | str,
    *,
    keep_index_file: bool = False,
    renames: bool = False,
    paths: Sequence[str] = (),
    head: str | None = None,
) -> list[Change]:
    """What the next commit would change: the git index against HEAD (against
    the empty tree on an unborn branch). Compares content, not stat data.
    ``head``: HEAD's commit id when the caller already knows it (``""``: it knows the
    branch is unborn); None: git resolves HEAD in the one ``diff-index`` (HEAD's id is
    asked apart only when that fails: an unborn branch)."""
    opts = ["diff-index", "--cached", *_diff_opts(None, renames)]
    if head is None:
        args = [*opts, "HEAD", "--", *paths]
        proc = run_git(repo, args, keep_index_file=keep_index_file, ok_codes=(0, 128))
        if proc.returncode == 0:
            return parse_name_status(proc.stdout)
        head = head_commit(repo)
        if head is not None:  # HEAD resolves: the failure was another's, said as it was
            proc = run_git(repo, [*opts, head, "--", *paths], keep_index_file=keep_index_file)
            return parse_name_status(proc.stdout)
        head = ""
    base = head or _empty_tree(repo)
    proc = run_git(repo, [*opts, base, "--", *paths], keep_index_file=keep_index_file)
    return parse_name_status(proc.stdout)


def cat_blobs(repo: Path | str, blob_ids: Iterable[str]) -> dict[str, bytes]:
    """The bytes of many blobs through one ``git cat-file --batch`` process."""
    wanted = list(dict.fromkeys(blob_ids))
    for oid in wanted:
        if not _OBJECT_ID.fullmatch(oid):
            raise UnknownRef(f"{oid!r} is not a full object id")
    where = str(repo)
    found = {
        oid: data
        for oid in wanted
        if (data := seen_objects.seen().blobs.get((where, oid))) is not None
    }
    asked = [oid for oid in wanted if oid not in found]
    if asked:
        request = "".join(f"{oid}\n" for oid in asked).encode()
        proc = run_git(repo, ["cat-file", "--batch"], stdin=request)
        read = _parse_batch(proc.stdout, asked)
        for oid, data in read.items():
            seen_objects.seen().keep_blob((where, oid), data)
        found.update(read)
    return {oid: found[oid] for oid in wanted}


def _parse_batch(out: bytes, wanted: list[str]) -> dict[str, bytes]:
    blobs: dict[str, bytes] = {}
    pos = 0
    for oid in wanted:
        end = out.index(b"\n", pos)
        header = out[pos:end].decode("ascii").split(" ")
        pos = end + 1
        if header[-1] == "missing":
            raise UnknownRef(f"object {oid} is missing from the repository")
        if header[1] != "blob":
            raise UnknownRef(f"object {oid} is a {header[1]}, not a blob")
        size = int(header[2])
        blobs[oid] = out[pos : pos + size]
        pos += size + 1  # content is followed by one LF
    return blobs


def attributes(repo: Path | str, paths: Sequence[str]) -> dict[str, dict[str, str]]:
    """Every attribute set (or unset) for each path, by name: its value, "set" or
    "unset" (``git check-attr -a``; the paths need not exist)."""
    if not paths:
        return {}
    stdin = b"".join(p.encode("utf-8", "surrogateescape") + b"\0" for p in paths)
    proc = run_git(repo, ["check-attr", "-z", "-a", "--stdin"], stdin=stdin)
    fields = split_z(proc.stdout)
    out: dict[str, dict[str, str]] = {p: {} for p in paths}
    for i in range(0, len(fields) - 2, 3):
        out.setdefault(fields[i], {})[fields[i + 1]] = fields[i + 2]
    return out


def check_attr(
    repo: Path | str,
    attr: str,
    paths: Sequence[str],
    *,
    cached: bool = False,
    keep_index_file: bool = False,
) -> dict[str, str]:
    """``attr``'s value for each path: "unspecified", "set", "unset" or the value.
    ``cached=True`` reads .gitattributes from the git index only."""
    said = check_attrs(repo, (attr,), paths, cached=cached, keep_index_file=keep_index_file)
    return {path: values[attr] for path, values in said.items()}


def check_attrs(
    repo: Path | str,
    attrs: Sequence[str],
    paths: Sequence[str],
    *,
    cached: bool = False,
    keep_index_file: bool = False,
) -> dict[str, dict[str, str]]:
    """Each of ``attrs``' value for each path, asked in one ``git check-attr``:
    "unspecified", "set", "unset" or the value, by attribute."""
    for attr in attrs:
        refuse_option(attr, "attribute")
    if not paths or not attrs:
        return {}
    args = ["check-attr", "-z", "--stdin", *(["--cached"] if cached else []), *attrs]
    stdin = b"".join(p.encode("utf-8", "surrogateescape") + b"\0" for p in paths)
    proc = run_git(repo, args, stdin=stdin, keep_index_file=keep_index_file)
    fields = split_z(proc.stdout)
    out: dict[str, dict[str, str]] = {}
    for i in range(0, len(fields) - 2, 3):
        out.setdefault(fields[i], {})[fields[i + 1]] = fields[i + 2]
    return out

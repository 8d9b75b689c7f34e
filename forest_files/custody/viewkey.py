"""Naming cached custody views: a fingerprint of a source's ledger, and the bound
paths file beside each view. Light: standard library and gitio only, so the hook
can answer "does this commit touch anything bound?" without loading the store.

Stores: ``.git/forest/views/<fingerprint>.bound`` (the bound paths, NUL-separated),
written next to the view it describes; ``<VIEW_FORMAT>-<head key>.alias``, the
fingerprint of a ledger known by its HEAD tree id (a hook whose commit stages no
ledger file finds its view without listing the ledger).
Refuses: nothing.
Returns: fingerprints, view paths, bound path sets (None when not cached); a range's
keys with whether a folder is there at each (``range_keys``).
Test: tests/doors/test_hooks.py, tests/gate/test_ci_git_calls.py, tests/gate/test_ci_repeats.py
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import NamedTuple

from forest_files import gitio
from forest_files.gitio import refuse_option
from forest_files.kernel import cache
from forest_files.kernel.errors import StateError
from forest_files.kernel.paths import CONFIG_NAME, LEDGER_PREFIX, VIEWS_DIR
from forest_files.kernel.state import worktree_dir

# The view format: part of every fingerprint and alias name, so views (and aliases
# naming them) of an older format are never found again and are rebuilt.
# v4: a view is extended only from a view whose segments and bodies match by blob.
# v5: ledger format 2 (one act per user act; paths each act touched recorded).
# v6: an act's paths are every path its chain was ever bound to (authority, signing).
VIEW_FORMAT = "forest-view-v6"
_RAW = "surrogateescape"  # gitio decodes a path so; it encodes back to git's bytes
_OBJECT_ID = re.compile(r"[0-9a-f]{40}([0-9a-f]{24})?")  # a commit's id: its tree never moves


def ledger_fingerprint(root: Path, source: str, *, keep_index_file: bool = False) -> str:
    """A hash of every ledger blob id and of forest.toml at ``source`` (index or commit).

    Only the ledger and forest.toml are listed. Both listings are brought to one
    form (mode, blob id, stage, path), so the git index and a commit holding the
    same ledger share a fingerprint, and so a view: the view a pre-commit hook
    built from the staged ledger is the view of the commit it became.
    """
    spec = ["--", LEDGER_PREFIX, CONFIG_NAME]
    if source == "index":
        args = ["ls-files", "-s", "-z", "--full-name", *spec]
    elif _OBJECT_ID.fullmatch(source):
        return _fingerprint(_commit_lines(root, source))
    else:
        refuse_option(source, "revision")
        args = ["ls-tree", "-r", "-z", "--full-tree", source, *spec]
    raw = gitio.run_git(root, args, keep_index_file=keep_index_file).stdout
    lines = []
    for record in raw.split(b"\0"):
        if not record:
            continue
        meta, _, path = record.partition(b"\t")
        fields = meta.split(b" ")
        if source == "index":  # <mode> <blob> <stage>
            mode, blob, stage = fields
        else:  # <mode> <type> <blob>
            mode, blob, stage = fields[0], fields[2], b"0"
        lines.append(b"%s %s %s\t%s" % (mode, blob, stage, path))
    return _fingerprint(lines)


def _commit_lines(root: Path, commit: str) -> list[bytes]:
    """The fingerprint's lines of a commit named by its id, from gitio's listings of
    its ledger and of forest.toml: an id never moves, so the ledger's listing is the
    one verify and the view's build read (gitio keeps it), not another ``ls-tree``.
    One listing of both paths gives the same entries in this order (``.forest/``
    sorts before ``forest.toml`` in a tree)."""
    entries = [
        *gitio.ls_tree(root, commit, LEDGER_PREFIX),
        *gitio.ls_tree(root, commit, CONFIG_NAME),
    ]
    return [
        b"%s %s 0\t%s" % (e.mode.encode(), e.blob.encode(), e.path.encode("utf-8", _RAW))
        for e in entries
    ]


def _fingerprint(lines: list[bytes]) -> str:
    import hashlib

    return hashlib.sha256(VIEW_FORMAT.encode() + b"\0" + b"\0".join(lines)).hexdigest()


def head_custody(root: Path, rev: str = "HEAD") -> tuple[str, str] | None:
    """(``rev``'s commit id, a key of its ledger tree and forest.toml) in one git call.

    None on an unborn branch or when the commit holds no ledger directory or no
    forest.toml (the caller falls back to ``ledger_fingerprint``). Tree and blob
    ids name content, so the key is as exact as the listing's hash.
    """
    return heads_custody(root, [rev]).get(rev)


def heads_custody(root: Path, revs: list[str]) -> dict[str, tuple[str, str]]:
    """``head_custody`` of many revisions in one ``rev-parse`` (a range judged commit
    by commit); empty when any of them has no commit, ledger tree or forest.toml
    (the caller then asks ``head_custody`` one at a time)."""
    args = ["rev-parse"]
    for rev in revs:
        refuse_option(rev, "revision")
        args += [f"{rev}^{{commit}}", f"{rev}:{LEDGER_PREFIX.rstrip('/')}", f"{rev}:forest.toml"]
    proc = gitio.run_git(root, args, ok_codes=(0, 128))
    lines = proc.stdout.decode("ascii", "replace").split()
    if proc.returncode != 0 or len(lines) != 3 * len(revs):
        return {}
    out: dict[str, tuple[str, str]] = {}
    for at, rev in enumerate(revs):
        commit, tree, config = lines[3 * at : 3 * at + 3]
        out[rev] = (commit, head_key(tree, config))
    return out


class RangeKeys(NamedTuple):
    keys: dict[str, tuple[str, str]]  # ``head_custody`` of each rev that has one
    holds: dict[str, bool]  # whether the folder asked is a directory (a tree) there


def range_keys(root: Path, revs: list[str], folder: str) -> RangeKeys:
    """``head_custody`` of each of ``revs`` (those with a commit, a ledger tree and
    forest.toml: each answered alone, a commit without them is left out, not the
    whole range), and whether ``folder`` is a directory at each: four names a
    revision, in one ``git cat-file --batch-check`` (a range judged commit by commit:
    gate/history.py). The ids are those ``rev-parse`` gives for the same names."""
    wanted = list(dict.fromkeys(revs))
    names: list[str] = []
    for rev in wanted:
        refuse_option(rev, "revision")
        ledger = f"{rev}:{LEDGER_PREFIX.rstrip('/')}"
        names += [f"{rev}^{{commit}}", ledger, f"{rev}:{CONFIG_NAME}", f"{rev}:{folder}"]
    found = gitio.objects_at(root, names)
    keys: dict[str, tuple[str, str]] = {}
    holds: dict[str, bool] = {}
    for at, rev in enumerate(wanted):
        commit, tree, config, there = found[4 * at : 4 * at + 4]
        holds[rev] = there is not None and there[1] == "tree"
        if commit is not None and commit[1] == "commit" and tree and config:
            keys[rev] = (commit[0], head_key(tree[0], config[0]))
    return RangeKeys(keys, holds)


def head_key(tree: str, config: str) -> str:
    """The custody key of a commit from its ledger tree id and forest.toml blob id (the
    hook asks both in the ``rev-parse`` that finds the root: doors/hooks/committed.py)."""
    return f"tree-{tree}-{config}"


def commit_fingerprint(root: Path, rev: str) -> str:
    """``ledger_fingerprint`` of a commit, through the alias of its ledger tree when an
    earlier run listed that ledger (one ``rev-parse`` instead of a full listing)."""
    known = head_custody(root, rev)
    found = read_alias(root, known[1]) if known is not None else None
    if found is None:
        found = ledger_fingerprint(root, rev)
        if known is not None:
            write_alias(root, known[1], found)
    return found


def alias_path(root: Path, head_key: str) -> Path:
    # Named without creating anything: a write (kernel/cache) makes the directories.
    return worktree_dir(root, create=False) / VIEWS_DIR / f"{VIEW_FORMAT}-{head_key}.alias"


def read_alias(root: Path, head_key: str) -> str | None:
    """The listing fingerprint remembered for a ledger tree key (None if unknown)."""
    got = cache.read(alias_path(root, head_key), "view-alias")
    if not isinstance(got, str):
        return None
    return got if len(got) == 64 and all(c in "0123456789abcdef" for c in got) else None


def write_alias(root: Path, head_key: str, fingerprint: str) -> None:
    cache.write(alias_path(root, head_key), "view-alias", fingerprint)  # else: a slower hook


def view_path(root: Path, fingerprint: str) -> Path:
    # Named without creating anything: build_view makes (and checks) the directories.
    return worktree_dir(root, create=False) / VIEWS_DIR / f"{fingerprint}.db"


_SEAL_SUFFIX = ".seal"  # what the view was built from, and the stat of the file built
_SEAL_KIND = "view-seal"


def seal_view(view: Path, detail: object, built: os.stat_result | None = None) -> None:
    """Record that this machine built ``view`` (its stat, so a file put there by anyone
    else, or changed since, is not believed) with ``detail`` (what it was built from).
    ``built``: the view's stat as its builder found it in its folder's descriptor."""
    st = os.lstat(view) if built is None else built
    stamp = (st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns)
    cache.write(view.with_suffix(_SEAL_SUFFIX), _SEAL_KIND, (stamp, detail))


def view_detail(view: Path) -> object | None:
    """The ``detail`` sealed with ``view`` if the view is still the file this machine
    built (None: missing, unsealed, or changed since)."""
    sealed = cache.read(view.with_suffix(_SEAL_SUFFIX), _SEAL_KIND)
    if not isinstance(sealed, tuple) or len(sealed) != 2:
        return None
    try:
        st = os.lstat(view)
    except OSError:
        return None
    stamp = (st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns)
    return sealed[1] if stat.S_ISREG(st.st_mode) and sealed[0] == stamp else None


def view_ready(view: Path) -> bool:
    """True if ``view`` is a view this machine built and nobody changed. Anything else
    there is never read: the caller builds the view again, and the build's rename
    replaces it (nothing is deleted here, so a view another process has just put in
    place is never pulled from under it). A directory where the view belongs is
    refused with the fix: nothing of ours made it."""
    if view_detail(view) is not None:
        return True
    if view.is_dir() and not view.is_symlink():
        import shlex

        raise StateError(
            f"{view}: a directory where forest-files keeps a cached view; remove it "
            f"(rm -r -- {shlex.quote(str(view))}) and run the command again"
        )
    return False


_BOUND_SUFFIX = ".bound"  # the paths a view's ledger binds, as a cache record
# "-2": the record says too whether the ledger's decoded acts ruled out every contest;
# a record of the older kind (paths alone) is ignored, not taken to say so.
_BOUND_KIND = "bound-paths-2"


def write_bound_paths(view: Path, paths: set[str], *, contest_free: bool = False) -> None:
    """Remember the paths ``view``'s ledger binds; ``contest_free``: its decoded acts
    showed no contest possible (custody/path_scan.py ``forked`` false), so no view
    need be built to deny one."""
    record = (contest_free, tuple(sorted(paths)))
    cache.write(view.with_suffix(_BOUND_SUFFIX), _BOUND_KIND, record)


def bound_paths(view: Path) -> tuple[set[str], bool] | None:
    """(the paths remembered for ``view``, whether its ledger is contest-free), or None."""
    got = cache.read(view.with_suffix(_BOUND_SUFFIX), _BOUND_KIND)
    if not isinstance(got, tuple) or len(got) != 2 or not isinstance(got[0], bool):
        return None
    free, paths = got
    if not isinstance(paths, tuple) or not all(isinstance(p, str) for p in paths):
        return None
    return set(paths), free

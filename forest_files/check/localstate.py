"""Local state git tracks: anything under ``.forest/`` but the ledger and its two dotfiles.

Only the ledger (``.forest/ledger/**``), ``.forest/.gitignore``,
``.forest/.gitattributes`` (and the signing keyring forest.toml names, e.g.
``.forest/allowed_signers``: docs/signing.md) belong in git. Anything else git tracks there (a
committed ``.forest/woods.db``, a cached view, a symlink, ``.forest`` itself as a
symlink) is a claim one machine made for itself: a ``tracked-local-state``
finding, whose route stops tracking it (``git rm --cached -r -- PATH``). Nothing
here ever reads such a path: only git's listing of names and modes is judged.

The listing costs at most one git call per door, and none where the door has
listed the source already: the git index of ``check --staged`` and a commit of
``check --rev`` come from the content source's listing; ``forest ci`` and
``forest verify`` list HEAD's ``.forest`` one level deep (the ledger is one tree
entry there: a handful of entries, whatever the ledger's size); the hook adds
that listing of HEAD to the staged change it has listed already; the working
tree asks ``git ls-files`` once per change of the git index (remembered under
the index's stat, so a warm check asks nothing).

Stores: ``.git/forest/cache/tracked-<python tag>.bin`` (a kernel/cache record):
the working tree's tracked local paths, keyed by the stat of the git index they were listed from.
Refuses: nothing.
Returns: ``Finding`` values of kind ``tracked-local-state``, in path order.
Test: tests/check/test_tracked_local_state.py
"""

from __future__ import annotations

import os
import sys

from forest_files.kernel import cache
from forest_files.kernel.paths import CACHE_DIR, FOREST_DIR, LEDGER_PREFIX
from forest_files.kernel.state import git_dir_paths, worktree_path

TYPE_CHECKING = False  # typing is not imported: a warm check asks remembered_clean
if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path

    from forest_files.check.engine import Finding
    from forest_files.check.findings import Reported
    from forest_files.gitio import Change

KIND = "tracked-local-state"
_LEDGER = LEDGER_PREFIX.rstrip("/")
_PREFIX = f"{FOREST_DIR}/"
_DOTFILES = (f"{FOREST_DIR}/.gitignore", f"{FOREST_DIR}/.gitattributes")
_FORMAT = 1
_NAME = f"tracked-{sys.implementation.cache_tag}.bin"
_KIND = "tracked-local-state"

# (path, kind): kind None for a regular file, else "symlink", "submodule",
# "directory" (a tree of a one-level listing), … (custody/special.py)
Tracked = tuple[str, "str | None"]


def under_forest(path: str) -> bool:
    return path == FOREST_DIR or path.startswith(_PREFIX)


def concerns(paths: tuple[str, ...]) -> bool:
    """A check limited to ``paths`` can hold tracked local state (none: every path)."""
    return not paths or any(p in ("", ".") or under_forest(p.rstrip("/")) for p in paths)


def local(entries: Iterable[Tracked]) -> list[Tracked]:
    """The entries that are tracked local state: under ``.forest`` but neither the
    ledger (its directory, or anything in it: the ledger's verify judges those) nor a
    regular ``.gitignore`` / ``.gitattributes``."""
    out = []
    for path, kind in entries:
        if not under_forest(path) or path.startswith(LEDGER_PREFIX):
            continue
        if (path == _LEDGER and kind == "directory") or (path in _DOTFILES and kind is None):
            continue
        out.append((path, kind))
    return sorted(out, key=lambda e: e[0])


def findings(
    found: Iterable[Tracked],
    paths: tuple[str, ...] = (),
    *,
    root: Path | None = None,
    source: str = "worktree",
    keep_index_file: bool = False,
) -> list[Finding]:
    """One finding per tracked local path (only those under ``paths`` when given).
    With ``root``, the signing keyring forest.toml names at ``source`` is spared
    (docs/signing.md keeps it at ``.forest/allowed_signers``): it is committed on
    purpose, and forest.toml is read only when something was found."""
    found = list(found)
    if not found:
        return []  # the common case: nothing more imported
    from forest_files.check.engine import Finding
    from forest_files.kernel.repopath import under

    listed = [(p, k) for p, k in found if not paths or any(under(p, q) for q in paths)]
    if listed and root is not None:
        keyring = _keyring(root, source, keep_index_file)
        listed = [(p, k) for p, k in listed if not (p == keyring and k is None)]
    out: list[Finding] = []
    for path, kind in listed:
        what = "a file" if kind is None else f"a {kind}"
        detail = f"git tracks {what} only this machine keeps; nothing reads it"
        out.append(Finding(KIND, path, path, "", None, None, detail=detail))
    return out


def _keyring(root: Path, source: str, keep_index_file: bool) -> str | None:
    """The committed signing keyring forest.toml names at ``source`` (None: none, or
    no forest.toml that reads: the door that needs it says why)."""
    from forest_files.custody.sources import config_from
    from forest_files.kernel.errors import ForestError

    try:
        return config_from(root, source, keep_index_file=keep_index_file).signing.allowed_signers
    except ForestError:
        return None


def of_listing(
    entries: Iterable[Tracked], paths: tuple[str, ...] = (), *, root: Path, source: str
) -> list[Finding]:
    """From a listing the door holds already (every entry of a tree or of the index)."""
    keep = source == "index"
    return findings(local(entries), paths, root=root, source=source, keep_index_file=keep)


def _mode_kind(mode: str) -> str | None:
    from forest_files.custody.special import git_mode_kind

    return git_mode_kind(mode)


def in_commit(root: Path, rev: str) -> list[Tracked]:
    """``rev``'s tracked local state: ``.forest`` one level deep (the ledger is one
    tree entry there), and recursively only a subtree that should not be there."""
    from forest_files import gitio
    from forest_files.gitio import refuse_option, split_z

    refuse_option(rev, "revision")
    args = ["ls-tree", "-z", "--full-tree", "--end-of-options", rev, "--", FOREST_DIR, _PREFIX]
    top: list[Tracked] = []
    for record in split_z(gitio.run_git(root, args).stdout):
        meta, _, path = record.partition("\t")
        top.append((path, _mode_kind(meta.split(" ")[0])))
    found = local(top)
    trees = [p for p, kind in found if kind == "directory"]
    if not trees:
        return found
    inside = [(e.path, _mode_kind(e.mode)) for t in trees for e in gitio.ls_tree(root, rev, t)]
    return local([*(f for f in found if f[1] != "directory"), *inside])


def in_index(
    root: Path, head: str | None, changes: Iterable[Change], *, keep_index_file: bool
) -> list[Tracked]:
    """The git index's tracked local state, from HEAD's (``in_commit``) and the staged
    change the caller listed already (``changes``, the index against HEAD): a path
    the change adds or alters is looked up in the index (rare: it is a finding)."""
    from forest_files import gitio

    found = dict(in_commit(root, head)) if head is not None else {}
    for c in changes:
        for gone in (c.old_path, c.path if c.status == "D" else None):
            if gone is not None:
                found.pop(gone, None)
    staged = {
        c.path
        for c in changes
        if c.status != "D" and under_forest(c.path) and not c.path.startswith(LEDGER_PREFIX)
    }
    if staged:
        for e in gitio.ls_files_stage(root, FOREST_DIR, keep_index_file=keep_index_file):
            if e.path in staged and e.stage == 0:
                found[e.path] = _mode_kind(e.mode)
    return local(found.items())


def in_worktree(root: str) -> list[Tracked]:
    """What the git index of the working tree tracks under ``.forest`` (one
    ``git ls-files``), remembered under the index's stat while it is unchanged. git
    replaces its index by renaming a new file into place, so any change is a new
    inode and ctime (and a stat taken again after the listing must still match)."""
    key, record = _key(root)
    found = _recall(record, key)
    if found is not None:
        return found
    found = _ls_files(root)
    if key is not None and key == _key(root)[0]:
        _save(record, (_FORMAT, key, tuple(found)))
    return found


def worktree_clean(root: str) -> bool:
    """The git index tracks no local state: from the record while the index is
    unchanged (kernel/cache: what a warm ``forest check`` may load), else
    listed again (one git call; a ``git add`` or a commit changed the index)."""
    key, record = _key(root)
    found = _recall(record, key)
    return not (in_worktree(root) if found is None else found)


def _key(root: str) -> tuple[tuple[int, int, int, int] | None, str]:
    record = os.path.join(worktree_path(root), CACHE_DIR, _NAME)
    return _stat(os.path.join(git_dir_paths(root)[0], "index")), record


def _recall(record: str, key: tuple[int, int, int, int] | None) -> list[Tracked] | None:
    if key is None:
        return None
    doc = cache.read(record, _KIND)
    if not isinstance(doc, tuple) or len(doc) != 3 or doc[:2] != (_FORMAT, key):
        return None
    return [(str(p), None if k is None else str(k)) for p, k in doc[2]]


def _ls_files(root: str) -> list[Tracked]:
    from forest_files import gitio

    entries = gitio.ls_files_stage(root, FOREST_DIR)
    return local((e.path, _mode_kind(e.mode)) for e in entries if e.stage == 0)


def _stat(path: str) -> tuple[int, int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None  # a worktree's .git file, or no index yet: no record, one git call
    return (st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns)


def _save(record: str, doc: tuple[int, tuple[int, ...], tuple[Tracked, ...]]) -> None:
    cache.write(record, _KIND, doc)  # else: only one more git call next time


def reported_at(root: Path, rev: str) -> list[Reported]:
    """``rev``'s tracked local state with its routes (``forest verify``: HEAD)."""
    from forest_files.check.explain import explain

    found = findings(in_commit(root, rev), root=root, source=rev)
    return list(explain(found, root=root, source="worktree"))

"""Naming cached custody views: a fingerprint of a source's ledger, and the bound
paths file beside each view. Light: standard library and gitio only, so the hook
can answer "does this commit touch anything bound?" without loading the store.

Stores: ``.forest/cache/views/<fingerprint>.bound`` (the bound paths, NUL-separated),
written next to the view it describes; ``<VIEW_FORMAT>-<head key>.alias``, the
fingerprint of a ledger known by its HEAD tree id (a hook whose commit stages no
ledger file finds its view without listing the ledger).
Refuses: nothing.
Returns: fingerprints, view paths, bound path sets (None when not cached).
Test: tests/test_hooks.py
"""

from __future__ import annotations

from pathlib import Path

from forest_files import gitio
from forest_files.gitio._run import refuse_option
from forest_files.kernel.paths import CONFIG_NAME, LEDGER_PREFIX, VIEWS_DIR
from forest_files.kernel.state import ensure_dir, worktree_dir

# The view format: part of every fingerprint and alias name, so views (and aliases
# naming them) of an older format are never found again and are rebuilt.
# v4: a view is extended only from a view whose segments and bodies match by blob.
# v5: ledger format 2 (one act per user act; paths each act touched recorded).
VIEW_FORMAT = "forest-view-v5"


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
    import hashlib

    return hashlib.sha256(VIEW_FORMAT.encode() + b"\0" + b"\0".join(lines)).hexdigest()


def head_custody(root: Path, rev: str = "HEAD") -> tuple[str, str] | None:
    """(``rev``'s commit id, a key of its ledger tree and forest.toml) in one git call.

    None on an unborn branch or when the commit holds no ledger directory or no
    forest.toml (the caller falls back to ``ledger_fingerprint``). Tree and blob
    ids name content, so the key is as exact as the listing's hash.
    """
    refuse_option(rev, "revision")
    proc = gitio.run_git(
        root,
        [
            "rev-parse",
            f"{rev}^{{commit}}",
            f"{rev}:{LEDGER_PREFIX.rstrip('/')}",
            f"{rev}:forest.toml",
        ],
        ok_codes=(0, 128),
    )
    lines = proc.stdout.decode("ascii", "replace").split()
    if proc.returncode != 0 or len(lines) != 3:
        return None
    commit, tree, config = lines
    return commit, f"tree-{tree}-{config}"


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
    return worktree_dir(root) / VIEWS_DIR / f"{VIEW_FORMAT}-{head_key}.alias"


def read_alias(root: Path, head_key: str) -> str | None:
    """The listing fingerprint remembered for a ledger tree key (None if unknown)."""
    try:
        got = alias_path(root, head_key).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return got if len(got) == 64 and all(c in "0123456789abcdef" for c in got) else None


def write_alias(root: Path, head_key: str, fingerprint: str) -> None:
    target = alias_path(root, head_key)
    try:
        ensure_dir(target.parent)
        tmp = target.with_name(target.name + ".tmp")
        tmp.write_text(fingerprint, encoding="ascii")
        tmp.replace(target)
    except OSError:
        pass  # only a slower next hook


def view_path(root: Path, fingerprint: str) -> Path:
    return worktree_dir(root) / VIEWS_DIR / f"{fingerprint}.db"


_BOUND_SUFFIX = ".bound"  # NUL-separated paths (a path may hold a newline; never a NUL)


def write_bound_paths(view: Path, paths: set[str]) -> None:
    target = view.with_suffix(_BOUND_SUFFIX)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_bytes("\0".join(["bound-v1", *sorted(paths)]).encode("utf-8", "surrogateescape"))
    tmp.replace(target)


def bound_paths(view: Path) -> set[str] | None:
    try:
        raw = view.with_suffix(_BOUND_SUFFIX).read_bytes()
    except OSError:
        return None
    head, *paths = raw.decode("utf-8", "surrogateescape").split("\0")
    return set(paths) if head == "bound-v1" else None

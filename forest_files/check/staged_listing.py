"""A full check of the git index from one listing of it (check/path.py ``_index``).

The whole index is listed once, for the content source; forest.toml is taken from
that listing (its bytes the working tree's file where that file is the staged blob,
else one ``git cat-file``), not from a listing of its own. The staged ledger's view
key is HEAD's, through the alias an earlier run wrote (or writes here), when the staged
change stages no ledger file nor forest.toml: that change is asked once (``git
diff-index``) and kept for ``remember_head``, which needs it anyway, so the ledger is
not listed either once HEAD's alias is known.
HEAD is the commit ``viewkey.head_custody`` found, not asked of git again.

Stores: through judged.py, HEAD judged clean; through viewkey.py, HEAD's alias.
Refuses: what custody/source_config.py refuses of forest.toml at the index (missing,
not UTF-8, unmerged, invalid): read there again, with its own words, whenever the
listing holds no one regular, UTF-8 forest.toml.
Returns: ``Listed`` (the content source, forest.toml, the staged change and the view
key; None, None when HEAD is not known: open_custody lists the ledger).
Test: tests/doors/test_doors_cost.py, tests/check/test_staged_check_listed_once.py
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from forest_files.custody.content import GitTreeSource
from forest_files.kernel.paths import CONFIG_NAME, LEDGER_PREFIX

if TYPE_CHECKING:
    from forest_files.custody.source_config import SourceConfig
    from forest_files.gitio import Change

INDEX = "index"


class Listed(NamedTuple):
    content: GitTreeSource
    config: SourceConfig
    changes: list[Change] | None
    fingerprint: str | None


def listed_index(root: Path, head: tuple[str, str] | None, *, keyed: bool) -> Listed:
    """The whole index listed, forest.toml read from it; with ``keyed`` (every
    binding judged, HEAD known), the staged change and the view key (``staged_key``)."""
    content = GitTreeSource(root, None, keep_index_file=True)
    config = config_listed(root, content)
    changes, fingerprint = staged_key(root, head) if keyed else (None, None)
    return Listed(content, config, changes, fingerprint)


def config_listed(root: Path, content: GitTreeSource) -> SourceConfig:
    """forest.toml at the index, from ``content``'s listing of the whole index."""
    from forest_files.custody.config import parse_config_text
    from forest_files.custody.source_config import SourceConfig, source_config
    from forest_files.custody.source_entries import describe

    raw = content.read_unedited([CONFIG_NAME]).get(CONFIG_NAME)
    try:
        text = None if raw is None else raw.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is None:  # none, a symlink, unmerged, not UTF-8: refused as it always was
        return source_config(root, INDEX, keep_index_file=True)
    return SourceConfig(parse_config_text(text, f"{CONFIG_NAME} at {describe(INDEX)}"), text)


def staged_key(root: Path, head: tuple[str, str] | None) -> tuple[list[Change] | None, str | None]:
    """(the staged change, the staged ledger's view key; None, None without ``head``).
    While the change stages no ledger file nor forest.toml the key is HEAD's, read
    from its alias, or listed once and its alias written (opening.py
    ``index_fingerprint``, as the hook keys it)."""
    if head is None:
        return None, None
    from forest_files import gitio
    from forest_files.check.opening import index_fingerprint

    changes = gitio.staged_changes(root, keep_index_file=True, head=head[0])
    touched = {c.path for c in changes} | {c.old_path for c in changes if c.old_path}
    staged = any(p.startswith(LEDGER_PREFIX) or p == CONFIG_NAME for p in touched)
    return changes, index_fingerprint(root, head, staged, keep_index_file=True)


def remember_head(
    root: Path, bound: set[str], head: tuple[str, str] | None, changes: list[Change] | None
) -> None:
    """Every binding of the index is clean: so is HEAD's, when the index differs from
    HEAD in no bound path, no ledger file, forest.toml or ``.gitattributes`` (whose
    rules the check judged are the index's: HEAD's may make git rewrite a bound file on
    checkout, which the staged change's check asks only of a staged one; judged.py).
    ``head``/``changes``: as ``listed_index`` found them (None: asked here)."""
    from forest_files import gitio
    from forest_files.check.checkout_rewrite import is_rules
    from forest_files.check.judged import remember_clean

    commit = head[0] if head is not None else gitio.head_commit(root)
    if commit is None:
        return
    if changes is None:
        changes = gitio.staged_changes(root, keep_index_file=True, head=commit)
    touched = {c.path for c in changes} | {c.old_path for c in changes if c.old_path}
    custody = any(p.startswith(LEDGER_PREFIX) or p == CONFIG_NAME or is_rules(p) for p in touched)
    if not custody and not (touched & bound):
        remember_clean(root, commit)


__all__ = ["Listed", "config_listed", "listed_index", "remember_head", "staged_key"]

"""forest.toml as it stands at one content source: the working tree, the git index or
a commit (at several commits in one git call, for a range).

Stores: nothing.
Refuses: a forest.toml that is not UTF-8 (``ConfigBroken``, with the fix); a missing or
invalid one (``ConfigError``): a missing one names its way back, put back where the
source's ledger stands (custody/lost_config.py), else ``forest init``.
Returns: its text (None where there is none); ``ForestConfig``.
Test: tests/ledger/test_ledger_sources.py, tests/custody/test_lost_config.py
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from forest_files import gitio
from forest_files.custody.config import (
    CONFIG_NAME,
    ConfigBroken,
    ConfigError,
    ForestConfig,
    load_config,
    parse_config_text,
)
from forest_files.custody.source_entries import INDEX, WORKTREE, LedgerSource, describe, git_entries


def config_text_from(
    repo_root: Path | str, source: LedgerSource, *, keep_index_file: bool = False
) -> str | None:
    """forest.toml's text at ``source``, or None where there is none."""
    root = Path(repo_root)
    if source == WORKTREE:
        path = root / CONFIG_NAME
        try:
            return path.read_text(encoding="utf-8") if path.is_file() else None
        except UnicodeDecodeError:
            raise ConfigBroken(f"{path}: not UTF-8; save it as UTF-8") from None
    entries = [
        e
        for e in git_entries(root, source, CONFIG_NAME, keep_index_file=keep_index_file)
        if e.path == CONFIG_NAME and e.type == "blob"
    ]
    if not entries:
        return None
    raw = gitio.cat_blobs(root, [entries[0].blob])[entries[0].blob]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigBroken(
            f"{CONFIG_NAME} at {describe(source)}: not UTF-8; save it as UTF-8 and commit it"
        ) from None


def config_texts_at(repo_root: Path | str, commits: Sequence[str]) -> dict[str, str | None]:
    """forest.toml's text at each of ``commits`` (None where there is none), read in
    one git call: a range judges it at every commit and every parent."""
    raw = gitio.files_at(Path(repo_root), commits, CONFIG_NAME)
    texts: dict[str, str | None] = {}
    for commit, data in raw.items():
        try:
            texts[commit] = None if data is None else data.decode("utf-8")
        except UnicodeDecodeError:
            raise ConfigBroken(
                f"{CONFIG_NAME} at {describe(commit)}: not UTF-8; save it as UTF-8 and commit it"
            ) from None
    return texts


class SourceConfig(NamedTuple):
    """forest.toml at a git source: parsed, and the text it was parsed from (a view's
    key hashes it: viewbuild.py)."""

    config: ForestConfig
    text: str


def config_from(
    repo_root: Path | str, source: LedgerSource, *, keep_index_file: bool = False
) -> ForestConfig:
    """forest.toml as it stands at ``source`` (ConfigError if absent or invalid)."""
    if source == WORKTREE:
        return load_config(Path(repo_root) / CONFIG_NAME)
    return source_config(repo_root, source, keep_index_file=keep_index_file).config


def source_config(
    repo_root: Path | str, source: LedgerSource, *, keep_index_file: bool = False
) -> SourceConfig:
    """forest.toml at the git source ``source``, parsed and as text, read once (one
    ``git ls-files`` or ``ls-tree``, one blob); ConfigError if absent or invalid."""
    text = config_text_from(repo_root, source, keep_index_file=keep_index_file)
    name = f"{CONFIG_NAME} at {describe(source)}"
    if text is None:
        raise ConfigError(f"{name}: missing; {_way_back(Path(repo_root), source, keep_index_file)}")
    return SourceConfig(parse_config_text(text, name), text)


def _way_back(root: Path, source: LedgerSource, keep_index_file: bool) -> str:
    """What to do about a git source without forest.toml: put it back where its
    ledger stands (custody/lost_config.py), else ``forest init``."""
    from forest_files.custody import lost_config

    if source == INDEX:
        if lost_config.index_holds_ledger(root, keep_index_file=keep_index_file):
            route = lost_config.way_back(root, staged=True)
            return f"the ledger is staged without it: put it back with `{route}` and stage it"
    elif lost_config.commit_holds_ledger(root, source):
        route = lost_config.way_back(root, source)
        return f"its ledger is there without it: put it back with `{route}` and commit it"
    from forest_files.kernel.shellword import forest_text

    return f"not a forest-files repository there (`{forest_text('init')}`)"

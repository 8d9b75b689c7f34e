"""forest.toml governed over a range: the CI gate's ``config-governance`` faults.

A commit of merge-base..HEAD that changes forest.toml's ``[authority]``,
``[policy]``, ``[signing]``, ``[gpg]`` or ``[require]`` tables (a requirement
removed would let an unadopted file in), or deletes forest.toml, or changes the
keyring file the merge-base names, is a fault unless its author holds ``**`` at
the merge-base (a holder listed for the glob ``**``; a merge-base without an
authority map governs nothing). A project id that changes once acts exist is
always a fault. Each fault names its commit and the parent to put the file back
from (rewrite.py's routes).

Stores: nothing.
Refuses: nothing itself; a forest.toml of the range that does not parse raises
``ConfigError`` (parse_config_text).
Returns: ``governance_faults``: the faults, and the governed changes an author
holding ``**`` made (commit -> author: under signing they must also be signed,
signing/judge.py ``judge_governance``).
Test: tests/gate/test_ledger_range.py, tests/gate/test_signing.py
"""

from __future__ import annotations

from pathlib import Path

from forest_files import gitio
from forest_files.custody.config import (
    CONFIG_NAME,
    ForestConfig,
    may_act,
    parse_config_text,
)
from forest_files.custody.sources import config_texts_at, segments_at
from forest_files.ledger.verify import Fault

# (commit, parents, author) of each commit of a range, oldest first, in git's commit
# order: one ``git log`` (gitio ``commits_with_authors``).
Listed = list[tuple[str, tuple[str, ...], str]]


def _holds_everything(cfg: ForestConfig, who: str) -> bool:
    """``who`` is listed for the glob ``**`` (or nothing is governed at all)."""
    if not cfg.authority:
        return True
    rule = next((r for r in reversed(cfg.authority) if r.glob == "**"), None)
    if rule is None:
        return False
    return may_act(ForestConfig(project_id="-", authority=(rule,)), "**", who)


def governance_faults(
    root: Path, base: str, head: str, base_cfg: ForestConfig, listed: Listed | None = None
) -> tuple[list[Fault], dict[str, str]]:
    """Faults of governed changes, and the commits that made one an author holding
    ``**`` may make (commit -> author: under signing they must also be signed).
    ``listed``: the range ``base..head`` as the caller listed it already."""
    faults: list[Fault] = []
    governed: dict[str, str] = {}
    commits = gitio.commits_with_authors(root, f"{base}..{head}") if listed is None else listed
    faults += _keyring_faults(root, commits, base_cfg, governed)
    texts = config_texts_at(root, [c for commit, parents, _ in commits for c in (commit, *parents)])
    for commit, parents, author in commits:
        mine = texts[commit]
        for parent in parents:
            theirs = texts[parent]
            if mine == theirs or theirs is None:
                continue
            fault = _config_change(commit, parent, mine, theirs, author, base_cfg, root)
            if fault is not None:
                faults.append(fault)
            elif _governed_change(mine, theirs, parent):
                governed[commit] = author
    return faults, governed


def _governed_change(mine: str | None, theirs: str, parent: str) -> bool:
    """``mine`` changes a governed table of ``theirs`` (already judged well-formed)."""
    if mine is None:
        return True
    before = parse_config_text(theirs, f"{CONFIG_NAME} at {parent[:12]}")
    after = parse_config_text(mine, CONFIG_NAME)
    return _governed_tables(before) != _governed_tables(after)


def _governed_tables(cfg: ForestConfig) -> tuple[object, ...]:
    # [require] too: removing a requirement would let an unadopted file in unseen.
    return (cfg.authority, cfg.max_body_bytes, cfg.signing, cfg.require)


def _keyring_faults(
    root: Path,
    commits: list[tuple[str, tuple[str, ...], str]],
    base_cfg: ForestConfig,
    governed: dict[str, str],
) -> list[Fault]:
    """The keyring the merge-base names is governed like [authority]: changed in a
    commit whose author does not hold '**' at the merge-base, it is a fault."""
    path = base_cfg.signing.allowed_signers
    pairs = [(c, p) for c, parents, _ in commits for p in parents]
    if path is None or not pairs:
        return []
    diffs = iter(gitio.diff_each_parent(root, pairs, path, filters="ADMT"))
    faults: list[Fault] = []
    for commit, parents, author in commits:
        mine = [next(diffs) for _ in parents]  # consume every parent's diff
        changed = any(c.path == path for diff in mine for c in diff)
        if changed and not _holds_everything(base_cfg, author):
            detail = (
                f"commit {commit[:12]} changes the keyring {path}, but its author {author} "
                "does not hold '**' at the merge-base; ask a holder of '**' to make that change"
            )
            # the parent when it holds the keyring: the route puts it back from there
            parent = next(
                (p for p, diff in zip(parents, mine, strict=True) for c in diff
                 if c.path == path and c.status != "A"),
                None,
            )  # fmt: skip
            faults.append(
                Fault("config-governance", None, None, None, detail, path, commit=commit,
                      parent=parent)
            )  # fmt: skip
        elif changed:
            governed[commit] = author
    return faults


def _config_change(
    commit: str,
    parent: str,
    mine: str | None,
    theirs: str,
    author: str,
    base_cfg: ForestConfig,
    root: Path,
) -> Fault | None:
    # located at forest.toml (SARIF and annotations place the finding on that file);
    # the detail still names it, for verify's line, which prints the detail alone
    name = f"{CONFIG_NAME} in commit {commit[:12]}"
    before = parse_config_text(theirs, f"{CONFIG_NAME} at {parent[:12]}")
    if mine is None:
        detail = f"commit {commit[:12]} deletes {CONFIG_NAME} (by {author})"
        return Fault(  # commit and parent: put back with the ledger files it deleted
            "config-governance", None, None, None, detail, CONFIG_NAME, commit=commit, parent=parent
        )
    after = parse_config_text(mine, name)
    # range.py's acts_at (every act that decodes), read here: range.py imports this module
    if after.project_id != before.project_id and segments_at(root, parent, strict=False).acts:
        detail = (
            f"commit {commit[:12]} changes the project id in {CONFIG_NAME}, "
            "which never changes once acts exist"
        )
        return Fault(
            "config-governance", None, None, None, detail, CONFIG_NAME, commit=commit, parent=parent
        )
    governed = _governed_tables(before) != _governed_tables(after)
    if governed and not _holds_everything(base_cfg, author):
        detail = (
            f"commit {commit[:12]} changes {CONFIG_NAME}'s [authority] or [policy] (or "
            f"[signing], [gpg], [require]), but its author {author} does not hold '**' at "
            "the merge-base; ask a holder of '**' to make that change"
        )
        return Fault(
            "config-governance", None, None, None, detail, CONFIG_NAME, commit=commit, parent=parent
        )
    return None

"""Damaged ledger files that git still holds: the one command that brings them back.

A segment edited or truncated in the working tree, or a body file changed, is a
fault ``forest verify`` lists; where HEAD holds the file, its committed bytes are
the ledger's own, and ``git checkout HEAD -- FILES`` restores them. A dangling
dependency names no damaged file (the segment at fault is whole): the files to
bring back are those of the act it depends on, the segment HEAD holds it in and
its bodies; when HEAD lacks that act too, git cannot bring it back from HEAD.

Stores: nothing.
Refuses: nothing; it says.
Returns: ``restore_route`` (the checkout of every damaged file HEAD holds with
other bytes, or None: a file damaged in HEAD too is not restored by it).
Test: tests/custody/test_damaged.py
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from forest_files import gitio
from forest_files.kernel.paths import BODIES, LEDGER_DIR, SEGMENTS
from forest_files.kernel.shellword import command_text, git_step
from forest_files.ledger.verify import Fault


def damaged_files(faults: Iterable[Fault]) -> list[str]:
    """The ledger files at fault that no printed fix removes (not strays)."""
    found: dict[str, None] = {}
    for f in faults:
        if f.fix or f.code == "dangling-dep":
            continue
        if f.path:
            found[f.path] = None
        elif f.segment:
            found[f"{LEDGER_DIR}/{SEGMENTS}/{f.segment}.jsonl"] = None
    return list(found)


def restore_route(root: Path, faults: Iterable[Fault]) -> str | None:
    """``git checkout HEAD -- FILES`` for the damaged files HEAD holds, and the files
    of each missing dependency HEAD holds; None when HEAD holds none of them (never
    committed: git cannot bring them back)."""
    faults = list(faults)
    files = damaged_files(faults)
    if gitio.head_commit(root) is None:
        return None
    files += _dependencies(root, [f.dep for f in faults if f.code == "dangling-dep" and f.dep])
    if not files:
        return None
    listed = gitio.run_git(root, ["ls-tree", "-r", "-z", "--name-only", "HEAD", "--", *files])
    changed = gitio.run_git(
        root, ["diff", "--no-ext-diff", "-z", "--name-only", "HEAD", "--", *files]
    )
    # A file HEAD holds with the same bytes (the damage committed) is not restored
    # by a checkout of HEAD: a route that changes nothing is no route.
    held = set(gitio.split_z(listed.stdout)) & set(gitio.split_z(changed.stdout))
    kept = [p for p in dict.fromkeys(files) if p in held]
    return command_text(git_step("checkout", "HEAD", "--", *kept)) if kept else None


def _dependencies(root: Path, deps: list[str]) -> list[str]:
    """The segment and body files of HEAD's ledger that hold the acts ``deps``."""
    if not deps:
        return []
    from forest_files.custody.sources import segments_at
    from forest_files.ledger.acts import body_hashes

    at_head = segments_at(root, "HEAD", strict=False)
    out: list[str] = []
    for dep in deps:
        act = at_head.acts.get(dep)
        if act is None:
            continue
        out.append(f"{LEDGER_DIR}/{SEGMENTS}/{at_head.origin(dep)}.jsonl")
        out += [f"{LEDGER_DIR}/{BODIES}/{h[:2]}/{h}.txt" for h in sorted(body_hashes(act))]
    return out


__all__ = ["damaged_files", "restore_route"]

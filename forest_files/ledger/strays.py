"""What may live inside ``.forest/ledger``, and every path there that may not.

A ledger holds regular files ``segments/<64 hex>.jsonl`` and
``bodies/<h[:2]>/<h>.txt`` (``h``: 64 hex digits), and the directories they
need: ``segments``, ``bodies`` and ``bodies/<2 hex>`` (any may be empty: a
first write interrupted after its rename, or a body deleted by a recorded
erasure, can leave one; git never commits an empty directory, so it carries
nothing). Anything else is a stray: the temp file of an interrupted write by an
older version, a forged or misplaced file, an unexpected directory, a symlink.

Stores: nothing (read-only).
Refuses: nothing; strays are returned, an unexpected directory once (not each
file in it).
Returns: ``Stray`` values in path order, each with a removal command that works
pasted into a shell at the repository root (``rm --`` for a file, ``rm -r --``
for a directory, or ``git rm`` for a commit's tree; the path shell-quoted, a
literal pathspec to git); ``removal_steps``: on disk, a stray git's index holds
removed from the index too (``git rm -f``; a directory ``git rm -r --cached``,
then ``rm -r``), so its deletion is staged for the next commit; ``strays_gone``: a
stray the index holds that is gone from the disk, removed with ``git rm --cached``.
Test: tests/ledger/test_ledger_strays.py, tests/gate/test_verify_stray_gone_from_disk.py
"""

from __future__ import annotations

import os
import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from forest_files.kernel.paths import LEDGER_PREFIX
from forest_files.kernel.shellword import git_step, shell_word
from forest_files.ledger.segment_files import SEGMENT_SUFFIX
from forest_files.ledger.segments import BODIES_DIR, BODY_SUFFIX, SEGMENTS_DIR

_SEGMENT = re.compile(r"[0-9a-f]{64}" + re.escape(SEGMENT_SUFFIX))
_BODY = re.compile(r"[0-9a-f]{64}" + re.escape(BODY_SUFFIX))
_PREFIX = re.compile(r"[0-9a-f]{2}")
_OLD_TEMP = re.compile(r"\.tmp-.*\.part")


@dataclass(frozen=True)
class Stray:
    """A path under the ledger (``rel``, POSIX) that is no segment or body."""

    rel: str
    is_dir: bool
    why: str
    gone: bool = False  # deleted from the disk, git's index still holding it

    def path(self) -> str:
        """The path relative to the repository root."""
        return LEDGER_PREFIX + self.rel

    def removal_argv(self, tool: str = "rm") -> tuple[str, ...]:
        """The command that removes it, as its words (``tool``: ``rm`` or ``git rm``,
        whose path is a literal pathspec: kernel/shellword.py ``git_step``)."""
        words = (*tool.split(), *(("-r",) if self.is_dir else ()), "--", self.path())
        return git_step(*words[1:]) if words[0] == "git" else words

    def removal(self, tool: str = "rm") -> str:
        """``removal_argv`` as one line a shell runs as printed (a name that is not
        UTF-8 spelled ``$'\\ooo'``: kernel/shellword.py)."""
        return steps_line((self.removal_argv(tool),))

    def removal_steps(
        self, tool: str = "rm", indexed: Collection[str] = ()
    ) -> tuple[tuple[str, ...], ...]:
        """The steps that remove it: ``removal_argv``, but on disk (``tool`` ``rm``) a
        stray git's index holds anything of (``indexed``: paths under the ledger)
        leaves the index too, or the next commit still holds it (an ``rm`` alone left
        the deletion unstaged: ``forest ci`` refused what ``forest verify`` passed).
        ``-f``: git refuses a file edited since it was staged, and a stray is garbage;
        a directory may hold files git does not track beside those it does: the index
        let go of, then the whole directory removed."""
        if self.gone:  # only the index holds it: its deletion staged, nothing on disk
            recursive = ("-r",) if self.is_dir else ()
            return (git_step("rm", *recursive, "-q", "--cached", "--", self.path()),)
        prefix = f"{self.rel}/"
        held = self.rel in indexed or (self.is_dir and any(p.startswith(prefix) for p in indexed))
        if tool != "rm" or not held:
            return (self.removal_argv(tool),)
        if not self.is_dir:
            return (git_step("rm", "-q", "-f", "--", self.path()),)
        return (
            git_step("rm", "-r", "-q", "-f", "--cached", "--", self.path()),
            self.removal_argv(),
        )


def steps_line(steps: Iterable[tuple[str, ...]]) -> str:
    """Steps as one line a shell runs as printed, joined by ``&&``."""
    return " && ".join(" ".join(map(shell_word, step)) for step in steps)


def _dir_ok(parts: tuple[str, ...]) -> bool:
    if len(parts) == 1:
        return parts[0] in (SEGMENTS_DIR, BODIES_DIR)
    return len(parts) == 2 and parts[0] == BODIES_DIR and _PREFIX.fullmatch(parts[1]) is not None


def _file_ok(parts: tuple[str, ...]) -> bool:
    if len(parts) == 2 and parts[0] == SEGMENTS_DIR:
        return _SEGMENT.fullmatch(parts[1]) is not None
    return (
        len(parts) == 3
        and parts[0] == BODIES_DIR
        and _BODY.fullmatch(parts[2]) is not None
        and parts[2][:2] == parts[1]
    )


def _file_why(parts: tuple[str, ...], regular: bool) -> str | None:
    """Why a file at ``parts`` is a stray, or None if it is a segment or body."""
    if not regular:
        return "not a regular file (a symlink or submodule?)"
    if _file_ok(parts):
        return None
    if _OLD_TEMP.fullmatch(parts[-1]):
        return "temp file of an interrupted write (older forest-files wrote them here)"
    return "neither a segment (segments/<sha256>.jsonl) nor a body (bodies/<h[:2]>/<h>.txt)"


def _unexpected_dir(rel: str) -> Stray:
    return Stray(rel, True, "unexpected directory (no ledger file lives there)")


def strays_in_tree(files: Iterable[tuple[str, bool]]) -> list[Stray]:
    """Strays among a git tree's files: (path under the ledger, is a regular file).
    A tree holds no empty directory, so only files and their parents are judged."""
    found: dict[str, Stray] = {}
    for rel, regular in files:
        parts = tuple(rel.split("/"))
        outer = next((n for n in range(1, len(parts)) if not _dir_ok(parts[:n])), None)
        if outer is not None:
            where = "/".join(parts[:outer])
            found.setdefault(where, _unexpected_dir(where))
            continue
        why = _file_why(parts, regular)
        if why is not None:
            found.setdefault(rel, Stray(rel, False, why))
    return [found[k] for k in sorted(found)]


def _scan(directory: str, parts: tuple[str, ...], out: list[Stray]) -> int:
    """Judge every entry of ``directory`` (at ``parts``), descending into the
    directories a ledger has; a prefix directory holding no body is one stray.
    Returns how many entries ``directory`` holds."""
    try:
        entries = sorted(os.scandir(directory), key=lambda e: e.name)
    except (FileNotFoundError, NotADirectoryError):
        return 0
    for entry in entries:
        here = (*parts, entry.name)
        rel = "/".join(here)
        if not entry.is_dir(follow_symlinks=False):
            why = _file_why(here, entry.is_file(follow_symlinks=False))
            if why is not None:
                out.append(Stray(rel, False, why))
        elif not _dir_ok(here):
            out.append(_unexpected_dir(rel))
        elif len(here) == 1:
            _scan(entry.path, here, out)
        else:
            inner: list[Stray] = []
            held = _scan(entry.path, here, inner)
            if held > len(inner) or held == 0:
                out.extend(inner)
            else:
                name = inner[0].rel.rpartition("/")[2]
                out.append(Stray(rel, True, f"holds no body, only strays (such as {name})"))
    return len(entries)


def strays_on_disk(ledger_dir: Path | str) -> list[Stray]:
    """Strays in a ledger directory (none if it does not exist)."""
    out: list[Stray] = []
    _scan(os.fspath(ledger_dir), (), out)
    return sorted(out, key=lambda s: s.rel)


_GONE = "deleted from the disk, but git's index still holds it (its deletion is not staged)"


def strays_gone(
    ledger_dir: Path | str, indexed: Mapping[str, bool], found: Iterable[Stray]
) -> list[Stray]:
    """Strays git's index holds (``indexed``: path under the ledger -> a regular file)
    that are gone from the disk (an ``rm`` without ``git rm``): the next commit still
    holds them, so verify names them too, their removal ``git rm --cached``; none at or
    under a stray already ``found`` on disk (its removal covers the index)."""
    held = {s.rel for s in found}
    out = []
    for stray in strays_in_tree(indexed.items()):
        parts = stray.rel.split("/")
        if any("/".join(parts[:n]) in held for n in range(1, len(parts) + 1)):
            continue
        if not os.path.lexists(os.path.join(ledger_dir, stray.rel)):
            out.append(Stray(stray.rel, stray.is_dir, f"{stray.why}; {_GONE}", gone=True))
    return out

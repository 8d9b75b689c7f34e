"""Renamed files: where a missing file's bound section stands now, by similar text.

Stores: nothing.
Refuses: nothing (a file that cannot be read, parsed or named by the binding's
selector, or that holds merge conflict markers, is no candidate; a ground whose
body is sealed or erased finds none).
Returns: the findings, each ``missing`` one (the file gone, its unchanged text
nowhere: a plain move is ``moved`` already) carrying as ``candidates`` the
selectors its section has in the files that hold similar text, the way git's
rename detection pairs a deleted file with an added one: at least
``SIMILAR`` (git's default 50%) of the lines alike, the most alike first. A
file renamed and edited in one commit keeps its chain with
``forest rebind OLD NEW --words``. Each target is offered to one binding only,
never the place a ``moved`` binding's unchanged text stands at now, and its file
only to bindings of the same file (a file renamed with several bound sections,
one edited: each binding follows it).
Test: tests/check/test_renames.py

Cost: only when a check has such a finding, and only the files git would pair
with a deleted one — added where the check looked (untracked or staged in the
working tree, staged in the index, added by the commit) or by the commit that
deleted the file — of the same suffix, ``MAX_FILES`` of them at most, each
read once (a git source in one batch) and parsed only when enough of the
ground's lines stand in it to reach the similarity; the similarity of two sections
past 100 x 100 lines is that of their patience-aligned lines (text/line_align.py
``line_ratio``), at a cost about their length.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.check.renames import ground_body
from forest_files.kernel.errors import ForestError
from forest_files.text.conflict_markers import has_markers
from forest_files.text.line_align import line_ratio

if TYPE_CHECKING:
    import sqlite3

    from forest_files.check.engine import Finding
    from forest_files.custody.content import ContentSource

SIMILAR = 0.5  # git diff -M's default: 50% similar
MAX_FILES = 2000  # candidate files read for one check at most
Found = tuple[float, str, int]  # (similarity, selector, first line)


def renamed_files(
    findings: Sequence[Finding], conn: sqlite3.Connection | None, *, root: Path, source: str
) -> list[Finding]:
    """``findings`` with each missing file's likely new places as its candidates."""
    asking = [f for f in findings if f.kind == "missing" and not f.candidates]
    if not asking or conn is None:
        return list(findings)
    named = {f.path for f in findings}  # a finding's own file is no one's candidate
    suffixes = {_suffix(f.path) for f in asking}
    added = _added(root, source, sorted({f.path for f in asking}))
    pool = [p for p in added if _suffix(p) in suffixes and p not in named][:MAX_FILES]
    if not pool:
        return list(findings)
    moved_from = _moved_from(findings)
    content = _content(root, source)
    prefetch = getattr(content, "prefetch", None)  # a git source: blobs in one batch
    if prefetch is not None:
        prefetch(pool, known_too=True)
    texts = _Texts(content)
    found: dict[int, list[Found]] = {}
    for f in asking:
        ground = ground_body(conn, f.ground)
        if ground is not None:
            # a file a moved binding's unchanged text stands at now is that binding's
            # route already: another file's binding is never offered it (a binding of
            # the same file is: the file was renamed with both sections in it)
            mine = (p for p in pool if moved_from.get(p, set()) <= {f.path})
            alike = (_alike(f, p, ground, texts) for p in mine)
            found[id(f)] = sorted((a for a in alike if a is not None), reverse=True)
    taken = {f.moved_to for f in findings if f.moved_to}  # those places are held
    out: list[Finding] = []
    for f in findings:
        places = [x for x in found.get(id(f), []) if x[1] not in taken]
        taken.update(x[1] for x in places)
        if not places:
            out.append(f)
            continue
        out.append(
            replace(
                f,
                candidates=tuple(x[1] for x in places),
                candidate_lines=tuple(x[2] for x in places),
            )
        )
    return out


def _moved_from(findings: Sequence[Finding]) -> dict[str, set[str]]:
    """Each file a ``moved`` binding's unchanged text stands at now -> the files those
    bindings were bound in."""
    out: dict[str, set[str]] = {}
    for f in findings:
        if f.moved_to:
            out.setdefault(_path_of(f.moved_to), set()).add(f.path)
    return out


def _added(root: Path, source: str, gone: list[str]) -> list[str]:
    """The files git's rename detection would pair a deleted file with: those added
    where the check looked (untracked or staged in the working tree; staged in the
    index; added by the commit), and those added by the commit that deleted each gone
    file, when one did."""
    from forest_files import gitio
    from forest_files.gitio import split_z

    keep = source == "index"  # the hook's own index (GIT_INDEX_FILE)

    def names(args: list[str]) -> list[str]:
        out = gitio.run_git(root, args, keep_index_file=keep, ok_codes=(0, 128))
        return split_z(out.stdout) if out.returncode == 0 else []

    at = "HEAD" if source in ("worktree", "index") else source
    found: list[str] = []
    if source == "worktree":
        found += names(["ls-files", "-z", "--others", "--exclude-standard"])
    if source in ("worktree", "index"):
        found += names(
            ["diff", "--cached", "--no-renames", "--name-only", "-z", "--diff-filter=A", "HEAD"]
        )
    else:
        found += names(["diff-tree", "-r", "--root", "--name-only", "-z", "--diff-filter=A", at])
    for path in gone:
        deleted = names(
            ["log", "-1", "--no-renames", "--format=%H%x00", "--diff-filter=D", at, "--", path]
        )
        if deleted and deleted[0]:
            found += names(["diff-tree", "-r", "--name-only", "-z", "--diff-filter=A", deleted[0]])
    return sorted(set(found))


def _content(root: Path, source: str) -> ContentSource:
    """Where the check looked (the working tree, the index, a commit)."""
    from forest_files.custody.content import GitTreeSource, WorktreeSource

    if source == "worktree":
        return WorktreeSource(root, use_stat_cache=False)
    return GitTreeSource(root, rev=None if source == "index" else source)


class _Texts:
    """Each candidate file's normalised text, read once (None: not text)."""

    def __init__(self, content: ContentSource) -> None:
        self._content = content
        self._seen: dict[str, str | None] = {}

    def get(self, path: str) -> str | None:
        from forest_files.text.normalise import decode_bytes, normalise_text

        if path not in self._seen:
            data = self._content.read(path)
            try:  # a file in a merge conflict holds no section yet (conflicts.py)
                self._seen[path] = (
                    None
                    if data is None or has_markers(data)
                    else normalise_text(decode_bytes(data, path))
                )
            except ForestError:
                self._seen[path] = None
        return self._seen[path]


def _alike(f: Finding, path: str, ground: str, texts: _Texts) -> Found | None:
    """(similarity, selector, line) of the binding's section in ``path``, when at
    least ``SIMILAR`` of its lines are alike."""
    from forest_files.check.engine import with_path
    from forest_files.text.extract import extract
    from forest_files.text.selector import parse_selector

    text = texts.get(path)
    if text is None or not _may_hold(ground, text):
        return None
    try:
        target = with_path(f.selector, f.path, path)
        section = extract(text, parse_selector(target), ())
    except ForestError:
        return None
    a, b = ground.splitlines(), section.text.splitlines()
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)  # its bounds: O(lines)
    if matcher.real_quick_ratio() < SIMILAR or matcher.quick_ratio() < SIMILAR:
        return None
    ratio = line_ratio(a, b)
    return (ratio, target, section.start_line) if ratio >= SIMILAR else None


def _may_hold(ground: str, text: str) -> bool:
    """A cheap bound, checked before any parse (most files share almost nothing): a
    line ratio of ``SIMILAR`` needs at least ``SIMILAR / 2`` of the ground's lines
    matched (2M / (a + b) >= r gives M >= r * a / 2), so at least that many must
    stand somewhere in ``text``."""
    lines = ground.splitlines()
    present = set(text.splitlines())
    return sum(1 for line in lines if line in present) >= SIMILAR / 2 * len(lines) > 0


def _path_of(selector: str) -> str:
    from forest_files.text.selector import parse_selector
    from forest_files.text.selector_errors import SelectorError

    try:
        return parse_selector(selector).path
    except SelectorError:
        return selector


def _suffix(path: str) -> str:
    name = path.rpartition("/")[2]
    dot = name.rfind(".")
    return name[dot:].lower() if dot > 0 else ""

"""The run's one search of moves: where each section gone from its place stands now.

Stores: nothing.
Refuses: nothing; a gone section found nowhere keeps its finding (saying, when the
search passed by files this user may not read, the first of them and its ``chmod``:
kernel/access.py; it may stand there).
Returns: ``search_moves`` (each gone section's finding: ``moved`` when its unchanged
text stands at exactly one other place, by section hash, with that place's first and
last line when it is a section of a file, not a whole file; an unresolved one whose
unchanged text stands at several places, a copy pasted, lists those places as
``candidates`` under ``COPIES_DETAIL``; one that did not move lists as
``candidates`` the places where its text stands but for its trailing blank lines
(move_near.py; the first given as its ``Reason("blank-ends")``, so the finding
says why its rebind takes words), then the sections standing where it stood, less
the places another gone section's unchanged text moved to; one whose unchanged text
stands only where no selector can name it says where and why, and names no place;
one whose heading a fence
or comment hides lists none, and says what hides it (hidden_heading.py); a whole file
gone, found whole nowhere, is ``moved`` to the one heading section of a file of the
same change whose text hashes to its ground: a page merged into another, ``_Changed``
bounds the files). The index of section hashes is moves.py's, built once for all of
them.
Test: tests/check/test_moves.py, tests/check/test_move_candidates.py,
tests/check/test_copied_section.py, tests/check/test_merged_pages.py,
tests/gate/test_ci_moved_lines.py, tests/check/test_docs_site.py,
tests/doors/test_doors_hidden.py, tests/check/test_moved_unnamed.py,
tests/doors/test_move_search_unreadable.py
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from forest_files.check.finding import COPIES_DETAIL, Finding, Reason, replaced
from forest_files.check.hidden_heading import HiddenJudge
from forest_files.custody.bindings import Binding
from forest_files.custody.content import ContentSource, GitTreeSource, WorktreeSource

MAX_MERGED = 2000  # files of the change outlined for a merged page, at most

if TYPE_CHECKING:
    from forest_files.check.move_names import Candidate
    from forest_files.check.move_rebound import Rebound
    from forest_files.check.moves import MoveIndex
    from forest_files.text.extract import Document


def search_moves(
    source: ContentSource,
    gone: list[tuple[Finding, Binding]],
    candidates: list[str] | None,
    bound: tuple[str, ...],
    documents: dict[str, tuple[str, Document]] | None = None,
    rebound: Rebound | None = None,
    excludes: Mapping[str, tuple[str, ...]] | None = None,
    drifted: Mapping[str, str] | None = None,
    *,
    head: str | None = None,
) -> list[Finding]:
    """Each gone section's finding, ``moved`` when its unchanged text stands at exactly
    one other place; an unresolved one with no such place lists where a renamed
    section may stand. One index of section hashes for all of them (moves.py):
    candidates are ``candidates`` or the files a hook's staged change names, else
    every file of the source (tracked and untracked in the working tree).
    ``documents``: files the check parsed already (``Sections.documents``), not
    parsed again; ``rebound``: where a gone parent's own binding stands now
    (move_rebound.py); ``excludes``: the bound selectors' exclusions (a hidden
    heading's holder that excludes parts is no restore to route: hidden_heading.py);
    ``drifted``: the drifted bound sections' ground body hashes (a hidden heading whose
    holder's restore is refused over the same block is routed with that holder's close,
    hidden_heading.py); ``head``: HEAD's commit when the caller holds it (``""``:
    unborn), the base of the index's change (``_Changed``); None: asked of git."""
    from forest_files.check.moves import MoveIndex

    if candidates is None:
        only = getattr(source, "only", ())
        candidates = list(only) if only else source.paths()
    index = MoveIndex(source, candidates, [b for _, b in gone], bound, documents, rebound)
    changed = _Changed(source, candidates, head)
    out: list[Finding] = []
    renamed: set[int] = set()  # positions of the findings given a renamed section's places
    hidden: HiddenJudge | None = None  # made for the first unresolved one
    for finding, binding in gone:
        copies = index.copies(binding, finding.expected_hash or "")
        if not copies and finding.kind == "missing":  # a whole file only (``merged``)
            copies = index.merged(binding, finding.expected_hash or "", changed)
        target = copies[0].selector if len(copies) == 1 else None
        if len(copies) > 1 and finding.kind == "unresolved":
            out.append(_copied(finding, copies))
            continue
        if target is not None:
            start, end = index.lines(target) or (None, None)  # where it stands now
            out.append(
                replaced(
                    finding,
                    kind="moved",
                    moved_to=target,
                    detail=f"its unchanged text stands at {target}" + _renamed_how(finding),
                    start_line=start,
                    end_line=end,
                )
            )
            continue
        if not copies:  # its text may stand where no selector names it: say so
            finding = _unnamed(index, finding, binding)
        unresolved = finding.kind == "unresolved"
        if unresolved:
            hidden = hidden or HiddenJudge(source, documents, bound, excludes, drifted)
            shut = hidden(finding, binding)
            if shut is not None:  # its heading stands there, a block hides it
                out.append(shut)
                continue
        places, near = _places(index, finding, binding, changed) if unresolved else ((), None)
        if not places:
            out.append(_passed_by(index, finding))
            continue
        why = finding.reason
        if near is not None and why is None:  # its text there but for its blank lines
            why = Reason("blank-ends", near.selector, near.line)
        out.append(
            replaced(
                finding,
                candidates=tuple(p.selector for p in places),
                candidate_lines=tuple(p.line for p in places),
                reason=why,
            )
        )
        renamed.add(len(out) - 1)
    return _unmoved(out, renamed) if renamed else out


def _places(
    index: MoveIndex, finding: Finding, binding: Binding, changed: _Changed
) -> tuple[tuple[Candidate, ...], Candidate | None]:
    """Where an unresolved section may stand now: its text but for its trailing blank
    lines (cut from the end of a page, or pasted at the end of one: move_near.py),
    then the places of a renamed section (in the change's other files too); and the
    first of the former, if any (the finding says why its rebind takes words)."""
    near = index.near(binding, finding.expected_hash or "")
    renamed = index.renamed(binding, changed)
    if not near:
        return renamed, None
    seen = {c.selector for c in near}
    return (*near, *(c for c in renamed if c.selector not in seen)), near[0]


def _unmoved(found: list[Finding], renamed: set[int]) -> list[Finding]:
    """The findings with the candidates of each renamed section (``renamed``: their
    positions) less the places another binding's unchanged section moved to (a
    chapter renamed with its subsection: the sibling its rebind carries there is no
    place for the subsection; a rebind onto it is refused once that one is moved)."""
    taken = {f.moved_to for f in found if f.kind == "moved"}
    if not taken:
        return found
    out = list(found)
    for at in renamed:
        f = out[at]
        kept = [
            (c, n) for c, n in zip(f.candidates, f.candidate_lines, strict=True) if c not in taken
        ]
        if len(kept) < len(f.candidates):
            out[at] = replaced(
                f, candidates=tuple(c for c, _ in kept), candidate_lines=tuple(n for _, n in kept)
            )
    return out


class _Changed:
    """The files of the change a check looks at, where a whole page merged into another
    is searched for as a heading section (``MoveIndex.merged``): a hook's or
    ``--staged`` check's staged files (its candidates already); else the index's
    change against HEAD, in the working tree with the files edited or untracked too,
    or a commit's change against its first parent (one or two git calls, on first use
    only). ``MAX_MERGED`` of them at most, so the outline
    of every file is never read on a large tree."""

    def __init__(self, source: ContentSource, candidates: list[str], head: str | None) -> None:
        self._source, self._candidates, self._head = source, candidates, head
        self._paths: list[str] | None = None

    def __call__(self) -> list[str]:
        if self._paths is None:
            self._paths = sorted(set(self._listed()))[:MAX_MERGED]
        return self._paths

    def _listed(self) -> list[str]:
        from forest_files import gitio

        source = self._source
        if getattr(source, "only", ()):
            return self._candidates
        if isinstance(source, GitTreeSource) and source.rev is not None:
            try:  # the commit's own change (none for a root commit: no parent to diff)
                changes = gitio.diff_names(source.root, f"{source.rev}^", source.rev, filters="AM")
            except gitio.UnknownRef:
                return []
            return [c.path for c in changes if c.status in ("A", "M")]
        keep = isinstance(source, GitTreeSource) and source.keep_index_file
        if not isinstance(source, (GitTreeSource, WorktreeSource)):
            return []
        added = gitio.staged_changes(source.root, keep_index_file=keep, head=self._head)
        staged = [c.path for c in added if c.status in ("A", "M")]
        if isinstance(source, GitTreeSource):  # the index: its change against HEAD
            return staged
        return [*staged, *gitio.to_stage(source.root, self._candidates)]


def _copied(finding: Finding, copies: tuple[Candidate, ...]) -> Finding:
    """An unresolved section whose unchanged text stands at several places (a class
    pasted twice makes its selector match both): those places, with their lines."""
    places = ", ".join(f"{c.selector} (line {c.line})" for c in copies)
    return replaced(
        finding,
        detail=f"{COPIES_DETAIL} {len(copies)} places (copies): {places}",
        reason=Reason("copies"),
        candidates=tuple(c.selector for c in copies),
        candidate_lines=tuple(c.line for c in copies),
    )


def _unnamed(index: MoveIndex, finding: Finding, binding: Binding) -> Finding:
    """``finding`` saying where its unchanged text stands if no selector can name that
    place (a path with a control character; a long path and a long heading path
    together longer than a selector may be), and why: no route rebinds it there."""
    place = index.unnamed(binding, finding.expected_hash or "")
    if place is None:
        return finding
    from forest_files.check.move_names import unnamed_why

    said = (
        f"; its unchanged text stands in {place.path} (line {place.line}), where no selector "
        f"can name it ({unnamed_why(place)}): rename the file or its headings, then check again"
    )
    return replaced(finding, detail=finding.detail + said)


def _passed_by(index: MoveIndex, finding: Finding) -> Finding:
    """``finding`` (found nowhere) saying which files the search passed by, this user
    may not read them (the first named, with kernel/access.py's fix): it may stand
    there."""
    if not index.unread:
        return finding
    from forest_files.kernel.access import access_fix

    path, exc = next(iter(index.unread.items()))
    fix = f"{access_fix(str(exc.filename or path), exc)}, then check again"
    if len(index.unread) == 1:
        said = f"{path} was not searched: this user may not read it ({fix})"
    else:
        said = f"{len(index.unread)} files were not searched: this user may not read them"
        said += f", {path} the first ({fix})"
    return replaced(finding, detail=f"{finding.detail}; {said}")


def _renamed_how(finding: Finding) -> str:
    """The clause of a missing finding that names a case-only or NFC/NFD rename."""
    head, sep, how = finding.detail.partition("; ")
    return f" ({how})" if sep and head == "the bound file is gone" else ""

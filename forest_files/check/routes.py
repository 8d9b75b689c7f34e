"""Routes out of each finding, built from the real state of the repository (its rooms:
the steps in ``route_steps.py``, renames in ``route_names.py``, a file brought back in
``route_back.py``, a section its selector no longer finds and the rebinds to where it
may stand now in ``route_unresolved.py``, a contest's in ``route_contest.py``).

Stores: nothing.
Refuses: nothing.
Returns: the ``Route`` values of a finding: the exact commands (argument
lists; ``Route.command`` quotes every word with ``shlex``) that restore
ground (a drift of a heading section whose edit hides a heading that restore refuses:
the block to close first, route_swallowed.py), adopt the change (a
drift's supersede stages its file with the ledger
at every door: the act adopts the working tree's text; an unbound target with
the default exclusions forest.toml's ``[bind]`` gives it), bring a file back
(a whole-file binding's file the reader refuses too: route_not_text.py, which routes
a file with a NUL byte, bytes not UTF-8 or a lone CR to the byte to fix), move or
end a binding (a renamed and edited section: ``forest rebind OLD NEW --words``, so
the chain is kept; or put back by hand from the adopted text ``forest show GROUND`` prints;
a section moved into a file whose name is not UTF-8: that file renamed
first, ``git mv -- OLD NEW``, as for an unbound one), unseal a sealed ground
(``forest unseal TARGET --words``), or end a contest (of two bindings of one section,
either binding, its note saying whether the file holds that binding's ground); rename
a required file whose name holds a control character (``git mv``, ``mv`` untracked,
each control character ``_`` in the new name, the old one quoted ``$'\\033'``); for a file in a
merge conflict, only its resolution (conflicts.py); for a section whose unchanged text
stands at several places (a copy pasted), removing the copy or binding one of them;
for a symbol in a file that no longer parses as Python, its syntax error (where it
stands); for a staged blob that is git's conversion of its working file (a clean
filter, ``text``/``eol`` set after adoption), only taking the file out of the
conversion (converted.py: a restore, a supersede or a fix of the working file is
converted again as it is staged); ``hints_for``: the places a renamed section may
stand now, with their lines; ``untrack``: stop git tracking local state (``git rm
--cached -r -- PATH``).
The only words left to the user are ``--words`` (the placeholder ``…``, which every
ceremony refuses when pasted as is); ``--as`` is left out, so the default identity
(git ``user.name <email>``) signs.
Test: tests/doors/test_doors.py, tests/check/test_routes_paste.py, tests/check/test_moves.py,
tests/check/test_moved_not_utf8.py, tests/doors/test_printed_where_typed.py,
      tests/check/test_unresolved_python_routes.py, tests/check/test_copied_section.py,
      tests/check/test_renames.py, tests/check/test_contested_bindings.py,
      tests/check/test_route_swallowed.py, tests/check/test_route_steps_once.py

``source`` is where the check looked: ``worktree``, ``index`` (the hook; a
route then also stages what it changed) or a commit id (routes act on the
working tree). While a merge (cherry-pick, revert) waits for its commit, a route
that writes a file back stages it at every door (route_steps.py). A missing file's
route names where git still has it: the index (in a sparse checkout that leaves it
out: ``git sparse-checkout add``), HEAD, or the parent of the commit that deleted it.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.check.conflicts import Stages, conflict_routes
from forest_files.check.converted import conversion_routes
from forest_files.check.findings import Route
from forest_files.check.route_back import bring_back
from forest_files.check.route_contest import contest_routes
from forest_files.check.route_names import (
    THEN_REBIND,
    nameable,
    rename_control,
    rename_first,
    selector_path,
    then_adopt,
)
from forest_files.check.route_not_text import not_text
from forest_files.check.route_not_text import routes as not_text_routes
from forest_files.check.route_steps import (
    Built,
    Step,
    forest,
    ledger_add,
    record_steps,
    recorded,
    stage_steps,
    words_option,
    written_back,
)
from forest_files.check.route_unresolved import rebind_routes, unresolved_routes
from forest_files.kernel.repopath import not_utf8_reason
from forest_files.kernel.shellword import git_step

if TYPE_CHECKING:
    from forest_files.check.engine import Finding


def routes_for(
    f: Finding,
    *,
    root: Path,
    source: str,
    staged: Collection[str] = (),
    stages: Stages | None = None,
    built: Built | None = None,
) -> tuple[Route, ...]:
    """Every route out of ``f`` (none for ``clean``), chosen by its kind and its typed
    reason (finding.py), never by its detail's words. ``staged``: the files whose change
    the index holds (route_steps.py ``staged_of``), each restored file among them
    staged again. ``stages``: the index's stages of the files in conflict, as
    conflicts.py ``in_conflict`` read them for the whole command (None: read for ``f``).
    ``built``: the steps one report's findings share, each built once (route_steps.py
    ``recorded``; the caller's dict for its call; None: built for ``f`` alone)."""
    sel, path = f.selector, f.path
    why = f.reason.kind if f.reason is not None else None
    if why == "conflict" and f.kind != "contested":  # conflicts.py: nothing to act on before
        return conflict_routes(f, root=root, source=source, stages=stages)
    if source == "index" and why == "converted":  # git converts what it stages
        return conversion_routes(f, root=root)
    if f.kind == "drifted":
        restore = _restore(sel, path, written_back(built, source, root, path, staged), source)
        if source in ("worktree", "index"):  # a restore refusing a heading an edit hides
            from forest_files.check.route_swallowed import may_hide, swallowed_route

            restore = (swallowed_route(f, root) if may_hide(f, root, source) else None) or restore
        return (
            restore,
            Route(  # it adopts the working tree's text: the commit carries that copy
                "adopt the change",
                (
                    forest("supersede", sel, options=words_option()),
                    ledger_add(built, path),
                ),
                "replace … with why the new text is right",
            ),
        )
    retire = Route(
        "or end the binding",
        (forest("retire", sel, options=words_option()), *recorded(built, source)),
    )
    if f.kind == "missing":
        return (
            *rebind_routes(f, root, source),  # the moved or renamed file
            bring_back(f, root, source, staged=staged),
            retire,
        )
    if f.kind == "moved" and f.moved_to:
        if not_utf8_reason(f.moved_to) is not None:  # a name no rebind can record
            return (rename_first(selector_path(f.moved_to), root, source, THEN_REBIND), retire)
        return (  # moved_to: the full selector where the unchanged section stands
            Route(
                "move the binding",
                (forest("rebind", sel, f.moved_to), *recorded(built, source)),
            ),
            retire,
        )
    if f.kind == "contested":
        return contest_routes(f, source)
    if f.kind == "unbound":
        if not_utf8_reason(f.path) is not None:
            return (rename_first(f.path, root, source, then_adopt()),)
        if why == "unnameable":  # a backslash, a drive (coverage.py)
            new = nameable(f.path.replace("\\", "_"), f.path)
            if new is None:  # no name to offer: a git mv to itself, or to another bad name
                return (Route("rename it first", note=f"with git mv; then {then_adopt()}"),)
            return (
                Route(
                    "rename it first",
                    (git_step("mv", "--", f.path, new), *stage_steps(source, new)),
                    f"pick another name if you like; then {then_adopt()}",
                ),
            )
        if why == "control-name":  # coverage.py: no selector can name it
            return (rename_control(f.path, root, source),)
        return (
            Route(
                "adopt it",
                (
                    forest("adopt", sel, options=(*_excludes(f), *words_option())),
                    *recorded(built, source),
                ),
                "replace … with why this text is right; forest.toml's [require] asks for it"
                + _peers_said(f),
            ),
        )
    if f.kind == "unresolved":
        refused = not_text(f)  # a NUL byte, not UTF-8, a lone CR: the file to fix
        if refused is not None:
            return (*not_text_routes(f, refused, root, source, staged), retire)
        return (*unresolved_routes(f, root, source, staged), retire)
    if f.kind == "tracked-local-state":
        return (untrack(f.path),)
    if f.kind == "rewritten-on-checkout":
        from forest_files.check.checkout_rewrite import routes as rewrite_routes

        return rewrite_routes(f, root=root, source=source)
    if f.kind == "erased-content" and f.binding:  # its ground's body was erased
        return (_erased_route(sel, path, source), retire)
    return ()


def _restore(sel: str, path: str, back: tuple[Step, ...], source: str) -> Route:
    """``forest restore``, then the ``git add`` the commit needs when the index holds
    the file's change: in the working tree's check it stages the file's other edits
    too (the hook's route says so where it knows them: commit_plan.py)."""
    note = "it stages the whole file, its unstaged edits too" if back and source != "index" else ""
    return Route("restore ground", (forest("restore", sel), *back), note)


def _excludes(f: Finding) -> Step:
    """``--exclude E`` for each of the target's default exclusions ([bind]), and
    ``--normalise NAME@V`` for each of its declared normalisations."""
    return tuple(
        word
        for ex in f.excludes
        for word in (("--normalise", ex[10:]) if ex.startswith("normalise:") else ("--exclude", ex))
    )


def _peers_said(f: Finding) -> str:
    """How the route's exclusions follow the required file's peers (coverage_peers.py):
    theirs when they agree; when they disagree, none of theirs, and each named."""
    if f.reason is None or f.reason.kind != "peer-excludes":
        return ""
    under = f"its peers under [require] {f.reason.advice} were adopted with"
    if not f.reason.what:
        return f"; the exclusions {under}" if f.excludes else f"; as {under} no exclusion"
    return f"; {under} different exclusions ({f.reason.what}): add the --exclude you mean"


def _erased_route(sel: str, path: str, source: str) -> Route:
    """Live ground an erase emptied: the erased text is never needed to end it."""
    return Route(
        "take the erased text out of the file, then adopt what is left",
        (forest("supersede", sel, options=words_option()), *record_steps(source, path)),
        f"first delete the text a forget erased from {path}; replace … with why",
    )


def untrack(path: str) -> Route:
    """Stop git tracking local state (the file stays on disk; nothing reads it)."""
    return Route(
        "stop tracking it",
        (git_step("rm", "--cached", "-r", "--", path),),
        "the file stays on disk; commit the removal",
    )


def hints_for(f: Finding) -> tuple[str, ...]:
    """Facts that help choose a route: where a renamed (or moved and edited) section
    may stand now, likeliest first (renames.py); the binding that holds the section
    it was renamed onto (bound_there.py)."""
    if f.kind == "missing" and f.candidates:
        return (f"renamed, it seems: similar text stands at {', '.join(f.candidates)}",)
    if f.reason is not None and f.reason.kind == "bound-there":
        from forest_files.check.bound_there import hint

        return (hint(f.reason),)
    if f.reason is not None and f.reason.kind == "renamed-onto":
        from forest_files.check.bound_there import renamed_hint

        return (renamed_hint(f.reason),)
    copies = f.reason is not None and f.reason.kind == "copies"
    if f.kind != "unresolved" or not f.candidates or copies:
        return ()  # copies: the detail names each place with its line
    lines = f.candidate_lines or (0,) * len(f.candidates)
    places = ", ".join(f"{sel} (line {n})" for sel, n in zip(f.candidates, lines, strict=False))
    where = f"where it may stand now, likeliest first: {places}"
    if f.reason is not None and f.reason.kind == "blank-ends" and f.reason.what in f.candidates:
        return (where, blank_ends(f.reason.what))
    return (where,)


def blank_ends(place: str) -> str:
    """Why a section whose text stands at ``place`` but for its trailing blank lines is
    no ``moved`` one, and why its rebind takes words (move_near.py)."""
    return (
        f"{place} holds its adopted text but for the blank lines at its end, which are "
        "part of a section's text: its text changed by them, so the rebind records "
        "that change and takes words"
    )

"""Routes out of each finding, built from the real state of the repository (its rooms:
the steps in ``route_steps.py``, renames in ``route_names.py``, a file brought back in
``route_back.py``).

Stores: nothing.
Refuses: nothing.
Returns: the ``Route`` values of a finding: the exact commands (argument
lists; ``Route.command`` quotes every word with ``shlex``) that restore
ground, adopt the change (a drift's supersede stages its file with the ledger
at every door: the act adopts the working tree's text; an unbound target with
the default exclusions forest.toml's ``[bind]`` gives it), bring a file back,
move or end a binding (a renamed and edited section: ``forest rebind OLD NEW --words``, so the chain
is kept; or put back by hand from the adopted text ``forest show GROUND`` prints;
a section moved into a file whose name is not UTF-8: that file renamed
first, ``git mv -- OLD NEW``, as for an unbound one), unseal a sealed ground
(``forest unseal TARGET --words``), or end a contest; rename a required file whose
name holds a control character (``git mv``, ``mv`` untracked, each control character
``_`` in the new name, the old one quoted ``$'\\033'``); for a file in a merge
conflict, only its resolution (conflicts.py); for a section whose unchanged text
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
      tests/check/test_renames.py

``source`` is where the check looked: ``worktree``, ``index`` (the hook; a
route then also stages what it changed) or a commit id (routes act on the
working tree). A missing file's route names where git still has it: the
index (in a sparse checkout that leaves it out: ``git sparse-checkout add``),
HEAD, or the parent of the commit that deleted it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.check.conflicts import CONFLICT_DETAIL, conflict_routes
from forest_files.check.converted import CONVERTED_DETAIL, conversion_routes
from forest_files.check.finding import COPIES_DETAIL, SEALED_DETAIL, SEALED_ERASED_DETAIL
from forest_files.check.findings import Route
from forest_files.check.route_back import bring_back, not_regular_kind
from forest_files.check.route_names import (
    THEN_REBIND,
    nameable,
    rename_control,
    rename_first,
    selector_path,
    then_adopt,
)
from forest_files.check.route_steps import (
    LEDGER,
    Step,
    forest,
    record_steps,
    stage_steps,
    words_option,
)
from forest_files.kernel.repopath import not_utf8_reason
from forest_files.kernel.shellword import command_text, forest_text, git_step

if TYPE_CHECKING:
    from forest_files.check.engine import Finding


def routes_for(f: Finding, *, root: Path, source: str) -> tuple[Route, ...]:
    """Every route out of ``f`` (none for ``clean``)."""
    sel, path = f.selector, f.path
    if f.detail.startswith(CONFLICT_DETAIL):  # conflicts.py: nothing to act on before
        return conflict_routes(f, root=root, source=source)
    if source == "index" and CONVERTED_DETAIL in f.detail:  # git converts what it stages
        return conversion_routes(f, root=root)
    retire = Route(
        "or end the binding", (forest("retire", sel, options=words_option()), *record_steps(source))
    )
    if f.kind == "drifted":
        return (
            Route("restore ground", (forest("restore", sel), *stage_steps(source, path))),
            Route(  # it adopts the working tree's text: the commit carries that copy
                "adopt the change",
                (
                    forest("supersede", sel, options=words_option()),
                    git_step("add", "--", LEDGER, path),
                ),
                "replace … with why the new text is right",
            ),
        )
    if f.kind == "missing":
        return (
            *_rebinds(f, root, source, "keep the chain at the renamed file"),
            bring_back(f, root, source),
            retire,
        )
    if f.kind == "moved" and f.moved_to:
        if not_utf8_reason(f.moved_to) is not None:  # a name no rebind can record
            return (rename_first(selector_path(f.moved_to), root, source, THEN_REBIND), retire)
        return (  # moved_to: the full selector where the unchanged section stands
            Route(
                "move the binding",
                (forest("rebind", sel, f.moved_to), *record_steps(source)),
            ),
            retire,
        )
    if f.kind == "contested":
        return _resolve_routes(f, source)
    if f.kind == "unbound":
        if not_utf8_reason(f.path) is not None:
            return (rename_first(f.path, root, source, then_adopt()),)
        if "no selector can name it" in f.detail:  # a backslash, a drive (coverage.py)
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
        if "control character" in f.detail:  # coverage.py: no selector can name it
            return (rename_control(f.path, root, source),)
        return (
            Route(
                "adopt it",
                (
                    forest("adopt", sel, options=(*_excludes(f), *words_option())),
                    *record_steps(source),
                ),
                "replace … with why this text is right; forest.toml's [require] asks for it",
            ),
        )
    if f.kind == "unresolved":
        return (*_unresolved(f, root, source), retire)
    if f.kind == "tracked-local-state":
        return (untrack(f.path),)
    if f.kind == "erased-content" and f.binding:  # its ground's body was erased
        return (_erased_route(sel, path, source), retire)
    return ()


def _excludes(f: Finding) -> Step:
    """``--exclude E`` for each of the target's default exclusions ([bind]), and
    ``--normalise NAME@V`` for each of its declared normalisations."""
    return tuple(
        word
        for ex in f.excludes
        for word in (("--normalise", ex[10:]) if ex.startswith("normalise:") else ("--exclude", ex))
    )


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


def resolve_routes(
    heads: tuple[str, ...], contest: str | None = None, source: str = "worktree"
) -> tuple[Route, ...]:
    """One route per head of a contest: keep that head's text (``forest resolve``)."""
    at = contest or heads[0]
    return tuple(
        Route(
            f"keep {head[:12]}'s text",
            (
                forest("resolve", at, options=("--pick", head, *words_option())),
                *record_steps(source),
            ),
        )
        for head in heads
    )


def merged_text_route(f: Finding, source: str) -> Route:
    """A contest whose section holds neither head's text (git merged both branches'
    edits): end the contest on one head, then adopt the text the file holds now, as
    a drift is adopted (two recorded acts; the chain keeps both)."""
    at = f.candidates[0]
    return Route(
        "or keep the text the file holds now (both edits merged)",
        (
            forest("resolve", at, options=("--pick", at, *words_option())),
            forest("supersede", f.selector, options=words_option()),
            git_step("add", "--", LEDGER, f.path),
        ),
        "replace each … with why: the resolve ends the contest, the supersede adopts "
        "the merged text",
    )


def no_single_ground(
    selector: str, state: str, heads: tuple[str, ...], then: tuple[str, ...], *, undone: str
) -> str:
    """Why a command on ``selector`` did nothing (``undone``): its binding has no single
    ground. For a contest, the routes ``forest check`` prints out of it (one ``forest
    resolve`` per head of ``heads``), then the command ``then`` again; otherwise where
    to see why (a sealed ground, a retired binding)."""
    from forest_files.custody.record_ground import SEALED_ERASED, no_ground

    if state in ("sealed", SEALED_ERASED):
        return no_ground(selector, state, f"; {undone}")
    lead = f"{selector} has no single ground ({state}); {undone}"
    if state != "contested" or not heads:
        return f"{lead}: `forest status` shows why"
    routes = " or ".join(f"`{r.command}`" for r in resolve_routes(heads))
    return (
        f"{lead}: keep one head's text first: {routes} (replace … with why that text "
        f"is right), then `{command_text(then)}`"
    )


def _resolve_routes(f: Finding, source: str) -> tuple[Route, ...]:
    heads = f.candidates
    if f.binding and (f.binding in heads or len(heads) < 2):  # two bindings of one section
        return (
            Route(
                "end this binding (keep the other)",
                (
                    forest("retire", f.selector, options=("--binding", f.binding, *words_option())),
                    *record_steps(source),
                ),
            ),
        )
    return resolve_routes(heads, f.ground, source)


def _unresolved(f: Finding, root: Path, source: str) -> tuple[Route, ...]:
    if f.detail.startswith(SEALED_DETAIL):  # forest seal withheld it: unseal, or retire
        unseal = forest("unseal", f.selector, options=words_option())
        if f.detail.startswith(SEALED_ERASED_DETAIL):  # nothing to read again: new text
            adopt = forest("supersede", f.selector, options=words_option())
            return (
                Route(
                    "take the erased text out of the file, then adopt what is left",
                    (unseal, adopt, *record_steps(source, f.path)),
                    f"first delete the text the forget erased from {f.path}; the unseal "
                    "reads nothing again, it lets the supersede replace the erased ground; "
                    "replace each … with why",
                ),
            )
        return (Route("make its ground readable again", (unseal, *record_steps(source))),)
    kind = not_regular_kind(f.detail)
    if kind is not None:
        if kind in ("directory", "submodule"):
            return (
                Route(
                    "put the file back",
                    note=f"move the {kind} at {f.path} away, then bring the file back "
                    f"({command_text(git_step('checkout', 'HEAD', '--', f.path))}, or "
                    f"{command_text(forest('restore', f.selector))} for a whole-file binding)",
                ),
            )
        back = bring_back(f, root, source, removed=True)  # the rm goes first
        return (Route("put the file back", (("rm", "--", f.path), *back.steps), back.note),)
    if f.detail.startswith(COPIES_DETAIL):  # move_search.py: unchanged, at several places
        return _copies(f, source)
    what = _named_part(f.selector)
    if what == "symbol" and _NOT_PYTHON in f.detail:  # pysymbol.py: nothing to look in
        where = f.detail.split(_NOT_PYTHON, 1)[1].split("); fix", 1)[0]
        return (Route("fix the file", note=f"fix its syntax error at {where}"),)
    back = _put_back(f, what)
    if not f.candidates:
        return (
            back,
            Route(
                "or move the binding",
                note="forest rebind with this selector and the one the section has now "
                f"(no {what} stands where it stood)",
            ),
        )
    return (*_rebinds(f, root, source, "keep the chain at the renamed section"), back)


def _put_back(f: Finding, what: str) -> Route:
    """The section the selector names is gone (a heading renamed): write it back by
    hand, from the adopted text ``forest show`` prints (its ground's id)."""
    note = f"restore the {what} the selector names"
    if not f.ground:
        return Route("put the section back", note=note)
    shown = forest("show", f.ground)
    return Route("put the section back", (shown,), f"{note}, from the adopted text this prints")


def _copies(f: Finding, source: str) -> tuple[Route, ...]:
    """The section's unchanged text stands at several places (pasted twice): delete
    the copy, and the selector names one section again; or bind one of them (no new
    text: no words), the others left unbound."""
    delete = Route(
        "remove the copy",
        note=f"delete all but one of the {len(f.candidates)} places above; "
        f"then `{forest_text('check')}` finds the one left",
    )
    binds = tuple(
        Route(
            "or bind one of them" if n == 0 else "or",
            (forest("rebind", f.selector, new), *record_steps(source)),
            "the text is unchanged: no words needed" if n == 0 else "",
        )
        for n, new in enumerate(f.candidates[:REBIND_ROUTES])
        if not_utf8_reason(new) is None
    )
    return (delete, *binds)


_NOT_PYTHON = "not valid Python ("  # text/pysymbol.py's refusal, in a finding's detail


def _named_part(selector: str) -> str:
    """What the selector names inside its file, as a route speaks of it."""
    from forest_files.text.selector import SelectorError, parse_selector

    try:
        kind = parse_selector(selector).kind
    except SelectorError:
        return "heading, symbol or markers"
    return {"symbol": "symbol", "region": "markers"}.get(kind, "heading")


# Rebind routes written out per finding, likeliest first: the hint lists every
# candidate (``MAX_CANDIDATES``), the routes only the few worth pasting.
REBIND_ROUTES = 3


def _rebinds(f: Finding, root: Path, source: str, first: str) -> tuple[Route, ...]:
    """Renamed (and edited: unchanged text would be ``moved``): one whole rebind
    route for each of the ``REBIND_ROUTES`` likeliest candidates (renames.py,
    filerenames.py), then a note for the others, which the hint lists; a candidate
    in a file whose name is not UTF-8 gets that file's rename instead (no rebind
    can record the name)."""
    shown = f.candidates[:REBIND_ROUTES]
    routes = tuple(
        rename_first(selector_path(new), root, source, THEN_REBIND)
        if not_utf8_reason(new) is not None
        else Route(
            first if n == 0 else "or at",
            (forest("rebind", f.selector, new, options=words_option()), *record_steps(source)),
            "replace … with why the new text is right" if n == 0 else "",
        )
        for n, new in enumerate(shown)
    )
    others = len(f.candidates) - len(shown)
    if others <= 0:
        return routes
    places = "place" if others == 1 else f"{others} places"
    note = f"the same rebind with the selector of the other {places} listed above"
    return (*routes, Route("or at", note=note))


def hints_for(f: Finding) -> tuple[str, ...]:
    """Facts that help choose a route: where a renamed (or moved and edited) section
    may stand now, likeliest first (renames.py)."""
    if f.kind == "missing" and f.candidates:
        return (f"renamed, it seems: similar text stands at {', '.join(f.candidates)}",)
    if f.kind != "unresolved" or not f.candidates or f.detail.startswith(COPIES_DETAIL):
        return ()  # copies: the detail names each place with its line
    lines = f.candidate_lines or (0,) * len(f.candidates)
    places = ", ".join(f"{sel} (line {n})" for sel, n in zip(f.candidates, lines, strict=False))
    return (f"where it may stand now, likeliest first: {places}",)

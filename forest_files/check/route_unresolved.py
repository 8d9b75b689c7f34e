"""Routes out of a section the selector no longer finds where it stood
(``unresolved``), and the rebinds to where a renamed section or file may stand now
(``missing`` too): made readable again (a sealed ground), the file put back (a
directory or submodule in its place), the copy removed (its text pasted at several
places), its syntax fixed (a symbol's file no longer Python), what replaces a bound
Python definition later in its block taken out (pysymbol.py), the section written back
by hand from the adopted text, or the binding moved to a candidate (likeliest first;
"moved" when the candidate keeps the section's or file's name, "renamed" when not);
renamed onto a section another binding holds (bound_there.py), that binding ended if
it is to go, then this one moved there; its heading hidden by a fence or comment
(hidden_heading.py), the section holding the block restored with it (what ``forest
restore`` of it alone names: custody/restore_hidden.py), or the block closed (a fence
opened inside the paragraph a block id ends, ``hidden-split``: its line taken out).

Each is chosen by the finding's typed ``Reason`` (finding.py), never by its detail's
words.

Stores: nothing. Refuses: nothing. Returns: ``Route`` values.
Test: tests/check/test_renames.py, tests/check/test_copied_section.py,
      tests/check/test_unresolved_python_routes.py, tests/check/test_moved_not_utf8.py,
      tests/check/test_route_reasons.py, tests/check/test_bound_there.py,
      tests/check/test_rebind_labels.py, tests/doors/test_doors_hidden.py,
      tests/doors/test_doors_hidden_split.py
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.check.findings import Route
from forest_files.check.route_back import bring_back
from forest_files.check.route_names import THEN_REBIND, rename_first, selector_path
from forest_files.check.route_steps import (
    forest,
    record_steps,
    words_option,
    written_back_steps,
)
from forest_files.kernel.repopath import not_utf8_reason
from forest_files.kernel.shellword import command_text, forest_text, git_step

if TYPE_CHECKING:
    from forest_files.check.engine import Finding
    from forest_files.check.finding import Reason


def unresolved_routes(
    f: Finding, root: Path, source: str, staged: Collection[str] = ()
) -> tuple[Route, ...]:
    why = f.reason.kind if f.reason is not None else None
    if f.reason is not None and why in ("hidden", "hidden-split"):  # hidden_heading.py
        return _hidden(f, f.reason, root, source, staged)
    if why in ("sealed", "sealed-erased"):  # forest seal withheld it: unseal, or retire
        unseal = forest("unseal", f.selector, options=words_option())
        if why == "sealed-erased":  # nothing to read again: new text
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
    if f.reason is not None and f.reason.kind == "not-regular":
        kind = f.reason.what
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
    if why == "copies":  # move_search.py: unchanged, at several places
        return _copies(f, source)
    what = _named_part(f.selector)
    if f.reason is not None and why == "not-python":  # pysymbol.py: nothing to look in
        return (Route("fix the file", note=f"fix its syntax error at {f.reason.what}"),)
    if f.reason is not None and why == "replaced":  # pysymbol.py: the name bound anew
        later = _remove_later(f, f.reason)
        return (later, *rebind_routes(f, root, source, "or bind what runs now"))
    back = _put_back(f, what)
    if f.reason is not None and why == "bound-there":  # bound_there.py
        return (_free_then_rebind(f, f.reason, source), back)
    if not f.candidates:
        return (
            back,
            Route(
                "or move the binding",
                note="forest rebind with this selector and the one the section has now "
                f"(no {what} stands where it stood)",
            ),
        )
    return (*rebind_routes(f, root, source), back)


def _hidden(
    f: Finding, hidden: Reason, root: Path, source: str, staged: Collection[str]
) -> tuple[Route, ...]:
    """Out of a heading a fence or comment hides: the section holding the block
    restored with it (its ground closes the block, the heading stands after it again;
    the edit goes to the capture), when one does; the block closed before the heading,
    or taken out."""
    close = hidden.advice  # restore_hidden.py ``Hidden.close``: closed, or taken out
    label = "take the block out" if hidden.kind == "hidden-split" else "close the block"
    if not hidden.what:
        return (Route(label, note=close),)
    both = forest("restore", hidden.what, f.selector)
    return (
        Route(
            "restore it with the section holding the block",
            (both, *written_back_steps(source, root, f.path, staged=staged)),
            f"{hidden.what}'s edit is kept in the capture; its ground ends the block "
            "before the heading",
        ),
        Route(f"or {label}", note=close),
    )


def _free_then_rebind(f: Finding, there: Reason, source: str) -> Route:
    """The section stands under the name of one another binding holds (bound_there.py):
    that binding ended, if it is to go, then this one moved there (two acts, each
    with its own words); pasted in order, the check is clean."""
    return Route(
        "if the binding of the section there is to go: end it, then move this one there",
        (
            forest("retire", there.what, options=("--binding", there.binding, *words_option())),
            forest("rebind", f.selector, there.what, options=words_option()),
            *record_steps(source),
        ),
        "replace each … with why: the retire ends the other binding, the rebind keeps "
        "this chain at the renamed section",
    )


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


def _remove_later(f: Finding, replaced: Reason) -> Route:
    """The bound definition stands unchanged, but a later statement of its block binds
    its name anew (pysymbol.py): take that statement out, and the name holds it again."""
    what = replaced.what or "statement"
    return Route(
        "remove what replaces it",
        note=f"delete {what} at line {replaced.line} of {f.path} (the name holds the bound "
        f"definition again); then `{forest_text('check', f.path)}`",
    )


def _named_part(selector: str) -> str:
    """What the selector names inside its file, as a route speaks of it."""
    from forest_files.text.selector import parse_selector
    from forest_files.text.selector_errors import SelectorError

    try:
        kind = parse_selector(selector).kind
    except SelectorError:
        return "heading, symbol or markers"
    return {"symbol": "symbol", "region": "markers"}.get(kind, "heading")


# Rebind routes written out per finding, likeliest first: the hint lists every
# candidate (``MAX_CANDIDATES``), the routes only the few worth pasting.
REBIND_ROUTES = 3


def rebind_routes(
    f: Finding, root: Path, source: str, first: str | None = None
) -> tuple[Route, ...]:
    """Renamed or moved (and edited: unchanged text would be ``moved``): one whole
    rebind route for each of the ``REBIND_ROUTES`` likeliest candidates (renames.py,
    filerenames.py), then a note for the others, which the hint lists; a candidate
    in a file whose name is not UTF-8 gets that file's rename instead (no rebind
    can record the name). ``first``: the first route's label (None: keep the chain
    at the moved or renamed section or file, ``_changed``)."""
    shown = f.candidates[:REBIND_ROUTES]
    routes = tuple(
        rename_first(selector_path(new), root, source, THEN_REBIND)
        if not_utf8_reason(new) is not None
        else Route(
            (first or _changed(f, new)) if n == 0 else "or at",
            (forest("rebind", f.selector, new, options=words_option()), *record_steps(source)),
            _why_words(f, new) if n == 0 else "",
        )
        for n, new in enumerate(shown)
    )
    others = len(f.candidates) - len(shown)
    if others <= 0:
        return routes
    places = "place" if others == 1 else f"{others} places"
    note = f"the same rebind with the selector of the other {places} listed above"
    return (*routes, Route("or at", note=note))


def _why_words(f: Finding, new: str) -> str:
    """The first rebind's note: its words, and why it takes them when ``new`` holds the
    section's text but for the blank lines at its end (move_near.py)."""
    if f.reason is not None and f.reason.kind == "blank-ends" and f.reason.what == new:
        return (
            "its text there differs only by the blank lines at its end: replace … with "
            "why (the section moved, say)"
        )
    return "replace … with why the new text is right"


def _changed(f: Finding, new: str) -> str:
    """The first rebind route's label: the file (a ``missing`` binding's) or the
    section ``moved`` when it keeps its name (the file's base name; the section's own
    heading, symbol or id, an ``[n]`` aside) and only its place changed (another
    folder, another parent, another file), else ``renamed``."""
    if f.kind == "missing":
        old, now = f.path.rpartition("/")[2], selector_path(new).rpartition("/")[2]
        return f"keep the chain at the {'moved' if old == now else 'renamed'} file"
    name = _own_name(f.selector)
    same = name is not None and name == _own_name(new)
    return f"keep the chain at the {'moved' if same else 'renamed'} section"


def _own_name(selector: str) -> str | None:
    """The name a selector gives its section (its last part), None for none."""
    from forest_files.text.selector import parse_selector
    from forest_files.text.selector_errors import SelectorError

    try:
        parts = parse_selector(selector).parts
    except SelectorError:
        return None
    return parts[-1] if parts else None

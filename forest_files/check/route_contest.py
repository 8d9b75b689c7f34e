"""Routes out of a contest (routes.py's room for them): two heads of one ground, each
kept by a ``forest resolve --pick``; two bindings of one section, one ended by ``forest
retire --binding``; a section holding neither head's text, the resolve then the
supersede that adopts it; a binding two merged branches rebound, one more ``forest
rebind`` from where it stands (to there, or to each other place it was rebound to); and
why a command on a binding with no single ground did nothing, with those same routes.

Stores: nothing.
Refuses: nothing.
Returns: ``Route`` values and one-line reasons.
Test: tests/check/test_contested_bindings.py, tests/doors/test_cli_files.py,
tests/check/test_rebound_twice_doors.py, tests/check/test_rebound_thrice.py,
tests/doors/test_mcp_two_bindings.py, tests/check/test_rebound_twice_words.py
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from forest_files.check.findings import Route
from forest_files.check.route_steps import LEDGER, forest, record_steps, words_option
from forest_files.kernel.shellword import command_text, git_step

if TYPE_CHECKING:
    from forest_files.check.engine import Finding


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
    edits, or anyone wrote a third text): end the contest on one head, then adopt the
    text the file holds now, as a drift is adopted (two recorded acts; the chain keeps
    both). The label says only what the text is not: nothing here knows it is a merge."""
    at = f.candidates[0]
    return Route(
        "or keep the text the file holds now (neither head's: read it before you adopt it)",
        (
            forest("resolve", at, options=("--pick", at, *words_option())),
            forest("supersede", f.selector, options=words_option()),
            git_step("add", "--", LEDGER, f.path),
        ),
        "replace each … with why: the resolve ends the contest, the supersede adopts "
        "the text the file holds",
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


def contest_routes(f: Finding, source: str) -> tuple[Route, ...]:
    """A contested finding's routes: of two bindings of one section, ending this one
    (saying whether the file holds its ground); of a ground's heads, one ``forest
    resolve`` per head."""
    if f.reason is not None and f.reason.kind == "rebound-twice":
        return rebound_routes(f, source)
    heads = f.candidates
    if f.binding and (f.binding in heads or len(heads) < 2):  # two bindings of one section
        return (retire_route(f.selector, f.binding, source, _holds(f)),)
    return resolve_routes(heads, f.ground, source)


def retire_route(selector: str, binding: str, source: str = "worktree", note: str = "") -> Route:
    """One of two bindings of ``selector`` ended by ``forest retire --binding``: the
    route ``forest check`` prints on each, and the MCP tools name when they refuse
    such a section (doors/mcp/contested.py)."""
    return Route(
        "end this binding (keep the other)",
        (
            forest("retire", selector, options=("--binding", binding, *words_option())),
            *record_steps(source),
        ),
        note,
    )


def rebound_routes(f: Finding, source: str, unlike: Collection[str] = ()) -> tuple[Route, ...]:
    """A binding merged branches rebound (contests.py): one more rebind from where it
    stands, depending on every rebind, settles it in every clone: kept there, or moved
    to each other place it was rebound to (``places``, or ``reason.what`` alone). A
    rebind to a place of ``unlike`` (its text is not the ground's: rebound_texts.py)
    adopts that text too, so it takes ``--words``, as ``forest rebind`` asks there."""
    at = f.selector
    others = f.places[1:] or ((f.reason.what,) if f.reason is not None else ())

    def rebind(to: str) -> tuple[str, ...]:
        return forest("rebind", at, to, options=words_option() if to in unlike else ())

    keep = Route(
        f"keep it at {at}",
        (rebind(at), *record_steps(source)),
        "one more rebind, after every branch's, settles the place in every clone"
        + (_ADOPTS if at in unlike else ""),
    )
    moves = (
        Route(
            f"or move it to {other}",
            (rebind(other), *record_steps(source)),
            _ADOPTS.removeprefix("; ") if other in unlike else "",
        )
        for other in dict.fromkeys(others)
        if other and other != at
    )
    return (keep, *moves)


_ADOPTS = "; the text there is not its ground: replace … with why that text is right"


def _holds(f: Finding) -> str:
    """What the file holds now of one of two bindings of a section (binding_check.py
    measured it where it stands), so the binding the file still honours is not the
    one ended; nothing when the section was not found."""
    if f.actual_hash is None:
        return ""
    if f.actual_hash == f.expected_hash:
        return "the file holds this binding's ground now: to keep that text, end the other"
    return "the file no longer holds this binding's ground: it holds other text there now"

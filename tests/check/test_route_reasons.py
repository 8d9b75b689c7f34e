"""An unresolved finding's routes are chosen by its typed reason (finding.py ``Reason``),
not by the words of its detail: the same reason in other words gets the same routes,
and a detail worded like a reason's but carrying none gets none of that reason's
routes. (route_unresolved.py and route_not_text.py parsed the detail: a rewording of a
refusal turned its route into "put the section back".) The readers give the reason:
a sealed ground, a path no regular file, copies, a file no text, a symbol's file not
Python, a definition bound anew later in its block. The same for a file in a merge
conflict, a staged blob git's conversion made, and an unbound name no selector can name
or holding a control character (routes.py read those details' words)."""

from __future__ import annotations

from pathlib import Path

import pytest

from forest_files.check.finding import Finding, Reason
from forest_files.check.findings import Route
from forest_files.check.routes import hints_for, routes_for
from tests.helpers.cli import findings, ok
from tests.helpers.git import commit_all, make_repo, write

GROUND = "a" * 64
OTHER_WORDS = "said in other words this release"


def _finding(selector: str, detail: str, reason: Reason | None, **more: object) -> Finding:
    path = selector.split("#", 1)[0].split("::", 1)[0]
    return Finding(
        "unresolved",
        path,
        selector,
        "b" * 64,
        GROUND,
        "c" * 64,
        detail=detail,
        reason=reason,
        **more,  # type: ignore[arg-type]
    )


def _said(routes: tuple[Route, ...]) -> str:
    return " | ".join(f"{r.label}: {r.command} {r.note}" for r in routes)


# (selector, reason, a route's words that reason brings, the detail once worded so)
CASES = {
    "sealed": ("doc.md#Canon", Reason("sealed"), "forest unseal", "its ground is sealed"),
    "sealed-erased": (
        "doc.md#Canon",
        Reason("sealed-erased"),
        "take the erased text out of the file",
        "its ground is sealed and its text was erased by forest forget (1234); unseal",
    ),
    "not-regular": (
        "doc.md",
        Reason("not-regular", "directory"),
        "move the directory at doc.md away",
        "not a regular file (directory)",
    ),
    "copies": (
        "doc.md#Canon",
        Reason("copies"),
        "remove the copy",
        "its unchanged text stands at 2 places (copies): doc.md#Canon[1] (line 1)",
    ),
    "not-text": (
        "doc.md",
        Reason("not-text", "invalid UTF-8", 3, 40),
        "bytes that are not UTF-8 at byte offset 40 (line 3)",
        "doc.md: invalid UTF-8 at byte offset 40 (line 3); a bound file must stay UTF-8",
    ),
    "not-python": (
        "mod.py::f",
        Reason("not-python", "line 2: invalid syntax"),
        "fix its syntax error at line 2: invalid syntax",
        "mod.py: not valid Python (line 2: invalid syntax); fix the syntax error",
    ),
    "replaced": (
        "mod.py::f",
        Reason("replaced", "a later def of the same name", 9),
        "delete a later def of the same name at line 9 of mod.py",
        "mod.py::f: the definition at line 1 is replaced at line 9 by a later def of the "
        "same name in the same block",
    ),
}
COPIES = ("doc.md#Canon[1]", "doc.md#Canon[2]")


@pytest.mark.parametrize("name", sorted(CASES))
def test_route_chosen_by_reason_whatever_the_detail_says_accepted(
    tmp_path: Path, name: str
) -> None:
    selector, reason, words, _ = CASES[name]
    more = {"candidates": COPIES, "candidate_lines": (1, 5)} if name == "copies" else {}
    f = _finding(selector, OTHER_WORDS, reason, **more)
    said = _said(routes_for(f, root=make_repo(tmp_path), source="worktree"))
    assert words in said, said


@pytest.mark.parametrize("name", sorted(CASES))
def test_detail_worded_like_a_reason_without_one_not_routed_so_refused(
    tmp_path: Path, name: str
) -> None:
    selector, _, words, detail = CASES[name]
    more = {"candidates": COPIES, "candidate_lines": (1, 5)} if name == "copies" else {}
    f = _finding(selector, detail, None, **more)
    said = _said(routes_for(f, root=make_repo(tmp_path), source="worktree"))
    assert words not in said, said
    assert "forest retire" in said  # a way out all the same


def test_copies_hint_left_to_the_detail_by_reason_accepted() -> None:
    """The copies' places are named in their detail: no hint repeats them (by the
    reason); a renamed section's candidates are hinted whatever the detail says."""
    copies = _finding("doc.md#Canon", OTHER_WORDS, Reason("copies"), candidates=COPIES)
    assert hints_for(copies) == ()
    renamed = _finding("doc.md#Canon", "its unchanged text stands at", None, candidates=COPIES)
    assert hints_for(renamed) != ()


PROP = (
    "class C:\n    @property\n    def x(self):\n        return 1\n\n"
    "    @x.setter\n    def x(self, v):\n        pass\n"
)


@pytest.mark.parametrize(
    ("text", "kind", "note"),
    [
        (
            PROP.replace("    @x.setter\n", ""),
            "replaced",
            "delete a later def of the same name at line 6 of c.py",
        ),
        (PROP + "\ndef g(:\n", "not-python", "fix its syntax error at line 10: invalid syntax"),
    ],
)
def test_symbol_reader_gives_the_reason_detected(
    tmp_path: Path, text: str, kind: str, note: str
) -> None:
    """The reader's refusal carries its reason to the check: a definition bound anew
    later in its block (where, by what), a file that is no longer Python (where)."""
    root = make_repo(tmp_path)
    ok(root, "init")
    write(root, "c.py", PROP)
    ok(root, "adopt", "c.py::C.x[1]", "--words", "the getter")
    commit_all(root, "adopt")
    write(root, "c.py", text)
    (found,) = findings(root)
    assert found["kind"] == "unresolved", found
    label = {"replaced": "remove what replaces it", "not-python": "fix the file"}[kind]
    assert found["routes"][0]["label"] == label, found
    assert note in found["routes"][0]["note"], found


# The reasons routes.py chose by the detail's words before (the conflict and conversion
# details' constants, and unbound's "no selector can name it" / "control character"):
# (kind, selector, reason, source, the route's words that reason brings, the detail
# once worded so).
CHOSEN = {
    "conflict": (
        "unresolved",
        "doc.md#Canon",
        Reason("conflict", "unmerged in the git index"),
        "worktree",
        "resolve the conflicts",
        "the file has unresolved merge conflicts (unmerged in the git index); resolve them",
    ),
    "converted": (
        "drifted",
        "doc.md#Canon",
        Reason("converted", "filter=lower"),
        "index",
        "take the file out of git's conversion",
        "the staged blob is what git's conversion (filter=lower) makes of the working file",
    ),
    "unnameable": (
        "unbound",
        "a\\b.md",
        Reason("unnameable", "the path contains a backslash"),
        "worktree",
        "rename it first",
        "required by [require] '**'; no selector can name it (the path contains a backslash)",
    ),
    "control-name": (
        "unbound",
        "a\x1bb.md",
        Reason("control-name"),
        "worktree",
        "rename it first",
        "required by [require] '**'; its name holds a control character: rename it, then adopt it",
    ),
}


def _of_kind(kind: str, selector: str, detail: str, reason: Reason | None) -> Finding:
    f = _finding(selector, detail, reason)
    if kind == "unbound":
        return Finding(kind, selector, selector, "", None, None, detail=detail, reason=reason)
    return Finding(**{**f.__dict__, "kind": kind})


@pytest.mark.parametrize("name", sorted(CHOSEN))
def test_conflict_conversion_unnameable_route_chosen_by_reason_accepted(
    tmp_path: Path, name: str
) -> None:
    kind, selector, reason, source, words, _ = CHOSEN[name]
    f = _of_kind(kind, selector, OTHER_WORDS, reason)
    said = _said(routes_for(f, root=make_repo(tmp_path), source=source))
    assert words in said, said


@pytest.mark.parametrize("name", sorted(CHOSEN))
def test_conflict_conversion_unnameable_detail_without_reason_not_routed_so_refused(
    tmp_path: Path, name: str
) -> None:
    kind, selector, _, source, words, detail = CHOSEN[name]
    f = _of_kind(kind, selector, detail, None)
    said = _said(routes_for(f, root=make_repo(tmp_path), source=source))
    assert words not in said, said

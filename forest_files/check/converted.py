"""Staged bytes that only git's conversion made: a clean filter, ``text``/``eol`` or
``working-tree-encoding`` set after adoption turns the working file into another blob.

Stores: nothing.
Refuses: nothing.
Returns: ``with_conversion`` (the hook's findings, each failed one whose staged blob
differs from its working file only by git's conversion — ``git hash-object`` of the
file with its filters is the index's blob, without them it is not — carrying a clause
that names the attributes converting it, and the reason ``converted`` (its ``what``:
those attributes) and the ``git check-attr -a -- PATH`` that
shows them; the check read the index's blob and reported drift, or no valid Python,
with no word of why the working tree was clean).
``conversion_routes``: the routes of such a finding (routes.py asks for them by its
reason, never by the detail's words). Every route that acts on the working file (restore, then
stage; supersede it; fix its syntax error) cannot clear it: git converts the file
again as it is staged. The one that can takes the file out of the conversion: a line
unsetting the converting attributes for it in the ``.gitattributes`` of its own
directory (which outranks those above it), then the file staged again as it stands;
adoption refuses a converted file for the same reason (target_refusals.py). When a
line of ``$GIT_DIR/info/attributes`` converts it, that file outranks every
``.gitattributes``: the route says so and the line goes at its end instead
(gitio ``info_rules``: which of its lines name a converting attribute for the file, git
itself matching their patterns).
Test: tests/check/test_staged_converted.py, tests/check/test_staged_listed_once.py

Git is asked only when a finding is about to be reported: a clean commit pays nothing.
The index's entries of those files come from the hook's own listing when it hands it
down (``listed``: content_git.py ``entries_at``), else from one ``git ls-files -s``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.check.finding import Reason, replaced

if TYPE_CHECKING:
    from forest_files.check.engine import Finding
    from forest_files.check.findings import Route
    from forest_files.gitio import TreeEntry

# The index's entries at given paths as a listing already made found them (every
# stage); None when it did not list them all (content_git.py ``entries_at``).
Listed = Callable[[Iterable[str]], "list[TreeEntry] | None"]

# How a finding's detail says its staged blob is a conversion of the working file.
CONVERTED_DETAIL = "the staged blob is what git's conversion"

# The attributes by which git converts a working file into the blob it stages.
_CONVERTING = ("filter", "text", "eol", "crlf", "working-tree-encoding", "ident")
_JUDGED = ("drifted", "unresolved", "moved")  # read from the staged blob of a file there


def with_conversion(
    root: Path, findings: list[Finding], *, listed: Listed | None = None
) -> list[Finding]:
    """``findings``, each failed one of a file git converts on staging with a clause
    saying so (the others as they are). ``listed``: the index's entries as the check
    listed them (None: listed here)."""
    paths = sorted({f.path for f in findings if f.kind in _JUDGED})
    if not paths:
        return findings
    said = _converted(root, paths, listed)
    if not said:
        return findings
    return [
        replaced(
            f,
            detail=f"{f.detail}; {said[f.path][0]}" if f.detail else said[f.path][0],
            reason=Reason("converted", said[f.path][1]),
        )
        if f.kind in _JUDGED and f.path in said
        else f
        for f in findings
    ]


def _converted(root: Path, paths: list[str], listed: Listed | None) -> dict[str, tuple[str, str]]:
    """The clause for each of ``paths`` whose staged blob is its working file as git's
    conversion makes it, and not its bytes as they stand, with the attributes it
    names."""
    from forest_files import gitio

    staged = _staged_blobs(root, paths, listed)
    files = [p for p in paths if p in staged and _regular(root / p)]
    if not files:
        return {}
    raw = _hashes(root, files, filters=False)
    cooked = _hashes(root, files, filters=True)
    changed = [p for p in files if raw.get(p) != staged[p] and cooked.get(p) == staged[p]]
    if not changed:
        return {}
    attrs = gitio.attributes(root, changed)
    return {p: _clause(p, attrs.get(p, {})) for p in changed}


def _clause(path: str, attrs: dict[str, str]) -> tuple[str, str]:
    from forest_files.kernel.shellword import command_text, git_step

    named = [_attr(name, attrs[name]) for name in _CONVERTING if name in attrs]
    said = ", ".join(n for n in named if n) or "an attribute"
    see = command_text(git_step("check-attr", "-a", "--", path))
    clause = (
        f"{CONVERTED_DETAIL} ({said}) makes of the working file, "
        f"not its bytes as they stand: `{see}` shows the attributes"
    )
    return clause, said


# What unsets each converting attribute for one path: ``-text`` ends ``eol`` and
# ``crlf`` too (git applies neither to a file that is not text); an encoding is made
# unspecified (git refuses ``-working-tree-encoding`` as no encoding).
_UNSET = {
    "filter": "-filter",
    "text": "-text",
    "eol": "-text",
    "crlf": "-text",
    "working-tree-encoding": "!working-tree-encoding",
    "ident": "-ident",
}


def conversion_routes(f: Finding, *, root: Path) -> tuple[Route, ...]:
    """The route out of a finding whose staged blob is git's conversion of its working
    file: the file taken out of the conversion (a ``.gitattributes`` line, then the
    file staged as it stands)."""
    from forest_files import gitio
    from forest_files.check.findings import Route
    from forest_files.kernel.shellword import git_step
    from forest_files.kernel.standing import reached

    attrs = gitio.attributes(root, [f.path]).get(f.path, {})
    converting = [n for n in _CONVERTING if _attr(n, attrs.get(n, "unset"))]
    unset = dict.fromkeys(_UNSET[n] for n in converting)
    renormalise = git_step("add", "--renormalize", "--", f.path)
    keep = (
        "so git stages the file's bytes as they stand; a restore or a supersede of the "
        "working file cannot clear this, git converts it again as it is staged"
    )
    info = gitio.info_rules(root, f.path, converting)
    if info is not None:  # outranks every .gitattributes: the line goes there, unshared
        line = " ".join((attribute_pattern(f.path), *unset))  # its patterns: from the top
        return (
            Route(
                "take the file out of git's conversion",
                (renormalise,),
                f"a line of {reached(info)} converts it, and that file outranks every "
                f".gitattributes: first add the line `{line}` at the end of {reached(info)}, "
                f"{keep}",
            ),
        )
    folder, _, name = f.path.rpartition("/")
    where = f"{folder}/.gitattributes" if folder else ".gitattributes"
    line = " ".join((attribute_pattern(name), *unset))
    return (
        Route(
            "take the file out of git's conversion",
            (git_step("add", "--", where), renormalise),
            f"first add the line `{line}` at the end of {reached(where)}, {keep}",
        ),
    )


def attribute_pattern(name: str) -> str:
    """A ``.gitattributes`` pattern matching the one file ``name`` beside it: anchored
    with ``/``, each glob character escaped; one with a space (which ends a bare
    pattern) in double quotes, C-style, as git reads a quoted pattern."""
    out = "/" + "".join(f"\\{c}" if c in "*?[\\" else c for c in name)
    if " " not in out and '"' not in out:
        return out
    quoted = out.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{quoted}"'


def _attr(name: str, value: str) -> str:
    if value == "unset":
        return ""  # ``-text``, ``-filter``: no conversion by that one
    return name if value == "set" else f"{name}={value}"


def _regular(path: Path) -> bool:
    return os.path.isfile(path) and not os.path.islink(path)


def _staged_blobs(root: Path, paths: list[str], listed: Listed | None = None) -> dict[str, str]:
    """The blob id the git index holds (stage 0) at each of ``paths``: from ``listed``
    when it answers, else one ``git ls-files -s`` of them."""
    entries = listed(paths) if listed is not None else None
    if entries is None:
        from forest_files import gitio

        entries = gitio.ls_files_stage(root, keep_index_file=True, paths=paths)
    return {e.path: e.blob for e in entries if e.stage == 0}


def _hashes(root: Path, paths: list[str], *, filters: bool) -> dict[str, str]:
    """``git hash-object`` of each working file, through the conversion its attributes
    choose (``filters``) or as its bytes stand."""
    from forest_files import gitio

    args = ["hash-object", *(() if filters else ("--no-filters",)), "--", *paths]
    proc = gitio.run_git(root, args, ok_codes=(0, 128))
    if proc.returncode != 0:  # a filter that fails: no claim about conversion
        return {}
    ids = proc.stdout.decode("ascii", "replace").split()
    return dict(zip(paths, ids, strict=False)) if len(ids) == len(paths) else {}

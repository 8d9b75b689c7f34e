"""Routes out of each finding, built from the real state of the repository.

Stores: nothing.
Refuses: nothing.
Returns: the ``Route`` values of a finding: the exact commands (argument
lists; ``Route.command`` quotes every word with ``shlex``) that restore
ground, adopt the change, bring a file back, move or end a binding (a
renamed and edited section: ``forest rebind OLD NEW --words``, so the chain
is kept), or end a contest; ``hints_for``: the places a renamed section may
stand now, with their lines; ``untrack``: stop git tracking local state
(``git rm --cached -r -- PATH``). The only words left to the user are ``--words`` (the placeholder
``…``, which every ceremony refuses when pasted as is); ``--as`` is left out,
so the default identity (git ``user.name <email>``) signs.
Test: tests/doors/test_doors.py, tests/check/test_routes_paste.py, tests/check/test_moves.py

``source`` is where the check looked: ``worktree``, ``index`` (the hook; a
route then also stages what it changed) or a commit id (routes act on the
working tree). A missing file's route names where git still has it: the
index, HEAD, or the parent of the commit that deleted it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.check.findings import WORDS_PLACEHOLDER, Route
from forest_files.kernel.paths import LEDGER_PREFIX

if TYPE_CHECKING:
    from forest_files.check.engine import Finding

_LEDGER = LEDGER_PREFIX.rstrip("/")
Step = tuple[str, ...]


def _words() -> Step:
    return ("--words", WORDS_PLACEHOLDER)


def forest(command: str, *targets: str, options: Step = ()) -> Step:
    """``forest COMMAND [options] TARGET…``; a target that starts with ``-`` comes
    after ``--`` so it is never read as an option."""
    if any(t.startswith("-") for t in targets):
        return ("forest", command, *options, "--", *targets)
    return ("forest", command, *targets, *options)


def _stage(source: str, *paths: str) -> tuple[Step, ...]:
    """After a route changed files: the hook's commit needs them staged again."""
    return (("git", "add", "--", *paths),) if source == "index" else ()


def routes_for(f: Finding, *, root: Path, source: str) -> tuple[Route, ...]:
    """Every route out of ``f`` (none for ``clean``)."""
    sel, path = f.selector, f.path
    retire = Route("or end the binding", (forest("retire", sel, options=_words()),))
    if f.kind == "drifted":
        return (
            Route("restore ground", (forest("restore", sel), *_stage(source, path))),
            Route(
                "adopt the change",
                (forest("supersede", sel, options=_words()), *_stage(source, _LEDGER, path)),
                "replace … with why the new text is right",
            ),
        )
    if f.kind == "missing":
        return (_bring_back(f, root, source), retire)
    if f.kind == "moved" and f.moved_to:
        return (  # moved_to: the full selector where the unchanged section stands
            Route(
                "move the binding",
                (forest("rebind", sel, f.moved_to), *_stage(source, _LEDGER)),
            ),
            retire,
        )
    if f.kind == "contested":
        return _resolve_routes(f)
    if f.kind == "unbound":
        return (
            Route(
                "adopt it",
                (forest("adopt", sel, options=_words()), *_stage(source, _LEDGER)),
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


def _erased_route(sel: str, path: str, source: str) -> Route:
    """Live ground an erase emptied: the erased text is never needed to end it."""
    return Route(
        "take the erased text out of the file, then adopt what is left",
        (forest("supersede", sel, options=_words()), *_stage(source, _LEDGER, path)),
        f"first delete the text a forget erased from {path}; replace … with why",
    )


def untrack(path: str) -> Route:
    """Stop git tracking local state (the file stays on disk; nothing reads it)."""
    return Route(
        "stop tracking it",
        (("git", "rm", "--cached", "-r", "--", path),),
        "the file stays on disk; commit the removal",
    )


def resolve_routes(heads: tuple[str, ...], contest: str | None = None) -> tuple[Route, ...]:
    """One route per head of a contest: keep that head's text (``forest resolve``)."""
    at = contest or heads[0]
    return tuple(
        Route(
            f"keep {head[:12]}'s text",
            (forest("resolve", at, options=("--pick", head, *_words())),),
        )
        for head in heads
    )


def _resolve_routes(f: Finding) -> tuple[Route, ...]:
    heads = f.candidates
    if len(heads) < 2:  # two bindings of one section: retire the extra one
        return (
            Route(
                "end the extra binding",
                (forest("retire", f.selector, options=("--binding", f.binding, *_words())),),
            ),
        )
    return resolve_routes(heads, f.ground)


def _unresolved(f: Finding, root: Path, source: str) -> tuple[Route, ...]:
    kind = _not_regular_kind(f.detail)
    if kind is not None:
        if kind in ("directory", "submodule"):
            return (
                Route(
                    "put the file back",
                    note=f"move the {kind} at {f.path} away, then bring the file back "
                    f"(git checkout HEAD -- {_quote(f.path)}, or forest restore "
                    f"{_quote(f.selector)} for a whole-file binding)",
                ),
            )
        back = _bring_back(f, root, source)
        return (Route("put the file back", (("rm", "--", f.path), *back.steps), back.note),)
    back = Route(
        "put the section back",
        note="restore the heading, symbol or markers the selector names",
    )
    if len(f.candidates) == 1:  # renamed (and edited: unchanged text would be `moved`)
        rebind = forest("rebind", f.selector, f.candidates[0], options=_words())
        return (
            Route(
                "keep the chain at the renamed section",
                (rebind, *_stage(source, _LEDGER)),
                "replace … with why the new text is right",
            ),
            back,
        )
    return (
        back,
        Route(
            "or move the binding",
            note=f"forest rebind {_quote(f.selector)} NEW --words '…' "
            "(NEW: the section's new selector" + ("; candidates above)" if f.candidates else ")"),
        ),
    )


def hints_for(f: Finding) -> tuple[str, ...]:
    """Facts that help choose a route: where a renamed section may stand now."""
    if f.kind != "unresolved" or not f.candidates:
        return ()
    lines = f.candidate_lines or (0,) * len(f.candidates)
    places = ", ".join(f"{sel} (line {n})" for sel, n in zip(f.candidates, lines, strict=False))
    return (f"standing where it stood now: {places}",)


def _not_regular_kind(detail: str) -> str | None:
    prefix = "not a regular file ("
    if not detail.startswith(prefix):
        return None
    return detail[len(prefix) :].split(")", 1)[0]


def _quote(word: str) -> str:
    import shlex

    return shlex.quote(word)


def _bring_back(f: Finding, root: Path, source: str) -> Route:
    """Where git still holds the file: the index, HEAD, or before its deletion."""
    from forest_files import gitio

    path = f.path
    whole = f.selector == path
    if source != "index" and gitio.ls_files_stage(root, path):
        return Route("bring the file back", (("git", "checkout", "--", path),))
    if gitio.head_commit(root) is not None and _in_commit(root, "HEAD", path):
        return Route("bring the file back", (("git", "checkout", "HEAD", "--", path),))
    if whole:  # the ground text is the whole file: restore writes it again
        return Route("bring the file back", (forest("restore", path), *_stage(source, path)))
    before = _before_deletion(root, path)
    if before is not None:
        return Route(
            "bring the file back",
            (("git", "checkout", before, "--", path), *_stage(source, path)),
            f"the file as it stood before commit {before[:12]}^ deleted it",
        )
    return Route("bring the file back", note=f"no commit holds {path}; write it again")


def _in_commit(root: Path, rev: str, path: str) -> bool:
    from forest_files import gitio

    return any(e.path == path for e in gitio.ls_tree(root, rev, path))


def _before_deletion(root: Path, path: str) -> str | None:
    """The parent of the last commit that deleted ``path`` (it still holds the file)."""
    from forest_files import gitio

    out = gitio.run_git(
        root,
        ["log", "-1", "--format=%H", "--diff-filter=D", "--", f":(literal){path}"],
        ok_codes=(0, 128),
    )
    commit = out.stdout.decode().strip() if out.returncode == 0 else ""
    return f"{commit}^" if commit else None

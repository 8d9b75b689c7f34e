"""Expanding the glob in a target's path part to the files it names.

Stores: nothing.
Refuses (``TargetRefused``): a glob the one glob syntax (kernel/globs.py)
cannot honour (``{a,b}``, ``!`` …); a glob that matches nothing (a glob names
the files git tracks or would add — ignored files are not candidates — and
never a symlink, a hard-linked file or a path special.py refuses); a glob that
matches a file whose name is not UTF-8 (the ledger cannot name it: rename it);
a glob that matches a file no selector can name (a backslash, a newline or
another control character), or such a file typed as it stands, naming it escaped
and its rename as a command (target_names.py).
Returns: the targets with every glob replaced by the files it matches, in order.
Test: tests/custody/test_file_custody.py, tests/check/test_bulk_routes.py,
tests/custody/test_target_globs.py
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from forest_files import gitio
from forest_files.custody.special import special_path_reason, submodule_refusal
from forest_files.custody.target_names import cannot_name, parse_target, regular_names
from forest_files.custody.target_refusals import TargetRefused
from forest_files.kernel.globs import Glob, GlobError, compile_glob, is_glob, literal_prefix
from forest_files.kernel.repopath import not_utf8_reason
from forest_files.kernel.shellword import printable
from forest_files.text.selector import Selector, parse_selector, render
from forest_files.text.selector_errors import SelectorError

if TYPE_CHECKING:
    from forest_files.custody.bindings import Binding


def target_glob(root: Path, path: str, known: frozenset[str] = frozenset()) -> Glob | None:
    """The compiled glob of a target's path part, None for a plain path. A path that
    names an existing file, or a bound path (``known``), is that file whatever it
    holds (``docs/[a].md`` acts on the file so named, never on ``docs/a.md``);
    any other path with ``{``, ``}`` or ``!`` is refused as a pattern the glob
    syntax cannot honour (never literal)."""
    if path in known or os.path.lexists(root / path):
        return None
    if not is_glob(path) and not any(ch in path for ch in "{}!"):
        return None
    try:
        return compile_glob(path)
    except GlobError as exc:
        raise TargetRefused(f"{path}: not a glob forest-files can honour: {exc}") from None


def expand(root: Path, specs: Sequence[str]) -> list[str]:
    """Expand glob patterns in the path part of each target (``docs/adr/*.md``), with
    the one glob syntax of forest.toml's tables (kernel/globs.py)."""
    out: list[str] = []
    for spec in specs:
        sel = parse_target(root, spec)  # typed as it stands, a file no selector can name
        pattern = target_glob(root, sel.path)
        if pattern is None:
            out.append(spec)
            continue
        named = {  # each matching regular file (no symlink) with its count of names
            rel: names
            for rel in _candidates(root, pattern)
            if pattern.match(rel) and (names := regular_names(root / rel))
        }
        matches = list(named)
        for rel in matches:  # a file the user meant, that the ledger cannot name: said
            not_utf8 = not_utf8_reason(rel)
            if not_utf8 is not None:
                raise TargetRefused(f"{rel}: matched by {sel.path}, but {not_utf8}")
            names = named[rel]
            if names > 1:  # left out without a word, it was never in custody
                raise TargetRefused(
                    f"{rel}: matched by {sel.path}, but it is hard-linked ({names} names for "
                    "one file), so a write through another name changes it unseen; give it "
                    "a file of its own (cp it to a new file and move that over it), or "
                    "narrow the glob, then adopt"
                )
        matches = [rel for rel in matches if special_path_reason(rel) is None]
        if not matches:
            raise TargetRefused(_matched_nothing(root, sel.path, pattern))
        out.extend(_named(root, sel, m) for m in matches)
    return out


def _matched_nothing(root: Path, path: str, pattern: Glob) -> str:
    """Why a glob matched no file: its literal prefix inside a submodule (whose files
    are another repository's: git lists none of them here), or the glob itself."""
    prefix = "/".join(literal_prefix(pattern.pattern))
    if prefix:
        for entry in gitio.ls_files_stage(root):
            sub = entry.path
            inside = prefix == sub or prefix.startswith(sub + "/")
            if entry.mode == gitio.SUBMODULE_MODE and inside:
                return submodule_refusal(path, sub, (root / sub / ".git").exists())
    return f"{path}: the pattern matches no file; check the glob"


def _named(root: Path, sel: Selector, path: str) -> str:
    """The target ``sel`` names in the matched file ``path``, its name escaped as a
    selector spells it (a ``#``, ``@`` or ``::`` in a file name is no separator)."""
    try:
        target = render(replace(sel, path=path))
        parse_selector(target)
    except SelectorError as exc:  # a backslash, a newline: no selector can name the file
        raise cannot_name(root, path, exc, f"matched by {printable(sel.path)}, but ") from None
    return target


def _candidates(root: Path, pattern: Glob) -> list[str]:
    """Files git tracks or would add (not ignored) below the pattern's literal prefix."""
    prefix = "/".join(literal_prefix(pattern.pattern))
    args = ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--full-name"]
    if prefix:
        args += ["--", prefix]  # run_git passes --literal-pathspecs
    proc = gitio.run_git(root, args)
    return sorted(set(gitio.split_z(proc.stdout)))


def expand_bound(root: Path, bindings: Sequence[Binding], specs: Sequence[str]) -> list[str]:
    """``expand`` for targets of bound sections (supersede, restore): a glob also
    matches bound paths whose file is gone (a restore brings them back)."""
    out: list[str] = []
    for spec in specs:
        sel = parse_target(root, spec)
        bound = frozenset(b.path for b in bindings)
        pattern = target_glob(root, sel.path, bound)
        if pattern is None:
            out.append(spec)
            continue
        gone = sorted(p for p in bound if pattern.match(p) and not os.path.lexists(root / p))
        try:
            out += expand(root, [spec])
        except TargetRefused:
            if not gone:
                raise
        out += [spec.replace(sel.path, p, 1) for p in gone]
    return out

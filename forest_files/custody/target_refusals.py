"""Whether a working-tree file may be taken into custody: the refusals of DESIGN.md.

Stores: nothing.
Refuses (``TargetRefused``, saying what to do): a path not named exactly as
the file is (a Unicode-normalisation or letter-case difference, which git would
record as another path); anything under ``.git/`` or ``.forest/``, and
``forest.toml`` (special.py); a file that is missing; a symlink (even one
leading to a file inside the repository: bind its target), a hard-linked file
(link count over 1: another name could change it unseen) and any other path
that is not a regular file (a directory, a FIFO); a path reached through a
symlinked directory, or leading outside the repository through one; a path
that is a submodule or inside one (naming it and where its files are bound:
its own repository); a file under a git filter (LFS, git-crypt) or an attribute
by which git rewrites its bytes on checkout (``ident``,
``working-tree-encoding``); a file git holds unmerged (a merge conflict not
resolved yet: its text is conflict text, and a ``=======`` line under a text line
reads as a setext heading that cuts a section short); a file over the body size bound (``[policy]
max_body_bytes``, default 8 MiB); an exclusion that matches nothing in any
target of one adoption (``ExcludeTally``).
Returns: ``check_file`` — the file's bytes; ``RepoFacts`` — what git says of
one adoption's paths, asked once.
Test: tests/custody/test_file_custody.py, tests/custody/test_special_paths.py,
      tests/check/test_adopt_select.py, tests/check/test_conflicts.py,
      tests/gitio/test_check_attrs.py
"""

from __future__ import annotations

import os
import stat as stat_mod
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from forest_files import gitio
from forest_files.custody.content import dir_inside, escapes, path_variant, read_regular
from forest_files.custody.special import lstat_kind, special_path_reason, submodule_refusal
from forest_files.kernel.errors import ForestError
from forest_files.kernel.shellword import command_text, git_step, shell_word
from forest_files.kernel.standing import standing
from forest_files.text.exclude import ExcludeError, parse_exclusions
from forest_files.text.extract import Document, extract
from forest_files.text.selector import Selector


class TargetRefused(ForestError):
    """A file or section that cannot be taken into custody."""


@dataclass
class ExcludeTally:
    """An adoption's exclusions must each match in at least one of its targets.

    ``forest adopt a.md --exclude '#Stauts'`` is refused, and so is a glob in
    which no file has what an exclusion names; a glob of ADRs where only some
    have a ``status`` key may exclude ``meta:status`` (the others have nothing to
    leave out). The refusal comes with the last target, before anything is
    written, and explains the first miss (what that section holds instead)."""

    expected: int
    seen: int = 0
    matched: set[str] = field(default_factory=set)
    first_miss: dict[str, ExcludeError] = field(default_factory=dict)

    def note(
        self,
        text: str | Document,
        sel: Selector,
        excludes: tuple[str, ...],
        matched: tuple[str, ...],
    ) -> None:
        self.seen += 1
        self.matched.update(matched)
        for ex in parse_exclusions(excludes):
            name = str(ex)
            if name not in self.matched and name not in self.first_miss:
                try:
                    extract(text, sel, (name,), strict=True)
                except ExcludeError as exc:
                    self.first_miss[name] = exc
        if self.seen != self.expected:
            return
        for name, miss in self.first_miss.items():
            if name not in self.matched:
                if self.expected == 1:
                    raise miss
                raise ExcludeError(
                    f"exclusion {name!r} matches nothing in any of the {self.expected} "
                    f"targets; the first: {miss}"
                )


@dataclass(frozen=True)
class RepoFacts:
    """What every target is checked against, read from git once per command."""

    submodules: tuple[str, ...]
    filters: dict[str, str]
    # Paths the git index holds unmerged (stages 1-3: a conflict not resolved yet).
    unmerged: frozenset[str] = frozenset()
    # Path -> the attribute (other than a filter) by which git rewrites its bytes on
    # checkout: ``ident`` (set) or ``working-tree-encoding`` (a value).
    rewrites: dict[str, str] = field(default_factory=dict)
    # Directory -> resolves inside the root; memoised so a bulk adoption resolves
    # each directory once, not each file's every path component.
    dirs_inside: dict[str, bool] = field(default_factory=dict)
    # Directory -> its first symlinked component ("" when none), memoised likewise.
    dir_links: dict[str, str] = field(default_factory=dict)
    tally: ExcludeTally | None = None
    # Directory -> the names in it, listed once per adoption (exact-name checks).
    listings: dict[str, frozenset[str]] = field(default_factory=dict)

    @classmethod
    def gather(
        cls,
        root: Path,
        paths: Sequence[str],
        *,
        tally: bool = True,
        matched: frozenset[str] = frozenset(),
    ) -> RepoFacts:
        """The facts of one adoption of ``paths`` (one per target, in order); without
        ``tally``, of a command that reads bound sections again (their exclusions
        are the bindings', not the user's to have matched). ``matched``: exclusions
        that did their work before the targets were read (``--headings`` left the
        headings they name out), so none is refused for matching nothing inside them."""
        index = gitio.ls_files_stage(root)  # one read of the index for both
        # the filter and the rewriting attributes of every path: one ``git check-attr``
        said = gitio.check_attrs(root, ("filter", *_REWRITING), list(paths)) if paths else {}
        return cls(
            submodules=tuple(e.path for e in index if e.mode == gitio.SUBMODULE_MODE),
            unmerged=frozenset(e.path for e in index if e.stage),
            filters={path: values["filter"] for path, values in said.items()},
            rewrites=_rewrites(said),
            tally=ExcludeTally(len(paths), matched=set(matched)) if tally else None,
        )

    def variant(self, root: Path, path: str, *, exists: bool) -> str | None:
        """When ``path``'s name is not in its directory exactly as given, how a name
        there differs from it (Unicode normalisation or letter case); None otherwise.
        Paths are compared as git records them: byte for byte."""
        parent, _, name = path.rpartition("/")
        names = self.listings.get(parent)
        if names is None:
            try:
                names = frozenset(os.listdir(root / parent if parent else root))
            except OSError:
                names = frozenset()
            self.listings[parent] = names
        if exists and (name in names or not names):
            return None
        return path_variant(path, (f"{parent}/{n}" if parent else n for n in names))

    def escapes(self, root: Path, path: str) -> bool:
        """``escapes(root, path)``; a regular file costs one ``lstat`` once its
        directory is known to resolve inside the root."""
        try:
            st = os.lstat(root / path)
        except OSError:
            return escapes(root, path)
        if not stat_mod.S_ISREG(st.st_mode):
            return escapes(root, path)
        return not dir_inside(root, path.rpartition("/")[0], self.dirs_inside)


def _below(root: Path, path: str) -> str | None:
    """``path`` as the top names the file of that name in the directory the user stands
    in below the top, when one is there (a selector is the top's, a shell's
    path the working directory's: the user may have meant either)."""
    prefix = standing()
    if not prefix:
        return None
    below = prefix + path
    return below if os.path.lexists(root / below) else None


_REWRITING = ("ident", "working-tree-encoding")  # attributes that change checked-out bytes


def rewritten_on_checkout(root: Path, paths: Sequence[str]) -> dict[str, str]:
    """Each of ``paths`` git rewrites on checkout, with the attribute that does it
    (``ident``, ``working-tree-encoding=…``): one ``git check-attr`` for both."""
    return _rewrites(gitio.check_attrs(root, _REWRITING, list(paths)) if paths else {})


def _rewrites(said: dict[str, dict[str, str]]) -> dict[str, str]:
    """Of ``check_attrs``' answer, each path some ``_REWRITING`` attribute rewrites, with
    the first of them that does (``ident`` before ``working-tree-encoding=…``)."""
    out: dict[str, str] = {}
    for attr in _REWRITING:
        for path, values in said.items():
            value = values.get(attr, "unspecified")
            if value not in ("unspecified", "unset", "") and path not in out:
                out[path] = attr if value == "set" else f"{attr}={value}"
    return out


def check_file(root: Path, path: str, max_bytes: int, facts: RepoFacts | None = None) -> bytes:
    """The bytes of ``path`` if it may be taken into custody."""
    reason = special_path_reason(path)
    if reason is not None:
        raise TargetRefused(f"{path}: {reason}")
    full = root / path
    facts = facts or RepoFacts.gather(root, [path])
    for sub in facts.submodules:  # before the lstat: a submodule not checked out is empty
        if path == sub or path.startswith(sub + "/"):
            raise TargetRefused(submodule_refusal(path, sub, (root / sub / ".git").exists()))
    if facts.escapes(root, path):
        raise TargetRefused(
            f"{path}: leads outside the repository through a symlink; bind the real file"
        )
    try:
        st = os.lstat(full)
    except OSError:
        below = _below(root, path)
        if below:
            raise TargetRefused(
                f"{path}: no such file at the top of the work tree, where every selector "
                f"starts; you stand in {standing()}, so give {shell_word(below)}"
            ) from None
        variant = facts.variant(root, path, exists=False)
        why = f"; {variant}: give the path exactly as the file is named" if variant else ""
        raise TargetRefused(f"{path}: no such file in the working tree{why}") from None
    below = _below(root, path)
    if below:  # typed in docs/, ``a.md`` is the top's a.md, not docs/a.md beside the user
        raise TargetRefused(
            f"{path}: two files answer to it: {path} at the top of the work tree, where "
            f"every selector starts, and {below} in {standing()}, where you stand; give "
            f"{shell_word(below)} for that one, or run the command at the top for {path}"
        )
    variant = facts.variant(root, path, exists=True)
    if variant is not None:  # a case- or normalisation-insensitive filesystem found it
        raise TargetRefused(
            f"{path}: the filesystem found the file under another name — {variant}; "
            "give the path exactly as the file is named"
        )
    kind = lstat_kind(st.st_mode)
    if kind == "symlink":
        raise TargetRefused(f"{path}: is a symlink; {_bind_instead(root, full)}")
    if kind is not None:
        raise TargetRefused(f"{path}: not a regular file ({kind}); bind a regular file")
    if st.st_nlink > 1:  # like a symlink: another name can change it unseen
        raise TargetRefused(
            f"{path}: is hard-linked ({st.st_nlink} names for one file), so a write through "
            "another name changes it unseen; give it a file of its own (cp it to a new "
            "file and move that over it), then adopt"
        )
    link = _linked_dir(root, path.rpartition("/")[0], facts.dir_links)
    if link:
        raise TargetRefused(
            f"{path}: reached through the symlinked directory {link}; {_bind_instead(root, full)}"
        )
    filt = facts.filters.get(path, "unspecified")
    if filt not in ("unspecified", "unset", ""):
        raise TargetRefused(
            f"{path}: stored through the git filter {filt!r} (LFS, git-crypt…); its committed "
            "bytes are not its text — keep custody text out of filters"
        )
    if path in facts.unmerged:
        raise TargetRefused(
            f"{path}: in a merge conflict git has not seen resolved; resolve it first: "
            "edit the file, keep the right text, delete the <<<<<<<, ======= and >>>>>>> "
            f"lines, then {command_text(git_step('add', '--', path))}, and run the "
            "command again"
        )
    rewrite = facts.rewrites.get(path)
    if rewrite is not None:
        raise TargetRefused(
            f"{path}: git rewrites its bytes on checkout (the {rewrite} attribute), so the "
            "committed text is not what a clone reads — unset it in .gitattributes first"
        )
    if st.st_size > max_bytes:
        raise TargetRefused(
            f"{path}: {st.st_size} bytes is over the bound of {max_bytes} ([policy] "
            "max_body_bytes in forest.toml)"
        )
    data = read_regular(str(full))
    if data is None:  # replaced since the lstat
        raise TargetRefused(f"{path}: changed while it was read; adopt it again")
    return data


def _bind_instead(root: Path, full: Path) -> str:
    """What to bind instead of a path that is or goes through a symlink."""
    real = Path(os.path.realpath(full))
    top = Path(os.path.realpath(root))
    if real.is_relative_to(top) and real.is_file():
        rel = real.relative_to(top).as_posix()
        if special_path_reason(rel) is None:
            return f"bind the file it leads to instead ({rel})"
    return "bind the real file instead"


def _linked_dir(root: Path, parent: str, memo: dict[str, str]) -> str:
    """The first component of directory ``parent`` that is a symlink ("" when none)."""
    if not parent:
        return ""
    found = memo.get(parent)
    if found is None:
        head = parent.rpartition("/")[0]
        found = _linked_dir(root, head, memo) or (parent if os.path.islink(root / parent) else "")
        memo[parent] = found
    return found

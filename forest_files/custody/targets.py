"""Reading adoption targets from the working tree, with the refusals of DESIGN.md.

Stores: nothing.
Refuses (``TargetRefused``, saying what to do): a path not named exactly as
the file is (a Unicode-normalisation or letter-case difference, which git would
record as another path); paths with ``..``, absolute
paths, NUL/control characters (the selector grammar); anything under ``.git/``
or ``.forest/``, and ``forest.toml`` (special.py); a file that is missing; a
symlink (even one leading to a file inside the repository: bind its target), a
hard-linked file (link count over 1: another name could change it unseen) and
any other path that is not a regular file (a directory, a FIFO); a path reached
through a symlinked directory, or leading outside the repository through one; a
path inside a submodule; a file under a git filter (LFS, git-crypt) or an
attribute by which git rewrites its bytes on checkout (``ident``,
``working-tree-encoding``); a file over
the body size bound (``[policy] max_body_bytes``, default 8 MiB); content that
is not UTF-8 text (naming the byte offset); a glob the one glob syntax
(kernel/globs.py) cannot honour (``{a,b}``, ``!`` …); a glob that matches
nothing (a glob names the files git tracks or would add — ignored files are not
candidates — and never a symlink, a hard-linked file or a path special.py
refuses); an
exclusion that matches nothing in any target of one adoption (``ExcludeTally``).
Returns: ``SectionText`` values carrying the exact selected text (normalised,
exclusions removed, never scrubbed), the full selector and the file hash.
Test: tests/custody/test_file_custody.py, tests/custody/test_special_paths.py,
      tests/check/test_parse_once.py
"""

from __future__ import annotations

import os
import stat as stat_mod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from forest_files import gitio
from forest_files.custody.bindconf import fitting, merged
from forest_files.custody.content import dir_inside, escapes, path_variant, read_regular
from forest_files.custody.record import SectionText
from forest_files.custody.special import lstat_kind, special_path_reason
from forest_files.kernel.errors import ForestError
from forest_files.kernel.globs import Glob, GlobError, compile_glob, is_glob, literal_prefix
from forest_files.text.exclude import ExcludeError, parse_exclusions
from forest_files.text.extract import HASH_ALGO, Document, extract
from forest_files.text.normalise import NORMALISATION, decode_bytes
from forest_files.text.selector import Selector, parse_selector, render

if TYPE_CHECKING:
    from forest_files.custody.bindings import Binding


class TargetRefused(ForestError):
    """A file or section that cannot be taken into custody."""


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
        sel = parse_selector(spec)
        pattern = target_glob(root, sel.path)
        if pattern is None:
            out.append(spec)
            continue
        matches = [
            rel
            for rel in _candidates(root, pattern)
            if pattern.match(rel)
            and _single_regular(root / rel)
            and special_path_reason(rel) is None
        ]
        if not matches:
            raise TargetRefused(f"{sel.path}: the pattern matches no file; check the glob")
        out.extend(spec.replace(sel.path, m, 1) for m in matches)
    return out


def _single_regular(full: Path) -> bool:
    """A regular file (no symlink) with one name: what a glob may adopt."""
    try:
        st = os.lstat(full)
    except OSError:
        return False
    return stat_mod.S_ISREG(st.st_mode) and st.st_nlink == 1


def _candidates(root: Path, pattern: Glob) -> list[str]:
    """Files git tracks or would add (not ignored) below the pattern's literal prefix."""
    prefix = "/".join(literal_prefix(pattern.pattern))
    args = ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--full-name"]
    if prefix:
        args += ["--", prefix]  # run_git passes --literal-pathspecs
    proc = gitio.run_git(root, args)
    return sorted(set(gitio.split_z(proc.stdout)))


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
    def gather(cls, root: Path, paths: Sequence[str]) -> RepoFacts:
        """The facts of one adoption of ``paths`` (one per target, in order)."""
        return cls(
            submodules=tuple(gitio.submodule_paths(root)),
            filters=gitio.check_attr(root, "filter", list(paths)) if paths else {},
            rewrites=_rewrites(root, paths),
            tally=ExcludeTally(len(paths)),
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


_REWRITING = ("ident", "working-tree-encoding")  # attributes that change checked-out bytes


def _rewrites(root: Path, paths: Sequence[str]) -> dict[str, str]:
    """Each path git rewrites on checkout, with the attribute that does it."""
    out: dict[str, str] = {}
    for attr in _REWRITING if paths else ():
        for path, value in gitio.check_attr(root, attr, list(paths)).items():
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
    if facts.escapes(root, path):
        raise TargetRefused(
            f"{path}: leads outside the repository through a symlink; bind the real file"
        )
    try:
        st = os.lstat(full)
    except OSError:
        variant = facts.variant(root, path, exists=False)
        why = f"; {variant}: give the path exactly as the file is named" if variant else ""
        raise TargetRefused(f"{path}: no such file in the working tree{why}") from None
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
    for sub in facts.submodules:
        if path.startswith(sub + "/"):
            raise TargetRefused(f"{path}: inside submodule {sub}; adopt it in that repository")
    filt = facts.filters.get(path, "unspecified")
    if filt not in ("unspecified", "unset", ""):
        raise TargetRefused(
            f"{path}: stored through the git filter {filt!r} (LFS, git-crypt…); its committed "
            "bytes are not its text — keep custody text out of filters"
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


def read_section(
    root: Path,
    spec: str | Selector,
    excludes: tuple[str, ...],
    *,
    max_bytes: int,
    facts: RepoFacts | None = None,
    docs: dict[str, Document] | None = None,
    defaults: tuple[str, ...] = (),
) -> SectionText:
    """The section ``spec`` names, as it stands in the working tree.

    With ``facts`` gathered for an adoption, the last of its targets refuses an
    exclusion that matched in none of them (``ExcludeTally``). ``docs``: files this
    command already read and parsed, by path (another target of the same file);
    the file read here is added to it."""
    sel = parse_selector(spec) if isinstance(spec, str) else spec
    doc = _document(root, sel.path, max_bytes, facts, docs)
    every = merged(excludes, defaults)
    got = extract(doc, sel, every)
    if facts is not None and facts.tally is not None:  # a default need not match
        own = tuple(e for e in every[: len(excludes)] if e not in defaults)
        facts.tally.note(doc, sel, own, got.excludes_matched)
    return SectionText(
        path=sel.path,
        selector=render(got.selector),
        excludes=every,
        text=got.text,
        normalisation=NORMALISATION,
        hash_algo=HASH_ALGO,
    )


def _document(
    root: Path,
    path: str,
    max_bytes: int,
    facts: RepoFacts | None,
    docs: dict[str, Document] | None,
) -> Document:
    """``path`` read (with every refusal of ``check_file``) and parsed, or taken from
    ``docs`` when this command read it already."""
    doc = docs.get(path) if docs is not None else None
    if doc is None:
        doc = Document(decode_bytes(check_file(root, path, max_bytes, facts), path))
        if docs is not None:
            docs[path] = doc
    return doc


def read_sections(
    root: Path,
    specs: Sequence[str],
    excludes: tuple[str, ...],
    *,
    max_bytes: int,
    parallel: bool = True,
    progress: Callable[[int], None] | None = None,
    defaults: Callable[[str], tuple[str, ...]] | None = None,
) -> list[SectionText]:
    """Many targets with one git call for submodules and one for filters (bulk adoption).

    ``defaults(path)``: the exclusions forest.toml's ``[bind]`` gives a file
    (custody/bindconf.py), added to ``excludes`` for each target of that file; they
    need not match (not tallied), and a Python symbol takes none.

    ``parallel``: thousands of targets without exclusions are read in parts, in child
    processes too (``parallel_read``: same sections, same refusals, in order).
    ``progress(n)``: told as each ``n`` more targets are read.
    """
    from forest_files.custody import parallel_read
    from forest_files.kernel.spawn import usable_cpus

    # Exclusions are judged across all targets at once (``ExcludeTally``): one reader.
    parallel = parallel and not excludes and defaults is None
    parts = parallel_read.parts_for(len(specs), usable_cpus()) if parallel else 1
    if parts > 1:
        for spec in specs:  # a malformed selector is refused before any child starts
            parse_selector(spec)

        def serial(chunk: Sequence[str], told: Callable[[int], None] | None) -> list[SectionText]:
            return _read_serial(root, chunk, excludes, max_bytes, told)

        return parallel_read.read_in_parts(
            root, specs, max_bytes=max_bytes, parts=parts, read=serial, progress=progress
        )
    return _read_serial(root, specs, excludes, max_bytes, progress, defaults)


def _read_serial(
    root: Path,
    specs: Sequence[str],
    excludes: tuple[str, ...],
    max_bytes: int,
    progress: Callable[[int], None] | None,
    defaults: Callable[[str], tuple[str, ...]] | None = None,
) -> list[SectionText]:
    from forest_files.ledger.segments import gc_paused

    selectors = [parse_selector(s) for s in specs]
    facts = RepoFacts.gather(root, [sel.path for sel in selectors])
    # A file named by several targets is read and parsed once; it is kept only
    # until its last target.
    last = {sel.path: pos for pos, sel in enumerate(selectors)}
    docs: dict[str, Document] = {}
    out: list[SectionText] = []
    with gc_paused():  # parsing thousands of files: no collector passes over the results
        for pos, sel in enumerate(selectors):
            more = fitting(defaults(sel.path), sel.kind, sel.path) if defaults is not None else ()
            got = read_section(
                root, sel, excludes, max_bytes=max_bytes, facts=facts, docs=docs, defaults=more
            )
            out.append(got)
            if last[sel.path] == pos:
                docs.pop(sel.path, None)
            if progress is not None:
                progress(1)
    return out


def expand_bound(root: Path, bindings: Sequence[Binding], specs: Sequence[str]) -> list[str]:
    """``expand`` for targets of bound sections (supersede, restore): a glob also
    matches bound paths whose file is gone (a restore brings them back)."""
    out: list[str] = []
    for spec in specs:
        sel = parse_selector(spec)
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


def read_section_at(
    root: Path,
    spec: str,
    excludes: tuple[str, ...],
    *,
    max_bytes: int,
    docs: dict[str, Document] | None = None,
) -> tuple[SectionText, tuple[int, int]]:
    """``read_section`` with the section's first and last line (a bulk listing);
    ``docs`` as there."""
    sel = parse_selector(spec)
    got = extract(_document(root, sel.path, max_bytes, None, docs), sel, excludes)
    section = SectionText(
        path=sel.path,
        selector=render(got.selector),
        excludes=excludes,
        text=got.text,
        normalisation=NORMALISATION,
        hash_algo=HASH_ALGO,
    )
    return section, (got.start_line, got.end_line)

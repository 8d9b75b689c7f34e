"""Reading adoption targets from the working tree, with the refusals of DESIGN.md.

Stores: nothing.
Refuses (``TargetRefused``, saying what to do): paths with ``..``, absolute
paths, NUL/control characters (the selector grammar); a file that is missing;
a symlink leading outside the repository; a path inside a submodule; a file
under a git filter (LFS, git-crypt); a file over the body size bound
(``[policy] max_body_bytes``, default 8 MiB); content that is not UTF-8 text
(naming the byte offset); a glob that matches nothing.
Returns: ``SectionText`` values carrying the exact selected text (normalised,
exclusions removed, never scrubbed), the full selector and the file hash.
Test: tests/test_file_custody.py
"""

from __future__ import annotations

import glob
import os
import stat as stat_mod
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from forest_files import gitio
from forest_files.errors import ForestError
from forest_files.files.content import dir_inside, escapes
from forest_files.files.extract import HASH_ALGO, extract
from forest_files.files.normalise import NORMALISATION, decode_bytes, normalise_text
from forest_files.files.record import SectionText
from forest_files.files.selector import Selector, parse_selector, render
from forest_files.hashing import hash_body


class TargetRefused(ForestError):
    """A file or section that cannot be taken into custody."""


def expand(root: Path, specs: Sequence[str]) -> list[str]:
    """Expand glob patterns in the path part of each target (``docs/adr/*.md``)."""
    out: list[str] = []
    for spec in specs:
        sel = parse_selector(spec)
        if not any(ch in sel.path for ch in "*?["):
            out.append(spec)
            continue
        matches = sorted(
            Path(p).relative_to(root).as_posix()
            for p in glob.glob(str(root / sel.path), recursive=True)
            if Path(p).is_file()
        )
        if not matches:
            raise TargetRefused(f"{sel.path}: the pattern matches no file; check the glob")
        out.extend(spec.replace(sel.path, m, 1) for m in matches)
    return out


@dataclass(frozen=True)
class RepoFacts:
    """What every target is checked against, read from git once per command."""

    submodules: tuple[str, ...]
    filters: dict[str, str]
    # Directory -> resolves inside the root; memoised so a bulk adoption resolves
    # each directory once, not each file's every path component.
    dirs_inside: dict[str, bool] = field(default_factory=dict)

    @classmethod
    def gather(cls, root: Path, paths: Sequence[str]) -> RepoFacts:
        return cls(
            submodules=tuple(gitio.submodule_paths(root)),
            filters=gitio.check_attr(root, "filter", list(paths)) if paths else {},
        )

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


def check_file(root: Path, path: str, max_bytes: int, facts: RepoFacts | None = None) -> bytes:
    """The bytes of ``path`` if it may be taken into custody."""
    full = root / path
    facts = facts or RepoFacts.gather(root, [path])
    if facts.escapes(root, path):
        raise TargetRefused(
            f"{path}: leads outside the repository through a symlink; bind the real file"
        )
    if not full.is_file():
        raise TargetRefused(f"{path}: no such file in the working tree")
    for sub in facts.submodules:
        if path.startswith(sub + "/"):
            raise TargetRefused(f"{path}: inside submodule {sub}; adopt it in that repository")
    filt = facts.filters.get(path, "unspecified")
    if filt not in ("unspecified", "unset", ""):
        raise TargetRefused(
            f"{path}: stored through the git filter {filt!r} (LFS, git-crypt…); its committed "
            "bytes are not its text — keep custody text out of filters"
        )
    size = full.stat().st_size
    if size > max_bytes:
        raise TargetRefused(
            f"{path}: {size} bytes is over the bound of {max_bytes} ([policy] max_body_bytes "
            "in forest.toml)"
        )
    return full.read_bytes()


def read_section(
    root: Path,
    spec: str | Selector,
    excludes: tuple[str, ...],
    *,
    max_bytes: int,
    facts: RepoFacts | None = None,
) -> SectionText:
    """The section ``spec`` names, as it stands in the working tree."""
    sel = parse_selector(spec) if isinstance(spec, str) else spec
    data = check_file(root, sel.path, max_bytes, facts)
    text = normalise_text(decode_bytes(data, sel.path))
    got = extract(text, sel, excludes)
    return SectionText(
        path=sel.path,
        selector=render(got.selector),
        excludes=excludes,
        text=got.text,
        file_hash=hash_body(text),
        normalisation=NORMALISATION,
        hash_algo=HASH_ALGO,
    )


def read_sections(
    root: Path, specs: Sequence[str], excludes: tuple[str, ...], *, max_bytes: int
) -> list[SectionText]:
    """Many targets with one git call for submodules and one for filters (bulk adoption)."""
    selectors = [parse_selector(s) for s in specs]
    facts = RepoFacts.gather(root, [sel.path for sel in selectors])
    return [
        read_section(root, sel, excludes, max_bytes=max_bytes, facts=facts) for sel in selectors
    ]

"""Reading adoption targets from the working tree: the exact text of each section.

Stores: nothing.
Refuses: every refusal of a file (target_refusals.py, ``TargetRefused``);
paths with ``..``, absolute paths, NUL/control characters (the selector
grammar); content that is not UTF-8 text (naming the byte offset); an
exclusion that matches nothing in any target of one adoption (``ExcludeTally``).
Returns: ``SectionText`` values carrying the exact selected text (normalised,
exclusions removed, never scrubbed), the full selector and the file hash.
Test: tests/custody/test_file_custody.py, tests/custody/test_special_paths.py,
      tests/check/test_parse_once.py
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from forest_files.custody.bindconf import fitting, merged
from forest_files.custody.record import SectionText
from forest_files.custody.target_refusals import RepoFacts, check_file
from forest_files.text.extract import HASH_ALGO, Document, extract
from forest_files.text.normalise import NORMALISATION, decode_bytes
from forest_files.text.selector import Selector, parse_selector, render


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
    matched: frozenset[str] = frozenset(),
) -> list[SectionText]:
    """Many targets with one git call for submodules and one for filters (bulk adoption).

    ``matched``: exclusions already used before the targets were chosen (a heading
    ``--headings`` left out, check/adopt_select.py): not refused for matching
    nothing inside the targets.

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
    return _read_serial(root, specs, excludes, max_bytes, progress, defaults, matched)


def _read_serial(
    root: Path,
    specs: Sequence[str],
    excludes: tuple[str, ...],
    max_bytes: int,
    progress: Callable[[int], None] | None,
    defaults: Callable[[str], tuple[str, ...]] | None = None,
    matched: frozenset[str] = frozenset(),
) -> list[SectionText]:
    from forest_files.kernel.gcpause import gc_paused

    selectors = [parse_selector(s) for s in specs]
    facts = RepoFacts.gather(root, [sel.path for sel in selectors], matched=matched)
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


def read_section_at(
    root: Path,
    spec: str,
    excludes: tuple[str, ...],
    *,
    max_bytes: int,
    docs: dict[str, Document] | None = None,
    facts: RepoFacts | None = None,
) -> tuple[SectionText, tuple[int, int]]:
    """``read_section`` with the section's first and last line (a bulk listing);
    ``docs`` as there; ``facts``: gathered once for every section the listing reads
    (each read gathered its own: four git calls per binding)."""
    sel = parse_selector(spec)
    got = extract(_document(root, sel.path, max_bytes, facts, docs), sel, excludes)
    section = SectionText(
        path=sel.path,
        selector=render(got.selector),
        excludes=excludes,
        text=got.text,
        normalisation=NORMALISATION,
        hash_algo=HASH_ALGO,
    )
    return section, (got.start_line, got.end_line)

"""ADRs as custody sees them (``forest adr list``): each decision record's number,
title, status, and the binding, ground and adoption that hold it.

Which files are ADRs: the globs given, else forest.toml's ``[require]`` rules whose
``when`` names ``status`` or whose glob names ``adr`` or ``decision`` (their
``except`` globs honoured). Status: front matter ``status`` (MADR), else the first
line of a ``Status`` section (Nygard), found with the Markdown outline
(text/markdown.py). "Superseded by": the ADRs the ``superseded by …`` status lines
(or adr-tools' ``Superceded by …``, one line per ``adr new -s``) name, each by its
link's file number, or the number written, else its words; every one, in order.

Stores: nothing. Reads the working tree and the index.
Refuses (``AdrRefused``): a glob the glob syntax cannot honour; no glob given and
no ``[require]`` rule that names ADRs (the line says how to give one: the folder of
the bound numbered Markdown files, else the work tree's ADR folder: adr-tools'
``.adr-dir``, or a folder ADR tools use that holds numbered Markdown files, else
``docs/adr``).
Returns: ``Adr`` values in path order (each adopter as the ledger declares it);
``AdrSet`` (what ``adr log`` filters on).
Test: tests/governance/test_adr.py, tests/doors/test_printed_where_typed.py,
tests/governance/test_adr_adopted_forged.py
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from forest_files.kernel.errors import ForestError
from forest_files.kernel.globs import Glob

if TYPE_CHECKING:
    from forest_files.custody.bindings import Binding
    from forest_files.custody.config import ForestConfig
    from forest_files.custody.repository import Repository
    from forest_files.store.forest import ForestStore
    from forest_files.text.extract import Document
    from forest_files.text.markdown import Heading

_NUMBER = re.compile(r"(?:adr[-_ ]?)?0*(\d{1,6})(?!\d)", re.I)
_TITLE_NUMBER = re.compile(r"^(?:adr[-_ ]?)?0*\d{1,6}[.:)]?\s+", re.I)
_LINK_TARGET = re.compile(r"\]\(([^)\s]+)")
# adr-tools writes "Superceded by" (its own spelling) into the ADR a new one replaces
_SUPERSEDED = re.compile(r"super[sc]eded by", re.I)
_GLOB_MAGIC = re.compile(r"[*?\[\]{}\\]")  # a folder whose name a glob would read otherwise


class AdrRefused(ForestError):
    """``forest adr`` cannot tell which files are ADRs."""


@dataclass(frozen=True)
class AdrSet:
    """The globs that name ADRs, and the ones excepted."""

    globs: tuple[Glob, ...]
    excepted: tuple[Glob, ...] = ()

    def matches(self, path: str) -> bool:
        hit = any(g.match(path) for g in self.globs)
        return hit and not any(g.match(path) for g in self.excepted)


@dataclass(frozen=True)
class Adr:
    path: str
    number: int | None
    title: str
    status: str | None
    bound: bool  # the whole file, or some of its sections
    sections: int  # live bindings of the file's sections (not the whole file)
    selector: str | None  # the whole file's binding
    ground: str | None  # its ground's content id
    adopted_by: str | None  # the claimed signature of the ground's adoption
    adopted_at: str | None
    superseded_by: tuple[str, ...]  # every successor its status names, in order


def adr_set(
    config: ForestConfig,
    given: Sequence[str],
    command: Literal["list", "log"] = "list",
    bound: Callable[[], Sequence[str]] | None = None,
    root: Path | None = None,
) -> AdrSet:
    """The ADR globs: ``given``, else the ``[require]`` rules that name ADRs.

    ``command`` (``list`` or ``log``) is the ``forest adr`` command the refusal's
    route repeats with a glob; ``bound`` gives the bound paths, asked only for that
    route's glob (``adr_glob``, which looks in the work tree at ``root`` when none
    of them is an ADR)."""
    from forest_files.kernel.globs import GlobError, compile_glob

    if given:
        try:
            return AdrSet(tuple(compile_glob(g) for g in given))
        except GlobError as exc:
            raise AdrRefused(f"not a glob forest-files can honour: {exc}") from None
    rules = [
        r
        for r in config.require
        if any(k == "status" for k, _ in r.when)
        or any(w in r.glob.casefold() for w in ("adr", "decision"))
    ]
    if not rules:
        from forest_files.kernel.shellword import forest_text

        glob = adr_glob(bound() if bound is not None else (), root)
        route = forest_text("adr", command, glob)  # pasted where it was typed
        raise AdrRefused(f"no [require] rule names ADRs; give their glob: {route}")
    globs = tuple(r.pattern or compile_glob(r.glob) for r in rules)
    return AdrSet(globs, tuple(p for r in rules for p in r.except_patterns))


def adr_glob(bound: Sequence[str], root: Path | None = None) -> str:
    """The glob of the folder holding the most bound numbered Markdown files (an ADR
    folder as custody knows it: adr-tools' ``doc/adr``); none bound, the folder of the
    work tree at ``root`` that holds ADRs (``adr_folder``); else ``docs/adr/*.md``."""
    from collections import Counter

    folders = Counter(
        folder
        for folder, _, name in (p.rpartition("/") for p in bound)
        if name.endswith(".md") and _NUMBER.match(name) and not _GLOB_MAGIC.search(folder)
    )
    if not folders:
        found = adr_folder(root) if root is not None else None
        return f"{found or 'docs/adr'}/*.md"
    folder = min(folders, key=lambda f: (-folders[f], f))  # most ADRs; ties by name
    return f"{folder}/*.md" if folder else "*.md"


# Where ADR tools keep them, in the order asked: adr-tools' default, then the
# folders MADR, log4brains and the adr tool docs name.
_FOLDERS = ("doc/adr", "docs/adr", "docs/decisions", "doc/architecture/decisions",
            "docs/architecture/decisions", "adr", "decisions")  # fmt: skip


def adr_folder(root: Path) -> str | None:
    """The work tree's ADR folder: the one adr-tools' ``.adr-dir`` names (``adr init
    DIR`` writes it), else the first of ``_FOLDERS`` holding a numbered Markdown file;
    None when there is none. A name with glob characters, ``..`` or an absolute path
    is not taken."""
    try:
        named = (root / ".adr-dir").read_text(encoding="utf-8").strip().rstrip("/")
    except (OSError, UnicodeDecodeError):
        named = ""
    safe = named and not _GLOB_MAGIC.search(named) and ".." not in named.split("/")
    for folder in ((named,) if safe and not named.startswith("/") else ()) + _FOLDERS:
        try:
            names = [p.name for p in (root / folder).iterdir() if p.is_file()]
        except OSError:
            continue
        if any(n.endswith(".md") and _NUMBER.match(n) for n in names):
            return folder
    return None


def list_adrs(repo: Repository, adrs: AdrSet) -> list[Adr]:
    """Every ADR file of the working tree that ``adrs`` names, with its custody."""
    from forest_files.custody.bindings import all_bindings
    from forest_files.custody.content import WorktreeSource

    store = repo.synced()
    by_path: dict[str, list[Binding]] = {}
    for b in all_bindings(store):
        by_path.setdefault(b.path, []).append(b)
    source = WorktreeSource(repo.root, use_stat_cache=False)
    out: list[Adr] = []
    for path in source.paths():
        if not adrs.matches(path):
            continue
        data = source.read(path)
        if data is not None:
            out.append(_adr(store, path, data, by_path.get(path, [])))
    return _proven_adopters(store, out)


def _proven_adopters(store: ForestStore, adrs: list[Adr]) -> list[Adr]:
    """Each ADR's adopter as the ledger declares it: its ground's record row read for all
    of them in one query and believed only where it is the declared record, the ledger
    read once (check/explain.py ``adoptions_of``, custody/adoptions.py)."""
    from dataclasses import replace

    from forest_files.check.explain import adoptions_of

    adopted = adoptions_of(store.conn, [a.ground for a in adrs])
    return [
        a if a.ground is None else replace(a, adopted_by=adopted.get(a.ground, (None,))[0])
        for a in adrs
    ]


def _adr(store: ForestStore, path: str, data: bytes, bindings: list[Binding]) -> Adr:
    number, title, status, superseded = read_adr(path, data)
    shown = next((b for b in bindings if b.selector == b.path), None)
    ground, by, at = _ground(store, shown) if shown is not None else (None, None, None)
    return Adr(
        path=path,
        number=number,
        title=title,
        status=status,
        bound=bool(bindings),
        sections=sum(1 for b in bindings if b is not shown),
        selector=None if shown is None else shown.selector,
        ground=ground,
        adopted_by=by,
        adopted_at=at,
        superseded_by=superseded,
    )


def _ground(store: ForestStore, b: Binding) -> tuple[str | None, str | None, str | None]:
    """(ground content id, claimed signer, time) of a binding's single ground (the
    signer as the index's row says: ``_proven_adopters`` holds it to the ledger)."""
    from forest_files.custody.lookup import chain
    from forest_files.custody.record import ground_body

    head, _ = ground_body(store, b)
    if head is None:
        return None, None, None  # contested or gone: no single ground to name
    cid = store.content_id(head)
    link = next((x for x in chain(store, b) if x.content_id == cid), None)
    if link is None:
        return cid, None, None
    return cid, link.adopted_by or None, link.created_at


def read_adr(path: str, data: bytes) -> tuple[int | None, str, str | None, tuple[str, ...]]:
    """(number, title, status, its successors) of one ADR file's bytes."""
    from forest_files.check.front_matter import front_matter_value
    from forest_files.text.extract import Document
    from forest_files.text.normalise import decode_bytes

    try:
        doc = Document(decode_bytes(data, path))
    except ForestError:
        return _number(path, ""), "", None, ()
    heads = doc.headings()
    top = next((h for h in heads if h.level == 1), heads[0] if heads else None)
    title = top.name or top.text if top is not None else ""
    number = _number(path, title)
    if number is not None:
        title = _TITLE_NUMBER.sub("", title, count=1)
    lines = _status_lines(doc, heads, front_matter_value(path, data, "status"))
    status = lines[0] if lines else None
    return number, title, status, _superseded_by(lines)


def _status_lines(doc: Document, heads: list[Heading], front: str | None) -> list[str]:
    """The status: front matter's (MADR), else a Status section's non-blank lines."""
    if front is not None:
        return [front]
    named = (h for h in heads if (h.name or h.text).strip().casefold() == "status")
    section = next(named, None)
    if section is None:
        return []
    lines = (doc.lines.line(n).strip() for n in range(section.start_line + 1, section.end_line + 1))
    return [x for x in lines if x]


def _number(path: str, title: str) -> int | None:
    """The ADR number: the file name's leading digits, else the title's."""
    name = path.rpartition("/")[2]
    for text in (name, title):
        m = _NUMBER.match(text)
        if m is not None:
            return int(m.group(1))
    return None


def _superseded_by(lines: list[str]) -> tuple[str, ...]:
    """What every ``superseded by …`` status line names (an ADR superseded twice has
    two), in order, each once: an ADR number when its link's file (or its text) gives
    one, else the words after "superseded by"."""
    named: list[str] = []
    for line in lines:
        found = _SUPERSEDED.search(line)
        if found is None:
            continue
        rest = line[found.end() :].strip(" :")
        link = _LINK_TARGET.search(rest)
        target = link.group(1).rpartition("/")[2] if link else rest.lstrip("[")
        m = _NUMBER.match(target)
        successor = str(int(m.group(1))) if m else rest
        if successor and successor not in named:
            named.append(successor)
    return tuple(named)

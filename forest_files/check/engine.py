"""The check engine: bindings + ground + a content source -> findings. Never writes.

Stores: nothing.
Refuses: nothing; every problem is a finding. Kinds (DESIGN.md "Drift"):
``clean`` (the section hashes to current ground), ``drifted`` (it does not),
``missing`` (the bound file is gone), ``unresolved`` (the selector matches
nothing, the file is no longer UTF-8 text, or the bound path holds no regular
file: ``not a regular file (symlink)``, ``(directory)``, ``(fifo)``,
``(submodule)``, the same from every source), ``moved`` (the file is gone or the
selector matches nothing, and the unchanged section stands at exactly one
other place — another file, or another selector of the same file — by section
hash; one search per run, moves.py; an unresolved section that did not move
carries the sections standing where it stood as ``candidates``),
``contested`` (two live successors of the ground, or two bindings of one
path + selector), ``erased-content`` (its ground's body was removed by an
erase that never saw it: erased_ground.py), ``unbound`` (a file or heading
forest.toml's ``[require]`` names that no binding covers; made by coverage.py, never by a binding's
check). A contest no binding reports (contests.py), tracked local state
(localstate.py) and the CI gate's kinds are findings of no binding, of the
same ``Finding`` (every kind: kinds.py). Every kind but ``clean`` fails a
check (the hook only warns of ``unbound``: a draft may be committed).
Returns: ``Finding`` values carrying paths, line ranges and hashes — never
section text.
Test: tests/check/test_check.py, tests/check/test_parse_once.py

Evidence: a verdict comes only from the bytes the check read, or from a cache
this machine computed from such bytes — never from a hash the ledger or the
index records (a forged rebind act could choose it). A whole-file binding
without exclusions is clean when the normalised file hash is ground's (its
section IS the normalised file: no parse); a section binding is located by the
parse cache under the file hash, else parsed — once per content and run, for
every binding of that path at once (``Sections``), so a file holding hundreds of
bound sections costs one parse, not hundreds. In the working tree the file
hash comes from the stat cache when the file's stat is unchanged (no read at
all; statcache.py); in the git index or a commit, from the blob-hash cache
when this machine hashed that blob before (a blob id names its bytes). Those
caches in ``.git/forest`` are the only thing a check writes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING, dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.check.kinds import KINDS
from forest_files.custody.bindings import Binding
from forest_files.custody.content import ContentSource, GitTreeSource, WorktreeSource
from forest_files.custody.erased_ground import erased_by
from forest_files.custody.ground import Ground, ground_map, ground_of
from forest_files.custody.special import not_regular
from forest_files.custody.statcache import ParseCache
from forest_files.kernel.errors import ForestError
from forest_files.kernel.hashing import hash_body
from forest_files.kernel.repopath import under
from forest_files.text.normalise import decode_bytes, normalised_hash

if TYPE_CHECKING:  # annotations only: checks from a binding map never open a store
    from forest_files.store.forest import ForestStore
    from forest_files.text.extract import Document
    from forest_files.text.selector import Selector

# Every kind (check/kinds.py names each once); check_binding makes the first six,
# coverage.py ``unbound``, the rest come from contests.py, localstate.py and the gate.
FINDING_KINDS = tuple(KINDS)


@dataclass(frozen=True)
class Finding:
    kind: str
    path: str
    selector: str
    binding: str
    ground: str | None
    expected_hash: str | None
    actual_hash: str | None = None
    start_line: int | None = None
    end_line: int | None = None
    detail: str = ""
    moved_to: str | None = None  # the full selector where the unchanged section stands
    candidates: tuple[str, ...] = ()  # contest heads; an unresolved section's new places
    candidate_lines: tuple[int, ...] = ()  # the first line of each new place
    act: str | None = None  # the act a ledger finding names (the CI gate's)
    excludes: tuple[str, ...] = ()  # an unbound target's [bind] default exclusions

    @property
    def failed(self) -> bool:
        return self.kind != "clean"


def with_path(selector: str, old_path: str, new_path: str) -> str:
    """``selector`` re-rooted at ``new_path`` (same section spec)."""
    from dataclasses import replace

    from forest_files.text.selector import parse_selector, render

    del old_path  # the selector carries its own path
    return render(replace(parse_selector(selector), path=new_path))


_NEW = object.__new__
_SET = object.__setattr__
_BLOB_BATCH = 1000  # blobs read per ``git cat-file --batch`` (and held at once)


class _NotFound(str):
    """Why a selector matched nothing (its section may have moved or been renamed)."""


Located = tuple[str, int, int]  # (section hash, first line, last line)
Want = tuple[str, tuple[str, ...]]  # a binding's (selector, exclusions)


class Sections:
    """Where each bound section of a content stands, for one check run: this run's
    answer or the parse cache's (by normalised file hash), else found now. A content
    is parsed once, for every binding of its path the run judges (``text.extract.
    sections``), whatever the number of sections it holds; a file in which a selector
    found nothing keeps its parsed ``Document`` for the run's search of moves."""

    def __init__(self, parsed: ParseCache | None, bindings: list[Binding]) -> None:
        self.parsed = parsed
        self._bindings = bindings
        self._wanted: dict[str, dict[Want, None]] | None = None  # grouped on first parse
        self._found: dict[str, dict[Want, Located | str]] = {}
        self.documents: dict[str, tuple[str, Document]] = {}  # path -> (file hash, parsed)

    def get(self, file_hash: str | None, binding: Binding) -> Located | str | None:
        """The section's place in the content hashing to ``file_hash``, when known."""
        if file_hash is None:
            return None
        want = (binding.selector, binding.excludes)
        got = self._found.get(file_hash, {}).get(want)
        if got is None and self.parsed is not None:
            got = self.parsed.get(file_hash, *want)
        return got

    def locate(self, data: bytes, file_hash: str | None, binding: Binding) -> Located | str:
        """(hash, start, end) of the bound section in ``data``, or why it cannot be found;
        every other section the run wants of that path is found by the same parse."""
        want = (binding.selector, binding.excludes)
        if self._wanted is None:  # a clean whole-file check parses nothing: never grouped
            self._wanted = {}
            for b in self._bindings:
                self._wanted.setdefault(b.path, {})[(b.selector, b.excludes)] = None
        wanted = [*self._wanted.get(binding.path, {}), want]
        found, doc = _locate(data, binding.path, wanted)
        if file_hash is not None:
            self._found.setdefault(file_hash, {}).update(found)
            if doc is not None and any(isinstance(v, _NotFound) for v in found.values()):
                self.documents[binding.path] = (file_hash, doc)
        if self.parsed is not None and file_hash is not None:  # for later runs too
            for (selector, excludes), one in found.items():
                if not isinstance(one, str):
                    self.parsed.put(file_hash, selector, excludes, one)
        return found[want]


def _locate(
    data: bytes, path: str, wanted: list[Want]
) -> tuple[dict[Want, Located | str], Document | None]:
    """Each wanted section of ``data`` (read at ``path``), from one parse."""
    from forest_files.text.extract import Document, sections  # only for a changed file
    from forest_files.text.selector import SectionNotFound, parse_selector

    try:
        doc = Document(decode_bytes(data, path))
    except ForestError as exc:
        return {w: str(exc) for w in wanted}, None
    out: dict[Want, Located | str] = {}
    asked: list[tuple[Want, Selector]] = []
    for w in wanted:
        try:
            asked.append((w, parse_selector(w[0])))
        except ForestError as exc:
            out[w] = str(exc)
    got = sections(doc, [(sel, w[1]) for w, sel in asked])
    for w, sel in asked:
        one = got[(sel, w[1])]
        if isinstance(one, SectionNotFound):
            out[w] = _NotFound(one)
        elif isinstance(one, ForestError):
            out[w] = str(one)
        else:
            out[w] = (hash_body(one.text), one.start_line, one.end_line)
    return out, doc


def check_binding(
    store: ForestStore | None,
    binding: Binding,
    source: ContentSource,
    *,
    all_paths: list[str] | None,
    located: Sections | None = None,
    peers: tuple[str, ...] = (),
    grounds: dict[int, Ground] | None = None,
    defer: list[Binding] | None = None,
) -> Finding:
    """The finding of one binding. A section gone from its place (file missing,
    selector matching nothing) is searched for elsewhere (``moved``) at once, or,
    with ``defer``, appended there for the caller's one search of the run."""
    located = Sections(None, [binding]) if located is None else located
    found = _judge(store, binding, source, located=located, peers=peers, grounds=grounds)
    gone = found.kind == "missing" or isinstance(found.detail, _NotFound)
    if not gone or found.expected_hash is None:
        return found
    if defer is not None:
        defer.append(binding)
        return found
    return search_moves(source, [(found, binding)], all_paths, (), located.documents)[0]


def _judge(
    store: ForestStore | None,
    binding: Binding,
    source: ContentSource,
    *,
    located: Sections,
    peers: tuple[str, ...],
    grounds: dict[int, Ground] | None,
) -> Finding:
    if grounds is not None and binding.entry_id in grounds:
        ground, expected, heads = grounds[binding.entry_id]
    elif store is not None:
        ground, expected, heads = ground_of(store, binding)
    else:
        raise ForestError(f"no ground known for {binding.selector}; run `forest sync`")
    base = Finding(
        kind="clean",
        path=binding.path,
        selector=binding.selector,
        binding=binding.bind_act,
        ground=ground,
        expected_hash=expected,
    )
    gone = erased_by(heads)
    if gone is not None and not binding.contested:
        return _erased(base, *gone)
    if binding.contested or heads:
        if binding.contested:
            why = "two bindings of this section: keep one with `forest retire TARGET --binding ID`"
            return _replace(base, kind="contested", candidates=peers, detail=why)
        return _replace(base, kind="contested", candidates=heads, detail="two live successors")
    if expected is None:
        return _replace(base, kind="unresolved", detail="its ground is sealed; unseal or retire")
    cached = source if isinstance(source, (WorktreeSource, GitTreeSource)) else None
    known = cached.known_hash(binding.path) if cached is not None else None
    if _whole_file_clean(binding, known, expected):
        return base
    found = located.get(known, binding)
    if found is None:
        data = source.read(binding.path)
        if data is None:
            kind = source.special(binding.path)
            if kind is not None:
                return _replace(base, kind="unresolved", detail=not_regular(kind))
            variant = source.variant(binding.path)  # a case-only or NFC/NFD rename
            detail = "the bound file is gone" + (f"; {variant}" if variant else "")
            return _replace(base, kind="missing", detail=detail)
        file_hash = normalised_hash(data)
        if cached is not None:
            cached.remember(binding.path, file_hash)
        if _whole_file_clean(binding, file_hash, expected):
            return base
        found = located.get(file_hash, binding)
        if found is None:
            found = located.locate(data, file_hash, binding)
    if isinstance(found, str):
        return _replace(base, kind="unresolved", detail=found)
    actual, start, end = found
    kind = "clean" if actual == expected else "drifted"
    return _replace(base, kind=kind, actual_hash=actual, start_line=start, end_line=end)


def _erased(base: Finding, erase: str, maker: str) -> Finding:
    """Live ground whose body an erase removed (erased_ground.py): no file can be
    compared with it; the text comes out of the file and a new ground is adopted."""
    made = f"act {maker[:12]}" if maker else "no act"
    detail = (
        f"its ground {(base.ground or '')[:12]} (made by {made}) had its body removed by "
        f"erase act {erase[:12]} (forest forget), which never saw that adoption; take the "
        "text out of the file and supersede, or retire the binding"
    )
    return _replace(base, kind="erased-content", detail=detail, act=erase or None)


def _whole_file_clean(binding: Binding, file_hash: str | None, expected: str) -> bool:
    """A whole-file binding without exclusions whose locally computed file hash is
    ground's: its section IS the normalised file, so no parse is needed. (A path
    holding ``#``, ``@`` or ``:`` renders escaped, so its selector differs from its
    path and it takes the parse-cache route instead: slower, never wrong.)"""
    return (
        file_hash is not None
        and file_hash == expected
        and not binding.excludes
        and binding.selector == binding.path
    )


def search_moves(
    source: ContentSource,
    gone: list[tuple[Finding, Binding]],
    candidates: list[str] | None,
    bound: tuple[str, ...],
    documents: dict[str, tuple[str, Document]] | None = None,
) -> list[Finding]:
    """Each gone section's finding, ``moved`` when its unchanged text stands at exactly
    one other place; an unresolved one with no such place lists where a renamed
    section may stand. One index of section hashes for all of them (moves.py):
    candidates are ``candidates`` or the files a hook's staged change names, else
    every file of the source (tracked and untracked in the working tree).
    ``documents``: files the check parsed already (``Sections.documents``), not
    parsed again."""
    from forest_files.check.moves import MoveIndex

    if candidates is None:
        only = getattr(source, "only", ())
        candidates = list(only) if only else source.paths()
    index = MoveIndex(source, candidates, [b for _, b in gone], bound, documents)
    out: list[Finding] = []
    for finding, binding in gone:
        target = index.moved_to(binding, finding.expected_hash or "")
        if target is not None:
            out.append(
                _replace(
                    finding,
                    kind="moved",
                    moved_to=target,
                    detail=f"its unchanged text stands at {target}" + _renamed_how(finding),
                )
            )
            continue
        places = index.renamed(binding) if finding.kind == "unresolved" else ()
        if not places:
            out.append(finding)
            continue
        out.append(
            _replace(
                finding,
                candidates=tuple(p.selector for p in places),
                candidate_lines=tuple(p.line for p in places),
            )
        )
    return out


def _renamed_how(finding: Finding) -> str:
    """The clause of a missing finding that names a case-only or NFC/NFD rename."""
    head, sep, how = finding.detail.partition("; ")
    return f" ({how})" if sep and head == "the bound file is gone" else ""


def _replace(base: Finding, **changes: object) -> Finding:
    return Finding(**{**base.__dict__, **changes})  # dataclasses.replace(), 6x faster


def check_all(
    store: ForestStore | None,
    bindings: list[Binding],
    source: ContentSource,
    *,
    paths: tuple[str, ...] = (),
    grounds: dict[int, Ground] | None = None,
    documents: dict[str, tuple[str, Document]] | None = None,
) -> list[Finding]:
    """Findings for every live binding (or those under ``paths``), in binding order.
    ``grounds`` (from a binding map, bindmap.py) spares the store; without it the
    store answers. ``documents``, when given, receives the files the check parsed
    where a selector found nothing (path -> (file hash, parsed)), so the routes'
    search of rename candidates reads the same parse."""
    chosen = [b for b in bindings if not paths or any(under(b.path, p) for p in paths)]
    deferred: list[Binding] = []
    root = getattr(source, "root", None)
    parsed = ParseCache(root) if isinstance(root, Path) else None
    located = Sections(parsed, chosen)
    worktree = source if isinstance(source, WorktreeSource) else None
    findings: list[Finding] = []
    if grounds is None:
        if store is None:
            raise ForestError("a check needs the store or the ground of every binding")
        grounds = ground_map(store, chosen)
    read: Mapping[str, str] = {}
    if worktree is not None:
        worktree.prefetch_hashes([b.path for b in chosen])
        read = worktree.hashes_read()
    peers = _Peers(bindings)
    prefetch = getattr(source, "prefetch", None)  # a git source: blobs in batches
    for index, binding in enumerate(chosen):
        if prefetch is not None and index % _BLOB_BATCH == 0:
            prefetch([b.path for b in chosen[index : index + _BLOB_BATCH]])
        found = _whole_file_read_clean(binding, grounds.get(binding.entry_id), read)
        if found is None:
            found = check_binding(
                store,
                binding,
                source,
                all_paths=None,
                located=located,
                peers=peers.of(binding) if binding.contested else (),
                grounds=grounds,
                defer=deferred,
            )
        findings.append(found)
    if deferred:  # one search of the run for every section gone from its place
        findings = _with_moves(findings, deferred, source, bindings, located.documents)
    _save_caches(source, parsed)
    if documents is not None:
        documents.update(located.documents)
    return findings


def _save_caches(source: ContentSource, parsed: ParseCache | None) -> None:
    if isinstance(source, (WorktreeSource, GitTreeSource)):
        source.save_cache()
    if parsed is not None:
        parsed.save()


class _Peers:
    """The bind acts of every binding of one path + selector (a contest's candidates),
    grouped on first use: only a contested binding asks."""

    def __init__(self, bindings: list[Binding]) -> None:
        self.bindings = bindings
        self._by: dict[tuple[str, str], list[str]] | None = None

    def of(self, binding: Binding) -> tuple[str, ...]:
        if self._by is None:
            self._by = {}
            for b in self.bindings:
                self._by.setdefault((b.path, b.selector), []).append(b.bind_act)
        return tuple(sorted(self._by[(binding.path, binding.selector)]))


# Finding's fields with their defaults, for ``_whole_file_read_clean``'s plain build.
_FINDING_DEFAULTS = {f.name: f.default for f in fields(Finding) if f.default is not MISSING}


def _whole_file_read_clean(
    binding: Binding, ground: Ground | None, read: Mapping[str, str]
) -> Finding | None:
    """The clean finding ``_judge`` gives a whole-file binding without exclusions of a
    single live, unsealed, unerased ground whose file this run read and hashed to
    ground's hash (``read``: the working tree's ``hashes_read``); None for any other
    binding (``check_binding`` judges it). The same value as ``Finding(kind="clean",
    ...)``, built without the frozen ``__init__``'s per-field ``object.__setattr__``:
    a cold check of 10,000 files builds 10,000."""
    if ground is None or ground[2] or binding.contested or binding.excludes:
        return None
    expected = ground[1]
    if expected is None or read.get(binding.path) != expected or binding.selector != binding.path:
        return None
    found = _NEW(Finding)
    _SET(
        found,
        "__dict__",
        {
            "kind": "clean",
            "path": binding.path,
            "selector": binding.selector,
            "binding": binding.bind_act,
            "ground": ground[0],
            "expected_hash": expected,
            **_FINDING_DEFAULTS,
        },
    )
    return found


def _with_moves(
    findings: list[Finding],
    deferred: list[Binding],
    source: ContentSource,
    bindings: list[Binding],
    documents: dict[str, tuple[str, Document]],
) -> list[Finding]:
    where = {b.bind_act: pos for pos, b in enumerate(deferred)}
    gone = [(f, deferred[where[f.binding]]) for f in findings if f.binding in where]
    bound = tuple(sorted({b.selector for b in bindings if not b.retired}))
    placed = iter(search_moves(source, gone, None, bound, documents))
    return [next(placed) if f.binding in where else f for f in findings]


def parse_target(spec: str) -> Selector:
    from forest_files.text.selector import parse_selector  # not on a clean check

    return parse_selector(spec)

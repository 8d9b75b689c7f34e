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
path + selector), ``unbound`` (a file or heading forest.toml's ``[require]``
names that no binding covers; made by coverage.py, never by a binding's
check). A contest no binding reports (contests.py), tracked local state
(localstate.py) and the CI gate's kinds are findings of no binding, of the
same ``Finding`` (every kind: kinds.py). Every kind but ``clean`` fails a
check (the hook only warns of ``unbound``: a draft may be committed).
Returns: ``Finding`` values carrying paths, line ranges and hashes — never
section text.
Test: tests/test_check.py

Evidence: a verdict comes only from the bytes the check read, or from a cache
this machine computed from such bytes — never from a hash the ledger or the
index records (a forged rebind act could choose it). A whole-file binding
without exclusions is clean when the normalised file hash is ground's (its
section IS the normalised file: no parse); a section binding is located by the
parse cache under the file hash, else parsed. In the working tree the file
hash comes from the stat cache when the file's stat is unchanged (no read at
all; statcache.py); in the git index or a commit, from the blob-hash cache
when this machine hashed that blob before (a blob id names its bytes). Those
caches in ``.forest/cache`` are the only thing a check writes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.check.content import ContentSource, GitTreeSource, WorktreeSource
from forest_files.check.kinds import KINDS
from forest_files.check.statcache import ParseCache
from forest_files.custody.bindings import Binding
from forest_files.custody.special import not_regular
from forest_files.kernel.errors import ForestError
from forest_files.kernel.hashing import hash_body
from forest_files.text.normalise import decode_bytes, normalise_text, normalised_hash
from forest_files.text.selector import Selector, parse_selector

if TYPE_CHECKING:  # annotations only: checks from a binding map never open a store
    from forest_files.store.forest import ForestStore

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

    @property
    def failed(self) -> bool:
        return self.kind != "clean"


def with_path(selector: str, old_path: str, new_path: str) -> str:
    """``selector`` re-rooted at ``new_path`` (same section spec)."""
    from dataclasses import replace

    from forest_files.text.selector import render

    del old_path  # the selector carries its own path
    return render(replace(parse_selector(selector), path=new_path))


Ground = tuple[str | None, str | None, tuple[str, ...]]

# Every live head (adopted, not superseded, not sealed) with its chain, in one
# pass: the per-binding status lookups cost ~7 queries each otherwise.
_HEAD_COLUMNS = """
SELECT DISTINCT COALESCE(e.chain_root, e.id) AS chain, e.content_id AS content_id,
       e.body_hash AS body_hash
FROM edges a
JOIN entries r ON r.id = a.from_id AND r.bucket = 'adoption_record'
JOIN entries e ON e.id = a.to_id
WHERE a.kind = 'adopts'
  AND NOT EXISTS (SELECT 1 FROM edges s WHERE s.to_id = e.id AND s.kind = 'supersedes')
  AND COALESCE((SELECT z.kind FROM edges z
                WHERE z.to_id = e.id AND z.kind IN ('seals', 'unseals')
                ORDER BY z.id DESC LIMIT 1), '') != 'seals'
"""
_LIVE_HEADS = _HEAD_COLUMNS
# The same for a few chains (a hook judging one staged file): by the chain index.
_LIVE_HEADS_OF = _HEAD_COLUMNS + "  AND (e.chain_root IN ({marks}) OR e.id IN ({marks}))"
_FEW_CHAINS = 100
_BLOB_BATCH = 1000  # blobs read per ``git cat-file --batch`` (and held at once)


def ground_map(store: ForestStore, bindings: list[Binding]) -> dict[int, Ground]:
    """Ground of every binding's chain, keyed by the binding's entry id."""
    ids = sorted({b.entry_id for b in bindings})
    chains: dict[int, int] = {}
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        marks = ",".join("?" * len(chunk))
        for row in store.conn.execute(
            f"SELECT id, COALESCE(chain_root, id) FROM entries WHERE id IN ({marks})", chunk
        ):
            chains[int(row[0])] = int(row[1])
    wanted = sorted(set(chains.values()))
    if len(wanted) <= _FEW_CHAINS:
        marks = ",".join("?" * len(wanted))
        rows = store.conn.execute(_LIVE_HEADS_OF.format(marks=marks), [*wanted, *wanted])
    else:
        rows = store.conn.execute(_LIVE_HEADS)
    heads: dict[int, list[tuple[str, str]]] = {}
    for row in rows:
        heads.setdefault(int(row["chain"]), []).append(
            (str(row["content_id"]), str(row["body_hash"]))
        )
    out: dict[int, Ground] = {}
    for entry_id in ids:
        live = sorted(heads.get(chains.get(entry_id, entry_id), []))
        if len(live) > 1:
            out[entry_id] = (None, None, tuple(cid for cid, _ in live))
        elif live:
            out[entry_id] = (live[0][0], live[0][1], ())
        else:
            out[entry_id] = (None, None, ())
    return out


def _ground(store: ForestStore, binding: Binding) -> Ground:
    """(ground content id, ground body hash, contest candidates)."""
    heads = store.contest_heads(binding.entry_id)
    if len(heads) > 1:
        return None, None, tuple(store.content_id(h) for h in heads)
    if not heads:
        return None, None, ()
    row = store._require(heads[0], "check")
    return store.content_id(heads[0]), str(row["body_hash"]), ()


class _NotFound(str):
    """Why a selector matched nothing (its section may have moved or been renamed)."""


def _section(data: bytes, binding: Binding, selector: str) -> tuple[str, int, int] | str:
    """(hash, start, end) of the bound section in ``data``, or why it cannot be found."""
    from forest_files.text.selector import SectionNotFound

    try:
        text = normalise_text(decode_bytes(data, binding.path))
        from forest_files.text.extract import extract  # only for a changed file

        got = extract(text, parse_selector(selector), binding.excludes)
    except SectionNotFound as exc:
        return _NotFound(exc)
    except ForestError as exc:
        return str(exc)
    return hash_body(got.text), got.start_line, got.end_line


def check_binding(
    store: ForestStore | None,
    binding: Binding,
    source: ContentSource,
    *,
    all_paths: list[str] | None,
    parsed: ParseCache | None = None,
    peers: tuple[str, ...] = (),
    grounds: dict[int, Ground] | None = None,
    defer: list[Binding] | None = None,
) -> Finding:
    """The finding of one binding. A section gone from its place (file missing,
    selector matching nothing) is searched for elsewhere (``moved``) at once, or,
    with ``defer``, appended there for the caller's one search of the run."""
    found = _judge(store, binding, source, parsed=parsed, peers=peers, grounds=grounds)
    gone = found.kind == "missing" or isinstance(found.detail, _NotFound)
    if not gone or found.expected_hash is None:
        return found
    if defer is not None:
        defer.append(binding)
        return found
    return search_moves(source, [(found, binding)], all_paths, ())[0]


def _judge(
    store: ForestStore | None,
    binding: Binding,
    source: ContentSource,
    *,
    parsed: ParseCache | None,
    peers: tuple[str, ...],
    grounds: dict[int, Ground] | None,
) -> Finding:
    if grounds is not None and binding.entry_id in grounds:
        ground, expected, heads = grounds[binding.entry_id]
    elif store is not None:
        ground, expected, heads = _ground(store, binding)
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
    found: tuple[str, int, int] | str | None = _cached(parsed, known, binding)
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
        found = _cached(parsed, file_hash, binding)
        if found is None:
            found = _section(data, binding, binding.selector)
            if parsed is not None and file_hash is not None and not isinstance(found, str):
                parsed.put(file_hash, binding.selector, binding.excludes, found)
    if isinstance(found, str):
        return _replace(base, kind="unresolved", detail=found)
    actual, start, end = found
    kind = "clean" if actual == expected else "drifted"
    return _replace(base, kind=kind, actual_hash=actual, start_line=start, end_line=end)


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


def _cached(
    parsed: ParseCache | None, file_hash: str | None, binding: Binding
) -> tuple[str, int, int] | None:
    if parsed is None or file_hash is None:
        return None
    return parsed.get(file_hash, binding.selector, binding.excludes)


def search_moves(
    source: ContentSource,
    gone: list[tuple[Finding, Binding]],
    candidates: list[str] | None,
    bound: tuple[str, ...],
) -> list[Finding]:
    """Each gone section's finding, ``moved`` when its unchanged text stands at exactly
    one other place; an unresolved one with no such place lists where a renamed
    section may stand. One index of section hashes for all of them (moves.py):
    candidates are ``candidates`` or the files a hook's staged change names, else
    every file of the source (tracked and untracked in the working tree)."""
    from forest_files.check.moves import MoveIndex

    if candidates is None:
        only = getattr(source, "only", ())
        candidates = list(only) if only else source.paths()
    index = MoveIndex(source, candidates, [b for _, b in gone], bound)
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
) -> list[Finding]:
    """Findings for every live binding (or those under ``paths``), in binding order.
    ``grounds`` (from a binding map, bindmap.py) spares the store; without it the
    store answers."""
    chosen = [b for b in bindings if not paths or any(under(b.path, p) for p in paths)]
    deferred: list[Binding] = []
    root = getattr(source, "root", None)
    parsed = ParseCache(root) if isinstance(root, Path) else None
    worktree = source if isinstance(source, WorktreeSource) else None
    findings: list[Finding] = []
    if grounds is None:
        if store is None:
            raise ForestError("a check needs the store or the ground of every binding")
        grounds = ground_map(store, chosen)
    if worktree is not None:
        worktree.prefetch_hashes([b.path for b in chosen])
    peers: dict[tuple[str, str], list[str]] = {}
    for b in bindings:
        peers.setdefault((b.path, b.selector), []).append(b.bind_act)
    prefetch = getattr(source, "prefetch", None)  # a git source: blobs in batches
    for index, binding in enumerate(chosen):
        if prefetch is not None and index % _BLOB_BATCH == 0:
            prefetch([b.path for b in chosen[index : index + _BLOB_BATCH]])
        found = check_binding(
            store,
            binding,
            source,
            all_paths=None,
            parsed=parsed,
            peers=tuple(sorted(peers[(binding.path, binding.selector)])),
            grounds=grounds,
            defer=deferred,
        )
        findings.append(found)
    if deferred:  # one search of the run for every section gone from its place
        findings = _with_moves(findings, deferred, source, bindings)
    if isinstance(source, (WorktreeSource, GitTreeSource)):
        source.save_cache()
    if parsed is not None:
        parsed.save()
    return findings


def _with_moves(
    findings: list[Finding], deferred: list[Binding], source: ContentSource, bindings: list[Binding]
) -> list[Finding]:
    where = {b.bind_act: pos for pos, b in enumerate(deferred)}
    gone = [(f, deferred[where[f.binding]]) for f in findings if f.binding in where]
    bound = tuple(sorted({b.selector for b in bindings if not b.retired}))
    placed = iter(search_moves(source, gone, None, bound))
    return [next(placed) if f.binding in where else f for f in findings]


def under(path: str, prefix: str) -> bool:
    """``path`` is ``prefix`` or lies under it (``.`` and "" hold everything)."""
    prefix = prefix.rstrip("/")
    return path == prefix or path.startswith(prefix + "/") or prefix in ("", ".")


def parse_target(spec: str) -> Selector:
    return parse_selector(spec)

"""The ledger, forest.toml and ground of one content source: the working tree,
the git index (what is staged) or any commit (its rooms: what a source is and what
git holds there in ``source_entries.py``, forest.toml at a source in
``source_config.py``; their names are imported from here, as before).

A source is ``"worktree"``, ``"index"`` or any other string, read as a
commit-ish (``"HEAD"``, a branch, a commit id; spell a branch literally named
``index`` or ``worktree`` as ``refs/heads/…``).

Stores: nothing in the repository. ``ground_from`` replays into a throwaway
index in a temporary directory; the working tree's ``.git/forest/woods.db`` is
never opened.
Refuses: a damaged or forged ledger (``LedgerError``, as replay and
``read_ledger`` would); a symlink or submodule among a git source's ledger entries
(``LinkedEntry``, code ``stray``, naming its path; a lenient read, ``strict=False``,
skips it instead: its target is never read either way; a link a commit carried is
said with its removal, custody/ledger_links.py); a body whose bytes do not
hash to its name (``LedgerError``, code ``body-hash``); a conflicted (unmerged) ledger file or
forest.toml in the git index; a missing or invalid forest.toml
(``ConfigError``); a revision that names no commit (``UnknownRef``).
Returns: ``(LedgerSnapshot, BodyReader)``; ``ForestConfig``; ``GroundView``.
Test: tests/ledger/test_ledger_sources.py
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from forest_files import gitio
from forest_files.custody.apply_bodies import HashedBodies
from forest_files.custody.replay import BodyReader, replay
from forest_files.custody.source_config import SourceConfig as SourceConfig
from forest_files.custody.source_config import config_from as config_from
from forest_files.custody.source_config import config_text_from as config_text_from
from forest_files.custody.source_config import config_texts_at as config_texts_at
from forest_files.custody.source_config import source_config as source_config
from forest_files.custody.source_entries import INDEX as INDEX
from forest_files.custody.source_entries import WORKTREE as WORKTREE
from forest_files.custody.source_entries import LedgerSource as LedgerSource
from forest_files.custody.source_entries import git_entries
from forest_files.custody.views import GroundEntry, list_view
from forest_files.gitio import TreeEntry
from forest_files.kernel.paths import LEDGER_PREFIX as LEDGER_PREFIX
from forest_files.kernel.shellword import shell_word
from forest_files.ledger.acts import Act, LedgerError, is_hex64
from forest_files.ledger.segment_files import SEGMENT_SUFFIX
from forest_files.ledger.segments import (
    BODIES_DIR,
    BODY_SUFFIX,
    SEGMENTS_DIR,
    LedgerSnapshot,
    parse_segment,
    read_body,
    read_ledger,
    read_segment_bytes,
)
from forest_files.store.forest import ForestStore


@dataclass(frozen=True)
class GroundView:
    """Current ground and contested entries of one source's ledger, by content id."""

    ground: tuple[GroundEntry, ...]
    contested: tuple[GroundEntry, ...]


@dataclass(frozen=True)
class LedgerBlobs:
    """The ledger files of a git source: segment file name → blob id, body hash → blob id."""

    segments: Mapping[str, str]
    bodies: Mapping[str, str]


def ledger_blobs(
    repo_root: Path | str,
    source: LedgerSource,
    *,
    keep_index_file: bool = False,
    with_bodies: bool = True,
    refuse_links: bool = True,
) -> LedgerBlobs:
    """Where the segments and bodies of ``source`` (the git index or a commit) are
    (``with_bodies=False``: the segments only, bodies not even listed, but in the
    staged ledger read strictly, where they are listed and skipped;
    ``refuse_links=False``: a symlink or submodule is skipped, for a reader whose
    faults ``verify`` reports, as the gate's judge of a range does)."""
    root = Path(repo_root)
    segments: dict[str, str] = {}
    bodies: dict[str, str] = {}
    # No trailing slash on the segments: a ``segments`` that is a symlink is listed too.
    # The staged ledger read strictly (the pre-commit hook's) is listed whole, its bodies
    # not parsed: a link at its root or in a stray folder is refused as a full read does.
    whole = with_bodies or (refuse_links and source == INDEX)
    prefix = LEDGER_PREFIX if whole else f"{LEDGER_PREFIX}{SEGMENTS_DIR}"
    for entry in git_entries(root, source, prefix, keep_index_file=keep_index_file):
        if entry.type != "blob" or entry.mode == "120000":
            if not refuse_links:
                continue  # never read: a stray verify names
            raise _linked(root, entry, keep_index_file)  # never a missing ledger file
        # Plain string work: a ledger of 10,000 bodies lists 10,000 entries here.
        parts = entry.path.removeprefix(LEDGER_PREFIX).split("/")
        if len(parts) == 2 and parts[0] == SEGMENTS_DIR and parts[1].endswith(SEGMENT_SUFFIX):
            segments[parts[1]] = entry.blob
        elif len(parts) == 3 and parts[0] == BODIES_DIR and parts[2].endswith(BODY_SUFFIX):
            stem = parts[2].removesuffix(BODY_SUFFIX)
            if with_bodies and is_hex64(stem) and parts[1] == stem[:2]:
                bodies[stem] = entry.blob
    return LedgerBlobs(MappingProxyType(segments), MappingProxyType(bodies))


class LinkedEntry(LedgerError):
    """A symlink or submodule at ``path`` among a git source's ledger entries (the CI
    gate routes it by its path, ``said`` without the advice: gate/linked.py)."""

    def __init__(self, reason: str, *, path: str, what: str) -> None:
        super().__init__(reason, code="stray")
        self.path = path
        self.said = f"{path} is {what} in the ledger, which holds only regular files"


def _linked(root: Path, entry: TreeEntry, keep_index_file: bool) -> LedgerError:
    """A symlink or submodule among a git source's ledger entries: refused, so custody
    never silently shrinks to what is left (verify names it as a stray too). A link
    git's index and the work tree hold (a commit carried it) is said with verify's
    removal (ledger_links.py): there is no ledger file to restore."""
    from forest_files.custody.ledger_links import link_removal, linked_said

    what = "a submodule" if entry.type == "commit" else "a symlink"
    route = link_removal(root, entry.path, keep_index_file=keep_index_file)
    if route is not None:
        return LinkedEntry(linked_said(route, entry.path), path=entry.path, what=what)
    path = shell_word(entry.path)
    return LinkedEntry(
        f"{entry.path} is {what} in the ledger, which holds only regular files: remove it "
        f"(git rm -q --cached -r -- {path}) and restore the ledger's file "
        f"(git log -- {path} lists the commits that touched it)",
        path=entry.path,
        what=what,
    )


def snapshot_of(segments: Mapping[str, bytes], *, strict: bool = True) -> LedgerSnapshot:
    """A snapshot of segment bytes by file name, deduplicated by act id as
    ``read_ledger`` does. ``strict=False`` keeps the acts of the lines that
    decode and skips the faults (``verify`` is the one that reports them)."""
    acts: dict[str, Act] = {}
    found_in: dict[str, list[str]] = {}
    names: list[str] = []
    for file_name in sorted(segments):
        name = file_name.removesuffix(SEGMENT_SUFFIX)
        names.append(name)
        data = segments[file_name]
        if strict:
            decoded = read_segment_bytes(data, file_name)
        else:
            decoded = [act for _, act in parse_segment(data, file_name)[0]]
        for act in decoded:
            acts.setdefault(act.id, act)
            holders = found_in.setdefault(act.id, [])
            if name not in holders[-1:]:
                holders.append(name)
    return LedgerSnapshot(
        acts=MappingProxyType(acts),
        found_in=MappingProxyType({k: tuple(v) for k, v in found_in.items()}),
        segments=tuple(names),
    )


def segments_at(
    repo_root: Path | str,
    source: LedgerSource,
    *,
    keep_index_file: bool = False,
    strict: bool = True,
) -> LedgerSnapshot:
    """The acts of ``source``'s segments (the git index or a commit), in one listing
    and one batch read; bodies are neither listed nor read. ``strict`` as for
    ``snapshot_of``; not strict, a symlink among the segments is skipped too."""
    by_name = segment_bytes_at(
        repo_root, source, keep_index_file=keep_index_file, refuse_links=strict
    )
    return snapshot_of(by_name, strict=strict)


def segment_bytes_at(
    repo_root: Path | str,
    source: LedgerSource,
    *,
    keep_index_file: bool = False,
    refuse_links: bool = True,
) -> dict[str, bytes]:
    """The bytes of ``source``'s segments by file name, undecoded (one listing, one
    batch read; bodies neither listed nor read; ``refuse_links`` as for ``ledger_blobs``)."""
    root = Path(repo_root)
    where = ledger_blobs(
        root, source, keep_index_file=keep_index_file, with_bodies=False,
        refuse_links=refuse_links,
    )  # fmt: skip
    data = gitio.cat_blobs(root, where.segments.values())
    return {name: data[blob] for name, blob in where.segments.items()}


def body_reader(blobs: Mapping[str, bytes]) -> BodyReader:
    """A reader of body bytes already read (by body hash), checking each hash
    (custody/apply_bodies.py: the applier does not hash its text again)."""
    return HashedBodies(blobs)


def read_ledger_from(
    repo_root: Path | str, source: LedgerSource, *, keep_index_file: bool = False
) -> tuple[LedgerSnapshot, BodyReader]:
    """The ledger of ``source`` and a reader of its bodies (None: absent or erased).

    Git sources are read with one ``git cat-file --batch`` for every file.
    ``keep_index_file=True`` (from a hook) reads the index GIT_INDEX_FILE names.
    """
    root = Path(repo_root)
    if source == WORKTREE:
        ledger_dir = root / LEDGER_PREFIX.rstrip("/")
        return read_ledger(ledger_dir), lambda h: read_body(ledger_dir, h)
    where = ledger_blobs(root, source, keep_index_file=keep_index_file)
    data = gitio.cat_blobs(root, [*where.segments.values(), *where.bodies.values()])
    snapshot = snapshot_of({name: data[blob] for name, blob in where.segments.items()})
    return snapshot, HashedBodies({h: data[blob] for h, blob in where.bodies.items()})


def ground_from(
    repo_root: Path | str, source: LedgerSource, *, keep_index_file: bool = False
) -> GroundView:
    """Current ground of ``source``'s own ledger, replayed into a throwaway index."""
    cfg = config_from(repo_root, source, keep_index_file=keep_index_file)
    snapshot, reader = read_ledger_from(repo_root, source, keep_index_file=keep_index_file)
    with tempfile.TemporaryDirectory(prefix="forest-ground-") as tmp:
        store = ForestStore(Path(tmp) / "ground.db")
        try:
            store.init_schema()
            store.drop_text_index()  # a throwaway replay, never searched
            store.ensure_anchor(cfg.project_id)
            replay(store, snapshot.ordered(), reader, known=snapshot.acts)
            return GroundView(
                ground=tuple(list_view(store, "current_ground")),
                contested=tuple(list_view(store, "contested_entries")),
            )
        finally:
            store.close()

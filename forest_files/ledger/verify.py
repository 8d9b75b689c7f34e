"""Check a whole ledger (a directory, or a git tree's files) and report every fault.

Stores: nothing (read-only).
Refuses: nothing; faults are returned. Codes: noncanonical, id-mismatch,
bad-version, truncated, segment-name, duplicate-act (one act twice in a
segment), dangling-dep, body-missing, body-hash,
malformed, unknown-field (a field this reader does not know), scope, stray. A
referenced body may be absent only if an "erase" act names it in its
top-level "body_hash". ``stray``: any file or directory under the ledger that
is no well-formed segment or body (see ``strays``: a temp file left by an older
version's interrupted write, a forged file, an empty prefix directory), with
its repository path and a removal command (``fix``, from the repository root;
the door prints it from where the user stands; on disk, a stray git tracks is
removed from the index too: ``fix_then`` a second step for a directory). Details
carry ids, hashes and paths only, never text.
Returns: a ``VerifyReport``; ``removal_of_all``: one ``rm --`` per batch of the
stray files, naming each exactly (never a pattern, never a directory).
Test: tests/ledger/test_ledger_codec.py, tests/ledger/test_ledger_strays.py
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection, Container, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from forest_files.kernel.paths import LEDGER_PREFIX
from forest_files.kernel.progress import tracked
from forest_files.kernel.shellword import ARGV_BATCH, in_batches
from forest_files.ledger.acts import Act, LedgerError, body_hashes, is_hex64
from forest_files.ledger.fault import body_unhashed
from forest_files.ledger.segment_files import SEGMENT_SUFFIX, body_paths, segment_paths
from forest_files.ledger.segments import BODIES_DIR, BODY_SUFFIX, SEGMENTS_DIR, parse_segment
from forest_files.ledger.strays import Stray, steps_line, strays_gone, strays_on_disk

FAULT_CODES = frozenset(
    {
        "noncanonical",
        "id-mismatch",
        "bad-version",
        "truncated",
        "segment-name",
        "duplicate-act",
        "dangling-dep",
        "body-missing",
        "body-hash",
        "malformed",
        "unknown-field",
        "scope",
        "stray",
    }
)


@dataclass(frozen=True)
class Fault:
    code: str
    segment: str | None
    line: int | None
    act_id: str | None
    detail: str
    path: str | None = None  # relative to the repository root, when one file is at fault
    fix: str | None = None  # a shell command that removes the fault (strays)
    fix_argv: tuple[str, ...] = ()  # the same command as its words (its first, with:)
    fix_then: tuple[str, ...] = ()  # a second (a directory git tracks: ``rm -r`` after)
    dep: str | None = None  # dangling-dep: the act depended on that the ledger lacks
    commit: str | None = None  # the CI gate's growth faults: the commit that changed the file
    parent: str | None = None  # ... against this parent, which holds the file as it was
    deps: tuple[str, ...] = ()  # dangling-dep: every act depended on the ledger lacks
    cause: str | None = None  # what is known of why: UNNAMED, fault.CRLF_CHECKOUT
    body: str | None = None  # body-hash: the body hash the file is named by

    def fix_steps(self) -> tuple[tuple[str, ...], ...]:
        """The commands of ``fix`` as words, in order."""
        return tuple(step for step in (self.fix_argv, self.fix_then) if step)

    def missing(self) -> tuple[str, ...]:
        """A dangling-dep's missing acts (``deps``, else ``dep`` alone)."""
        return self.deps or ((self.dep,) if self.dep else ())


@dataclass(frozen=True)
class VerifyReport:
    faults: tuple[Fault, ...]
    segments: int
    acts: int

    @property
    def ok(self) -> bool:
        return not self.faults

    def codes(self) -> set[str]:
        return {f.code for f in self.faults}


def _from_error(exc: LedgerError) -> Fault:
    code = exc.code if exc.code in FAULT_CODES else "malformed"
    return Fault(
        code, exc.segment, exc.line, exc.act_id, exc.reason, cause=exc.cause, body=exc.body
    )


@dataclass
class _Found:
    act: Act
    segment: str
    line: int


BodyFiles = Mapping[str, Callable[[], bytes]]  # "ab/<hash>.txt" -> its bytes, read on demand


def _read_segments(
    segments: Sequence[tuple[str, bytes]], faults: list[Fault]
) -> tuple[dict[str, _Found], int]:
    found: dict[str, _Found] = {}
    for file_name, data in tracked(segments, "verifying segments", len(segments)):
        name = file_name.removesuffix(SEGMENT_SUFFIX)
        acts, errors = parse_segment(data, file_name)
        faults.extend(_from_error(e) for e in errors)
        for lineno, act in acts:
            found.setdefault(act.id, _Found(act, name, lineno))
    return found, len(segments)


def _check_deps(found: dict[str, _Found], faults: list[Fault]) -> None:
    """One fault per act, however many of its deps the ledger lacks (a hostile act may
    name thousands): ``dep`` the first, ``deps`` all of them."""
    for act_id, where in found.items():
        missing = tuple(d for d in where.act.deps if d not in found)
        if not missing:
            continue
        if len(missing) == 1:
            detail = f"act {act_id} depends on {missing[0]}, which is not in the ledger"
        else:
            detail = (
                f"act {act_id} depends on {len(missing)} acts that are not in the ledger, "
                f"the first {missing[0]}"
            )
        faults.append(
            Fault(
                "dangling-dep",
                where.segment,
                where.line,
                act_id,
                detail,
                dep=missing[0],
                deps=missing,
            )
        )


def _body_rel(body_hash: str) -> str:
    return f"{body_hash[:2]}/{body_hash}{BODY_SUFFIX}"


def _check_body_refs(bodies: BodyFiles, found: dict[str, _Found], faults: list[Fault]) -> set[str]:
    """A fault for each body an act names that is neither there nor erased; returns
    every body hash the acts name (``_unnamed_bodies`` asks no act again)."""
    erased = {str(w.act.fields["body_hash"]) for w in found.values() if w.act.kind == "erase"}
    named: set[str] = set()
    for act_id, where in found.items():
        # The typed payload names its bodies; its parser already checked each hash.
        refs = body_hashes(where.act)
        named |= refs
        for ref in sorted(refs):
            if ref not in erased and _body_rel(ref) not in bodies:
                detail = f"body {ref} of act {act_id} is missing and no erase act records it"
                missing = f"{LEDGER_PREFIX}{BODIES_DIR}/{_body_rel(ref)}"  # the file to restore
                faults.append(
                    Fault("body-missing", where.segment, where.line, act_id, detail, path=missing)
                )
    return named


def _stray_fault(
    stray: Stray, tool: str, cause: str | None = None, indexed: Collection[str] = ()
) -> Fault:
    detail = f"{stray.path()}: {stray.why}"
    steps = stray.removal_steps(tool, indexed)
    argv, then = steps[0], (steps[1] if len(steps) > 1 else ())
    fix = steps_line(steps)
    return Fault(
        "stray", None, None, None, detail, path=stray.path(), fix=fix, fix_argv=argv,
        fix_then=then, cause=cause,
    )  # fmt: skip


# A body file that does not hash to its name, said without git: a door that finds a
# rule converting the body's path says the rule and its fix in its place
# (custody/ledger_conversion.py ``checkout_faults``, gate/head_faults.py).
EDITED = " (edited?)"

# The cause of a stray body file no act names (the CI gate withholds its ``git rm``
# while a deleted segment, which may name it, is to be put back: gate/ci.py).
UNNAMED = "unnamed-body"
UNNAMED_BODY = (
    "no act names this body: text nobody adopted, left by an interrupted adoption "
    "(or the body of a deleted segment: restore that segment from git instead)"
)


def _check_body_files(bodies: BodyFiles, faults: list[Fault], tool: str) -> None:
    for rel in tracked(sorted(bodies), "verifying bodies", len(bodies)):
        name = rel.rpartition("/")[2]
        stem = name.removesuffix(BODY_SUFFIX)
        if not (name.endswith(BODY_SUFFIX) and is_hex64(stem) and rel == _body_rel(stem)):
            stray = Stray(f"{BODIES_DIR}/{rel}", False, "not a body file")
            faults.append(_stray_fault(stray, tool))
        elif hashlib.sha256(bodies[rel]()).hexdigest() != stem:
            detail = f"{body_unhashed(stem)}{EDITED}"
            where = f"{LEDGER_PREFIX}{BODIES_DIR}/{rel}"
            faults.append(Fault("body-hash", None, None, None, detail, path=where, body=stem))


def _unnamed_bodies(
    bodies: BodyFiles, named: Container[str], tool: str, tracked: Container[str]
) -> list[Fault]:
    """Body files no act cites, judged only in an otherwise sound ledger, and not
    those in ``tracked`` (on disk: the bodies git tracks, whose deleted segment git
    restores; removing them would lose it). Such a body holds text nobody adopted
    (a bulk adoption killed before its segment), and committed it would travel to
    every clone: a stray, removed like one. ``named``: every body hash an act names."""
    return [
        _stray_fault(Stray(f"{BODIES_DIR}/{rel}", False, UNNAMED_BODY), tool, UNNAMED)
        for rel in sorted(bodies)
        if rel.rpartition("/")[2].removesuffix(BODY_SUFFIX) not in named and rel not in tracked
    ]


def verify_contents(
    segments: Sequence[tuple[str, bytes]],
    bodies: BodyFiles,
    strays: Iterable[Stray] = (),
    *,
    tool: str = "git rm",
    tracked: Container[str] = (),
    indexed: Collection[str] = (),
) -> VerifyReport:
    """Every fault of a ledger given as its segment files (name, bytes), its body
    files (path under ``bodies/`` -> reader) and its strays: from a directory or a
    git tree alike. ``tool`` removes a stray: ``git rm`` for a tree, ``rm`` on disk,
    where a stray the index holds (``indexed``) is ``git rm``ed (``Stray.removal_steps``)."""
    faults: list[Fault] = [_stray_fault(s, tool, indexed=indexed) for s in strays]
    found, segment_count = _read_segments(segments, faults)
    _check_deps(found, faults)
    named = _check_body_refs(bodies, found, faults)
    _check_body_files(bodies, faults, tool)
    if not faults:
        faults += _unnamed_bodies(bodies, named, tool, tracked)
    faults.sort(key=lambda f: (f.segment or "", f.line or 0, f.code, f.act_id or "", f.detail))
    return VerifyReport(faults=tuple(faults), segments=segment_count, acts=len(found))


REMOVAL_BATCH = ARGV_BATCH  # names per ``rm`` step of ``removal_of_all``


def removal_of_all(faults: Iterable[Fault]) -> tuple[tuple[str, ...], ...]:
    """``rm -- FILE…`` for every stray that one file's ``rm --`` removes (an unnamed
    body, a temp file of an older version), in batches of ``REMOVAL_BATCH``: each
    file named exactly, as its own fix names it; none when fewer than two."""
    files = [
        f.fix_argv[2]
        for f in faults
        if f.code == "stray" and len(f.fix_argv) == 3 and f.fix_argv[:2] == ("rm", "--")
    ]
    if len(files) < 2:
        return ()
    return in_batches(("rm", "--"), files)


def verify_ledger(ledger_dir: Path, *, indexed: Mapping[str, bool] | None = None) -> VerifyReport:
    """Every fault of the ledger at ``ledger_dir``, in a stable order; its strays
    named by their path under ``.forest/ledger/``, to be removed with ``rm``, or
    ``git rm`` when git's index holds them (one the index holds that is gone from the
    disk too: ``strays_gone``). ``indexed``: the paths under the ledger the index
    holds, each with whether it is a regular file; a body file among them is never
    called unnamed here (its segment, if deleted, is git's to restore)."""
    indexed = indexed or {}
    body_dir = f"{BODIES_DIR}/"
    tracked = {p.removeprefix(body_dir) for p in indexed if p.startswith(body_dir)}
    ledger_dir = Path(ledger_dir)
    strays = strays_on_disk(ledger_dir)
    strays += strays_gone(ledger_dir, indexed, strays)
    stray_paths = {s.rel for s in strays}  # each reported once, as a stray, and not read
    segments = [
        (p.name, p.read_bytes())
        for p in segment_paths(ledger_dir)
        if f"{SEGMENTS_DIR}/{p.name}" not in stray_paths
    ]
    bodies: dict[str, Callable[[], bytes]] = {
        rel: path.read_bytes
        for rel, path in body_paths(ledger_dir)
        if f"{BODIES_DIR}/{rel}" not in stray_paths
    }
    return verify_contents(segments, bodies, strays, tool="rm", tracked=tracked, indexed=indexed)

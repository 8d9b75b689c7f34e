"""Check a whole ledger directory and report every fault, not just the first.

Stores: nothing (read-only).
Refuses: nothing; faults are returned. Codes: noncanonical, id-mismatch,
bad-version, truncated, segment-name, dangling-dep, body-missing, body-hash,
malformed. A referenced body may be absent only if an "erase" act names it in
its top-level "body_hash". Details carry ids and hashes only, never text.
Returns: a ``VerifyReport``.
Test: tests/test_ledger_codec.py
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from forest_files.ledger.acts import Act, LedgerError, is_hex64, iter_body_hash_values
from forest_files.ledger.segments import (
    BODIES_DIR,
    BODY_SUFFIX,
    SEGMENT_SUFFIX,
    body_path,
    parse_segment,
    segment_paths,
)

FAULT_CODES = frozenset(
    {
        "noncanonical",
        "id-mismatch",
        "bad-version",
        "truncated",
        "segment-name",
        "dangling-dep",
        "body-missing",
        "body-hash",
        "malformed",
    }
)


@dataclass(frozen=True)
class Fault:
    code: str
    segment: str | None
    line: int | None
    act_id: str | None
    detail: str


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
    return Fault(code, exc.segment, exc.line, exc.act_id, exc.reason)


@dataclass
class _Found:
    act: Act
    segment: str
    line: int


def _read_segments(ledger_dir: Path, faults: list[Fault]) -> tuple[dict[str, _Found], int]:
    found: dict[str, _Found] = {}
    paths = segment_paths(ledger_dir)
    for path in paths:
        name = path.name.removesuffix(SEGMENT_SUFFIX)
        acts, errors = parse_segment(path.read_bytes(), path.name)
        faults.extend(_from_error(e) for e in errors)
        for lineno, act in acts:
            found.setdefault(act.id, _Found(act, name, lineno))
    return found, len(paths)


def _check_deps(found: dict[str, _Found], faults: list[Fault]) -> None:
    for act_id, where in found.items():
        for dep in where.act.deps:
            if dep not in found:
                detail = f"act {act_id} depends on {dep}, which is not in the ledger"
                faults.append(Fault("dangling-dep", where.segment, where.line, act_id, detail))


def _check_body_refs(ledger_dir: Path, found: dict[str, _Found], faults: list[Fault]) -> None:
    erase_targets = [w.act.fields.get("body_hash") for w in found.values() if w.act.kind == "erase"]
    erased = {h for h in erase_targets if isinstance(h, str)}
    for act_id, where in found.items():
        # None means "no body"; anything else must be a hash before it becomes a path.
        refs = [r for r in iter_body_hash_values(where.act.fields) if r is not None]
        good = sorted({r for r in refs if is_hex64(r)})
        if not all(is_hex64(r) for r in refs):
            detail = f"act {act_id} has a body_hash that is not 64 lowercase hex digits"
            faults.append(Fault("malformed", where.segment, where.line, act_id, detail))
        for ref in good:
            if ref not in erased and not body_path(ledger_dir, ref).is_file():
                detail = f"body {ref} of act {act_id} is missing and no erase act records it"
                faults.append(Fault("body-missing", where.segment, where.line, act_id, detail))


def _check_body_files(ledger_dir: Path, faults: list[Fault]) -> None:
    root = Path(ledger_dir) / BODIES_DIR
    if not root.is_dir():
        return
    for path in sorted(root.rglob("*")):
        if not path.is_file() or path.name.startswith(".tmp-"):
            continue  # directories, or the temp file of an interrupted write
        rel = path.relative_to(root).as_posix()
        stem = path.name.removesuffix(BODY_SUFFIX)
        if not (
            path.name.endswith(BODY_SUFFIX) and is_hex64(stem) and rel == f"{stem[:2]}/{path.name}"
        ):
            faults.append(Fault("malformed", None, None, None, f"stray file bodies/{rel}"))
        elif hashlib.sha256(path.read_bytes()).hexdigest() != stem:
            detail = f"body file {stem} does not hash to its name (edited?)"
            faults.append(Fault("body-hash", None, None, None, detail))


def verify_ledger(ledger_dir: Path) -> VerifyReport:
    """Every fault of the ledger at ``ledger_dir``, in a stable order."""
    ledger_dir = Path(ledger_dir)
    faults: list[Fault] = []
    found, segment_count = _read_segments(ledger_dir, faults)
    _check_deps(found, faults)
    _check_body_refs(ledger_dir, found, faults)
    _check_body_files(ledger_dir, faults)
    faults.sort(key=lambda f: (f.segment or "", f.line or 0, f.code, f.act_id or "", f.detail))
    return VerifyReport(faults=tuple(faults), segments=segment_count, acts=len(found))

"""Hand-written damage to a committed ledger: one hostile mutation of its files.

A ``Mutation`` is drawn as data (which kind, which segment, line, field, how far the
ids are recomputed) and applied to a ledger directory; indices are taken modulo what
the ledger holds, so one draw fits any ledger. ``consistent`` says whether the
result is a ledger a writer could have written (every id and name recomputed, the
act well formed): only then may a gate accept it.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from forest_files.kernel.hashing import canonical_json, entry_content_id, sha256_text

# How far a changed act is made consistent again: not at all (the line's id no longer
# matches), its id (the segment's name no longer matches), or every content id, the
# act id and the segment's name.
LEVELS = ("none", "id", "all")
KINDS = (
    "flip",
    "delete",
    "duplicate",
    "reorder",
    "value",
    "add-key",
    "escape",
    "body",
    "rename",
    "orphan",
    "foreign",
)


@dataclass(frozen=True)
class Mutation:
    kind: str
    segment: int = 0
    line: int = 0
    field: int = 0
    level: str = "none"
    rename: bool = True

    def __str__(self) -> str:
        return (
            f"{self.kind} segment {self.segment} line {self.line} field {self.field} "
            f"level {self.level} rename {self.rename}"
        )


mutations = st.builds(
    Mutation,
    kind=st.sampled_from(KINDS),
    segment=st.integers(0, 7),
    line=st.integers(0, 3),
    field=st.integers(0, 63),
    level=st.sampled_from(LEVELS),
    rename=st.booleans(),
)


@dataclass(frozen=True)
class Done:
    """What a mutation did: ``files`` the ledger files (relative to the repository)
    it wrote or removed; ``consistent``: every id and name as a writer makes them;
    ``well_formed``: every line's id and every file's name (what ``forest verify``
    alone judges) recomputed."""

    files: tuple[str, ...]
    consistent: bool
    well_formed: bool = False

    def __post_init__(self) -> None:
        if self.consistent:
            object.__setattr__(self, "well_formed", True)


_ORDER = ("adopt", "supersede", "rebind", "retire")


def segments_of(ledger: Path) -> list[Path]:
    """The segments in the order their first acts were recorded (a segment's name
    hashes its acts' times, so the names' order changes from one build to the next)."""

    def recorded(seg: Path) -> tuple[int, str]:
        kind = json.loads(seg.read_bytes().splitlines()[0])["kind"]
        return (_ORDER.index(kind) if kind in _ORDER else len(_ORDER), seg.name)

    return sorted((ledger / "segments").glob("*.jsonl"), key=recorded)


def _named_by_hash(path: Path) -> Path:
    new = path.with_name(hashlib.sha256(path.read_bytes()).hexdigest() + ".jsonl")
    path.rename(new)
    return new


def signed(obj: dict[str, Any]) -> str:
    """``obj``'s canonical line with its id recomputed."""
    body = {k: v for k, v in obj.items() if k != "id"}
    return canonical_json({**body, "id": sha256_text(canonical_json(body))})


def _records(obj: dict[str, Any]) -> list[dict[str, Any]]:
    out = [obj[k] for k in ("entry", "record") if isinstance(obj.get(k), dict)]
    part = obj.get("supersede")
    if isinstance(part, dict):
        out += [part[k] for k in ("entry", "record") if isinstance(part.get(k), dict)]
    return out


def _recompute_content_ids(obj: dict[str, Any]) -> None:
    for rec in _records(obj):
        fields = {k: v for k, v in rec.items() if k != "content_id"}
        try:
            fields["origins"] = [tuple(o) for o in fields["origins"]]
            rec["content_id"] = entry_content_id(**fields)
        except (KeyError, TypeError, ValueError):
            return  # a record the change made unreadable: its ids stay as they were


def _leaves(obj: Any, at: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    if isinstance(obj, dict):
        return [leaf for k in sorted(obj) for leaf in _leaves(obj[k], (*at, k))]
    if isinstance(obj, list):
        return [leaf for i, v in enumerate(obj) for leaf in _leaves(v, (*at, i))]
    return [(at, obj)]


def _set(obj: Any, at: tuple[Any, ...], value: Any) -> None:
    for key in at[:-1]:
        obj = obj[key]
    obj[at[-1]] = value


def _other(value: Any) -> Any:
    """A different value of the same type: one character changed, one added."""
    if isinstance(value, str):
        if len(value) == 64 and all(c in "0123456789abcdef" for c in value):
            return ("1" if value[0] == "0" else "0") + value[1:]
        return value[:-1] + ("Y" if value.endswith("X") else "X") if value else "X"
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    return "X"


class Ledger:
    """One repository's ledger, changed in place by ``apply``."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.ledger = root / ".forest" / "ledger"

    def rel(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix()

    def apply(self, m: Mutation, *, foreign: str) -> Done:
        """Apply ``m``; ``foreign`` is the id of an act another branch holds."""
        segs = segments_of(self.ledger)
        seg = segs[m.segment % len(segs)]
        lines = seg.read_bytes().splitlines(keepends=True)
        li = m.line % len(lines)
        if m.kind in ("flip", "delete", "duplicate", "reorder"):
            return self._lines(m, seg, lines, li)
        if m.kind in ("value", "add-key", "escape"):
            return self._field(m, seg, lines, li)
        if m.kind == "body":
            return self._body(m)
        if m.kind == "rename":
            new = seg.with_name(hashlib.sha256(seg.name.encode()).hexdigest() + ".jsonl")
            seg.rename(new)
            return Done((self.rel(seg), self.rel(new)), consistent=False)
        return self._new_segment(m, lines[li], foreign)

    def _write(self, m: Mutation, seg: Path, lines: list[bytes], consistent: bool) -> Done:
        old = self.rel(seg)
        if b"".join(lines) == seg.read_bytes():
            return Done((old,), consistent=True)  # nothing changed (one line reordered)
        seg.write_bytes(b"".join(lines))
        if not lines:
            return Done((old,), consistent=False)  # an empty segment
        if m.rename:
            seg = _named_by_hash(seg)
        formed = m.rename and ((m.kind == "value" and m.level != "none") or m.kind == "delete")
        return Done((old, self.rel(seg)), consistent and m.rename, formed)

    def _lines(self, m: Mutation, seg: Path, lines: list[bytes], li: int) -> Done:
        if m.kind == "flip":
            line = bytearray(lines[li])
            at = m.field % (len(line) - 1)  # never the LF
            line[at] ^= 1 << (m.field % 7)
            return self._write(m, seg, [*lines[:li], bytes(line), *lines[li + 1 :]], False)
        if m.kind == "delete":
            return self._write(m, seg, lines[:li] + lines[li + 1 :], consistent=True)
        if m.kind == "duplicate":
            return self._write(m, seg, [*lines, lines[li]], consistent=False)
        turn = max(li, 1)
        return self._write(m, seg, lines[turn:] + lines[:turn], consistent=True)

    def _field(self, m: Mutation, seg: Path, lines: list[bytes], li: int) -> Done:
        obj = json.loads(lines[li])
        consistent = m.level == "all"
        if m.kind == "add-key":
            holders = [obj, *_records(obj)]
            holders[m.field % len(holders)]["extra"] = "x"
            consistent = False
        leaves = [(at, v) for at, v in _leaves(obj) if at != ("id",)]
        at, value = leaves[m.field % len(leaves)]
        if m.kind == "value":
            _set(obj, at, _other(value))
        if m.level == "all":
            _recompute_content_ids(obj)
        text = signed(obj) if m.level != "none" else canonical_json(obj)
        if m.kind == "escape":
            text, consistent = _escaped(obj, value, m.level != "none"), False
        line = text.encode() + b"\n"
        return self._write(m, seg, [*lines[:li], line, *lines[li + 1 :]], consistent)

    def _body(self, m: Mutation) -> Done:
        bodies = sorted((self.ledger / "bodies").rglob("*.txt"))
        body = bodies[m.field % len(bodies)]
        data = body.read_bytes()
        body.write_bytes(data[:-1] + bytes([data[-1] ^ 1]) if data else b"x")
        if not m.rename:
            return Done((self.rel(body),), consistent=False)
        digest = hashlib.sha256(body.read_bytes()).hexdigest()
        new = self.ledger / "bodies" / digest[:2] / f"{digest}.txt"
        new.parent.mkdir(exist_ok=True)
        body.rename(new)
        if not any(body.parent.iterdir()):
            body.parent.rmdir()
        return Done((self.rel(body), self.rel(new)), consistent=False)

    def _new_segment(self, m: Mutation, line: bytes, foreign: str) -> Done:
        """A segment of one act copied from ``line``, made new (another ``at`` or
        nonce is not needed: its deps differ) and depending on an act this ledger
        lacks: one no ledger holds (``orphan``) or one of another branch
        (``foreign``). Every id and the name are recomputed."""
        obj = json.loads(line)
        missing = foreign if m.kind == "foreign" else hashlib.sha256(b"no such act").hexdigest()
        obj["deps"] = sorted({*obj["deps"], missing})
        seg = self.ledger / "segments" / "new.jsonl"
        seg.write_bytes(signed(obj).encode() + b"\n")
        return Done((self.rel(_named_by_hash(seg)),), consistent=False)


def _escaped(obj: dict[str, Any], value: Any, sign: bool) -> str:
    """``obj``'s line with the first character of one string value (``value``, else the
    kind) written as a ``\\u`` escape; with ``sign`` the id is computed over the
    canonical form, which decodes to the same object."""
    text = signed(obj) if sign else canonical_json(obj)
    if not isinstance(value, str) or not value:
        value = obj["kind"]
    canon = json.dumps(value, ensure_ascii=False)
    return text.replace(canon, f'"\\u{ord(value[0]):04x}{canon[2:]}', 1)

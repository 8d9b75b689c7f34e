"""Ledger files on disk: their layout and how they are read (writing: ``segment_write.py``).

Stores: nothing. Reads ``<ledger>/segments/<sha256>.jsonl`` (acts, one canonical
line each, the name the hash of the whole file) and
``<ledger>/bodies/<h[:2]>/<h>.txt`` (the exact UTF-8 text whose SHA-256 is ``h``),
never through a symlink.
Refuses: a truncated segment, a segment whose name is not the hash of its bytes,
a segment holding one act twice (``duplicate-act``: forest never writes one), any
bad line (see ``acts``), a body that does not hash to its name or is no UTF-8 —
all as ``LedgerError``.
Returns: the acts of a segment (remembered by name, with its bytes: the same bytes
read again are neither hashed nor decoded again); a ``LedgerSnapshot`` of all
segments, deduplicated by act id.
Test: tests/ledger/test_ledger_codec.py, tests/ledger/test_ledger_strays.py,
tests/gate/test_ci_repeats.py
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from forest_files.kernel.gcpause import gc_paused
from forest_files.kernel.paths import GITATTRIBUTES_LINE, LEDGER_PREFIX
from forest_files.kernel.shellword import command_text, git_step, shell_word
from forest_files.ledger.act_order import topo_order
from forest_files.ledger.acts import (
    Act,
    LedgerError,
    decode_line,
    is_hex64,
)
from forest_files.ledger.fault import CRLF_CHECKOUT, body_unhashed
from forest_files.ledger.segment_files import BODY_SUFFIX as BODY_SUFFIX  # named here too
from forest_files.ledger.segment_files import SEGMENT_SUFFIX, segment_paths

SEGMENTS_DIR = "segments"
BODIES_DIR = "bodies"
_SEGMENT_NAME = re.compile(r"([0-9a-f]{64})\.jsonl")
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
# How a segment git converted as it checked it out is said (its bytes with CRLF line
# ends, LF ones hash to its name). Which file holds the rule needs git, which this
# module never asks: the door reading the working tree's ledger names it, and the
# fix there, after this (custody/ledger_conversion.py ``checkout_note``).
CHECKOUT_CONVERTED = "its lines end in CRLF: git converted the ledger as it checked it out"
_MISNAMED = "segment name is not the SHA-256 of its bytes"


@dataclass(frozen=True)
class LedgerSnapshot:
    """Every act of a ledger once, by id, and the segments each was found in."""

    acts: Mapping[str, Act]
    found_in: Mapping[str, tuple[str, ...]]
    segments: tuple[str, ...]

    def origin(self, act_id: str) -> str:
        """The first segment (by name) that holds ``act_id``."""
        return self.found_in[act_id][0]

    def ordered(self) -> list[Act]:
        """The acts in dependency order (see ``topo_order``)."""
        return topo_order(self.acts.values())


def segment_file_name(name: str) -> str:
    return f"{name}{SEGMENT_SUFFIX}"


def body_path(ledger_dir: Path, body_hash: str) -> Path:
    """Where the body with this hash lives; refuses anything but 64 hex digits."""
    if not is_hex64(body_hash):
        raise LedgerError("body hash is not 64 lowercase hex digits", code="malformed")
    return Path(ledger_dir) / BODIES_DIR / body_hash[:2] / f"{body_hash}{BODY_SUFFIX}"


def read_body(ledger_dir: Path, body_hash: str) -> str | None:
    """The body text, or None when the file is absent (erased or never written)."""
    if not is_hex64(body_hash):
        raise LedgerError("body hash is not 64 lowercase hex digits", code="malformed")
    # Plain strings, not pathlib: replay reads one body per entry.
    path = os.path.join(ledger_dir, BODIES_DIR, body_hash[:2], body_hash + BODY_SUFFIX)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | _NOFOLLOW)
    except FileNotFoundError:
        return None
    except OSError:
        if not os.path.islink(path):
            raise
        raise LedgerError(
            f"body file {body_hash} is a symlink; a ledger file is read only from the "
            f"ledger itself: remove the link (rm -- {shell_word(path)}) and restore the file",
            code="stray",
        ) from None
    with open(fd, "rb") as handle:
        return body_text(body_hash, handle.read())


def body_text(body_hash: str, data: bytes) -> str:
    """A body file's bytes as text, refused unless their SHA-256 is ``body_hash``
    (``body-hash``) and they are UTF-8 (``malformed``, strict: the text encodes back to
    exactly these bytes)."""
    if hashlib.sha256(data).hexdigest() != body_hash:
        raise LedgerError(body_unhashed(body_hash), code="body-hash", body=body_hash)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise LedgerError(f"body file {body_hash} is not UTF-8", code="malformed") from None


# Segments decoded in this process, by name, with the bytes their name was checked
# against: the same bytes again (the very object, or equal ones) hash to that name
# and decode to those acts, so they are neither hashed nor decoded a second time.
# (``forest ci`` reads one ledger at HEAD, at the merge-base, for its view and for
# verify: each segment is hashed, decoded and its act ids re-hashed once, not four
# times.) Other bytes under a known name are checked in full, as ever.
_DECODED: dict[str, tuple[bytes, tuple[tuple[int, Act], ...]]] = {}
_DECODED_MAX = 4096


def segment_faults(data: bytes, name: str) -> list[LedgerError]:
    """The faults of a segment's bytes as a whole (empty, truncated, misnamed), in the
    order ``parse_segment`` reports them; its lines are not decoded."""
    stem = name.removesuffix(SEGMENT_SUFFIX)
    if not data:
        return [LedgerError("empty segment", segment=stem)]
    errors: list[LedgerError] = []
    if not data.endswith(b"\n"):
        errors.append(
            LedgerError(
                "truncated segment (crash mid-write?): last line has no LF",
                segment=stem,
                line=data.count(b"\n") + 1,
                code="truncated",
            )
        )
    if _SEGMENT_NAME.fullmatch(segment_file_name(stem)) is None:
        errors.append(
            LedgerError("segment name is not <sha256>.jsonl", segment=stem, code="segment-name")
        )
    elif hashlib.sha256(data).hexdigest() != stem:
        if b"\r\n" in data and hashlib.sha256(data.replace(b"\r\n", b"\n")).hexdigest() == stem:
            # the bytes git holds, with CRLF line ends: converted on checkout
            path = f"{LEDGER_PREFIX}{SEGMENTS_DIR}/{segment_file_name(stem)}"
            shown = command_text(git_step("check-attr", "-a", "--", path))
            advice = (
                f"`{shown}` shows the attributes that convert it, and "
                f"the file that sets them (.gitattributes, or .git/info/attributes, which "
                f"outranks it) needs the line '{GITATTRIBUTES_LINE}' at its end"
            )
            reason, cause = converted_segment(advice), CRLF_CHECKOUT
        else:
            reason, cause = f"{_MISNAMED} (edited or renamed?)", None
        errors.append(LedgerError(reason, segment=stem, code="segment-name", cause=cause))
    return errors


def converted_segment(advice: str) -> str:
    """How a segment git converted as it checked it out is said, ``advice`` after the
    cause (here: the attributes to look at; a door that asks git: the rule and its fix)."""
    return f"{_MISNAMED} ({CHECKOUT_CONVERTED}; {advice})"


def parse_segment(data: bytes, name: str) -> tuple[list[tuple[int, Act]], list[LedgerError]]:
    """Decode every line it can; collect every fault instead of stopping at one.

    ``name`` is the file name (``<sha256>.jsonl``) or the bare hash.
    """
    stem = name.removesuffix(SEGMENT_SUFFIX)
    held = _DECODED.get(stem)
    if held is not None and (data is held[0] or data == held[0]):  # checked and decoded
        return list(held[1]), []
    errors = segment_faults(data, stem)
    if not data:
        return [], errors
    acts: list[tuple[int, Act]] = []
    lines = data.split(b"\n")
    with gc_paused():  # every reader decodes here: the hook's view, verify, CI, sync
        for lineno, line in enumerate(lines[:-1], start=1):
            try:
                acts.append((lineno, decode_line(line, segment=stem, lineno=lineno)))
            except LedgerError as exc:
                errors.append(exc)
    errors += _repeated_acts(acts, lines[:-1], stem)
    if not errors:
        _remember(_DECODED, stem, (data, tuple(acts)))
    return acts, errors


def _repeated_acts(acts: list[tuple[int, Act]], lines: list[bytes], stem: str) -> list[LedgerError]:
    """An act a segment holds twice: forest writes each act once per segment
    (``write_segment``), so a repeat is an edit; its name, if renamed to match, is
    no proof. The fault names the segment forest wrote (the repeats dropped)."""
    first: dict[str, int] = {}
    repeats: list[tuple[int, Act]] = []
    for lineno, act in acts:
        if act.id in first:
            repeats.append((lineno, act))
        else:
            first[act.id] = lineno
    if not repeats:
        return []
    kept = b"".join(lines[n - 1] + b"\n" for n in sorted(first.values()))
    written = hashlib.sha256(kept).hexdigest()
    route = (
        "restore it from git"
        if written == stem
        else f"the segment forest wrote is {segment_file_name(written)}: restore that file "
        "from git and remove this one"
    )
    return [
        LedgerError(
            f"act {act.id} repeats line {first[act.id]} (forest writes each act once in a "
            f"segment: the file was edited); {route}",
            segment=stem,
            line=lineno,
            act_id=act.id,
            code="duplicate-act",
        )
        for lineno, act in repeats
    ]


def _remember(
    memo: dict[str, tuple[bytes, tuple[tuple[int, Act], ...]]],
    stem: str,
    decoded: tuple[bytes, tuple[tuple[int, Act], ...]],
) -> None:
    if len(memo) >= _DECODED_MAX:
        memo.pop(next(iter(memo)))
    memo[stem] = decoded


def read_segment_bytes(data: bytes, name: str) -> list[Act]:
    """The acts of one segment's bytes (a file or a git blob); the first fault raises."""
    acts, errors = parse_segment(data, name)
    if errors:
        raise errors[0]
    return [act for _, act in acts]


def read_segment(path: Path) -> list[Act]:
    path = Path(path)
    return read_segment_bytes(path.read_bytes(), path.name)


def read_ledger(ledger_dir: Path) -> LedgerSnapshot:
    """All acts of all segments; the same act in two segments counts once."""
    acts: dict[str, Act] = {}
    found_in: dict[str, list[str]] = {}
    names: list[str] = []
    with gc_paused():
        for path in segment_paths(ledger_dir, refuse_links=True):
            name = path.name.removesuffix(SEGMENT_SUFFIX)
            names.append(name)
            for act in read_segment(path):
                acts.setdefault(act.id, act)
                holders = found_in.setdefault(act.id, [])
                if name not in holders[-1:]:
                    holders.append(name)
        # Still paused: one tuple per act would set off a full collection here.
        return LedgerSnapshot(
            acts=MappingProxyType(acts),
            found_in=MappingProxyType({k: tuple(v) for k, v in found_in.items()}),
            segments=tuple(names),
        )

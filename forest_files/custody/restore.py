"""Restore: write ground back into exactly one section, after capturing what was there.

Stores: the divergent section text as a local capture under
``.git/forest/captures/`` (ignored by git: it may hold text nobody adopted),
then the file with only the section's lines replaced — written to a temporary
file in the same directory, given the file's mode (an executable stays
executable), renamed into place. The file of a missing whole-file binding is
recreated from ground (mode 0644).
Refuses (one-line ``ForestError``, nothing written): a bound path holding a
symlink, directory, FIFO or other non-regular file (never followed, never
opened blocking); a path whose directory resolves outside the repository; a
missing file of a section binding (its lines are gone with it); a section that
cannot be found (restore needs its lines); with exclusions, a result whose
section would not hash to ground (an excluded heading placed where it would
swallow ground lines).
Exclusions: the excluded parts are not in ground, so they are kept as they are
now, each placed where it stood relative to the surrounding kept lines.
``restore_many`` restores many sections all or nothing: every refusal above
comes before the first capture or write.
A ground whose body an erase removed (the marker ``[erased]``) is refused: the
marker is never written into a file. ``audit_restored``: one audit record per
section written (``drift``/``restore-…``: binding, ground id and hash, path).
Returns: the capture path (``restore_section`` also says whether it restored,
recreated, or found the section holding ground already: then nothing is
written and nothing captured). Every byte outside the section's lines — other
lines, their line endings, a BOM — is left exactly as it was; the restored
lines use the line ending the section used (CRLF or LF).
Test: tests/custody/test_restore.py
"""

from __future__ import annotations

import contextlib
import difflib
import os
import re
import stat as stat_mod
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.custody.content import escapes, read_regular
from forest_files.custody.special import lstat_kind, not_regular
from forest_files.kernel.errors import ForestError
from forest_files.kernel.hashing import hash_body
from forest_files.kernel.paths import CAPTURES_DIR
from forest_files.kernel.state import ensure_dir, shared_dir
from forest_files.store.base import utc_now
from forest_files.store.entryrow import ERASED_MARK
from forest_files.text.extract import extract
from forest_files.text.normalise import decode_bytes, normalise_text
from forest_files.text.selector import parse_selector

if TYPE_CHECKING:
    from forest_files.custody.bindings import Binding
    from forest_files.store.forest import ForestStore

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


def split_lines(text: str) -> list[str]:
    """Lines with their own terminators, one per normalised line."""
    return _LINE.findall(text)


def splice(
    original: bytes, selector: str, excludes: tuple[str, ...], ground: str, path: str
) -> tuple[bytes, str]:
    """(new file bytes, the text the section held) — only the section's lines change."""
    decode_bytes(original, path)  # refuses binary / invalid UTF-8, naming the offset
    raw = original.decode("utf-8")  # as stored: BOM and line endings kept
    bom = "\ufeff" if raw.startswith("\ufeff") else ""
    body = raw[len(bom) :]
    sel = parse_selector(selector)
    got = extract(normalise_text(body), sel, excludes)
    lines = split_lines(body)
    lo, hi = got.start_line - 1, got.end_line  # 0-based slice of the section's lines
    section = lines[lo:hi]
    crlf = sum(x.endswith("\r\n") for x in section or lines)
    lf = sum(x.endswith("\n") and not x.endswith("\r\n") for x in section or lines)
    eol = "\r\n" if crlf > lf else "\n"
    kept, inserts = _split_excluded(section, got.start_line, got.cuts)
    replacement = _merge_lines(kept, ground, eol, inserts)
    if hi < len(lines) and replacement and not replacement.endswith(("\n", "\r")):
        replacement += eol  # keep the following line on its own line
    new = bom + "".join(lines[:lo]) + replacement + "".join(lines[hi:])
    if extract(normalise_text(new[len(bom) :]), sel, excludes).text != ground:
        raise ForestError(
            f"{selector}: ground cannot be restored around the excluded parts as they "
            "stand now (they would change the section); nothing was written — edit by "
            "hand (`forest diff` shows ground)"
        )
    return new.encode("utf-8"), got.text


def _split_excluded(
    section: list[str], first_line: int, cuts: tuple[tuple[int, int], ...]
) -> tuple[list[str], dict[int, list[str]]]:
    """The section's kept lines, and each excluded line keyed by how many kept lines
    precede it (where it goes back among ground's lines)."""
    excluded = {n for start, end in cuts for n in range(start, end + 1)}
    kept: list[str] = []
    inserts: dict[int, list[str]] = {}
    for offset, line in enumerate(section):
        if first_line + offset in excluded:
            inserts.setdefault(len(kept), []).append(line)
        else:
            kept.append(line)
    return kept, inserts


def _key(line: str) -> tuple[str, bool]:
    body = line.rstrip("\r\n")
    return body, len(body) != len(line)


def _merge_lines(
    section: list[str], ground: str, eol: str, inserts: dict[int, list[str]] | None = None
) -> str:
    """Ground's lines, reusing each unchanged original line byte for byte (its own
    line ending included); new or changed lines take the section's line ending.
    ``inserts[k]`` (excluded lines) go back before what original line ``k`` became."""
    inserts = inserts or {}
    wanted = re.findall(r"[^\n]*\n|[^\n]+$", ground)
    have = [_key(x) for x in section]
    want = [_key(x) for x in wanted]
    out: list[str] = []
    matcher = difflib.SequenceMatcher(a=have, b=want, autojunk=False)
    for tag, a0, a1, b0, b1 in matcher.get_opcodes():
        if tag == "equal":
            for k in range(a0, a1):
                out.extend(inserts.get(k, ()))
                out.append(section[k])
        else:
            for k in range(a0, a1):
                out.extend(inserts.get(k, ()))
            out.extend(body + (eol if ended else "") for body, ended in want[b0:b1])
    out.extend(inserts.get(len(section), ()))
    return "".join(out)


def capture(root: Path, selector: str, text: str) -> Path:
    """Keep divergent text locally (never committed) before it is overwritten."""
    folder = shared_dir(root) / CAPTURES_DIR
    ensure_dir(folder)
    stamp = utc_now().replace(":", "").replace(".", "")
    path = folder / f"{stamp}-{hash_body(text)[:12]}.txt"
    path.write_text(f"# captured before `forest restore {selector}`\n{text}", encoding="utf-8")
    return path


def restore_file(
    root: Path, path: str, selector: str, excludes: tuple[str, ...], ground: str
) -> Path | None:
    """Restore ground into the section; returns where the old text was captured
    (None when a missing whole-file binding's file was recreated: nothing to keep,
    or when the section already held ground: nothing written, nothing captured)."""
    return restore_section(root, path, selector, excludes, ground)[1]


def restore_section(
    root: Path,
    path: str,
    selector: str,
    excludes: tuple[str, ...],
    ground: str,
    *,
    expected: bytes | None = None,
) -> tuple[str, Path | None]:
    """``("restored", capture)``, ``("recreated", None)``, or ``("clean", None)`` when
    the section already holds ground (the file is left untouched, no capture).
    ``expected`` (the watcher's compare-and-swap): write only while the file holds
    exactly these bytes — looked at again just before the rename — else
    ``("changed", None)``, nothing written (a live editor's save wins)."""
    full = root / path
    _refuse_marker(selector, ground)
    data, mode = _read_for_restore(root, path)
    if data is None:
        _recreate(full, path, selector, excludes, ground)
        return "recreated", None
    if expected is not None and data != expected:
        return "changed", None
    new, old_text = splice(data, selector, excludes, ground, path)
    if old_text == ground:
        return "clean", None
    kept = capture(root, selector, old_text)
    still = None if expected is None else (lambda: read_regular(str(full)) == expected)
    if not _replace_file(full, new, mode, still=still):
        return "changed", None
    return "restored", kept


@dataclass(frozen=True)
class Wanted:
    """One section to restore: its binding's place and the ground text it must hold."""

    path: str
    selector: str
    excludes: tuple[str, ...]
    ground: str


@dataclass(frozen=True)
class Restored:
    selector: str
    outcome: str  # "restored", "recreated" or "clean"
    kept: Path | None  # the capture of the replaced text ("restored" only)


def restore_many(root: Path, wanted: Sequence[Wanted]) -> list[Restored]:
    """Restore every section, or none: each file is read once and every splice is
    worked out in memory, so a section that cannot be restored (its file gone, a
    directory in its place, its heading missing) refuses the whole command before
    any capture or file is written. Sections of one file are spliced in turn into
    one new text, written once."""
    files: dict[str, tuple[bytes | None, int]] = {}  # path -> (bytes now, or None: missing)
    plans: list[tuple[Wanted, str, str | None]] = []  # (wanted, outcome, replaced text)
    for w in wanted:
        _refuse_marker(w.selector, w.ground)
        if w.path not in files:
            files[w.path] = _read_for_restore(root, w.path)
        data, mode = files[w.path]
        if data is None:
            _recreate_allowed(root / w.path, w.path, w.selector, w.excludes)
            files[w.path] = (w.ground.encode("utf-8"), _NEW_FILE_MODE)
            plans.append((w, "recreated", None))
            continue
        new, old_text = splice(data, w.selector, w.excludes, w.ground, w.path)
        if old_text == w.ground:
            plans.append((w, "clean", None))
            continue
        files[w.path] = (new, mode)
        plans.append((w, "restored", old_text))
    out: list[Restored] = []
    for w, outcome, replaced in plans:  # every text that will be replaced, kept first
        kept = capture(root, w.selector, replaced) if replaced is not None else None
        out.append(Restored(w.selector, outcome, kept))
    changed = {w.path for w, outcome, _ in plans if outcome != "clean"}
    for path in dict.fromkeys(w.path for w in wanted):
        if path in changed:
            data, mode = files[path]
            assert data is not None
            _replace_file(root / path, data, mode)
    return out


_NEW_FILE_MODE = 0o644


def _refuse_marker(selector: str, ground: str) -> None:
    """The marker an erase leaves in the index is no ground text: never written."""
    if ground == ERASED_MARK:
        raise ForestError(
            f"{selector}: its ground's body was erased (forest forget); nothing was written — "
            "take the erased text out of the file, then `forest supersede` or `forest retire`"
        )


def audit_restored(
    root: Path, store: ForestStore, chosen: Sequence[Binding], done: Sequence[Restored]
) -> None:
    """One audit record per section written: the binding, its ground's content id and
    body hash, the path (ids and hashes, never text)."""
    from forest_files.custody import auditlog as audit
    from forest_files.custody.record import ground_body

    events = []
    for binding, r in zip(chosen, done, strict=True):
        if r.outcome == "clean":
            continue
        head, _state = ground_body(store, binding)
        row = store.require(head, "restore") if head is not None else None
        ground = () if row is None else (str(row["content_id"]), str(row["body_hash"]))
        targets = (binding.bind_act, *ground, binding.path)
        events.append(audit.Event("drift", "ok", f"restore-{r.outcome}", targets=targets))
    audit.append_events(root, events)


def _read_for_restore(root: Path, path: str) -> tuple[bytes | None, int]:
    """The file's bytes and mode (None: no file there), or the refusal of restore."""
    full = root / path
    if escapes(root, path.rpartition("/")[0] or "."):
        raise ForestError(
            f"{path}: its directory leads outside the repository through a symlink; "
            "nothing was written — put the real directory back, then restore"
        )
    try:
        st = os.lstat(full)
    except FileNotFoundError:
        return None, _NEW_FILE_MODE
    kind = lstat_kind(st.st_mode)
    data = read_regular(str(full)) if kind is None else None
    if data is None:
        what = not_regular(kind) if kind is not None else "could not be read as a regular file"
        raise ForestError(
            f"{path}: {what}; nothing was written — remove it and bring the file back "
            f"(git checkout -- '{path}'), then restore"
        )
    return data, stat_mod.S_IMODE(st.st_mode)


def _recreate(full: Path, path: str, selector: str, excludes: tuple[str, ...], ground: str) -> None:
    _recreate_allowed(full, path, selector, excludes)
    _replace_file(full, ground.encode("utf-8"), _NEW_FILE_MODE)


def _recreate_allowed(full: Path, path: str, selector: str, excludes: tuple[str, ...]) -> None:
    """Refuse to recreate a missing file unless the binding held the whole of it."""
    if selector != path or excludes:
        raise ForestError(
            f"{path}: the file is gone, and with it the place of {selector}; nothing was "
            f"written — bring the file back (git checkout -- '{path}'), then restore"
        )
    if not full.parent.is_dir():
        raise ForestError(
            f"{path}: its directory is gone; nothing was written — create "
            f"{full.parent.name}/ (or git checkout it), then restore"
        )


def _replace_file(
    full: Path, data: bytes, mode: int, *, still: Callable[[], bool] | None = None
) -> bool:
    """``data`` into ``full`` atomically: a temporary file beside it, ``mode``, rename.
    ``still``: asked just before the rename; False leaves ``full`` as it is."""
    fd, tmp = tempfile.mkstemp(dir=full.parent, prefix=f".{full.name}.", suffix=".forest-restore")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, mode)  # mkstemp made it 0600
        if still is not None and not still():
            os.unlink(tmp)
            return False
        os.replace(tmp, full)
        return True
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise

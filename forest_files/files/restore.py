"""Restore: write ground back into exactly one section, after capturing what was there.

Stores: the divergent section text as a local capture under
``.forest/cache/captures/`` (ignored by git: it may hold text nobody adopted),
then the file with only the section's lines replaced.
Refuses: a binding with exclusions (the excluded parts are not in ground, so
a faithful restore cannot be assembled — edit by hand, `forest diff` shows
ground); a section that cannot be found (restore needs its lines).
Returns: the capture path. Every byte outside the section's lines — other
lines, their line endings, a BOM — is left exactly as it was; the restored
lines use the line ending the section used (CRLF or LF).
Test: tests/test_restore.py
"""

from __future__ import annotations

import difflib
import os
import re
from pathlib import Path

from forest_files.errors import ForestError
from forest_files.files.extract import extract
from forest_files.files.normalise import decode_bytes, normalise_text
from forest_files.files.selector import parse_selector
from forest_files.hashing import hash_body
from forest_files.store.base import utc_now

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


def split_lines(text: str) -> list[str]:
    """Lines with their own terminators, one per normalised line."""
    return _LINE.findall(text)


def splice(
    original: bytes, selector: str, excludes: tuple[str, ...], ground: str, path: str
) -> tuple[bytes, str]:
    """(new file bytes, the text the section held) — only the section's lines change."""
    if excludes:
        raise ForestError(
            f"{selector}: restore of a binding with exclusions is not supported; "
            "edit by hand (`forest diff` shows ground)"
        )
    decode_bytes(original, path)  # refuses binary / invalid UTF-8, naming the offset
    raw = original.decode("utf-8")  # as stored: BOM and line endings kept
    bom = "\ufeff" if raw.startswith("\ufeff") else ""
    body = raw[len(bom) :]
    got = extract(normalise_text(body), parse_selector(selector), excludes)
    lines = split_lines(body)
    lo, hi = got.start_line - 1, got.end_line  # 0-based slice of the section's lines
    section = lines[lo:hi]
    crlf = sum(x.endswith("\r\n") for x in section or lines)
    lf = sum(x.endswith("\n") and not x.endswith("\r\n") for x in section or lines)
    eol = "\r\n" if crlf > lf else "\n"
    replacement = _merge_lines(section, ground, eol)
    if hi < len(lines) and replacement and not replacement.endswith(("\n", "\r")):
        replacement += eol  # keep the following line on its own line
    new = bom + "".join(lines[:lo]) + replacement + "".join(lines[hi:])
    return new.encode("utf-8"), got.text


def _key(line: str) -> tuple[str, bool]:
    body = line.rstrip("\r\n")
    return body, len(body) != len(line)


def _merge_lines(section: list[str], ground: str, eol: str) -> str:
    """Ground's lines, reusing each unchanged original line byte for byte (its own
    line ending included); new or changed lines take the section's line ending."""
    wanted = re.findall(r"[^\n]*\n|[^\n]+$", ground)
    have = [_key(x) for x in section]
    want = [_key(x) for x in wanted]
    out: list[str] = []
    matcher = difflib.SequenceMatcher(a=have, b=want, autojunk=False)
    for tag, a0, a1, b0, b1 in matcher.get_opcodes():
        if tag == "equal":
            out.extend(section[a0:a1])
        else:
            out.extend(body + (eol if ended else "") for body, ended in want[b0:b1])
    return "".join(out)


def capture(root: Path, selector: str, text: str) -> Path:
    """Keep divergent text locally (never committed) before it is overwritten."""
    folder = root / ".forest" / "cache" / "captures"
    folder.mkdir(parents=True, exist_ok=True)
    stamp = utc_now().replace(":", "").replace(".", "")
    path = folder / f"{stamp}-{hash_body(text)[:12]}.txt"
    path.write_text(f"# captured before `forest restore {selector}`\n{text}", encoding="utf-8")
    return path


def restore_file(
    root: Path, path: str, selector: str, excludes: tuple[str, ...], ground: str
) -> Path:
    """Restore ground into the section; returns where the old text was captured."""
    full = root / path
    new, old_text = splice(full.read_bytes(), selector, excludes, ground, path)
    kept = capture(root, selector, old_text)
    tmp = full.with_name(f".{full.name}.forest-restore")
    tmp.write_bytes(new)
    os.replace(tmp, full)
    return kept

"""The line end ``git checkout`` gives a text file it writes: CRLF or LF.

Git decides it (convert.c ``convert_attrs``, ``output_eol``, ``text_eol_is_crlf``)
from the path's ``text`` attribute (else the old ``crlf`` one), its ``eol``
attribute, and the configuration's ``core.autocrlf`` and ``core.eol``: an ``eol``
attribute decides for a text file; ``-text`` writes it as it is; ``text`` (or
``text=auto``) without one follows ``core.autocrlf`` (``true``: CRLF, ``input``:
LF), else ``core.eol``; no ``text`` attribute follows ``core.autocrlf`` alone.
Native line ends are LF here (no CRLF platform runs forest-files' restores).

Stores: nothing.
Refuses: nothing (git's own failures: GitFailed).
Returns: whether a text file at the path is checked out with CRLF line ends.
Test: tests/custody/test_restore_gone_eol.py
"""

from __future__ import annotations

from pathlib import Path

from forest_files.gitio._run import run_git, split_z
from forest_files.gitio.content import attributes

_TRUE = frozenset({"true", "yes", "on", "1", ""})  # "": a key with no value is true


def checkout_crlf(repo: Path | str, path: str) -> bool:
    """Whether ``git checkout`` writes ``path``'s LF text with CRLF line ends."""
    said = attributes(repo, [path]).get(path, {})
    action = _text_action(said.get("text", "")) or _text_action(said.get("crlf", ""))
    if action == "binary":
        return False
    eol = said.get("eol", "")
    if eol in ("lf", "crlf"):
        return eol == "crlf"
    if action in ("crlf", "lf"):
        return action == "crlf"
    autocrlf, core_eol = _config(repo)
    if action is None:  # no attribute: core.autocrlf alone decides
        return autocrlf == "true"
    if autocrlf != "false":  # text or text=auto: core.autocrlf first
        return autocrlf == "true"
    return core_eol == "crlf"


def _text_action(value: str) -> str | None:
    """The ``text`` (or ``crlf``) attribute as git reads it: ``binary`` (unset),
    ``text`` (set), ``auto``, ``lf`` (``input``), or None (unspecified or unknown)."""
    return {"unset": "binary", "set": "text", "auto": "auto", "input": "lf"}.get(value)


def _config(repo: Path | str) -> tuple[str, str]:
    """``core.autocrlf`` (``true``, ``input`` or ``false``) and ``core.eol`` (``crlf``
    or another word), the last of each that git reads winning."""
    proc = run_git(
        repo, ["config", "-z", "--get-regexp", r"^core\.(autocrlf|eol)$"], ok_codes=(0, 1)
    )
    values: dict[str, str] = {}
    for record in split_z(proc.stdout):
        key, _, value = record.partition("\n")
        values[key.lower()] = value
    raw = values.get("core.autocrlf")
    autocrlf = (
        "false"
        if raw is None
        else "input"
        if raw.lower() == "input"
        else "true"
        if raw.lower() in _TRUE
        else "false"
    )
    return autocrlf, values.get("core.eol", "").lower()

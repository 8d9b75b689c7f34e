"""Commit signatures and what each commit added under a path: the signing judge's git.

``git log --format=%G?…`` checks SSH signatures against
``gpg.ssh.allowedSignersFile``; that is pointed at a temporary copy of the
keyring the caller read (the merge-base's), written outside the repository
and removed after the call, never the working tree's file. A commit whose
signature git cannot parse makes ``git log`` die, so each commit's
signature format is read from its raw header first and only SSH and
OpenPGP signatures are handed to git.

Stores: nothing (the temporary keyring copy lives only for one git call).
Refuses: SignatureToolMissing when ``ssh-keygen`` (``gpg.ssh.program``) or
``gpg`` (``gpg.program``) is not on PATH and a commit needs it; GitFailed.
Returns: ``CommitSignature`` per commit; ``(path, blob)`` added or modified
under a prefix, per (commit, parent) pair.
Test: tests/gate/test_signing.py
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from forest_files.gitio._run import (
    DIFF_TREE_PAIRS,
    GitFailed,
    decode,
    pairs_stdin,
    refuse_option,
    run_git,
)
from forest_files.gitio.config import config_get
from forest_files.kernel.errors import ForestError

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
_FORMATS = {
    "-----BEGIN SSH SIGNATURE-----": "ssh",
    "-----BEGIN PGP SIGNATURE-----": "openpgp",
    "-----BEGIN PGP MESSAGE-----": "openpgp",
    "-----BEGIN SIGNED MESSAGE-----": "x509",
}
_LOG_FIELDS = 5


class SignatureToolMissing(ForestError):
    """The program git verifies a signature format with is not installed."""


@dataclass(frozen=True)
class CommitSignature:
    """What git says of one commit's signature."""

    commit: str
    format: str  # "none" | "ssh" | "openpgp" | "x509" | "unknown"
    status: str  # git's %G? letter; "N" when git was not asked
    key: str  # %GF: "SHA256:…" for SSH, the (sub)key fingerprint for OpenPGP
    primary_key: str  # %GP (OpenPGP's primary key fingerprint)
    signer: str  # %GS


def signature_formats(repo: Path | str, commits: Sequence[str]) -> dict[str, str]:
    """The signature format of each commit, read from its ``gpgsig`` header."""
    wanted = list(dict.fromkeys(commits))
    for commit in wanted:
        refuse_option(commit, "commit")
    if not wanted:
        return {}
    request = "".join(f"{c}\n" for c in wanted).encode()
    out = run_git(repo, ["cat-file", "--batch"], stdin=request).stdout
    formats: dict[str, str] = {}
    pos = 0
    for commit in wanted:
        end = out.index(b"\n", pos)
        header = out[pos:end].decode("ascii").split(" ")
        if header[-1] == "missing" or header[1] != "commit":
            raise GitFailed(f"{commit} is not a commit of this repository")
        size = int(header[2])
        formats[commit] = _format_of(out[end + 1 : end + 1 + size])
        pos = end + 1 + size + 1
    return formats


def _format_of(raw: bytes) -> str:
    head = raw.split(b"\n\n", 1)[0].decode("utf-8", "replace")
    for line in head.split("\n"):
        name, _, value = line.partition(" ")
        if name in ("gpgsig", "gpgsig-sha256"):
            return _FORMATS.get(value.strip(), "unknown")
    return "none"


def _require_tool(repo: Path | str, formats: set[str]) -> None:
    needs = []
    if "ssh" in formats:
        needs.append((config_get(repo, "gpg.ssh.program") or "ssh-keygen", "gpg.ssh.program"))
    if "openpgp" in formats:
        program = config_get(repo, "gpg.openpgp.program") or config_get(repo, "gpg.program")
        needs.append((program or "gpg", "gpg.program"))
    for program, key in needs:
        if shutil.which(program, path=os.environ.get("PATH", os.defpath)) is None:
            raise SignatureToolMissing(
                f"{program} is not on PATH, so signed commits cannot be checked; install it "
                f"(OpenSSH's ssh-keygen, GnuPG's gpg) or point git's {key} at it"
            )


def commit_signatures(
    repo: Path | str, commits: Sequence[str], *, allowed_signers: str
) -> dict[str, CommitSignature]:
    """Each commit's signature, SSH ones checked against ``allowed_signers`` (the
    text of an allowed-signers file)."""
    formats = signature_formats(repo, commits)
    result = {c: CommitSignature(c, f, "N", "", "", "") for c, f in formats.items()}
    checked = [c for c, f in formats.items() if f in ("ssh", "openpgp")]
    if not checked:
        return result
    _require_tool(repo, {formats[c] for c in checked})
    fd, name = tempfile.mkstemp(prefix="forest-allowed-signers-", suffix=".txt")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(allowed_signers)
        fields = _log_signatures(repo, checked, name)
    finally:
        os.unlink(name)
    for at in range(0, len(fields) - _LOG_FIELDS + 1, _LOG_FIELDS):
        commit, status, key, primary, signer = fields[at : at + _LOG_FIELDS]
        if commit in result:
            result[commit] = CommitSignature(commit, formats[commit], status, key, primary, signer)
    return result


def _log_signatures(repo: Path | str, commits: list[str], keyring: str) -> list[str]:
    args = ["-c", f"gpg.ssh.allowedSignersFile={keyring}", "log", "--no-walk=unsorted"]
    args += ["--stdin", "-z", "--format=%H%x00%G?%x00%GF%x00%GP%x00%GS"]
    request = "".join(f"{c}\n" for c in commits).encode()
    try:
        proc = run_git(repo, args, stdin=request)
    except GitFailed as exc:
        what = "git log could not check the commits' signatures"
        raise GitFailed(what, stderr=exc.stderr) from None
    fields = decode(proc.stdout).split("\0")
    if len(fields) % _LOG_FIELDS == 1 and fields[-1] == "":
        fields.pop()  # the terminator after the last record; its own fields may be empty
    return fields


def changed_blobs(
    repo: Path | str, pairs: Sequence[tuple[str, str]], prefix: str
) -> list[list[tuple[str, str]]]:
    """For each (commit, parent) pair, in order: ``(path, blob)`` of every file under
    ``prefix`` that ``commit`` added or modified against ``parent`` (one call)."""
    if not pairs:
        return []
    request = pairs_stdin(pairs)
    args = list(DIFF_TREE_PAIRS)
    proc = run_git(repo, [*args, "--diff-filter=AM", "--", prefix], stdin=request)
    fields = decode(proc.stdout).split("\0")
    result: list[list[tuple[str, str]]] = []
    i = 0
    while i < len(fields):
        field = fields[i]
        if field.startswith(":"):  # ":<mode> <mode> <blob> <blob> <status>" then the path
            result[-1].append((fields[i + 1], field.split(" ")[3]))
            i += 2
            continue
        if field:  # the line naming the next pair's commit
            result.append([])
        i += 1
    if len(result) != len(pairs):
        raise GitFailed(f"git diff-tree answered {len(result)} of {len(pairs)} diffs")
    return result

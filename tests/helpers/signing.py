"""Real SSH keys and signed commits for the signing tests (ssh-keygen, git commit -S)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from forest_files.custody.bindings import all_bindings
from forest_files.custody.lookup import find_binding
from forest_files.custody.record import supersede_section
from forest_files.custody.repository import Repository
from forest_files.custody.targets import read_section
from forest_files.kernel.hashing import hash_body
from tests.helpers.git import git

MAX = 1 << 20


def keygen(where: Path, name: str) -> Path:
    """A fresh unencrypted ed25519 key pair; returns the private key's path."""
    key = where / "keys" / name
    key.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", str(key)],
        check=True,
        capture_output=True,
    )
    return key


def signer_line(email: str, key: Path) -> str:
    """One allowed-signers line binding ``email`` to ``key``'s public half."""
    key_type, blob = (key.with_name(key.name + ".pub")).read_text().split()[:2]
    return f'{email} namespaces="git" {key_type} {blob}\n'


def commit_signed(repo: Path, key: Path | None, msg: str = "signed") -> str:
    """Stage everything and commit, signed with ``key`` over SSH (None: unsigned)."""
    git(repo, "add", "-A")
    sign = ["-c", "gpg.format=ssh", "-c", f"user.signingkey={key}"] if key else []
    git(repo, *sign, "commit", "-q", "--allow-empty", *(["-S"] if key else []), "-m", msg)
    return git(repo, "rev-parse", "HEAD")


def supersede(root: Path, target: str, by: str, *, words: str = "amend") -> None:
    """Adopt what ``target`` holds now as its new ground, signed ``by``."""
    with Repository(root) as repo:
        binding = find_binding(all_bindings(repo.synced()), target)
        section = read_section(root, target, (), max_bytes=MAX)
        supersede_section(
            repo, binding, section, words=words, by=by, expected_body_hash=hash_body(section.text)
        )

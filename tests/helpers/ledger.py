"""Ledger files removed, forged or committed by hand, as a person (or an attacker)
would, past the hooks."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from forest_files.ledger.segments import body_path


def delete_body(ledger: Path, body_hash: str) -> None:
    """Remove one body file and, when it was the last of its prefix directory,
    that directory too (verify names an empty prefix directory a ``stray``)."""
    path = body_path(ledger, body_hash)
    path.unlink()
    with contextlib.suppress(OSError):  # other bodies still live there
        os.rmdir(path.parent)


def write_forged_holder(root: Path, line: bytes, act_id: str) -> str:
    """A well-named segment whose one line is ``line``'s act with another scope but the
    id ``act_id`` kept (so the line does not hash to its id): a decoy for a search of
    the act that holds ``act_id``. Returns its path under ``root``."""
    import hashlib

    from forest_files.kernel.hashing import canonical_json
    from forest_files.ledger.acts import decode_line
    from tests.helpers.acts import act_object

    obj = act_object(decode_line(line, segment="x", lineno=1))
    forged = canonical_json({**obj, "scope": "q" * 32, "id": act_id}).encode() + b"\n"
    rel = f".forest/ledger/segments/{hashlib.sha256(forged).hexdigest()}.jsonl"
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    (root / rel).write_bytes(forged)
    return rel


def committed_segment(root: Path, data: bytes, name: str | None = None) -> str:
    """``data`` committed past the hooks (``--no-verify``) as a new segment (``name``:
    its file's stem, else the hash of ``data``, a well-named one); its path."""
    import hashlib

    from tests.helpers.git import git, write

    rel = f".forest/ledger/segments/{name or hashlib.sha256(data).hexdigest()}.jsonl"
    write(root, rel, data)
    git(root, "add", "--", rel)
    git(root, "commit", "-q", "--no-verify", "-m", "a hand-written segment")
    return rel


def stray_body(root: Path, text: bytes = b"text nobody adopted\n") -> str:
    """A body file no act names (``text``, named by its hash), committed past the hooks
    (``--no-verify``); its path."""
    import hashlib

    from tests.helpers.git import git, write

    digest = hashlib.sha256(text).hexdigest()
    rel = f".forest/ledger/bodies/{digest[:2]}/{digest}.txt"
    write(root, rel, text)
    git(root, "add", "--", rel)
    git(root, "commit", "-q", "--no-verify", "-m", "a stray body")
    return rel


def hooked_repo(tmp_path: Path, branch: str | None = "feature") -> Path:
    """A repository with ``a.md`` adopted and committed on main, the hooks installed by
    ``forest hooks install``, checked out on a new ``branch`` (None: main)."""
    from tests.helpers.cli import ok
    from tests.helpers.custody import adopted_repo
    from tests.helpers.git import git

    root = adopted_repo(tmp_path, "a.md", "# A\n\nfirst\n")
    ok(root, "hooks", "install")
    if branch is not None:
        git(root, "checkout", "-q", "-b", branch)
    return root


@contextlib.contextmanager
def link_set_aside(root: Path, rel: str) -> Iterator[None]:
    """The symlink at ``rel`` (from the top) taken out of the work tree while forest
    records (every command refuses a link in the ledger), then put back as it was: the
    commits of someone who recorded elsewhere and committed here past the hooks."""
    link = root / rel
    target = os.readlink(link)
    link.unlink()
    try:
        yield
    finally:
        os.symlink(target, link)

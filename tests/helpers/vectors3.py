"""The ledger format 3 test vectors: an adopted text holding a made-up key, superseded,
then forgotten (an erase act carrying ``lines`` and ``tokens``: format 3).

Run once by hand when the format changes (``python -m tests.helpers.vectors3 DEST``);
the committed files under tests/data/ledger-vectors-3/ are its output.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path
from typing import Any

from forest_files.kernel.hashing import hash_body
from tests.helpers.acts import VECTOR_BY, VECTOR_PROJECT

VECTOR3_TOKEN = "sk_test_Zq8xWv3N0example4ReaderVectors"  # made up: a vector, never a secret
VECTOR3_LINE = f"deploy key = {VECTOR3_TOKEN}"
VECTOR3_FIRST = f"The bridge key is kept here.\n{VECTOR3_LINE}"
VECTOR3_SECOND = "The bridge key is kept in the vault."


def write_vectors3(workdir: Path, dest: Path) -> dict[str, Any]:
    """Record adopt_text, supersede and forget in a fresh repository at ``workdir``,
    copy its ledger files to ``dest`` and write ``dest/expected.json``; return that."""
    from forest_files.custody.repository import Repository
    from forest_files.governance.forget import forget
    from forest_files.ledger.segments import read_ledger
    from tests.helpers.git import make_repo

    root = make_repo(workdir, "vectors3")
    with Repository.init(root, project_id=VECTOR_PROJECT) as repo:
        first = repo.adopt_text(VECTOR3_FIRST, words="I adopt this text", by=VECTOR_BY)
        second = repo.supersede(
            first,
            VECTOR3_SECOND,
            words="The key moved to the vault",
            by=VECTOR_BY,
            expected_body_hash=hash_body(VECTOR3_SECOND),
        )
        forget(repo, first, words="A key was pasted by mistake", by=VECTOR_BY)
        ground = [dataclasses.asdict(g) for g in repo.ground()]
        ledger = repo.ledger_dir
    acts = read_ledger(ledger).ordered()
    (erase,) = [a for a in acts if a.kind == "erase"]
    expected = {
        "project_id": VECTOR_PROJECT,
        "acts": [{"id": a.id, "kind": a.kind, "v": a.version, "deps": list(a.deps)} for a in acts],
        "erased": {"content_id": first, "body_hash": hash_body(VECTOR3_FIRST)},
        "tombstone": {
            "line": VECTOR3_LINE,
            "token": VECTOR3_TOKEN,
            "lines": list(erase.payload.lines or ()),
            "tokens": list(erase.payload.tokens or ()),
        },
        "ground": ground,
    }
    assert [g["content_id"] for g in ground] == [second]
    save_vectors(ledger, dest, expected)
    return expected


def save_vectors(ledger: Path, dest: Path, expected: dict[str, Any]) -> None:
    """Copy the ledger's segments and bodies into ``dest`` beside ``expected.json``."""
    for sub in ("segments", "bodies"):
        shutil.copytree(ledger / sub, dest / sub, dirs_exist_ok=True)
    (dest / "expected.json").write_text(
        json.dumps(expected, indent=2, sort_keys=True) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    import os
    import sys
    import tempfile

    from tests.helpers.git import git_env

    os.environ.update(git_env())
    with tempfile.TemporaryDirectory() as tmp:
        write_vectors3(Path(tmp), Path(sys.argv[1]))

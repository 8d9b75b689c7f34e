"""The ledger format 3 test vectors of declared normalisations: a Markdown section
adopted with ``normalise`` on its binding, then renormalised by its holder (a rebind
in place carrying ``normalise``, with a supersede: the text reads differently).

Run once by hand when the format changes (``python -m tests.helpers.vectors3n DEST``);
the committed files under tests/data/ledger-vectors-3-normalise/ are its output.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from tests.helpers.acts import VECTOR_BY, VECTOR_PROJECT
from tests.helpers.vectors3 import save_vectors

VECTOR3N_PATH = "docs/adr/0001.md"
VECTOR3N_TARGET = "docs/adr/0001.md#Use Postgres"
VECTOR3N_FILE = (
    "# Use Postgres   \n\nWe pick [Postgres][pg] for _durability_.\n\n\n"
    "* one store\n+ known well\n\n[pg]: https://www.postgresql.org/\n"
)
VECTOR3N_FIRST = ("blank-lines@1", "link-style@1", "list-markers@1", "trailing-whitespace@1")
VECTOR3N_SECOND = (*VECTOR3N_FIRST[:1], "emphasis@1", *VECTOR3N_FIRST[1:])


def write_vectors3n(workdir: Path, dest: Path) -> dict[str, Any]:
    """Adopt and renormalise in a fresh repository at ``workdir``, copy its ledger
    files to ``dest`` and write ``dest/expected.json``; return that."""
    from forest_files.custody.bindings import all_bindings
    from forest_files.custody.record import adopt_sections
    from forest_files.custody.renormalise import renormalise, rules_with
    from forest_files.custody.repository import Repository
    from forest_files.custody.targets import read_section
    from forest_files.ledger.segments import read_ledger
    from tests.helpers.git import make_repo, write

    root = make_repo(workdir, "vectors3n")
    write(root, VECTOR3N_PATH, VECTOR3N_FILE)
    first = tuple(f"normalise:{n}" for n in VECTOR3N_FIRST)
    with Repository.init(root, project_id=VECTOR_PROJECT) as repo:
        section = read_section(root, VECTOR3N_TARGET, first, max_bytes=1 << 20)
        adopt_sections(repo, [section], words="Accepted ADR", by=VECTOR_BY)
        [binding] = all_bindings(repo.synced())
        rules = rules_with(binding, VECTOR3N_SECOND)
        again = read_section(root, VECTOR3N_TARGET, rules, max_bytes=1 << 20)
        renormalise(repo, binding, again, VECTOR3N_SECOND, by=VECTOR_BY, words="Style is free")
        ground = [dataclasses.asdict(g) for g in repo.ground()]
        [binding] = all_bindings(repo.synced())
        ledger = repo.ledger_dir
    acts = read_ledger(ledger).ordered()
    expected = {
        "project_id": VECTOR_PROJECT,
        "acts": [{"id": a.id, "kind": a.kind, "v": a.version, "deps": list(a.deps)} for a in acts],
        "file": VECTOR3N_FILE,
        "sections": {"first": section.text, "second": again.text},
        "rules": list(binding.excludes),
        "ground": ground,
    }
    save_vectors(ledger, dest, expected)
    return expected


if __name__ == "__main__":
    import os
    import sys
    import tempfile

    from tests.helpers.git import git_env

    os.environ.update(git_env())
    with tempfile.TemporaryDirectory() as tmp:
        write_vectors3n(Path(tmp), Path(sys.argv[1]))

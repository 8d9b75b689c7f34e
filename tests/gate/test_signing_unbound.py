"""Per-path [signing] over the same derived paths as authority.

An act on a chain whose binding was retired still touches the chain's paths, so
``[signing] "canon/**" = "required"`` applies to it; an act tied to no path is
judged as a path only ``**`` matches. On main both went unjudged: the act touched
no bound path now, so ``[policy] signed`` ("off") decided.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from forest_files.custody.bindings import all_bindings
from forest_files.custody.lookup import find_binding
from forest_files.custody.record import adopt_sections, retire_binding
from forest_files.custody.repository import Repository
from forest_files.custody.targets import read_section
from forest_files.gate.range import check_range
from tests.helpers.git import git, make_repo, write
from tests.helpers.signing import commit_signed, keygen, signer_line

ADA = "Ada Lovelace <ada@example.org>"
AUTHOR = "Test Author <author@example.org>"
PROJECT = "p-signing-unbound"
KEYRING = ".forest/allowed_signers"
TARGET = "canon/characters.md#Elias"

pytestmark = pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="needs ssh-keygen")


def _setup(tmp_path: Path, signing: str) -> tuple[Path, Path]:
    """main: Elias adopted by Ada, then retired by her (both signed); HEAD on feature."""
    ada_key = keygen(tmp_path, "ada")
    root = make_repo(tmp_path)
    Repository.init(root, project_id=PROJECT).close()
    write(
        root,
        "forest.toml",
        f'[project]\nid = "{PROJECT}"\n\n[policy]\nallowed_signers = "{KEYRING}"\n'
        f'signed = "off"\n\n[signing]\n{signing}\n[authority]\n"**" = ["{AUTHOR}", "{ADA}"]\n'
        f'"canon/**" = ["{ADA}"]\n',
    )
    write(root, KEYRING, signer_line("ada@example.org", ada_key))
    write(root, "canon/characters.md", "# Canon\n\n## Elias\n\nElias keeps the lighthouse.\n")
    with Repository(root) as r:
        section = read_section(root, TARGET, (), max_bytes=1 << 20)
        adopt_sections(r, [section], words="canon", by=ADA)
    commit_signed(root, ada_key, "canon under custody")
    with Repository(root) as r:
        binding = find_binding(all_bindings(r.synced()), TARGET)
        retire_binding(r, binding, words="the section was cut", by=ADA)
    commit_signed(root, ada_key, "Ada retires Elias")
    git(root, "checkout", "-q", "-b", "feature")
    return root, ada_key


def test_signing_unsigned_seal_of_retired_governed_ground_refused(tmp_path: Path) -> None:
    """An unsigned commit brings a seal claiming the holder, of ground whose binding
    is retired: canon/** requires a signature, and the chain keeps that path."""
    root, _ = _setup(tmp_path, '"canon/**" = "required"\n')
    with Repository(root) as r:
        [ground] = r.ground()
        r.seal(ground.content_id, words="hide the old text", by=ADA)
    commit_signed(root, None, "unsigned seal")
    [fault] = check_range(root, "main").faults
    assert fault.code == "unsigned" and ADA in fault.detail and "(seal)" in fault.detail


def test_signing_signed_seal_of_retired_governed_ground_accepted(tmp_path: Path) -> None:
    root, ada_key = _setup(tmp_path, '"canon/**" = "required"\n')
    with Repository(root) as r:
        [ground] = r.ground()
        r.seal(ground.content_id, words="hide the old text", by=ADA)
    commit_signed(root, ada_key, "signed seal")
    assert check_range(root, "main").ok


def test_signing_unsigned_pathless_act_under_everything_rule_refused(tmp_path: Path) -> None:
    """An act tied to no path takes the mode of the ``[signing]`` rule for ``**``."""
    root, _ = _setup(tmp_path, '"**" = "required"\n"canon/**" = "off"\n')
    with Repository(root) as r:
        r.adopt_text("A note bound to nothing.", words="a note", by=ADA)
    commit_signed(root, None, "unsigned note")
    [fault] = check_range(root, "main").faults
    assert fault.code == "unsigned" and "(adopt)" in fault.detail

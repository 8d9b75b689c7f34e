"""A sealed ground whose text a forget erased: every door says so, and its route works.

The usual way to erase pasted text is ``forest seal`` then ``forest forget``. The
binding then has no live ground, and its sealed ground holds no text: a bare
``forest unseal`` (the route of a sealed ground) reads nothing again and only leads
to a second finding. The check names the erasure and offers the one route that ends
it (unseal, then supersede what the file holds once the erased text is out, in one
paste) or a retire; ``supersede`` and ``restore`` refuse with the same commands; an
only-sealed ground keeps its unseal route. Refused commands record nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers.cli import findings, forest
from tests.helpers.custody import adopted_repo
from tests.helpers.forgetting import CLEAN, DOC, SECRET, WORDS, tree_bytes
from tests.helpers.git import commit_all, pasted, write

TARGET = "a.md#Ops/Keys"
# The section with every line the forget erased taken out (a forget erases the whole
# body: each of its lines is refused in a later adoption).
REWRITTEN = CLEAN.replace("The keys live in the vault.", "Keys are issued by the ops team.")


def _ledger(root: Path) -> dict[str, bytes]:
    """The bytes of every file under ``.forest/`` (the ledger; local state, such as the
    audit log that records a refusal, lives in the git directory)."""
    found = {k: v for k, v in tree_bytes(root).items() if k.startswith(".forest/")}
    assert found
    return found


def _sealed(tmp_path: Path) -> tuple[Path, str]:
    """``a.md#Keys`` adopted holding the secret, then sealed (committed)."""
    root = adopted_repo(tmp_path, "a.md", DOC, "a.md#Keys")
    ground = findings(root)[0]["ground"]
    assert forest(root, "seal", TARGET, "--words", WORDS).exit_code == 0
    commit_all(root, "seal")
    return root, ground


def _sealed_and_forgotten(tmp_path: Path) -> tuple[Path, str]:
    root, ground = _sealed(tmp_path)
    done = forest(root, "forget", ground, "--words", WORDS)
    assert done.exit_code == 0, done.stdout + done.stderr
    commit_all(root, "forget")
    return root, ground


def test_sealed_then_forgotten_names_the_erasure_and_no_bare_unseal_route_refused(
    tmp_path: Path,
) -> None:
    root, ground = _sealed_and_forgotten(tmp_path)
    (found,) = findings(root)
    assert found["kind"] == "unresolved"
    assert "erased by forest forget" in found["detail"] and ground[:12] in found["detail"]
    labels = [r["label"] for r in found["routes"]]
    assert "make its ground readable again" not in labels
    first = found["routes"][0]["command"]
    assert "forest unseal" in first and "forest supersede" in first
    assert "or end the binding" in labels


def test_sealed_then_forgotten_route_pasted_clears_the_check_accepted(tmp_path: Path) -> None:
    root, _ = _sealed_and_forgotten(tmp_path)
    (found,) = findings(root)
    write(root, "a.md", REWRITTEN)  # the route's note: the erased text out of the file first
    command = found["routes"][0]["command"].replace("…", "the token is gone")
    done = pasted(root, command)
    assert done.returncode == 0, done.stdout + done.stderr
    assert [f["kind"] for f in findings(root)] == ["clean"]
    commit_all(root, "adopted what is left")
    gate = forest(root, "ci", "--format", "json")
    assert gate.exit_code == 0, gate.stdout


def test_supersede_and_restore_of_sealed_erased_ground_name_the_route_refused(
    tmp_path: Path,
) -> None:
    root, _ = _sealed_and_forgotten(tmp_path)
    write(root, "a.md", REWRITTEN)
    before = _ledger(root)
    for args in (("supersede", TARGET, "--words", "w"), ("restore", TARGET)):
        done = forest(root, *args)
        assert done.exit_code != 0
        line = done.stderr.strip()
        assert line.startswith("forest: ") and "\n" not in line
        assert "erased by forest forget" in line and "forest unseal" in line
        assert "forest supersede" in line and "forest retire" in line
    assert _ledger(root) == before
    assert (root / "a.md").read_text() == REWRITTEN


def test_only_sealed_ground_keeps_its_unseal_route_accepted(tmp_path: Path) -> None:
    root, _ = _sealed(tmp_path)
    (found,) = findings(root)
    assert found["kind"] == "unresolved" and "erased" not in found["detail"]
    assert found["routes"][0]["label"] == "make its ground readable again"
    done = forest(root, "supersede", TARGET, "--words", "w")
    assert done.exit_code != 0
    assert "its ground is sealed; nothing was superseded" in done.stderr
    assert "forest unseal 'a.md#Ops/Keys'" in done.stderr


def test_sealed_erased_at_the_gate_matches_the_check_accepted(tmp_path: Path) -> None:
    root, ground = _sealed_and_forgotten(tmp_path)
    gate = json.loads(forest(root, "ci", "--format", "json").stdout)
    (found,) = [f for f in gate["findings"] if f["kind"] == "unresolved"]
    assert "erased by forest forget" in found["detail"] and ground[:12] in found["detail"]
    assert SECRET not in json.dumps(gate)


def test_seal_again_of_sealed_erased_ground_says_erased_refused(tmp_path: Path) -> None:
    root, _ = _sealed_and_forgotten(tmp_path)
    before = _ledger(root)
    done = forest(root, "seal", TARGET, "--words", "again")
    assert done.exit_code != 0
    assert "already sealed, and its text was erased" in done.stderr
    assert "to read it again" not in done.stderr
    assert _ledger(root) == before

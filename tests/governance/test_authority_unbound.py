"""Every act is judged for authority, including acts that touch no bound path now.

An act on a chain is judged over every path the chain was ever bound to (a retired
binding keeps its paths); an erase or seal of adopting words over the chain those
words adopted; an act tied to no path as a path only ``**`` matches (a holder of
``**`` where [authority] lists one, anyone where it does not). Live (nothing
written) and in the gate (forest.toml at the merge-base) alike. Each of the first
three got through on main: the act touched no bound path, so nobody judged it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from forest_files.custody.applied import chain_deps
from forest_files.custody.bindings import all_bindings
from forest_files.custody.lookup import find_binding
from forest_files.custody.plan import plan_seal
from forest_files.custody.record import adopt_sections, retire_binding
from forest_files.custody.repository import Repository
from forest_files.custody.targets import read_section
from forest_files.custody.views import latest_record
from forest_files.gate.range import check_range
from forest_files.governance.forget import forget
from forest_files.kernel.errors import AuthorityRefused
from forest_files.kernel.hashing import hash_body
from forest_files.ledger import make_act, read_ledger, write_segment
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.ledger import delete_body
from tests.helpers.template import reused

ADA = "Ada Lovelace <ada@example.org>"
MALLORY = "Mallory <mallory@example.org>"
AUTHOR = "Test Author <author@example.org>"
WORDS = "Adopted as the canon stands today"
PROJECT = "p-unbound"
SECTION = "## Elias\n\nElias keeps the lighthouse.\n"
DOC = f"# Canon\n\n{SECTION}"
TARGET = "canon/characters.md#Elias"


def _toml(everything: bool = True) -> str:
    top = f'"**" = ["{AUTHOR}"]\n' if everything else ""
    return f'[project]\nid = "{PROJECT}"\n\n[authority]\n{top}"canon/**" = ["{ADA}"]\n'


def _build_repo(tmp_path: Path) -> Path:
    path = make_repo(tmp_path)
    Repository.init(path, project_id=PROJECT).close()
    write(path, "forest.toml", _toml())
    write(path, "canon/characters.md", DOC)
    with Repository(path) as r:
        section = read_section(path, TARGET, (), max_bytes=1 << 20)
        adopt_sections(r, [section], words=WORDS, by=ADA)
    commit_all(path, "canon under custody")
    git(path, "checkout", "-q", "-b", "feature")
    return path


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """canon/** governed by Ada, ``**`` by the committer; one bound heading; on feature."""
    # A private copy of one built once per worker process (template.reused).
    return reused((__name__, "repo"), tmp_path / "repo", _build_repo)


def _ledger(repo: Path) -> Path:
    return repo / ".forest" / "ledger"


def _ground_and_words(repo: Path) -> tuple[str, str]:
    """(the ground's content id, its adoption record's content id)."""
    with Repository(repo) as r:
        store = r.synced()
        [ground] = r.ground()
        local = store.local_id(ground.content_id)
        return ground.content_id, store.content_id(latest_record(store, local, "adopts"))


def _erase(repo: Path, body_hash: str, deps: list[str]) -> Any:
    """A hand-written erase by Mallory, its body file removed as the act asks."""
    fields = {"body_hash": body_hash, "by": MALLORY, "reason": "tidy", "at": "2026"}
    act = make_act("erase", deps, fields, scope=PROJECT)
    write_segment(_ledger(repo), [act], {})
    delete_body(_ledger(repo), body_hash)
    return act


def _authority(repo: Path) -> list[tuple[str, str | None, str]]:
    return [(f.code, f.act_id, f.detail) for f in check_range(repo, "main").faults]


def test_authority_erase_of_adopting_words_by_non_holder_refused(repo: Path) -> None:
    """The words that adopted governed ground are judged over that ground's chain."""
    _, words_id = _ground_and_words(repo)
    before = sorted(p.name for p in _ledger(repo).rglob("*"))
    with Repository(repo) as r, pytest.raises(AuthorityRefused, match=r"canon/characters\.md"):
        forget(r, words_id, words="these words must go", by=MALLORY)
    assert sorted(p.name for p in _ledger(repo).rglob("*")) == before  # nothing written
    [adopt] = read_ledger(_ledger(repo)).ordered()
    forged = _erase(repo, hash_body(WORDS), [adopt.id])
    commit_all(repo, "mallory erases the adopting words")
    [(code, act_id, detail)] = _authority(repo)
    assert (code, act_id) == ("authority", forged.id)
    assert "canon/characters.md" in detail and MALLORY in detail


def test_authority_seal_and_erase_after_retire_by_non_holder_refused(repo: Path) -> None:
    """A holder retires the governed binding; its chain keeps the path, so a
    non-holder can neither seal nor erase the ground it held."""
    ground_id, _ = _ground_and_words(repo)
    with Repository(repo) as r:
        binding = find_binding(all_bindings(r.synced()), TARGET)
        retire_binding(r, binding, words="the section was cut", by=ADA)
        with pytest.raises(AuthorityRefused, match=r"canon/characters\.md"):
            r.seal(ground_id, words="hide it", by=MALLORY)
    commit_all(repo, "ada retires Elias")
    with Repository(repo) as r:  # written by hand instead: a valid act
        store = r.synced()
        target = store.local_id(ground_id)
        planned = plan_seal(store, target, words="hide it", by=MALLORY, sealing=True)
        seal = r.act(planned, chain_deps(store, target))
    write_segment(_ledger(repo), [seal], {planned.record.body_hash: "hide it"})
    erase = _erase(repo, hash_body(SECTION), [seal.id])
    commit_all(repo, "mallory seals and erases the retired ground")
    found = {(code, act_id) for code, act_id, _ in _authority(repo)}
    assert found == {("authority", seal.id), ("authority", erase.id)}


def test_authority_pathless_act_judged_as_everything_refused(repo: Path) -> None:
    """An act tied to no path needs a holder of ``**`` (live and at the merge-base)."""
    with Repository(repo) as r:
        with pytest.raises(AuthorityRefused, match=r"'\*\*'"):
            r.adopt_text("A note bound to nothing.", words=WORDS, by=MALLORY)
        r.adopt_text("The committer's own note.", words=WORDS, by=AUTHOR)
    write(repo, "forest.toml", _toml(everything=False))  # live: nobody holds '**' now
    with Repository(repo) as r:
        mallory = r.adopt_text("Mallory's note.", words=WORDS, by=MALLORY)
    write(repo, "forest.toml", _toml())
    commit_all(repo, "two unbound notes")
    [(code, act_id, detail)] = _authority(repo)
    acts = read_ledger(_ledger(repo)).acts
    assert code == "authority" and act_id is not None
    assert acts[act_id].payload.signer == MALLORY and mallory
    assert "tied to no path" in detail


def test_authority_pathless_act_without_everything_rule_accepted(tmp_path: Path) -> None:
    """Where [authority] lists no ``**``, an act tied to no path is open, like any
    path no glob matches."""
    path = make_repo(tmp_path)
    Repository.init(path, project_id=PROJECT).close()
    write(path, "forest.toml", _toml(everything=False))
    commit_all(path, "governed canon, nothing else")
    git(path, "checkout", "-q", "-b", "feature")
    with Repository(path) as r:
        r.adopt_text("Anyone's note.", words=WORDS, by=MALLORY)
    commit_all(path, "a note")
    assert check_range(path, "main").faults == ()


def test_authority_rebind_judged_on_every_path_the_chain_had_refused(repo: Path) -> None:
    """Moved by its holder out of the governed tree, a chain keeps its old path: a
    non-holder still cannot supersede it."""
    write(repo, "forest.toml", _toml() + f'"notes/**" = ["{ADA}", "{MALLORY}"]\n')
    write(repo, "notes/elias.md", SECTION)
    with Repository(repo) as r:
        from forest_files.custody.record import rebind_section

        binding = find_binding(all_bindings(r.synced()), TARGET)
        section = read_section(repo, "notes/elias.md#Elias", (), max_bytes=1 << 20)
        rebind_section(r, binding, section, by=ADA)
        [ground] = r.ground()
        text = "Elias sells the lighthouse."
        with pytest.raises(AuthorityRefused, match=r"canon/characters\.md"):
            r.supersede(
                ground.content_id,
                text,
                words="mine now",
                by=MALLORY,
                expected_body_hash=hash_body(text),
            )

"""Which erase acts a new act names: only those no erase act it names already holds.

Every erase act a live command records names the erase acts nothing later names yet
(tombstone.erase_heads), so each erase act lies in the dependency closure of the next
and an act naming the latest holds every earlier one: replay judges it against all of
them, and the deps an act names stay few however many erasures the ledger holds (they
grew by one per forget, and past ``MAX_ACT_DEPS`` every later act was refused)."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

from forest_files.custody import tombstone
from forest_files.custody.applied import ancestors_among
from forest_files.custody.repository import Repository
from forest_files.governance.forget import forget
from forest_files.ledger import read_ledger
from tests.helpers.custody import BY
from tests.helpers.git import commit_all, make_repo

SECRETS = [f"deploy token number {n} = s3cr3t-{n}-q7w3e9r1t5y2" for n in range(4)]


def forgotten_many(tmp_path: Path) -> tuple[Path, list[str]]:
    """Four texts adopted, sealed and forgotten one after another; the erase acts."""
    root = make_repo(tmp_path)
    Repository.init(root, project_id="p").close()
    erased: list[str] = []
    with Repository(root) as repo:
        for secret in SECRETS:
            cid = repo.adopt_text(f"{secret}\n", words="ok", by=BY)
            repo.seal(cid, words="hide it", by=BY)
            erased.append(forget(repo, cid, words="pasted by mistake", by=BY).act_id)
    commit_all(root, "forgotten")
    return root, erased


def test_erase_deps_each_forget_names_the_last_accepted(tmp_path: Path) -> None:
    root, erased = forgotten_many(tmp_path)
    acts = read_ledger(root / ".forest/ledger").acts
    for earlier, later in pairwise(erased):
        assert set(acts[later].deps) & set(erased) == {earlier}


def test_erase_deps_new_act_names_one_erase_holds_all_accepted(tmp_path: Path) -> None:
    root, erased = forgotten_many(tmp_path)
    with Repository(root) as repo:
        cid = repo.adopt_text("a harmless later text\n", words="ok", by=BY)
        store = repo.synced()
        assert sorted(tombstone.erase_acts(store)) == sorted(erased)
        assert tombstone.erase_heads(store) == [erased[-1]]
    acts = read_ledger(root / ".forest/ledger").acts
    (adopt,) = [a for a in acts.values() if a.kind == "adopt" and a.payload.entry.content_id == cid]
    assert set(adopt.deps) & set(erased) == {erased[-1]}
    with Repository(root) as repo:
        repo.rebuild()
        assert ancestors_among(repo.store(), adopt, set(erased)) == set(erased)

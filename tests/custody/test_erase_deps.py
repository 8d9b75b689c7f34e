"""Which erase acts a new act names: only those no erase act it names already holds.

Every erase act a live command records names the erase acts nothing later names yet
(tombstone.erase_heads), so each erase act lies in the dependency closure of the next
and an act naming the latest holds every earlier one: replay judges it against all of
them, and the deps an act names stay few however many erasures the ledger holds (they
grew by one per forget, and past ``MAX_ACT_DEPS`` every later act was refused).
Forgets on branches that never saw each other, merged, leave one head each: past the
bound, an act is refused saying so."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest

from forest_files.custody import tombstone
from forest_files.custody.applied import ancestors_among
from forest_files.custody.repository import Repository
from forest_files.governance.forget import forget
from forest_files.kernel.errors import ForestError
from forest_files.ledger import acts as acts_module
from forest_files.ledger import read_ledger
from tests.helpers.custody import BY
from tests.helpers.git import commit_all, git, make_repo
from tests.helpers.state import files_state

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


def forgotten_apart(tmp_path: Path) -> tuple[Path, list[str]]:
    """Two texts adopted and sealed, then one forgotten on each of two branches that
    never saw each other, merged: two erase acts no erase act names."""
    root = make_repo(tmp_path)
    Repository.init(root, project_id="p").close()
    with Repository(root) as repo:
        cids = [repo.adopt_text(f"{secret}\n", words="ok", by=BY) for secret in SECRETS[:2]]
        for cid in cids:
            repo.seal(cid, words="hide it", by=BY)
    commit_all(root, "sealed")
    git(root, "branch", "other")
    erased: list[str] = []
    for branch, cid in zip(("HEAD", "other"), cids, strict=True):
        git(root, "checkout", "-q", branch)
        with Repository(root) as repo:
            erased.append(forget(repo, cid, words="pasted by mistake", by=BY).act_id)
        commit_all(root, f"forgot on {branch}")
    git(root, "checkout", "-q", "-")
    git(root, "merge", "-q", "--no-edit", "other")
    with Repository(root) as repo:
        assert sorted(tombstone.erase_heads(repo.synced())) == sorted(erased)
    return root, erased


def test_erase_deps_heads_past_the_bound_say_why_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two erase heads and a bound of one (``MAX_ACT_DEPS``, 16,384, met by as many
    branches' forgets: the public bound set low here): the refusal says the erase acts
    are why, in one line, and nothing is written."""
    root, _erased = forgotten_apart(tmp_path)
    before = files_state(root), _index_rows(root)
    monkeypatch.setattr(acts_module, "MAX_DEPS", 1)
    with Repository(root) as repo, pytest.raises(ForestError) as refused:
        repo.adopt_text("a harmless later text\n", words="ok", by=BY)
    said = str(refused.value)
    assert said == (
        "an act names 2 deps, over the bound of 1 a reader accepts: 2 of them are erase "
        "acts no later erase act names (forgets recorded on branches that never saw each "
        "other, then merged), and every new act names each; it cannot be recorded"
    )
    assert (files_state(root), _index_rows(root)) == before


def _index_rows(root: Path) -> tuple[int, int]:
    """The index's entries and applied acts: a refused act adds neither."""
    with Repository(root) as repo:
        conn = repo.store().conn
        (entries,) = conn.execute("SELECT COUNT(*) FROM entries").fetchone()
        (applied,) = conn.execute("SELECT COUNT(*) FROM ledger_applied").fetchone()
    return int(entries), int(applied)


def test_erase_deps_heads_at_the_bound_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, erased = forgotten_apart(tmp_path)
    monkeypatch.setattr(acts_module, "MAX_DEPS", 2)
    with Repository(root) as repo:
        cid = repo.adopt_text("a harmless later text\n", words="ok", by=BY)
    acts = read_ledger(root / ".forest/ledger").acts
    (adopt,) = [a for a in acts.values() if a.kind == "adopt" and a.payload.entry.content_id == cid]
    assert sorted(adopt.deps) == sorted(erased)

"""What a view build asks of each act for the bodies it names: once, in a walk the
build makes anyway (custody/viewbuild.py, custody/replay.py).

A full build recorded the bodies the acts name for its manifest in a walk of its own
over every act after the replay (``_referenced``: a frozenset of each act's body
hashes); the replay's walk that finds the erase acts' bodies now names them too. An
incremental build asked each new act for its bodies twice (the bodies to read, then
the manifest's); once now. Counted, not timed: each act's body hashes asked. The
manifest is what it was: every body hash the acts name, with its blob id or absent.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from forest_files.custody import replay, viewbuild
from forest_files.custody.sources import ledger_blobs, segments_at
from forest_files.custody.viewbuild import build_view
from forest_files.custody.viewkey import ledger_fingerprint, view_path
from forest_files.custody.viewmanifest import sealed_manifest
from forest_files.ledger import act_refs, acts
from forest_files.ledger.acts import Act
from tests.helpers.custody import DOC, init_and_adopt, supersede_as_it_stands
from tests.helpers.git import commit_all, git, make_repo, write

NAMES = [f"d{i}.md" for i in range(6)]


def _repo(tmp_path: Path) -> Path:
    root = make_repo(tmp_path)
    for name in NAMES:
        write(root, name, DOC.replace("kept", name))
    init_and_adopt(root, [f"{n}#Keep" for n in NAMES])
    commit_all(root, "adopt")
    return root


def _asked(monkeypatch: pytest.MonkeyPatch) -> tuple[Counter[int], list[int]]:
    """(each payload's body refs asked, by payload id; the frozensets ``body_hashes``
    made), wherever a build asks them."""
    refs: Counter[int] = Counter()
    sets: list[int] = []
    real_refs: Callable[..., tuple[str, ...]] = act_refs.body_refs
    real_hashes: Callable[[Act], frozenset[str]] = acts.body_hashes

    def body_refs(payload: object) -> tuple[str, ...]:
        refs[id(payload)] += 1
        return real_refs(payload)

    def body_hashes(act: Act) -> frozenset[str]:
        sets.append(1)
        return real_hashes(act)

    monkeypatch.setattr(acts, "body_refs", body_refs)
    monkeypatch.setattr(replay, "body_refs", body_refs, raising=False)
    monkeypatch.setattr(viewbuild, "body_refs", body_refs, raising=False)
    monkeypatch.setattr(viewbuild, "body_hashes", body_hashes, raising=False)
    return refs, sets


def _expected(root: Path, source: str) -> dict[str, str | None]:
    """Every body hash the source's acts name, with its blob id there (None: absent)."""
    where = ledger_blobs(root, source)
    named = {
        h for a in segments_at(root, source).acts.values() for h in act_refs.body_refs(a.payload)
    }
    return {h: where.bodies.get(h) for h in named}


def test_view_full_build_names_bodies_in_the_replay_walk_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full build asks each act for its bodies once, in the replay's walk: no walk
    of its own after (before: a frozenset per act); the manifest as it was."""
    root = _repo(tmp_path)
    expected = _expected(root, "HEAD")
    refs, sets = _asked(monkeypatch)
    target = view_path(root, ledger_fingerprint(root, "HEAD"))
    assert build_view(root, "HEAD", False, target) == "full"
    assert sets == []
    assert len(refs) == len(segments_at(root, "HEAD").acts)
    assert set(refs.values()) == {1}
    sealed = sealed_manifest(target)
    assert sealed is not None
    assert dict(sealed[1].bodies) == expected
    assert len(expected) == len(NAMES) + 1  # each section's body and the adopting words


def test_view_incremental_build_asks_new_acts_bodies_once_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An incremental build asks each new act for its bodies once (before: twice, the
    bodies to read and the manifest's); the manifest holds every body named."""
    root = _repo(tmp_path)
    first = view_path(root, ledger_fingerprint(root, "index"))
    assert build_view(root, "index", False, first) == "full"
    write(root, "d0.md", DOC.replace("kept", "amended"))
    supersede_as_it_stands(root, "d0.md#Keep")
    git(root, "add", "-A")
    refs, sets = _asked(monkeypatch)
    second = view_path(root, ledger_fingerprint(root, "index"))
    assert build_view(root, "index", False, second) == "incremental"
    assert sets == []
    assert refs and set(refs.values()) == {1}, refs
    sealed = sealed_manifest(second)
    assert sealed is not None
    assert dict(sealed[1].bodies) == _expected(root, "index")

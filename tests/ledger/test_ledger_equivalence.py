"""Incremental sync equals a from-scratch rebuild, whatever order segments arrive in.

A random history of acts (adopt / supersede / seal / unseal; refusals are part
of the history) is recorded in one repository. Its segments are then copied into
a fresh repository with the same forest.toml in a random order, in random
batches — some committed to git, some not — with a ``sync()`` after each batch.
A batch whose acts miss a dependency must be refused (``dangling-dep``) without
touching the index; once everything has arrived, the views must equal those of
``rebuild()`` and of the original repository.
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from contextlib import closing
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from forest_files.custody.repository import GroundEntry, Repository
from forest_files.kernel.errors import ForestError
from forest_files.kernel.hashing import hash_body
from forest_files.ledger import LedgerError, read_ledger, read_segment, verify_ledger
from forest_files.ledger.segment_files import segment_paths
from tests.helpers.git import commit_all, make_repo

ADA = "Ada Lovelace <ada@example.org>"
WORDS = "I adopt this text as written"
LEDGER = Path(".forest") / "ledger"

TEXTS = ("The river floods in spring.", "Bees eat nectar.", "Stones sink.", "Owls hunt at night.")

adopt_op = st.tuples(st.just("adopt"), st.sampled_from(TEXTS))
op = st.one_of(
    adopt_op,
    st.tuples(st.just("supersede"), st.integers(0, 20), st.sampled_from(TEXTS)),
    st.tuples(st.just("seal"), st.integers(0, 20)),
    st.tuples(st.just("unseal"), st.integers(0, 20)),
)


Views = tuple[list[str], list[GroundEntry], list[GroundEntry], list[str]]


def _views(r: Repository) -> Views:
    ground, contested = r.ground(), r.contested()
    with closing(sqlite3.connect(r.index_path)) as db:
        applied = [str(row[0]) for row in db.execute("SELECT act_id FROM ledger_applied")]
    assert len(applied) == len(set(applied)), "an act was applied twice"
    return [g.content_id for g in ground], ground, contested, sorted(applied)


def _record(r: Repository, ops: list[tuple[object, ...]]) -> None:
    made: list[str] = []
    for step in ops:
        kind = step[0]
        try:
            if kind == "adopt":
                made.append(r.adopt_text(str(step[1]), words=WORDS, by=ADA))
                continue
            if not made:
                continue
            target = made[int(step[1]) % len(made)]  # type: ignore[call-overload]
            if kind == "supersede":
                body = f"{step[2]} (revision {len(made)})"
                made.append(
                    r.supersede(
                        target, body, words=WORDS, by=ADA, expected_body_hash=hash_body(body)
                    )
                )
            elif kind == "seal":
                r.seal(target, words="held back for review", by=ADA)
            else:
                r.unseal(target, words="released again", by=ADA)
        except ForestError as exc:
            assert not isinstance(exc, LedgerError), exc  # a live refusal, never corruption


def _closed(present: set[str], deps_of: dict[str, tuple[str, ...]]) -> bool:
    return all(dep in present for act in present for dep in deps_of[act])


@pytest.mark.slow
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    ops=st.builds(lambda first, rest: [first, *rest], adopt_op, st.lists(op, max_size=10)),
    data=st.data(),
)
def test_incremental_sync_equals_rebuild_and_original(
    tmp_path: Path, ops: list[tuple[object, ...]], data: st.DataObject
) -> None:
    with tempfile.TemporaryDirectory(dir=tmp_path) as scratch:
        base = Path(scratch)
        src = make_repo(base, "src")
        with Repository.init(src, project_id="equivalence") as r:
            _record(r, ops)
            original = _views(r)
        src_ledger = src / LEDGER
        segments = segment_paths(src_ledger)
        assert verify_ledger(src_ledger).ok

        dst = make_repo(base, "dst")
        shutil.copy2(src / "forest.toml", dst / "forest.toml")
        (dst / LEDGER / "segments").mkdir(parents=True)
        shutil.copy2(src / ".forest" / ".gitignore", dst / ".forest" / ".gitignore")
        if (src_ledger / "bodies").is_dir():
            shutil.copytree(src_ledger / "bodies", dst / LEDGER / "bodies")
        commit_all(dst, "forest.toml and bodies")

        event(f"{len(segments)} segment(s)")
        order = data.draw(st.permutations(segments), label="segment order")
        cuts = data.draw(
            st.lists(st.integers(1, max(1, len(order))), max_size=4, unique=True), label="cuts"
        )
        bounds = [0, *sorted(c for c in cuts if c < len(order)), len(order)]
        deps_of: dict[str, tuple[str, ...]] = {}
        acts_in: dict[Path, set[str]] = {}
        for seg in segments:
            acts = read_segment(seg)
            acts_in[seg] = {a.id for a in acts}
            deps_of.update((a.id, a.deps) for a in acts)

        present: set[str] = set()
        with Repository(dst) as r:
            r.sync()
            for lo, hi in pairwise(bounds):
                for seg in order[lo:hi]:
                    shutil.copy2(seg, dst / LEDGER / "segments" / seg.name)
                    present |= acts_in[seg]
                if data.draw(st.booleans(), label="commit this batch"):
                    commit_all(dst, f"segments {lo}..{hi}")
                before = _applied(r)
                if _closed(present, deps_of):
                    r.sync()
                    assert set(_applied(r)) == present
                else:
                    with pytest.raises(LedgerError) as info:
                        r.sync()
                    assert info.value.code == "dangling-dep"
                    event("a batch missing a dependency was refused")
                    assert _applied(r) == before  # refused whole: the index is untouched
            incremental = _views(r)
            assert set(incremental[3]) == set(read_ledger(dst / LEDGER).acts)
            r.rebuild()
            rebuilt = _views(r)
        assert incremental == rebuilt
        assert incremental == original
        assert verify_ledger(dst / LEDGER).ok


def _applied(r: Repository) -> list[str]:
    with closing(sqlite3.connect(r.index_path)) as db:
        return sorted(str(row[0]) for row in db.execute("SELECT act_id FROM ledger_applied"))

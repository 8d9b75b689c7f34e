"""The format-3 vectors of declared normalisations (tests/data/ledger-vectors-3-normalise,
made by tests/helpers/vectors3n.py): an adopt whose binding carries ``normalise`` and a
holder's rebind in place changing it rebuild in a fresh clone, re-encode byte for
byte, and the clone judges the file with the recorded list."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from forest_files.custody.bindings import all_bindings
from forest_files.custody.config import CONFIG_NAME, new_config, render_config
from forest_files.custody.repository import LEDGER_DIR, Repository
from forest_files.ledger import read_ledger
from forest_files.ledger.acts import build_act, encode_act
from forest_files.ledger.kinds import AdoptAct, RebindAct
from tests.helpers import cli as in_process
from tests.helpers.acts import VECTOR_PROJECT
from tests.helpers.git import make_repo, write
from tests.helpers.vectors3n import VECTOR3N_FILE, VECTOR3N_FIRST, VECTOR3N_PATH, VECTOR3N_SECOND

VECTORS = Path(__file__).resolve().parents[1] / "data" / "ledger-vectors-3-normalise"


def _expected() -> dict[str, Any]:
    return json.loads((VECTORS / "expected.json").read_text(encoding="utf-8"))


def test_vectors3n_acts_reencoded_accepted() -> None:
    acts = read_ledger(VECTORS).ordered()
    stated = [{"id": a.id, "kind": a.kind, "v": a.version, "deps": list(a.deps)} for a in acts]
    assert stated == _expected()["acts"]
    adopt, rebind = (a.payload for a in acts)
    assert isinstance(adopt, AdoptAct) and adopt.binding is not None
    assert adopt.binding.normalise == VECTOR3N_FIRST
    assert isinstance(rebind, RebindAct) and rebind.normalise == VECTOR3N_SECOND
    assert rebind.supersede is not None  # _x_ reads as *x* now: a new ground, with words
    for act in acts:
        rebuilt = build_act(act.payload, act.deps, scope=act.scope)
        assert (rebuilt.id, rebuilt.version) == (act.id, act.version)
        assert encode_act(rebuilt) == encode_act(act)


def test_vectors3n_fresh_clone_judges_with_recorded_list_rebuilt(tmp_path: Path) -> None:
    root = make_repo(tmp_path)
    (root / CONFIG_NAME).write_text(render_config(new_config(VECTOR_PROJECT)), encoding="utf-8")
    for sub in ("segments", "bodies"):
        shutil.copytree(VECTORS / sub, root / LEDGER_DIR / sub)
    write(root, VECTOR3N_PATH, VECTOR3N_FILE)
    expected = _expected()
    with Repository(root) as repo:
        repo.rebuild()
        assert [vars(g) for g in repo.ground()] == expected["ground"]
        [binding] = all_bindings(repo.synced())
        assert list(binding.excludes) == expected["rules"]
    assert in_process.kinds(root) == ["clean"]
    moved = VECTOR3N_FILE.replace("postgresql.org/", "example.org/")
    write(root, VECTOR3N_PATH, moved)  # the link target changed, outside the heading's text
    assert in_process.kinds(root) == ["drifted"]

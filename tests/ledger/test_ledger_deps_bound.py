"""Hostile: an act's ``deps`` list is bounded by the codec (kernel/bounds.py
``MAX_ACT_DEPS``), and an act missing many of its dependencies is one ``dangling-dep``
fault with their count, not one fault per missing id."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from forest_files.kernel import bounds
from forest_files.kernel.errors import ForestError
from forest_files.ledger import LedgerError, decode_line, make_act, verify_ledger, write_segment
from tests.helpers.acts import SAMPLE_BODIES, SCOPE, act_object, raw_line, sample_act


def _ids(n: int) -> list[str]:
    return sorted(hashlib.sha256(str(i).encode()).hexdigest() for i in range(n))


def _line(n_deps: int) -> bytes:
    obj = act_object(sample_act("write", n=1))
    obj["deps"] = _ids(n_deps)
    return raw_line(obj)


def test_act_deps_at_bound_accepted() -> None:
    act = decode_line(_line(bounds.MAX_ACT_DEPS), segment="s", lineno=1)
    assert len(act.deps) == bounds.MAX_ACT_DEPS


def test_act_deps_over_bound_refused() -> None:
    with pytest.raises(LedgerError) as info:
        decode_line(_line(bounds.MAX_ACT_DEPS + 1), segment="seg", lineno=7)
    assert info.value.code == "malformed"
    assert (info.value.segment, info.value.line) == ("seg", 7)
    assert f"over the bound of {bounds.MAX_ACT_DEPS}" in info.value.reason


def test_make_act_deps_over_bound_refused() -> None:
    payload = act_object(sample_act("write", n=1))
    fields = {k: v for k, v in payload.items() if k not in ("v", "kind", "deps", "scope")}
    make_act("write", _ids(bounds.MAX_ACT_DEPS), fields, scope=SCOPE)
    with pytest.raises(ForestError, match=f"over the bound of {bounds.MAX_ACT_DEPS}"):
        make_act("write", _ids(bounds.MAX_ACT_DEPS + 1), fields, scope=SCOPE)


def test_verify_act_missing_3000_deps_one_fault_detected(tmp_path: Path) -> None:
    """3,000 missing dependencies of one act: one fault naming the act and the count."""
    orphan = sample_act("write", _ids(3000), n=2)
    write_segment(tmp_path, [orphan], SAMPLE_BODIES)
    report = verify_ledger(tmp_path)
    (fault,) = report.faults
    assert (fault.code, fault.act_id, fault.line) == ("dangling-dep", orphan.id, 1)
    assert "3000 acts" in fault.detail and fault.dep == _ids(3000)[0]
    assert fault.deps == tuple(_ids(3000))


def test_verify_act_missing_one_dep_names_it_detected(tmp_path: Path) -> None:
    (missing,) = _ids(1)
    orphan = sample_act("write", [missing], n=2)
    write_segment(tmp_path, [orphan], SAMPLE_BODIES)
    (fault,) = verify_ledger(tmp_path).faults
    assert fault.detail == f"act {orphan.id} depends on {missing}, which is not in the ledger"
    assert fault.deps == (missing,)

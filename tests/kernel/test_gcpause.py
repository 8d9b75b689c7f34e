"""kernel/gcpause.py: collection is off inside and comes back as it was, even on error."""

from __future__ import annotations

import gc

import pytest

from forest_files.kernel.gcpause import gc_paused


@pytest.fixture
def gc_state():
    was = gc.isenabled()
    yield
    gc.enable() if was else gc.disable()


def test_paused_inside_and_restored_after_an_error(gc_state) -> None:
    gc.enable()
    with pytest.raises(RuntimeError), gc_paused():
        assert not gc.isenabled()
        raise RuntimeError("mid-replay")
    assert gc.isenabled()


def test_left_off_when_it_was_off_before(gc_state) -> None:
    gc.disable()
    with gc_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()

"""One way to make a ``Binding`` without its frozen ``__init__`` (custody/bindings.py
``made``): the fold of ``all_bindings`` and a saved map's rows (bindmap.py ``load``,
each row ending with its ground) both go through it."""

from __future__ import annotations

from dataclasses import astuple

import pytest

from forest_files.custody.bindings import Binding, made

_FIELDS = ("b1", "a.md", "#Keep", ("x",), "none", "sha256", "h" * 64, 3, "sig", False, True)


def test_made_equals_init_and_ignores_a_trailing_ground_accepted() -> None:
    want = Binding(*_FIELDS)
    plain, grounded = made([list(_FIELDS), (*_FIELDS, ("cid", "hash", False))])
    for got in (plain, grounded):
        assert got == want and hash(got) == hash(want) and repr(got) == repr(want)
        assert astuple(got) == _FIELDS
    with pytest.raises(AttributeError):
        plain.path = "b.md"  # type: ignore[misc]  # still frozen


def test_made_refuses_a_short_state_hostile() -> None:
    with pytest.raises(ValueError, match="holds 10 values, not 11"):
        made([_FIELDS[:-1]])

"""Every binding's state (custody/bindings.py ``all_bindings``) is folded from its
events into ``Binding``'s fields in order, then made a ``Binding`` once: the fold
built a dict of named fields per binding, read each event by column name, and a
helper made each ``Binding`` from the dict's keywords again (10,000 of each in a
fresh clone's ``forest ci``). No timing is asserted: the calls into bindings.py are
counted, and the bindings are those the index holds (a retired one among them)."""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import fields
from pathlib import Path
from types import FrameType
from typing import Any

from forest_files.custody import bindings
from forest_files.custody.repository import Repository
from tests.helpers.custody import retire, two_bound_files


def _calls(store: Any, **kw: Any) -> tuple[list[bindings.Binding], Counter[str]]:
    """``all_bindings(store, **kw)``, and the calls it made into bindings.py by name."""
    made: Counter[str] = Counter()

    def seen(frame: FrameType, event: str, _: object) -> None:
        if event == "call" and frame.f_code.co_filename == bindings.__file__:
            made[frame.f_code.co_name] += 1

    sys.setprofile(seen)
    try:
        found = bindings.all_bindings(store, **kw)
    finally:
        sys.setprofile(None)
    return found, made


def _again(made: Counter[str]) -> dict[str, int]:
    """The functions called more than once, but the sort's key and the comprehensions
    (each run once, a call of its own)."""
    return {name: n for name, n in made.items() if n > 1 and name not in _ONCE_EACH}


_ONCE_EACH = ("<lambda>", "<listcomp>")


def test_all_bindings_no_call_per_binding_but_the_sort_accepted(tmp_path: Path) -> None:
    root = two_bound_files(tmp_path)
    with Repository(root) as repo:
        found, made = _calls(repo.synced())
    assert [(b.path, b.retired, b.contested) for b in found] == [
        ("a.md", False, False),
        ("b.md", False, False),
    ]
    assert made["<lambda>"] == len(found)  # the sort's key, once a binding
    assert _again(made) == {}, made  # the fold's dict was made a Binding by a call each


def test_all_bindings_retired_kept_when_asked_accepted(tmp_path: Path) -> None:
    root = two_bound_files(tmp_path)
    retire(root, "b.md#Keep")
    with Repository(root) as repo:
        live, _ = _calls(repo.synced())
        every, made = _calls(repo.synced(), include_retired=True)
    assert [(b.path, b.retired, b.contested) for b in live] == [("a.md", False, False)]
    assert [(b.path, b.retired, b.contested) for b in every] == [
        ("a.md", False, False),
        ("b.md", True, False),
    ]
    assert every[1].bound_by == every[0].bound_by  # who bound it, kept past its retire
    assert _again(made) == {}, made


def test_all_bindings_made_without_frozen_init_accepted(tmp_path: Path) -> None:
    """Each ``Binding`` is made once with its instance dict filled in place, not through
    the frozen dataclass ``__init__`` (an ``object.__setattr__`` a field: 10,000 of them
    in a fresh clone's ``forest ci``); each equals, and hashes as, the ``Binding`` its
    fields make through ``__init__``."""
    root = two_bound_files(tmp_path)
    retire(root, "b.md#Keep")
    init = bindings.Binding.__init__.__code__
    inits = 0

    def seen(frame: FrameType, event: str, _: object) -> None:
        nonlocal inits
        if event == "call" and frame.f_code is init:
            inits += 1

    with Repository(root) as repo:
        store = repo.synced()
        sys.setprofile(seen)
        try:
            found = bindings.all_bindings(store, include_retired=True)
        finally:
            sys.setprofile(None)
    assert len(found) == 2
    assert inits == 0  # was one a binding
    for b in found:
        again = bindings.Binding(*(getattr(b, f.name) for f in fields(bindings.Binding)))
        assert b == again and hash(b) == hash(again) and repr(b) == repr(again)

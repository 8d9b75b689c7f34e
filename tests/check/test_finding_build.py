"""A ``Finding`` built without the frozen ``__init__`` (finding.py ``replaced`` and
``clean_finding``, which engine's short clean way uses too) is the value the dataclass
builds: field by field, equal, same hash, repr and attribute order. A check of moved
files builds no finding through the per-field ``__init__`` (counted)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from forest_files.check.engine import Finding, check_all
from forest_files.check.finding import Reason, clean_finding, replaced
from forest_files.check.opening import open_custody
from tests.helpers.custody import two_bound_files
from tests.helpers.git import git

BASE = Finding(
    kind="clean",
    path="a.md",
    selector="a.md#Keep",
    binding="b" * 64,
    ground="g" * 64,
    expected_hash="e" * 64,
)
CHANGES: list[dict[str, Any]] = [
    {},
    {"kind": "missing", "detail": "the bound file is gone", "excludes": ("#Other",)},
    {"kind": "moved", "moved_to": "b.md#Keep", "start_line": 3, "end_line": 6},
    {"kind": "unresolved", "candidates": ("b.md#X", "c.md#Y"), "candidate_lines": (1, 9)},
    {"kind": "unresolved", "reason": Reason("copies"), "act": "a" * 64, "places": ("x.md",)},
    {"kind": "drifted", "actual_hash": "f" * 64, "ground": None, "expected_hash": None},
]


def _same(fast: Finding, slow: Finding) -> None:
    assert type(fast) is Finding
    for field in dataclasses.fields(Finding):
        assert getattr(fast, field.name) == getattr(slow, field.name), field.name
    assert fast == slow
    assert hash(fast) == hash(slow)
    assert repr(fast) == repr(slow)
    assert list(vars(fast).items()) == list(vars(slow).items())


@pytest.mark.parametrize("changes", CHANGES)
def test_replaced_equals_the_dataclass_built_finding_field_by_field_accepted(
    changes: dict[str, Any],
) -> None:
    _same(replaced(BASE, **changes), dataclasses.replace(BASE, **changes))
    twice = replaced(replaced(BASE, **changes), detail="again")
    _same(twice, dataclasses.replace(BASE, **{**changes, "detail": "again"}))


def test_clean_finding_equals_the_dataclass_built_one_accepted() -> None:
    _same(clean_finding("a.md", "a.md#Keep", "b" * 64, "g" * 64, "e" * 64), BASE)
    _same(
        clean_finding("a.md", "a.md", "b" * 64, None, None),
        Finding("clean", "a.md", "a.md", "b" * 64, None, None),
    )


def test_replaced_with_a_name_no_field_refused() -> None:
    with pytest.raises(TypeError, match="colour"):
        replaced(BASE, colour="red")
    with pytest.raises(dataclasses.FrozenInstanceError):
        replaced(BASE, kind="moved").kind = "clean"  # type: ignore[misc]  # frozen, still


def test_moved_files_check_builds_no_finding_through_init_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both bound files moved: each binding's finding is judged ``missing``, then
    ``moved`` by the run's one search. Before, each took three per-field ``__init__``
    runs (its clean base, missing, moved); now none, and the findings are the same."""
    root = two_bound_files(tmp_path)
    git(root, "mv", "a.md", "a2.md")
    git(root, "mv", "b.md", "b2.md")
    built: list[int] = []
    real = Finding.__init__

    def counting(self: Finding, *args: Any, **kwargs: Any) -> None:
        built.append(1)
        real(self, *args, **kwargs)

    monkeypatch.setattr(Finding, "__init__", counting)
    with open_custody(root, "worktree") as custody:
        found = check_all(None, custody.bindings, custody.content, grounds=custody.grounds)
    assert [(f.kind, f.moved_to, f.start_line) for f in found] == [
        ("moved", "a2.md#Title/Keep", 3),
        ("moved", "b2.md#Title/Keep", 3),
    ]
    assert built == []

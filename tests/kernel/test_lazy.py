"""Lazy package exports (forest_files/kernel/lazy.py): every exported name resolves to its
defining module's object, unknown names raise, and nothing loads before use."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

import forest_files
import forest_files.doors.hooks
import forest_files.ledger

PACKAGES = [forest_files, forest_files.ledger, forest_files.doors.hooks]


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.__name__)
def test_every_export_is_the_defining_modules_object(package: object) -> None:
    names = [n for n in dir(package) if not n.startswith("_") and n != "TYPE_CHECKING"]
    assert names
    for name in names:
        value = getattr(package, name)
        home = getattr(value, "__module__", None)
        if isinstance(home, str) and home.startswith("forest_files"):
            assert getattr(importlib.import_module(home), name, value) is value


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.__name__)
def test_unknown_name_raises_attribute_error(package: object) -> None:
    with pytest.raises(AttributeError, match="no attribute 'not_exported'"):
        getattr(package, "not_exported")  # noqa: B009


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.__name__)
def test_dir_lists_a_loaded_export_once_accepted(package: object) -> None:
    """A name loaded on first use is stored in the package's namespace and still in its
    export table: ``dir()`` (and so tab completion, ``help()``) lists it once."""
    exported = [n for n in dir(package) if not n.startswith("_") and n != "TYPE_CHECKING"]
    for name in exported:
        getattr(package, name)
    listed = dir(package)
    assert len(listed) == len(set(listed)), sorted(n for n in listed if listed.count(n) > 1)


def test_importing_the_packages_loads_no_store_and_no_installer() -> None:
    code = (
        "import sys, forest_files, forest_files.ledger, forest_files.doors.hooks\n"
        "print(sorted(m for m in sys.modules if m.startswith('forest_files')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert "forest_files.store" not in out
    assert "forest_files.doors.hooks.installer" not in out
    assert "forest_files.ledger.segments" not in out

"""Repositories built once and copied: a module's set-up paid once, each test its own copy.

A copy is the whole directory, ``.git`` included (``shutil.copytree``, symlinks kept
as symlinks): its own objects, index, refs and local state, nothing shared with the
original or another copy. Build only what every test of the module starts from;
hooks (which record paths) are installed on the copy.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.helpers.git import isolate


@contextmanager
def isolated() -> Iterator[None]:
    """The fixed git environment of ``conftest._isolated_git`` for a fixture wider
    than one test (which runs before that autouse fixture)."""
    patch = pytest.MonkeyPatch()
    isolate(patch)
    try:
        yield
    finally:
        patch.undo()


def built_once(factory: pytest.TempPathFactory, build: Callable[[Path], Path]) -> Path:
    """``build(directory)`` run once in a fresh temporary directory; the repository it returns."""
    with isolated():
        return build(factory.mktemp("template"))


def copy_repo(template: Path, dest: Path) -> Path:
    """A private copy of ``template`` at ``dest`` (which must not exist)."""
    return Path(shutil.copytree(template, dest, symlinks=True))

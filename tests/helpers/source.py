"""A copy of this checkout's package to build and install from.

pip builds a local directory in place (setuptools writes ``build/`` and
``*.egg-info`` beside ``pyproject.toml``), so two tests installing the checkout
itself at the same time (pytest-xdist) race on one ``build/`` folder and one of
them fails with a missing file. Each test builds its own copy instead: the files
a wheel is made of, nothing else.
"""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# What ``pip install DIR`` reads to build the wheel (pyproject.toml names the
# README as the long description and the licence file).
_FILES = ("pyproject.toml", "README.md", "LICENSE")


def source_copy(dest: Path) -> Path:
    """This checkout's package sources copied to ``dest`` (created); returns ``dest``."""
    dest.mkdir(parents=True)
    for name in _FILES:
        shutil.copy2(ROOT / name, dest / name)
    shutil.copytree(
        ROOT / "forest_files",
        dest / "forest_files",
        ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"),
    )
    return dest

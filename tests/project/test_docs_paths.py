"""Every module path the README, bench/README.md and docs/*.md name in code spans
(``custody/verdict.py``, ``forest_files/check/engine.py``) is a file of the package:
a newcomer who follows a page to a room finds it there.

Stores: nothing.
Refuses: nothing; fails when a page names a module path that does not exist.
Returns: nothing.
Test: this file.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", ROOT / "bench" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SPAN = re.compile(r"`([^`\s]+)`")
MODULE = re.compile(r"(?:forest_files/)?([a-z_]+(?:/[a-z_]+)+)(?:\.py)?")
PACKAGE = ROOT / "forest_files"
# Every module and folder of the package, as paths under it (``doors/watch/events``).
KNOWN = {
    p.relative_to(PACKAGE).with_suffix("").as_posix()
    for p in PACKAGE.rglob("*")
    if (p.suffix == ".py" or p.is_dir()) and "__pycache__" not in p.parts
}
# A span names a module when it ends in ``.py`` and its first folder is one of the
# package's (at any depth: ``watch/events.py``), or, without ``.py``, when that folder is
# one of the top-level rooms or a room the package once had (``files/``); git's own
# paths (``hooks/update`` in a bare repository) are not the package's.
ROOMS = {part for known in KNOWN for part in known.split("/")[:-1]} | {"files"}
TOP = {known for known in KNOWN if "/" not in known} | {"files"}


def _named(text: str) -> list[tuple[int, str]]:
    found = []
    for n, line in enumerate(text.splitlines(), 1):
        for span in SPAN.findall(line):
            name = span.split(":")[0]
            m = MODULE.fullmatch(name)
            if m is None:
                continue
            first = m.group(1).split("/")[0]
            if first in (ROOMS if name.endswith(".py") else TOP):
                found.append((n, m.group(1)))
    return found


def _exists(path: str) -> bool:
    """A module or folder of the package, named from its top or from a room inside it."""
    return any(known == path or known.endswith(f"/{path}") for known in KNOWN)


def test_docs_name_existing_modules_accepted() -> None:
    missing = [
        f"{page.relative_to(ROOT)}:{n}: {path}"
        for page in PAGES
        for n, path in _named(page.read_text(encoding="utf-8"))
        if not _exists(path)
    ]
    assert missing == []


def test_docs_paths_check_catches_a_moved_module_refused() -> None:
    """The check itself: a page naming a module of a room that moved is caught."""
    named = _named("see `files/verdict.py` and `custody/verdict.py`, `a/b` too")
    assert [p for _, p in named if not _exists(p)] == ["files/verdict"]

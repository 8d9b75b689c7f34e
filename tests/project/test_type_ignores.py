"""Every ``# type: ignore`` in the package names its error code and says why on the
same line: mypy strict stays clean without silencing what nobody explained.

Stores: nothing.
Refuses: nothing; fails on a bare ignore, or one without a reason after it.
Returns: nothing.
Test: this file.
"""

from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "forest_files"
IGNORE = re.compile(r"#\s*type:\s*ignore(?P<code>\[[a-z, -]+\])?(?P<rest>.*)$")


def unexplained(text: str) -> list[int]:
    """The lines of ``text`` whose ignore has no code, or no ``# why`` after it."""
    bad = []
    for n, line in enumerate(text.splitlines(), 1):
        m = IGNORE.search(line)
        if m is not None and (m.group("code") is None or not m.group("rest").strip(" #")):
            bad.append(n)
    return bad


def test_every_type_ignore_says_why_accepted() -> None:
    found = [
        f"{path.relative_to(PACKAGE.parent)}:{n}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for n in unexplained(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_type_ignore_check_catches_bare_and_unexplained_refused() -> None:
    text = (
        "x = f()  # type: ignore\n"
        "y = g()  # type: ignore[arg-type]\n"
        "z = h()  # type: ignore[misc]  # the stub lacks it\n"
    )
    assert unexplained(text) == [1, 2]

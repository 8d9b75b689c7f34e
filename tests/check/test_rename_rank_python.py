"""Rename candidates of a Python symbol, likeliest first: a function wrapped in an
``if``/``else`` (two indented copies, ``f[1]`` and ``f[2]``) is offered at its own two
places before a sibling of a similar name and docstring. The ``[n]`` of a candidate
was scored as part of its name and the indentation made every line of the copies
differ from ground, so the first route rebound the chain to the sibling."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.cli import findings, ok
from tests.helpers.git import commit_all, make_repo, write

DOC = '    """Check the type.\n\n    Raises TypeError when it is wrong.\n    """\n'
ONE = f"def check_type(value):\n{DOC}    return isinstance(value, int)\n"
SIBLING = f"def check_types(values):\n{DOC}    return all(isinstance(v, int) for v in values)\n"


def _indented(text: str) -> str:
    return "".join(f"    {line}" if line.strip() else line for line in text.splitlines(True))


def test_symbol_wrapped_in_conditional_own_copies_ranked_first_detected(tmp_path: Path) -> None:
    root = make_repo(tmp_path)
    ok(root, "init")
    write(root, "m.py", f"{ONE}\n\n{SIBLING}")
    ok(root, "adopt", "m.py::check_type", "--words", "Signed off")
    commit_all(root, "adopt")
    both = f"if FAST:\n{_indented(ONE)}else:\n{_indented(ONE)}"
    write(root, "m.py", f"FAST = False\n{both}\n\n{SIBLING}")
    (found,) = [f for f in findings(root) if f["selector"] == "m.py::check_type"]
    assert found["kind"] == "unresolved"
    assert found["candidates"][:2] == ["m.py::check_type[1]", "m.py::check_type[2]"]

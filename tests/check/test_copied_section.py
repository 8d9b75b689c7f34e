"""A bound Python class whose unchanged text stands twice (pasted again below or above
itself): the selector matches both, and the routes said "keep the chain at the renamed
section … --words" as though the text had changed. Python keeps the later class, so the
bound text runs at ``Foo[2]`` only: the finding is ``moved`` there, rebound without
words, and never offers the replaced ``Foo[1]``."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.cli import findings, ok
from tests.helpers.git import commit_all, make_repo, write

CLASS = "class Foo:\n    def bar(self):\n        return 1\n"


def test_symbol_pasted_twice_copies_routed_without_words_detected(tmp_path: Path) -> None:
    """The class pasted below itself replaces the first one (Python keeps the later
    binding of a name: text/pysymbol.py), so the bound text runs at ``Foo[2]`` only:
    ``moved`` there, never to the dead ``Foo[1]``, rebound without words."""
    root = make_repo(tmp_path)
    ok(root, "init")
    write(root, "m.py", f"import os\n\n\n{CLASS}\n\ndef baz():\n    return 2\n")
    ok(root, "adopt", "m.py::Foo", "--words", "Signed off")
    commit_all(root, "adopt")
    write(root, "m.py", (root / "m.py").read_text() + f"\n\n{CLASS}")
    (found,) = findings(root)
    assert found["kind"] == "moved", found
    assert found["moved_to"] == "m.py::Foo[2]"  # never m.py::baz, never the dead Foo[1]
    binds = [r["argv"][0] for r in found["routes"] if "rebind" in (r["command"] or "")]
    assert [argv[3] for argv in binds] == ["m.py::Foo[2]"]
    assert all("--words" not in argv for argv in binds), binds
    ok(root, *binds[0][1:])  # the printed rebind, as printed: no words to fill in
    assert [f["kind"] for f in findings(root)] == ["clean"]


def test_symbol_pasted_above_itself_moved_to_the_later_copy_detected(tmp_path: Path) -> None:
    """Pasted above itself: the bound text runs at ``Foo[2]`` again (the pasted copy is
    the replaced one)."""
    root = make_repo(tmp_path)
    ok(root, "init")
    write(root, "m.py", f"import os\n\n\n{CLASS}")
    ok(root, "adopt", "m.py::Foo", "--words", "Signed off")
    commit_all(root, "adopt")
    write(root, "m.py", f"import os\n\n\n{CLASS}\n\n{CLASS}")
    (found,) = findings(root)
    assert (found["kind"], found["moved_to"]) == ("moved", "m.py::Foo[2]"), found


def test_markdown_section_pasted_twice_copies_routed_without_words_detected(
    tmp_path: Path,
) -> None:
    """A Markdown section pasted again below itself: no copy replaces the other, so
    both places are named with their lines, the text said unchanged, and the routes
    remove the copy or bind one of them (no words)."""
    root = make_repo(tmp_path)
    ok(root, "init")
    write(root, "a.md", "# Title\n\n## Keep\n\nkept words\n\n## Other\n\nother\n")
    ok(root, "adopt", "a.md#Title/Keep", "--words", "Signed off")
    commit_all(root, "adopt")
    write(
        root,
        "a.md",
        "# Title\n\n## Keep\n\nkept words\n\n## Keep\n\nkept words\n\n## Other\n\nother\n",
    )
    (found,) = findings(root)
    assert found["kind"] == "unresolved", found
    assert found["candidates"] == ["a.md#Title/Keep[1]", "a.md#Title/Keep[2]"]
    assert "unchanged" in found["detail"]
    assert "(line 3)" in found["detail"] and "(line 7)" in found["detail"], found["detail"]
    labels = [r["label"] for r in found["routes"]]
    assert labels[0] == "remove the copy" and "renamed" not in " ".join(labels), labels
    binds = [r["argv"][0] for r in found["routes"] if "rebind" in (r["command"] or "")]
    assert [argv[3] for argv in binds] == found["candidates"]
    assert all("--words" not in argv for argv in binds), binds
    ok(root, *binds[1][1:])  # the printed rebind, as printed: no words to fill in
    assert [f["kind"] for f in findings(root)] == ["clean"]

"""A bound section whose unchanged text stands twice (a class pasted again below
itself): the selector matches both, and the routes said "keep the chain at the renamed
section … --words" as though the text had changed. They name both places with their
lines, say the text is unchanged, and offer what resolves it: remove the copy, or bind
one of them (no words)."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.cli import findings, ok
from tests.helpers.git import commit_all, make_repo, write

CLASS = "class Foo:\n    def bar(self):\n        return 1\n"


def test_symbol_pasted_twice_copies_routed_without_words_detected(tmp_path: Path) -> None:
    root = make_repo(tmp_path)
    ok(root, "init")
    write(root, "m.py", f"import os\n\n\n{CLASS}\n\ndef baz():\n    return 2\n")
    ok(root, "adopt", "m.py::Foo", "--words", "Signed off")
    commit_all(root, "adopt")
    write(root, "m.py", (root / "m.py").read_text() + f"\n\n{CLASS}")
    (found,) = findings(root)
    assert found["kind"] == "unresolved", found
    assert found["candidates"] == ["m.py::Foo[1]", "m.py::Foo[2]"]  # never m.py::baz
    assert "unchanged" in found["detail"]
    assert "(line 4)" in found["detail"] and "(line 13)" in found["detail"], found["detail"]
    labels = [r["label"] for r in found["routes"]]
    assert labels[0] == "remove the copy" and "renamed" not in " ".join(labels), labels
    binds = [r["argv"][0] for r in found["routes"] if "rebind" in (r["command"] or "")]
    assert [argv[3] for argv in binds] == found["candidates"]
    assert all("--words" not in argv for argv in binds), binds
    ok(root, *binds[1][1:])  # the printed rebind, as printed: no words to fill in
    assert [f["kind"] for f in findings(root)] == ["clean"]

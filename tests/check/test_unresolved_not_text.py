"""A bound file the reader refuses (a NUL byte, bytes that are not UTF-8, a lone CR)
is ``unresolved``; its routes say what is wrong, where (the refusal's byte offset and
its line) and how to fix it. They were the routes of a
heading gone ("put the section back … restore the heading the selector names", "no
heading stands where it stood"), and in ``forest ci`` a ``forest show`` amended into
HEAD. A whole-file binding's first route is ``forest restore``, which writes the
adopted text over the whole file (tests/custody/test_restore_not_text.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.cli import findings, forest, kinds, ok
from tests.helpers.git import commit_all, git, make_repo, pasted, write

DOC = "# Title\n\nintro\n\n## Canon\n\nThe sky is blue.\n"
WHOLE = "line one\nline two\n"
# the damage (a line of DOC's written so), what its route says of it, and at which
# byte of that line
DAMAGE = {
    "nul": (b"The sky\x00is blue.", "a NUL byte", 7),
    "not-utf8": (b"The sky \xff\xfe blue.", "bytes that are not UTF-8", 8),
    "lone-cr": (b"The sky\ris blue.", "a lone CR", 7),
}


def _words(how: str, at: int, line: int) -> str:
    """The route's words for the damage ``how`` in a file whose damaged line starts at
    byte ``at`` and is its ``line``th (every refusal names the line: where to look)."""
    _, what, offset = DAMAGE[how]
    return f"{what} at byte offset {at + offset} (line {line})"


def _repo(tmp_path: Path) -> Path:
    root = make_repo(tmp_path)
    ok(root, "init")
    write(root, "doc.md", DOC)
    write(root, "whole.txt", WHOLE)
    ok(root, "adopt", "doc.md#Canon", "--words", "canon")
    ok(root, "adopt", "whole.txt", "--words", "whole")
    commit_all(root, "adopt")
    return root


def _damage(root: Path, how: str) -> None:
    bad, _, _ = DAMAGE[how]
    write(root, "doc.md", DOC.encode().replace(b"The sky is blue.", bad))
    write(root, "whole.txt", b"line one\n" + bad + b"\n")


def _said(found: dict[str, Any]) -> str:
    return " ".join(f"{r['label']}: {r['command'] or ''} {r['note']}" for r in found["routes"])


@pytest.mark.parametrize("how", sorted(DAMAGE))
def test_section_of_a_refused_file_routed_to_the_byte_detected(tmp_path: Path, how: str) -> None:
    root = _repo(tmp_path)
    _damage(root, how)
    doc = next(f for f in findings(root) if f["path"] == "doc.md")
    assert doc["kind"] == "unresolved", doc
    said = _said(doc)
    assert _words(how, DOC.index("The sky"), 7) in said, said
    assert "heading" not in said and "forest show" not in said, said
    assert [r["label"] for r in doc["routes"]] == ["fix the file", "or end the binding"], said
    assert "forest check doc.md" in said, said


# what the finding's detail says fixes each damage in a file already bound
FIXED_BY = {
    "nul": "a bound file must stay text: remove that byte",
    "not-utf8": "a bound file must stay UTF-8 text: save it as UTF-8 (or remove those bytes)",
    "lone-cr": "end that line with LF (or CRLF) or remove the CR",
}


@pytest.mark.parametrize("how", sorted(DAMAGE))
def test_refused_bound_file_detail_says_what_fixes_it_detected(tmp_path: Path, how: str) -> None:
    """The detail ends with the fix of a file already bound, not the advice of an
    adoption ("only UTF-8 text files can be bound … or bind a text file instead")."""
    root = _repo(tmp_path)
    _damage(root, how)
    for found in findings(root):
        assert found["kind"] == "unresolved", found
        assert "can be bound" not in found["detail"], found["detail"]
        assert "bind a text file" not in found["detail"], found["detail"]
        assert found["detail"].endswith(FIXED_BY[how]), found["detail"]


@pytest.mark.parametrize("how", sorted(DAMAGE))
def test_whole_file_refused_restore_route_pasted_recovers(tmp_path: Path, how: str) -> None:
    root = _repo(tmp_path)
    _damage(root, how)
    whole = next(f for f in findings(root) if f["path"] == "whole.txt")
    assert whole["kind"] == "unresolved", whole
    first, fix, _retire = whole["routes"]
    assert first["command"] == "forest restore whole.txt", whole
    assert fix["label"] == "or fix the file" and _words(how, 9, 2) in fix["note"], fix
    done = pasted(root, first["command"])
    assert done.returncode == 0, done.stderr
    assert (root / "whole.txt").read_text(encoding="utf-8") == WHOLE
    assert "clean" in kinds(root)


def test_whole_file_refused_staged_route_pasted_recovers(tmp_path: Path) -> None:
    """The hook's route writes the file and stages it again: the commit goes through."""
    root = _repo(tmp_path)
    write(root, "whole.txt", b"line one\x00\n")
    git(root, "add", "whole.txt")
    out = json.loads(forest(root, "check", "--staged", "--json").stdout)
    (whole,) = [f for f in out["findings"] if f["path"] == "whole.txt"]
    first = whole["routes"][0]
    assert first["command"] == "forest restore whole.txt && git add -- whole.txt", whole
    assert pasted(root, first["command"]).returncode == 0
    again = json.loads(forest(root, "check", "--staged", "--json").stdout)
    assert again["ok"], again


def test_refused_file_ci_routes_fix_the_file_detected(tmp_path: Path) -> None:
    """``forest ci``: no ``forest show`` amended into HEAD; the fix, then the restore of
    the whole file amended into HEAD."""
    root = _repo(tmp_path)
    _damage(root, "lone-cr")
    git(root, "commit", "-q", "--no-verify", "-am", "damage")
    done = pasted(root, "forest ci --base HEAD~1 --format json")
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    by_path = {f["path"]: f for f in report["findings"]}
    said = _said(by_path["doc.md"])
    assert "forest show" not in said and _words("lone-cr", 26, 7) in said, said
    restore = by_path["whole.txt"]["routes"][0]["command"]
    assert restore.startswith("forest restore whole.txt && git add -- whole.txt && git commit")


def test_whole_file_refused_and_staged_worktree_route_stages_it_again_recovers(
    tmp_path: Path,
) -> None:
    """``git add`` took the damaged file: the working tree's restore route stages the
    file it wrote, or the index would keep the damage for the commit."""
    root = _repo(tmp_path)
    write(root, "whole.txt", b"line one\x00\n")
    git(root, "add", "whole.txt")
    (whole,) = [f for f in findings(root) if f["path"] == "whole.txt"]
    first = whole["routes"][0]
    assert first["command"] == "forest restore whole.txt && git add -- whole.txt", whole
    assert pasted(root, first["command"]).returncode == 0
    assert json.loads(forest(root, "check", "--staged", "--json").stdout)["ok"]


EXCLUDED = "# Notes\n\nkeep\n\n## Scratch\n\nwip\n"


@pytest.mark.parametrize(
    "how", [("--exclude", "#Notes/Scratch"), ("--normalise", "trailing-whitespace")]
)
def test_whole_file_with_exclusions_refused_offered_no_restore_detected(
    tmp_path: Path, how: tuple[str, str]
) -> None:
    """A whole-file binding with exclusions (or declared normalisations) needs the file's
    text to restore around them, so restore refuses a file the reader refuses: its
    finding carries the binding's exclusions, and no route offers that restore."""
    root = make_repo(tmp_path)
    ok(root, "init")
    write(root, "notes.md", EXCLUDED)
    ok(root, "adopt", "notes.md", *how, "--words", "notes")
    commit_all(root, "adopt")
    write(root, "notes.md", EXCLUDED.encode().replace(b"keep", b"ke\xffp"))
    (found,) = findings(root)
    assert found["kind"] == "unresolved", found
    said = _said(found)
    assert "forest restore" not in said, said
    assert [r["label"] for r in found["routes"]] == ["fix the file", "or end the binding"], said
    assert "bytes that are not UTF-8 at byte offset 11 (line 3)" in said, said
    refused = pasted(root, "forest restore notes.md")  # what the route would have offered
    assert refused.returncode == 1 and "nothing was written" in refused.stderr, refused.stderr

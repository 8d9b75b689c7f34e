"""``forest restore`` never removes another bound section unasked: a heading demoted
into a bound section, a bound subsection added under it, a Python symbol or a region
nested in another bound one; ``--drop-nested`` restores anyway (the capture keeps it)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, make_repo, write

WORDS = "I adopt these words as written"
BOOK = "# Book\n\n## Meta\n\nMeta text.\n\n## Basics\n\nBasics text.\n\n## End\n\nEnd text.\n"


def adopted(tmp_path: Path, name: str, text: str, *targets: str) -> Path:
    """A repository with ``name`` holding ``text``, ``targets`` adopted in one command."""
    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(repo, name, text)
    commit_all(repo, "init")
    ok(repo, "adopt", *targets, "--words", WORDS, "--yes")
    commit_all(repo, "adopt")
    return repo


def files_of(repo: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in repo.iterdir() if p.is_file()}


def test_restore_removing_a_demoted_bound_heading_refused(tmp_path: Path) -> None:
    repo = adopted(tmp_path, "book.md", BOOK, "book.md", "--headings")
    (repo / "book.md").write_text(BOOK.replace("## Basics", "### Basics"))
    before = files_of(repo)
    got = forest(repo, "restore", "book.md#Book/Meta")
    assert got.exit_code == 1
    line = got.stderr.strip()
    assert line.count("\n") == 0 and line.startswith("forest: book.md#Book/Meta:")
    assert "book.md#Book/Basics" in line and "line 7" in line
    assert "forest restore 'book.md#Book/Meta' --drop-nested" in line
    assert files_of(repo) == before


def test_restore_drop_nested_removes_it_and_keeps_capture_accepted(tmp_path: Path) -> None:
    repo = adopted(tmp_path, "book.md", BOOK, "book.md", "--headings")
    (repo / "book.md").write_text(BOOK.replace("## Basics", "### Basics"))
    out = ok(repo, "restore", "book.md#Book/Meta", "--drop-nested").stdout
    assert "### Basics" not in (repo / "book.md").read_text()
    kept = Path(out.rsplit(" ", 1)[-1].strip())
    assert "### Basics\n\nBasics text.\n" in kept.read_text()


def test_restore_removing_a_bound_subsection_refused(tmp_path: Path) -> None:
    repo = adopted(tmp_path, "book.md", BOOK, "book.md#Meta")
    grown = BOOK.replace("Meta text.\n", "Meta text.\n\n### Sub\n\nSub text.\n")
    (repo / "book.md").write_text(grown)
    ok(repo, "adopt", "book.md#Meta/Sub", "--words", WORDS)
    commit_all(repo, "sub")
    alone = forest(repo, "restore", "book.md#Book/Meta")
    assert alone.exit_code == 1 and "remove book.md#Book/Meta/Sub" in alone.stderr
    got = forest(repo, "restore", "book.md")  # every binding in it: Meta's removes Sub
    assert got.exit_code == 1
    assert "book.md#Book/Meta/Sub" in got.stderr and "line 7" in got.stderr
    assert "forest restore book.md --drop-nested" in got.stderr
    assert (repo / "book.md").read_text() == grown


def test_restore_rewriting_a_nested_binding_kept_accepted(tmp_path: Path) -> None:
    """The enclosing section's ground holds the nested one: nothing is removed."""
    repo = adopted(tmp_path, "book.md", BOOK, "book.md", "--headings")
    (repo / "book.md").write_text(BOOK.replace("Meta text.", "Meta, edited."))
    ok(repo, "restore", "book.md#Book")
    assert (repo / "book.md").read_text() == BOOK


PY = "class Meta:\n    def keep(self):\n        return 1\n\n\ndef helper():\n    return 2\n"


def test_restore_removing_a_symbol_moved_into_another_refused(tmp_path: Path) -> None:
    repo = adopted(tmp_path, "m.py", PY, "m.py::Meta", "m.py::helper")
    moved = PY.replace(
        "\n\n\ndef helper():\n    return 2", "\n\n    def helper():\n        return 2"
    )
    (repo / "m.py").write_text(moved)
    got = forest(repo, "restore", "m.py::Meta")
    assert got.exit_code == 1
    assert "m.py::helper" in got.stderr and "line 5" in got.stderr
    assert (repo / "m.py").read_text() == moved


REGIONS = (
    "<!-- forest:begin outer -->\nOuter.\n<!-- forest:end outer -->\n"
    "<!-- forest:begin inner -->\nInner.\n<!-- forest:end inner -->\n"
)


def test_restore_removing_a_region_moved_into_another_refused(tmp_path: Path) -> None:
    repo = adopted(tmp_path, "r.md", REGIONS, "r.md@outer", "r.md@inner")
    moved = (
        "<!-- forest:begin outer -->\nOuter.\n<!-- forest:begin inner -->\nInner.\n"
        "<!-- forest:end inner -->\n<!-- forest:end outer -->\n"
    )
    (repo / "r.md").write_text(moved)
    findings = json.loads(forest(repo, "check", "--json").stdout)["findings"]
    assert {f["selector"]: f["kind"] for f in findings}["r.md@outer"] == "drifted"
    got = forest(repo, "restore", "r.md@outer")
    assert got.exit_code == 1
    assert "r.md@inner" in got.stderr and "(line 4)" in got.stderr  # its first line of text
    assert (repo / "r.md").read_text() == moved

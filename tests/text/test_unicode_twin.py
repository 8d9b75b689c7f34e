"""A heading or file name typed in another Unicode normalisation than the file spells
it: never matched (selectors and content ids stay exact bytes), but the refusal names
the spelling found and the exact selector to paste, at adopt, rebind, supersede,
check and retire."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, make_repo, write

NFC = unicodedata.normalize("NFC", "Café")
NFD = unicodedata.normalize("NFD", "Café")


def _repo(tmp_path: Path, spelled: str) -> Path:
    repo = make_repo(tmp_path)
    write(repo, "docs/a.md", f"# T\n\nx\n\n## {spelled}\n\nc\n")
    write(repo, "docs/b.md", "# B\n\nb\n")
    ok(repo, "init")
    return repo


def _ledger(repo: Path) -> dict[str, bytes]:
    folder = repo / ".forest" / "ledger"
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.mark.parametrize(("spelled", "typed"), [(NFC, NFD), (NFD, NFC)])
def test_heading_other_normalisation_adopt_refused(
    tmp_path: Path, spelled: str, typed: str
) -> None:
    repo = _repo(tmp_path, spelled)
    before = _ledger(repo)
    result = forest(repo, "adopt", f"docs/a.md#{typed}", "--words", "w")
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()
    assert "only in Unicode normalisation" in line
    assert f"give 'docs/a.md#T/{spelled}'" in line
    assert ascii(f"#{spelled}") in line
    assert _ledger(repo) == before


@pytest.mark.parametrize(("spelled", "typed"), [(NFC, NFD), (NFD, NFC)])
def test_heading_other_normalisation_bound_doors_refused(
    tmp_path: Path, spelled: str, typed: str
) -> None:
    repo = _repo(tmp_path, spelled)
    ok(repo, "adopt", f"docs/a.md#{spelled}", "--words", "w")
    commit_all(repo, "adopt")
    write(repo, "docs/a.md", f"# T\n\nx\n\n## {spelled}\n\nchanged\n")
    before = _ledger(repo)
    want = f"give 'docs/a.md#T/{spelled}'"
    runs = {
        "supersede": ("supersede", f"docs/a.md#{typed}", "--words", "w"),
        "rebind": ("rebind", f"docs/a.md#{typed}", "docs/b.md#B"),
        "retire": ("retire", f"docs/a.md#{typed}", "--words", "w"),
        "check": ("check", f"docs/a.md#{typed}"),
    }
    for door, args in runs.items():
        result = forest(repo, *args)
        assert result.exit_code in (1, 2), (door, result.output)
        (line,) = result.stderr.splitlines()
        assert "only in Unicode normalisation" in line and want in line, (door, line)
    assert _ledger(repo) == before


def test_file_name_other_normalisation_supersede_refused(tmp_path: Path) -> None:
    repo = _repo(tmp_path, "X")
    write(repo, f"docs/{NFC}.md", "hi\n")
    ok(repo, "adopt", f"docs/{NFC}.md", "--words", "w")
    commit_all(repo, "adopt")
    result = forest(repo, "supersede", f"docs/{NFD}.md", "--words", "w")
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()
    assert "only in Unicode normalisation" in line and f"give 'docs/{NFC}.md'" in line


def test_heading_index_past_its_last_match_no_normalisation_clause_refused(
    tmp_path: Path,
) -> None:
    """``#Café[2]`` where one ``Café`` heading stands, spelled as typed: the refusal
    said the file spelled it otherwise "only in Unicode normalisation", naming the
    same bytes twice; only the ``[2]`` is wrong."""
    repo = _repo(tmp_path, NFC)
    result = forest(repo, "adopt", f"docs/a.md#{NFC}[2]", "--words", "w")
    assert result.exit_code == 1, result.output
    assert "only 1 heading(s) match, so [2] does not exist" in result.output
    assert "normalisation" not in result.output, result.output

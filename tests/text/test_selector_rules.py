"""Selector rules of issue 11, item 6: ``[n]`` kept, ``@overload`` stubs never
matched, ambiguity with lines, headings named without inline comments, exclusions
that must match, literal ``line:`` exclusions, paths compared as git records them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

import forest_files.doors.cli  # noqa: F401  (registers every command)
from forest_files.custody.content import GitTreeSource, WorktreeSource
from forest_files.custody.restore import splice
from forest_files.ledger import kinds
from forest_files.ledger.kinds import LedgerError
from forest_files.text import exclude
from forest_files.text.exclude import ExcludeError
from forest_files.text.extract import extract, section_hash
from forest_files.text.markdown import outline
from forest_files.text.pysymbol import OverloadStub
from forest_files.text.selector import Selector, parse_selector
from forest_files.text.selector_errors import AmbiguousSelector
from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, git, git_env, make_repo, write

WORDS = "I adopt these words as written"


def refused(repo: Path, *args: str) -> str:
    """The one ``forest:`` line of a refusal that wrote nothing."""
    before = _ledger(repo)
    result = forest(repo, *args)
    assert result.exit_code == 1, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("forest: "), result.stderr
    assert _ledger(repo) == before
    return lines[0]


def _ledger(repo: Path) -> list[str]:
    folder = repo / ".forest" / "ledger"
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*")) if folder.is_dir() else []


def statuses(repo: Path) -> list[tuple[str, str]]:
    _, doc = check(repo)
    return [(f["selector"], f["kind"]) for f in doc["findings"]]


def check(repo: Path) -> tuple[int, dict[str, object]]:
    result = forest(repo, "check", "--json")
    assert result.exit_code in (0, 1), (result.stdout, result.stderr)
    return result.exit_code, json.loads(result.stdout)


def new_repo(tmp_path: Path, files: dict[str, str]) -> Path:
    repo = make_repo(tmp_path)
    ok(repo, "init")
    for name, text in files.items():
        write(repo, name, text)
    commit_all(repo, "init")
    return repo


def _sel(text: str) -> Selector:
    return parse_selector(text)


# --- 1. [n] is recorded so that it resolves the same -------------------------------

NOTES = "# T\n\n## Notes\n\none\n\n# Notes\n\ntwo\n\n# Other\n\nx\n"


def test_heading_index_recorded_round_trip_accepted(tmp_path: Path) -> None:
    repo = new_repo(tmp_path, {"a.md": NOTES})
    out = ok(repo, "adopt", "a.md#Notes[2]", "--words", WORDS).stdout
    assert "bound a.md#Notes[2] " in out
    commit_all(repo, "adopt")
    (repo / "a.md").write_text(NOTES.replace("x\n", "changed elsewhere\n"))
    assert statuses(repo) == [("a.md#Notes[2]", "clean")]
    (repo / "a.md").write_text(NOTES.replace("two", "TWO"))
    assert statuses(repo) == [("a.md#Notes[2]", "drifted")]


def test_heading_ambiguity_candidates_resolve_to_themselves_accepted() -> None:
    with pytest.raises(AmbiguousSelector) as info:
        extract(NOTES, _sel("a.md#Notes"))
    assert info.value.candidates == ("a.md#T/Notes", "a.md#Notes[2]")
    lines = [extract(NOTES, _sel(c)).start_line for c in info.value.candidates]
    assert lines == [3, 7]
    assert str(extract(NOTES, _sel("a.md#T/Notes")).selector) == "a.md#T/Notes"


# --- 2. @overload stubs ------------------------------------------------------------

IMPL = "def f(x):\n    return x + 1\n\n\ndef g():\n    return 2\n"
STUBS = (
    "import typing\nfrom typing import overload\n\n\n"
    "@overload\ndef f(x: int) -> int: ...\n\n\n"
    "@typing.overload\ndef f(x: str) -> str: ...\n\n\n"
)


def test_symbol_overload_stub_never_matches_accepted() -> None:
    got = extract(STUBS + IMPL, _sel("m.py::f"))
    assert got.text == "def f(x):\n    return x + 1\n"
    assert str(got.selector) == "m.py::f"


def test_symbol_legacy_index_counting_stubs_accepted_then_refused_on_a_stub() -> None:
    # an older binding counted stubs: f[3] was the implementation after two stubs
    assert extract(STUBS + IMPL, _sel("m.py::f[3]")).text.startswith("def f(x):")
    third = "@overload\ndef f(x: bytes) -> bytes: ...\n\n\n"
    with pytest.raises(OverloadStub) as info:
        extract(STUBS + third + IMPL, _sel("m.py::f[3]"))
    assert "rebind to `m.py::f`" in str(info.value)
    ground = "def f(x):\n    return x + 1\n"
    with pytest.raises(OverloadStub):  # restore cannot write it over the stub
        splice((STUBS + third + IMPL).encode(), "m.py::f[3]", (), ground, "m.py")


def _cli(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).with_name("forest")
    env = {**os.environ, **git_env()}
    return subprocess.run(
        [str(script), *args], cwd=repo, env=env, capture_output=True, text=True, timeout=120
    )


def test_symbol_overload_added_before_binding_restore_stays_on_implementation(
    tmp_path: Path,
) -> None:
    repo = make_repo(tmp_path)
    write(repo, "m.py", IMPL)
    commit_all(repo, "code")
    assert _cli(repo, "init").returncode == 0
    adopted = _cli(repo, "adopt", "m.py::f", "--words", WORDS)
    assert adopted.returncode == 0, adopted.stderr
    commit_all(repo, "adopt")
    # overloads land before it, and the implementation is edited
    write(repo, "m.py", STUBS + IMPL.replace("x + 1", "x + 100"))
    drift = _cli(repo, "check", "--json")
    (finding,) = json.loads(drift.stdout)["findings"]
    assert (finding["kind"], finding["start_line"]) == ("drifted", 13)
    restored = _cli(repo, "restore", "m.py::f")
    assert restored.returncode == 0, restored.stderr
    assert (repo / "m.py").read_text() == STUBS + IMPL
    assert _cli(repo, "check").returncode == 0


# --- 3. ambiguity lists lines -------------------------------------------------------


def test_ambiguity_refusal_lists_each_candidate_line_refused() -> None:
    with pytest.raises(AmbiguousSelector) as info:
        extract(NOTES, _sel("a.md#Notes"))
    assert "a.md#T/Notes (line 3), a.md#Notes[2] (line 7)" in str(info.value)
    code = "class C:\n    def m(self): ...\n\n    def m(self, x): ...\n"
    with pytest.raises(AmbiguousSelector) as sym:
        extract(code, _sel("c.py::C.m"))
    # the first ``def m`` is replaced by the second (pysymbol.py): said, and no candidate
    assert (
        "c.py::C.m[1] (line 2, replaced at line 4: the name no longer holds it), "
        "c.py::C.m[2] (line 4)" in str(sym.value)
    )
    assert sym.value.candidates == ("c.py::C.m[2]",)


# --- 4. headings named without inline HTML comments ---------------------------------

HOW = "# Guide\n\n## How It Works <!-- How It Works -->\n\nGears.\n\n## Next <!--x--> Step\n\nz\n"


def test_heading_inline_comment_ignored_when_matching_accepted() -> None:
    new = extract(HOW, _sel("g.md#How It Works"))
    old = extract(HOW, _sel("g.md#Guide/How It Works <!-- How It Works -->"))
    assert (new.start_line, new.end_line) == (old.start_line, old.end_line) == (3, 6)
    assert section_hash(new.text) == section_hash(old.text)  # only matching changed
    assert str(new.selector) == str(old.selector) == "g.md#Guide/How It Works"
    assert [h.name for h in outline(HOW)] == ["Guide", "How It Works", "Next Step"]
    assert [h.text for h in outline(HOW)][1] == "How It Works <!-- How It Works -->"
    assert outline("## <!-- only -->\n")[0].name == "<!-- only -->"
    assert str(extract(HOW, _sel("g.md#Next Step")).selector) == "g.md#Guide/Next Step"


# --- 5. an exclusion that matches nothing is refused at adoption --------------------

ADR = "# 1. Use X\n\nDate: 2024-01-01\n\n## Status\n\nAccepted\n\n## Decision\n\nUse X.\n"


def test_exclusion_misspelled_refused(tmp_path: Path) -> None:
    repo = new_repo(tmp_path, {"adr.md": ADR})
    line = refused(repo, "adopt", "adr.md", "--exclude", "#Stauts", "--words", WORDS)
    assert "'#Stauts' matches no heading" in line and "'#Status'" in line
    assert "Accepted" not in line  # names headings, never body text
    line = refused(repo, "adopt", "adr.md", "--exclude", "meta:status", "--words", WORDS)
    assert "no front matter" in line
    line = refused(repo, "adopt", "adr.md", "--exclude", "line:date:", "--words", WORDS)
    assert "matches no line" in line
    ok(repo, "adopt", "adr.md", "--exclude", "#Status", "--words", WORDS)


def test_exclusion_in_glob_matching_one_file_accepted_none_refused(tmp_path: Path) -> None:
    fm = "---\nstatus: accepted\n---\n" + ADR
    repo = new_repo(tmp_path, {"d/1.md": fm, "d/2.md": ADR})
    line = refused(repo, "adopt", "d/*.md", "--exclude", "meta:statsu", "--words", WORDS)
    assert "in any of the 2 targets" in line and "keys there: status" in line
    ok(repo, "adopt", "d/*.md", "--exclude", "meta:status", "--words", WORDS)


# --- 6. line: exclusions, a literal prefix ------------------------------------------


def test_line_exclusion_removes_only_lines_it_names_accepted() -> None:
    text = ADR + "  Date: indented\nDated: no\nDate:x\n"
    got = extract(text, _sel("adr.md"), ("line:Date:",))
    lines = text.splitlines()
    assert got.cuts == ((3, 3), (len(lines), len(lines)))
    assert got.text.splitlines() == [x for x in lines if not x.startswith("Date:")]
    changed = text.replace("2024-01-01", "2025-02-02")
    assert extract(changed, _sel("adr.md"), ("line:Date:",)).text == got.text


def test_line_exclusion_is_never_a_pattern_accepted() -> None:
    text = "# H\n.*\nabc\n[a]b\n"
    assert extract(text, _sel("a.md"), ("line:.*",)).text == "# H\nabc\n[a]b\n"
    assert extract(text, _sel("a.md"), ("line:[a]",)).text == "# H\n.*\nabc\n"


def test_line_exclusion_never_removes_bound_heading_accepted() -> None:
    got = extract(ADR, _sel("adr.md#Status"), ("line:#",))
    assert got.text == "## Status\n\nAccepted\n\n"
    with pytest.raises(ExcludeError):  # nothing but the heading starts with '#'
        extract(ADR, _sel("adr.md#Status"), ("line:#",), strict=True)


@pytest.mark.parametrize(
    "spec", ["line:", "line: ", "line:\t", "line:a\tb", "line:" + "x" * 201, "line:a\x7f"]
)
def test_line_exclusion_bad_prefix_refused_bound_accepted(spec: str) -> None:
    assert exclude.parse_exclusion("line:" + "x" * 200).key == "x" * 200  # N accepted
    assert exclude.MAX_LINE_PREFIX == kinds.MAX_LINE_PREFIX == 200
    with pytest.raises(ExcludeError):  # N+1, empty, blank, control characters
        exclude.parse_exclusion(spec)


def _bind(excludes: list[str]) -> dict[str, object]:
    return {
        "path": "a.md",
        "selector": "a.md",
        "excludes": excludes,
        "normalisation": "utf8-nobom-lf",
        "hash_algo": "sha256",
        "section_hash": "0" * 64,
    }


@pytest.mark.parametrize("bad", ["line:", "line:   ", "line:" + "y" * 201, "line:a\nb"])
def test_line_exclusion_hostile_in_ledger_refused(bad: str) -> None:
    with pytest.raises(LedgerError):
        kinds.BindSpec.parse(_bind([bad]), act_id="x")
    assert kinds.BindSpec.parse(_bind(["line:Date:"]), act_id="x").excludes == ("line:Date:",)


def test_line_exclusion_date_change_stays_clean(tmp_path: Path) -> None:
    repo = new_repo(tmp_path, {"adr.md": ADR})
    ok(repo, "adopt", "adr.md", "--exclude", "line:Date:", "--words", WORDS)
    commit_all(repo, "adopt")
    (repo / "adr.md").write_text(ADR.replace("2024-01-01", "2030-12-31"))
    assert statuses(repo) == [("adr.md", "clean")]
    (repo / "adr.md").write_text(ADR.replace("Use X.", "Use Y."))
    assert statuses(repo) == [("adr.md", "drifted")]


# --- 7. paths compared as git records them ------------------------------------------


def test_path_unicode_normalisation_difference_refused(tmp_path: Path) -> None:
    nfd = unicodedata.normalize("NFD", "café.md")
    repo = new_repo(tmp_path, {nfd: ADR})
    if (repo / unicodedata.normalize("NFC", "café.md")).exists():
        pytest.skip("this filesystem folds Unicode normalisation")
    line = refused(repo, "adopt", "café.md", "--words", WORDS)
    assert "Unicode normalisation (NFD)" in line and "cafe\\u0301.md" in line


def test_path_case_only_difference_refused(tmp_path: Path) -> None:
    repo = new_repo(tmp_path, {"docs/Lore.md": ADR})
    line = refused(repo, "adopt", "docs/lore.md", "--words", WORDS)
    assert "'docs/Lore.md'" in line and "letter case only" in line


def test_path_case_only_rename_named_by_sources_detected(tmp_path: Path) -> None:
    repo = new_repo(tmp_path, {"docs/Lore.md": ADR, "docs/other.md": "x\n"})
    git(repo, "mv", "docs/Lore.md", "docs/lore.md")
    tree = WorktreeSource(repo, use_stat_cache=False)
    index = GitTreeSource(repo, only=("docs/Lore.md",))
    for source in (tree, index):
        assert source.read("docs/Lore.md") is None
        said = source.variant("docs/Lore.md")
        assert said is not None and "'docs/lore.md'" in said and "letter case" in said
        assert source.variant("docs/other.md") is None

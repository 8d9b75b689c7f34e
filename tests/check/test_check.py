"""``forest check`` with real files in real git repositories: every finding kind.

Each finding is asserted by its name in ``check --json`` (``findings[i]["kind"]``).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import Result

import forest_files.doors.cli  # noqa: F401  (registers every command)
from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.template import reused

ADA = "Ada Lovelace <ada@example.org>"
BOB = "Bob Builder <bob@example.org>"
WORDS = "I adopt these words as written"
ADR_CORPUS = Path(__file__).resolve().parents[1] / "data" / "madr-decisions"

TOP = "# Canon\n\nIntro line.\n\n"
RULES = "## Rules\n\nThe first rule stands.\nThe second rule stands.\n\n"
ELSE = "## Elsewhere\n\nOther words.\n\n"
CANON = TOP + RULES + ELSE
RULES_SEL = "canon.md#Canon/Rules"


def check(repo: Path, *args: str) -> tuple[int, dict[str, Any]]:
    result = forest(repo, "check", "--json", *args)
    assert result.exit_code in (0, 1), (result.stdout, result.stderr)
    return result.exit_code, json.loads(result.stdout)


def kinds(repo: Path, *args: str) -> list[str]:
    code, doc = check(repo, *args)
    found = [f["kind"] for f in doc["findings"]]
    assert code == (0 if all(k == "clean" for k in found) else 1), (code, found)
    assert doc["ok"] is (code == 0)
    return found


def adopt(repo: Path, *args: str) -> Result:
    """``forest adopt``, re-done until its segment replays (see ``test_bind_act_replays``).

    BUG workaround: a bind act does not depend on its root act, so replay (rebuild,
    a clone, ``--staged``, ``--rev``, a branch switch) refuses it whenever the bind's
    content id sorts before the root's. Until that is fixed, tests that replay
    re-record the adoption until it happens to replay.
    """
    for _ in range(20):
        before = set(segments(repo))
        result = ok(repo, "adopt", *args)
        if forest(repo, "rebuild").exit_code == 0:
            return result
        for name in set(segments(repo)) - before:
            (repo / ".forest" / "ledger" / "segments" / name).unlink()
        ok(repo, "rebuild")
    raise AssertionError("no replayable adoption in 20 tries")


def segments(repo: Path) -> list[str]:
    folder = repo / ".forest" / "ledger" / "segments"
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


def _build_repo(tmp_path: Path) -> Path:
    path = make_repo(tmp_path)
    ok(path, "init")
    write(path, "canon.md", CANON)
    commit_all(path, "init")
    return path


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    # A private copy of one built once per worker process (template.reused).
    return reused((__name__, "repo"), tmp_path / "repo", _build_repo)


def _build_bound(tmp_path: Path) -> Path:
    repo = _build_repo(tmp_path)
    adopt(repo, "canon.md#Rules", "--words", WORDS)
    commit_all(repo, "adopt rules")
    assert kinds(repo) == ["clean"]
    return repo


@pytest.fixture
def bound(tmp_path: Path) -> Path:
    """``canon.md#Canon/Rules`` adopted and committed (a private copy of one built once
    per worker process)."""
    return reused((__name__, "bound"), tmp_path / "repo", _build_bound)


def edit(repo: Path, old: str, new: str, relpath: str = "canon.md") -> None:
    path = repo / relpath
    text = path.read_bytes().decode("utf-8")
    assert old in text
    path.write_bytes(text.replace(old, new, 1).encode("utf-8"))


# -- the basic findings -----------------------------------------------------------


def test_silent_edit_inside_section_drifted(bound: Path) -> None:
    edit(bound, "second rule stands", "second rule bends")
    code, doc = check(bound)
    assert code == 1 and doc["ok"] is False
    (finding,) = doc["findings"]
    assert finding["kind"] == "drifted"
    assert finding["selector"] == RULES_SEL
    assert (finding["start_line"], finding["end_line"]) == (5, 9)
    assert finding["section_hash"] != finding["ground_section_hash"]


def test_edit_outside_section_clean(bound: Path) -> None:
    edit(bound, "Intro line.", "A quite different intro.")
    edit(bound, "Other words.", "Other words, changed.")
    code, doc = check(bound)
    assert code == 0 and [f["kind"] for f in doc["findings"]] == ["clean"]


def test_heading_renamed_unresolved(bound: Path) -> None:
    edit(bound, "## Rules", "## Laws")
    (finding,) = check(bound)[1]["findings"]
    assert finding["kind"] == "unresolved"
    assert kinds(bound) == ["unresolved"]


def test_section_moved_within_file_clean(bound: Path) -> None:
    (bound / "canon.md").write_text(TOP + ELSE + RULES, encoding="utf-8")
    assert kinds(bound) == ["clean"]


def test_trailing_whitespace_edit_drifted(bound: Path) -> None:
    edit(bound, "first rule stands.\n", "first rule stands.  \n")
    assert kinds(bound) == ["drifted"]


def test_empty_section_bind_then_line_added_drifted(repo: Path) -> None:
    write(repo, "empty.md", "# Doc\n\n## Empty\n## Next\n\nbody\n")
    commit_all(repo, "empty")
    adopt(repo, "empty.md#Empty", "--words", WORDS)
    assert kinds(repo) == ["clean"]
    edit(repo, "## Empty\n", "## Empty\nnow it says something\n", "empty.md")
    assert kinds(repo) == ["drifted"]


# -- encodings ----------------------------------------------------------------------


def test_crlf_bytes_of_lf_ground_clean(bound: Path) -> None:
    path = bound / "canon.md"
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    assert b"\r\n" in path.read_bytes()
    assert kinds(bound) == ["clean"]


def test_autocrlf_clone_of_lf_ground_clean(bound: Path, tmp_path: Path) -> None:
    clone = tmp_path / "crlf-clone"
    git(tmp_path, "-c", "core.autocrlf=true", "clone", "-q", str(bound), str(clone))
    git(clone, "config", "core.autocrlf", "true")
    assert b"\r\n" in (clone / "canon.md").read_bytes()
    assert kinds(clone) == ["clean"]
    edit(clone, "second rule stands", "second rule bends")
    assert kinds(clone) == ["drifted"]


def test_bom_added_clean(bound: Path) -> None:
    path = bound / "canon.md"
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert kinds(bound) == ["clean"]


# -- renames ------------------------------------------------------------------------


def test_file_renamed_unchanged_moved_then_rebind_clean(bound: Path) -> None:
    (bound / "lore").mkdir()
    git(bound, "mv", "canon.md", "lore/canon.md")
    (finding,) = check(bound)[1]["findings"]
    assert finding["kind"] == "moved"
    new_sel = "lore/canon.md#Canon/Rules"
    assert finding["moved_to"] == new_sel
    assert new_sel in finding["detail"]
    ok(bound, "rebind", RULES_SEL, new_sel)
    code, doc = check(bound)
    assert code == 0
    assert [(f["kind"], f["selector"]) for f in doc["findings"]] == [("clean", new_sel)]


def test_file_renamed_by_plain_mv_is_moved(bound: Path) -> None:
    shutil.move(bound / "canon.md", bound / "renamed.md")
    assert kinds(bound) == ["moved"]


def test_renamed_and_edited_missing(bound: Path) -> None:
    git(bound, "mv", "canon.md", "other.md")
    edit(bound, "second rule stands", "second rule bends", "other.md")
    (finding,) = check(bound)[1]["findings"]
    assert finding["kind"] == "missing"
    assert finding["path"] == "canon.md"


def test_case_only_rename_never_clean(repo: Path) -> None:
    write(repo, "Lore.md", CANON)
    commit_all(repo, "capital")
    adopt(repo, "Lore.md#Rules", "--words", WORDS)
    commit_all(repo, "adopt")
    git(repo, "mv", "Lore.md", "lore.md")
    assert (repo / "lore.md").exists() and not (repo / "Lore.md").exists()
    code, doc = check(repo)
    (finding,) = doc["findings"]
    assert finding["path"] == "Lore.md"
    assert finding["kind"] in ("missing", "moved")
    assert code == 1


# -- size -----------------------------------------------------------------------------


def test_five_megabyte_whole_file_clean_then_drifted(repo: Path) -> None:
    line = "All the lore that fits, and a little more of it. " * 2 + "\n"
    body = line * (5 * 1024 * 1024 // len(line) + 1)
    assert len(body) > 5 * 1024 * 1024
    write(repo, "big.md", body)
    commit_all(repo, "big")
    adopt(repo, "big.md", "--words", WORDS)
    assert kinds(repo) == ["clean"]
    edit(repo, "fits", "FITS", "big.md")
    assert kinds(repo) == ["drifted"]


def test_ten_thousand_headings_bind_one_deep(repo: Path) -> None:
    parts = []
    for i in range(10_000):
        level = 1 + i % 4
        parts.append(f"{'#' * level} H{i}\n\ntext {i}\n\n")
    write(repo, "many.md", "".join(parts))
    commit_all(repo, "many")
    adopt(repo, "many.md#H7003", "--words", WORDS)
    code, doc = check(repo)
    assert code == 0
    assert doc["findings"][0]["selector"] == "many.md#H7000/H7001/H7002/H7003"
    edit(repo, "text 9001\n", "text nine thousand and one\n", "many.md")
    assert kinds(repo) == ["clean"]
    edit(repo, "text 7003\n", "text seven thousand and three\n", "many.md")
    assert kinds(repo) == ["drifted"]


# -- real ADRs ------------------------------------------------------------------------


def test_real_adrs_glob_one_segment_status_excluded(repo: Path) -> None:
    adrs = sorted(ADR_CORPUS.glob("00*.md"))
    assert adrs, "ADR corpus missing"
    for src in adrs:
        write(repo, f"docs/adr/{src.name}", src.read_bytes())
    commit_all(repo, "adrs")
    before = segments(repo)
    ok(repo, "adopt", "docs/adr/*.md", "--exclude", "meta:status", "--words", "Accepted ADRs")
    after = segments(repo)
    assert len(after) == len(before) + 1
    assert kinds(repo) == ["clean"] * len(adrs)

    edit(repo, "status: on hold", "status: accepted", "docs/adr/0003-provide-own-madr-tools.md")
    assert kinds(repo, "docs/adr") == ["clean"] * len(adrs)

    target = "docs/adr/0013-use-yaml-front-matter-for-meta-data.md"
    text = (repo / target).read_text(encoding="utf-8")
    assert "Chosen option" in text
    edit(repo, "Chosen option", "Rejected option", target)
    code, doc = check(repo)
    drifted = [f["path"] for f in doc["findings"] if f["kind"] == "drifted"]
    assert code == 1 and drifted == [target]


# -- which ground a check uses ---------------------------------------------------------


def test_staged_judges_the_git_index(bound: Path) -> None:
    edit(bound, "second rule stands", "second rule bends")
    assert kinds(bound, "--staged") == ["clean"]  # unstaged drift is not the commit's
    assert kinds(bound) == ["drifted"]

    git(bound, "add", "canon.md")
    assert kinds(bound, "--staged") == ["drifted"]

    ok(bound, "supersede", "canon.md#Rules", "--words", "The rule bends now")
    assert kinds(bound) == ["clean"]
    assert git(bound, "status", "--porcelain", "--", ".forest/ledger").startswith("??")
    # a supersession recorded but not staged does not let the staged edit through
    assert kinds(bound, "--staged") == ["drifted"]

    git(bound, "add", ".forest")
    assert kinds(bound, "--staged") == ["clean"]

    # a staged supersession without its file change is caught too
    git(bound, "reset", "-q", "--", "canon.md")
    assert kinds(bound, "--staged") == ["drifted"]


def test_rev_judges_an_old_commit_against_its_own_ledger(bound: Path) -> None:
    edit(bound, "second rule stands", "second rule bends")
    ok(bound, "supersede", RULES_SEL, "--words", "Bent")
    commit_all(bound, "supersede")  # HEAD~1: clean against its own ledger
    edit(bound, "first rule stands", "first rule falls")
    commit_all(bound, "silent edit")  # HEAD: drifted
    assert kinds(bound, "--rev", "HEAD") == ["drifted"]
    assert kinds(bound, "--rev", "HEAD~1") == ["clean"]
    assert kinds(bound, "--rev", "HEAD~2") == ["clean"]  # the adoption commit
    assert kinds(bound, "--rev", "HEAD~3") == []  # before any binding
    _, doc = check(bound, "--rev", "HEAD~1")
    assert doc["source"] == "HEAD~1"


# -- merges ---------------------------------------------------------------------------


def _branch_bind(repo: Path, branch: str, words: str, by: str) -> str:
    git(repo, "checkout", "-q", "-b", branch, "main")
    result = adopt(repo, "canon.md#Rules", "--words", words, "--as", by, "--json")
    commit_all(repo, branch)
    git(repo, "checkout", "-q", "main")
    return str(json.loads(result.stdout)[0]["binding"])


def test_two_branches_bind_same_section_merged_contested(repo: Path) -> None:
    b1 = _branch_bind(repo, "b1", "Alpha words", ADA)
    b2 = _branch_bind(repo, "b2", "Beta words", BOB)
    git(repo, "merge", "-q", "--no-edit", "b1")
    git(repo, "merge", "-q", "--no-edit", "b2")
    code, doc = check(repo)
    assert code == 1
    assert {f["kind"] for f in doc["findings"]} == {"contested"}
    assert {f["binding"] for f in doc["findings"]} == {b1, b2}
    status = json.loads(forest(repo, "status", "--json").stdout)["findings"]
    assert {row["kind"] for row in status} == {"contested"}


def test_contested_bindings_can_be_cleared(repo: Path) -> None:
    _branch_bind(repo, "b1", "Alpha words", ADA)
    _branch_bind(repo, "b2", "Beta words", BOB)
    git(repo, "merge", "-q", "--no-edit", "b1")
    git(repo, "merge", "-q", "--no-edit", "b2")
    code, doc = check(repo)
    (first, second) = doc["findings"]
    assert code == 1 and first["kind"] == second["kind"] == "contested"
    assert set(first["candidates"]) == {first["binding"], second["binding"]}
    refused = forest(repo, "retire", RULES_SEL, "--words", "one binding is enough")
    assert refused.exit_code == 1 and "--binding" in refused.stderr
    result = forest(
        repo, "retire", RULES_SEL, "--binding", first["binding"][:16], "--words", "keep one"
    )
    assert result.exit_code == 0, result.stderr
    assert "contested" not in kinds(repo)


def test_two_branches_supersede_same_section_contested_then_resolved(repo: Path) -> None:
    write(repo, "canon.md", TOP + "## Rules\n\none\ntwo\nthree\nfour\nfive\nsix\n\n" + ELSE)
    commit_all(repo, "longer rules")
    adopt(repo, "canon.md#Rules", "--words", WORDS)
    commit_all(repo, "adopt")
    heads = {}
    for branch, old, new, by in (("b1", "one\n", "ONE\n", ADA), ("b2", "six\n", "SIX\n", BOB)):
        git(repo, "checkout", "-q", "-b", branch, "main")
        edit(repo, old, new)
        doc = json.loads(
            ok(
                repo, "supersede", RULES_SEL, "--words", f"{branch} says", "--as", by, "--json"
            ).stdout
        )
        heads[branch] = doc["ground"]
        commit_all(repo, branch)
        git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-edit", "b1")
    git(repo, "merge", "-q", "--no-edit", "b2")
    code, doc = check(repo)
    (finding,) = doc["findings"]
    assert code == 1 and finding["kind"] == "contested"
    assert set(finding["candidates"]) == set(heads.values())

    ok(repo, "resolve", heads["b1"], "--pick", heads["b2"], "--words", "Bob's wording", "--as", ADA)
    assert kinds(repo) == ["drifted"]  # the file holds both edits; ground is b2's text
    ok(repo, "restore", RULES_SEL)
    assert kinds(repo) == ["clean"]
    assert "SIX" in (repo / "canon.md").read_text() and "ONE" not in (repo / "canon.md").read_text()


def test_status_agrees_with_check(bound: Path) -> None:
    adopt(bound, "canon.md#Elsewhere", "--words", WORDS)
    edit(bound, "second rule stands", "second rule bends")
    findings = check(bound)[1]["findings"]
    rows = json.loads(forest(bound, "status", "--json").stdout)["findings"]
    assert rows == findings  # one finding model, one schema
    assert sorted(r["kind"] for r in rows) == ["clean", "drifted"]


def test_check_paths_filter(bound: Path) -> None:
    write(bound, "other.md", "# Other\n\nwords\n")
    adopt(bound, "other.md", "--words", WORDS)
    edit(bound, "second rule stands", "second rule bends")
    assert kinds(bound, "other.md") == ["clean"]
    assert kinds(bound, "canon.md") == ["drifted"]


def test_bind_act_replays(repo: Path) -> None:
    text = "".join(f"# S{i}\n\nsection {i}\n\n" for i in range(16))
    write(repo, "many.md", text)
    commit_all(repo, "sections")
    targets = [f"many.md#S{i}" for i in range(16)]
    ok(repo, "adopt", *targets, "--words", WORDS)  # 16 binds: all sort after roots 1 in 65536
    result = forest(repo, "rebuild")
    assert result.exit_code == 0, result.stderr

"""One parse per distinct content per command, however many sections a file binds.

A Markdown file holding 300 bound sections (release notes) is checked through
``forest check``, the pre-commit hook (the staged path) and ``forest ci --base``
over a few commits in a fresh clone. A counting wrapper, installed in-process by
monkeypatch around the real ``markdown._top_level_headings`` (the one place the
Markdown parser runs; ``outline`` calls it), records each parse by the hash of the
text parsed: every distinct content must be parsed exactly once per command.
``sections`` must give what ``extract`` gives alone for every request.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from forest_files.custody.record import adopt_sections
from forest_files.custody.repository import Repository
from forest_files.custody.targets import read_sections
from forest_files.doors.cli import app
from forest_files.kernel.errors import ForestError
from forest_files.text import markdown
from forest_files.text.extract import Document, Extracted, extract, sections
from forest_files.text.selector import Selector, parse_selector
from tests.helpers.git import commit_all, git, make_repo, write

BY = "Ada <ada@example.org>"
NOTES = "docs/releases.md"
RELEASES = 300
runner = CliRunner()


def release_notes(edits: dict[int, str] | None = None) -> str:
    """``# Releases`` and one ``## v1.N`` section per release (each with sub-headings);
    ``edits`` puts a line into the named releases."""
    edits = edits or {}
    out = ["# Releases\n\nEvery release, newest first.\n\n"]
    for n in range(RELEASES, 0, -1):
        extra = f"- {edits[n]}\n" if n in edits else ""
        out.append(
            f"## v1.{n}\n\n### Added\n\n- Feature {n}.\n{extra}\n### Fixed\n\n- Bug {n}.\n\n"
        )
    return "".join(out)


def selector(n: int) -> str:
    return f"{NOTES}#Releases/v1.{n}"


@pytest.fixture
def notes(tmp_path: Path) -> Path:
    """A repository whose release notes bind all 300 ``## v1.N`` sections."""
    root = make_repo(tmp_path, "site")
    write(root, NOTES, release_notes())
    with Repository.init(root, project_id="p") as repo:
        targets = [selector(n) for n in range(1, RELEASES + 1)]
        found = read_sections(root, targets, (), max_bytes=1 << 20, parallel=False)
        adopt_sections(repo, found, words="adopt the notes", by=BY)
    commit_all(root, "release notes, bound")
    return root


Parses = Counter[str]


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> Parses:
    """Each Markdown parse of this test, by the hash of the text parsed."""
    seen: Parses = Counter()
    real: Callable[[str], list[tuple[int, str, str, int]]] = markdown._top_level_headings

    def counting(text: str) -> list[tuple[int, str, str, int]]:
        seen[hashlib.sha256(text.encode("utf-8")).hexdigest()] += 1
        return real(text)

    monkeypatch.setattr(markdown, "_top_level_headings", counting)
    return seen


def content_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def forest(root: Path, *args: str) -> tuple[int, str]:
    result = runner.invoke(app, [*args, "--repo", str(root)])
    return result.exit_code, result.stdout + result.stderr


def test_parse_worktree_check_300_sections_one_parse_accepted(notes: Path, parses: Parses) -> None:
    text = release_notes({7: "a silent edit"})
    write(notes, NOTES, text)
    code, out = forest(notes, "check")
    assert code == 1 and "v1.7" in out and out.count("drifted") == 1, out
    assert parses == Counter({content_key(text): 1})


def test_parse_staged_hook_300_sections_one_parse_accepted(
    notes: Path, parses: Parses, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from forest_files.doors.hooks.run import main as hook

    text = release_notes({42: "a staged edit"})
    write(notes, NOTES, text)
    git(notes, "add", NOTES)
    monkeypatch.chdir(notes)
    assert hook(["pre-commit"]) == 1
    assert "v1.42" in capsys.readouterr().err
    assert parses == Counter({content_key(text): 1})


def test_parse_ci_range_fresh_clone_one_parse_per_content_accepted(
    notes: Path, parses: Parses, tmp_path: Path
) -> None:
    git(notes, "checkout", "-q", "-b", "pr")
    contents: list[str] = []
    for k, n in enumerate((3, 150, 299)):
        edits = {m: f"edit {j}" for j, m in enumerate((3, 150, 299)[: k + 1])}
        contents.append(release_notes(edits))
        write(notes, NOTES, contents[-1])
        commit_all(notes, f"edit v1.{n}")
        write(notes, f"notes/n{k}.txt", "an unbound note\n")  # a commit judging nothing
        commit_all(notes, f"note {k}")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(notes), str(clone))
    git(clone, "checkout", "-q", "pr")
    parses.clear()
    code, out = forest(clone, "ci", "--base", "origin/main", "--format", "json")
    assert code == 1, out
    for n in (3, 150, 299):
        assert f"v1.{n}" in out
    assert parses == Counter({content_key(c): 1 for c in contents})


def test_parse_renamed_heading_moves_search_reuses_parse_accepted(
    notes: Path, parses: Parses
) -> None:
    """Hostile: a renamed heading sends the check to its search of moves, which reads
    the same file again; the parse the check made is the one the search uses."""
    text = release_notes().replace("## v1.9\n", "## v1.9 (yanked)\n")
    write(notes, NOTES, text)
    code, out = forest(notes, "check")
    assert code == 1 and "unresolved" in out and "v1.9 (yanked)" in out, out
    assert parses == Counter({content_key(text): 1})


def test_parse_staged_file_move_plan_reuses_parse_accepted(
    notes: Path, parses: Parses, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A staged rename of the bound file: the search of where its 300 sections stand
    now and the whole-commit route's rebinds (commit_plan.py) share one parse."""
    from forest_files.doors.hooks.run import main as hook

    git(notes, "mv", NOTES, "docs/changelog.md")
    monkeypatch.chdir(notes)
    assert hook(["pre-commit"]) == 1
    err = capsys.readouterr().err
    assert "or record the whole commit at once (300 rebound" in err, err[-2000:]
    assert parses == Counter({content_key(release_notes()): 1})


def test_parse_adoption_300_targets_one_parse_accepted(tmp_path: Path, parses: Parses) -> None:
    root = make_repo(tmp_path, "adopt")
    text = release_notes()
    write(root, NOTES, text)
    commit_all(root, "notes")
    targets = [selector(n) for n in range(RELEASES, 0, -1)]
    found = read_sections(root, targets, ("#Fixed",), max_bytes=1 << 20)
    assert [s.selector for s in found] == targets
    assert all("### Fixed" not in s.text for s in found)
    assert parses == Counter({content_key(text): 1})


HOSTILE_TEXT = (
    "---\ntitle: x\n---\n"
    "# Guide\n\n## Setup <!-- Setup -->\n\nOne.\n\n### Notes\n\nA.\n\n"
    "## Setup\n\nTwo.\n\n### Notes\n\nB.\n\n"
    "# Other\n\n## Setup\n\nThree.\n\n"
    "Setext\n======\n\n```\n## not a heading\n```\n\n"
    "<!-- forest:begin r -->\nregion\n<!-- forest:end r -->\n"
)
HOSTILE_REQUESTS = [
    ("g.md#Setup", ()),  # ambiguous: three match
    ("g.md#Setup[2]", ()),
    ("g.md#Guide/Setup[1]", ("#Notes",)),
    ("g.md#Setup <!-- Setup -->", ()),  # the recorded-with-comment name
    ("g.md#Guide/Setup/Notes[2]", ()),
    ("g.md#Notes", ()),  # ambiguous
    ("g.md#Other/Setup", ("meta:title",)),
    ("g.md#Setext", ()),
    ("g.md#not a heading", ()),  # in a fence: not found
    ("g.md#Setup[9]", ()),  # no ninth
    ("g.md@r", ()),
    ("g.md@missing", ()),
    ("g.md", ("#Other", "meta:title")),
    ("g.md#Guide/Setup[1]", ("#Absent",)),  # an exclusion matching nothing: accepted
]


def _alone(text: str, sel: Selector, excludes: tuple[str, ...]) -> Extracted | str:
    try:
        return extract(text, sel, excludes)
    except ForestError as exc:
        return f"{type(exc).__name__}: {exc}"


def test_sections_shared_outline_same_as_each_alone_accepted(parses: Parses) -> None:
    """Hostile: one outline and one suffix index shared by every selector never
    changes what a selector resolves to, its canonical form, or its refusal."""
    requests = [(parse_selector(s), ex) for s, ex in HOSTILE_REQUESTS]
    got = sections(HOSTILE_TEXT, requests)
    shared = parses.total()
    assert shared == 1
    for sel, ex in requests:
        one = got[(sel, ex)]
        shown = one if isinstance(one, Extracted) else f"{type(one).__name__}: {one}"
        assert shown == _alone(HOSTILE_TEXT, sel, ex), (sel, ex)
    assert parses.total() > shared  # each alone parsed again: the comparison is real
    outcomes = [isinstance(got[r], Extracted) for r in requests]
    assert outcomes.count(False) == 5  # two ambiguous, two not found, one missing region


def test_sections_invalid_python_every_symbol_refused() -> None:
    """A file that is not valid Python refuses every symbol selector, each with the
    same refusal as alone (the kept error is raised again, not swallowed)."""
    doc = Document("def f(:\n    pass\n")
    requests = [(parse_selector("m.py::f"), ()), (parse_selector("m.py::g"), ())]
    got = sections(doc, requests)
    for request in requests:
        assert isinstance(got[request], ForestError)
        assert str(got[request]) == _alone(doc.text, *request).split(": ", 1)[1]

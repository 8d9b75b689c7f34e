"""``forest restore``: ground written back into exactly the section, nothing else touched."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import forest_files.doors.cli  # noqa: F401  (registers every command)
from forest_files.custody.restore import splice
from forest_files.kernel.errors import ForestError
from forest_files.text.extract import extract
from forest_files.text.selector import parse_selector
from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, git, make_repo, pasted, write
from tests.helpers.state import shared_state

WORDS = "I adopt these words as written"
CANON = (
    "# Canon\n\nIntro.\n\n## Rules\n\nThe first rule stands.\nThe second rule stands.\n\n"
    "## Else\n\nx\n"
)


def kinds(repo: Path) -> list[str]:
    return [f["kind"] for f in json.loads(forest(repo, "check", "--json").stdout)["findings"]]


def captures(repo: Path) -> list[Path]:
    folder = shared_state(repo) / "captures"
    return sorted(folder.iterdir()) if folder.is_dir() else []


def new_repo(parent: Path, files: dict[str, bytes | str]) -> Path:
    repo = make_repo(parent)
    ok(repo, "init")
    for name, content in files.items():
        write(repo, name, content)
    commit_all(repo, "init")
    return repo


def test_restore_writes_ground_into_exactly_the_section(tmp_path: Path) -> None:
    repo = new_repo(tmp_path, {"canon.md": CANON})
    ok(repo, "adopt", "canon.md#Rules", "--words", WORDS)
    commit_all(repo, "adopt")
    path = repo / "canon.md"
    edited = CANON.replace("Intro.", "Intro, edited.").replace("second rule", "SECRET rule")
    path.write_text(edited.replace("\nx\n", "\ny\n"))
    assert kinds(repo) == ["drifted"]
    out = ok(repo, "restore", "canon.md#Rules").stdout
    assert kinds(repo) == ["clean"]
    expected = CANON.replace("Intro.", "Intro, edited.").replace("\nx\n", "\ny\n")
    assert path.read_text() == expected  # the edits outside the section stay

    (kept,) = captures(repo)
    assert str(kept.name) in out
    assert "SECRET rule" in kept.read_text(encoding="utf-8")
    porcelain = git(repo, "status", "--porcelain", "--untracked-files=all", "--ignored=no")
    assert ".forest/cache" not in porcelain
    assert porcelain.split() == ["M", "canon.md"]
    assert kept.is_relative_to(repo / ".git" / "forest")  # where git never looks


def test_restore_keeps_crlf_and_bom(tmp_path: Path) -> None:
    raw = b"\xef\xbb\xbf" + CANON.replace("\n", "\r\n").encode()
    repo = new_repo(tmp_path, {"canon.md": raw})
    ok(repo, "adopt", "canon.md#Rules", "--words", WORDS)
    path = repo / "canon.md"
    path.write_bytes(raw.replace(b"first rule", b"last rule"))
    ok(repo, "restore", "canon.md#Rules")
    assert path.read_bytes() == raw


def test_restore_last_section_after_final_newline_removed(tmp_path: Path) -> None:
    repo = new_repo(tmp_path, {"canon.md": CANON})
    ok(repo, "adopt", "canon.md#Else", "--words", WORDS)
    (repo / "canon.md").write_text(CANON + "\nan added last line")
    ok(repo, "restore", "canon.md#Else")
    assert kinds(repo) == ["clean"]
    assert (repo / "canon.md").read_text() == CANON


def test_restore_with_exclusions_keeps_the_excluded_parts_as_they_are_now(
    tmp_path: Path,
) -> None:
    text = (
        "---\nstatus: proposed\ntitle: T\n---\n# Doc\n\nContext.\n\n"
        "## Status\n\nopen\n\n## Decision\n\nYes.\nAlways.\n"
    )
    repo = new_repo(tmp_path, {"adr.md": text})
    excluded = ["--exclude", "#Status", "--exclude", "meta:status"]
    ok(repo, "adopt", "adr.md", *excluded, "--words", WORDS)
    now = (
        text.replace("status: proposed", "status: accepted")
        .replace("open\n", "closed by the board\n")
        .replace("Yes.", "No.")
        .replace("Context.", "Context, edited.")
    )
    (repo / "adr.md").write_text(now)
    assert kinds(repo) == ["drifted"]
    ok(repo, "restore", "adr.md")
    assert kinds(repo) == ["clean"]
    # ground is back; the excluded parts keep today's text
    assert (repo / "adr.md").read_text() == text.replace(
        "status: proposed", "status: accepted"
    ).replace("open\n", "closed by the board\n")
    assert len(captures(repo)) == 1


def test_restore_with_exclusions_refused_when_it_would_change_the_section(
    tmp_path: Path,
) -> None:
    # An exclusion must match at adoption (issue 11, item 6), so Status is there.
    text = "# Doc\n\nIntro.\n\n## Status\n\nopen\n"
    repo = new_repo(tmp_path, {"adr.md": text})
    ok(repo, "adopt", "adr.md", "--exclude", "#Status", "--words", WORDS)
    # Status moved up under Doc, and the line after it replaced: put back, ground's
    # "Intro." would land under the excluded Status heading and vanish from the hash.
    now = "# Doc\n\n### Status\n\nopen\n\n## Later\n"
    (repo / "adr.md").write_text(now)
    result = forest(repo, "restore", "adr.md")
    assert result.exit_code == 1 and "nothing was written" in result.stderr
    assert (repo / "adr.md").read_text() == now
    assert captures(repo) == []


_PIECES = (
    "# Doc\n",
    "\n",
    "## Status\n",
    "### Status\n",
    "open\n",
    "## Decision\n",
    "Yes.\n",
    "No.\n",
    "---\n",
    "status: a\n",
    "## Other\n",
    "text\r\n",
)


@settings(max_examples=400, deadline=None)
@given(
    adopted=st.lists(st.sampled_from(_PIECES), min_size=1, max_size=9),
    now=st.lists(st.sampled_from(_PIECES), min_size=1, max_size=9),
)
def test_restore_with_exclusions_is_exact_or_refused(adopted: list[str], now: list[str]) -> None:
    """Whatever the file became, a restore with exclusions either yields a section that
    hashes to ground exactly, or refuses (and then nothing is written)."""
    excludes = ("#Status", "meta:status")
    sel = parse_selector("a.md")
    try:
        ground = extract("".join(adopted), sel, excludes).text
        new, _old = splice("".join(now).encode(), "a.md", excludes, ground, "a.md")
    except ForestError:
        return  # refused (ambiguous exclusion, or the verified merge failed)
    assert extract(new.decode("utf-8"), sel, excludes).text == ground


def test_restore_of_a_missing_section_refused(tmp_path: Path) -> None:
    repo = new_repo(tmp_path, {"canon.md": CANON})
    ok(repo, "adopt", "canon.md#Rules", "--words", WORDS)
    (repo / "canon.md").write_text(CANON.replace("## Rules", "## Laws"))
    result = forest(repo, "restore", "canon.md#Rules")
    assert result.exit_code == 1
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("folder", ["docs/adr", "docs/my adr"])
def test_restore_whole_file_directory_gone_route_pasted_recovers(
    tmp_path: Path, folder: str
) -> None:
    """The route names the directory from the repository root, quoted, as one command."""
    target = f"{folder}/x.md"
    repo = new_repo(tmp_path, {target: "# X\n\nX.\n"})
    ok(repo, "adopt", target, "--words", WORDS)
    commit_all(repo, "adopt")
    shutil.rmtree(repo / "docs")
    result = forest(repo, "restore", target)
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()
    route = re.search(r"`([^`]+)`", line)
    assert route, line
    made = f"mkdir -p {shlex.quote(folder)}"
    assert route.group(1) == f"{made} && forest restore {shlex.quote(target)}"
    done = pasted(repo, route.group(1))
    assert done.returncode == 0, done.stderr
    assert (repo / target).read_text(encoding="utf-8") == "# X\n\nX.\n"
    assert kinds(repo) == ["clean"]


@pytest.mark.parametrize("gone", ["removed", "staged", "committed"])
def test_restore_section_of_a_gone_file_route_pasted_recovers(tmp_path: Path, gone: str) -> None:
    """A section binding's file gone: restore refuses (its place went with it) and
    names where git still holds the file, pasted as printed: the index (``rm``), HEAD
    (``git rm``), or the commit before the one that deleted it (it said ``git
    checkout -- PATH`` whatever the case, which fails once the deletion is staged)."""
    repo = new_repo(tmp_path, {"canon.md": CANON})
    ok(repo, "adopt", "canon.md#Canon/Rules", "--words", WORDS)
    commit_all(repo, "adopt")
    if gone == "removed":
        (repo / "canon.md").unlink()
    else:
        git(repo, "rm", "-q", "canon.md")
    if gone == "committed":
        git(repo, "commit", "-q", "--no-verify", "-m", "drop the canon")
    result = forest(repo, "restore", "canon.md#Canon/Rules")
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()
    step = re.search(r"bring the file back \((git checkout [^:)]+)", line)
    assert step, line
    held = {
        "removed": (),
        "staged": ("HEAD",),
        "committed": (git(repo, "rev-parse", "HEAD") + "^",),
    }
    assert step.group(1) == shlex.join(["git", "checkout", *held[gone], "--", "canon.md"])
    done = pasted(repo, step.group(1))
    assert done.returncode == 0, done.stderr
    assert (repo / "canon.md").read_text(encoding="utf-8") == CANON
    assert kinds(repo) == ["clean"]


# -- the property ------------------------------------------------------------------------

WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=8)
BODY_LINE = st.one_of(st.just(""), st.lists(WORD, min_size=1, max_size=5).map(" ".join))


@st.composite
def documents(draw: st.DrawFn, eols: tuple[str, ...]) -> tuple[list[str], list[int], int]:
    """Lines with their endings, heading levels by heading index (-1 for body), target."""
    eol = st.sampled_from(eols)
    lines: list[str] = []
    levels: list[int] = []
    count = draw(st.integers(1, 6))
    for i in range(count):
        level = draw(st.integers(1, 3))
        lines.append(f"{'#' * level} Head{i}" + draw(eol))
        levels.append(level)
        for body in draw(st.lists(BODY_LINE, max_size=4)):
            lines.append(body + draw(eol))
            levels.append(-1)
    if draw(st.booleans()) and lines[-1].rstrip("\r\n"):  # no final newline
        lines[-1] = lines[-1].rstrip("\r\n")
    return lines, levels, draw(st.integers(0, count - 1))


def _property(
    doc: tuple[list[str], list[int], int], bom: bool, data: st.DataObject, eols: tuple[str, ...]
) -> None:
    lines, levels, target = doc
    heads = [i for i, lv in enumerate(levels) if lv > 0]
    lo = heads[target]
    hi = next((i for i in heads[target + 1 :] if levels[i] <= levels[lo]), len(lines))
    before = ("\ufeff" if bom else "") + "".join(lines[: lo + 1])  # through the heading line
    after = "".join(lines[hi:])
    original = (before + "".join(lines[lo + 1 : hi]) + after).encode()

    eol = st.sampled_from(eols)
    body = [data.draw(BODY_LINE) + data.draw(eol) for _ in range(data.draw(st.integers(0, 4)))]
    head_line = before
    if body and not head_line.endswith("\n"):  # the heading was the last, unterminated line
        head_line += data.draw(eol)
    unterminated = not original.endswith(b"\n")
    if body and hi == len(lines) and unterminated and body[-1].rstrip("\r\n"):
        body[-1] = body[-1].rstrip("\r\n")
    mutated = (head_line + "".join(body) + after).encode()

    with tempfile.TemporaryDirectory(prefix="forest-restore-") as tmp:
        repo = new_repo(Path(tmp), {"doc.md": original})
        ok(repo, "adopt", f"doc.md#Head{target}", "--words", WORDS)
        path = repo / "doc.md"
        path.write_bytes(mutated)
        said = ok(repo, "restore", f"doc.md#Head{target}").stdout
        assert kinds(repo) == ["clean"]
        restored = path.read_bytes()
        assert restored.startswith(before.encode())
        assert restored.endswith(after.encode())
        assert len(restored) >= len(before.encode()) + len(after.encode())
        if "nothing changed" in said:  # the mutation left the section's text as it was
            assert captures(repo) == [] and restored == mutated
        else:
            (kept,) = captures(repo)
            assert kept.read_text(encoding="utf-8").startswith("# captured before")
        porcelain = git(repo, "status", "--porcelain", "--untracked-files=all")
        assert ".forest/cache" not in porcelain


PROPERTY = settings(
    max_examples=40,
    deadline=None,
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.mark.slow
@PROPERTY
@given(doc=documents(("\n",)), data=st.data())
def test_restore_property_lf_only_the_section_changes(
    doc: tuple[list[str], list[int], int], data: st.DataObject
) -> None:
    _property(doc, False, data, ("\n",))


@pytest.mark.slow
@PROPERTY
@given(doc=documents(("\n", "\r\n")), bom=st.booleans(), data=st.data())
def test_restore_property_crlf_mix_and_bom_only_the_section_changes(
    doc: tuple[list[str], list[int], int], bom: bool, data: st.DataObject
) -> None:
    _property(doc, bom, data, ("\n", "\r\n"))


MERGED = "# Doc\n\n## Alpha\n\nline one\nline two\nline three\n\n## Beta\n\nbeta text\n"


def test_restore_into_a_file_with_merge_conflicts_refused(tmp_path: Path) -> None:
    """A bound file left in a merge conflict: its ``=======`` reads as a heading's
    underline, so no section stands where it will. Restore says so (it spoke of
    "excluded parts" the binding does not have) and writes nothing; the command it
    names, pasted, shows how to resolve."""
    repo = new_repo(tmp_path, {"docs/a.md": MERGED})
    ok(repo, "adopt", "docs/a.md#Doc/Alpha", "--words", WORDS)
    commit_all(repo, "adopt")
    git(repo, "checkout", "-q", "-b", "other")
    write(repo, "docs/a.md", MERGED.replace("line two", "line two, other"))
    commit_all(repo, "other")
    git(repo, "checkout", "-q", "-")
    write(repo, "docs/a.md", MERGED.replace("line two", "line two, here"))
    commit_all(repo, "here")
    assert pasted(repo, "git merge -q other").returncode == 1
    before = (repo / "docs/a.md").read_bytes()
    ledger = sorted(p.name for p in (repo / ".forest/ledger/segments").iterdir())
    refused = forest(repo, "restore", "docs/a.md#Doc/Alpha")
    assert refused.exit_code == 1, refused.stdout
    said = refused.stderr.strip()
    assert said.startswith("forest: docs/a.md: the file holds unresolved merge conflicts"), said
    assert "excluded" not in said and said.count("\n") == 0, said
    assert (repo / "docs/a.md").read_bytes() == before
    assert sorted(p.name for p in (repo / ".forest/ledger/segments").iterdir()) == ledger
    assert not captures(repo)
    shown = pasted(repo, said.split("`")[1])  # `forest check`: how to resolve
    assert shown.returncode == 1 and "git checkout --theirs -- docs/a.md" in shown.stdout


def test_restore_where_a_setext_heading_would_swallow_ground_refused() -> None:
    """No exclusions, no conflict: a paragraph right after the section, underlined as a
    setext heading, would take ground's last line into its heading once written. The
    refusal names that, not excluded parts the binding does not have."""
    drifted = "# D\n\n## A\n\n\nfoo\n=======\n\nbar\n"
    with pytest.raises(ForestError) as refused:
        splice(drifted.encode(), "d.md#D/A", (), "## A\n\nkept text\n", "d.md")
    said = str(refused.value)
    assert "the section would end elsewhere" in said and "excluded" not in said, said


def test_restore_bound_heading_now_twice_refused_with_ways_out(tmp_path: Path) -> None:
    """A second ``## Notes`` under the same parent: which one is bound is the user's to
    say. Refused, nothing written, no capture; the refusal names both occurrences and
    the ways out (it said "choose one of them", and ``Notes[1]`` named no binding).
    The first way, followed, restores."""
    root = make_repo(tmp_path)
    write(root, "a.md", "# T\n\n## Notes\n\nfirst\n\n## Other\n\nx\n")
    commit_all(root, "start")
    ok(root, "init")
    ok(root, "adopt", "a.md#T/Notes", "--words", "adopt")
    commit_all(root, "custody")
    twice = "# T\n\n## Notes\n\nfirst, changed\n\n## Other\n\nx\n\n## Notes\n\nsecond\n"
    write(root, "a.md", twice)
    captures = shared_state(root) / "captures"
    result = forest(root, "restore", "a.md#T/Notes")
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()
    assert "a.md#T/Notes[1] (line 3), a.md#T/Notes[2] (line 11)" in line, line
    assert "nothing was written" in line and "choose one of them" not in line, line
    assert (root / "a.md").read_text(encoding="utf-8") == twice
    assert not captures.exists() or not any(captures.iterdir())
    restore = re.findall(r"`([^`]*)`", line)[0]
    assert restore == "forest restore 'a.md#T/Notes'", line
    write(root, "a.md", twice.replace("## Notes\n\nsecond", "## Later notes\n\nsecond"))
    done = pasted(root, restore)
    assert done.returncode == 0, done.stderr
    assert (root / "a.md").read_text(encoding="utf-8").startswith("# T\n\n## Notes\n\nfirst\n")


def test_restore_under_normalisations_refusal_names_them_refused() -> None:
    """A method bound under ``py-comments``, then wrapped in ``if TYPE_CHECKING:``:
    ground cannot be written back, and the refusal blamed "the excluded parts" of a
    binding that excludes nothing; it names the normalisations. Nothing is written."""
    ground = "    def m(self):\n        return 1\n"
    now = (
        "from typing import TYPE_CHECKING\nclass C:\n    if TYPE_CHECKING:\n"
        "        def m(self):\n            # note\n            return 1\n"
    )
    with pytest.raises(ForestError) as info:
        splice(now.encode(), "c.py::C.m", ("normalise:py-comments@1",), ground, "c.py")
    said = str(info.value)
    assert "under its declared normalisations" in said and "excluded parts" not in said

"""check/route_swallowed.py: a drifted heading section whose edit hides a heading its
restore refuses (bound with exclusions, or the heading typed above ground's lines) is
routed to close the block, not to a ``forest restore`` that refuses pasted; every
command the check prints works pasted, and the advice followed as written (a fence
closed further on: its own closing line taken out first), then the restore it names,
leaves the check clean. An ordinary drift works out no restore to be routed."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from forest_files.custody import restore_rewrite
from tests.helpers.cli import finding_of, findings, forest, ok
from tests.helpers.git import commit_all, make_repo, pasted, write
from tests.helpers.hidden import CUT, cut_open

# The close advice in a route's note: the line to write before, the line to write
# (a fence's mark as many times, an HTML block's end), the restore to run after.
ADVICE = re.compile(
    r"before line (\d+) \(or take it out\): (?:a line of just (\d+) (backticks|tildes)"
    r"|the line (\S+)) closes it; then `([^`]+)`"
)


def _each_pasted(repo: Path, fresh: Callable[[int], Path]) -> list[dict[str, Any]]:
    """The failed findings of ``repo``'s check, after every route's command was pasted
    into bash in a fresh copy (``fresh(n)``) as told and succeeded (a retire is left
    out: it ends the binding, no way back to clean, nor meant as one)."""
    failed = [f for f in findings(repo) if f["kind"] != "clean"]
    commands = [r["command"] for f in failed for r in f["routes"] if r["command"]]
    for n, command in enumerate(commands):
        if "retire" not in command:
            got = pasted(fresh(n), command.replace("'…'", "'the edit is right'"))
            assert got.returncode == 0, (command, got.stderr)
    return failed


@pytest.mark.parametrize("bound_b", [False, True])
@pytest.mark.parametrize("opened", ["```\n", "~~~~\n", "<!-- draft\n"])
def test_check_drift_excluding_part_hidden_heading_routed_to_close_not_refused_restore(
    tmp_path: Path, opened: str, bound_b: bool
) -> None:
    """A bound with ``--exclude '#sub'``, a block left open in it over ``## sub``:
    ``forest check`` routed A to ``forest restore 'f.md#A'``, which pasted is refused
    (a section that excludes parts keeps no heading an edit hides). Now every route's
    command pasted (each in a fresh copy) succeeds, A's first route is the close
    advice, and that advice followed as written, then the restore it names pasted,
    leaves every binding clean."""
    repo = cut_open(tmp_path / "repo", opened, bound_b=bound_b)
    failed = _each_pasted(repo, lambda n: cut_open(tmp_path / f"paste{n}", opened, bound_b=bound_b))
    (a,) = [f for f in failed if f["selector"] == "f.md#A"]
    first = a["routes"][0]
    assert first["label"] == "close the block" and first["command"] is None, a["routes"]
    then = _follow(repo, first["note"])
    got = pasted(repo, then)
    assert got.returncode == 0, (then, got.stderr)
    assert {f["kind"] for f in findings(repo)} == {"clean"}
    assert (repo / "f.md").read_text() == CUT


# the advice's first step when a fence closes further on: its own closing line out
TAKE_OUT = re.compile(r"take out line (\d+) \((?:the|that) code fence's closing line")


def _follow(repo: Path, note: str) -> str:
    """The close advice ``note`` followed literally in f.md (its closing line taken out
    first, where it says so; the closing line written before the line it names); the
    restore it names after."""
    said = ADVICE.search(note)
    assert said is not None, note
    before, count, marks, end, then = said.groups()
    closer = ("`" if marks == "backticks" else "~") * int(count) if count else end
    lines = (repo / "f.md").read_text().splitlines(keepends=True)
    taken = TAKE_OUT.search(note)
    if taken is not None:
        assert int(taken.group(1)) > int(before), note  # the lines above keep their numbers
        del lines[int(taken.group(1)) - 1]
    lines.insert(int(before) - 1, f"{closer}\n")
    write(repo, "f.md", "".join(lines))
    return then


PLAIN = "# A\n\ntext a\n\n# B\n\nb\n"
TYPED = PLAIN.replace("\ntext a\n", "\n```\n# B\ntext a\n")  # a fence typed over ground


def _plain(root: Path, edited: str, *, bound_b: bool, text: str = PLAIN, cut: str = "") -> Path:
    """f.md (``text``) with A bound (``cut``: the part it excludes), B too if
    ``bound_b``, both committed, then ``edited`` written."""
    repo = make_repo(root)
    ok(repo, "init")
    write(repo, "f.md", text)
    commit_all(repo, "init")
    ok(repo, "adopt", "f.md#A", *(("--exclude", cut) if cut else ()), "--words", "kept")
    if bound_b:
        ok(repo, "adopt", "f.md#B", "--words", "kept")
    commit_all(repo, "adopt")
    write(repo, "f.md", edited)
    return repo


@pytest.mark.parametrize("bound_b", [False, True])
def test_check_drift_fence_typed_over_ground_hiding_heading_routed_to_close_detected(
    tmp_path: Path, bound_b: bool
) -> None:
    """A bound with no exclusions; "```" then "# B" typed above ground's lines in A:
    ``forest check`` routed A to ``forest restore 'f.md#A'``, which pasted is refused
    (the fence hides ``# B`` with ground's lines after it). Now every command the check
    prints works pasted (each in a fresh copy), A's first route is the close advice, and
    it names the line after the typed heading (closed before the heading, that heading
    would cut A short over ground's lines: refused again): followed literally, then the
    restore it names pasted, every binding is clean and f.md is as adopted."""
    repo = _plain(tmp_path / "repo", TYPED, bound_b=bound_b)
    failed = _each_pasted(repo, lambda n: _plain(tmp_path / f"paste{n}", TYPED, bound_b=bound_b))
    (a,) = [f for f in failed if f["selector"] == "f.md#A"]
    first = a["routes"][0]
    assert first["label"] == "close the block" and first["command"] is None, a["routes"]
    assert "before line 5 " in first["note"], first["note"]
    refused = forest(repo, "restore", "f.md#A")  # the restore's own advice: the same line
    assert refused.exit_code == 1 and "before line 5 " in refused.stderr, refused.stderr
    got = pasted(repo, _follow(repo, first["note"]))
    assert got.returncode == 0, got.stderr
    assert {f["kind"] for f in findings(repo)} == {"clean"}
    assert (repo / "f.md").read_text() == PLAIN


def test_check_ordinary_drift_no_restore_worked_out_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An ordinary drift (a word changed, no line that may open a block) is routed to
    ``forest restore`` with no restore worked out in memory (route_swallowed.py
    ``may_hide``); the hostile one (a fence typed over ground) works out one."""
    planned: list[str] = []
    real = restore_rewrite.plan_rewrite

    def counted(*args: Any, **kwargs: Any) -> Any:
        planned.append(args[2])
        return real(*args, **kwargs)

    monkeypatch.setattr(restore_rewrite, "plan_rewrite", counted)
    repo = _plain(tmp_path / "plain", PLAIN.replace("text a", "text A"), bound_b=True)
    (a,) = [f for f in findings(repo) if f["kind"] != "clean"]
    assert a["routes"][0]["command"] == "forest restore 'f.md#A'", a["routes"]
    assert planned == []
    hostile = _plain(tmp_path / "hostile", TYPED, bound_b=True)
    assert finding_of(hostile, "f.md#A")["routes"][0]["label"] == "close the block"
    assert planned == ["f.md#A", "f.md#A"]  # A's route, and B's (hidden in A: A's close)


@pytest.mark.parametrize(
    ("edited", "cut"),
    [
        (CUT.replace("\ntext a\n", "\n```\ntext a\n").replace("\ns\n", "\ns\n```\n"), "#sub"),
        (TYPED.replace("text a\n", "text a\n```\n"), ""),
    ],
    ids=["excluding", "typed"],
)
def test_check_drift_fence_closed_further_on_advice_takes_its_closer_out_detected(
    tmp_path: Path, edited: str, cut: str
) -> None:
    """A fence opened in A and closed after the heading it hides (``## sub``, which A
    excludes; a ``# B`` typed over ground): A's close advice named no closing line and
    left the fence's own: followed literally, that line opened a fence over ``# B``
    (the restore refused again or B hidden). The advice takes that closing line out
    first, then names the line that closes it: followed literally, then the restore it
    names, every binding is clean."""
    text = CUT if cut else PLAIN
    repo = _plain(tmp_path, edited, bound_b=True, text=text, cut=cut)
    note = finding_of(repo, "f.md#A")["routes"][0]["note"]
    taken = TAKE_OUT.search(note)
    assert taken is not None, note
    refused = forest(repo, "restore", "f.md#A")  # the restore's own advice: the same
    again = TAKE_OUT.search(refused.stderr)
    assert again is not None and again.group(1) == taken.group(1), refused.stderr
    got = pasted(repo, _follow(repo, note))
    assert got.returncode == 0, got.stderr
    assert {f["kind"] for f in findings(repo)} == {"clean"}
    assert (repo / "f.md").read_text() == text


# a hidden heading's note that is its holder's route's advice, to be followed once
SAME = re.compile(r"^the same as (\S+)'s route \(follow it once, for both\): ")


@pytest.mark.parametrize("opened", ["```\n", "<!-- draft\n"])
def test_check_hidden_heading_holder_refused_same_block_one_close_followed_in_order_clean(
    tmp_path: Path, opened: str
) -> None:
    """A and B bound; a block and a ``# B`` typed above ground's lines in A, the block
    left open over the real ``# B``: A's route closed the block before ground's next
    line (line 5), B's before its own heading (line 7). Followed in the order printed,
    the second close opened a block over ``# B`` again. B's note is A's advice now,
    said to be A's, to be followed once: the notes followed in order (each once), then
    the restores they name, every binding is clean and f.md is as adopted."""
    edited = PLAIN.replace("\ntext a\n", f"\n{opened}# B\ntext a\n")
    repo = _plain(tmp_path, edited, bound_b=True)
    failed = [f for f in findings(repo) if f["kind"] != "clean"]
    assert [f["selector"] for f in failed] == ["f.md#A", "f.md#B"], failed
    notes = [(f["selector"], f["routes"][0]["note"]) for f in failed]
    followed: set[str] = set()
    for selector, note in notes:
        same = SAME.match(note)
        if same is not None and same.group(1) in followed:
            continue  # that route's advice, followed already
        got = pasted(repo, _follow(repo, note if "; then `" in note else f"{note}; then `true`"))
        assert got.returncode == 0, (note, got.stderr)
        followed.add(selector)
    assert {f["kind"] for f in findings(repo)} == {"clean"}, (notes, findings(repo))
    assert (repo / "f.md").read_text() == PLAIN
    assert SAME.sub("", notes[1][1]) == notes[0][1], notes


INSTALL = "# A\n\ntext a\n\n# install\n\nrun it\n"
# a shell fence typed into A, a shell comment in it: `# install` read alone
SHELL = INSTALL.replace("text a\n", "text a\n```sh\n# install\nmake\n")
# the block's own lines, as its writer knows them: the fence, the comment, the command
ENDS = 7


def test_check_may_be_new_heading_route_says_where_its_lines_end_followed_clean(
    tmp_path: Path,
) -> None:
    """A and install bound; ```` ```sh ````, ``# install`` (a shell comment) and
    ``make`` typed into A, the fence left open over the real ``# install``. ``forest
    restore 'f.md#A'`` is refused as a heading that may be new ("close that code
    fence where its lines end (before line 5 if `# install` begins a new section)"),
    but A's route said only "close … before line 5": followed as printed, the shell
    comment became a second ``# install`` section and f.md#install went ``moved`` to
    ``f.md#install[2]``. A's note says what the refusal says now; followed literally
    (the block's lines end after ``make``), then the restore it names, every binding
    is clean and f.md is as adopted."""
    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(repo, "f.md", INSTALL)
    commit_all(repo, "init")
    ok(repo, "adopt", "f.md#A", "--words", "kept")
    ok(repo, "adopt", "f.md#install", "--words", "kept")
    commit_all(repo, "adopt")
    write(repo, "f.md", SHELL)
    note = finding_of(repo, "f.md#A")["routes"][0]["note"]
    refused = forest(repo, "restore", "f.md#A")
    assert refused.exit_code == 1, refused.stdout
    said = "where its lines end (before line 5 if `# install` begins a new section)"
    assert said in refused.stderr, refused.stderr
    # followed literally: where the block's lines end, if the note says so; else the
    # one line it names
    named = re.search(r"where its lines end \(before line \d+ if [^)]*\)", note)
    before = ENDS if named is not None else int(re.findall(r"before line (\d+)", note)[0])
    then = re.search(r"; then `([^`]+)`$", note)
    assert then is not None and "a line of just 3 backticks closes it" in note, note
    lines = (repo / "f.md").read_text().splitlines(keepends=True)
    lines.insert(before - 1, "```\n")
    write(repo, "f.md", "".join(lines))
    got = pasted(repo, then.group(1))
    assert got.returncode == 0, got.stderr
    assert {f["kind"] for f in findings(repo)} == {"clean"}, (note, findings(repo))
    assert (repo / "f.md").read_text() == INSTALL
    assert said in note, note  # the refusal's words, the block named by its line

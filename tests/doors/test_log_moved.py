"""``forest log PATH`` of a binding ``forest rebind`` moved: the move is in its chain
(from where, to where, by whom, when), asked by the new place or by the old one.
Before, the new place showed its grounds only and the old place was "no binding"."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.template import copied_from

DOC = "# T\n\n## A\n\nalpha\n"
ADA = "Ada <ada@example.org>"


def _moved(tmp_path: Path) -> Path:
    """``doc.md#T/A`` adopted, the file renamed to ``moved.md`` and the binding rebound."""
    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(repo, "doc.md", DOC)
    commit_all(repo, "doc")
    ok(repo, "adopt", "doc.md#T/A", "--words", "first", "--as", ADA)
    commit_all(repo, "adopt")
    git(repo, "mv", "doc.md", "moved.md")
    ok(repo, "rebind", "doc.md#T/A", "moved.md#T/A", "--as", "Bo <bo@example.org>")
    commit_all(repo, "moved")
    return repo


moved = copied_from(_moved)  # each test its own copy of one build per worker


def _move_line(text: str) -> str:
    (line,) = [x for x in text.splitlines() if " moved " in x]
    return line


def test_log_new_place_shows_the_move_accepted(moved: Path) -> None:
    out = ok(moved, "log", "moved.md#T/A").stdout
    assert out.splitlines()[0] == "moved.md#T/A"
    line = _move_line(out)
    assert "moved      from doc.md#T/A to moved.md#T/A by Bo <bo@example.org>" in line
    assert line.split()[0].endswith("Z")  # when
    assert out.index("ground") < out.index(" moved ")  # in the order it happened


def test_log_old_place_names_where_it_went_accepted(moved: Path) -> None:
    out = ok(moved, "log", "doc.md#T/A").stdout
    assert out.splitlines()[0] == "doc.md#T/A: moved; its binding is moved.md#T/A now"
    assert out.splitlines()[1] == "moved.md#T/A"
    assert "from doc.md#T/A to moved.md#T/A by Bo <bo@example.org>" in _move_line(out)


def test_log_of_every_act_says_where_a_rebind_moved_from_accepted(moved: Path) -> None:
    (line,) = [x for x in ok(moved, "log").stdout.splitlines() if " rebind " in x]
    assert " rebind doc.md#T/A to moved.md#T/A -> " in line
    acts = json.loads(ok(moved, "log", "--json").stdout)["acts"]
    assert [a["moved_from"] for a in acts] == ["", "doc.md#T/A"]


def test_log_moved_json_lists_the_moves_accepted(moved: Path) -> None:
    for asked in ("moved.md#T/A", "doc.md#T/A"):
        doc = json.loads(ok(moved, "log", asked, "--json").stdout)
        assert doc["selector"] == "moved.md#T/A" and len(doc["chain"]) == 1
        (move,) = doc["moves"]
        assert (move["moved_from"], move["moved_to"]) == ("doc.md#T/A", "moved.md#T/A")
        assert move["by"] == "Bo <bo@example.org>" and move["at"]


def test_log_moved_with_new_text_says_its_words_accepted(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(repo, "doc.md", DOC)
    commit_all(repo, "doc")
    ok(repo, "adopt", "doc.md#T/A", "--words", "first")
    write(repo, "doc.md", "# T\n\n## B\n\nbeta\n")
    ok(repo, "rebind", "doc.md#T/A", "doc.md#T/B", "--words", "renamed and reworded", "--as", ADA)
    out = ok(repo, "log", "doc.md#T/B").stdout
    assert _move_line(out).endswith(f"from doc.md#T/A to doc.md#T/B by {ADA}: "
                                    "renamed and reworded")  # fmt: skip
    assert ok(repo, "log", "doc.md#T/A").stdout.endswith(out)


def test_log_place_nothing_ever_stood_at_refused(moved: Path) -> None:
    done = forest(moved, "log", "other.md#T/A")
    assert done.exit_code == 1 and "no binding" in done.stderr


def test_log_moved_twice_each_old_place_shows_both_moves_accepted(moved: Path) -> None:
    git(moved, "mv", "moved.md", "last.md")
    ok(moved, "rebind", "moved.md#T/A", "last.md#T/A")
    for asked in ("doc.md#T/A", "moved.md#T/A", "last.md#T/A"):
        out = ok(moved, "log", asked).stdout
        went = [x.split(" moved ", 1)[1].split(" by ")[0].strip() for x in out.splitlines()
                if " moved " in x]  # fmt: skip
        assert went == ["from doc.md#T/A to moved.md#T/A", "from moved.md#T/A to last.md#T/A"]
        assert ("moved; its binding is last.md#T/A now" in out) == (asked != "last.md#T/A")

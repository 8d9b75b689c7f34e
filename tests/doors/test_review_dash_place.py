"""``forest review``'s contest keys on a binding rebound to a file whose name starts
with ``-`` (``-B.md``): the route is ``forest rebind … -- A B`` (a target after ``--``
is never read as an option), and the review ran it with ``--as`` and ``--repo``
appended after that ``--``, read as two more targets: refused, "Got unexpected extra
arguments", the contest left as it was. Now those options go before the ``--`` (the
place holds other text, so its route takes words and ``--as`` is passed too).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

from forest_files.doors.cli.review_cmd import run_in_process
from forest_files.doors.review.keys import Console
from forest_files.doors.review.run import review_here
from tests.helpers.cli import forest
from tests.helpers.custody import BY
from tests.helpers.git import commit_all, git, pasted, write
from tests.helpers.rebound import BODY, origin


def _clone(tmp_path: Path, dest: str, name: str) -> Path:
    repo = tmp_path / name
    git(tmp_path, "clone", "-q", str(tmp_path / "origin"), str(repo))
    write(repo, "A.md", "# T\n\nintro\n")
    write(repo, dest, BODY)
    commit_all(repo, "move")
    done = pasted(repo, f"forest rebind -- A.md#X '{dest}#X'")
    assert done.returncode == 0, done.stderr
    commit_all(repo, "rebind")
    return repo


def _contest(root: Path) -> dict[str, object]:
    doc = json.loads(forest(root, "check", "--json").stdout)
    (said,) = [f for f in doc["findings"] if f["kind"] == "contested"]
    return dict(said)


def test_review_contest_key_to_a_dash_named_place_runs_it_recovers(tmp_path: Path) -> None:
    origin(tmp_path)
    b, c = _clone(tmp_path, "-B.md", "b"), _clone(tmp_path, "C.md", "c")
    git(b, "pull", "-q", "--no-rebase", "--no-edit", str(c), "HEAD")
    write(b, "-B.md", "# X\n\nother words\n")  # its rebind takes words: --as too
    said = _contest(b)
    labels = [str(r["label"]) for r in said["routes"]]  # type: ignore[attr-defined]
    key = str(1 + next(n for n, label in enumerate(labels) if "-B.md#X" in label))
    out = io.StringIO()
    console = Console(io.StringIO(f"{key}\nthe dash file holds it\n"), out)
    review_here(b, BY, colour=False, run=run_in_process(b), console=console)
    shown = out.getvalue()
    assert "1 of 1 seen: 1 rebound" in shown, shown
    assert pasted(b, "git add -- .forest/ledger").returncode == 0
    doc = json.loads(forest(b, "check", "--json").stdout)
    assert doc["ok"] is True and [f["selector"] for f in doc["findings"]] == ["-B.md#X"]

"""A binding rebound on two merged branches, the other place holding other text, judged
by ``forest check`` in a working tree whose index is gone (moved aside, as ``forest
fsck`` asks of a damaged one) while its binding map and contests record stand.

Without diffs, the check explained the contest with no index to read (check/path.py:
the view reader is None where there is no index file), so check/rebound_texts.py
said no place's text differs from ground and the rebind to the other place came
without ``--words '…'``: pasted, ``forest rebind`` refused it ("add --words"). Now
that place's text is judged against the synced index (check/path.py asks the one store
the check's custody opens), and every door prints the same route; with ``…`` replaced,
it settles the binding. A failing check with no such contest still opens no store there:
no index is made again (no sync, counted by the index file that a sync writes).
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.check.test_rebound_twice_words import _commands, _edited, _filled, _run
from tests.helpers.custody import adopted_repo
from tests.helpers.git import git, pasted


def _drop_index(root: Path) -> None:
    for name in ("woods.db", "woods.db-wal", "woods.db-shm"):
        (_index(root).parent / name).unlink(missing_ok=True)


def _index(root: Path) -> Path:
    return root / ".git" / "forest" / "woods.db"


def test_check_no_index_rebound_twice_route_to_other_text_takes_words_recovers(
    tmp_path: Path,
) -> None:
    b, stands, other = _edited(tmp_path, 1)  # the other place holds other text
    said = _commands(b, "check", "--json")  # with the index: the rebind there takes words
    assert "--words" not in said[0] and "--words '…'" in said[1], said
    _drop_index(b)
    text = _run(b, "check")
    assert text.returncode == 1 and all(c in text.stdout for c in said), text.stdout
    assert _index(b).exists()  # the words were asked of the synced index
    _drop_index(b)
    assert _commands(b, "check", "--json") == said
    _drop_index(b)
    done = pasted(b, _filled(said[1]))
    assert done.returncode == 0, done.stderr
    git(b, "commit", "-q", "-m", "settle")
    doc = json.loads(_run(b, "check", "--json").stdout)
    assert doc["ok"] is True and [f["selector"] for f in doc["findings"]] == [other], doc
    assert stands != other


def test_check_no_index_drift_opens_no_store_accepted(tmp_path: Path) -> None:
    """No binding rebound twice: the failing check explains without the store."""
    repo = adopted_repo(tmp_path, "f.md", "# A\n\nbound\n", "f.md#A")
    assert _run(repo, "check").returncode == 0  # its binding map saved beside the index
    (repo / "f.md").write_text("# A\n\nedited\n")
    _drop_index(repo)
    for args in (("check",), ("check", "--json")):
        done = _run(repo, *args)
        assert done.returncode == 1 and "f.md#A" in done.stdout, done.stdout + done.stderr
        assert not _index(repo).exists(), args  # no sync: the index was not made again

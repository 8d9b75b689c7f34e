"""A binding rebound on two merged branches, the other place holding other text, judged
by ``forest check`` in a working tree whose index is gone (moved aside, as ``forest
fsck`` asks of a damaged one) while its binding map and contests record stand.

Without diffs, the check explained the contest with no index to read (check/path.py:
the view reader is None where there is no index file), so check/rebound_texts.py
said no place's text differs from ground and the rebind to the other place came
without ``--words '…'``: pasted, ``forest rebind`` refused it ("add --words"). Now
that place's text is judged against the synced index, and every door prints the same
route; with ``…`` replaced, it settles the binding.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.check.test_rebound_twice_words import _commands, _edited, _filled, _run
from tests.helpers.git import git, pasted


def _drop_index(root: Path) -> None:
    state = root / ".git" / "forest"
    for name in ("woods.db", "woods.db-wal", "woods.db-shm"):
        (state / name).unlink(missing_ok=True)


def test_check_no_index_rebound_twice_route_to_other_text_takes_words_recovers(
    tmp_path: Path,
) -> None:
    b, stands, other = _edited(tmp_path, 1)  # the other place holds other text
    said = _commands(b, "check", "--json")  # with the index: the rebind there takes words
    assert "--words" not in said[0] and "--words '…'" in said[1], said
    _drop_index(b)
    text = _run(b, "check")
    assert text.returncode == 1 and all(c in text.stdout for c in said), text.stdout
    _drop_index(b)
    assert _commands(b, "check", "--json") == said
    _drop_index(b)
    done = pasted(b, _filled(said[1]))
    assert done.returncode == 0, done.stderr
    git(b, "commit", "-q", "-m", "settle")
    doc = json.loads(_run(b, "check", "--json").stdout)
    assert doc["ok"] is True and [f["selector"] for f in doc["findings"]] == [other], doc
    assert stands != other

"""A forget whose purge fails after the erase is recorded names what it could not
purge (custody/purge.py ``purge_failed``), and ``forest sync`` then finishes it.

Real repository. The superseded body's folder in the ledger is made immutable
(the tests may run as root): the message named ``.git/forest/local.db``, a file
that does not exist, while the erased text stood in the ledger's body file.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers.cli import forest
from tests.helpers.git import commit_all, make_repo, write
from tests.helpers.immutable import immutable


def test_forget_purge_unwritable_body_named_then_sync_finishes_recovers(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    write(repo, "canon.md", "# Canon\n\n## Hero\n\nThe hero is brave.\n")
    commit_all(repo, "base")
    assert forest(repo, "init").exit_code == 0
    assert forest(repo, "adopt", "canon.md", "--words", "canon").exit_code == 0
    commit_all(repo, "adopt")
    write(repo, "canon.md", "# Canon\n\n## Hero\n\nThe hero is bold.\n")
    assert forest(repo, "supersede", "canon.md", "--words", "s").exit_code == 0
    commit_all(repo, "supersede")
    old = json.loads(forest(repo, "log", "canon.md", "--json").stdout)["chain"][0]
    body = repo / ".forest" / "ledger" / "bodies" / old["body_hash"][:2] / f"{old['body_hash']}.txt"
    assert body.is_file()
    with immutable(body.parent):
        result = forest(repo, "forget", old["content_id"], "--words", "pasted a secret")
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()
    shown = body.relative_to(repo).as_posix()
    assert f"failed: {shown} (" in line, line
    assert "local.db" not in line and "`forest sync`" in line
    assert body.exists()  # the purge is owed
    assert forest(repo, "sync").exit_code == 0
    assert not body.exists()

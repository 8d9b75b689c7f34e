"""A ``.gitattributes`` rule that converts the ledger on checkout is named.

``forest init`` writes ``.forest/ledger/** -text …``; a later rule such as
``.forest/ledger/** text eol=crlf`` makes every clone check the segments out with
CRLF line ends, so their bytes no longer hash to their names. The refusal says so,
and names the command that shows the rule (ledger/segments.py ``segment_faults``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.helpers.custody import init_and_adopt
from tests.helpers.git import commit_all, git, git_env, make_repo, pasted, write

FOREST = str(Path(sys.executable).parent / "forest")


def test_crlf_checkout_of_the_ledger_named_refused(tmp_path: Path) -> None:
    origin = make_repo(tmp_path, "origin")
    write(origin, "canon.md", "# Canon\n\nThe rule.\n")
    init_and_adopt(origin, ["canon.md"])
    commit_all(origin, "adopt")
    with (origin / ".gitattributes").open("a") as fh:
        fh.write(".forest/ledger/** text eol=crlf\n")
    commit_all(origin, "line ends")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(origin), str(clone))
    proc = subprocess.run(
        [FOREST, "status"],
        cwd=clone,
        env={**os.environ, **git_env()},
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 3, proc.stderr
    assert "its lines end in CRLF" in proc.stderr and proc.stderr.count("forest:") == 1
    assert "(`forest verify` lists every fault of the ledger)" in proc.stderr
    shown = proc.stderr.split("(git check-attr", 1)[1].split(" names the rule", 1)[0]
    attrs = pasted(clone, "git check-attr" + shown)
    assert "eol: crlf" in attrs.stdout, attrs

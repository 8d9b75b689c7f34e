"""Hostile: a committed act naming 3,000 dependencies no ledger holds is one
``dangling-dep`` finding of ``forest ci`` and one fault of ``forest verify``, with the
count, not 3,000 (ledger/verify.py folds them per act)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from forest_files.ledger.acts import decode_line
from tests.helpers.acts import act_object, raw_line
from tests.helpers.cli import forest
from tests.helpers.custody import adopted_repo
from tests.helpers.git import git, write

_SEGMENTS = ".forest/ledger/segments"


def test_ci_act_missing_3000_deps_one_finding_detected(tmp_path: Path) -> None:
    root = adopted_repo(tmp_path, "a.md", "# A\n\nfirst\n")
    base = git(root, "rev-parse", "HEAD")
    (segment,) = git(root, "ls-files", _SEGMENTS).splitlines()
    obj = act_object(
        decode_line((root / segment).read_bytes().rstrip(b"\n"), segment="s", lineno=1)
    )
    obj["deps"] = sorted(hashlib.sha256(b"missing %d" % i).hexdigest() for i in range(3000))
    data = raw_line(obj) + b"\n"
    write(root, f"{_SEGMENTS}/{hashlib.sha256(data).hexdigest()}.jsonl", data)
    git(root, "add", "-A")
    git(root, "commit", "-q", "--no-verify", "-m", "hand-made segment")
    ci = forest(root, "ci", "--base", base, "--format", "json")
    assert ci.exit_code == 3, ci.stdout + ci.stderr
    (found,) = [f for f in json.loads(ci.stdout)["findings"] if "dangling-dep" in f["detail"]]
    assert "3000 acts that are not in the ledger" in found["detail"]
    verified = forest(root, "verify", "--json")
    assert verified.exit_code == 3
    (fault,) = [f for f in json.loads(verified.stdout)["faults"] if f["code"] == "dangling-dep"]
    assert "3000 acts" in fault["detail"]

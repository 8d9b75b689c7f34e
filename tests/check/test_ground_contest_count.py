"""The count line of a check whose one failure is a contest of ground bound to no file.

Two branches each superseded a ground adopted as text only and were merged: every
check reports the ``contested`` finding of no path and exits 1, yet its line read
"0 binding(s) checked … 1 not clean", a failure among no binding. Now the contest is
counted on its own ("; 1 contest of ground bound to no file") at every door that
prints the line (``check``, ``--staged``, ``--rev HEAD``, text and JSON), the bindings'
count unchanged, the exit still 1.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.doors.test_hook_contest_later import FOREST, _ground_contest, _run

TAIL = ": 0 not clean; 1 contest of ground bound to no file"


def test_check_of_a_ground_contest_bound_to_no_file_count_adds_up_detected(
    tmp_path: Path,
) -> None:
    repo, plain = _ground_contest(tmp_path)
    for args in ((), ("--staged",), ("--rev", "HEAD")):
        text = _run(repo, FOREST, "check", *args)
        assert text.returncode == 1, (args, text.stdout, text.stderr)
        last = text.stdout.rstrip().splitlines()[-1]
        assert last.startswith("0 binding(s) checked against") and last.endswith(TAIL), last
        doc = json.loads(_run(repo, FOREST, "check", "--json", *args).stdout)
        assert doc["summary"].endswith(TAIL), (args, doc["summary"])
        assert not doc["ok"]
    clean = _run(plain, FOREST, "check")
    assert clean.returncode == 0 and clean.stdout.rstrip().endswith(": 0 not clean"), clean.stdout

"""``forest audit``, ``forest fsck`` and ``forest hooks status`` never hand a name's
control characters to the terminal (kernel/shellword.py ``printable``).

Each door prints what a store or git holds: an audit row's actor and targets (the
log's file is the clone's own to edit), a ledger segment's file name (a
collaborator's commit), a hooks folder named by ``core.hooksPath``. A name holding
an ESC sequence, CR and BEL, printed raw, clears the screen, rewrites the line or
rings. Real repositories, the CLI in process: the text holds each only escaped
(``\\x1b[2J\\x0d\\x07``); ``--json`` keeps the exact value (JSON escapes it).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import Result

from forest_files.custody import auditsql
from forest_files.custody.auditlog import AuditLog, AuditRefused, Event
from forest_files.kernel.paths import LEDGER_DIR
from forest_files.ledger.segment_files import SEGMENT_SUFFIX
from forest_files.ledger.segments import SEGMENTS_DIR
from tests.helpers import cli as in_process
from tests.helpers.custody import init_and_adopt
from tests.helpers.git import commit_all, git, make_repo, write

PLANT = "\x1b[2J\r\x07"
SHOWN = "\\x1b[2J\\x0d\\x07"


def _raw(result: Result) -> list[str]:
    """Every character a terminal would obey, in the door's stdout and stderr. Click
    strips an ANSI sequence it knows off output that is not a terminal (a door on
    one printed it), so each test also finds the escaped form."""
    text = result.stdout + result.stderr
    return [
        c for c in text if (ord(c) < 32 and c != "\n") or 127 <= ord(c) < 160 or c in "\u2028\u2029"
    ]


def test_audit_row_with_control_chars_shown_escaped_detected(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    in_process.ok(repo, "init")
    actor, target = f"Eve{PLANT} <eve@example.org>", f"notes/a{PLANT}.md"
    with AuditLog(repo) as log:
        with pytest.raises(AuditRefused):  # the log's own gate, on append
            log.append([Event("drift", "found", "check", actor=actor, targets=(target,))])
        # The file is the clone's own: a row written past that gate, by hand.
        row = (f"2026{PLANT}", actor, "drift", "found", "check", json.dumps([target]), "{}")
        log.conn.execute(auditsql.INSERT, (*row, None, None))
        log.conn.commit()
    text = in_process.forest(repo, "audit")
    assert text.exit_code == 0 and not _raw(text), (_raw(text), text.stdout)
    (line,) = [ln for ln in text.stdout.splitlines() if "Eve" in ln]
    assert line.count(SHOWN) == 3, line  # time, actor, target
    as_json = in_process.ok(repo, "audit", "--json")
    assert not _raw(as_json)  # JSON escapes them itself
    (newest, *_) = json.loads(as_json.stdout)["records"]
    assert (newest["actor"], newest["targets"]) == (actor, [target])


def test_fsck_segment_name_with_control_chars_shown_escaped_detected(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    write(repo, "a.md", "# A\n\ntext\n")
    init_and_adopt(repo, ["a.md"])
    stem = f"x{PLANT}"
    write(repo, f"{LEDGER_DIR}/{SEGMENTS_DIR}/{stem}{SEGMENT_SUFFIX}", "{}\n")
    commit_all(repo, "a collaborator's segment")
    text = in_process.forest(repo, "fsck")
    assert text.exit_code == 3 and not _raw(text), (_raw(text), text.stdout)
    assert f"ledger: x{SHOWN}: segment-name" in text.stdout.splitlines(), text.stdout
    as_json = in_process.forest(repo, "fsck", "--json")
    assert not _raw(as_json)
    faults = json.loads(as_json.stdout)["faults"]
    fault = {"code": "ledger", "where": stem, "detail": "segment-name", "fix": None}
    assert fault in faults, faults


def test_hooks_status_hooks_path_with_control_chars_shown_escaped_detected(
    tmp_path: Path,
) -> None:
    repo = make_repo(tmp_path)
    git(repo, "config", "core.hooksPath", f"hooks{PLANT}")
    for args in (("hooks", "install"), ("hooks", "status")):
        text = in_process.forest(repo, *args)
        assert text.exit_code == 0 and not _raw(text), (args, _raw(text), text.stdout)
        (line,) = [ln for ln in text.stdout.splitlines() if ln.startswith("pre-commit ")]
        assert line.endswith(f"/hooks{SHOWN}/pre-commit"), line
    as_json = in_process.ok(repo, "hooks", "status", "--json")
    assert not _raw(as_json)
    states = json.loads(as_json.stdout)
    assert states[0]["path"] == str(repo / f"hooks{PLANT}" / "pre-commit"), states[0]


def test_bidi_override_in_a_file_name_and_a_signature_never_raw_detected(tmp_path: Path) -> None:
    """A bidirectional override (U+202E) reorders what a terminal shows: a bound file
    named ``notes/a\\u202edm.txt`` reads as ``notes/atxt.md``. ``forest check`` and
    ``forest status`` print it escaped (``--json`` keeps the exact name), and an
    ``--as`` holding one is refused before any act."""
    repo = make_repo(tmp_path)
    name = "notes/a\u202edm.txt"
    write(repo, name, "# T\n\nwords\n")
    init_and_adopt(repo, [name])
    commit_all(repo, "adopt")
    write(repo, name, "# T\n\nother words\n")
    for door in ("check", "status"):
        shown = in_process.forest(repo, door)
        text = shown.stdout + shown.stderr
        assert "\u202e" not in text and "notes/a\\u202edm.txt" in text, text
    found = json.loads(in_process.forest(repo, "check", "--json").stdout)["findings"]
    assert [f["path"] for f in found] == [name]
    refused = in_process.forest(
        repo, "supersede", name, "--words", "clearer now", "--as", "Eve \u202eevE <e@x.org>"
    )
    assert refused.exit_code == 1 and "\u202e" not in refused.stderr, refused.stderr
    (line,) = refused.stderr.splitlines()
    assert line.startswith("forest: --as: holds \\u202e"), line
    assert in_process.forest(repo, "check").exit_code == 1  # still drifted: nothing recorded

"""The local audit log: every ceremony recorded here, every refusal, sync, rebuild
and purge; append-only, kept across rebuild, paged, and never holding a body."""

from __future__ import annotations

import json
import sqlite3
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

import forest_files.doors.cli  # noqa: F401  (registers every command)
from forest_files.custody import auditsql
from forest_files.custody.auditlog import MAX_PAGE, AuditLog, AuditRefused, Event, append_events
from forest_files.custody.repository import Repository
from forest_files.doors.cli import app
from tests.helpers.custody import BY, adopted_repo, propose_on_latest
from tests.helpers.forgetting import SENTINEL, WORDS, adopted_then_cleaned
from tests.helpers.git import commit_all, git, make_repo, write

runner = CliRunner()
WORDS_SENTINEL = "WORDS-SENTINEL-k2j8h4"


def raw_log(root: Path) -> bytes:
    return b"".join(p.read_bytes() for p in (root / ".forest").glob("audit.db*"))


def actions(root: Path) -> list[tuple[str, str, str]]:
    with AuditLog(root) as log:
        return [(r.action, r.outcome, r.reason) for r in reversed(log.page(limit=MAX_PAGE))]


def test_audit_sentinel_never_in_log_or_output_accepted(tmp_path: Path) -> None:
    """Every body holds the sentinel; refusals, ceremonies, forget, sync and rebuild
    are all logged, and neither the log's bytes nor any output holds it."""
    auth = '\n[authority]\n"doc.md" = ["t <t@example.org>"]\n'
    root, old = adopted_then_cleaned(tmp_path, authority=auth)
    doc = (root / "doc.md").read_text(encoding="utf-8")
    write(root, "doc.md", doc.replace("in the vault.", f"in the vault {SENTINEL}."))
    outputs = []
    for args in (
        ["supersede", "doc.md#Keys", "--words", "lovely!", "--as", BY],  # praise: refused
        ["supersede", "doc.md#Keys", "--words", WORDS, "--as", "Mallory <m@x>"],  # authority
        ["supersede", "doc.md#Keys", "--words", WORDS, "--as", BY, "--json"],
        ["forget", old, "--words", WORDS, "--as", BY, "--json"],
        ["rebuild", "--json"],
        ["audit", "--json"],
        ["audit"],
    ):
        result = runner.invoke(app, [*args, "--repo", str(root)])
        outputs.append(result.output + result.stderr)
    assert all(SENTINEL not in out for out in outputs)
    assert SENTINEL.encode() not in raw_log(root)
    logged = actions(root)
    kinds = [a for a, _, _ in logged]
    for want in ("adopt", "supersede", "erase", "purge", "rebuild", "refusal"):
        assert want in kinds, (want, logged)
    refusals = [r for a, o, r in logged if a == "refusal"]
    assert {"ceremony-refusal", "authority-refused"} <= set(refusals)
    records = json.loads(outputs[5])["records"]
    assert records[0]["seq"] > records[-1]["seq"]  # newest first
    # The doors: a hook refusal, check drift, CI in every format, the watcher's drift
    # and a selector refusal, with the sentinel in bodies, words and a proposal.
    human, machine = _drive_doors(root)
    assert all(SENTINEL not in out for out in human), "a body reached an error line"
    for out in machine:
        assert SENTINEL not in out and WORDS_SENTINEL not in out
    dumped = json.dumps([r.as_dict() for r in AuditLog(root).page(limit=MAX_PAGE)])
    assert SENTINEL not in dumped and WORDS_SENTINEL not in dumped
    for needle in (SENTINEL, WORDS_SENTINEL):
        assert needle.lower().encode() not in raw_log(root).lower()
    logged = actions(root)
    for want in (
        ("hook", "refused", "drift"),
        ("drift", "found", "check"),
        ("drift", "found", "watch"),
        ("ci", "found", "gate"),
        ("refusal", "refused", "section-not-found"),
    ):
        assert want in logged, (want, logged)


def _drive_doors(root: Path) -> tuple[list[str], list[str]]:
    """Every new door's refusal or drift path in ``root`` (see the sentinel test):
    (human output: hook stderr, text reports; machine output: JSON, SARIF, JUnit,
    GitHub annotations)."""
    from forest_files.doors import hooks as githooks
    from tests.helpers.watch import wait_verdict, watching

    doc = (root / "doc.md").read_text(encoding="utf-8")
    write(root, "doc.md", doc.replace("other words", f"other words {SENTINEL}"))
    words = f"Adopted on purpose {WORDS_SENTINEL}"
    human = [_run(root, "adopt", "doc.md#Other", "--words", words, "--as", BY)]
    commit_all(root, "adopt other")
    propose_on_latest(root, "doc.md", "doc.md#Other", f"proposed {SENTINEL}\n")
    doc = (root / "doc.md").read_text(encoding="utf-8")
    write(root, "doc.md", doc.replace(f"words {SENTINEL}", f"words changed {SENTINEL}"))
    machine = [_run(root, "check", "--json"), _run(root, "status", "--json")]
    human += [_run(root, "check"), _run(root, "adopt", "doc.md#Nope", "--words", words)]
    githooks.install(root)
    git(root, "add", "doc.md")
    hook = subprocess.run(["git", "commit", "-m", "x"], cwd=root, capture_output=True, text=True)
    assert hook.returncode == 1
    human.append(hook.stdout + hook.stderr)
    git(root, "commit", "-q", "--no-verify", "-m", "drift past the hook")
    for fmt in ("json", "sarif", "junit", "github"):
        machine.append(_run(root, "ci", "--format", fmt))
    human.append(_run(root, "ci", "--format", "text"))
    with watching(root) as w:
        write(root, "doc.md", doc.replace(f"words {SENTINEL}", f"words again {SENTINEL}"))
        wait_verdict(w, "drifted", "doc.md")
    machine.append(_run(root, "audit", "--json"))
    return human, machine


def _run(root: Path, *args: str) -> str:
    result = runner.invoke(app, [*args, "--repo", str(root)])
    return result.output + result.stderr


def test_audit_append_only_raw_update_and_delete_refused(tmp_path: Path) -> None:
    root, _old = adopted_then_cleaned(tmp_path)
    with AuditLog(root) as log:
        assert log.page()
        for statement in ("UPDATE audit SET actor = 'x'", "DELETE FROM audit"):
            with pytest.raises(sqlite3.DatabaseError, match="append-only"):
                log.conn.execute(statement)


def test_audit_kept_across_rebuild_accepted(tmp_path: Path) -> None:
    root, _old = adopted_then_cleaned(tmp_path)
    before = actions(root)
    with Repository(root) as repo:
        repo.rebuild()
    assert actions(root)[: len(before)] == before
    assert actions(root)[-1] == ("rebuild", "ok", "replayed")


def test_audit_ceremony_logged_once_accepted(tmp_path: Path) -> None:
    root = make_repo(tmp_path)
    Repository.init(root, project_id="p").close()
    event = Event("adopt", "ok", "recorded", BY, ("a" * 64,), act_id="a" * 64)
    assert append_events(root, [event]) and append_events(root, [event])
    assert actions(root) == [("adopt", "ok", "recorded")]


def test_audit_sync_names_pulled_acts_accepted(tmp_path: Path) -> None:
    root, _old = adopted_then_cleaned(tmp_path)
    commit_all(root, "all")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(root), str(clone))
    with Repository(clone) as repo:
        repo.sync()
    with AuditLog(clone) as log:
        (first,) = [r for r in log.page() if r.action in ("sync", "rebuild")][-1:]
        assert first.counts["acts"] == 2


@pytest.mark.parametrize(
    ("limit", "ok"), [(1, True), (MAX_PAGE, True), (MAX_PAGE + 1, False), (0, False)]
)
def test_audit_page_limit_bounds(tmp_path: Path, limit: int, ok: bool) -> None:
    root, _old = adopted_then_cleaned(tmp_path)
    with AuditLog(root) as log:
        if ok:
            assert len(log.page(limit=limit)) <= limit
        else:
            with pytest.raises(AuditRefused):
                log.page(limit=limit)


def test_audit_pages_by_before_accepted(tmp_path: Path) -> None:
    root, _old = adopted_then_cleaned(tmp_path)
    with AuditLog(root) as log:
        everything = [r.seq for r in log.page(limit=MAX_PAGE)]
        first = log.page(limit=1)
        rest = log.page(limit=MAX_PAGE, before=first[0].seq)
    assert [first[0].seq, *(r.seq for r in rest)] == everything
    result = runner.invoke(app, ["audit", "--limit", "1", "--repo", str(root)])
    assert f"--before {everything[0]}" in result.output
    bad = runner.invoke(app, ["audit", "--before", "0", "--repo", str(root)])
    assert bad.exit_code == 1


def test_audit_first_row_padded_as_the_rest_accepted(tmp_path: Path) -> None:
    root, _old = adopted_then_cleaned(tmp_path)
    result = runner.invoke(app, ["audit", "--repo", str(root)])
    assert result.exit_code == 0, result.output
    rows = result.output.splitlines()
    assert len(rows) >= 2
    # Every row's time starts in the same column: the seq is right-aligned in six.
    assert {row.index(" 20") for row in rows} == {6}, rows


@pytest.mark.parametrize(
    "event",
    [
        Event("gossip", "ok", "x"),
        Event("sync", "maybe", "x"),
        Event("sync", "ok", "Free text from a caller"),
        Event("sync", "ok", "x", targets=("a" * 4097,)),
    ],
)
def test_audit_event_outside_vocabulary_refused(tmp_path: Path, event: Event) -> None:
    root = make_repo(tmp_path)
    Repository.init(root, project_id="p").close()
    with AuditLog(root) as log, pytest.raises(AuditRefused):
        log.append([event])
    assert append_events(root, [event]) is False


def test_audit_check_lists_match_vocabulary_accepted(tmp_path: Path) -> None:
    root = make_repo(tmp_path)
    Repository.init(root, project_id="p").close()
    with AuditLog(root) as log:
        schema = log.conn.execute("SELECT sql FROM sqlite_master WHERE name = 'audit'").fetchone()[
            0
        ]
        for word in (*auditsql.ACTIONS, *auditsql.OUTCOMES):
            assert f"'{word}'" in schema
        with pytest.raises(sqlite3.IntegrityError):
            log.conn.execute(
                "INSERT INTO audit (at, actor, action, outcome, reason, targets, counts) "
                "VALUES ('t', 'a', 'gossip', 'ok', 'x', '[]', '{}')"
            )


def test_audit_log_never_committed_accepted(tmp_path: Path) -> None:
    root, _old = adopted_then_cleaned(tmp_path)
    commit_all(root, "all")
    assert "audit.db" not in git(root, "ls-files")


# What kernel/shellword.py calls unprintable: C0, DEL, C1 (NEL, CSI), the line and
# paragraph separators, a byte that is not UTF-8 (a surrogate).
UNPRINTABLE = ["\x01", "\x7f", "\x85", "\x9b", "\u2028", "\u2029", "\udce9"]


@pytest.mark.parametrize("bad", UNPRINTABLE)
def test_audit_actor_unprintable_refused(tmp_path: Path, bad: str) -> None:
    """An actor holding any character ``printable`` would escape is refused on write,
    in one line naming it escaped and the fix; the batch it came in leaves nothing.
    A character that is only unusual (a no-break space, U+0100) is a name's own."""
    root = make_repo(tmp_path)
    Repository.init(root, project_id="p").close()
    good = Event("sync", "ok", "x", actor="Ada\xa0L\u0100 <a@example.org>")
    before = actions(root)
    with AuditLog(root) as log, pytest.raises(AuditRefused) as refused:
        log.append([good, Event("sync", "ok", "y", actor=f"Eve{bad} <e@example.org>")])
    said = str(refused.value)
    assert said.startswith("audit actor: holds \\") and "sign with a name" in said
    assert said.isprintable() and bad not in said
    assert actions(root) == before  # nothing of the batch
    assert append_events(root, [good]) is True
    with AuditLog(root) as log:
        assert log.page(limit=1)[0].actor == good.actor


def test_audit_target_unprintable_escaped_accepted(tmp_path: Path) -> None:
    """A path is the user's name for a file and may hold a C1 control or U+2028: a
    ceremony on such a file keeps its record, the path escaped as ``printable``
    shows it; so does a target holding C0, DEL or a byte that is not UTF-8. Nothing
    unprintable reaches the log's bytes."""
    name = "n\x85o\u2028.md"
    root = adopted_repo(tmp_path, name, "# T\n\nwords\n")
    with AuditLog(root) as log:
        (adopt,) = [r for r in log.page(limit=MAX_PAGE) if r.action == "adopt"]
    assert "n\\x85o\\u2028.md" in adopt.targets, adopt.targets
    odd = ("a\x01\x7f.md", "b\udce9.md", "c\nd")
    assert append_events(root, [Event("sync", "ok", "x", targets=odd)]) is True
    with AuditLog(root) as log:
        kept = log.page(limit=1)[0].targets
    assert kept == ("a\\x01\\x7f.md", "b\\xe9.md", "c\\x0ad")
    logged = raw_log(root)
    for raw in ("\x85", "\u2028"):
        assert raw.encode() not in logged
    shown = runner.invoke(app, ["audit", "--repo", str(root)])
    assert shown.exit_code == 0 and "n\\x85o\\u2028.md" in shown.output


def test_audit_signature_unprintable_refused_at_door(tmp_path: Path) -> None:
    """``--as`` holding a C1 control or U+2028 is refused before any act (the audit
    log would refuse its actor): one ``forest:`` line with the fix; nothing recorded."""
    root = adopted_repo(tmp_path, "doc.md", "# T\n\nwords\n")
    write(root, "doc.md", "# T\n\nnew words\n")
    before = actions(root)
    for bad in ("\x85", "\u2028"):
        args = ["supersede", "doc.md", "--words", "clearer", "--as", f"Eve{bad} <e@x.org>"]
        result = runner.invoke(app, [*args, "--repo", str(root)])
        assert result.exit_code == 1, result.output
        (line,) = result.stderr.splitlines()
        assert line.startswith("forest: --as: holds \\") and "printable" in line, line
    assert [a for a in actions(root) if a[0] != "refusal"] == [
        a for a in before if a[0] != "refusal"
    ]

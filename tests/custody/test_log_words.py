"""``forest log`` shows each act's words as the ledger recorded them: an index whose
record row was deleted, given another content id, or given other words behind the
triggers showed them empty (or forged), with no word that anything was wrong. The
words are read from the index only where the row holds the body the act declares
(its body hash); else from the ledger's body file, and one line says the index is
damaged, naming ``forest fsck`` and ``forest rebuild``. ``forest log`` repairs no
record row itself: the index is left as it was, unless the index proof it runs (as
every door) finds a binding or ground the damage reached, and rebuilds it."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from forest_files.custody.repository import Repository
from forest_files.governance.forget import forget
from forest_files.ledger.segments import body_path
from tests.helpers.cli import forest
from tests.helpers.custody import BY
from tests.helpers.forgetting import cleaned_and_synced
from tests.helpers.state import behind_the_triggers, forge_erasure, local_state

REBUILT_UNREACHED = "its ground is live in the ledger, unreached here); rebuilt it from the ledger"
FORGED = hashlib.sha256(b"another id").hexdigest()
DAMAGED = (
    "forest: the index lost or changed the words of 1 act (its record row); "
    "shown from the ledger; `forest fsck` names the damage, `forest rebuild` repairs it"
)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """An adoption (words "ok") superseded (words "amend"), then synced."""
    return cleaned_and_synced(tmp_path)


def _record_id(root: Path, words: str) -> int:
    with closing(sqlite3.connect(local_state(root) / "woods.db")) as conn:
        (found,) = conn.execute(
            "SELECT id FROM entries WHERE bucket = 'adoption_record' AND body = ?", (words,)
        ).fetchall()
    return int(found[0])


def _entries(root: Path) -> list[tuple[object, ...]]:
    with closing(sqlite3.connect(local_state(root) / "woods.db")) as conn:
        return conn.execute("SELECT * FROM entries ORDER BY id").fetchall()


def _words(root: Path) -> tuple[dict[str, str], str, str]:
    """(kind -> words) of ``forest log --json``, its text, and what both said on stderr."""
    done = forest(root, "log", "--json")
    assert done.exit_code == 0, done.stderr
    words = {a["kind"]: a["words"] for a in json.loads(done.stdout)["acts"]}
    text = forest(root, "log")
    assert text.exit_code == 0, text.stderr
    return words, text.stdout, done.stderr + text.stderr


FORGERIES = {
    "content id changed": "UPDATE entries SET content_id = '" + FORGED + "' WHERE id = ?",
    "words changed": "UPDATE entries SET body = 'forged words' WHERE id = ?",
    "row deleted": "DELETE FROM entries WHERE id = ?",
}


def test_log_words_of_a_whole_index_accepted(root: Path) -> None:
    words, text, err = _words(root)
    assert words == {"adopt": "ok", "supersede": "amend"}
    assert ": “ok”" in text and ": “amend”" in text and err == ""


@pytest.mark.parametrize("how", sorted(FORGERIES))
@pytest.mark.parametrize("said", ["ok", "amend"])
def test_log_record_row_damaged_words_from_ledger_detected(root: Path, how: str, said: str) -> None:
    entry_id = _record_id(root, said)
    if how == "row deleted":
        behind_the_triggers(
            root, "DELETE FROM edges WHERE from_id = ? OR to_id = ?", *[entry_id] * 2
        )
    behind_the_triggers(root, FORGERIES[how], entry_id)
    index = _entries(root)
    words, text, err = _words(root)
    assert words == {"adopt": "ok", "supersede": "amend"}
    assert ": “ok”" in text and ": “amend”" in text and "forged" not in text
    if (how, said) == ("row deleted", "amend"):
        # The ground's record deleted with its edges leaves the ground unreached: the
        # index proof plain `forest log` runs too (as every door) rebuilds the index at
        # the first command, and the second reads a whole one.
        (line,) = err.splitlines()
        assert line.endswith(REBUILT_UNREACHED) and _entries(root) != index
    else:
        assert err.splitlines() == [DAMAGED, DAMAGED]  # once per command, one line
        assert _entries(root) == index  # a record row alone: the damage stays for fsck
    with Repository(root) as repo:
        repo.rebuild()
    assert _words(root) == ({"adopt": "ok", "supersede": "amend"}, text, "")


def test_log_words_a_forget_erased_accepted(root: Path) -> None:
    """Words forgotten (their record erased) read ``[erased]`` as before: the row's body
    is the mark and the ledger's body file is gone; nothing is said to be damaged."""
    with Repository(root) as repo:
        (record,) = repo.synced().conn.execute(
            "SELECT content_id FROM entries WHERE bucket = 'adoption_record' AND body = 'amend'"
        )
        forget(repo, str(record[0]), words="pasted by mistake", by=BY)
    words, text, err = _words(root)
    assert words == {"adopt": "ok", "supersede": "[erased]", "erase": ""}
    assert err == "" and "amend" not in text


def test_log_erasure_no_erase_act_made_detected(root: Path) -> None:
    """A record row made ``[erased]`` with an erasure row, and its body file gone (as an
    older sync deleted it, or by hand): ``forest log`` took it for a forget and said
    ``[erased]``, nothing damaged. No erase act of the ledger names the body: the
    words are empty and the damaged-index line is said."""
    entry_id = _record_id(root, "ok")
    body_path(root / ".forest" / "ledger", forge_erasure(root, f"id = {entry_id}")).unlink()
    words, text, err = _words(root)
    assert words == {"adopt": "", "supersede": "amend"}
    assert "[erased]" not in text and err.splitlines() == [DAMAGED, DAMAGED]


@pytest.mark.parametrize("how", sorted(FORGERIES))
@pytest.mark.parametrize("said", ["ok", "amend"])
def test_log_chain_record_row_damaged_words_from_ledger_detected(
    root: Path, how: str, said: str
) -> None:
    """``forest log TARGET`` said the words were shown from the ledger, and its chain
    showed the index's (forged, or none): each ground's words are its act's."""
    entry_id = _record_id(root, said)
    if how == "row deleted":
        sql = "DELETE FROM edges WHERE from_id = ? OR to_id = ?"
        behind_the_triggers(root, sql, *[entry_id] * 2)
    behind_the_triggers(root, FORGERIES[how], entry_id)
    done = forest(root, "log", "doc.md#Keys", "--json")
    # The ground's record deleted with its edges leaves the ground unreached: the index
    # proof every door runs sees that, and the index is rebuilt (tests/doors/test_log_proven.py)
    said_damaged = DAMAGED if (how, said) != ("row deleted", "amend") else REBUILT_UNREACHED
    assert done.exit_code == 0 and said_damaged in done.stderr
    assert len(done.stderr.splitlines()) == 1
    assert [x["words"] for x in json.loads(done.stdout)["chain"]] == ["ok", "amend"]
    text = forest(root, "log", "doc.md#Keys").stdout
    assert [x.rsplit(": ", 1)[1] for x in text.splitlines()[1:]] == ["ok", "amend"]

"""Hostile: an erase act whose tombstone fingerprints lines its erased body does not hold.

Bob holds ``notes/**`` only. He hand-writes an erase of his own superseded note and
adds the fingerprint of a line of Ada's ground (or of a token he never held), which
would block that text on every path. ``forest ci --base`` and ``forest verify --base``
recompute the tombstone from the erased body as it stood before the erase and report
the extra fingerprints as an ``authority`` finding; an honest ``forest forget`` in a
range (lines kept out for live ground, or chosen with ``--line``) stays clean.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forest_files.custody.repository import Repository
from forest_files.custody.tombstone import line_fingerprints, tokens_for, tombstone_for
from forest_files.custody.tombtokens import fingerprint as token_fingerprint
from forest_files.kernel.hashing import hash_body
from forest_files.ledger import make_act, read_ledger, write_segment
from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.ledger import delete_body
from tests.helpers.template import reused

PROJECT = "p-forged"
ADA = "Ada Lovelace <ada@example.org>"
BOB = "Bob <bob@example.org>"
VICTIM = "The lighthouse was built in 1871."
SHARED = "This line stays in both versions of the note."
V1 = f"# Note\n\nBob's first version of the note, long enough.\n{SHARED}\n"
V2 = f"# Note\n\nBob's second version, the one that stays.\n{SHARED}\n"
DETAIL = "carries tombstone lines its erased body does not hold"


def _build(tmp_path: Path) -> Path:
    root = make_repo(tmp_path)
    Repository.init(root, project_id=PROJECT).close()
    write(
        root,
        "forest.toml",
        f'[project]\nid = "{PROJECT}"\n\n[authority]\n"**" = ["{ADA}"]\n"notes/**" = ["{BOB}"]\n',
    )
    write(root, "docs/a.md", f"# Title\n\n## Keep\n\n{VICTIM}\n")
    ok(root, "adopt", "docs/a.md#Keep", "--words", "Ada keeps this section", "--as", ADA)
    write(root, "notes/x.md", V1)
    ok(root, "adopt", "notes/x.md", "--words", "Bob adopts his note", "--as", BOB)
    commit_all(root, "base")
    git(root, "checkout", "-q", "-b", "feature")
    return root


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """main: Ada's ``docs/a.md#Keep`` and Bob's ``notes/x.md`` (v1); HEAD on ``feature``."""
    return reused((__name__, "repo"), tmp_path / "repo", _build)


def _supersede_note(root: Path, path: str = "notes/x.md", text: str = V2) -> None:
    write(root, path, text)
    ok(root, "supersede", path, "--words", "Bob revises his note", "--as", BOB)


def _forged_erase(root: Path, body: str, *, lines: set[str], tokens: set[str] | None = None) -> str:
    """A hand-written erase of ``body`` carrying ``lines`` and ``tokens`` (as the audit's
    reproduction writes it), its body file deleted; returns the act id."""
    ledger = root / ".forest" / "ledger"
    body_hash = hash_body(body)
    fields: dict[str, object] = {
        "body_hash": body_hash,
        "by": BOB,
        "reason": "Bob forgets his old note",
        "at": "2026-12-03T10:00:00.000000Z",
        "lines": sorted(lines),
    }
    if tokens:
        fields["tokens"] = sorted(tokens)
    erase = make_act("erase", sorted(read_ledger(ledger).acts), fields, scope=PROJECT)
    write_segment(ledger, [erase], {})
    delete_body(ledger, body_hash)
    return erase.id


def _ci(root: Path) -> tuple[int, list[dict[str, object]]]:
    result = forest(root, "ci", "--base", "main", "--format", "json")
    return result.exit_code, json.loads(result.stdout)["findings"]


def _forged(findings: list[dict[str, object]]) -> list[dict[str, object]]:
    return [f for f in findings if f["kind"] == "authority" and DETAIL in str(f["detail"])]


def test_erase_lines_forged_victim_line_detected(repo: Path) -> None:
    """A fingerprint of Ada's line in Bob's erase: ci exits 1 naming the erase act."""
    _supersede_note(repo)
    lines = set(tombstone_for(PROJECT, V1)) | line_fingerprints(PROJECT, VICTIM)
    act_id = _forged_erase(repo, V1, lines=lines)
    commit_all(repo, "bob forgets his v1 note")
    code, findings = _ci(repo)
    assert code == 1, findings
    (found,) = _forged(findings)
    assert f"erase act {act_id[:12]} {DETAIL}" in str(found["detail"])
    assert VICTIM not in json.dumps(findings)  # a finding never echoes a line


def test_erase_lines_forged_verify_base_detected(repo: Path) -> None:
    """``forest verify --base`` judges the same range the same way."""
    _supersede_note(repo)
    lines = set(tombstone_for(PROJECT, V1)) | line_fingerprints(PROJECT, "Copyright 2027 Corp.")
    act_id = _forged_erase(repo, V1, lines=lines)
    commit_all(repo, "bob forgets his v1 note")
    result = forest(repo, "verify", "--base", "main")
    assert result.exit_code == 1, (result.stdout, result.stderr)
    assert f"erase act {act_id[:12]} {DETAIL}" in result.stdout + result.stderr


def test_erase_tokens_forged_detected(repo: Path) -> None:
    """A token fingerprint no token of the body yields is refused like a line."""
    _supersede_note(repo)
    foreign = token_fingerprint(PROJECT, "AKIAQ7W3E9R1T5Y2U8I4")
    tokens = set(tokens_for(PROJECT, V1)) | {foreign}
    _forged_erase(repo, V1, lines=set(tombstone_for(PROJECT, V1)), tokens=tokens)
    commit_all(repo, "bob forgets his v1 note")
    code, findings = _ci(repo)
    assert code == 1, findings
    assert len(_forged(findings)) == 1, findings


def test_erase_lines_forged_body_adopted_in_range_detected(repo: Path) -> None:
    """A body adopted inside the range (absent at the merge-base) is read where a
    commit of the range still holds it."""
    first = "A note Bob adopts on his branch only.\n"
    write(repo, "notes/y.md", first)
    ok(repo, "adopt", "notes/y.md", "--words", "Bob adopts a branch note", "--as", BOB)
    commit_all(repo, "bob's branch note")
    _supersede_note(repo, "notes/y.md", "The branch note, rewritten by Bob.\n")
    lines = set(tombstone_for(PROJECT, first)) | line_fingerprints(PROJECT, VICTIM)
    _forged_erase(repo, first, lines=lines)
    commit_all(repo, "bob forgets his branch note")
    code, findings = _ci(repo)
    assert code == 1, findings
    assert len(_forged(findings)) == 1, findings


def test_erase_honest_forget_in_range_accepted(repo: Path) -> None:
    """``forest forget`` keeps the shared line out (live ground holds it): fewer
    fingerprints than the body yields are no fault."""
    old = _old_id(repo)
    _supersede_note(repo)
    ok(repo, "forget", old, "--words", "Bob forgets", "--as", BOB)
    commit_all(repo, "bob forgets his v1 note")
    code, findings = _ci(repo)
    assert code == 0, findings
    assert _forged(findings) == []


def test_erase_honest_forget_chosen_line_accepted(repo: Path) -> None:
    """``forest forget --line``: one chosen line of the body is no fault either."""
    old = _old_id(repo)
    _supersede_note(repo)
    chosen = "Bob's first version of the note, long enough."
    ok(repo, "forget", old, "--words", "Bob forgets", "--as", BOB, "--line", chosen)
    commit_all(repo, "bob forgets one line of his v1 note")
    code, findings = _ci(repo)
    assert code == 0, findings


def _old_id(root: Path) -> str:
    """The content id of Bob's v1 note, while it is still ground."""
    with Repository(root) as r:
        return next(g.content_id for g in r.ground() if g.body_hash == hash_body(V1))

"""docs/ledger-format.md: its test vectors rebuild to the ground it states, and it
documents every kind, field and bound the reader enforces."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from forest_files.custody.config import CONFIG_NAME, new_config, render_config
from forest_files.custody.repository import LEDGER_DIR, Repository
from forest_files.kernel.hashing import entry_content_id, hash_body
from forest_files.ledger import LedgerError, kinds, read_ledger, verify_ledger
from forest_files.ledger.acts import MAX_DEPS, MAX_SCOPE
from forest_files.ledger.versions import FORMAT3_FIELDS
from forest_files.store.anchor import ANCHOR_CREATED_AT, ANCHOR_SIGNATURE, anchor_body
from tests.helpers.acts import PAYLOAD_TYPES, VECTOR_PROJECT
from tests.helpers.git import make_repo

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "ledger-format.md"
VECTORS = Path(__file__).resolve().parents[1] / "data" / "ledger-vectors"


def _expected() -> dict[str, Any]:
    return json.loads((VECTORS / "expected.json").read_text(encoding="utf-8"))


def _sections() -> dict[str, str]:
    """Text of each ``### `name` `` section of the doc, by name."""
    text = DOC.read_text(encoding="utf-8")
    parts = re.split(r"^### `([^`]+)`[^\n]*\n", text, flags=re.MULTILINE)
    return {
        name: re.split(r"^## ", body, flags=re.MULTILINE)[0]
        for name, body in zip(parts[1::2], parts[2::2], strict=True)
    }


def _table_fields(section: str) -> set[str]:
    """Backticked names in the first column of the section's table rows."""
    return set(re.findall(r"^\| `([a-z_]+)`", section, flags=re.MULTILINE))


# --- the vectors ---------------------------------------------------------------------


def test_vectors_copied_into_fresh_repository_rebuilt(tmp_path: Path) -> None:
    root = make_repo(tmp_path)
    (root / CONFIG_NAME).write_text(render_config(new_config(VECTOR_PROJECT)), encoding="utf-8")
    for sub in ("segments", "bodies"):
        shutil.copytree(VECTORS / sub, root / LEDGER_DIR / sub)
    expected = _expected()
    with Repository(root) as repo:
        assert repo.config.project_id == expected["project_id"]
        report = repo.rebuild()
        assert (report.applied, report.rebuilt) == (len(expected["acts"]), True)
        assert [vars(g) for g in repo.ground()] == expected["ground"]
        assert repo.contested() == []
        assert [e.act_id for e in repo.log()] == [a["id"] for a in expected["acts"]]


def test_vectors_in_another_project_refused(tmp_path: Path) -> None:
    """The acts' scope is the project id: under another forest.toml they never apply."""
    root = make_repo(tmp_path)
    (root / CONFIG_NAME).write_text(render_config(new_config("another")), encoding="utf-8")
    shutil.copytree(VECTORS / "segments", root / LEDGER_DIR / "segments")
    shutil.copytree(VECTORS / "bodies", root / LEDGER_DIR / "bodies")
    with Repository(root) as repo, pytest.raises(LedgerError, match="belongs to project"):
        repo.rebuild()


def test_vectors_files_verified_accepted(tmp_path: Path) -> None:
    ledger = tmp_path / "ledger"  # the ledger files alone (expected.json is no ledger file)
    for part in ("segments", "bodies"):
        shutil.copytree(VECTORS / part, ledger / part)
    report = verify_ledger(ledger)
    assert report.ok, report.faults
    for path in (VECTORS / "segments").iterdir():
        assert path.name == hashlib.sha256(path.read_bytes()).hexdigest() + ".jsonl"
    for path in (VECTORS / "bodies").rglob("*.txt"):
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        assert path.relative_to(VECTORS / "bodies").as_posix() == f"{digest[:2]}/{digest}.txt"


def test_vectors_acts_in_stated_order_accepted() -> None:
    acts = read_ledger(VECTORS).ordered()
    stated = [{"id": a.id, "kind": a.kind, "deps": list(a.deps)} for a in acts]
    assert stated == _expected()["acts"]
    assert {a.scope for a in acts} == {VECTOR_PROJECT}
    assert [a.kind for a in acts] == ["adopt", "supersede"]
    assert acts[1].payload.old == _expected()["superseded"]


def test_vectors_content_ids_recomputed_accepted() -> None:
    """The content-id and anchor rules of the doc give the ids in the vectors."""
    anchor = entry_content_id(
        scope="default",
        created_at=ANCHOR_CREATED_AT,
        jurisdiction="home",
        bucket="anchor",
        source=None,
        signature=ANCHOR_SIGNATURE,
        body_hash=hash_body(anchor_body(VECTOR_PROJECT)),
        meta={"project_id": VECTOR_PROJECT},
        nonce="",
        origins=(),
    )
    doc = DOC.read_text(encoding="utf-8")
    assert ANCHOR_CREATED_AT in doc and ANCHOR_SIGNATURE in doc
    assert anchor_body("<id>") in doc
    adopt, supersede = read_ledger(VECTORS).ordered()
    assert adopt.payload.entry.origins == ((anchor, "derived_from"),)
    for act in (adopt, supersede):
        for record in (act.payload.entry, act.payload.record):
            fields = record.to_fields()
            claimed = fields.pop("content_id")
            assert entry_content_id(**fields) == claimed
            body = (
                VECTORS / "bodies" / record.body_hash[:2] / f"{record.body_hash}.txt"
            ).read_bytes()
            assert hashlib.sha256(body).hexdigest() == record.body_hash
    assert supersede.payload.entry.content_id == _expected()["ground"][0]["content_id"]


# --- the doc ---------------------------------------------------------------------------


def test_doc_every_kind_has_a_section_accepted() -> None:
    sections = _sections()
    missing = sorted(k for k in kinds.KINDS if k not in sections)
    assert missing == [], f"docs/ledger-format.md lacks a section for {missing}"


@pytest.mark.parametrize("kind", sorted(kinds.KINDS))
def test_doc_kind_table_lists_its_fields_accepted(kind: str) -> None:
    payload = PAYLOAD_TYPES[kind]
    optional = set(getattr(payload, "OPTIONAL", ()))  # format 2's optional fields
    optional |= FORMAT3_FIELDS.get(kind, frozenset())  # and format 3's
    assert _table_fields(_sections()[kind]) == set(payload.KEYS) | optional


def test_doc_shared_object_tables_list_their_fields_accepted() -> None:
    text = DOC.read_text(encoding="utf-8")
    entry = text.split("### Entry record", 1)[1].split("###", 1)[0]
    binding = text.split("### Binding", 1)[1].split("##", 1)[0]
    assert _table_fields(entry) == set(kinds.EntryRecord.KEYS)
    assert _table_fields(binding) == set(kinds.BindSpec.KEYS) | FORMAT3_FIELDS["adopt.binding"]
    envelope = text.split("## The envelope", 1)[1].split("##", 1)[0]
    assert _table_fields(envelope) == {"v", "kind", "deps", "scope", "id"}


def test_doc_bounds_match_the_reader_accepted() -> None:
    text = DOC.read_text(encoding="utf-8")
    bounds = {
        "MAX_TEXT": kinds.MAX_TEXT,
        "MAX_EXCLUDES": kinds.MAX_EXCLUDES,
        "MAX_HEADS": kinds.MAX_HEADS,
        "MAX_META_CHARS": kinds.MAX_META_CHARS,
        "MAX_SCOPE": MAX_SCOPE,
        "MAX_DEPS": MAX_DEPS,
    }
    for name, value in bounds.items():
        assert re.search(rf"^\| `{name}`\s*\| {value}\s*\|", text, flags=re.MULTILINE), name


def test_doc_states_fail_closed_and_format_1_refused_accepted() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert "`unknown-field`" in text and "never skipped" in text
    assert "format 1" in text and "`bad-version`" in text
    assert "No hash in the ledger is evidence about a file" in text


def test_doc_erase_lines_vector_decoded_accepted() -> None:
    """The erase vector decodes byte for byte, its fingerprint is the documented
    salted hash, and the same act without ``lines`` keeps its old id."""
    from forest_files.custody.tombstone import fingerprint
    from forest_files.ledger.acts import decode_line, encode_act, make_act

    section = _sections()["erase"]
    (line,) = re.findall(r'^\{"at".*"kind":"erase".*$', section, flags=re.MULTILINE)
    act = decode_line(line.encode(), segment="doc", lineno=1)
    assert encode_act(act) == line
    assert act.payload.lines == (
        fingerprint(VECTOR_PROJECT, "deploy token = example-not-a-secret"),
    )
    fields = act.payload.to_fields()
    del fields["lines"]
    old = make_act("erase", act.deps, fields, scope=act.scope)
    assert "lines" not in encode_act(old) and old.id in section

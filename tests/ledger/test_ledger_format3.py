"""Ledger format 3 (one documented bump): its vectors rebuild, only an erase carrying
``tokens`` is written as format 3, a format-2 act carrying a format-3 field is refused,
and every format-2 act (the format-2 vectors) keeps its bytes and ids."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from forest_files.custody import tombstone, tombtokens
from forest_files.custody.config import CONFIG_NAME, new_config, render_config
from forest_files.custody.repository import LEDGER_DIR, Repository
from forest_files.kernel.errors import ForestError
from forest_files.kernel.hashing import hash_body
from forest_files.ledger import LedgerError, read_ledger
from forest_files.ledger.acts import build_act, decode_line, encode_act, make_act
from forest_files.ledger.versions import FORMAT3_FIELDS, version_for
from tests.helpers.acts import VECTOR_PROJECT, envelope, hexid, raw_line, sample_payload
from tests.helpers.git import make_repo
from tests.helpers.vectors3 import VECTOR3_FIRST, VECTOR3_LINE, VECTOR3_TOKEN

DATA = Path(__file__).resolve().parents[1] / "data"
VECTORS3 = DATA / "ledger-vectors-3"
VECTORS2 = DATA / "ledger-vectors"
DOC = Path(__file__).resolve().parents[2] / "docs" / "ledger-format.md"


def _expected() -> dict[str, Any]:
    return json.loads((VECTORS3 / "expected.json").read_text(encoding="utf-8"))


def _fresh(tmp_path: Path, vectors: Path) -> Path:
    root = make_repo(tmp_path)
    (root / CONFIG_NAME).write_text(render_config(new_config(VECTOR_PROJECT)), encoding="utf-8")
    for sub in ("segments", "bodies"):
        shutil.copytree(vectors / sub, root / LEDGER_DIR / sub)
    return root


def test_vectors3_copied_into_fresh_repository_rebuilt(tmp_path: Path) -> None:
    root = _fresh(tmp_path, VECTORS3)
    expected = _expected()
    with Repository(root) as repo:
        report = repo.rebuild()
        assert report.applied == len(expected["acts"])
        assert [vars(g) for g in repo.ground()] == expected["ground"]
        rows = dict(repo.store().conn.execute("SELECT * FROM tombstone_lines").fetchall())
    assert set(expected["tombstone"]["tokens"]) <= set(rows)
    erased = expected["erased"]["body_hash"]
    assert not (root / LEDGER_DIR / "bodies" / erased[:2] / f"{erased}.txt").exists()


def test_vectors3_acts_and_fingerprints_recomputed_accepted() -> None:
    """Each act's version, the documented line and token fingerprints, byte-exact lines."""
    acts = read_ledger(VECTORS3).ordered()
    expected = _expected()
    stated = [{"id": a.id, "kind": a.kind, "v": a.version, "deps": list(a.deps)} for a in acts]
    assert stated == expected["acts"]
    (erase,) = [a for a in acts if a.kind == "erase"]
    tomb = expected["tombstone"]
    assert tombstone.fingerprint(VECTOR_PROJECT, VECTOR3_LINE) in erase.payload.lines
    assert erase.payload.tokens == (tombtokens.fingerprint(VECTOR_PROJECT, VECTOR3_TOKEN),)
    assert list(erase.payload.tokens) == tomb["tokens"] and tomb["token"] == VECTOR3_TOKEN
    assert expected["erased"]["body_hash"] == hash_body(VECTOR3_FIRST)
    for act in acts:  # a writer re-encodes every act to the very same line
        rebuilt = build_act(act.payload, act.deps, scope=act.scope)
        assert (rebuilt.id, rebuilt.version) == (act.id, act.version)


def test_vectors3_token_returns_in_words_refused(tmp_path: Path) -> None:
    """A reader of format 3 keeps the tokens: the token in new words is refused."""
    root = _fresh(tmp_path, VECTORS3)
    with Repository(root) as repo, pytest.raises(ForestError, match="token match"):
        repo.adopt_text("Some new text.", words=f"was {VECTOR3_TOKEN}", by="A <a@example.org>")


def test_format2_vectors_unchanged_accepted() -> None:
    """Every format-2 act is written exactly as before: same version, line and id."""
    for act in read_ledger(VECTORS2).ordered():
        assert act.version == 2
        assert encode_act(build_act(act.payload, act.deps, scope=act.scope)) == encode_act(act)


def test_writer_version_only_when_needed_accepted() -> None:
    payload = sample_payload("erase")
    assert version_for("erase", payload.to_fields()) == 2
    fields = {**payload.to_fields(), "tokens": [hexid("t")]}
    assert version_for("erase", fields) == 3
    assert make_act("erase", [], fields, scope="p").version == 3
    assert make_act("erase", [], payload.to_fields(), scope="p").version == 2
    assert set(FORMAT3_FIELDS) == {"erase", "adopt.binding", "rebind"}  # listed once


def test_format2_act_with_format3_field_refused() -> None:
    """``tokens`` in a "v":2 act is refused (never read as format 2, never skipped)."""
    fields = {**sample_payload("erase").to_fields(), "tokens": [hexid("t")]}
    line = raw_line(envelope("erase", v=2, **fields))
    with pytest.raises(LedgerError, match="only in ledger format 3") as info:
        decode_line(line, segment="s", lineno=1)
    assert info.value.code == "malformed"


def test_format3_unknown_field_still_refused() -> None:
    fields = {**sample_payload("erase").to_fields(), "tokens": [hexid("t")], "novel": 1}
    line = raw_line(envelope("erase", v=3, **fields))
    with pytest.raises(LedgerError) as info:
        decode_line(line, segment="s", lineno=1)
    assert info.value.code == "unknown-field"


def test_format3_tokens_unsorted_refused() -> None:
    fields = {**sample_payload("erase").to_fields(), "tokens": sorted([hexid(1), hexid(2)])[::-1]}
    with pytest.raises(LedgerError, match="distinct 64-hex fingerprints, sorted"):
        decode_line(raw_line(envelope("erase", v=3, **fields)), segment="s", lineno=1)


def test_doc_documents_format_3_accepted() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert "## Format 3" in text and "`tokens`" in text and "ledger-vectors-3" in text
    (line,) = [ln for ln in text.splitlines() if ln.startswith('{"at"') and '"v":3' in ln]
    act = decode_line(line.encode(), segment="doc", lineno=1)
    assert act.version == 3 and encode_act(act) == line

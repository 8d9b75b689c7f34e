"""check_file_drift: Forest's whole-file check with its §19.3 weak spots fixed."""

from __future__ import annotations

from pathlib import Path

import pytest

from forest_files import ForestError, ForestStore, check_file_drift, hash_body, root_to_ground

BODY = "Elias is her brother.\nHe left in winter."


def _rooted(store: ForestStore, body: str = BODY) -> tuple[int, int]:
    pair = store.write_pair("seed", scroll_ptr={"path": "s", "offset": 0})
    entry = store.write(
        body=body, bucket="note", signature="jo", origins=[(pair, "derived_from")], scrub=None
    )
    root_to_ground(
        store,
        entry_id=entry,
        adopting_words="root it as shown",
        adopting_signature="jo",
        expected_body_hash=hash_body(body),
    )
    record = store.conn.execute(
        "SELECT from_id FROM edges WHERE to_id = ? AND kind = 'adopts'", (entry,)
    ).fetchone()[0]
    return entry, int(record)


def test_drift_silent_edit_detected(store: ForestStore, tmp_path: Path) -> None:
    _, record = _rooted(store)
    f = tmp_path / "canon.md"
    f.write_text(BODY.replace("winter", "spring"), encoding="utf-8")
    (finding,) = check_file_drift(f, store, record)
    assert "does not match adoption trail" in finding["text"]


def test_drift_crlf_and_bom_clean_accepted(store: ForestStore, tmp_path: Path) -> None:
    _, record = _rooted(store)
    f = tmp_path / "canon.md"
    f.write_bytes(b"\xef\xbb\xbf" + BODY.replace("\n", "\r\n").encode())
    assert check_file_drift(str(f), store, record) == []


def test_drift_body_with_cr_matches_same_bytes_accepted(store: ForestStore, tmp_path: Path) -> None:
    _, record = _rooted(store, "line one\r\nline two")
    f = tmp_path / "x.md"
    f.write_bytes(b"line one\r\nline two")
    assert check_file_drift(f, store, record) == []


def test_drift_binary_file_refused_with_offset(store: ForestStore, tmp_path: Path) -> None:
    _, record = _rooted(store)
    f = tmp_path / "x.bin"
    f.write_bytes(b"abc\xff\xfe")
    with pytest.raises(ForestError, match="offset 3"):
        check_file_drift(f, store, record)


def test_drift_directory_refused(store: ForestStore, tmp_path: Path) -> None:
    _, record = _rooted(store)
    with pytest.raises(ForestError, match="directory"):
        check_file_drift(tmp_path, store, record)


def test_drift_after_supersede_ground_moved_detected(store: ForestStore, tmp_path: Path) -> None:
    entry, record = _rooted(store)
    store.supersede(
        old_id=entry,
        new_body="new canon",
        adopting_words="replace it",
        adopting_signature="jo",
        expected_body_hash=hash_body("new canon"),
    )
    f = tmp_path / "canon.md"
    f.write_text(BODY, encoding="utf-8")
    texts = [w["text"] for w in check_file_drift(f, store, record)]
    assert any("no longer current ground" in t for t in texts)


def test_drift_non_adoption_id_refused(store: ForestStore, tmp_path: Path) -> None:
    entry, _ = _rooted(store)
    (tmp_path / "a.md").write_text(BODY, encoding="utf-8")
    with pytest.raises(ForestError, match="not an adoption_record"):
        check_file_drift(tmp_path / "a.md", store, entry)

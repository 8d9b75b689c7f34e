"""Normalisation policy utf8-nobom-lf: decoding, refusals, line arithmetic."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forest_files.kernel.errors import ForestError
from forest_files.kernel.hashing import hash_body
from forest_files.text.extract import NORMALISATION, section_hash
from forest_files.text.normalise import (
    LineIndex,
    SourceRefused,
    decode_bytes,
    normalise_text,
    normalised_hash,
)


def test_normalisation_name_is_declared() -> None:
    assert NORMALISATION == "utf8-nobom-lf"


def test_crlf_and_bom_normalised_to_same_hash_accepted() -> None:
    lf = b"# Title\n\nBody line\nlast"
    crlf = b"\xef\xbb\xbf# Title\r\n\r\nBody line\r\nlast"
    texts = {decode_bytes(raw, "a.md") for raw in (lf, crlf)}
    assert texts == {"# Title\n\nBody line\nlast"}
    assert len({section_hash(t) for t in texts}) == 1


def test_cr_line_ends_refused() -> None:
    """A lone CR is no line end to a shell or git (tests/text/test_region_lone_cr.py)."""
    with pytest.raises(SourceRefused, match="lone CR"):
        decode_bytes(b"# Title\r\rBody line\rlast", "a.md")


def test_normalise_text_idempotent_accepted() -> None:
    once = normalise_text("\ufeffa\r\nb\rc\n")
    assert once == "a\nb\nc\n"
    assert normalise_text(once) == once


def test_inner_bom_and_other_separators_kept_accepted() -> None:
    # Only a leading BOM goes; form feed and U+2028 are content, not line breaks.
    text = decode_bytes("a\ufeffb\x0cc\u2028d\n".encode(), "a.md")
    assert text == "a\ufeffb\x0cc\u2028d\n"
    assert LineIndex(text).count == 1


def test_invalid_utf8_refused_naming_byte_offset() -> None:
    with pytest.raises(SourceRefused, match=r"docs/a\.md: invalid UTF-8 at byte offset 6") as info:
        decode_bytes(b"hello \xff world", "docs/a.md")
    assert info.value.offset == 6
    assert isinstance(info.value, ForestError)


def test_truncated_utf8_at_end_refused_naming_byte_offset() -> None:
    with pytest.raises(SourceRefused, match="byte offset 3"):
        decode_bytes(b"abc\xe2\x82", "a.md")


def test_binary_nul_refused_naming_byte_offset() -> None:
    with pytest.raises(SourceRefused, match=r"img\.png: binary content .* byte offset 4"):
        decode_bytes(b"\x89PNG\x00\x00rest", "img.png")


@pytest.mark.parametrize(
    ("data", "offset", "line"),
    [
        (b"one\ntwo\nth\x00ree\n", 10, 3),  # a NUL byte
        (b"one\r\ntwo\r\nth\xffree\r\n", 12, 3),  # invalid UTF-8, CRLF lines
        (b"\xff", 0, 1),  # on the first line
        (b"one\n\xe2\x82", 4, 2),  # truncated at the end of the last line
    ],
)
def test_nul_and_invalid_utf8_refused_naming_line(data: bytes, offset: int, line: int) -> None:
    """The line as well as the byte (as a lone CR's refusal names it): where to look."""
    with pytest.raises(SourceRefused) as info:
        decode_bytes(data, "a.md")
    assert f"at byte offset {offset} (line {line});" in str(info.value), info.value
    assert (info.value.offset, info.value.line) == (offset, line)


def test_utf16_refused_with_hint() -> None:
    with pytest.raises(SourceRefused, match="UTF-16"):
        decode_bytes("hi".encode("utf-16"), "a.txt")


def test_refusal_never_echoes_content() -> None:
    secret = b"SENTINEL-SECRET-9431"
    with pytest.raises(SourceRefused) as info:
        decode_bytes(secret + b"\xff", "s.md")
    assert "SENTINEL" not in str(info.value)


@pytest.mark.parametrize(
    ("text", "count"),
    [("", 0), ("a", 1), ("a\n", 1), ("a\nb", 2), ("a\n\n", 2), ("\n", 1)],
)
def test_line_index_counts_lines_accepted(text: str, count: int) -> None:
    assert LineIndex(text).count == count


def test_line_index_sections_and_offsets_accepted() -> None:
    idx = LineIndex("one\ntwo\nthree")
    sec = idx.section(2, 3)
    assert (sec.start_offset, sec.end_offset) == (4, 13)
    assert idx.text[sec.start_offset : sec.end_offset] == "two\nthree"
    empty = idx.section(2, 1)
    assert empty.start_offset == empty.end_offset == 4
    assert idx.line(3) == "three"
    assert idx.line_of(5) == 2


@settings(max_examples=300, deadline=None)
@given(
    text=st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=60),
    endings=st.lists(st.sampled_from(["\n", "\r\n", "\r"]), min_size=1, max_size=4),
    bom=st.booleans(),
)
def test_normalised_hash_equals_hash_of_decoded_text(
    text: str, endings: list[str], bom: bool
) -> None:
    """The bytes fast path (no CR, no BOM: hash the bytes as they are) and the slow
    path agree with hash_body(normalise(decode)) on every input without a lone CR;
    with one, there is no hash (decode_bytes refuses it)."""
    raw_text = "".join(part + endings[i % len(endings)] for i, part in enumerate(text.split("\n")))
    data = ("\ufeff" if bom else "").encode() + raw_text.encode("utf-8")
    if b"\r" in data.replace(b"\r\n", b""):
        assert normalised_hash(data) is None
        return
    assert normalised_hash(data) == hash_body(normalise_text(data.decode("utf-8")))


@pytest.mark.parametrize("raw", [b"ok\xff", b"\xef\xbb\xbfok\r\n\xc3", b"\xed\xa0\x80"])
def test_normalised_hash_of_invalid_utf8_is_none(raw: bytes) -> None:
    assert normalised_hash(raw) is None

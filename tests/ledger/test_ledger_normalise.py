"""Format 3's ``normalise`` field: on an adopt's binding and on a rebind, written only
when present (every act without it keeps its format-2 bytes), and fail-closed
parsing (format 2 carrying it, an unknown name or version, unsorted, empty on a
binding, a ``normalise:`` item smuggled through ``excludes``)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from forest_files.ledger import LedgerError
from forest_files.ledger.acts import decode_line, encode_act, make_act
from forest_files.ledger.kinds import AdoptAct, RebindAct
from forest_files.ledger.versions import version_for
from tests.helpers.acts import envelope, raw_line, sample_payload


def _adopt_fields(**binding: Any) -> dict[str, Any]:
    payload = sample_payload("adopt")
    assert isinstance(payload, AdoptAct) and payload.binding is not None
    fields = payload.to_fields()
    fields["binding"] = {**fields["binding"], **binding}
    return fields


def _decode(kind: str, v: int, fields: dict[str, Any]) -> object:
    return decode_line(raw_line(envelope(kind, v=v, **fields)), segment="s", lineno=1)


def test_adopt_binding_normalise_written_as_format3_accepted() -> None:
    fields = _adopt_fields(normalise=["blank-lines@1", "trailing-whitespace@1"])
    assert version_for("adopt", fields) == 3
    act = make_act("adopt", [], fields, scope="p")
    assert act.version == 3
    assert act.payload.binding.normalise == ("blank-lines@1", "trailing-whitespace@1")
    assert act.payload.binding.rules[-1] == "normalise:trailing-whitespace@1"
    again = decode_line(encode_act(act).encode(), segment="s", lineno=1)
    assert again.payload == act.payload and again.id == act.id


def test_adopt_without_normalise_stays_format2_accepted() -> None:
    """No ``normalise`` key at all (not an empty list): the bytes of format 2."""
    payload = sample_payload("adopt")
    fields = payload.to_fields()
    assert "normalise" not in fields["binding"]
    act = make_act("adopt", [], fields, scope="p")
    assert act.version == 2 and '"normalise"' not in encode_act(act)


def test_format2_binding_with_normalise_refused() -> None:
    with pytest.raises(LedgerError, match="only in ledger format 3") as info:
        _decode("adopt", 2, _adopt_fields(normalise=["blank-lines@1"]))
    assert info.value.code == "malformed"


@pytest.mark.parametrize(
    ("value", "why"),
    [
        (["whitespace@1"], "does not know"),
        (["blank-lines@2"], "does not know"),
        (["blank-lines"], "does not know"),
        (["trailing-whitespace@1", "blank-lines@1"], "sorted"),
        (["blank-lines@1", "blank-lines@1"], "sorted"),
        ([], "must not be empty"),
        ("blank-lines@1", "list of non-empty strings"),
    ],
)
def test_format3_binding_bad_normalise_refused(value: object, why: str) -> None:
    """An unknown name or version fails closed: the section could not be hashed as
    the binding declares."""
    with pytest.raises(LedgerError, match=why) as info:
        _decode("adopt", 3, _adopt_fields(normalise=value))
    assert info.value.code == "malformed"


@pytest.mark.parametrize("v", [2, 3])
def test_normalise_item_smuggled_in_excludes_refused(v: int) -> None:
    """``normalise:`` items are the in-memory form only: never read from ``excludes``."""
    with pytest.raises(LedgerError, match="is not an exclusion"):
        _decode("adopt", v, _adopt_fields(excludes=["normalise:blank-lines@1"]))


def test_rebind_normalise_format3_empty_accepted() -> None:
    """A rebind may set the list to empty: the binding declares none from then on."""
    payload = sample_payload("rebind")
    assert isinstance(payload, RebindAct)
    for names in ((), ("emphasis@1",)):
        changed = dataclasses.replace(payload, normalise=names)
        act = make_act("rebind", [], changed.to_fields(), scope="p")
        assert act.version == 3 and act.payload.normalise == names
    assert make_act("rebind", [], payload.to_fields(), scope="p").version == 2


def test_format2_rebind_with_normalise_refused() -> None:
    fields = {**sample_payload("rebind").to_fields(), "normalise": []}
    with pytest.raises(LedgerError, match="only in ledger format 3"):
        _decode("rebind", 2, fields)


def test_format3_rebind_unknown_normalise_refused() -> None:
    fields = {**sample_payload("rebind").to_fields(), "normalise": ["py-magic@1"]}
    with pytest.raises(LedgerError, match="does not know"):
        _decode("rebind", 3, fields)

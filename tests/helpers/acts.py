"""Valid format-2 act builders for codec-level ledger tests.

Every builder returns a payload or act that ``decode_line`` accepts: typed
fields of ``forest_files.ledger.kinds``, 64-hex ids and hashes, content ids
computed from the entry's own fields. They are codec fixtures, not custody:
their origins and targets name entries no index holds, so they never replay.
``n`` makes otherwise equal acts distinct (it salts nonces and names).
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from forest_files.kernel.hashing import canonical_json, entry_content_id, hash_body, sha256_text
from forest_files.ledger import kinds
from forest_files.ledger.acts import FORMAT_VERSION, Act, build_act
from forest_files.ledger.kinds import (
    AdoptAct,
    BindSpec,
    EntryRecord,
    EraseAct,
    Payload,
    RebindAct,
    ResolveAct,
    RetireAct,
    SupersedeAct,
    WriteAct,
    seal_act,
)

SCOPE = "p" * 32
BY = "Ada Lovelace <ada@example.org>"
AT = "2024-01-01T00:00:00.000000Z"
PATH = "docs/a.md"
SELECTOR = "docs/a.md#Keep"
# The texts the samples' body hashes name: write them to keep a ledger's body refs whole.
SAMPLE_BODIES = {hash_body(t): t for t in ("a body", "I adopt this text")}


def hexid(seed: object) -> str:
    """A stable 64-hex id or hash named by ``seed``."""
    return hashlib.sha256(f"seed:{seed}".encode()).hexdigest()


def entry_record(**overrides: Any) -> EntryRecord:
    """A valid entry record; ``content_id`` is computed from the other fields
    unless given. ``body`` (a text) sets ``body_hash`` to its hash."""
    body = overrides.pop("body", None)
    fields: dict[str, Any] = {
        "scope": "home",
        "created_at": AT,
        "jurisdiction": "home",
        "bucket": "note",
        "source": None,
        "signature": BY,
        "body_hash": hash_body("a body") if body is None else hash_body(body),
        "meta": {},
        "nonce": "00",
        "origins": ((hexid("origin"), "derived_from"),),
    }
    fields.update(overrides)
    fields["origins"] = tuple(tuple(o) for o in fields["origins"])
    if "content_id" not in fields:
        fields["content_id"] = entry_content_id(
            **{k: v for k, v in fields.items() if k != "content_id"}
        )
    return EntryRecord(**fields)


def record_of(entry: EntryRecord, kind: str = "adopts", **overrides: Any) -> EntryRecord:
    """An adoption (or sealing) record naming exactly ``entry``, with the same stamp."""
    fields: dict[str, Any] = {
        "bucket": "adoption_record",
        "body": "I adopt this text",
        "created_at": entry.created_at,
        "nonce": entry.nonce,
        "origins": ((entry.content_id, kind),),
        "scope": entry.scope,
    }
    fields.update(overrides)
    return entry_record(**fields)


def bind_spec(**overrides: Any) -> BindSpec:
    fields: dict[str, Any] = {
        "path": PATH,
        "selector": SELECTOR,
        "excludes": (),
        "normalisation": "utf8-nobom-lf",
        "hash_algo": "sha256",
        "section_hash": hash_body("a body"),
    }
    fields.update(overrides)
    fields["excludes"] = tuple(fields["excludes"])
    return BindSpec(**fields)


def sample_payload(kind: str = "write", *, n: int = 0, **overrides: Any) -> Payload:
    """A valid payload of ``kind``; ``overrides`` replace its top-level fields."""
    nonce = f"{n:016x}"
    if kind == "write":
        payload: Payload = WriteAct(entry_record(nonce=nonce))
    elif kind == "adopt":
        entry = entry_record(bucket="import", nonce=nonce)
        payload = AdoptAct(entry, record_of(entry), bind_spec(section_hash=entry.body_hash))
    elif kind == "supersede":
        entry = entry_record(
            nonce=nonce, origins=((hexid("old"), "supersedes"), (hexid("old"), "derived_from"))
        )
        payload = SupersedeAct(old=hexid("old"), entry=entry, record=record_of(entry))
    elif kind == "resolve":
        heads = tuple(sorted((hexid("head 1"), hexid("head 2"))))
        entry = entry_record(nonce=nonce, origins=[(h, "supersedes") for h in heads])
        payload = ResolveAct(heads=heads, pick=heads[0], entry=entry, record=record_of(entry))
    elif kind in ("seal", "unseal"):
        sealing = kind == "seal"
        target = hexid("target")
        record = record_of(
            entry_record(content_id=target, nonce=nonce),
            "seals" if sealing else "unseals",
            bucket="sealing_record" if sealing else "unsealing_record",
        )
        payload = seal_act(target, record, sealing=sealing)
    elif kind == "rebind":
        payload = RebindAct(
            binding=hexid("binding"),
            path="docs/b.md",
            selector="docs/b.md#Keep",
            section_hash=hash_body("a body"),
            by=BY,
            at=f"{AT} {n}" if n else AT,
        )
    elif kind == "retire":
        payload = RetireAct(binding=hexid("binding"), words=f"gone {n}", by=BY, at=AT)
    elif kind == "erase":
        payload = EraseAct(body_hash=hash_body("a body"), by=BY, reason=f"leaked {n}", at=AT)
    else:
        raise ValueError(f"no sample for kind {kind!r}")
    return dataclasses.replace(payload, **overrides) if overrides else payload


def sample_act(
    kind: str = "write",
    deps: Iterable[str] = (),
    *,
    scope: str = SCOPE,
    n: int = 0,
    **overrides: Any,
) -> Act:
    """A valid act of ``kind`` (see ``sample_payload``) built with ``build_act``."""
    return build_act(sample_payload(kind, n=n, **overrides), deps, scope=scope)


def body_act(body: str, *, n: int = 0, deps: Iterable[str] = ()) -> tuple[Act, dict[str, str]]:
    """A write act whose entry's body is ``body``, and the bodies to write with it."""
    return sample_act("write", deps, n=n, entry=entry_record(body=body, nonce=str(n))), {
        hash_body(body): body
    }


def act_object(act: Act) -> dict[str, Any]:
    """The JSON object of ``act`` without its id, to edit and re-sign with ``raw_line``."""
    obj = act.to_object()
    del obj["id"]
    return obj


def raw_line(obj: Mapping[str, Any]) -> bytes:
    """A canonical line for ``obj`` with a correct id (for hand-built or edited acts)."""
    body = {k: v for k, v in obj.items() if k != "id"}
    return canonical_json({**body, "id": sha256_text(canonical_json(body))}).encode()


def envelope(kind: str = "write", *, v: int = FORMAT_VERSION, **rest: Any) -> dict[str, Any]:
    """A bare envelope (no kind fields), for version and envelope tests."""
    return {"v": v, "kind": kind, "deps": [], "scope": SCOPE, **rest}


# --- the test vectors of docs/ledger-format.md ----------------------------------------

VECTOR_PROJECT = "0123456789abcdef0123456789abcdef"
VECTOR_BY = "Ada Lovelace <ada@example.org>"
VECTOR_FIRST = "The bridge is closed to lorries over 7.5 tonnes."
VECTOR_SECOND = "The bridge is closed to lorries over 3.5 tonnes."


def write_vectors(workdir: Path, dest: Path) -> dict[str, Any]:
    """Record one adopt_text and one supersede in a fresh repository at ``workdir``
    (project ``VECTOR_PROJECT``, real git in the fixed test environment), copy its
    ledger files to ``dest`` and write ``dest/expected.json``; return that.

    Run once by hand (``python -m tests.helpers.acts DEST``) when the format
    changes; the committed files under tests/data/ledger-vectors/ are its output.
    """
    import json
    import shutil

    from forest_files.custody.repository import Repository
    from forest_files.ledger.segments import read_ledger
    from tests.helpers.git import make_repo

    root = make_repo(workdir, "vectors")
    with Repository.init(root, project_id=VECTOR_PROJECT) as repo:
        first = repo.adopt_text(VECTOR_FIRST, words="I adopt this text", by=VECTOR_BY)
        second = repo.supersede(
            first,
            VECTOR_SECOND,
            words="The limit was lowered",
            by=VECTOR_BY,
            expected_body_hash=hash_body(VECTOR_SECOND),
        )
        ground = [dataclasses.asdict(g) for g in repo.ground()]
        ledger = repo.ledger_dir
    acts = read_ledger(ledger).ordered()
    expected = {
        "project_id": VECTOR_PROJECT,
        "acts": [{"id": a.id, "kind": a.kind, "deps": list(a.deps)} for a in acts],
        "superseded": first,
        "ground": ground,
    }
    assert [g["content_id"] for g in ground] == [second]
    for sub in ("segments", "bodies"):
        shutil.copytree(ledger / sub, dest / sub, dirs_exist_ok=True)
    (dest / "expected.json").write_text(
        json.dumps(expected, indent=2, sort_keys=True) + "\n", encoding="utf-8"
    )
    return expected


if __name__ == "__main__":
    import os
    import sys
    import tempfile

    from tests.helpers.git import git_env

    os.environ.update(git_env())
    with tempfile.TemporaryDirectory() as tmp:
        write_vectors(Path(tmp), Path(sys.argv[1]))


# The payload type of every kind (the codec tests and the format doc test share it).
PAYLOAD_TYPES: Mapping[str, type[Any]] = kinds.PAYLOAD_TYPES

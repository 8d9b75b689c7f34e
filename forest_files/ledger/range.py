"""What a range of commits did to the ledger: ``forest verify --base REF``, the CI gate.

The range is merge-base(REF, HEAD)..HEAD. Two rules:

* The ledger only grows, in EVERY commit of the range against each of its
  parents (growth.py): a ledger file modified or retyped (``ledger-rewritten``)
  or deleted (``ledger-deleted``) is a fault naming the commit, even when a
  later commit restores it — this is what catches a deleted newest act, and a
  ledger removed or moved for one commit — except a body file deleted whose
  hash an "erase" act of that commit's own ledger names in its top-level
  ``body_hash``, and the removal of a file that is no ledger file at all.
* Authority at the merge-base: every act HEAD's ledger adds (by act id) that
  carries a top-level ``path`` is judged with ``may_act`` against forest.toml
  **as it stood at the merge-base**, for the signature of its ``record`` (of
  its ``entry`` when it has no record). So a range that adds its own author as
  a holder and acts cannot pass. Without a forest.toml at the merge-base no
  path is governed. Acts without a ``path`` are not judged here (known limit).

Stores: nothing.
Refuses: a base that does not resolve (``UnknownRef``); a merge-base cut off
by a shallow clone (``ShallowClone``, naming ``fetch-depth: 0``); an invalid
forest.toml at the merge-base (``ConfigError``).
Returns: ``RangeReport`` (faults carry paths, ids and signatures, never bodies).
Test: tests/test_ledger_range.py
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from forest_files import gitio
from forest_files.config import CONFIG_NAME, ForestConfig, may_act, parse_config_text
from forest_files.ledger.acts import Act
from forest_files.ledger.growth import growth_faults
from forest_files.ledger.segments import LedgerSnapshot
from forest_files.ledger.sources import (
    config_text_from,
    ledger_blobs,
    snapshot_of,
)
from forest_files.ledger.verify import Fault

RANGE_FAULT_CODES = frozenset({"ledger-rewritten", "ledger-deleted", "authority"})
_NO_MAP = ForestConfig(project_id="-")


@dataclass(frozen=True)
class RangeReport:
    merge_base: str
    faults: tuple[Fault, ...]

    @property
    def ok(self) -> bool:
        return not self.faults


def _acts_at(root: Path, commit: str) -> LedgerSnapshot:
    """The acts of every line that decodes in ``commit``'s ledger (faults are
    ``verify``'s to report, not this check's)."""
    where = ledger_blobs(root, commit)
    data = gitio.cat_blobs(root, where.segments.values())
    return snapshot_of({name: data[blob] for name, blob in where.segments.items()}, strict=False)


def _signature(fields: Mapping[str, Any]) -> str | None:
    for key in ("record", "entry"):
        value = fields.get(key)
        if isinstance(value, Mapping) and isinstance(value.get("signature"), str):
            return str(value["signature"])
    by = fields.get("by")  # bind, rebind and retire acts sign at the top level
    return by if isinstance(by, str) else None


def _authority_faults(
    new_acts: list[Act], cfg: ForestConfig, snapshot: LedgerSnapshot, base: str
) -> list[Fault]:
    faults: list[Fault] = []
    for act in new_acts:
        if "path" not in act.fields:
            continue
        path, by = act.fields["path"], _signature(act.fields)
        segment = snapshot.origin(act.id)
        if not isinstance(path, str) or not path or by is None:
            detail = f"act {act.id} names a path but its path or signature cannot be judged"
            faults.append(Fault("authority", segment, None, act.id, detail))
        elif not may_act(cfg, path, by):
            detail = f"{by} holds no authority over {path} at merge-base {base[:12]}"
            faults.append(Fault("authority", segment, None, act.id, detail))
    return faults


def _config_at(root: Path, commit: str) -> ForestConfig:
    text = config_text_from(root, commit)
    if text is None:
        return _NO_MAP
    return parse_config_text(text, f"{CONFIG_NAME} at merge-base {commit[:12]}")


def check_range(repo_root: Path | str, base_ref: str) -> RangeReport:
    """Faults of merge-base(``base_ref``, HEAD)..HEAD: rewritten or deleted ledger
    files, and acts by a signature without authority at the merge-base."""
    root = gitio.toplevel(repo_root)
    head = gitio.resolve_commit(root, "HEAD")
    base = gitio.merge_base(root, base_ref, head)
    at_head = _acts_at(root, head)
    faults = growth_faults(root, base, head)
    at_base = _acts_at(root, base)
    new_acts = sorted(
        (a for a in at_head.acts.values() if a.id not in at_base.acts), key=lambda a: a.id
    )
    faults += _authority_faults(new_acts, _config_at(root, base), at_head, base)
    faults.sort(key=lambda f: (f.code, f.segment or "", f.act_id or "", f.detail))
    return RangeReport(merge_base=base, faults=tuple(faults))

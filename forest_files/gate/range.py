"""What a range of commits did to the ledger: ``forest verify --base REF``, the CI gate.

The range is merge-base(REF, HEAD)..HEAD. The rules:

* The ledger only grows, in EVERY commit of the range against each of its
  parents (``growth``): a ledger file modified or retyped (``ledger-rewritten``)
  or deleted (``ledger-deleted``) is a fault naming the commit, even when a
  later commit restores it — except a body file deleted whose hash an erase
  act of that commit's own ledger names, and the removal of a file that is no
  ledger file at all.
* Authority at the merge-base, derived from state: every act HEAD's ledger
  adds (by act id) is judged for its signer over **every bound path the act
  touched** as its applier derived them on replay (a supersede, resolve,
  retire, seal, unseal or erase: every path bound to the chain; a rebind: the
  old and the new path; an adopt: its path; every path a chain was ever bound
  to, so a retired binding keeps its paths; an act on adopting words, the
  chain they adopted; an act tied to no path, as a path only ``**`` matches),
  against forest.toml **as it stood at the merge-base** (``authority``). No
  field an act declares about itself is trusted, so dropping a path from a
  hand-written act hides nothing.
* Policy at the merge-base: a body a new act carries over the merge-base's
  ``[policy] max_body_bytes`` is a fault (``policy``). Replay never judges
  policy, so tightening it never breaks a rebuild.
* Tombstones (check/tombhits.py): a new act any text field or words of
  which holds a line, a token or the body an erase act of HEAD's ledger
  tombstoned is a fault (``erased-content``), whatever its deps say.
* Forged tombstones (tombproof.py): an erase act the range adds whose
  ``lines`` or ``tokens`` hold a fingerprint its erased body (read at the
  merge-base, else in the range) does not yield is a fault (``authority``):
  it would block text on paths its signer need not hold.
* Signed acts (signing/judge.py): where forest.toml at the merge-base asks for
  signatures, the commit that brought each new act must be signed by a key the
  merge-base's keyring binds to the identity the act names (``unsigned``,
  ``signer``, ``signers-mixed``; under ``warn`` these are the report's warnings).
* forest.toml is governed (config_governance.py): a commit of the range that changes its
  ``[authority]``, ``[policy]``, ``[signing]``, ``[gpg]`` or ``[require]``
  tables (a requirement removed would let an unadopted file in), or the
  keyring file the merge-base names, is a fault (``config-governance``)
  unless its author holds ``**`` at the merge-base (a holder listed for the
  glob ``**``; a merge-base without an authority map governs nothing); a
  project id that changes once acts exist is always a fault.

Authority, policy, governance and erased-content faults are refusals (exit 1); the others
are a damaged or rewritten ledger (exit 3) — in ``verify --base`` and the gate
alike.

Stores: nothing (HEAD's ledger is replayed into a throwaway index, unless the
caller hands in a store that already holds it).
Refuses: a base that does not resolve (``UnknownRef``); a merge-base, or a
commit of the range, cut off by a shallow clone (``ShallowClone``, naming
``fetch-depth: 0``); an invalid
forest.toml at the merge-base (``ConfigError``).
Returns: ``RangeReport`` (faults carry paths, ids and signatures, never bodies;
each names the commit it judges: an act's, the commit that brought it).
Test: tests/gate/test_ledger_range.py, tests/governance/test_authority_derived.py,
      tests/gate/test_signing.py, tests/gate/test_erase_lines_forged.py,
      tests/gate/test_ci_git_calls.py (the merge-base's git processes)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from forest_files import gitio
from forest_files.check.tombhits import range_faults
from forest_files.custody.config import (
    CONFIG_NAME,
    ConfigError,
    ForestConfig,
    may_act,
    parse_config_text,
)
from forest_files.custody.sources import config_text_from, ledger_blobs, segments_at, snapshot_of
from forest_files.gate.config_governance import Listed, governance_faults
from forest_files.gate.growth import growth_faults
from forest_files.gate.signing.judge import SIGNING_CODES, judge_governance, judge_signatures
from forest_files.gate.tombproof import forged_tombstone_faults
from forest_files.gitio import Change
from forest_files.kernel.paths import LEDGER_PREFIX
from forest_files.ledger.acts import Act, LedgerError, body_hashes
from forest_files.ledger.segment_files import SEGMENT_SUFFIX
from forest_files.ledger.segments import SEGMENTS_DIR, LedgerSnapshot
from forest_files.ledger.verify import Fault

REFUSAL_CODES = (
    frozenset({"authority", "policy", "config-governance", "erased-content"}) | SIGNING_CODES
)
RANGE_FAULT_CODES = frozenset({"ledger-rewritten", "ledger-deleted"}) | REFUSAL_CODES
_NO_MAP = ForestConfig(project_id="-")


@dataclass(frozen=True)
class RangeReport:
    merge_base: str
    faults: tuple[Fault, ...]
    warnings: tuple[Fault, ...] = ()  # signing under "warn": reported, never a failure

    @property
    def ok(self) -> bool:
        return not self.faults


def acts_at(root: Path, commit: str, *, verified: bool = False) -> LedgerSnapshot:
    """The acts of every line that decodes in ``commit``'s ledger (faults are
    ``verify``'s to report, not this check's). ``verified``: the caller's ``verify``
    found ``commit``'s ledger sound from its listing of the whole ledger (gitio keeps
    it), so its segments are taken from that listing: no ``ls-tree`` of the segments
    alone (every entry there is a segment file; no link, no stray)."""
    if not verified:
        return segments_at(root, commit, strict=False)
    held = f"{LEDGER_PREFIX}{SEGMENTS_DIR}/"
    listed = gitio.ls_tree(root, commit, LEDGER_PREFIX)
    named = ((e.path[len(held) :], e.blob) for e in listed if e.path.startswith(held))
    where = {n: blob for n, blob in named if "/" not in n and n.endswith(SEGMENT_SUFFIX)}
    data = gitio.cat_blobs(root, where.values())
    return snapshot_of({name: data[blob] for name, blob in where.items()}, strict=False)


def _authority_faults(
    new_acts: list[Act],
    paths: Mapping[str, frozenset[str]],
    cfg: ForestConfig,
    snapshot: LedgerSnapshot,
    base: str,
) -> list[Fault]:
    faults: list[Fault] = []
    for act in new_acts:
        by = act.payload.signer
        touched: list[str | None] = [*sorted(paths.get(act.id, frozenset()))] or [None]
        for path in touched:  # None: tied to no path, judged as one only '**' matches
            if not may_act(cfg, path, by):
                what = path if path is not None else "acts tied to no path ('**')"
                detail = (
                    f"{by} holds no authority over {what} at merge-base {base[:12]} "
                    f"({act.kind} act); a holder there must make it instead"
                )
                faults.append(Fault("authority", snapshot.origin(act.id), None, act.id, detail))
    return faults


def _body_sizes(root: Path, head: str, new_acts: list[Act]) -> dict[str, int]:
    """The byte size of every body the new acts carry that HEAD's tree holds (read
    in one batch; the rest of the ledger's bodies are never read here). A range that
    adds no act naming a body lists nothing (HEAD's ledger is 10,000 entries to walk).
    A link in HEAD's ledger is skipped, never refused: it is ``verify``'s fault to
    report, given the route that takes it out (linked.py)."""
    named = {h for a in new_acts for h in body_hashes(a)}
    if not named:
        return {}
    where = ledger_blobs(root, head, refuse_links=False)
    wanted = {h: where.bodies[h] for h in named if h in where.bodies}
    data = gitio.cat_blobs(root, set(wanted.values()))
    return {h: len(data[blob]) for h, blob in wanted.items()}


def _policy_faults(
    new_acts: list[Act], sizes: Mapping[str, int], cfg: ForestConfig, snapshot: LedgerSnapshot,
    base: str,
) -> list[Fault]:  # fmt: skip
    faults: list[Fault] = []
    limit = cfg.max_body_bytes
    for act in new_acts:
        for body_hash in sorted(body_hashes(act)):
            size = sizes.get(body_hash, 0)
            if size > limit:
                detail = (
                    f"body {body_hash} of act {act.id} is {size} bytes, over max_body_bytes "
                    f"= {limit} at merge-base {base[:12]}; adopt a smaller section instead"
                )
                faults.append(Fault("policy", snapshot.origin(act.id), None, act.id, detail))
    return faults


def head_paths(root: Path, head: str, act_ids: list[str]) -> dict[str, frozenset[str]]:
    """The bound paths each act of HEAD's ledger touched, from HEAD's custody opened the
    one way every door opens it (check/opening.py: its sealed view, or a replay that
    leaves one), when the caller holds no store of HEAD already."""
    from forest_files.check.opening import open_custody
    from forest_files.custody.applied import act_paths

    with open_custody(root, head) as custody:
        return act_paths(custody.store(), act_ids)


def _config_at(root: Path, commit: str) -> ForestConfig:
    text = config_text_from(root, commit)
    if text is None:
        return _NO_MAP
    return parse_config_text(text, f"{CONFIG_NAME} at merge-base {commit[:12]}")


PathsOf = Callable[[list[str]], Mapping[str, frozenset[str]]]


def check_range(
    repo_root: Path | str,
    base_ref: str,
    *,
    paths_of: PathsOf | None = None,
    head: str | None = None,
    merge_base: str | None = None,
    listed: Listed | None = None,
    diffs: Mapping[tuple[str, str], list[Change]] | None = None,
    head_verified: bool = False,
) -> RangeReport:
    """Faults of merge-base(``base_ref``, HEAD)..HEAD (see the module docstring).

    ``paths_of``: the bound paths of HEAD's acts from a store that already holds
    HEAD's ledger (the gate's view); by default HEAD's ledger is replayed here. A
    ledger that does not replay is ``verify``'s fault to report; its acts are then
    judged over no paths here. ``head``: this commit instead of HEAD, ``repo_root``
    then being the git directory itself (bare or not: the server hook).
    ``merge_base``: merge-base(``base_ref``, ``head``) when the caller holds it
    already (the gate computed it for the same head), so git is not asked twice;
    ``listed``: likewise, each commit of that range with its parents and author, oldest
    first (one listing: the growth's pairs and the governance's authors); ``diffs``:
    every path each of its commits changed against each parent (history.py
    ``range_diffs``), whose one diff-tree the growth rule then shares.
    ``head_verified``: the caller verified ``head``'s ledger sound (``acts_at``).
    """
    root = gitio.toplevel(repo_root) if head is None else Path(repo_root)
    head = gitio.resolve_commit(root, head or "HEAD")
    base = gitio.merge_base(root, base_ref, head) if merge_base is None else merge_base
    at_head = acts_at(root, head, verified=head_verified)
    parents = None if listed is None else [(c, up) for c, up, _ in listed]
    faults = growth_faults(root, base, head, parents, diffs)
    # The merge-base's segments and forest.toml in one listing, each kept as its own
    # (gitio ``ls_tree_each``), read below by acts_at (sources.py ``ledger_blobs``: the
    # segments alone) and _config_at: one ``ls-tree``, not one each.
    gitio.ls_tree_each(root, base, [f"{LEDGER_PREFIX}{SEGMENTS_DIR}", CONFIG_NAME])
    at_base = acts_at(root, base)
    new_acts = sorted(
        (a for a in at_head.acts.values() if a.id not in at_base.acts), key=lambda a: a.id
    )
    base_cfg = _config_at(root, base)
    ids = [a.id for a in new_acts]
    try:
        paths = paths_of(ids) if paths_of is not None else head_paths(root, head, ids)
    except (LedgerError, ConfigError):
        paths = {}
    faults += _authority_faults(new_acts, paths, base_cfg, at_head, base)
    faults += _policy_faults(new_acts, _body_sizes(root, head, new_acts), base_cfg, at_head, base)
    faults += range_faults(root, head, new_acts, at_head)
    faults += forged_tombstone_faults(root, base, head, new_acts, at_head)
    signed = judge_signatures(root, base, head, new_acts, paths, base_cfg, at_head)
    faults += signed.faults
    governance, governed = governance_faults(root, base, head, base_cfg, listed)
    faults += governance
    signed_governance = judge_governance(root, base, governed, base_cfg)
    faults += signed_governance.faults
    faults.sort(key=lambda f: (f.code, f.segment or "", f.act_id or "", f.detail))
    named, warned = _brought_by(
        root, base, head, faults, [*signed.warnings, *signed_governance.warnings]
    )
    return RangeReport(merge_base=base, faults=tuple(named), warnings=tuple(warned))


def _brought_by(
    root: Path, base: str, head: str, faults: list[Fault], warnings: list[Fault]
) -> tuple[list[Fault], list[Fault]]:
    """Each fault of an act named by the commit of the range that brought the act
    (the commit that added its segment: signing/brought.py), asked of git only when
    such a fault exists; an act no commit of the range brought keeps none."""
    from forest_files.gate.signing.brought import acts_brought

    wanted = {f.act_id for f in (*faults, *warnings) if f.act_id and f.commit is None}
    if not wanted:
        return faults, warnings
    by_act = {a: c for c, ids in acts_brought(root, base, head, wanted).by_commit for a in ids}

    def named(f: Fault) -> Fault:
        if f.commit is not None or f.act_id not in by_act:
            return f
        return dataclasses.replace(f, commit=by_act[f.act_id])

    return [named(f) for f in faults], [named(f) for f in warnings]

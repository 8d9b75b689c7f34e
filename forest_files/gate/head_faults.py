"""HEAD's ledger as the CI gate judges it first: verified from HEAD's git tree, and its
faults and erased content as findings.

``verify_head``: every segment and body of HEAD's tree verified in memory (no file
written); every entry that is no well-formed segment or body (a symlink, a temp
file, a forged name) is a ``stray`` fault, its message ending in the ``git rm`` that
removes it; a body or segment that does not hash to its name says so, with the
``.gitattributes`` rule that rewrote it when one did (in place of "(edited?)").
``from_fault``: a ledger or range fault as a finding at the file it concerns (a
stray's route its ``git rm`` and the commit of that path alone, a pasted route
leaving HEAD without it as the gate judges; other staged work stays staged).
``erased_content``: HEAD's
entries holding content a forget tombstoned, made by an act that never saw the
erase (``erased-content``, naming the forget, with the route that forgets it again).
``forked_before_custody``: HEAD without forest.toml on a branch forked before the
base's custody began, as a finding routed to a merge of the base.
Called by ci.py only (the gate's steps 1 and 3).

Stores: nothing.
Refuses: nothing (faults are returned, the gate reports them).
Returns: (faults, tracked local state); a ``Reported``; a list of ``Reported``.
Test: tests/gate/test_ci_gate.py, tests/custody/test_tombstone.py,
tests/gate/test_ci_config_fault.py
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from pathlib import Path

from forest_files import gitio
from forest_files.check import localstate
from forest_files.check.engine import Finding
from forest_files.check.findings import Reported, Route
from forest_files.check.route_steps import forest as forest_step
from forest_files.custody.ledger_conversion import conversion_note
from forest_files.custody.sources import LEDGER_PREFIX
from forest_files.kernel.paths import CONFIG_NAME, segment_file
from forest_files.kernel.shellword import git_step
from forest_files.ledger.fault import body_unhashed
from forest_files.ledger.segments import BODIES_DIR, SEGMENTS_DIR
from forest_files.ledger.strays import strays_in_tree
from forest_files.ledger.verify import Fault, verify_contents

TYPE_CHECKING = False
if TYPE_CHECKING:
    from forest_files.store.forest import ForestStore

LEDGER_DIR = LEDGER_PREFIX.rstrip("/")
_STRAY_GONE = "ledger: remove a stray file"
_REGULAR = ("100644", "100755")


def from_fault(fault: Fault, kind: str) -> Reported:
    """A ledger or range fault, located at the file it concerns (a segment's
    ``.forest/ledger/segments/<id>.jsonl``, a stray's own path, or forest.toml)."""
    where = fault.segment or ""
    path = fault.path or (segment_file(where) if where else LEDGER_DIR)
    named = fault.act_id and fault.act_id[:12] in fault.detail
    act = f"act {fault.act_id[:12]}: " if fault.act_id and not named else ""
    code = f"{fault.code}: " if kind == "ledger-fault" else ""
    found = Finding(
        kind,
        path,
        path,
        "",
        None,
        None,
        start_line=fault.line,
        end_line=fault.line,
        detail=f"{code}{act}{fault.detail}",
        act=fault.act_id,
    )
    routes: tuple[Route, ...] = ()
    if fault.fix_argv:
        commit = git_step("commit", "-m", _STRAY_GONE, "--", path)
        routes = (Route("remove it and commit", (*fault.fix_steps(), commit)),)
    return Reported(found, routes, commit=fault.commit)  # a range fault's commit


def forked_before_custody(top: Path, base: str | None, merge_base: str | None) -> Reported | None:
    """HEAD without forest.toml on a branch that forks from before custody began (the
    base has forest.toml, the merge-base none), as a finding every format reports, its
    route the merge of the base (``forest init`` would start a second custody beside
    it); None in any other case (the missing forest.toml stays a refusal)."""
    from forest_files.custody.sources import config_text_from
    from forest_files.kernel.paths import CONFIG_NAME

    if base is None or config_text_from(top, base) is None:
        return None
    if merge_base is not None and config_text_from(top, merge_base) is not None:
        return None
    ref = gitio.resolve_commit(top, base) if base.startswith("-") else base  # no option
    why = (
        f"missing at HEAD: the branch forks from before custody began ({base} has it); "
        f"merge {base} into the branch (or rebase onto it)"
    )
    found = Finding("config-governance", CONFIG_NAME, CONFIG_NAME, "", None, None, detail=why)
    return Reported(found, (Route("bring custody in", (git_step("merge", "--no-edit", ref),)),))


def erased_content_found(store: ForestStore) -> list[Reported]:
    """HEAD's entries holding content a forget tombstoned (exit 1, naming the forget)."""
    from forest_files.check.findings import WORDS_PLACEHOLDER
    from forest_files.governance.resurrected import erased_content

    out = []
    for r in erased_content(store):
        by = f"act {r.act_id[:12]}" if r.act_id else "no act"
        detail = (
            f"made by {by}, it holds content that erase act {r.erase_act[:12]} "
            "(forest forget) removed; it was made without seeing that erase"
        )
        path = r.paths[0] if r.paths else LEDGER_DIR
        found = Finding(
            "erased-content",
            path,
            r.content_id,
            "",
            None,
            None,
            detail=detail,
            act=r.act_id or None,
        )
        forget = forest_step("forget", r.content_id, options=("--words", WORDS_PLACEHOLDER))
        route = Route("forget it again", (forget,), "supersede or seal it first if it is ground")
        out.append(Reported(found, (route,)))
    return out


def _under(rel: str, strays: set[str]) -> bool:
    """``rel`` is a stray or lies in a stray directory."""
    parts = rel.split("/")
    return any("/".join(parts[:n]) in strays for n in range(1, len(parts) + 1))


def verify_head(root: Path, head: str) -> tuple[list[Fault], list[Reported]]:
    """Verify ``head``'s ledger from its git tree, in memory (no files written).
    Every entry that is no well-formed segment or body (a symlink, a temp file,
    a forged name) is a ``stray`` fault. The ledger's listing is the one replay and
    the range share (gitio keeps it); tracked local state (localstate.py) is listed
    from ``.forest`` one level deep, a handful of entries. Returns (faults, tracked
    local state). HEAD's forest.toml is listed with the ledger and its bytes read in
    the ledger's batch: the view's key and build read both next (viewkey.py,
    source_config.py), from what gitio keeps, with no ``ls-tree`` or ``cat-file`` of
    their own."""
    entries, config = gitio.ls_tree_each(root, head, [LEDGER_PREFIX, CONFIG_NAME])
    local = localstate.reported_at(root, head)
    strays = strays_in_tree(
        (e.path.removeprefix(LEDGER_PREFIX), e.type == "blob" and e.mode in _REGULAR)
        for e in entries
    )
    unwanted = {s.rel for s in strays}
    blobs = [e for e in entries if not _under(e.path.removeprefix(LEDGER_PREFIX), unwanted)]
    toml = [e.blob for e in config if e.path == CONFIG_NAME and e.type == "blob"]
    data = gitio.cat_blobs(root, [*(e.blob for e in blobs), *toml])
    segments: list[tuple[str, bytes]] = []
    bodies: dict[str, Callable[[], bytes]] = {}
    segment_dir = f"{LEDGER_DIR}/{SEGMENTS_DIR}/"
    body_dir = f"{LEDGER_DIR}/{BODIES_DIR}/"
    for e in sorted(blobs, key=lambda entry: entry.path):
        if e.path.startswith(segment_dir):
            segments.append((e.path.removeprefix(segment_dir), data[e.blob]))
        elif e.path.startswith(body_dir):
            bodies[e.path.removeprefix(body_dir)] = functools.partial(data.__getitem__, e.blob)
    report = verify_contents(segments, bodies, strays, tool="git rm")
    faults = _with_conversion(root, report.faults)
    return faults, local


def _with_conversion(root: Path, faults: tuple[Fault, ...]) -> list[Fault]:
    """Bodies and segments that do not hash to their names, with the cause when a
    ``.gitattributes`` rule makes git rewrite ledger files (and the fix): one
    ``git check-attr`` per fault code, only when such a fault is found."""
    notes: dict[str, str | None] = {}
    out = []
    for fault in faults:
        if fault.code in ("body-hash", "segment-name"):
            if fault.code not in notes:
                notes[fault.code] = conversion_note(root, fault.code)
            note = notes[fault.code]
            if note is not None:
                # the rule is the cause named, in place of "(edited?)"
                said = body_unhashed(fault.body) if fault.body else fault.detail
                fault = dataclasses.replace(fault, detail=f"{said}: {note}")
        out.append(fault)
    return out


__all__ = ["LEDGER_DIR", "erased_content_found", "from_fault", "verify_head"]

"""Judge every commit of a range that brings custody acts by its signature.

For each act the range adds whose bound paths ask for signing (the strictest
``[signing]`` mode over the paths its applier derived, the ones authority is
judged over; for an act touching none, the mode of a path only ``**``
matches: its ``[signing]`` rule, else ``[policy] signed``), the commit that
brought it (``brought``) must carry a good SSH or OpenPGP signature by a key
that the keyring **as it stood at the merge-base** binds to the identity the
act names: an allowed-signers line whose principal is exactly that identity's
``<email>``, or a ``[gpg]`` fingerprint listed for that holder. Only git's ``G`` is good.
The keyring's ``valid-after``, ``valid-before`` and ``namespaces`` are honoured
twice: git checks them at the commit's date (it passes ``-Overify-time`` to
ssh-keygen), and the lines unusable **now** are blanked from the copy git is
handed (keyring.py's ``usable_text``) and refused by name — a committer date is
the signer's to set, so a backdated commit by an expired key signs nothing new.
Acts already present at the merge-base are not in the range: never judged again.
That identity's authority over the paths is range.py's ``authority`` rule. A
key added in the range is not trusted in it; a key removed before the
merge-base signs nothing new, while acts judged before it stay as they are.

Under ``required`` a problem is a fault (``unsigned``, ``signer``,
``signers-mixed``); under ``warn`` the same finding is a warning.

Stores: nothing.
Refuses, under ``required`` (under ``warn``: one ``signing-setup`` warning):
a malformed keyring or one missing at the merge-base (KeyringError), a
missing ``ssh-keygen``/``gpg`` (SignatureToolMissing), a shallow clone
(ShallowClone) — never a pass by default.
Returns: ``SigningVerdict`` (faults and warnings naming the commit, the act,
the signer claimed and the key found, never a body).
Test: tests/gate/test_signing.py
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from forest_files import gitio
from forest_files.custody.config import CONFIG_NAME, ForestConfig
from forest_files.custody.keyring import KeyringError, SignerKey, parse_keyring, usable_text
from forest_files.custody.signers import SigningSettings, mode_for, strictest
from forest_files.gate.signing.brought import acts_brought
from forest_files.gate.signing.verdicts import Problem, mixed_detail, problem_of
from forest_files.gitio.signatures import (
    CommitSignature,
    SignatureToolMissing,
    commit_signatures,
)
from forest_files.ledger.acts import Act
from forest_files.ledger.segments import LedgerSnapshot
from forest_files.ledger.verify import Fault

SIGNING_CODES = frozenset({"unsigned", "signer", "signers-mixed"})


def _shallow(root: Path) -> gitio.ShallowClone:
    """The refusal of a shallow clone, its ``git fetch`` reached from where ``forest
    ci`` was typed (gitio's ``full_history``, built when the refusal is)."""
    return gitio.ShallowClone(
        f"{root}: the clone is shallow, so which commit brought each act, and its "
        f"signature, cannot be judged; {gitio.full_history()}"
    )


@dataclass(frozen=True)
class SigningVerdict:
    faults: tuple[Fault, ...] = ()
    warnings: tuple[Fault, ...] = ()


@dataclass(frozen=True)
class _Range:
    root: Path
    base: str
    head: str
    settings: SigningSettings
    snapshot: LedgerSnapshot
    now: float  # the time of the check: what the keyring's validity is judged at


def act_mode(settings: SigningSettings, paths: frozenset[str]) -> str:
    """The strictest mode over the act's bound paths; an act tied to no path is judged
    as a path only ``**`` matches (its ``[signing]`` rule, else ``signed``)."""
    if not paths:
        return mode_for(settings, None)
    return strictest(mode_for(settings, p) for p in paths)


def judge_signatures(
    root: Path,
    base: str,
    head: str,
    acts: list[Act],
    paths: Mapping[str, frozenset[str]],
    cfg: ForestConfig,
    snapshot: LedgerSnapshot,
) -> SigningVerdict:
    """Faults and warnings of the range's new ``acts`` (see the module docstring)."""
    settings = cfg.signing
    if not settings.active:
        return SigningVerdict()
    modes = {a.id: act_mode(settings, paths.get(a.id, frozenset())) for a in acts}
    live = {a.id: a for a in acts if modes[a.id] != "off"}
    if not live:
        return SigningVerdict()
    at = _Range(root, base, head, settings, snapshot, time.time())
    try:
        return _judge(at, live, modes)
    except (KeyringError, SignatureToolMissing, gitio.ShallowClone) as exc:
        if "required" in (modes[a] for a in live):
            raise
        detail = f'{exc}; signatures were not judged (signing is "warn" here)'
        return SigningVerdict(warnings=(Fault("signing-setup", None, None, None, detail),))


def judge_governance(
    root: Path, base: str, governed: Mapping[str, str], cfg: ForestConfig
) -> SigningVerdict:
    """Under signing, a commit that changes forest.toml's governed tables or the
    keyring (``governed``: commit -> its author, a holder of ``**``) must carry a
    good signature by a key the merge-base keyring binds to that author: a typed
    author name is a claim, like an act's signer. ``config-governance`` faults
    (warnings under ``warn``)."""
    settings = cfg.signing
    mode = strictest([settings.signed, *(r.mode for r in settings.rules)])
    if mode == "off" or not governed:
        return SigningVerdict()
    try:
        if gitio.is_shallow(root):
            raise _shallow(root)
        text = keyring_text(root, base, settings)
        keys = parse_keyring(text, f"{settings.allowed_signers} at merge-base {base[:12]}")
        now = time.time()
        sigs = commit_signatures(root, list(governed), allowed_signers=usable_text(text, keys, now))
    except (KeyringError, SignatureToolMissing, gitio.ShallowClone) as exc:
        if mode == "required":
            raise
        detail = f'{exc}; governance signatures were not judged (signing is "warn" here)'
        return SigningVerdict(warnings=(Fault("signing-setup", None, None, None, detail),))
    out: list[Fault] = []
    for commit, author in governed.items():
        problem = problem_of(sigs[commit], author, keys, settings.gpg, now)
        if problem is None:
            continue
        detail = (
            f"commit {commit[:12]} changes forest.toml's governed tables or the keyring as "
            f"{author}, and signing is {mode}: {problem.text} (key found: {problem.key}); "
            f"{problem.fix}"
        )
        out.append(Fault("config-governance", None, None, None, detail, CONFIG_NAME, commit=commit))
    return SigningVerdict(tuple(out)) if mode == "required" else SigningVerdict(warnings=tuple(out))


def keyring_text(root: Path, commit: str, settings: SigningSettings) -> str:
    """The allowed-signers file named by ``settings`` as committed at ``commit``
    ("" when only ``[gpg]`` keys are configured)."""
    path = settings.allowed_signers
    if path is None:
        return ""
    entries = [e for e in gitio.ls_tree(root, commit, path) if e.path == path]
    if not entries or entries[0].type != "blob":
        raise KeyringError(
            f"forest.toml names the keyring {path}, but commit {commit[:12]} (the "
            "merge-base) holds no such file; commit it, in a change of its own, first"
        )
    raw = gitio.cat_blobs(root, [entries[0].blob])[entries[0].blob]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise KeyringError(f"{path} at {commit[:12]}: not UTF-8; save it as UTF-8") from None


def _judge(at: _Range, live: Mapping[str, Act], modes: Mapping[str, str]) -> SigningVerdict:
    if gitio.is_shallow(at.root):
        raise _shallow(at.root)
    text = keyring_text(at.root, at.base, at.settings)
    keys = parse_keyring(text, f"{at.settings.allowed_signers} at merge-base {at.base[:12]}")
    brought = acts_brought(at.root, at.base, at.head, live.keys())
    signers = usable_text(text, keys, at.now)
    sigs = commit_signatures(at.root, brought.commits(), allowed_signers=signers)
    faults: list[Fault] = []
    warnings: list[Fault] = []

    def route(mode: str, fault: Fault) -> None:
        (faults if mode == "required" else warnings).append(fault)

    for commit, ids in brought.by_commit:
        for mode, fault in _judge_commit(at, commit, [live[i] for i in ids], modes, sigs, keys):
            route(mode, fault)
    for act_id in brought.unbrought(live):
        act = live[act_id]
        gone = Problem(
            "unsigned",
            "no commit of the range adds a segment holding it",
            "none",
            "restore the ledger files as committed and re-run",
        )
        route(modes[act_id], _fault("unsigned", at, act, _detail("-", act, gone, at)))
    return SigningVerdict(tuple(faults), tuple(warnings))


def _judge_commit(
    at: _Range,
    commit: str,
    acts: list[Act],
    modes: Mapping[str, str],
    sigs: Mapping[str, CommitSignature],
    keys: tuple[SignerKey, ...],
) -> list[tuple[str, Fault]]:
    """(mode, fault) for each problem of one commit's acts."""
    signers = sorted({a.payload.signer for a in acts})
    if len(signers) > 1:
        mode = strictest(modes[a.id] for a in acts)
        return [(mode, _fault("signers-mixed", at, acts[0], mixed_detail(commit, signers)))]
    out: list[tuple[str, Fault]] = []
    for act in acts:
        problem = problem_of(sigs[commit], act.payload.signer, keys, at.settings.gpg, at.now)
        if problem is not None:
            detail = _detail(commit, act, problem, at)
            out.append((modes[act.id], _fault(problem.code, at, act, detail)))
    return out


def _detail(commit: str, act: Act, problem: Problem, at: _Range) -> str:
    return (
        f"commit {commit[:12]} brings act {act.id[:12]} ({act.kind}) claiming "
        f"{act.payload.signer}; key found: {problem.key}; {problem.text} (keyring at "
        f"merge-base {at.base[:12]}); fix: {problem.fix}"
    )


def _fault(code: str, at: _Range, act: Act, detail: str) -> Fault:
    origin = at.snapshot.origin(act.id) if act.id in at.snapshot.found_in else None
    return Fault(code, origin, None, act.id, detail)

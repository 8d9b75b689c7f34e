"""A body a commit's ledger lacks because a later forget erased it and history was rewritten.

After ``forest forget``, its route rewrites history (governance/forget_rewrite.py):
``git filter-repo --invert-paths`` takes the body file out of every commit, those
before the forget's too. Their ledgers still name the body and hold no erase act, so
they do not replay (``body-missing``, exit 3). That stays a fault: such a commit's own
ledger no longer rebuilds its ground, and every commit is judged by its own. What
changes is what it says. When an erase act of HEAD's ledger names that body, its
signer held authority over every path its applier touched in forest.toml as it stood
at the parent of the commit that brought it (the gate's rule, with that parent as the
merge-base), and the run judging it refused it for nothing, the fault names the act,
its signer and that commit, and the door routes past the rewrite: ``forest ci --base
C``, ``forest check --rev C``. A body no erase act of HEAD's ledger names, or one only
an act its signer held no authority for names, keeps the old words.

Stores: nothing.
Refuses: nothing (what cannot be judged explains nothing).
Returns: ``erased_later``: an ``ErasedLater`` or None; ``missing_body``: the body hash a
``body-missing`` refusal names.
Test: tests/gate/test_ci_erased_later.py
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from forest_files import gitio
from forest_files.custody.config import ConfigError, ForestConfig, may_act, parse_config_text
from forest_files.custody.sources import config_text_from, segments_at
from forest_files.kernel.errors import ForestError
from forest_files.ledger.acts import Act
from forest_files.ledger.kinds import EraseAct

# The words of a replay's refusal (custody/apply_rules.py) and of verify's fault.
_MISSING = re.compile(r"\bbody ([0-9a-f]{64})( of act [0-9a-f]{64})? is missing\b")


@dataclass(frozen=True)
class ErasedLater:
    act_id: str
    by: str
    commit: str  # the commit that brought the erase act

    def said(self) -> str:
        c = self.commit[:12]
        return (
            f"erase act {self.act_id[:12]} (forest forget, by {self.by}), brought by commit "
            f"{c}, erased this body, and history was rewritten after it to take the body "
            f"out of the commits before {c} too: their own ledgers no longer rebuild; "
            f"{c}'s and later ones do"
        )


def missing_body(code: str, reason: str) -> str | None:
    """The body hash a ``body-missing`` refusal or fault names, else None."""
    found = _MISSING.search(reason) if code == "body-missing" else None
    return None if found is None else found.group(1)


def erased_later(
    top: Path, at: str, head: str, body_hash: str, refused: Collection[str] = ()
) -> ErasedLater | None:
    """The erase act of ``head``'s ledger, brought by a commit of ``at..head``, that
    erased ``body_hash`` with its signer's authority (see module); ``refused``: act ids
    the caller's run refused. None when there is none, or it cannot be judged."""
    try:
        acts = segments_at(top, head, strict=False).acts.values()
        erases = sorted(
            (a for a in acts if a.id not in refused and _erases(a, body_hash)), key=lambda a: a.id
        )
        if not erases:
            return None
        from forest_files.gate.signing.brought import acts_brought

        brought = acts_brought(top, at, head, {a.id for a in erases}).by_commit
        for act in erases:
            commit = next((c for c, ids in brought if act.id in ids), None)
            if commit is not None and _held(top, act, commit, head):
                return ErasedLater(act.id, act.payload.signer, commit)
    except (ForestError, ConfigError, OSError):
        return None
    return None


def _erases(act: Act, body_hash: str) -> bool:
    return isinstance(act.payload, EraseAct) and act.payload.body_hash == body_hash


def _held(top: Path, act: Act, commit: str, head: str) -> bool:
    """Whether ``act``'s signer held every path it touched at ``commit``'s parent."""
    from forest_files.gate.range import head_paths

    parents = dict(gitio.range_parents(top, f"{commit}^!")).get(commit, ())
    text = config_text_from(top, parents[0]) if parents else None
    cfg = ForestConfig(project_id="-") if text is None else parse_config_text(text, "forest.toml")
    touched = head_paths(top, head, [act.id]).get(act.id, frozenset())
    paths: list[str | None] = [*sorted(touched)] or [None]  # None: an act tied to no path
    return all(may_act(cfg, path, act.payload.signer) for path in paths)

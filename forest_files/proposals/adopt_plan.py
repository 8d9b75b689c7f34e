"""Whether a proposal's text can be written into its section: judged before any byte moves.

proposals/adopt.py writes the proposed text into the section when the file no longer
holds it; this plans that write (``custody.restore_rewrite.plan_rewrite``) and refuses,
in the proposal's own words, what must not be written.
Stores: nothing.
Refuses: a text that would not stand as the section once written in (its heading dropped
or renamed, a heading inside it ending the section), naming the discard and the edit by
hand; a text that would remove another bound section standing in the section's lines now
(custody/restore_nested.py), naming it, the discard and its retire; a section an edit in
the file made hide the sections after it, or cut short (custody/restore_swallowed.py,
restore_cut_short.py), naming the edit and the discard; a file or body over
``[policy] max_body_bytes``.
Returns: ``plan_written_in`` the planned rewrite (None: nothing to write);
``within_bounds`` nothing (it refuses); ``removes_refusal`` the refusal of a text that
would remove a bound section.
Test: tests/proposals/test_adopt.py, tests/proposals/test_adopt_nested.py,
tests/proposals/test_adopt_swallowed.py
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from forest_files.kernel.errors import ForestError
from forest_files.kernel.shellword import forest_text

if TYPE_CHECKING:
    from forest_files.custody.bindings import Binding
    from forest_files.custody.proposals import Proposal
    from forest_files.custody.repository import Repository
    from forest_files.custody.restore import RemovesBound
    from forest_files.custody.restore_rewrite import Rewrite


def plan_written_in(
    repo: Repository, binding: Binding, proposal: Proposal, beside: list[Binding]
) -> Rewrite | None:
    """``plan_rewrite`` of the proposed text, refused in the proposal's own words when
    the text would not stand as the section once written in (its heading dropped,
    renamed or moved to another level, or a heading inside it that ends the section:
    an agent's text, never checked against the file), or would remove a section of
    ``beside`` (the file's other bindings) that stands in its lines now, or when an
    edit of the file's hides the sections after the section or cuts it short."""
    from forest_files.custody.restore import Bound, RemovesBound, WouldNotStand
    from forest_files.custody.restore_cut_short import CutShort
    from forest_files.custody.restore_rewrite import plan_rewrite
    from forest_files.custody.restore_swallowed import Swallowed

    assert proposal.text is not None  # an open proposal holds its text
    bound = [Bound(b.selector, b.excludes) for b in beside]
    try:
        return plan_rewrite(
            repo.root,
            binding.path,
            binding.selector,
            binding.excludes,
            proposal.text,
            bound=bound,
        )
    except RemovesBound as exc:
        raise removes_refusal(proposal, exc) from None
    except (Swallowed, CutShort) as exc:  # an edit of the file's, not of the text's
        discard = forest_text("proposal", "discard", proposal.id)
        raise ForestError(f"{exc.said(proposal.id)}, or discard it (`{discard}`)") from None
    except WouldNotStand:
        discard = forest_text("proposal", "discard", proposal.id)
        supersede = forest_text("supersede", binding.selector, options=("--words", "…"))
        raise ForestError(
            f"proposal {proposal.id}: its text would not stand as {binding.selector} "
            "(written in, the section would not read back as it: a heading dropped, "
            "renamed or at another level, or one inside it that ends the section); "
            f"nothing was written — discard it (`{discard}`), or edit the file by hand "
            f"and `{supersede}`"
        ) from None


def removes_refusal(proposal: Proposal, exc: RemovesBound) -> ForestError:
    """The proposed text lacks a bound section that stands in the section's lines now
    (a subsection its ground holds, a heading demoted into it): adopted, that bound
    text would be deleted unasked."""
    gone = exc.removed[0][0]
    discard = forest_text("proposal", "discard", proposal.id)
    retire = forest_text("retire", gone, options=("--words", "…"))
    return ForestError(
        f"proposal {proposal.id}: its text, written into {exc.target}, would remove "
        f"{exc.named}; nothing was written — "
        f"discard it (`{discard}`), or, if that section is to go, retire it first "
        f"(`{retire}`), then adopt again"
    )


def within_bounds(repo: Repository, plan: Rewrite, text: str, words: str) -> None:
    """``[policy] max_body_bytes`` as reading and recording judge it, before the write."""
    from forest_files.custody.recording import within_policy

    limit = repo.config.max_body_bytes
    if len(plan.after) > limit:
        raise ForestError(
            f"{plan.path}: {len(plan.after)} bytes with the proposed text is over the bound "
            f"of {limit} ([policy] max_body_bytes in forest.toml); nothing was written"
        )
    within_policy(repo.config, {"text": text, "words": words.strip()})


__all__ = ["plan_written_in", "removes_refusal", "within_bounds"]

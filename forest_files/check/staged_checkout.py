"""A staged ``.gitattributes`` that makes git rewrite bound files on checkout, judged by
the pre-commit hook and ``forest check --staged`` (check/staged.py).

Stores: nothing.
Refuses: nothing.
Returns: ``rewritten_on_checkout``: a finding for each bound file of the staged ledger
that a staged rules file makes git rewrite on checkout (checkout_rewrite.py).
Test: tests/check/test_checkout_rewrite.py, tests/check/test_checkout_rewrite_commit.py
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from forest_files.check.engine import Finding
    from forest_files.check.findings import CheckReport


def rewritten_on_checkout(
    root: Path, source: str, touched: set[str], report: CheckReport
) -> list[Finding]:
    """The staged ledger's bound files a staged ``.gitattributes`` makes git rewrite on
    checkout (checkout_rewrite.py); asked of git only when such a file is staged, and
    only for the bound paths under its directory (but those whose staged blob the
    same rule converted: that finding says so already) that a ``.gitattributes`` the
    index holds above them ``can_set`` a rewrite for (checkout_rewrite.py ``settable``:
    one listing of those files; a staged file that only unsets, or sets ``eol``, asks
    git nothing more). ``source``: the findings' source (check/staged.py's ``SOURCE``)."""
    from forest_files.check import checkout_rewrite

    if not any(checkout_rewrite.is_rules(p) for p in touched):
        return []  # the common commit: nothing asked
    from forest_files.check.opening import open_custody

    with open_custody(root, source, keep_index_file=True) as custody:
        bound = {b.path for b in custody.bindings if not b.retired}
    said = {r.path for r in report.items} - checkout_rewrite.judged_paths(
        r.finding for r in report.items
    )
    paths = checkout_rewrite.changed_rules(bound - said, touched)
    if paths:  # only those some .gitattributes above can set a rewrite for: git asked of them
        from forest_files.custody.content import GitTreeSource

        rules = tuple(checkout_rewrite.rules_above(paths))
        held = GitTreeSource(root, None, keep_index_file=True, only=rules)
        listed = held.entries_at(rules)  # None: not listed, each taken as one that can set
        named = rules if listed is None else sorted({e.path for e in listed})
        paths = checkout_rewrite.settable(paths, named, held)
    return checkout_rewrite.findings(root, source, paths, keep_index_file=True)


__all__ = ["rewritten_on_checkout"]

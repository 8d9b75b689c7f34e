"""What a refused selector is: its error types, and the valid selectors it shows.

Stores: nothing.
Refuses: nothing itself; selector.py, selector_pick.py and the resolvers raise these.
Returns: ``SelectorError`` (malformed, unsafe, or not one section; ``problem`` the
words without ``EXAMPLES``), ``SectionNotFound`` (well formed, matching nothing),
``AmbiguousSelector`` (several matches, ``candidates`` their full selectors);
``refuse(what)``, a ``SelectorError`` saying ``what`` then ``EXAMPLES``.
Test: tests/text/test_selectors.py, tests/text/test_selector_rules.py
"""

from __future__ import annotations

from collections.abc import Sequence

from forest_files.kernel.errors import ForestError

EXAMPLES = (
    "valid selectors: 'docs/adr.md' (whole file), 'docs/adr.md#Decision/Status' "
    "(heading path, or any unique tail such as '#Status'), 'docs/adr.md#Notes[2]' "
    "(the 2nd of duplicate headings), 'docs/adr.md#{status}' (the heading with id "
    "'status', which survives a retitle), 'src/pay.py::Invoice.total' (Python symbol), "
    "'notes/ch3.md@treaty' (region between forest:begin/forest:end markers)"
)


class SelectorError(ForestError):
    """A selector is malformed, unsafe, or does not pick exactly one section;
    ``problem`` says what without ``EXAMPLES`` (a ledger's or a tool's: never typed)."""

    def __init__(self, message: str, problem: str | None = None) -> None:
        super().__init__(message)
        self.problem = message if problem is None else problem


class SectionNotFound(SelectorError):
    """The selector is well formed but matches nothing in the file."""


class AmbiguousSelector(SelectorError):
    """The selector matches several sections; ``candidates`` lists full selectors."""

    def __init__(self, message: str, candidates: Sequence[str]) -> None:
        self.candidates = tuple(candidates)
        super().__init__(message)


def refuse(what: str) -> SelectorError:
    return SelectorError(f"{what}; {EXAMPLES}", what)

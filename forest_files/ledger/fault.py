"""The ledger's refusal and its id rule: what every module of the format refuses with.

Kept apart from the codec (``acts``) and the typed kinds (``kinds``) so both import it
and neither imports the other's module to refuse a line.

Stores: nothing.
Refuses: nothing itself.
Returns: ``LedgerError``; ``is_hex64`` (an act id, content id or body hash);
``body_unhashed`` (how a body file that does not hash to its name is said);
``place`` (where in the ledger a fault lies, said only as far as it is known).
Test: tests/ledger/test_ledger_codec.py
"""

from __future__ import annotations

import re

from forest_files.kernel.errors import StoreCorruption

_HEX64 = re.compile(r"[0-9a-f]{64}")
HEX64_MATCH = _HEX64.fullmatch  # bound once: a ledger's decode asks it ~10 times an act


# A segment whose bytes with CRLF line ends hash to another name than their LF ones
# do to its own: git converted it as it checked it out (ledger/segments.py).
CRLF_CHECKOUT = "crlf-checkout"
# A segment file that is a symlink (ledger/segment_files.py ``linked_segment``): a door
# that knows git names the removal verify gives it when a commit carried it
# (custody/ledger_links.py).
LINKED = "linked"


def body_unhashed(body_hash: str) -> str:
    """How a body file that does not hash to its name is said, before any cause."""
    return f"body file {body_hash} does not hash to its name"


def place(segment: str | None, line: int | None) -> str:
    """``segment S line N``, each part only when known ("" when neither is): a fault
    the replay found in a segment without a line, or in no segment, is never said at
    ``line -``."""
    where = [f"segment {segment}"] if segment is not None else []
    return " ".join(where + ([f"line {line}"] if line is not None else []))


def is_hex64(value: object) -> bool:
    """True for a lowercase 64-digit hex string (an act id or a body hash)."""
    return isinstance(value, str) and len(value) == 64 and HEX64_MATCH(value) is not None


class LedgerError(StoreCorruption):
    """A ledger file is damaged, forged or from a newer format. Fail closed.

    ``code`` is one of the fault codes of ``forest_files.ledger.verify``. ``source``
    says which ledger was read when it is not the working tree's: ``"index"`` (git's
    index) or the commit named; set by whoever read it from git (custody/viewbuild.py).
    ``cause``: what is known of why (``CRLF_CHECKOUT``: a segment git converted as it
    checked it out; ``LINKED``: a segment file that is a symlink); ``body``: the body
    hash of a body file at fault. A door that says more (the rule and its fix,
    custody/ledger_conversion.py; a link's removal, custody/ledger_links.py) reads
    these, not the words.
    """

    source: str | None = None

    def __init__(
        self,
        reason: str,
        *,
        segment: str | None = None,
        line: int | None = None,
        act_id: str | None = None,
        code: str = "malformed",
        cause: str | None = None,
        body: str | None = None,
    ) -> None:
        where = place(segment, line)
        message = f"ledger {where}: {reason}" if where else f"ledger: {reason}"
        super().__init__(message)
        self.reason = reason
        self.segment = segment
        self.line = line
        self.act_id = act_id
        self.code = code
        self.cause = cause
        self.body = body

    def reworded(self, reason: str) -> LedgerError:
        """The same fault (where, code, cause, body, source) said with ``reason``."""
        said = LedgerError(
            reason,
            segment=self.segment,
            line=self.line,
            act_id=self.act_id,
            code=self.code,
            cause=self.cause,
            body=self.body,
        )
        said.source = self.source
        return said

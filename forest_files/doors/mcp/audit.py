"""What the MCP door puts in the audit log: one body-free record per call.

Stores: through custody/auditlog.py, one record per tool call or resource read:
the actor (the caller-supplied signature, escaped as kernel/shellword.py's
``printable`` shows it, else ``mcp``), an outcome (``ok``, ``found``, ``refused``),
the reason ``mcp-<tool>`` (or, refused, ``mcp-<tool>-<error code>``), the ids,
selectors and hashes the call named or answered (escaped by the audit log),
integer counts. Never a text, a query, a reason or an error message.
Refuses: nothing. Best effort (auditlog.append_events): recording never changes
a call's answer.
Returns: whether a record was written.
Test: tests/doors/test_mcp_server.py

Every call is logged under the ``mcp`` action (audit schema version 3,
custody/auditsql.py), its reason naming the tool.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from forest_files.doors.mcp.session import Session

_MAX_TARGET = 512


def _target(value: str) -> str:
    return value[:_MAX_TARGET]  # the audit log escapes what it would not show


def _actor(claimed: str | None) -> str:
    """The signature a call claimed, escaped (the audit log refuses an unprintable
    actor; a refused call's claim may hold one, and its record is still kept)."""
    from forest_files.kernel.shellword import printable

    return printable(claimed or "mcp")[:256] or "mcp"


def record_call(
    session: Session,
    tool: str,
    outcome: str,
    *,
    actor: str | None = None,
    targets: Iterable[str] = (),
    counts: Mapping[str, int] | None = None,
    code: str | None = None,
) -> bool:
    """One call of ``tool`` (``code``: the refusal's fixed code)."""
    try:
        from forest_files.custody.auditlog import Event

        reason = f"mcp-{tool.replace('_', '-')}" + (f"-{code}" if code else "")
        event = Event(
            "mcp",
            outcome,
            reason[:64],
            actor=_actor(actor),
            targets=tuple(_target(t) for t in targets if t),
            counts=dict(counts or {}),
        )
        session.audit().append([event], head=session.head())
        return True
    except Exception:  # best effort: never the call's answer (see the module)
        return False

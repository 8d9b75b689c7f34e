"""A push's refusal as the server hooks print it: each ref's, the notes said once, the way out last.

The pushed refs are judged one by one (server.py ``judge``); what each refusal
printed decides the push's words: the one refusal line naming the refused refs,
each note once (a warning that refuses nothing, e.g. signing under "warn", however
many refs share it, an accepted ref's too), then each refused ref with its findings,
then one line on how to fix it, worded by what was printed (``closing``: the routes
only when a finding printed one). A push accepted says its notes once.

Stores: nothing.
Refuses: nothing (it words a refusal server.py decided).
Returns: ``Refusal`` (one ref's), ``closing``, ``refusal_lines`` (in every hook's one
order, check/text.py ``in_hook_order``), ``accepted_lines``.
Test: tests/doors/test_server_hook.py
"""

from __future__ import annotations

from dataclasses import dataclass

from forest_files.check.text import in_hook_order

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable


REFUSED = "forest: push refused"
# The closing line, worded by what the refusal printed (``closing``).
_ROUTED = "in your clone follow the routes above"
_UNROUTED = "fix what the `forest ci` named above lists"
_ON_SERVER = (
    "the server's ledger was damaged before this push: its administrator repairs it "
    "there (the `git -C` above shows it); pushing again cannot"
)
_KEEP_BRANCH = (
    "keep the branch: deleting it drops the acts its ledger holds, and the ledger only grows"
)


@dataclass(frozen=True)
class Refusal:
    """One ref's refusal as printed (its findings, under the ref's name), the notes it
    says (once per push: ``refusal_lines``) and what its findings offer (``closing``)."""

    lines: tuple[str, ...] = ()  # none: the ref is accepted (its notes still said)
    ref: str = ""
    notes: tuple[str, ...] = ()  # warnings that refuse nothing
    routed: bool = False  # a finding printed with a route
    unrouted: bool = False  # one the push brought printed without (not a deleted branch's)
    deleted: bool = False  # a deleted branch whose ledger held acts
    on_server: bool = False  # a ledger fault without a route the server held before the push


def closing(refusals: Iterable[Refusal]) -> str:
    """The push's last line, worded by what was printed above it: the routes only when
    a finding printed one."""
    shown = [r for r in refusals if r.lines]
    ways = [_ROUTED] if any(r.routed for r in shown) else []
    ways += [_UNROUTED] if any(r.unrouted for r in shown) else []
    parts = [f"{' and '.join(ways)}, then push again"] if ways else []
    parts += [_KEEP_BRANCH] if any(r.deleted for r in shown) else []
    parts += [_ON_SERVER] if any(r.on_server for r in shown) else []
    return "; ".join(parts)


def refusal_lines(refusals: Iterable[Refusal]) -> list[str]:
    """The push's refusal in every hook's one order: the refusal line naming the refused
    refs, each note once, each ref's findings, the way out last; none when every ref is
    accepted. The notes are every ref's, an accepted one's too: the whole push is
    refused, so nothing it would have said on landing is lost."""
    refusals = list(refusals)
    shown = [r for r in refusals if r.lines]
    if not shown:
        return []
    refs = f"{len(shown)} ref{'s' if len(shown) > 1 else ''}: {', '.join(r.ref for r in shown)}"
    body = [line for r in shown for line in (f"{r.ref}:", *r.lines)]
    last = closing(shown)
    return in_hook_order(
        f"{REFUSED} — {refs}",
        (note for r in refusals for note in r.notes),
        [*body, last] if last else body,
    )


def accepted_lines(refusals: Iterable[Refusal]) -> list[str]:
    """What an accepted push says: each note once (a warning that refuses nothing, in
    ``forest ci``'s words), none when there is nothing to say or a ref is refused
    (``refusal_lines`` says the notes then)."""
    refusals = list(refusals)
    if any(r.lines for r in refusals):
        return []
    return list(dict.fromkeys(note for r in refusals for note in r.notes))

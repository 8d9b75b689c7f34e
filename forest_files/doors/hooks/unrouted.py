"""What a server hook's refusal says of a finding printed without a route.

The refusal is read by the pusher, in their clone: each command it names works
pasted there, or says it is for the server.

* a finding the push brought is fixed in the pusher's clone: ``forest ci --base
  SINCE`` there lists each finding with its detail and route, SINCE the commit the
  hook judged the ref from (the merge-base of OLD and NEW, which is OLD for a
  fast-forward; for a new ref its merge-base with the default branch; NEW's root
  when it shares no history with it; no ``--base`` when NEW is that root): an
  ancestor of NEW, so the clone holds it;
* a ledger fault the server's own ledger held before the push (OLD's, or for a new
  ref the default branch's: pushed before the hook was installed, or past it) is
  not the pusher's to fix, and pushing again cannot: the refusal says so, and names
  for the server's administrator ``git -C BARE show OLD:PATH``, which shows each
  damaged ledger file as the server holds it.

Stores: nothing.
Refuses: nothing.
Returns: ``WayOut``: the lines printed under the ref's findings, and which kinds of
finding without a route it has (``closing`` in server.py words the last line by them).
Test: tests/doors/test_server_hook_unrouted.py
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from forest_files.check.findings import Reported
from forest_files.kernel.shellword import for_bash, forest_text, shell_word

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable


@dataclass(frozen=True)
class WayOut:
    """The lines a ref's refusal prints for its findings without a route."""

    lines: tuple[str, ...] = ()
    pushed: bool = False  # a finding without a route the push brought
    on_server: bool = False  # a ledger fault the server's ledger held before the push


def _key(r: Reported) -> tuple[str, str, int | None, str]:
    f = r.finding
    return f.kind, f.path, f.start_line, f.detail


def _held_before(top: Path, server: str) -> set[tuple[str, str, int | None, str]]:
    """The ledger faults of the server's commit ``server``, as the gate reports them."""
    from forest_files.gate.head_faults import from_fault, verify_head

    faults, _ = verify_head(top, server)
    return {_key(from_fault(fault, "ledger-fault")) for fault in faults}


def way_out(
    top: Path, found: Iterable[Reported], *, since: str | None, server: str | None
) -> WayOut:
    """``found`` (a ref's findings) without a route: the pusher's (``forest ci --base
    SINCE`` in their clone) and those the server's ledger at ``server`` held already
    (for its administrator); none when every finding has a route."""
    bare = [r for r in found if not r.routes]
    if not bare:
        return WayOut()
    held = _held_before(top, server) if server is not None else set()
    old = [r for r in bare if r.kind == "ledger-fault" and _key(r) in held]
    pushed = [r for r in bare if not (r.kind == "ledger-fault" and _key(r) in held)]
    lines: list[str] = []
    if pushed:
        ci = forest_text("ci", options=("--base", since) if since else ())
        lines.append(
            f"without a route: in your clone `{ci}` lists each finding with its detail and "
            "route; fix what it says there"
        )
    if old and server is not None:
        lines.append(
            f"already on the server before this push: the ledger of {server[:12]} there "
            "holds this damage, so pushing again cannot fix it; for the server's "
            "administrator, on the server:"
        )
        paths = dict.fromkeys(r.path for r in old)
        lines += [f"  {_show(top, server, path)}" for path in paths]
    return WayOut(tuple(lines), pushed=bool(pushed), on_server=bool(old))


def _show(top: Path, server: str, path: str) -> str:
    """``git -C BARE show SERVER:PATH``: the damaged file as the server holds it (its
    words quoted, never reached from where a pusher stands: it runs on the server)."""
    step = ("git", "-C", str(top), "show", f"{server}:{path}")
    return for_bash(" ".join(map(shell_word, step)))  # a server folder not UTF-8 too

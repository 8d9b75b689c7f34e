"""What the MCP ``propose`` tool judges of its arguments alone, before any ground is
read or anything kept; and ``ToolRefused``, the one refusal every tool raises.

Stores: nothing.
Refuses (``ToolRefused``, one line, never a body): a placeholder signature, a
signature or reason that is not one line (a line break, a C0 or C1 control,
U+2028/U+2029: each would forge a line where a person reads it), a C1 control,
U+2028/U+2029 or a bidirectional control in the text, a section whose heading holds one
(each proposal must keep its heading line and may not carry it: a person's command is
named), a signature naming a holder of
forest.toml's ``[authority]`` (an agent is not one), a text that written into the file
would not read back as the section, or would remove another bound section that
stands in its lines now (no person could adopt it).
Returns: ``claim`` the stripped signature and reason; ``normalised`` the text as a
section is read; ``not_a_holder``, ``carriable`` and ``stands`` nothing (they refuse
or pass).
Test: tests/doors/test_mcp_tools.py, tests/doors/test_mcp_server.py
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from forest_files.kernel.errors import ForestError

if TYPE_CHECKING:
    from forest_files.custody.bindings import Binding
    from forest_files.custody.config import ForestConfig
    from forest_files.doors.mcp import schemas as s
    from forest_files.doors.mcp.session import Session


class ToolRefused(ForestError):
    """A tool call the server will not answer (the message says why and what to do)."""


# Characters of a refusal's text a client gets (server.py ``one_line``): a refusal
# naming a person's commands (contested.py) fits them whole or names ``forest check``.
LINE_CHARS = 1000


def claim(args: s.ProposeIn) -> tuple[str, str]:
    """The signature and reason, stripped, each one line within its bound and the
    signature no placeholder."""
    from forest_files.kernel.bounds import MAX_PROPOSED_CHARS, BoundsRefused, check_text
    from forest_files.praise import placeholder_signature

    try:
        signature = _one_line(
            "signature", check_text("signature", args.signature.strip(), MAX_PROPOSED_CHARS)
        )
        reason = _one_line("reason", check_text("reason", args.reason.strip(), MAX_PROPOSED_CHARS))
    except BoundsRefused as exc:
        raise ToolRefused(str(exc)) from None
    if placeholder_signature(signature) is not None:
        raise ToolRefused("signature is a placeholder; give who proposes, e.g. 'Name <email>'")
    return signature, reason


def stands(session: Session, b: Binding, text: str) -> None:
    """Refused: a text that, written into the file as it is now, would not read back as
    the section (its heading dropped or renamed, a heading inside it ending it): no
    person could adopt it. Anything else the file says now (gone, in a conflict, the
    section not found) is judged again when a person adopts, so it refuses nothing."""
    from forest_files.custody.restore import Bound, RemovesBound, WouldNotStand
    from forest_files.custody.restore_rewrite import plan_rewrite

    bound = [Bound(o.selector, o.excludes) for o in session.bindings() if o.path == b.path]
    try:
        plan_rewrite(session.root, b.path, b.selector, b.excludes, text, bound=bound)
    except RemovesBound as exc:
        raise ToolRefused(
            f"{b.bind_act}: written into the file, this text would remove {exc.named}; "
            "keep that section in the text, as the file holds it (a person may retire "
            "its binding first)"
        ) from None
    except WouldNotStand:
        raise ToolRefused(
            f"{b.bind_act}: written into the file, this text would not read back as the "
            "section; keep its heading line as read_ground gives it, and add no heading "
            "that would end it"
        ) from None
    except (ForestError, OSError):
        pass


def carriable(b: Binding) -> None:
    """Refused: a section whose heading (in its selector) holds what no proposed text
    may (``normalised``: a bidirectional control, a C1 control, U+2028/U+2029, a
    character shown as nothing): the text must keep that heading line (``stands``), so
    no proposal for it can be kept. A person records the section's text instead, or
    renames the heading first; the refusal names the command, pasteable."""
    from forest_files.kernel.shellword import forest_text, printable
    from forest_files.text.codespan import code_span

    named = b.selector[len(b.path) :] if b.selector.startswith(b.path) else b.selector
    if printable(named) == named:
        return
    supersede = code_span(forest_text("supersede", b.selector, options=("--words", "…")))
    raise ToolRefused(
        f"{b.bind_act}: the section's heading ({printable(named)}) holds a character no "
        "proposed text may carry (a bidirectional control, a C1 control, U+2028/U+2029 or "
        "one shown as nothing), and a proposal must keep its heading line, so none can be "
        f"kept for it; a person edits the section and records it: {supersede}, "
        "or renames the heading first (forest check then names the rebind)"
    )


def not_a_holder(config: ForestConfig, signature: str) -> None:
    """Refused: a claimed signature that names a holder of forest.toml's
    ``[authority]``: as an adopting signature is matched (names_match), or by the
    same ``<email>`` or the same words in any case. An agent proposes as itself;
    the holder adopts, or not, under their own name."""
    from forest_files.custody.config import email_of, names_match

    def _same(holder: str) -> bool:
        email, held = email_of(signature), email_of(holder)
        return (
            names_match(holder, signature)
            or " ".join(holder.split()).casefold() == " ".join(signature.split()).casefold()
            or (email is not None and held is not None and email.casefold() == held.casefold())
        )

    for rule in config.authority:
        for holder in rule.holders:
            if _same(holder):
                raise ToolRefused(
                    f"signature names a holder of [authority] {rule.glob!r} in forest.toml; "
                    "sign as the agent you are (the holder adopts under their own name)"
                )


def _one_line(field: str, value: str) -> str:
    """``value`` if no character of it would end or move a line where a person reads it
    (``forest proposal show``, ``forest review``, ``forest audit``): a C1 control
    (U+0080-U+009F, e.g. U+009B, a terminal's CSI), U+2028/U+2029, or a bidirectional
    control that reorders what is shown (U+202E); check_text has refused line breaks
    and the other controls already."""
    from forest_files.kernel.bounds import BoundsRefused
    from forest_files.kernel.shellword import first_unprintable

    if first_unprintable(value) is not None:
        raise BoundsRefused(
            field,
            "holds a line break, a control character or a bidirectional control; "
            "give one line of plain text",
        )
    return value


def normalised(text: str) -> str:
    """The text as a section is read (line endings, encoding): what adopting compares."""
    from forest_files.kernel.bounds import MAX_PROPOSED_CHARS, BoundsRefused, check_text
    from forest_files.kernel.shellword import printable
    from forest_files.text.normalise import normalise_text

    try:
        check_text("text", text, MAX_PROPOSED_CHARS, lines=True)
        if printable(text, keep="\t\n\r") != text:
            raise BoundsRefused(
                "text",
                "holds a C1 control, U+2028/U+2029 or a bidirectional control "
                "(U+202A-U+202E, U+2066-U+2069); remove it",
            )
    except BoundsRefused as exc:
        raise ToolRefused(str(exc)) from None
    return normalise_text(text)

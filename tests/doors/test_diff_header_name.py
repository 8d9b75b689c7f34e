"""A bound name holding a bidirectional override (U+202E) and a zero-width space
(U+200B), its section drifted: the diff's header names it as the finding's headline
does. The header wrote the override ``<U+202E>`` (text/unseen.py's mark, applied before
kernel ``printable``) where the headline, the routes' prose and every other door write
``\\u202e``: two spellings of one name on one screen. Now a diff printed for a
terminal (check/diff.py ``for_terminal``) is escaped by ``printable`` alone, which
writes what a terminal obeys as ``\\uNNNN`` and what it hides as ``<U+NNNN>``; the
diff's own lines alike (a proposal's diff was written so already).
"""

from __future__ import annotations

import io
from pathlib import Path

from forest_files.doors.cli.review_cmd import run_in_process
from forest_files.doors.review.keys import Console
from forest_files.doors.review.run import review_here
from forest_files.kernel.shellword import printable
from tests.helpers.cli import forest
from tests.helpers.custody import BY, adopted_repo

NAME = "a\u202eb\u200bc.md"
SELECTOR = f"{NAME}#T/He\u202ero\u200b"
TEXT = "# T\n\n## He\u202ero\u200b\n\nbody\n"


def _heads(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if ln.startswith(("--- ", "+++ "))]


def test_diff_header_names_bidi_zwsp_as_headline_detected(tmp_path: Path) -> None:
    root = adopted_repo(tmp_path, NAME, TEXT, SELECTOR)
    (root / NAME).write_text(TEXT.replace("body", "bo\u202edy\u200b edited"))
    name = printable(SELECTOR)
    assert name == "a\\u202eb<U+200B>c.md#T/He\\u202ero<U+200B>"
    seen = forest(root, "check", "--show-diff")
    assert seen.exit_code == 1, seen.output
    assert seen.stdout.startswith(f"drifted {name}"), seen.stdout
    assert _heads(seen.stdout) == [f"--- ground {name}", f"+++ now {name}"], seen.stdout
    assert "{+bo\\u202edy<U+200B> edited+}" in seen.stdout, seen.stdout  # the lines alike
    assert "<U+202E>" not in seen.stdout, seen.stdout
    diff = forest(root, "diff", SELECTOR)
    assert _heads(diff.stdout) == [f"--- ground {name}", f"+++ now {name}"], diff.stdout
    shown = io.StringIO()
    console = Console(io.StringIO("q\n"), shown)
    review_here(root, BY, colour=False, run=run_in_process(root), console=console)
    assert f"drifted {name}" in shown.getvalue(), shown.getvalue()
    assert f"--- ground {name}\n+++ now {name}\n" in shown.getvalue(), shown.getvalue()


def test_proposal_diff_header_names_bidi_zwsp_escaped_detected(tmp_path: Path) -> None:
    """``forest proposal show`` (and review of a proposal) wrote its diff's header
    ``--- ground SELECTOR`` raw: a bidirectional override reordered the line on the
    reviewer's terminal and a zero-width space hid in it, while the facts above it
    escaped the same name."""
    from forest_files.doors.mcp import schemas as s
    from forest_files.doors.mcp import tools
    from forest_files.doors.mcp.session import Session

    selector = f"{NAME}#T/Hero"
    root = adopted_repo(tmp_path, NAME, "# T\n\n## Hero\n\nbody\n", selector)
    text, agent = "## Hero\n\nagent words\n", "Claude (agent) <agent@example.org>"
    args = {"selector": selector, "text": text, "signature": agent, "reason": "r"}
    pid = tools.propose(Session(root), s.parse("propose", s.ProposeIn, args)).data["id"]
    shown = forest(root, "proposal", "show", pid)
    assert shown.exit_code == 0, shown.output
    name = printable(selector)
    assert f"--- ground {name}\n" in shown.stdout, shown.stdout
    assert "\u202e" not in shown.stdout and "\u200b" not in shown.stdout, shown.stdout

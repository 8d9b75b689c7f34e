"""Restore's refusal of a heading's section not found because an edit hid its heading.

An unclosed fence or ``<!--`` put into a section hides every heading after it, so a
restore of one of those sections alone finds no heading (restore_many.py judges it
again once the targets named with it are spliced: a restore of the section holding
the block brings it back, restore_swallowed.py; restore.py ``restore_section``, the
watcher's, asks this at once). Said as "no heading matches", the
refusal would hide the fault and the way out.
Stores: nothing (text in, a refusal out).
Refuses: nothing itself; ``hidden_refusal`` words the refusal of a heading selector
whose heading a top-level fence or HTML block of the file hides (the selector finds
it with that block's first line taken out): the block and its line, the heading and
its line, where the block was opened, nothing written; the route: the bound section
holding the block restored with it, when the block runs to the end of the file
(``forest restore 'f.md#A' 'f.md#B'``, the restore's ``--drop-nested`` kept: A's edit
goes to the capture, B's heading is kept after A's ground), else (no binding holds
it, or the block is closed further on, so that restore is refused too) that block
closed before the heading or taken out.
Returns: the refusal, or None (no block hides the selector's heading: the caller's
"no heading matches" stands).
Test: tests/custody/test_restore_hidden.py
"""

from __future__ import annotations

from collections.abc import Sequence

from forest_files.kernel.errors import ForestError
from forest_files.kernel.shellword import command_text, forest_text, git_step, printable
from forest_files.text.extract import extract
from forest_files.text.markdown import outline
from forest_files.text.md_blocks import Block, blocks
from forest_files.text.normalise import normalise_text
from forest_files.text.selector import SelectorError, parse_selector, render_heading_path

_HIDERS = {"fence": "code fence", "html": "HTML comment or block"}
_HEADINGS = ("heading", "anchor")  # selectors of a Markdown heading's section

Target = tuple[str, tuple[str, ...]]  # a selector and its exclusions


def hidden_refusal(
    data: bytes,
    path: str,
    target: Target,
    holders: Sequence[Target],
    options: tuple[str, ...] = (),
) -> ForestError | None:
    """The refusal of restoring ``target`` (not found in ``data``, the file's bytes)
    when a fence or HTML block an edit left open hides its heading, or None.
    ``holders``: the file's other bindings a restore may bring the heading back with;
    ``options``: the restore's own (``--drop-nested``), kept in the route it names."""
    selector, excludes = target
    try:
        sel = parse_selector(selector)
        text = normalise_text(data.decode("utf-8").removeprefix("\ufeff"))
    except (SelectorError, UnicodeDecodeError):
        return None
    if sel.kind not in _HEADINGS:
        return None
    lines = text.splitlines(keepends=True)
    for block in blocks(text):
        if block.kind not in _HIDERS:
            continue
        without = "".join(lines[: block.first - 1] + lines[block.first :])
        try:
            found = extract(without, sel, excludes).start_line
        except SelectorError:
            continue
        line = found + (found >= block.first)  # its line in the file as it stands
        if block.first < line <= block.last:
            hidden = (block, line, lines[line - 1])
            return _refusal(text, path, target, hidden, (holders, options))
    return None


def _holder(text: str, line: int, holders: Sequence[Target]) -> str | None:
    """The bound heading section of ``text`` holding ``line`` (the deepest), or None."""
    best: tuple[int, str] | None = None
    for selector, excludes in holders:
        try:
            if parse_selector(selector).kind not in _HEADINGS:
                continue
            got = extract(text, parse_selector(selector), excludes)
        except SelectorError:
            continue
        if got.start_line <= line <= got.end_line and (best is None or got.start_line > best[0]):
            best = (got.start_line, selector)
    return None if best is None else best[1]


def _left_open(text: str, block: Block) -> bool:
    """Whether ``block`` of ``text`` runs to the end of it, closed by no line: it runs
    on over a heading put after the text."""
    end = text.count("\n") + (not text.endswith("\n")) + 2  # the line of "# end"
    return any(b.first == block.first and b.last >= end for b in blocks(f"{text}\n# end\n"))


def _unbound_place(text: str, line: int) -> str:
    """Where ``line`` stands when no binding's section holds it: its heading's path."""
    above = [h for h in outline(text) if h.start_line <= line]
    if not above:
        return "above the first heading"
    return "in #" + printable(render_heading_path(above[-1].path, None))


def _refusal(
    text: str,
    path: str,
    target: Target,
    hidden: tuple[Block, int, str],
    bound: tuple[Sequence[Target], tuple[str, ...]],
) -> ForestError:
    selector, (holders, options) = target[0], bound
    block, line, source = hidden
    kind = _HIDERS[block.kind]
    holder = _holder(text, block.first, [h for h in holders if h[0] != selector])
    place = printable(holder) if holder is not None else ""
    where = f"in {place}" if holder is not None else _unbound_place(text, block.first)
    said = (
        f"{printable(selector)}: its heading `{printable(source.strip())}` (line {line}) is "
        f"hidden by the {kind} opened at line {block.first} {where}, which an edit left "
        "open over it, so no heading matches; nothing was written — "
    )
    close = f"close that {kind} before line {line} (or take it out), then restore again"
    # A block closed further on (inside a hidden section) is refused by a restore of the
    # section holding it too (restore_swallowed.py: its sections could not stay).
    if holder is None or not _left_open(text, block):
        diff = command_text(git_step("diff", "--", path))
        return ForestError(f"{said}{close} (`{diff}` shows the edit)")
    both = forest_text("restore", holder, selector, options=options)
    return ForestError(
        f"{said}restore {place} with it, which keeps the heading after {place}'s ground: "
        f"`{both}` ({place}'s edit is kept in the capture); or {close}"
    )

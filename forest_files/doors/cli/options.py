"""What every ``forest`` command shares: the typer group, the options declared once,
the signature a command acts under, and the JSON-or-text output.

Stores: nothing.
Refuses: placeholder words or signatures (a route pasted as is), over-long ones.
Returns: typer annotations; ``identity``; ``emit``; ``words_unkept`` (the note of a
rebind whose words were not recorded: nothing was adopted).
Test: tests/doors/test_cli.py
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from forest_files.kernel.errors import ForestError

app = typer.Typer(
    name="forest",
    help="Git-backed custody of text that must stay true.\n\n"
    "Before the command, as in git: -C DIR (change directory first; repeatable) and "
    "--version.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # click's plain help: rich costs ~0.1 s of start-up
)

RepoOpt = Annotated[
    Path,
    typer.Option("--repo", "-C", help="Any path inside the repository (default: here)."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable output.")]


def emit(as_json: bool, obj: object, text: str) -> None:
    typer.echo(json.dumps(obj, sort_keys=True) if as_json else text)


def words_given(words: str) -> str:
    """``--words`` callback: a route's placeholder pasted as is signs nothing, and words
    stay within their bound (bounds.py)."""
    from forest_files.kernel.bounds import MAX_WORDS_CHARS, BoundsRefused, check_text
    from forest_files.praise import placeholder_words

    why = placeholder_words(words)  # blank words included: its message says what to write
    if why is None:
        try:
            check_text("--words", words, MAX_WORDS_CHARS, blank=True, lines=True)
        except BoundsRefused as exc:
            why = str(exc)
    if why is not None:
        typer.echo(f"forest: {why}", err=True)
        raise typer.Exit(1)
    return words


WordsOpt = Annotated[
    str, typer.Option("--words", help="Your adopting words (required).", callback=words_given)
]


def identity(repo: Path, given: str | None) -> str:
    """``--as``, or the identity the signing key is bound to when forest.toml asks for
    signatures (docs/signing.md), or the git identity. A claim: the gate authenticates."""
    from forest_files.custody.repository import find_root
    from forest_files.custody.signing_advice import advise
    from forest_files.gitio import user_identity
    from forest_files.praise import placeholder_signature

    claimed = given.strip() if given and given.strip() else None
    why = None if claimed is None else placeholder_signature(claimed)
    if why is not None:
        raise ForestError(why)
    root = find_root(repo)
    advice = advise(root, claimed)
    from forest_files.kernel.shellword import for_bash

    for line in advice.lines:
        typer.echo(for_bash(line), err=True)
    found = claimed or advice.identity or user_identity(root)
    if not found:
        raise typer.BadParameter("no --as given and no git user.name/user.email configured")
    from forest_files.kernel.bounds import MAX_SIGNATURE_CHARS, check_text, check_unicode

    if not claimed:  # git's identity: its config holds bytes that are not UTF-8
        fix = "set git's user.name and user.email as UTF-8 text (git config), or pass --as"
        check_unicode("signature (git user.name <user.email>)", found, fix)
    field = "--as" if claimed else "signature"
    check_text(field, found, MAX_SIGNATURE_CHARS)
    from forest_files.kernel.shellword import first_unprintable, printable

    bad = first_unprintable(found)  # C1, U+2028: the audit log refuses such an actor
    if bad is not None:
        from forest_files.kernel.bounds import BoundsRefused

        fix = (
            "give a name of printable characters"
            if claimed
            else "set git's user.name and user.email as printable text (git config), or pass --as"
        )
        raise BoundsRefused(field, f"holds {printable(bad)}, an unprintable character; {fix}")
    return found


AsOpt = Annotated[
    str | None, typer.Option("--as", help="Signature (default: git user.name <email>).")
]


def words_unkept(unchanged: int, moved: int) -> str:
    """A rebind records words only with text it adopts: say so when --words went
    unused (the user may think they are on record)."""
    if unchanged == moved == 1:
        return (
            "note: the text is unchanged, so nothing was adopted and your --words were "
            "not recorded (a rebind of unchanged text records where the section stands, "
            "not why)"
        )
    if unchanged == moved:
        return (
            f"note: all {moved} texts are unchanged, so nothing was adopted and your "
            "--words were not recorded (a rebind of unchanged text records where the "
            "section stands, not why)"
        )
    return (
        f"note: {unchanged} of {moved} texts are unchanged: nothing was adopted for them "
        "and your --words were recorded only with the others, which adopted their new text"
    )

"""Why a ledger file does not hash to its name, when git itself rewrote it: a rule
(in ``.gitattributes``, or in ``$GIT_DIR/info/attributes``, which outranks it) that
filters or converts ledger files as git stores or checks them out.

Read from git, the file is what git stored: the fix is the line, then ``git add
--renormalize``. Read from the working tree (a segment checked out with CRLF line
ends: the fault's typed cause ``CRLF_CHECKOUT``, said without git by
ledger/segments.py, whose ``converted_segment`` this fills with the rule), the
stored bytes are right and the checkout wrote others: the fix is the line, then the
ledger checked out again (git skips a file whose stat it knows, so the index's
entries are written back without their stat first). Either names the file whose line
wins: ``.git/info/attributes`` when one of its lines sets a converting attribute for
the ledger (gitio ``info_rules``, git matching its patterns), since a line added to a
``.gitattributes`` changes nothing while it stands. Every step is reached from where
the user stands (``git -C ..``, ``../.git/info/attributes``).

Stores: nothing.
Refuses: nothing (a note, or None when no rule converts ledger files).
Returns: ``conversion_note`` (the cause and the fix: the line that takes the ledger
out of every conversion, in the file that decides, then ``git add --renormalize``);
``with_conversion`` (a ``LedgerError`` with that note);
``with_checkout_note`` (a working-tree segment's fault with the rule's file, the line
to add there as a pasteable step and the checkout again; a body file's with its path
and ``body_checkout_note``'s words); ``body_checkout_note`` (the
same for a working-tree body file, None when no rule converts its path); both name
``core.autocrlf=true`` when no attribute decides a ledger file's line ends (no
``.gitattributes`` line at all), with forest init's line as the fix;
``checkout_faults`` (both for ``forest verify``'s faults, each note worked out once).
Test: tests/ledger/test_ledger_filter_rule.py, tests/ledger/test_ledger_crlf.py
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from forest_files import gitio
from forest_files.kernel.errors import ForestError
from forest_files.kernel.paths import GITATTRIBUTES_LINE, LEDGER_PREFIX
from forest_files.kernel.shellword import command_text, git_step, shell_word
from forest_files.kernel.standing import reached
from forest_files.ledger.acts import LedgerError
from forest_files.ledger.fault import CRLF_CHECKOUT, body_unhashed
from forest_files.ledger.segments import BODIES_DIR, BODY_SUFFIX, converted_segment
from forest_files.ledger.verify import EDITED, Fault

# What makes git rewrite a file between the work tree and what it stores (a clean or
# smudge filter, line-end conversion, $Id$ expansion, re-encoding): never wanted on
# the ledger, whose file names are the SHA-256 of their bytes.
_CONVERTING = ("filter", "text", "eol", "ident", "working-tree-encoding", "crlf")
_PROBES = (
    f"{LEDGER_PREFIX}segments/{'0' * 64}.jsonl",
    f"{LEDGER_PREFIX}bodies/00/{'0' * 64}.txt",
)
UNCONVERTED_LINE = GITATTRIBUTES_LINE  # forest init's line: the fix for an older repository
_LINE_FORMAT = "%s\\n"  # printf's: the line as it is, then a newline


def conversion_note(root: Path, code: str) -> str | None:
    """Why a ledger file read from git does not hash to its name (``code``:
    ``body-hash`` or ``segment-name``) when a ``.gitattributes`` rule makes git rewrite
    ledger files, with the fix; None when no rule does. One ``git check-attr``."""
    rules = _rules(root, list(_PROBES))
    if not rules:
        return None
    path = _PROBES[1] if code == "body-hash" else _PROBES[0]
    shown = command_text(git_step("check-attr", "-a", "--", path))
    renormalise = command_text(git_step("add", "--renormalize", "--", LEDGER_PREFIX.rstrip("/")))
    where, why = _rule_file(root, path, rules)
    where = reached(where)
    return (
        f"a rule in {where}{why} makes git rewrite ledger files ({', '.join(rules)}); end "
        f"{where} with the line '{UNCONVERTED_LINE}' ({shown} names the rule), then "
        f"{renormalise}"
    )


def _rules(root: Path, paths: list[str]) -> list[str]:
    """The converting attributes git applies to ``paths`` (``eol=crlf``, ``text``),
    sorted; none when git cannot say. One ``git check-attr``."""
    return _converting_rules(_attributes(root, paths))


def _attributes(root: Path, paths: list[str]) -> dict[str, dict[str, str]]:
    """Every attribute git gives each of ``paths``; none when git cannot say."""
    try:
        return gitio.attributes(root, paths)
    except ForestError:
        return {}


def _converting_rules(found: Mapping[str, Mapping[str, str]]) -> list[str]:
    """The converting attributes among ``found`` (``_attributes``'), sorted."""
    return sorted(
        {
            attr if value == "set" else f"{attr}={value}"
            for attrs in found.values()
            for attr, value in attrs.items()
            if attr in _converting(attrs) and value not in ("unset", "unspecified")
        }
    )


def _rule_file(root: Path, path: str, rules: list[str]) -> tuple[str, str]:
    """The file whose line decides ``rules`` for ``path`` (from the top): info/attributes
    when a line of it sets one of them, else .gitattributes; and why it is that one."""
    info = _info_rules(root, path, sorted({r.partition("=")[0] for r in rules}))
    if info is None:
        return ".gitattributes", ""
    return info, " (which outranks .gitattributes)"


def checkout_note(root: Path, segment: str | None = None) -> str:
    """Why the working tree's ledger files end their lines in CRLF (``segment``: the one
    found so), and the fix: the line that takes the ledger out of every conversion at
    the end of the file that decides (a pasteable step), then the ledger checked out
    again. Every step reached from where the user stands."""
    path = _PROBES[0] if segment is None else f"{LEDGER_PREFIX}segments/{segment}.jsonl"
    found = _attributes(root, [path])
    rules = _converting_rules(found)
    if not rules:  # the rule is gone, or core.autocrlf converted the unmarked ledger
        autocrlf = _autocrlf_note(root, found.get(path, {}))
        if autocrlf is not None:
            return autocrlf
        return (
            f"no attribute rule converts it now: with the line '{UNCONVERTED_LINE}' at the "
            f"end of .gitattributes (core.autocrlf converts a ledger without it), check the "
            f"ledger out again: `{_checkout_again()}`"
        )
    return _rule_and_fix(root, path, rules)


def body_checkout_note(root: Path, path: str) -> str | None:
    """Why the working tree's body file at ``path`` (from the top) may not hash to its
    name: the rule that converts it, with ``checkout_note``'s fix, or ``core.autocrlf``
    when no attribute decides the path's line ends; None when neither converts it (the
    body was edited, as far as git can tell). One ``git check-attr``; one ``git
    config`` when no rule converts the path."""
    found = _attributes(root, [path])
    rules = _converting_rules(found)
    if rules:
        return _rule_and_fix(root, path, rules)
    return _autocrlf_note(root, found.get(path, {}))


def _autocrlf_note(root: Path, attrs: Mapping[str, str]) -> str | None:
    """``core.autocrlf=true`` as the cause when no attribute of a ledger path (its
    ``attrs``) decides its line ends (a ``text`` or the old ``crlf`` set or unset: git
    then ignores the setting), with the fix that keeps it on for every other file:
    forest init's line at the end of .gitattributes, committed (every clone checks the
    ledger out as stored), then the ledger checked out again. None when it is not
    true, or an attribute decides."""
    if "text" in attrs or "crlf" in attrs:
        return None
    if gitio.config_get(root, "core.autocrlf", as_type="bool-or-str") != "true":
        return None
    shown = command_text(git_step("config", "--show-origin", "--get", "core.autocrlf"))
    printf = command_text(("printf", _LINE_FORMAT, UNCONVERTED_LINE))
    where = reached(".gitattributes")
    return (
        f"core.autocrlf=true converts it, as no attribute rule takes the ledger out of "
        f"line-end conversion (`{shown}` shows where it is set): add the line "
        f"'{UNCONVERTED_LINE}' at the end of {where} (`{printf} >> {shell_word(where)}`) "
        f"and commit it, then check the ledger out again: `{_checkout_again()}`"
    )


def _rule_and_fix(root: Path, path: str, rules: list[str]) -> str:
    """The rule converting ``path`` (its file, the attributes, the check-attr showing
    them), the line to add at the end of that file, then the ledger checked out again."""
    again = _checkout_again()
    where, why = _rule_file(root, path, rules)
    shown = command_text(git_step("check-attr", "-a", "--", path))
    printf = command_text(("printf", _LINE_FORMAT, UNCONVERTED_LINE))
    add = f"{printf} >> {shell_word(reached(where))}"
    commit = "" if why else " and commit it"
    return (
        f"a rule in {reached(where)}{why} converts it ({', '.join(rules)}; `{shown}` shows "
        f"them): add the line '{UNCONVERTED_LINE}' at the end of {reached(where)} "
        f"(`{add}`){commit}, then check the ledger out again: `{again}`"
    )


def checkout_faults(root: Path, faults: Sequence[Fault]) -> tuple[list[Fault], bool]:
    """``faults`` (``forest verify``'s, read from the working tree) with ``checkout_note``'s
    words in each segment git converted as it checked it out, and the rule with its fix
    in place of "(edited?)" in each body file whose path a rule converts, each note worked
    out once (it asks git); and whether any was."""
    note: str | None = None
    body: list[str | None] = []  # the body files' note, once asked
    out: list[Fault] = []
    for f in faults:
        if f.code == "segment-name" and f.cause == CRLF_CHECKOUT:
            if note is None:
                note = checkout_note(root, f.segment)
            f = replace(f, detail=converted_segment(note))
        elif f.code == "body-hash" and f.path and f.body:
            if not body:  # one rule converts them all: bodies differ by hash alone
                body.append(body_checkout_note(root, f.path))
            if body[0] is not None:
                f = replace(f, detail=f"{body_unhashed(f.body)} ({body[0]})")
        out.append(f)
    return out, note is not None or bool(body and body[0])


def with_checkout_note(root: Path, exc: LedgerError) -> LedgerError:
    """``exc`` (read from the working tree) with ``checkout_note`` in place of the words
    said without git when it is a segment git converted as it checked it out; a body
    file that does not hash to its name with its path and ``body_checkout_note``'s rule
    and fix (else "(edited?)"), as ``forest verify`` says it; ``exc`` itself for any
    other fault."""
    if exc.code == "body-hash" and exc.body is not None:
        reason = _body_reason(root, exc.body)
    elif exc.code == "segment-name" and exc.cause == CRLF_CHECKOUT:
        reason = converted_segment(checkout_note(root, exc.segment))
    else:
        return exc
    return exc.reworded(reason)


def _body_reason(root: Path, body_hash: str) -> str:
    """A body file that does not hash to its name, named by its path where the user
    stands, with the rule that converts that path and its fix, or "(edited?)" when
    none does (one ``git check-attr``, asked only here)."""
    path = f"{LEDGER_PREFIX}{BODIES_DIR}/{body_hash[:2]}/{body_hash}{BODY_SUFFIX}"
    note = body_checkout_note(root, path)
    return f"body file {reached(path)} does not hash to its name" + (
        f" ({note})" if note is not None else EDITED
    )


def _checkout_again() -> str:
    """The ledger's tracked files written again from the index: its entries put back
    without their stat (git skips writing a file whose stat it knows), then checked
    out; staged ledger files stay staged, untracked ones are not touched."""
    ledger = LEDGER_PREFIX.rstrip("/")
    listed = command_text(git_step("ls-files", "-s", "-z", "--", ledger))
    entries = command_text(git_step("update-index", "-z", "--index-info"))
    return f"{listed} | {entries} && {command_text(git_step('checkout', '--', ledger))}"


def _info_rules(root: Path, path: str, names: list[str]) -> str | None:
    """``$GIT_DIR/info/attributes`` when a line of it sets ``names`` for ``path``."""
    try:
        return gitio.info_rules(root, path, names)
    except ForestError:
        return None


def _converting(attrs: Mapping[str, str]) -> tuple[str, ...]:
    """The attributes that convert a path with ``attrs``: with ``text`` unset (``forest
    init``'s ``-text``) git ignores ``eol`` and the old ``crlf``, so ``* eol=lf`` above
    that line rewrites nothing and is no cause to name."""
    if attrs.get("text") == "unset":
        return tuple(a for a in _CONVERTING if a not in ("eol", "crlf"))
    return _CONVERTING


def with_conversion(root: Path, exc: LedgerError) -> LedgerError:
    """``exc`` (a segment or body read from git that does not hash to its name) with
    ``conversion_note``'s cause and fix; ``exc`` itself for any other fault."""
    if exc.code not in ("body-hash", "segment-name"):
        return exc
    note = conversion_note(root, exc.code)
    if note is None:
        return exc
    return exc.reworded(f"{exc.reason}: {note}")


__all__ = [
    "UNCONVERTED_LINE",
    "body_checkout_note",
    "checkout_faults",
    "checkout_note",
    "conversion_note",
    "with_checkout_note",
    "with_conversion",
]

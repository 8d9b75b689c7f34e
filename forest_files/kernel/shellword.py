"""One word of a command a door prints, quoted so it works pasted into a shell.

A path git holds as bytes that are not UTF-8 reaches Python as lone surrogates
(surrogateescape: byte 0xE9 is U+DCE9). Printed raw, such a word either fails
to encode (a UTF-8 terminal's strict stdout) or is copied back from the
terminal as U+FFFD; printed as ``\\udce9`` it names another file. So each such
byte is written as ``$'\\351'``, the ANSI-C quoting GNU ``ls`` uses in its
shell-escape style: the line stays plain text, and bash, zsh, ksh, mksh,
busybox sh and dash 0.5.13 or newer (POSIX.1-2024) give back the file's own
bytes. dash 0.5.12 and older (Debian's and Ubuntu's ``sh``) and fish read
``caf$'\\351'.md`` as the other name ``caf$\\351.md`` and run the command on it, so
a line holding such a word says so (``for_bash``). Every other word is
``shlex.quote``'s.

A control character in a name (a newline, an escape, DEL, a C1 control, the
Unicode line and paragraph separators) is written the same way, as the octal
of its UTF-8 bytes: printed raw it would end the line, so a name could forge a
route or a CI workflow command (``::notice …``) on a line of its own. So is a
character a terminal shows as nothing or as a plain space (kernel/invisible.py: a
zero-width space, a no-break space, a soft hyphen): printed raw, a route to a heading
``Eli\u200bas`` reads as one to ``Elias``, and one typed over names another heading.

``printable`` is the same care for prose a door prints around the commands (a
finding's headline, its facts, a ledger fault): each such character, and each
byte that is not UTF-8, shown as ``\\xNN`` (``\\uNNNN`` above U+00FF), so one
finding is one line and the output stays plain UTF-8.

Stores: nothing. Refuses: nothing.
``forest_step`` is the one spelling of a ``forest`` command a door prints (a target
that starts with ``-`` after ``--``), ``git_step`` of a ``git`` one (a path git would
read as a pattern or magic under ``--literal-pathspecs``), ``command_text`` their
words quoted: the routes
(check/routes.py) and the refusals of lower rooms (custody/) print the same.
``command_text`` prints a step as it runs where the user stands (kernel/standing.py);
``forest_text`` and ``commit_ledger`` are the hints a door prints after an act.

Returns: ``shell_word``'s quoted word; ``for_bash``'s line with the shell it needs
named when a word in it is written as ``$'\\ooo'``; ``printable``'s text (the one escaper of
printed prose; ``first_unprintable`` the first character it would escape, for a
rule that refuses one); a step and its text.
Test: tests/kernel/test_shellword.py, tests/check/test_not_utf8_output.py,
tests/check/test_forged_lines.py, tests/doors/test_doors.py, tests/doors/test_dash_c_hints.py,
tests/gate/test_ci_where_typed.py, tests/doors/test_control_chars_doors.py
"""

from __future__ import annotations

import functools
import re
import shlex

from forest_files.kernel.invisible import invisible
from forest_files.kernel.standing import from_here

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence


def _escaped_byte(ch: str) -> bool:
    return "\udc80" <= ch <= "\udcff"


# The bidirectional embedding, override and isolate controls (U+202A-U+202E,
# U+2066-U+2069): shown raw they reorder what a terminal or a review page displays,
# so a name or a line reads other than it is ("Trojan Source", CVE-2021-42574).
_BIDI = frozenset(range(0x202A, 0x202F)) | frozenset(range(0x2066, 0x206A))


def _control(ch: str) -> bool:
    """A character that moves the cursor, ends a line or reorders the text on a
    terminal or in a log."""
    code = ord(ch)
    return code < 32 or 127 <= code < 160 or code in (0x2028, 0x2029) or code in _BIDI


def _unshown(ch: str) -> bool:
    return _escaped_byte(ch) or _control(ch)


def first_unprintable(text: str) -> str | None:
    """The first character of ``text`` that ``printable`` escapes (a control character,
    a line or paragraph separator, a bidirectional control, a byte that is not UTF-8),
    or None: the one test of
    "unprintable" for a rule that refuses what this module would escape."""
    if text.isprintable():
        return None
    return next((ch for ch in text if _unshown(ch)), None)


def _octal(ch: str) -> str:
    if _escaped_byte(ch):
        return f"\\{ord(ch) - 0xDC00:03o}"
    return "".join(f"\\{b:03o}" for b in ch.encode("utf-8"))


def _hidden(ch: str) -> bool:
    """A character a command word writes as ``$'\\ooo'``: one ``printable`` escapes, or
    one a terminal shows as nothing or as a plain space."""
    return _unshown(ch) or invisible(ch)


def shell_word(word: str) -> str:
    """``word`` quoted for a shell: ``shlex.quote``, with each byte that is not UTF-8
    (a surrogateescape surrogate), each control character and each character a
    terminal shows as nothing or as a plain space written as ``$'\\ooo'``."""
    if (word.isascii() and word.isprintable()) or not any(_hidden(ch) for ch in word):
        return shlex.quote(word)
    parts: list[str] = []
    run: list[str] = []
    for ch in word:
        if _hidden(ch):
            if run:
                parts.append(shlex.quote("".join(run)))
                run = []
            parts.append(f"$'{_octal(ch)}'")
        else:
            run.append(ch)
    if run:
        parts.append(shlex.quote("".join(run)))
    return "".join(parts)


# A word shell_word writes as ``$'\\ooo'``: ``shlex.quote`` never puts a backslash right
# after ``$'`` (a quote in a name is ``'"'"'``), so only that spelling matches.
_ANSI_C = re.compile(r"\$'\\[0-7]{3}")

# Said after a line whose command holds such a word (sh would name another file).
BASH_ONLY = "paste it into bash, zsh or ksh: sh and fish read $'\\ooo' as other characters"


def shell_needed(text: str) -> str:
    """``BASH_ONLY`` when a command in ``text`` writes a character as ``$'\\ooo'``, else
    "": pasted into sh (dash before 0.5.13) or fish, that word names another file and
    the command runs on it."""
    return BASH_ONLY if "$'" in text and _ANSI_C.search(text) else ""


def for_bash(line: str) -> str:
    """``line``, with ``(BASH_ONLY)`` after it when ``shell_needed`` says so (once: a
    line that says it already is left as it is). Each line of a hint a door prints after
    an act passes through here, as every route and refusal does."""
    needed = shell_needed(line)
    return f"{line} ({needed})" if needed and BASH_ONLY not in line else line


def printable(text: str, *, keep: str = "") -> str:
    """``text`` with each control character (but those in ``keep``, e.g. a diff's
    newlines) and each byte that is not UTF-8 written as ``\\xNN`` / ``\\uNNNN``: what
    a terminal would obey; and each character it would show as nothing or as a plain
    space (kernel/invisible.py) as its code, ``<U+200B>``: a heading ``Kep\\u200bt``
    never reads as ``Kept``."""
    if text.isascii() and text.isprintable():
        return text
    # Each run of characters that are not printable ASCII (nor kept) is looked at one
    # character at a time; the rest is copied whole: a diff's newlines no longer send
    # every character of a long text through the loop.
    return _unplain(keep).sub(_escape_run, text)


@functools.lru_cache(maxsize=8)
def _unplain(keep: str) -> re.Pattern[str]:
    kept = "".join(re.escape(ch) for ch in sorted(set(keep)))
    return re.compile(f"[^\\x20-\\x7e{kept}]+")


def _escape_run(m: re.Match[str]) -> str:
    return "".join(_escaped(ch) for ch in m.group(0))


def _escaped(ch: str) -> str:
    """One character that is not printable ASCII, as a terminal may be shown it."""
    if _escaped_byte(ch):
        return f"\\x{ord(ch) - 0xDC00:02x}"
    if _control(ch):
        code = ord(ch)
        return f"\\x{code:02x}" if code < 256 else f"\\u{code:04x}"
    if invisible(ch):
        return f"<U+{ord(ch):04X}>"
    return ch


def forest_step(command: str, *targets: str, options: tuple[str, ...] = ()) -> tuple[str, ...]:
    """``forest COMMAND [options] TARGET…``; a target that starts with ``-`` comes
    after ``--`` so it is never read as an option."""
    if any(t.startswith("-") for t in targets):
        return ("forest", command, *options, "--", *targets)
    return ("forest", command, *targets, *options)


_PATHSPEC_MAGIC = re.compile(r"^:|[*?\[\\]")


def git_step(*words: str) -> tuple[str, ...]:
    """``git WORDS…``. The paths after ``--`` are git pathspecs, where ``*``, ``?``,
    ``[``, a backslash and a leading ``:`` are patterns or magic (``git add --
    'ch*.md'`` would stage every matching file, ``':!notes.md'`` every file but
    one): a step naming such a path runs with ``--literal-pathspecs``, so it acts on
    that one file alone."""
    paths = words[words.index("--") + 1 :] if "--" in words else ()
    if any(_PATHSPEC_MAGIC.search(p) for p in paths):
        return ("git", "--literal-pathspecs", *words)
    return ("git", *words)


def stage_ledger() -> str:
    """``git add -- .forest/ledger`` as the user runs it where they stand: the step a
    door names after recording an act."""
    return command_text(git_step("add", "--", ".forest/ledger"))


def commit_ledger() -> str:
    """``git add -- .forest/ledger && git commit`` as the user runs it where they stand
    (both ``git`` steps from the top): the step a door names after an act."""
    return f"{stage_ledger()} && {command_text(git_step('commit'))}"


def commit_ledger_with(paths: Sequence[str]) -> str:
    """``git add -- .forest/ledger PATH… && git commit`` as the user runs it where they
    stand: the step after an act whose text is in files a commit would miss unless
    staged (``paths`` from the top; in steps of at most ``ARGV_BATCH`` names)."""
    if not paths:
        return commit_ledger()
    steps = in_batches(("add", "--", ".forest/ledger"), list(paths))
    adds = [command_text(git_step(*step)) for step in steps]
    return " && ".join([*adds, command_text(git_step("commit"))])


def forest_text(command: str, *targets: str, options: tuple[str, ...] = ()) -> str:
    """``forest_step``'s words quoted, as the user runs them where they stand: the
    command a hint or a refusal names (``forest -C ../repo show …`` after ``forest -C
    ../repo``)."""
    return command_text(forest_step(command, *targets, options=options))


# Names per step of ``in_batches``: about 100 kB of arguments, well under the smallest
# ARG_MAX a shell meets (256 kB on older macOS).
ARGV_BATCH = 1000


def in_batches(head: tuple[str, ...], names: list[str]) -> tuple[tuple[str, ...], ...]:
    """``head`` followed by ``names``, split into steps of at most ``ARGV_BATCH``
    names each (one command line per step: a pasted route never exceeds ARG_MAX)."""
    return tuple((*head, *names[i : i + ARGV_BATCH]) for i in range(0, len(names), ARGV_BATCH))


def command_text(step: tuple[str, ...]) -> str:
    """One command's words, each quoted for a shell, as a door prints them (a ``git``
    step from where the user stands: ``from_here``)."""
    return " ".join(map(shell_word, from_here(step)))


__all__ = [
    "ARGV_BATCH",
    "BASH_ONLY",
    "command_text",
    "commit_ledger",
    "commit_ledger_with",
    "first_unprintable",
    "for_bash",
    "forest_step",
    "forest_text",
    "git_step",
    "in_batches",
    "printable",
    "shell_needed",
    "shell_word",
    "stage_ledger",
]

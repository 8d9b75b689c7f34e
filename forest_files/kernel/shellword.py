"""One word of a command a door prints, quoted so it works pasted into a shell.

A path git holds as bytes that are not UTF-8 reaches Python as lone surrogates
(surrogateescape: byte 0xE9 is U+DCE9). Printed raw, such a word either fails
to encode (a UTF-8 terminal's strict stdout) or is copied back from the
terminal as U+FFFD; printed as ``\\udce9`` it names another file. So each such
byte is written as ``$'\\351'``, the ANSI-C quoting GNU ``ls`` uses in its
shell-escape style: the line stays plain text, and bash, zsh, ksh, mksh,
busybox sh and dash 0.5.12 or newer (POSIX.1-2024) give back the file's own
bytes. Every other word is ``shlex.quote``'s.

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
``stand_at`` (and ``typed_in``, where ``forest -C DIR`` left the user's directory;
``where_typed`` hands it to a child) note where the printed steps are pasted;
``reached_dir`` is the ``-C`` of a step run in a directory that is no work tree's top
(a bare repository);
``from_here`` reaches the top from there (``from_the_top``: steps printed as at the
top, for reports read there);
``forest_text`` and ``commit_ledger`` are the hints a door prints after an act.

Returns: ``shell_word``'s quoted word; ``printable``'s text (the one escaper of
printed prose; ``first_unprintable`` the first character it would escape, for a
rule that refuses one); a step and its text.
Test: tests/kernel/test_shellword.py, tests/check/test_not_utf8_output.py,
tests/check/test_forged_lines.py, tests/doors/test_doors.py, tests/doors/test_dash_c_hints.py,
tests/gate/test_ci_where_typed.py, tests/doors/test_control_chars_doors.py
"""

from __future__ import annotations

import os
import re
import shlex

from forest_files.kernel.invisible import invisible

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


def printable(text: str, *, keep: str = "") -> str:
    """``text`` with each control character (but those in ``keep``, e.g. a diff's
    newlines) and each byte that is not UTF-8 written as ``\\xNN`` / ``\\uNNNN``: what
    a terminal would obey; and each character it would show as nothing or as a plain
    space (kernel/invisible.py) as its code, ``<U+200B>``: a heading ``Kep\\u200bt``
    never reads as ``Kept``."""
    if text.isascii() and text.isprintable():
        return text
    out = []
    for ch in text:
        if ch in keep or (ch.isascii() and ch.isprintable()):
            out.append(ch)
        elif _escaped_byte(ch):
            out.append(f"\\x{ord(ch) - 0xDC00:02x}")
        elif _control(ch):
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 256 else f"\\u{code:04x}")
        elif invisible(ch):
            out.append(f"<U+{ord(ch):04X}>")
        else:
            out.append(ch)
    return "".join(out)


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


# The directory the user typed the command in, relative to the top of the work tree
# ("docs/adr/"; "" at the top, outside it, or not known): set once per command by its
# door (``stand_at``), read when a route's step is printed (``from_here``).
_PREFIX = [""]
# Where the user's shell stands when ``forest -C DIR`` moved the command elsewhere
# (``typed_in``, before the first ``-C``); None when the command runs where it was typed.
_TYPED_IN: list[str | None] = [None]
# From where the user's shell stands to the top of the work tree ("../.." below it,
# "../repo" beside it after ``forest -C ../repo``; "" at the top or when not known),
# and whether that is outside the work tree (then a ``forest`` step needs it too).
_REACH = [""]
_OUTSIDE = [False]
# Whether the user reached the work tree by an absolute ``-C``: the printed steps then
# reach its top by its absolute path too (``-C /abs/repo``, never ``-C ../repo``).
_ABSOLUTE = [False]


def typed_in(directory: str | None, *, absolute: bool = False) -> None:
    """Note the directory the command was typed in, before ``forest -C DIR`` leaves it:
    the routes it prints are pasted there, not in ``DIR`` (None: where it runs).
    ``absolute``: ``DIR`` was typed as an absolute path (so the routes keep one)."""
    _TYPED_IN[0] = directory
    _ABSOLUTE[0] = absolute and directory is not None


def where_typed() -> str | None:
    """The directory the user typed the command in: before ``forest -C DIR`` left it
    (``typed_in``), else the working directory; None when it is gone. A child that
    speaks for the command (the detached watcher) is handed it, and notes it with
    ``typed_in``."""
    if _TYPED_IN[0] is not None:
        return _TYPED_IN[0]
    try:
        return os.getcwd()
    except OSError:
        return None


def reached_dir(directory: str | os.PathLike[str]) -> str | None:
    """``directory`` as a printed step's ``-C`` reaches it from where the command was
    typed (``typed_in``): relative (absolute when the user typed an absolute ``-C``);
    None when they stand in it or below it, where ``forest`` finds it itself (a bare
    repository too: git finds it from its folders), or for an in-process caller (no
    ``typed_in``), whose steps are the directory's own, as ``stand_at``'s are the top's."""
    target = os.path.abspath(os.fspath(directory))
    typed = _TYPED_IN[0]
    if typed is None:
        return None
    if _ABSOLUTE[0]:
        return target
    try:
        rel = os.path.relpath(target, typed).replace(os.sep, "/")
    except ValueError:  # another drive
        return target
    return None if all(part == ".." for part in rel.split("/")) or rel == "." else rel


def stand_at(root: str | os.PathLike[str] | None, *, absolute: bool = False) -> None:
    """Note where the user stands in the work tree at ``root``: ``GIT_PREFIX`` when
    git set it (a hook runs at the top, git names the user's directory under it),
    else the working directory when it lies below ``root``. A printed ``git`` step
    then runs from the top whatever directory it is pasted in (``git -C ../..``):
    its paths are the top's, as every selector is. After ``forest -C DIR`` the steps
    are reached from where the command was typed (``typed_in``), also from outside the
    work tree (``forest -C ../repo restore …``); by the top's absolute path when the
    user typed an absolute one (``absolute``: a command's own ``--repo /abs``, or
    ``typed_in``'s). Idempotent; "" when unknown."""
    prefix = os.environ.get("GIT_PREFIX")
    if prefix is None and root is not None:
        try:
            prefix = os.path.relpath(os.getcwd(), os.fspath(root))
        except (OSError, ValueError):
            prefix = ""
        if prefix == "." or prefix == ".." or prefix.startswith(f"..{os.sep}"):
            prefix = ""  # at the top, or outside the work tree: paths stay as they are
    parts = [
        part for part in (prefix or "").replace(os.sep, "/").split("/") if part not in ("", ".")
    ]
    _PREFIX[0] = "".join(f"{part}/" for part in parts)
    _REACH[0], _OUTSIDE[0] = "/".join([".."] * len(parts)), False
    typed = _TYPED_IN[0]
    if typed is not None and root is not None and "GIT_PREFIX" not in os.environ:
        try:
            reach = os.path.relpath(os.fspath(root), typed).replace(os.sep, "/")
        except ValueError:  # another drive: the top as it is
            reach = os.fspath(root)
        up = all(part == ".." for part in reach.split("/"))
        if absolute or _ABSOLUTE[0]:  # typed absolute: reached by the same kind of path
            reach = reach if reach == "." else os.path.abspath(os.fspath(root))
        _REACH[0], _OUTSIDE[0] = ("", False) if reach == "." else (reach, not up)


def standing() -> str:
    """The directory the user typed the command in, relative to the top of the work
    tree, with a trailing slash (``docs/``); "" at the top or when not known."""
    return _PREFIX[0]


def reach() -> str:
    """The path from where the user's shell stands to the top of the work tree, as a
    printed step reaches it (``../..``); "" at the top or when not known."""
    return _REACH[0]


def reached(path: str) -> str:
    """``path`` (from the top of the work tree, or absolute) as the user reaches it
    where they stand (``../.git/info/attributes``), for a path named in words."""
    up = _REACH[0]
    return f"{up}/{path}" if up and not path.startswith("/") else path


def from_here(step: tuple[str, ...]) -> tuple[str, ...]:
    """``step`` as the user runs it where they stand: a ``git`` step from the top of
    the work tree (``git -C ..``), the paths of a ``mkdir``, ``rm`` or ``mv`` step
    reached from here (``../docs/adr``); a ``forest`` step as it is (``forest`` finds
    the top itself) unless the user stands outside the work tree (``forest -C
    ../repo``); every step at the top as it is."""
    up = _REACH[0]
    if not up:
        return step
    if step[:1] == ("git",) or (step[:1] == ("forest",) and _OUTSIDE[0]):
        return (step[0], "-C", up, *step[1:])
    if step[:1] in (("mkdir",), ("rm",), ("mv",)):  # paths the top's: reached from here
        out, paths = [step[0]], False
        for word in step[1:]:
            if paths or not word.startswith("-"):
                out.append(word if word.startswith("/") else f"{up}/{word}")
            else:
                out.append(word)
                paths = word == "--"
        return tuple(out)
    return step


class from_the_top:
    """Steps printed inside as run at the top of the work tree, wherever the user
    stands: the CI gate's SARIF, JUnit and GitHub reports, read at the top of a
    checkout (gate/render.py). Where the user stands is noted again after. A class,
    not ``contextlib``: this module is on the hook's import list."""

    def __enter__(self) -> None:
        self._saved = (_PREFIX[0], _REACH[0], _OUTSIDE[0])
        _PREFIX[0], _REACH[0], _OUTSIDE[0] = "", "", False

    def __exit__(self, *exc: object) -> None:
        _PREFIX[0], _REACH[0], _OUTSIDE[0] = self._saved


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
    "command_text",
    "commit_ledger",
    "commit_ledger_with",
    "first_unprintable",
    "forest_step",
    "forest_text",
    "from_here",
    "from_the_top",
    "git_step",
    "in_batches",
    "printable",
    "reach",
    "reached_dir",
    "shell_word",
    "stage_ledger",
    "stand_at",
    "standing",
    "typed_in",
    "where_typed",
]

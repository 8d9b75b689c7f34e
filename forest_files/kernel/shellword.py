"""One word of a command a door prints, quoted so it works pasted into a shell.

A path git holds as bytes that are not UTF-8 reaches Python as lone surrogates
(surrogateescape: byte 0xE9 is U+DCE9). Printed raw, such a word either fails
to encode (a UTF-8 terminal's strict stdout) or is copied back from the
terminal as U+FFFD; printed as ``\\udce9`` it names another file. So each such
byte is written as ``$'\\351'``, the ANSI-C quoting GNU ``ls`` uses in its
shell-escape style: the line stays plain text, and bash, zsh, ksh, mksh,
busybox sh and dash 0.5.12 or newer (POSIX.1-2024) give back the file's own
bytes. Every other word is ``shlex.quote``'s.

Stores: nothing. Refuses: nothing.
Returns: ``shell_word``'s quoted word.
Test: tests/kernel/test_shellword.py, tests/check/test_not_utf8_output.py
"""

from __future__ import annotations

import shlex


def _escaped_byte(ch: str) -> bool:
    return "\udc80" <= ch <= "\udcff"


def shell_word(word: str) -> str:
    """``word`` quoted for a shell: ``shlex.quote``, with each byte that is not UTF-8
    (a surrogateescape surrogate) written as ``$'\\ooo'``."""
    if word.isascii() or not any(map(_escaped_byte, word)):
        return shlex.quote(word)
    parts: list[str] = []
    run: list[str] = []
    for ch in word:
        if _escaped_byte(ch):
            if run:
                parts.append(shlex.quote("".join(run)))
                run = []
            parts.append(f"$'\\{ord(ch) - 0xDC00:03o}'")
        else:
            run.append(ch)
    if run:
        parts.append(shlex.quote("".join(run)))
    return "".join(parts)


__all__ = ["shell_word"]

"""A bound file's own control characters never reach the terminal (kernel/shellword.py).

A collaborator commits a bound section whose text, or whose heading, holds an ESC
sequence, a C1 CSI (U+009B), BEL, CR or U+2028. Printed raw, ``forest diff``,
``forest show``, ``forest status`` and ``forest log`` handed them to the terminal:
a line erased or overwritten, a fake "clean", a window title set. Real repository,
the real ``forest`` console script: every door's text holds no control character
but newline and tab, and shows each one escaped (``\\x1b``, ``\\x9b``, ``\\u2028``);
``--json`` keeps the exact text (JSON escapes it).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.helpers.cli import FOREST
from tests.helpers.custody import init_and_adopt
from tests.helpers.git import commit_all, make_repo, write

HEADING = "Hero\u2028\x9b2J"  # U+2028 and a C1 CSI: a selector may hold them
SELECTOR = f"a.md#T/{HEADING}"
BODY = "body \x1b[2K \x9b1A bell\x07 sep\u2028end cr\r\nnext\n"
WORDS = "adopted\x9b2J \u2028 as \rread"  # --words allows CR; C1 and U+2028 pass too
DOC = f"# T\n\n## {HEADING}\n\n{BODY}\n### Sub \x1b[8m\x07\n\nhidden\n\n## Other\n\nplain\n"


def _run(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run(
        [FOREST, *args], cwd=repo, env=env, capture_output=True, text=True, check=False
    )


def _raw(text: str) -> list[str]:
    """Every character a terminal would obey: C0 but newline and tab, DEL, C1, the
    line and paragraph separators."""
    return [
        c
        for c in text
        if (ord(c) < 32 and c not in "\n\t") or 127 <= ord(c) < 160 or c in "\u2028\u2029"
    ]


def _repo(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path)
    write(repo, "a.md", DOC)
    init_and_adopt(repo, ["a.md#Other"])
    done = _run(repo, "adopt", SELECTOR, "--words", WORDS)
    assert done.returncode == 0, done.stderr
    commit_all(repo, "adopt")
    drifted = DOC.replace("body", "BODY \x1b]0;pwned\x07 \x1b[1A\x1b[2Kclean").replace(
        "hidden", "hidden \x9b31m"
    )
    write(repo, "a.md", drifted)
    return repo


def test_diff_section_control_chars_shown_escaped_detected(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    for args in (("diff", "a.md"), ("diff", "--words", "a.md"), ("diff", SELECTOR)):
        done = _run(repo, *args)
        assert done.returncode == 0, done.stderr
        assert not _raw(done.stdout), (args, _raw(done.stdout))
        assert "\\x1b]0;pwned\\x07" in done.stdout, done.stdout
        assert "\\x9b1A" in done.stdout and "\\x9b31m" in done.stdout, done.stdout
        if "--words" not in args:  # the heading with ESC and BEL: context of a line diff
            assert "### Sub \\x1b[8m\\x07" in done.stdout, done.stdout
        assert "drifted a.md#T/Hero\\u2028\\x9b2J" in done.stdout.splitlines(), done.stdout
    lines = _run(repo, "diff", SELECTOR).stdout.splitlines()
    # U+2028 splits no diff line: the changed line is one - line and one + line
    assert [ln for ln in lines if ln.startswith("-body")] == [
        "-body \\x1b[2K \\x9b1A bell\\x07 sep\\u2028end cr"
    ], lines


@pytest.mark.slow  # every door in turn: many processes (.ci/run runs it)
def test_show_log_status_check_control_chars_escaped_json_exact_detected(
    tmp_path: Path,
) -> None:
    repo = _repo(tmp_path)
    status = _run(repo, "status")
    assert not _raw(status.stdout) and "a.md#T/Hero\\u2028\\x9b2J" in status.stdout
    (found,) = [
        f for f in json.loads(_run(repo, "status", "--json").stdout)["findings"]
        if f["selector"] == SELECTOR
    ]  # fmt: skip
    assert found["kind"] == "drifted"
    check = _run(repo, "check", "--show-diff")
    assert check.returncode == 1 and not _raw(check.stdout), _raw(check.stdout)
    assert "\\x1b]0;pwned\\x07" in check.stdout, check.stdout
    report = json.loads(_run(repo, "check", "--json").stdout)
    assert SELECTOR in [f["selector"] for f in report["findings"]]
    log = _run(repo, "log")
    assert not _raw(log.stdout) and "\\x9b2J" in log.stdout, log.stdout
    acts = json.loads(_run(repo, "log", "--json").stdout)["acts"]
    assert WORDS in [a["words"] for a in acts] and SELECTOR in [a["selector"] for a in acts]
    chain = _run(repo, "log", SELECTOR)
    assert chain.returncode == 0 and not _raw(chain.stdout), _raw(chain.stdout)
    assert chain.stdout.splitlines()[0] == "a.md#T/Hero\\u2028\\x9b2J", chain.stdout
    doc = json.loads(_run(repo, "log", SELECTOR, "--json").stdout)
    assert doc["selector"] == SELECTOR and doc["chain"][0]["words"] == WORDS
    shown = _run(repo, "show", doc["chain"][0]["content_id"])
    assert shown.returncode == 0 and not _raw(shown.stdout), _raw(shown.stdout)
    assert "body \\x1b[2K \\x9b1A bell\\x07 sep\\u2028end cr" in shown.stdout, shown.stdout


def test_for_terminal_colour_after_escaping_detected() -> None:
    """Colour is the door's own ESC, added after the text's are escaped."""
    from forest_files.check.diff import for_terminal

    out = for_terminal("-a\x1b[2K\n+b\x9b1A\t", colour=True)
    assert out == "\x1b[31m-a\\x1b[2K\x1b[0m\n\x1b[32m+b\\x9b1A\t\x1b[0m"


def test_adopt_headings_list_control_chars_escaped_detected(tmp_path: Path) -> None:
    """The list a bulk adoption asks about: a heading's CSI cannot erase a line of it."""
    repo = make_repo(tmp_path)
    write(repo, "a.md", DOC)
    assert _run(repo, "init").returncode == 0
    done = _run(repo, "adopt", "a.md", "--headings", "--level", "2", "--yes", "--words", "w")
    assert done.returncode == 0, done.stderr
    assert not _raw(done.stdout + done.stderr), _raw(done.stdout + done.stderr)
    assert "  a.md#T/Hero\\u2028\\x9b2J" in done.stdout.splitlines(), done.stdout
    listed = json.loads(_run(repo, "status", "--json").stdout)["findings"]
    assert SELECTOR in [f["selector"] for f in listed]


@pytest.mark.slow  # every door in turn: many processes (.ci/run runs it)
def test_adr_list_title_status_control_chars_escaped_json_exact_detected(
    tmp_path: Path,
) -> None:
    """An ADR's title and status from its file: text and Markdown escaped, JSON exact."""
    repo = make_repo(tmp_path)
    title, status = "Use X \x1b[2K\x07", "Accepted\x9b1A\u2028"
    write(repo, "decisions/0001-use-x.md", f"# 1. {title}\n\n## Status\n\n{status}\n")
    assert _run(repo, "init").returncode == 0
    for fmt in ("text", "markdown"):
        done = _run(repo, "adr", "list", "decisions/*.md", "--format", fmt)
        assert done.returncode == 0, done.stderr
        assert not _raw(done.stdout), (fmt, _raw(done.stdout))
        shown = done.stdout.replace("\\\\", "\\")  # Markdown doubles a backslash
        assert "Use X \\x1b[2K\\x07" in shown and "\\x9b1A" in shown, done.stdout
    doc = json.loads(_run(repo, "adr", "list", "decisions/*.md", "--format", "json").stdout)
    assert [(a["title"], a["status"]) for a in doc["adrs"]] == [(title, status.strip())]


def test_diff_zero_width_space_in_a_word_shown_as_its_code_detected(tmp_path: Path) -> None:
    """A zero-width space (or a no-break space, a soft hyphen) slipped into a bound word
    drifts; the diff showed ``[-words-]{+words+}``, a change no reviewer could see."""
    repo = make_repo(tmp_path)
    write(repo, "a.md", "# T\n\n## Law\n\nNo ship leaves at night.\n")
    init_and_adopt(repo, ["a.md#T/Law"])
    commit_all(repo, "adopt")
    write(repo, "a.md", "# T\n\n## Law\n\nNo ship lea\u200bves at\u00a0night.\n")
    out = _run(repo, "diff", "--words", "a.md#T/Law").stdout
    assert "lea<U+200B>ves" in out and "{+<U+00A0>+}" in out, out
    assert "\u200b" not in out and "\u00a0" not in out


def test_check_prose_names_a_heading_with_a_hidden_character_by_its_code_detected(
    tmp_path: Path,
) -> None:
    """A bound heading renamed to one holding a zero-width space (``Kep\\u200bt``):
    ``forest check``'s lines named the new heading raw in their prose ("nearby
    headings", "may stand now"), which reads as the old name on a terminal; the
    commands already spell it as its bytes. Every line shows it as ``<U+200B>``."""
    repo = make_repo(tmp_path)
    write(repo, "a.md", "# Title\n\n## Kept\n\nThe kept words.\n\n## Other\n\nMore.\n")
    init_and_adopt(repo, ["a.md#Title/Kept"])
    commit_all(repo, "adopt")
    renamed = "# Title\n\n## Kep\u200bt\n\nThe kept words, changed.\n\n## Other\n\nMore.\n"
    write(repo, "a.md", renamed)
    out = _run(repo, "check").stdout
    assert "Kep<U+200B>t" in out, out
    assert "\u200b" not in out, out
    doc = json.loads(_run(repo, "check", "--json").stdout)  # JSON keeps the exact text
    assert "Kep\u200bt" in json.dumps(doc, ensure_ascii=False)


def test_rebind_onto_a_bound_heading_with_a_control_names_its_retire_pasted_detected(
    tmp_path: Path,
) -> None:
    """A rebind onto a section bound already names ``forest retire`` of that binding:
    its selector (a heading holding a C1 CSI) was quoted with ``shlex.quote``, so the
    control reached the terminal raw. It is spelt as its bytes, and the command pasted
    retires that binding."""
    from tests.helpers.git import pasted

    repo = make_repo(tmp_path)
    write(repo, "a.md", f"# T\n\n## {HEADING}\n\nbound\n\n## Other\n\nplain\n")
    init_and_adopt(repo, ["a.md#T/Other"])
    assert _run(repo, "adopt", SELECTOR, "--words", "adopted").returncode == 0
    commit_all(repo, "adopt")
    done = _run(repo, "rebind", "a.md#T/Other", SELECTOR, "--words", "moved")
    assert done.returncode == 1 and not _raw(done.stderr), done.stderr
    assert "'a.md#T/Hero'$'\\342\\200\\250'$'\\302\\233'2J --binding" in done.stderr
    assert "a.md#T/Hero \\x9b2J is bound already" in done.stderr, done.stderr
    (retire,) = [part for part in done.stderr.split("`") if part.startswith("forest retire")]
    gone = pasted(repo, retire.replace("'…'", "'its heading goes'"))
    assert gone.returncode == 0, gone.stderr
    assert _run(repo, "rebind", "a.md#T/Other", SELECTOR, "--words", "moved").returncode == 0

"""``shell_word``: a printed command's word for a name git holds as bytes that are
not UTF-8, pasted into a real bash, gives back exactly those bytes; every other
word is ``shlex.quote``'s, unchanged."""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path

import hypothesis
import pytest
from hypothesis import strategies as st

from forest_files.kernel.invisible import invisible
from forest_files.kernel.shellword import (
    command_text,
    first_unprintable,
    git_step,
    printable,
    shell_word,
)
from forest_files.kernel.standing import from_here, stand_at, standing, typed_in

# Names as git's bytes decode (surrogateescape), with the shell's special characters
# next to the bytes that are not UTF-8.
NAMES = [
    b"caf\xe9.md",
    b"\xff",
    b"-\x80lead.md",
    b"a b\xe9'c\".md",
    b"$HOME\xe9`x`\\n",
    b"\xc3(\xa9.md",  # a broken two-byte sequence
    b"caf\xc3\xa9 \xe9.md",  # valid UTF-8 beside a byte that is not
    *(bytes([b]) + b".txt" for b in range(0x80, 0x100)),
]


def _bash_words(words: list[str]) -> list[bytes]:
    script = "printf '%s\\0' " + " ".join(words)
    done = subprocess.run(["bash", "-c", script], capture_output=True, check=True)
    return done.stdout.split(b"\0")[:-1]


def test_shell_word_not_utf8_name_pasted_into_bash_gives_its_bytes_accepted() -> None:
    words = [shell_word(os.fsdecode(raw)) for raw in NAMES]
    for word in words:
        word.encode("utf-8")  # plain text: no lone surrogate left to print
    assert _bash_words(words) == NAMES


@pytest.mark.parametrize("word", ["a.md", "café.md", "it's here", "--words", "…", "", "$x"])
def test_shell_word_utf8_word_is_shlex_quote_accepted(word: str) -> None:
    assert shell_word(word) == shlex.quote(word)
    assert _bash_words([shell_word(word)]) == [word.encode("utf-8")]


def test_shell_word_spells_a_byte_in_octal_as_gnu_ls_does_accepted() -> None:
    assert shell_word(os.fsdecode(b"caf\xe9.md")) == "caf$'\\351'.md"
    assert shell_word(os.fsdecode(b"a b\xe9")) == "'a b'$'\\351'"


# Control characters: each would end or rewrite the printed line if printed raw.
CONTROLS = [
    b"z\n  fix: touch FORGED\n",
    b"\n::notice title=forest::all clean\n",
    b"tab\there.md",
    b"esc\x1b[31mred.md",
    b"cr\rover.md",
    b"del\x7f.md",
    "c1\u0085next.md".encode(),
    "ls\u2028ps\u2029.md".encode(),
    b"\xe9\n\xff",  # beside bytes that are not UTF-8
]


def test_shell_word_control_character_name_one_line_pasted_gives_its_bytes_accepted() -> None:
    words = [shell_word(os.fsdecode(raw)) for raw in CONTROLS]
    for word in words:
        assert word.isprintable(), word  # one line of plain text, nothing to forge with
    assert _bash_words(words) == CONTROLS


# Characters a terminal shows as nothing or as a plain space: printed raw, a route to
# the heading Eli\u200bas reads as one to Elias (kernel/invisible.py).
UNSEEN = ["Eli\u200bas", "Elias\u00a0Keeper", "Eli\u00adas", "Elias\u2060", "Eli\u3164as"]


def test_shell_word_invisible_character_written_as_octal_pasted_gives_it_accepted() -> None:
    words = [shell_word(word) for word in UNSEEN]
    assert words[0] == "Eli$'\\342\\200\\213'as"
    for word in words:
        assert word.isascii(), word  # every one of them seen
    assert _bash_words(words) == [word.encode("utf-8") for word in UNSEEN]
    # at the edge: the plain space and a visible letter stay as shlex quotes them
    assert shell_word("Elias Keeper") == "'Elias Keeper'"
    assert shell_word("Éli") == shlex.quote("Éli")


def test_printable_escapes_controls_and_bytes_keeps_the_rest_accepted() -> None:
    assert printable("a\nb\tc\x1b") == "a\\x0ab\\x09c\\x1b"
    assert printable(os.fsdecode(b"n\xe9.md")) == "n\\xe9.md"
    assert printable("ls\u2028") == "ls\\u2028"
    assert printable("diff\n+line\t1\n", keep="\n\t") == "diff\n+line\t1\n"
    assert printable("café “quoted” …") == "café “quoted” …"


# Line and paragraph separators, bidirectional embeddings, overrides and isolates.
_MOVERS = {0x2028, 0x2029, *range(0x202A, 0x202F), *range(0x2066, 0x206A)}


def _printable_by_character(text: str, keep: str) -> str:
    """What ``printable`` means, one character at a time (its loop before the runs of
    plain ASCII were copied whole)."""
    out = []
    for ch in text:
        if ch in keep or (ch.isascii() and ch.isprintable()):
            out.append(ch)
        elif 0xDC80 <= ord(ch) <= 0xDCFF:
            out.append(f"\\x{ord(ch) - 0xDC00:02x}")
        elif (code := ord(ch)) < 32 or 127 <= code < 160 or code in _MOVERS:
            out.append(f"\\x{code:02x}" if code < 256 else f"\\u{code:04x}")
        elif invisible(ch):
            out.append(f"<U+{ord(ch):04X}>")
        else:
            out.append(ch)
    return "".join(out)


# Plain text, every control, a byte that is not UTF-8, invisible and bidi marks, a
# character kept, a character that is special inside a regular expression's class.
_ALPHABET = "ab \n\t\r\x1b\x7f\x85\xa0\u00e9\u2028\u200b\u202e\ufeff\udce9]^-\\"


@hypothesis.given(
    text=st.text(alphabet=_ALPHABET, max_size=60),
    keep=st.sampled_from(["", "\n", "\n\t", "]^-\\", "\u00e9\n"]),
)
def test_printable_runs_match_each_character_accepted(text: str, keep: str) -> None:
    """Whatever the text and the characters kept, copying runs of plain ASCII whole
    escapes exactly what the character-by-character reading escapes."""
    assert printable(text, keep=keep) == _printable_by_character(text, keep)


def test_printable_long_diff_text_kept_whole_accepted() -> None:
    """A diff of many lines (its newlines kept) comes back unchanged, a control inside
    it escaped in place."""
    text = "".join(f"+line {i}\n" for i in range(20_000))
    assert printable(text, keep="\n") == text
    assert printable(text + "x\x1b[2J\n", keep="\n") == text + "x\\x1b[2J\n"


def test_one_escaper_of_printed_text_accepted() -> None:
    """``printable`` is the one escaper of printed prose: no other module of the package
    builds a ``\\xNN`` escape of its own (coverage.py had one, which left C1 and
    U+2028 raw)."""
    import forest_files

    package = Path(forest_files.__file__).parent
    own = [
        p.relative_to(package).as_posix()
        for p in sorted(package.rglob("*.py"))
        if '"\\\\x{' in p.read_text(encoding="utf-8")
    ]
    assert own == ["kernel/shellword.py"], own


# --- where the user stands: git steps from the top ---------------------------------


def test_stand_at_subdirectory_git_steps_from_the_top_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Typed two folders below the top, a printed git step runs from the top
    (``git -C ../..``), so its paths, the top's like every selector, name the same
    files pasted there; a forest step is left as it is (it finds the top itself)."""
    deep = tmp_path / "a b" / "c"
    deep.mkdir(parents=True)
    monkeypatch.chdir(deep)
    stand_at(tmp_path)
    step = git_step("add", "--", ".forest/ledger", "it's *.md")
    assert command_text(step) == (
        "git -C ../.. --literal-pathspecs add -- .forest/ledger 'it'\"'\"'s *.md'"
    )
    assert from_here(("forest", "check")) == ("forest", "check")
    stand_at(None)
    assert command_text(git_step("add", "--", "x.md")) == "git add -- x.md"


def test_stand_at_top_outside_or_git_prefix_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At the top, and outside the work tree (``--repo`` elsewhere), paths stay as
    they are; in a hook, git's ``GIT_PREFIX`` (the user's folder under the top, the
    hook itself runs at the top) decides."""
    (tmp_path / "top").mkdir()
    monkeypatch.chdir(tmp_path / "top")
    stand_at(tmp_path / "top")
    assert from_here(("git", "add")) == ("git", "add")
    monkeypatch.chdir(tmp_path)
    stand_at(tmp_path / "top")
    assert from_here(("git", "add")) == ("git", "add")
    monkeypatch.setenv("GIT_PREFIX", "docs/deep/")
    stand_at(tmp_path / "top")
    assert from_here(("git", "add")) == ("git", "-C", "../..", "add")
    monkeypatch.delenv("GIT_PREFIX")
    stand_at(None)
    assert from_here(("git", "add")) == ("git", "add")


def test_stand_at_subdirectory_mkdir_and_rm_paths_from_here_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A restore's ``mkdir -p docs/adr`` pasted in ``other/`` made ``other/docs/adr``
    and the restore refused again, a loop; its paths are reached from where the user
    stands now (a name after ``--`` that starts with a dash too)."""
    (tmp_path / "other").mkdir()
    monkeypatch.chdir(tmp_path / "other")
    stand_at(tmp_path)
    assert command_text(("mkdir", "-p", "docs/adr")) == "mkdir -p ../docs/adr"
    assert command_text(("mkdir", "-p", "--", "-x")) == "mkdir -p -- ../-x"
    assert from_here(("rm", "--", "/abs")) == ("rm", "--", "/abs")
    stand_at(None)
    assert command_text(("mkdir", "-p", "docs/adr")) == "mkdir -p docs/adr"


def test_typed_in_before_dash_c_steps_reached_from_there_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``forest -C DIR``: the routes are pasted where the command was typed, not in
    DIR. Typed beside the work tree, every step reaches it (``forest -C repo``,
    ``git -C repo``, ``mkdir -p repo/docs``); typed at the top with ``-C docs``, the
    steps stay as they are (they printed ``git -C ..``, which failed pasted there)."""
    top = tmp_path / "repo"
    (top / "docs").mkdir(parents=True)
    monkeypatch.delenv("GIT_PREFIX", raising=False)
    monkeypatch.chdir(top / "docs")
    try:
        typed_in(str(tmp_path))
        stand_at(top)
        assert command_text(("forest", "restore", "a.md")) == "forest -C repo restore a.md"
        assert command_text(git_step("add", "--", ".forest/ledger")) == (
            "git -C repo add -- .forest/ledger"
        )
        assert command_text(("mkdir", "-p", "docs/adr")) == "mkdir -p repo/docs/adr"
        assert standing() == "docs/"  # a target is still read as -C DIR's, as git does
        typed_in(str(top))
        stand_at(top)
        assert command_text(git_step("add", "--", "x.md")) == "git add -- x.md"
        assert command_text(("forest", "check")) == "forest check"
        typed_in(str(top / "docs"))
        stand_at(top)
        assert command_text(git_step("add", "--", "x.md")) == "git -C .. add -- x.md"
        assert from_here(("forest", "check")) == ("forest", "check")
    finally:
        typed_in(None)
        stand_at(None)


def test_first_unprintable_is_what_printable_escapes_accepted() -> None:
    """The one predicate: a character is unprintable exactly when ``printable`` escapes
    it (every code point to U+3000, and the bytes that are not UTF-8); a character a
    terminal would only hide (kernel/invisible.py) is not refused, only shown by its code."""
    chars = [chr(c) for c in range(0x3000) if not 0xD800 <= c < 0xDC80 and not 0xDD00 <= c < 0xE000]
    for ch in chars:
        escaped = printable(ch) != ch and printable(ch).startswith("\\")
        assert (first_unprintable(f"a{ch}b") is None) == (not escaped), hex(ord(ch))
        if not escaped:
            marked = f"<U+{ord(ch):04X}>"
            assert printable(ch) == (marked if invisible(ch) else ch), hex(ord(ch))
    assert printable("Kep\u200bt \u00a0“x”") == "Kep<U+200B>t <U+00A0>“x”"
    assert first_unprintable("ok\xa0\u2028\x85") == "\u2028"
    for bidi in ("\u202a", "\u202e", "\u2066", "\u2069"):  # reorder what is shown
        assert first_unprintable(f"ab{bidi}c") == bidi
        assert printable(f"a{bidi}b") == f"a\\u{ord(bidi):04x}b"
    assert shell_word("a\u202eb.md") == "a$'\\342\\200\\256'b.md"
    assert first_unprintable("\u05e9\u05dc\u05d5\u05dd \u0627") is None  # right-to-left text itself


def test_absolute_dash_c_steps_reach_the_top_by_its_absolute_path_accepted(
    tmp_path: Path,
) -> None:
    """Typed beside the work tree with an absolute ``-C`` (``typed_in(..., absolute=True)``)
    or an absolute ``--repo`` (``stand_at(..., absolute=True)``), every step reaches the
    top by its absolute path; a relative one by the relative path, as before."""
    from forest_files.kernel.shellword import command_text, git_step
    from forest_files.kernel.standing import stand_at, typed_in

    root, beside = tmp_path / "repo", tmp_path / "beside"
    top = os.path.abspath(root)
    try:
        for flag_in_typed in (True, False):
            typed_in(str(beside), absolute=flag_in_typed)
            stand_at(root, absolute=not flag_in_typed)
            assert command_text(git_step("add", "--", "a.md")) == f"git -C {top} add -- a.md"
            assert command_text(("forest", "check")) == f"forest -C {top} check"
            assert command_text(("mv", "--", "a", "b")) == f"mv -- {top}/a {top}/b"
        typed_in(str(beside))
        stand_at(root)
        assert command_text(git_step("add", "--", "a.md")) == "git -C ../repo add -- a.md"
    finally:
        typed_in(None)
        stand_at(None)


def _sh_words(words: list[str]) -> list[bytes]:
    """``words`` pasted into this machine's ``sh`` (dash on Debian), as ``_bash_words``."""
    script = "printf '%s\\0' " + " ".join(words)
    done = subprocess.run(["sh", "-c", script], capture_output=True, check=True)
    return done.stdout.split(b"\0")[:-1]


def test_route_ansi_c_word_pasted_into_sh_names_another_file_detected() -> None:
    """A route or a refusal whose command writes a name's byte, a control character or
    an invisible one as ``$'\\ooo'`` says it is for bash, zsh or ksh: sh before dash
    0.5.13 (Debian's) reads ``caf$'\\351'.md`` as the name ``caf$\\351.md`` and runs
    ``git mv`` (or ``mkdir -p``) on it. A command without such a word says nothing more,
    nor does one naming a file called ``$'\\351'`` (``shlex.quote``'s spelling)."""
    from forest_files.check.findings import Route
    from forest_files.kernel.errors import ForestError
    from forest_files.kernel.exits import one_line

    legacy, zwsp = os.fsdecode(b"d/caf\xe9.md"), "x\u200b"
    words = [shell_word(legacy)]
    assert _bash_words(words) == [b"d/caf\xe9.md"]
    if _sh_words(words) == [b"d/caf\xe9.md"]:  # an sh that knows $'...' (dash 0.5.13)
        pytest.skip("this sh reads $'...'")
    assert _sh_words(words) == [b"d/caf$\\351.md"]  # another file, not a syntax error
    note = "paste it into bash, zsh or ksh: sh and fish read $'\\ooo' as other characters"
    rename = Route("rename it", (git_step("mv", "--", legacy, "d/café.md"),), note="why")
    assert rename.line() == f"rename it: {rename.command}  (why; {note})"
    make = command_text(("mkdir", "-p", zwsp))
    said = one_line(ForestError(f"{zwsp}/a.md: its directory is gone — make it: `{make}`"))
    assert said.endswith(f"`mkdir -p x$'\\342\\200\\213'` ({note})"), said
    plain = Route("rename it", (git_step("mv", "--", "$'\\351'.md", "b.md"),), note="why")
    assert plain.line() == f"rename it: {plain.command}  (why)"
    assert one_line(ForestError(f"gone: `{command_text(('mkdir', '-p', 'x'))}`")).endswith("`")

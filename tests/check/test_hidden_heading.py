"""check/hidden_heading.py: the routes ``forest check`` prints for a heading a fence
hides are the ones ``forest restore`` takes: each one's command pasted succeeds, and
the advice followed as written leaves the check clean."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from forest_files.check.finding import Finding, Reason
from forest_files.check.routes import routes_for
from tests.custody.test_restore_swallowed import state
from tests.helpers.cli import finding_of, forest, ok
from tests.helpers.git import commit_all, make_repo, pasted, write
from tests.helpers.hidden import cut_open


def test_check_hidden_heading_holder_excluding_a_part_no_refused_restore_routed(
    tmp_path: Path,
) -> None:
    """A fence left open in bound A (``--exclude '#sub'``) over bound B: ``forest
    check`` routed B to ``forest restore 'f.md#A' 'f.md#B'``, which pasted is refused
    (a section that excludes parts keeps no hidden heading); the judge knew the bound
    selectors, not their exclusions. Every route's command pasted succeeds now, and
    the first route, close the block (A's own route's advice, said so: one close for
    both), followed as written, then the restore it names, leaves A and B clean."""
    repo = cut_open(tmp_path)
    edited = (repo / "f.md").read_text()
    found = finding_of(repo, "f.md#B")
    routes = found["routes"]
    for command in [r["command"] for r in routes if r["command"]]:
        if "retire" in command:  # ends the binding: no way back to clean, nor meant as one
            continue
        got = pasted(repo, command)
        assert got.returncode == 0, (command, got.stderr)
    assert routes[0]["label"] == "close the block", routes
    close = (  # A's own route's: one close of the block for both (B's before line 10,
        # followed after A's, put a fence line in B's text)
        "the same as f.md#A's route (follow it once, for both): close the code fence "
        "opened at line 4 before line 6 (or take it out): a line of just 3 backticks "
        "closes it; then `forest restore 'f.md#A'`"
    )
    assert routes[0]["note"] == close, routes
    assert finding_of(repo, "f.md#A")["routes"][0]["note"] == close.split(": ", 1)[1]
    lines = edited.splitlines(keepends=True)
    write(repo, "f.md", "".join([*lines[:5], "```\n", *lines[5:]]))
    assert pasted(repo, "forest restore 'f.md#A'").returncode == 0
    assert finding_of(repo, "f.md#B")["kind"] == "clean"
    assert finding_of(repo, "f.md#A")["kind"] == "clean"


GROUND = "a" * 64


def _routes(root: Path, reason: Reason) -> list[tuple[str, str]]:
    f = Finding("unresolved", "f.md", "f.md#{^treaty}", "b" * 64, GROUND, "c" * 64, reason=reason)
    return [(r.label, r.note) for r in routes_for(f, root=root, source="worktree")]


def test_hidden_route_label_chosen_by_reason_not_advice_words_accepted(tmp_path: Path) -> None:
    """The route's label is chosen by the typed reason (``hidden-split``: only taking
    the fence's line out mends the block), never by the advice's words: route_unresolved.py
    chose "take the block out" when the advice began "take out", and gave a reworded
    advice "close the block"."""
    root = make_repo(tmp_path)
    reworded = "remove line 4, the code fence opened inside the paragraph at line 2"
    routes = _routes(root, Reason("hidden-split", "", 5, advice=reworded))
    assert routes[0] == ("take the block out", reworded), routes
    held = _routes(root, Reason("hidden-split", "f.md#A", 5, advice=reworded))
    assert held[1] == ("or take the block out", reworded), held
    worded = "take out line 4 (as the close advice might one day begin)"
    assert _routes(root, Reason("hidden", "", 5, advice=worded))[0][0] == "close the block"


# The closing line an advice names, in its words: a fence's mark and count, an HTML
# block's end, or a blank line.
CLOSED_BY = re.compile(
    r"before line (\d+) \(or take it out\): (?:a line of just (\d+) (backticks|tildes)"
    r"|the line (\S+)|(a blank line)) closes it"
)


def _closing(note: str) -> tuple[int, str]:
    """The line the advice says to write and the line to write it before, as given."""
    said = CLOSED_BY.search(note)
    assert said is not None, note
    before, count, marks, end, _ = said.groups()
    if count:
        return int(before), ("`" if marks == "backticks" else "~") * int(count)
    return int(before), end or ""


def _hidden_b(tmp_path: Path, text: str, edit: tuple[str, str], eol: str = "\n") -> Path:
    """f.md (``text``, its line ends ``eol``) with B bound, then ``edit`` made in A."""
    repo = make_repo(tmp_path)
    ok(repo, "init")
    (repo / "f.md").write_bytes(text.replace("\n", eol).encode())
    commit_all(repo, "init")
    ok(repo, "adopt", "f.md#B", "--words", "kept")
    commit_all(repo, "adopt")
    (repo / "f.md").write_bytes(text.replace(*edit).replace("\n", eol).encode())
    return repo


BOTH = "# A\n\ntext a\n\n# B\n\nb\n"
TIGHT = "# A\n\ntext a\n# B\n\nb\n"  # no blank line before B: an HTML block runs into it


@pytest.mark.parametrize(
    ("text", "opened", "eol"),
    [
        (BOTH, "````md\n", "\n"),
        (BOTH, "~~~~\n", "\n"),
        (BOTH, "   ```\n", "\n"),
        (BOTH, "<!-- draft\n", "\n"),
        (BOTH, "<pre>\n", "\n"),
        (TIGHT, "<div>\n", "\n"),
        (BOTH, "````\n", "\r\n"),
    ],
    ids=["four-backticks-info", "tildes", "indented", "comment", "pre", "div", "crlf"],
)
def test_hidden_heading_close_advice_names_the_closing_line_followed_clean_detected(
    tmp_path: Path, text: str, opened: str, eol: str
) -> None:
    """A fence or HTML block left open in A over bound B: the check's advice said
    "close the code fence ... before line N" and not with what (a ```` fence is
    closed only by four backticks or more, ``~~~~`` by tildes, ``<!--`` by ``-->``,
    ``<div>`` by a blank line). It names the closing line now; written literally
    before the line named, B is clean. The restore's refusal names the same line."""
    repo = _hidden_b(tmp_path, text, ("text a\n", f"text a\n{opened}"), eol)
    found = finding_of(repo, "f.md#B")
    (note,) = [r["note"] for r in found["routes"] if r["label"] == "close the block"]
    before, closer = _closing(note)
    before_state = state(repo)
    refused = forest(repo, "restore", "f.md#B")
    assert refused.exit_code == 1 and state(repo) == before_state, refused.stdout
    assert CLOSED_BY.search(refused.stderr) is not None, refused.stderr
    assert _closing(refused.stderr) == (before, closer), refused.stderr
    lines = (repo / "f.md").read_bytes().decode().splitlines(keepends=True)
    lines.insert(before - 1, f"{closer}{eol}")
    (repo / "f.md").write_bytes("".join(lines).encode())
    assert finding_of(repo, "f.md#B")["kind"] == "clean", (note, "".join(lines))


def test_hidden_heading_four_backtick_fence_closed_by_three_stays_hidden_detected(
    tmp_path: Path,
) -> None:
    """Why the line is named: a ```` fence closed by the usual three backticks (what
    "close the code fence" reads as) still hides B; the advice says four."""
    repo = _hidden_b(tmp_path, BOTH, ("text a\n", "text a\n````\n"))
    (note,) = [r["note"] for r in finding_of(repo, "f.md#B")["routes"] if r["note"]][:1]
    assert note.endswith(": a line of just 4 backticks closes it"), note
    lines = (repo / "f.md").read_text().splitlines(keepends=True)
    (repo / "f.md").write_text("".join([*lines[:5], "```\n", *lines[5:]]))
    assert finding_of(repo, "f.md#B")["kind"] == "unresolved"


TAKE_OUT_CLOSER = re.compile(r"take out line (\d+) \(the code fence's closing line")


def test_hidden_heading_fence_closed_further_on_advice_takes_its_closer_out_detected(
    tmp_path: Path,
) -> None:
    """A fence opened in A and closed after B's text, C bound after it: the advice named
    the closing line to write before B, and followed literally the fence's own closing
    line then opened a fence over C (C hidden, the check not clean). The advice takes that
    closing line out first (the lines above it keep their numbers), then closes the fence
    before B: followed literally, B and C are clean."""
    text = "# A\n\ntext a\n\n# B\n\nb\n\n# C\n\nc\n"
    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(repo, "f.md", text)
    commit_all(repo, "init")
    ok(repo, "adopt", "f.md#B", "--words", "kept")
    ok(repo, "adopt", "f.md#C", "--words", "kept")
    commit_all(repo, "adopt")
    write(repo, "f.md", text.replace("text a\n", "text a\n```\n").replace("b\n", "b\n```\n"))
    found = finding_of(repo, "f.md#B")
    (note,) = [r["note"] for r in found["routes"] if r["label"] == "close the block"]
    taken = TAKE_OUT_CLOSER.search(note)
    assert taken is not None, note
    before, closer = _closing(note)
    lines = (repo / "f.md").read_text().splitlines(keepends=True)
    del lines[int(taken.group(1)) - 1]
    lines.insert(before - 1, f"{closer}\n")
    (repo / "f.md").write_text("".join(lines))
    assert finding_of(repo, "f.md#B")["kind"] == "clean", (note, "".join(lines))
    assert finding_of(repo, "f.md#C")["kind"] == "clean", (note, "".join(lines))


TAKE_OUT = re.compile(r"take out line (\d+) \(the HTML comment or block's closing line")


@pytest.mark.parametrize("end", ["-->", "  -->  "], ids=["bare", "spaced"])
def test_hidden_heading_html_block_closed_further_on_end_line_taken_out_clean_detected(
    tmp_path: Path, end: str
) -> None:
    """An HTML comment opened in A and ended (``-->`` alone) in bound B, after its
    heading: the check's advice closed it before B and left the old ``-->`` line in B's
    text, so B, followed as written, stayed drifted. The advice takes that line out
    first now; followed literally (the line taken out, then the closer written), B is
    clean."""
    repo = _hidden_b(tmp_path, BOTH, ("text a\n", "text a\n<!--\n"))
    (repo / "f.md").write_text((repo / "f.md").read_text() + f"{end}\n")
    found = finding_of(repo, "f.md#B")
    (note,) = [r["note"] for r in found["routes"] if r["label"] == "close the block"]
    taken = TAKE_OUT.search(note)
    assert taken is not None, note
    before, closer = _closing(note)
    lines = (repo / "f.md").read_text().splitlines(keepends=True)
    del lines[int(taken.group(1)) - 1]
    lines.insert(before - 1, f"{closer}\n")
    write(repo, "f.md", "".join(lines))
    assert finding_of(repo, "f.md#B")["kind"] == "clean", (note, "".join(lines))

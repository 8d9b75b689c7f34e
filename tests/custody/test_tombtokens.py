"""A forgotten secret stays out: the tombstone's token fingerprints catch the token in a
longer line, alone on a line, in --words, in --as and in a file name; URLs, paths and
the repository's own commit hashes in the forgotten body still pass."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from forest_files.custody import tombtokens
from forest_files.custody.record import adopt_sections
from forest_files.custody.repository import Repository
from forest_files.custody.targets import read_section
from forest_files.governance.forget import forget
from forest_files.kernel.errors import ForestError
from forest_files.ledger import read_ledger
from tests.helpers.cli import forest
from tests.helpers.custody import BY, MAX, supersede_as_it_stands
from tests.helpers.git import git, make_repo, write
from tests.helpers.template import copied_from
from tests.helpers.tokens import PATH, TOKEN, URL, build, erase_act

root = copied_from(build)


def _adopt(root: Path, target: str, *, words: str = "ok", by: str = BY) -> None:
    with Repository(root) as repo:
        adopt_sections(repo, [read_section(root, target, (), max_bytes=MAX)], words=words, by=by)


def _refused(root: Path, call, *, match: str, line: int) -> str:  # type: ignore[no-untyped-def]
    segments = sorted((root / ".forest/ledger/segments").iterdir())
    with pytest.raises(ForestError) as info:
        call()
    said = str(info.value)
    assert erase_act(root) in said and f"{match} match" in said and f"line {line}," in said
    assert TOKEN.lower() not in said.lower()
    assert sorted((root / ".forest/ledger/segments").iterdir()) == segments  # nothing written
    return said


# --- the measure ------------------------------------------------------------------------


def test_token_innocent_shapes_accepted() -> None:
    """URLs, paths, file names, timestamps and phrases are plain: never tombstoned."""
    for text in (
        URL,
        PATH,
        "docs/architecture/decisions/0001-record-architecture-decisions.md",
        "2026-01-01T00:00:00.000000Z",
        "correct-horse-battery-staple",
        "https://example.org/docs/guide.md#section-two",
    ):
        assert tombtokens.token_fingerprints("p", text) == frozenset(), text


def test_token_secret_shapes_detected() -> None:
    for text in (
        TOKEN,
        "AKIAIOSFODNN7EXAMPLE",
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        f"https://api.example.com/v1?key={TOKEN}",
        "x9Kq2LmP4vR7tZ1w",  # 16 characters of high entropy
    ):
        assert tombtokens.token_fingerprints("p", text), text
    assert not tombtokens.secret_like("abcdefabcdefabcd")  # 16, low entropy, plain
    assert tombtokens.entropy("aaaa") == 0.0 and tombtokens.entropy("abcd") == 2.0


def test_token_case_width_zero_width_hostile_detected() -> None:
    """Case folding, NFKC (fullwidth letters) and zero-width characters change nothing."""
    want = tombtokens.fingerprint("p", TOKEN)
    fullwidth = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in TOKEN)
    for variant in (TOKEN.upper(), fullwidth, TOKEN[:9] + "\u200b" + TOKEN[9:] + "\ufeff"):
        offered = {fp for _, fp in tombtokens.all_fingerprints("p", f"x {variant} y")}
        assert want in offered, variant


def test_token_in_assignment_quotes_and_path_detected() -> None:
    want = tombtokens.fingerprint("p", TOKEN)
    for text in (f'key="{TOKEN}"', f"token={TOKEN};", f"notes/{TOKEN}.md", f"({TOKEN}),"):
        assert want in {fp for _, fp in tombtokens.all_fingerprints("p", text)}, text


# --- the doors: a live command ------------------------------------------------------------


def test_erase_with_tokens_written_as_format_3_accepted(root: Path) -> None:
    acts = read_ledger(root / ".forest/ledger").acts.values()
    (erase,) = [a for a in acts if a.kind == "erase"]
    assert erase.version == 3 and erase.payload.tokens
    assert {a.version for a in acts if a.kind != "erase"} == {2}
    assert TOKEN not in json.dumps(dict(erase.fields))


def test_forgotten_token_in_longer_line_refused(root: Path) -> None:
    write(root, "c.md", f"# C\n\n## Copy\n\nintro\nold note: token = {TOKEN} (rotated)\n")
    # Lines count from the section's heading: "## Copy", "", "intro", then the note.
    _refused(root, lambda: _adopt(root, "c.md#Copy"), match="token", line=4)


def test_forgotten_token_alone_on_line_refused(root: Path) -> None:
    write(root, "c.md", f"# C\n\n## Copy\n\n{TOKEN}\n")
    _refused(root, lambda: _adopt(root, "c.md#Copy"), match="token", line=3)


def test_forgotten_token_case_and_zero_width_refused(root: Path) -> None:
    hidden = TOKEN.upper()[:5] + "\u200b" + TOKEN.upper()[5:]
    write(root, "c.md", f"# C\n\n## Copy\n\nnew value: `{hidden}`\n")
    _refused(root, lambda: _adopt(root, "c.md#Copy"), match="token", line=3)


def test_forgotten_token_in_words_refused(root: Path) -> None:
    write(root, "c.md", "# C\n\n## Fine\n\nNothing secret here.\n")
    said = _refused(
        root,
        lambda: _adopt(root, "c.md#Fine", words=f"moved\nwas {TOKEN}"),
        match="token",
        line=2,
    )
    assert "words (--words)" in said


def test_forgotten_token_in_words_through_cli_refused(root: Path) -> None:
    write(root, "c.md", "# C\n\n## Fine\n\nNothing secret here.\n")
    result = forest(root, "adopt", "c.md#Fine", "--words", f"key {TOKEN}", "--as", BY)
    assert result.exit_code == 1
    err = result.stderr.strip()
    assert err.startswith("forest: ") and "\n" not in err and TOKEN not in err
    assert "token match" in err and erase_act(root) in err


def test_forgotten_token_in_as_refused(root: Path) -> None:
    write(root, "c.md", "# C\n\n## Fine\n\nNothing secret here.\n")
    said = _refused(
        root,
        lambda: _adopt(root, "c.md#Fine", by=f"Eve {TOKEN} <eve@example.org>"),
        match="token",
        line=1,
    )
    assert "signature (--as)" in said


def test_forgotten_token_in_file_name_refused(root: Path) -> None:
    name = f"notes/{TOKEN}.md"
    write(root, name, "# N\n\n## Fine\n\nNothing secret here.\n")
    said = _refused(root, lambda: _adopt(root, f"{name}#Fine"), match="token", line=1)
    assert "file name" in said or "selector" in said


def test_forgotten_line_in_words_refused(root: Path) -> None:
    """The exact forgotten line as --words: a line match (tombstones once judged only bodies)."""
    write(root, "c.md", "# C\n\n## Fine\n\nNothing secret here.\n")
    _refused(
        root,
        lambda: _adopt(root, "c.md#Fine", words=f"deploy token = {TOKEN}"),
        match="line",
        line=1,
    )


def test_innocent_url_path_commit_hash_after_forget_accepted(root: Path) -> None:
    """The forgotten body named a URL, a path and this repository's commit: each may
    come back in other text (only the forgotten lines and the key are blocked)."""
    commit = (root / ".commit").read_text(encoding="utf-8")
    text = f"# C\n\n## Links\n\nsee {URL} again\nthe file {PATH} moved\nbisected to {commit}.\n"
    write(root, "c.md", text)
    with Repository(root) as repo:
        before = len(repo.ground())
    _adopt(root, "c.md#Links", words=f"links from {URL}")
    with Repository(root) as repo:
        assert len(repo.ground()) == before + 1


def test_forgotten_commit_hash_of_another_repository_detected() -> None:
    """A 40-hex string that names no object of the repository is a token like any."""
    assert tombtokens.token_fingerprints("p", "f" * 8 + "0123456789abcdef" * 2)


def test_tombstone_hit_audited_with_targets_detected(root: Path) -> None:
    write(root, "c.md", f"# C\n\n## Copy\n\n{TOKEN}\n")
    with pytest.raises(ForestError):
        _adopt(root, "c.md#Copy")
    conn = sqlite3.connect(root / ".git/forest/audit.db")
    rows = conn.execute(
        "SELECT reason, targets FROM audit WHERE outcome = 'refused' ORDER BY seq DESC"
    ).fetchall()
    conn.close()
    reason, targets = rows[0]
    assert reason == "tombstone-hit"
    assert json.loads(targets)[:2] == [erase_act(root), "token"]
    raw = (root / ".git/forest/audit.db").read_bytes()
    assert TOKEN.encode() not in raw and TOKEN.lower().encode() not in raw


def test_forget_words_quoting_the_secret_refused(tmp_path: Path) -> None:
    root = make_repo(tmp_path)
    write(root, "doc.md", f"# D\n\n## Keys\n\nkey {TOKEN}\n")
    with Repository.init(root, project_id="p") as repo:
        adopt_sections(
            repo, [read_section(root, "doc.md#Keys", (), max_bytes=MAX)], words="ok", by=BY
        )
        (old,) = [g.content_id for g in repo.ground()]
    write(root, "doc.md", "# D\n\n## Keys\n\nkey in the vault\n")
    supersede_as_it_stands(root, "doc.md#Keys")
    with Repository(root) as repo, pytest.raises(ForestError) as info:
        forget(repo, old, words=f"remove {TOKEN}", by=BY)
    assert "--words" in str(info.value) and TOKEN not in str(info.value)
    assert not [a for a in read_ledger(root / ".forest/ledger").acts.values() if a.kind == "erase"]
    git(root, "status", "--short")

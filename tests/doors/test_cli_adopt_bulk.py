"""``forest adopt --where / --headings [--level N] / --unbound`` as a user meets them:
real git, real ledger; a bulk list asks once on a terminal, needs --yes elsewhere."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.cli import console, forest, ok
from tests.helpers.git import commit_all, git_env, make_repo, write
from tests.helpers.template import copied_from

ADRS = Path(__file__).resolve().parents[2] / "examples" / "adr-gate" / "docs" / "adr"
WORDS = "Accepted in the review"
CANON = """# Canon

Intro.

## People

### Elias

A smith.

### Mara

A sailor.

## Places

```
# a fence, not a heading
```
"""
REQUIRE = """
[require]
"docs/adr/*.md" = { bind = "file", when = { status = "accepted" } }
"canon/*.md" = { bind = "headings", level = 2 }
"""


def _build(where: Path) -> Path:
    repo = make_repo(where)
    ok(repo, "init")
    for f in ADRS.iterdir():
        write(repo, f"docs/adr/{f.name}", f.read_text())
    write(repo, "canon/world.md", CANON)
    commit_all(repo, "start")
    return repo


repo = copied_from(_build)


def segments(repo: Path) -> list[str]:
    return sorted(p.name for p in (repo / ".forest" / "ledger" / "segments").glob("*"))


def bound(repo: Path) -> list[str]:
    got = json.loads(ok(repo, "status", "--json").stdout)
    return sorted(f["selector"] for f in got["findings"] if f["binding"])


def test_adopt_where_status_accepted_only_accepted_accepted(repo: Path) -> None:
    done = ok(
        repo, "adopt", "docs/adr/*.md", "--where", "status=accepted",
        "--exclude", "meta:status", "--words", WORDS,
    )  # fmt: skip
    assert bound(repo) == [
        "docs/adr/0002-use-madr-for-new-decisions.md",
        "docs/adr/0003-keep-the-index-under-forest.md",
    ]
    assert "left out docs/adr/0004-keep-the-index-in-the-git-directory.md" in done.stdout
    assert "left out docs/adr/0001-record-architecture-decisions.md" in done.stdout


def test_adopt_where_repeated_keys_anded_accepted(repo: Path) -> None:
    ok(
        repo, "adopt", "docs/adr/*.md", "--where", "status=accepted,proposed",
        "--where", "deciders=Ada Author", "--words", WORDS,
    )  # fmt: skip
    assert bound(repo) == [
        "docs/adr/0003-keep-the-index-under-forest.md",
        "docs/adr/0004-keep-the-index-in-the-git-directory.md",
    ]


@pytest.mark.parametrize("item", ["status", "sta tus=accepted", "status=", "=accepted"])
def test_adopt_where_bad_key_syntax_refused(repo: Path, item: str) -> None:
    before = segments(repo)
    done = forest(repo, "adopt", "docs/adr/*.md", "--where", item, "--words", WORDS)
    assert done.exit_code == 2, done.output
    assert "--where" in done.output and "KEY=VALUE" in done.output
    assert segments(repo) == before


def test_adopt_where_bad_key_console_one_line_refused(repo: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "forest_files", "adopt", "docs/adr/*.md", "--where", "a b=c",
         "--words", WORDS],
        cwd=repo, env={**os.environ, **git_env()}, stdin=subprocess.DEVNULL,
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.startswith("forest: --where: not KEY=VALUE"), done.stderr
    assert len(done.stderr.splitlines()) == 1
    assert segments(repo) == []


def test_adopt_where_nothing_matches_records_nothing_accepted(repo: Path) -> None:
    done = ok(repo, "adopt", "docs/adr/*.md", "--where", "status=rejected", "--words", WORDS)
    assert "nothing new to adopt" in done.stdout
    assert segments(repo) == []


def test_adopt_headings_yes_every_heading_one_segment_accepted(repo: Path) -> None:
    done = ok(repo, "adopt", "canon/world.md", "--headings", "--yes", "--words", WORDS)
    assert "to adopt (5):" in done.stdout
    assert bound(repo) == [
        "canon/world.md#Canon",
        "canon/world.md#Canon/People",
        "canon/world.md#Canon/People/Elias",
        "canon/world.md#Canon/People/Mara",
        "canon/world.md#Canon/Places",
    ]
    assert len(segments(repo)) == 1
    assert json.loads(ok(repo, "check", "--json").stdout)["ok"] is True


def test_adopt_headings_level_accepted(repo: Path) -> None:
    ok(repo, "adopt", "canon/*.md", "--headings", "--level", "3", "--yes", "--words", WORDS)
    assert bound(repo) == ["canon/world.md#Canon/People/Elias", "canon/world.md#Canon/People/Mara"]


def test_adopt_headings_json_list_on_stderr_skip_bound_accepted(repo: Path) -> None:
    """With --json the list goes to stderr: stdout stays one JSON document; with
    --skip-bound a second run takes in only the headings not bound yet."""
    ok(repo, "adopt", "canon/world.md", "--headings", "--level", "2", "--yes", "--words", WORDS)
    done = ok(
        repo, "adopt", "canon/world.md", "--headings", "--skip-bound", "--yes", "--json",
        "--words", WORDS,
    )  # fmt: skip
    got = json.loads(done.stdout)
    assert sorted(b["selector"] for b in got) == [
        "canon/world.md#Canon",
        "canon/world.md#Canon/People/Elias",
        "canon/world.md#Canon/People/Mara",
    ]
    assert "to adopt (3):" in done.stderr
    assert len(segments(repo)) == 2


def test_adopt_headings_exclude_leaves_that_heading_unbound_accepted(repo: Path) -> None:
    """``--headings --exclude '#People'`` bound ``People`` (and the headings under it)
    on their own, so an edit the exclusion was meant to let through drifted."""
    ok(repo, "adopt", "canon/world.md", "--headings", "--exclude", "#People", "--yes",
       "--words", WORDS)  # fmt: skip
    assert bound(repo) == ["canon/world.md#Canon", "canon/world.md#Canon/Places"]
    page = repo / "canon" / "world.md"
    page.write_text(page.read_text().replace("A smith.", "A smith and a liar."))
    assert json.loads(ok(repo, "check", "--json").stdout)["ok"] is True


def test_adopt_headings_level_excluding_a_sibling_not_refused_accepted(repo: Path) -> None:
    """``--headings --level 2 --exclude '#People'``: the exclusion leaves the level-2
    heading ``People`` out and matches nothing inside ``Places``. It was refused as
    matching nothing, with "or drop --exclude '#People'", the advice that binds it."""
    done = forest(repo, "adopt", "canon/world.md", "--headings", "--level", "2",
                  "--exclude", "#People", "--yes", "--words", WORDS)  # fmt: skip
    assert done.exit_code == 0, done.output
    assert bound(repo) == ["canon/world.md#Canon/Places"]
    page = repo / "canon" / "world.md"
    page.write_text(page.read_text().replace("A smith.", "A smith and a liar."))
    assert json.loads(ok(repo, "check", "--json").stdout)["ok"] is True
    # an exclusion that leaves nothing out is still refused
    typo = forest(repo, "adopt", "canon/world.md", "--headings", "--level", "2",
                  "--exclude", "#Peeple", "--yes", "--words", WORDS)  # fmt: skip
    assert typo.exit_code != 0 and "'#Peeple' matches nothing" in typo.stderr, typo.output


def test_adopt_headings_no_terminal_without_yes_refused(repo: Path) -> None:
    done = forest(repo, "adopt", "canon/world.md", "--headings", "--words", WORDS)
    assert done.exit_code == 1
    assert "forest: 5 section(s) would be adopted" in done.stderr
    assert "--yes" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert segments(repo) == []


@pytest.mark.parametrize(
    "args",
    [
        ["canon/world.md", "--level", "2"],  # --level without --headings
        ["--headings", "--unbound"],
        [],  # nothing named and no --unbound
        # bad option values are usage too (exit 2, as click's own), not refusals (1)
        ["canon/world.md", "--headings", "--level", "9"],
        ["canon/world.md", "--normalise", "whitespace"],
        ["canon/world.md", "--normalise", "emphasis", "--normalise", "emphasis"],
        ["canon/world.md", "--exclude", "normalise:emphasis"],
    ],
)
def test_adopt_bulk_option_misuse_refused(repo: Path, args: list[str]) -> None:
    done = forest(repo, "adopt", *args, "--yes", "--words", WORDS)
    assert done.exit_code == 2, done.output
    assert segments(repo) == []


def test_adopt_unknown_normalisation_typed_usage_one_line_refused(repo: Path) -> None:
    """Typed at the console, a bad ``--normalise`` is click's exit 2 in one ``forest:``
    line naming the known names (it was exit 1, the code of a finding or a refusal)."""
    before = sorted(p.name for p in repo.rglob("*") if ".git" not in p.parts)
    done = console(repo, "adopt", "canon/world.md", "--normalise", "whitespace", "--words", WORDS)
    assert done.returncode == 2, (done.stdout, done.stderr)
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("forest: unknown normalisation 'whitespace'; known: blank-lines"), line
    assert sorted(p.name for p in repo.rglob("*") if ".git" not in p.parts) == before


def test_adopt_unbound_adopts_what_require_reports_accepted(repo: Path) -> None:
    (repo / "forest.toml").write_text((repo / "forest.toml").read_text() + REQUIRE)
    assert json.loads(forest(repo, "check", "--json").stdout)["ok"] is False
    done = ok(repo, "adopt", "--unbound", "--exclude", "meta:status", "--yes", "--words", WORDS)
    assert "to adopt (4):" in done.stdout
    assert bound(repo) == [
        "canon/world.md#Canon/People",
        "canon/world.md#Canon/Places",
        "docs/adr/0002-use-madr-for-new-decisions.md",
        "docs/adr/0003-keep-the-index-under-forest.md",
    ]
    assert json.loads(ok(repo, "check", "--json").stdout)["ok"] is True
    # the status edit its exclusion allows passes
    adr = repo / "docs/adr/0003-keep-the-index-under-forest.md"
    adr.write_text(adr.read_text().replace("status: accepted", "status: superseded"))
    assert json.loads(ok(repo, "check", "--json").stdout)["ok"] is True
    again = ok(repo, "adopt", "--unbound", "--yes", "--words", WORDS)
    assert "nothing new to adopt" in again.stdout


def test_adopt_unbound_under_a_path_only_there_accepted(repo: Path) -> None:
    (repo / "forest.toml").write_text((repo / "forest.toml").read_text() + REQUIRE)
    ok(repo, "adopt", "canon", "--unbound", "--yes", "--words", WORDS)
    assert bound(repo) == ["canon/world.md#Canon/People", "canon/world.md#Canon/Places"]


def test_adopt_unbound_without_require_rules_refused(repo: Path) -> None:
    done = forest(repo, "adopt", "--unbound", "--yes", "--words", WORDS)
    assert done.exit_code == 1
    assert "[require]" in done.stderr
    assert segments(repo) == []


def _on_terminal(repo: Path, answer: bytes) -> tuple[int, str]:
    """``forest adopt --headings`` with stdin a pseudo-terminal answered ``answer``."""
    leader, follower = pty.openpty()
    try:
        os.write(leader, answer)
        proc = subprocess.run(
            [sys.executable, "-m", "forest_files", "adopt", "canon/world.md", "--headings",
             "--level", "3", "--words", WORDS],
            cwd=repo, env={**os.environ, **git_env()}, stdin=follower,
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
    finally:
        os.close(follower)
        os.close(leader)
    return proc.returncode, proc.stdout + proc.stderr


def test_adopt_headings_terminal_asks_once_no_refused_yes_accepted(repo: Path) -> None:
    code, out = _on_terminal(repo, b"n\n")
    assert code == 1 and out.count("adopt these 2 section(s)") == 1, out
    assert "nothing adopted" in out
    assert segments(repo) == []
    code, out = _on_terminal(repo, b"y\n")
    assert code == 0, out
    assert bound(repo) == ["canon/world.md#Canon/People/Elias", "canon/world.md#Canon/People/Mara"]


def test_adopt_headings_by_id_survives_a_retitle_and_answers_to_its_path_accepted(
    tmp_path: Path,
) -> None:
    """A heading whose author gave it an id is bound by it, so a retitle leaves the
    binding clean; the section is found typed either way (`forest diff` by its path)."""
    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(repo, "book.md", "# Book\n\n## Status { #status }\n\nAccepted.\n")
    commit_all(repo, "start")
    ok(repo, "adopt", "book.md", "--headings", "--yes", "--words", WORDS)
    assert bound(repo) == ["book.md#Book", "book.md#{status}"]
    shown = ok(repo, "diff", "book.md#Book/Status")
    assert shown.stdout.startswith("clean book.md#{status}")
    write(repo, "book.md", "# Book\n\n## State { #status }\n\nAccepted.\n")
    states = json.loads(forest(repo, "check", "--json").stdout)["findings"]
    kinds = {f["selector"]: f["kind"] for f in states}
    assert kinds["book.md#{status}"] == "drifted"  # the heading line is its text
    assert ok(repo, "diff", "book.md#Book/State").stdout.startswith("drifted book.md#{status}")


def test_adopt_heading_by_id_bound_by_its_path_refused(tmp_path: Path) -> None:
    """A heading bound by its path, adopted again by its id (or the other way round),
    was a second binding of one section: a contest made by a typo. Refused, the ledger
    untouched; `--skip-bound` leaves it out (an upgrade's `--headings` names ids)."""
    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(repo, "book.md", "# Book\n\n## Status { #status }\n\nAccepted.\n")
    commit_all(repo, "start")
    ok(repo, "adopt", "book.md#Book/Status", "--words", WORDS)
    before = segments(repo)
    again = forest(repo, "adopt", "book.md#{status}", "--words", WORDS)
    assert again.exit_code == 1
    assert "bound already as book.md#Book/Status" in again.stderr
    assert "forest supersede 'book.md#Book/Status'" in again.stderr
    assert segments(repo) == before
    listed = forest(repo, "adopt", "book.md", "--headings", "--yes", "--words", WORDS)
    assert listed.exit_code == 1 and "1 of the 2 sections named is already bound" in listed.stderr
    assert segments(repo) == before
    ok(repo, "adopt", "book.md", "--headings", "--skip-bound", "--yes", "--words", WORDS)
    assert bound(repo) == ["book.md#Book", "book.md#Book/Status"]
    assert [f["kind"] for f in json.loads(ok(repo, "check", "--json").stdout)["findings"]] == [
        "clean",
        "clean",
    ]

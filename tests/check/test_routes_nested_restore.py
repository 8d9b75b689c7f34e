"""A drift's restore route never removes another bound section unasked: when the
section's lines hold a bound section its ground does not (a heading demoted into it),
the route says so and carries ``--drop-nested``; pasted, it works."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, make_repo, pasted, write

WORDS = "I adopt these words as written"
BOOK = "# Book\n\n## Meta\n\nMeta text.\n\n## Basics\n\nBasics text.\n\n## End\n\nEnd text.\n"


def book(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(repo, "book.md", BOOK)
    commit_all(repo, "init")
    ok(repo, "adopt", "book.md", "--headings", "--words", WORDS, "--yes")
    commit_all(repo, "adopt")
    return repo


def restore_route(repo: Path, selector: str) -> dict[str, Any]:
    found = json.loads(forest(repo, "check", "--json").stdout)["findings"]
    drift = next(f for f in found if f["selector"] == selector and f["kind"] == "drifted")
    route: dict[str, Any] = drift["routes"][0]
    return route


def test_restore_route_over_a_demoted_bound_heading_pasted_recovers(tmp_path: Path) -> None:
    repo = book(tmp_path)
    (repo / "book.md").write_text(BOOK.replace("## Basics", "### Basics"))
    route = restore_route(repo, "book.md#Book/Meta")
    assert route["command"] == "forest restore 'book.md#Book/Meta' --drop-nested"
    assert "book.md#Book/Basics" in route["label"] and "line 7" in route["label"]
    assert "move" in route["note"]
    text = forest(repo, "check").stdout
    assert "forest restore 'book.md#Book/Meta' --drop-nested" in text
    done = pasted(repo, route["command"])
    assert done.returncode == 0, done.stderr
    assert "### Basics" not in (repo / "book.md").read_text()


def test_restore_route_over_a_nested_binding_its_ground_holds_plain_accepted(
    tmp_path: Path,
) -> None:
    repo = book(tmp_path)
    (repo / "book.md").write_text(BOOK.replace("# Book\n\n", "# Book\n\nAn intro.\n\n"))
    route = restore_route(repo, "book.md#Book")
    assert route["command"] == "forest restore 'book.md#Book'"
    assert pasted(repo, route["command"]).returncode == 0
    assert (repo / "book.md").read_text() == BOOK

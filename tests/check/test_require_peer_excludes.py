"""The adopt route of a ``[require]``d file no binding covers names the ``--exclude``
its peers (the live bindings of files the same rule requires) were adopted with, read
from their bindings (the ledger records each binding's exclusions); where the peers
disagree it names none and says so (check/coverage_peers.py, check/routes.py).

A team adopts its accepted ADRs with ``--exclude meta:status`` (docs/adr.md), so a
status line may change while the decision text stays frozen. A newly accepted ADR's
route said only ``forest adopt docs/adr/0003.md``: pasted, its binding hashed the
status, and the next status change was a drift. Real repositories, the installed CLI,
the route pasted into bash.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.helpers.cli import console
from tests.helpers.git import commit_all, make_repo, pasted, write

REQUIRE = '\n[require]\n"docs/adr/*.md" = { bind = "file", when = { status = "accepted" } }\n'
BY = ("--as", "Ada <ada@example.org>")


def _adr(n: int, status: str = "accepted") -> str:
    return f"---\nstatus: {status}\n---\n# ADR {n}\n\nWe decide {n}.\n"


def _repo(tmp_path: Path, *peers: tuple[str, ...]) -> Path:
    """ADRs 1..N accepted, each adopted with its own ``peers[i]`` options, committed;
    then ADR 3 accepted and left unbound."""
    root = make_repo(tmp_path)
    for n in range(1, len(peers) + 1):
        write(root, f"docs/adr/000{n}.md", _adr(n))
    commit_all(root, "adrs")
    assert console(root, "init").returncode == 0
    with (root / "forest.toml").open("a", encoding="utf-8") as toml:
        toml.write(REQUIRE)
    for n, options in enumerate(peers, 1):
        done = console(root, "adopt", f"docs/adr/000{n}.md", *options, "--words", "Ok", *BY)
        assert done.returncode == 0, done.stderr
    commit_all(root, "adopted")
    write(root, "docs/adr/0003.md", _adr(3))
    return root


def _route(root: Path) -> str:
    done = console(root, "check")
    assert done.returncode == 1, done.stdout
    (line,) = re.findall(r"^  adopt it: (.*)$", done.stdout, re.MULTILINE)
    return str(line)


def test_require_route_peers_excluded_status_offers_same_exclude_accepted(
    tmp_path: Path,
) -> None:
    """Both peers left ``meta:status`` out: the route does too, and pasted it binds the
    new ADR so that its status may change with no drift."""
    status = ("--exclude", "meta:status")
    root = _repo(tmp_path, status, status)
    line = _route(root)
    command, note = line.split("  (", 1)
    assert command.startswith("forest adopt docs/adr/0003.md --exclude meta:status "), line
    assert "the exclusions its peers under [require] 'docs/adr/*.md' were adopted with" in note
    done = pasted(root, command.replace("'…'", f"'Accepted in review' --as '{BY[1]}'"))
    assert done.returncode == 0, done.stderr
    commit_all(root, "adr 3 adopted")
    write(root, "docs/adr/0003.md", _adr(3, "superseded by 4"))
    commit_all(root, "adr 3 superseded")
    checked = console(root, "check")
    assert checked.returncode == 0, checked.stdout  # its status is left out: no drift


def test_require_route_peers_disagree_names_no_exclude_detected(tmp_path: Path) -> None:
    """One peer left ``meta:status`` out, the other did not: the route guesses neither
    and says the peers disagree, naming both."""
    root = _repo(tmp_path, ("--exclude", "meta:status"), ())
    line = _route(root)
    command, note = line.split("  (", 1)
    assert "--exclude" not in command, line
    assert (
        "its peers under [require] 'docs/adr/*.md' were adopted with different exclusions "
        "(--exclude meta:status; none): add the --exclude you mean" in note
    ), note

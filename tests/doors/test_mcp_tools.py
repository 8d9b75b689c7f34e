"""The MCP tools' answers, in process: paging and continuation, sealed and erased
ground withheld, recall over custody only, propose refused on a forgotten line and
kept apart from the watcher's capture, arguments refused in one line; the proposals
store's version-1 file upgraded with its proposals kept."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from forest_files.custody import proposals_sql
from forest_files.custody.proposals import ProposalStore
from forest_files.custody.repository import Repository
from forest_files.doors.mcp import schemas as s
from forest_files.doors.mcp import tools
from forest_files.doors.mcp.session import Session
from forest_files.doors.watch import judge
from forest_files.kernel.bounds import MAX_PROPOSED_CHARS
from forest_files.kernel.errors import ForestError
from tests.helpers.custody import BY
from tests.helpers.forgetting import SECRET, SENTINEL, adopted_then_cleaned
from tests.helpers.git import write
from tests.helpers.state import shared_state
from tests.helpers.watch import EDITED, bound_repo

pytest.importorskip("mcp")
from forest_files.doors.mcp.server import advertised, call

AGENT = "Claude (agent) <agent@example.org>"


def _propose(root: Path, text: str, selector: str = "a.md#Keep") -> tools.Answer:
    args = {"selector": selector, "text": text, "signature": AGENT, "reason": "clearer"}
    return tools.propose(Session(root), s.parse("propose", s.ProposeIn, args))


def test_mcp_ground_paged_next_cursor_accepted(tmp_path: Path) -> None:
    root = bound_repo(tmp_path, files=3)
    first = tools.ground(Session(root), s.GroundIn.model_validate({"limit": 2})).data
    rest = tools.ground(Session(root), s.GroundIn.model_validate({"cursor": 2, "limit": 2})).data
    assert (len(first["bindings"]), first["next_cursor"], first["total"]) == (2, 2, 3)
    assert (len(rest["bindings"]), rest["next_cursor"]) == (1, None)
    assert {b["status"] for b in first["bindings"] + rest["bindings"]} == {"clean"}


def test_mcp_read_ground_sealed_withheld_refused(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    with Repository(root) as repo:
        (ground,) = [g.content_id for g in repo.ground()]
        repo.seal(ground, words="withheld for now", by=BY)
    with pytest.raises(ForestError, match="no live ground"):
        tools.read_ground(Session(root), s.ReadGroundIn.model_validate({"binding": "a.md#Keep"}))
    found = tools.recall(Session(root), s.RecallIn.model_validate({"query": "kept words"})).data
    assert all("kept words" not in p["excerpt"] for p in found["packets"])


def test_mcp_recall_erased_text_and_proposals_never_found_refused(tmp_path: Path) -> None:
    root, old = adopted_then_cleaned(tmp_path)
    from tests.helpers.cli import ok

    ok(root, "forget", old, "--words", "pasted by mistake", "--as", BY)
    write(root, "doc.md", (root / "doc.md").read_text(encoding="utf-8") + "\nWOMBAT-LOCAL\n")
    with ProposalStore(root) as store:  # local-only text: never a recall answer
        store.propose(
            binding="b", path="doc.md", selector="doc.md#Keys", derived_from="x",
            ground_hash="y", text="## Keys\n\nWOMBAT-LOCAL\n",
        )  # fmt: skip
    for query in (SENTINEL, "WOMBAT-LOCAL", "deploy token"):
        found = tools.recall(Session(root), s.RecallIn.model_validate({"query": query})).data
        assert all(SENTINEL not in p["excerpt"] for p in found["packets"]), query
        assert all("WOMBAT" not in p["excerpt"] for p in found["packets"]), query
    with pytest.raises(ForestError, match="no live binding"):
        tools.read_ground(Session(root), s.ReadGroundIn.model_validate({"binding": old}))


def test_mcp_propose_forgotten_line_refused(tmp_path: Path) -> None:
    root, old = adopted_then_cleaned(tmp_path)
    from tests.helpers.cli import ok

    ok(root, "forget", old, "--words", "pasted by mistake", "--as", BY)
    text = f"## Keys\n\nThe keys live in the vault.\n{SECRET}\n\n"
    with pytest.raises(ForestError, match="erase act") as refused:
        _propose(root, text, "doc.md#Keys")
    assert SENTINEL not in str(refused.value)
    with ProposalStore(root) as store:
        assert store.open_proposals() == []


def test_mcp_propose_beside_watcher_capture_accepted(tmp_path: Path) -> None:
    """The watcher's capture of a real edit and the agent's proposal stay apart: the
    agent's later text replaces only its own."""
    root = bound_repo(tmp_path)
    (root / "a.md").write_text(EDITED, encoding="utf-8")
    (item,) = judge.check(root, ("a.md",), threading.Event())
    watched = judge.capture(root, item, (), 1 << 20)
    assert watched is not None
    first = _propose(root, "## Keep\n\nagent words\n\n").data
    again = _propose(root, "## Keep\n\nagent words, again\n\n").data
    assert (first["outcome"], again["outcome"], again["id"]) == ("new", "replaced", first["id"])
    with ProposalStore(root) as store:
        kept = {p.source: p for p in store.open_proposals()}
    assert set(kept) == {"watch", "mcp"} and kept["watch"].id == watched.split(" ")[0]
    assert kept["watch"].text == "## Keep\n\nedited words\n\n"
    assert (kept["mcp"].claimed_by, kept["mcp"].reason) == (AGENT, "clearer")
    assert (root / "a.md").read_text(encoding="utf-8") == EDITED  # the file is not touched


def test_mcp_propose_adopted_by_author_accepted(tmp_path: Path) -> None:
    from tests.helpers.cli import ok

    root = bound_repo(tmp_path)
    pid = _propose(root, "## Keep\n\nagent words\n\n").data["id"]
    ok(root, "proposal", "adopt", pid, "--words", "The agent's line reads better", "--as", BY)
    assert "agent words" in (root / "a.md").read_text(encoding="utf-8")
    assert ok(root, "check").exit_code == 0


def test_mcp_arguments_one_line_refused(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    long = "## Keep\n" + "z" * (MAX_PROPOSED_CHARS + 1)
    cases = [
        ("read_ground", {"binding": "a.md#Keep", "max_chars": s.MAX_READ_CHARS + 1}),
        ("read_ground", {"binding": 7}),
        ("ground", {"limit": s.MAX_PAGE + 1}),
        ("ground", {"cursor": -1}),
        ("recall", {"query": "q" * (s.MAX_QUERY_CHARS + 1)}),
        ("recall", {"query": "kept", "limit": s.MAX_RECALL + 1}),
        ("propose", {"selector": "a.md#Keep", "text": long, "signature": AGENT, "reason": "r"}),
        ("propose", {"selector": "a.md#Keep", "text": "x", "signature": "NAME", "reason": "r"}),
        ("propose", {"selector": "a.md#Keep", "text": "x", "signature": "…", "reason": "r"}),
        ("propose", {"selector": "a.md#Keep", "text": "x\x00", "signature": AGENT, "reason": "r"}),
        ("check", {"extra": "no"}),
        (
            "propose",
            {
                "selector": "a.md#Keep",
                "text": "## Keep\n\nkept words\n\n",
                "signature": AGENT,
                "reason": "r",
            },
        ),
    ]
    for name, args in cases:
        result = call(Session(root), name, args, read_only=False)
        text = result.content[0].text
        assert result.isError and text.startswith("forest: ") and "\n" not in text, (name, text)
        assert "zzzz" not in text and len(text) < 500
    assert "propose" not in advertised(read_only=True)


def test_mcp_recall_query_without_words_refused(tmp_path: Path) -> None:
    """A query with no word to search for is refused naming the argument, never
    repeating its value (the query may hold what the agent should not spread)."""
    root = bound_repo(tmp_path)
    result = call(Session(root), "recall", {"query": "¿¡ --- !?"}, read_only=False)
    text = result.content[0].text
    assert result.isError and text.startswith("forest: ") and "query" in text, text
    assert "¿¡" not in text and "!?" not in text


def test_mcp_limits_at_bound_accepted(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    for name, args in [
        ("read_ground", {"binding": "a.md#Keep", "max_chars": s.MAX_READ_CHARS}),
        ("ground", {"limit": s.MAX_PAGE}),
        ("recall", {"query": "q" * s.MAX_QUERY_CHARS, "limit": s.MAX_RECALL}),
    ]:
        assert not call(Session(root), name, args, read_only=False).isError, name


def test_mcp_proposals_version_one_file_rebuilt(tmp_path: Path) -> None:
    """A local.db of schema 1 (before agents' claims) is upgraded in place: its open
    proposal stays readable and open, and an agent's may now stand beside it."""
    root = bound_repo(tmp_path)
    path = shared_state(root) / "local.db"
    path.parent.mkdir(parents=True, exist_ok=True)
    v1 = proposals_sql._V1.replace(" IF NOT EXISTS", "")
    with sqlite3.connect(path) as conn:
        conn.executescript(v1 + "PRAGMA user_version = 1;")
        row = ("p1", "b1", "a.md", "a.md#Title/Keep", "g", "h", "old text", "th", "watch")
        conn.execute(
            "INSERT INTO proposals VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 't', 't', 'open', NULL)", row
        )
    conn.close()
    with ProposalStore(root) as store:
        (kept,) = store.open_proposals()
        assert (kept.id, kept.text, kept.claimed_by, kept.reason) == ("p1", "old text", None, None)
        store.propose(
            binding="b1", path="a.md", selector="a.md#Title/Keep", derived_from="g",
            ground_hash="h", text="agent", source="mcp", claimed_by=AGENT,
        )  # fmt: skip
        assert len(store.open_proposals()) == 2
        assert (
            store.conn.execute("PRAGMA user_version").fetchone()[0] == proposals_sql.SCHEMA_VERSION
        )


def test_mcp_proposal_shown_by_review_beside_capture_accepted(tmp_path: Path) -> None:
    import io

    from forest_files.doors.cli.review_cmd import run_in_process
    from forest_files.doors.review.keys import Console
    from forest_files.doors.review.run import review_here

    root = bound_repo(tmp_path)
    (root / "a.md").write_text(EDITED, encoding="utf-8")
    (item,) = judge.check(root, ("a.md",), threading.Event())
    watched = judge.capture(root, item, (), 1 << 20)
    assert watched is not None
    agent = _propose(root, "## Keep\n\nagent words\n\n").data["id"]
    shown = io.StringIO()
    console = Console(io.StringIO("n\nn\n"), shown)
    tally = review_here(root, None, colour=False, run=run_in_process(root), console=console)
    assert not tally.recorded() and tally.outcomes["kept"] == 2
    out = shown.getvalue()
    assert watched.split(" ")[0] in out and agent in out and f"by {AGENT} (claimed)" in out


def test_mcp_read_ground_sealed_then_forgotten_no_live_ground_refused(tmp_path: Path) -> None:
    """A sealed ground a forget erased is marked in the ground map (custody/ground.py);
    the mark is no contest head: the tool says there is no live ground."""
    from forest_files.governance.forget import forget

    root = bound_repo(tmp_path)
    with Repository(root) as repo:
        (ground,) = [g.content_id for g in repo.ground()]
        repo.seal(ground, words="withheld for now", by=BY)
        forget(repo, ground, words="a token was pasted here", by=BY)
    with pytest.raises(ForestError, match="no live ground"):
        tools.read_ground(Session(root), s.ReadGroundIn.model_validate({"binding": "a.md#Keep"}))


def test_mcp_selector_several_or_none_names_tool_arguments_refused(tmp_path: Path) -> None:
    """A selector naming two bindings (a heading tail) or none is refused with the
    file's selectors (``tools.UNKNOWN_SHOWN`` of them, then how many more) and what
    this door takes; never the command line's ``--binding ID`` or ``forest status``.
    Passing a listed selector whole, or a binding id ``ground`` lists, is answered."""
    from tests.helpers.custody import init_and_adopt
    from tests.helpers.git import commit_all, make_repo

    root = make_repo(tmp_path)
    twice = "# Cast\n\n## Elias\n\none\n\n# Crew\n\n## Elias\n\ntwo\n\n"
    write(root, "b.md", twice + "".join(f"# S{i}\n\ns{i}\n\n" for i in range(3)))
    write(root, "c.md", "".join(f"# T{i}\n\nt{i}\n\n" for i in range(6)))
    b_sections = ["b.md#Cast/Elias", "b.md#Crew/Elias", "b.md#S0", "b.md#S1", "b.md#S2"]
    init_and_adopt(root, [*b_sections, *(f"c.md#T{i}" for i in range(6))])
    commit_all(root, "adopt")
    cases = [
        ("read_ground", {"binding": "b.md#Elias"}, "`binding`"),
        ("propose", {"selector": "b.md#Elias", "text": "## Elias\n\nx\n\n"}, "`selector`"),
        ("read_ground", {"binding": "c.md#Nobody"}, "and 1 more"),
        ("read_ground", {"binding": "d.md#Nobody"}, "(those of d.md: none)"),
    ]
    for name, args, said in cases:
        args |= {"signature": AGENT, "reason": "r"} if name == "propose" else {}
        result = call(Session(root), name, args, read_only=False)
        text = result.content[0].text
        assert result.isError and text.startswith("forest: ") and "\n" not in text, text
        assert said in text and "the `ground` tool lists" in text, text
        assert "--binding" not in text and "forest status" not in text, text
    refused = call(Session(root), "read_ground", {"binding": "b.md#Elias"}, read_only=False)
    listed = refused.content[0].text.split("(those of b.md: ")[1].split(")")[0].split(", ")
    assert listed == sorted(b_sections)
    for selector in listed:
        read = call(Session(root), "read_ground", {"binding": selector}, read_only=False)
        assert not read.isError, read.content[0].text
    page = call(Session(root), "ground", {}, read_only=False).structuredContent
    assert page is not None
    for row in page["bindings"]:
        read = call(Session(root), "read_ground", {"binding": row["binding"]}, read_only=False)
        assert not read.isError and row["selector"] in read.content[0].text
    assert len(b_sections) == tools.UNKNOWN_SHOWN  # b.md: all shown; c.md: one more


@pytest.mark.parametrize(
    "text",
    ["agent words\n\n", "## Kept\n\nagent words\n\n", "## Keep\n\nagent\n\n## Extra\n\nmore\n\n"],
    ids=["heading-dropped", "heading-renamed", "heading-inside"],
)
def test_mcp_propose_text_not_standing_as_section_refused(tmp_path: Path, text: str) -> None:
    """A text that, written into the file, would not read back as the section (its
    heading dropped or renamed, a heading inside it ending it) could never be adopted:
    the agent is told at once, and nothing is kept."""
    root = bound_repo(tmp_path)
    with pytest.raises(tools.ToolRefused, match="would not read back as the section"):
        _propose(root, text)
    with ProposalStore(root) as store:
        assert store.open_proposals() == []


def test_mcp_propose_removing_a_nested_bound_section_refused(tmp_path: Path) -> None:
    """A text for ``## A`` that lacks the bound ``### A.1`` standing in A's lines would,
    adopted, delete A.1's bound text: the agent is told at once, naming A.1 and its
    line, and nothing is kept; a text that keeps A.1 is kept."""
    from tests.helpers.cli import ok
    from tests.helpers.git import commit_all, make_repo

    root = make_repo(tmp_path)
    ok(root, "init")
    write(root, "book.md", "# Book\n\n## A\n\nA text.\n\n### A.1\n\nA.1 text.\n\n## B\n\nB.\n")
    commit_all(root, "init")
    ok(root, "adopt", "book.md", "--headings", "--words", "adopt", "--as", BY, "--yes")
    commit_all(root, "adopt")
    with pytest.raises(tools.ToolRefused) as refused:
        _propose(root, "## A\n\nA, shorter.\n\n", "book.md#Book/A")
    line = str(refused.value)
    assert "\n" not in line and "would remove book.md#Book/A/A.1" in line, line
    assert "(line 7)" in line and "keep that section" in line, line
    with ProposalStore(root) as store:
        assert store.open_proposals() == []
    kept = _propose(root, "## A\n\nA, shorter.\n\n### A.1\n\nA.1 text.\n\n", "book.md#Book/A")
    assert kept.data["outcome"] == "new"


def test_mcp_propose_unsafe_selector_and_bidi_text_said_whole_refused(tmp_path: Path) -> None:
    """A selector reaching outside the repository (``../a.md#Keep``, ``/etc/passwd#Keep``)
    was refused with the command line's whole list of valid selectors, cut at 400
    characters mid-quote (``… 'src/pay.py::Invoice``); a text holding a bidirectional
    override (U+202E) was refused as holding "a C1 control or U+2028/U+2029". Each
    refusal now says what it is, whole, and what to pass; nothing is kept."""
    root = bound_repo(tmp_path)
    said = {}
    for selector, text in (
        ("../a.md#Keep", "## Keep\n\nx\n\n"),
        ("/etc/passwd#Keep", "## Keep\n\nx\n\n"),
        ("a.md#Keep", "## Keep\n\nkept \u202ewords\n\n"),
    ):
        args = {"selector": selector, "text": text, "signature": AGENT, "reason": "r"}
        result = call(Session(root), "propose", args, read_only=False)
        line = result.content[0].text
        assert result.isError and line.startswith("forest: ") and "\n" not in line, line
        assert "valid selectors" not in line and len(line) < 400, line
        said[selector] = line
    assert "'..'" in said["../a.md#Keep"] and "`ground` tool" in said["../a.md#Keep"]
    assert "absolute" in said["/etc/passwd#Keep"] and "`ground` tool" in said["/etc/passwd#Keep"]
    assert "bidirectional" in said["a.md#Keep"], said["a.md#Keep"]
    with ProposalStore(root) as store:
        assert store.open_proposals() == []


def test_mcp_propose_bidi_heading_refusal_names_a_person_route(tmp_path: Path) -> None:
    """A section whose heading holds a bidirectional override (U+202E): every proposal
    was refused with advice that cannot work. With the override in the text, "remove
    it"; without it, "keep its heading line as read_ground gives it" (which holds it).
    The refusal now says no proposal can be kept for that section and names the
    person's command, which works pasted into a shell (the override spelled
    ``$'\\342\\200\\256'``); nothing is kept."""
    import subprocess

    from tests.helpers.cli import FOREST, ok
    from tests.helpers.git import commit_all, make_repo

    root = make_repo(tmp_path)
    ok(root, "init")
    write(root, "a.md", "# Doc\n\n## Ke\u202eep\n\nkept words\n\n## Other\n\nother\n")
    commit_all(root, "init")
    ok(root, "adopt", "a.md", "--headings", "--words", "adopt", "--as", BY, "--yes")
    commit_all(root, "adopt")
    said = []
    for text in ("## Ke\u202eep\n\nclearer words\n\n", "## Keep\n\nclearer words\n\n"):
        args = {"selector": "a.md#Doc/Ke\u202eep", "text": text, "signature": AGENT, "reason": "r"}
        result = call(Session(root), "propose", args, read_only=False)
        line = result.content[0].text
        assert result.isError and line.startswith("forest: ") and "\n" not in line, line
        assert "; remove it" not in line and "as read_ground gives it" not in line, line
        assert "\u202e" not in line and "a person" in line, line
        said.append(line.split("`")[1])
    with ProposalStore(root) as store:
        assert store.open_proposals() == []
    command = said[0]
    assert command.startswith("forest supersede ") and "\\342\\200\\256" in command, command
    write(root, "a.md", "# Doc\n\n## Ke\u202eep\n\nclearer words\n\n## Other\n\nother\n")
    typed = command.replace("forest", FOREST, 1).replace("…", "clearer")
    done = subprocess.run(
        ["bash", "-c", typed], cwd=root, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, (typed, done.stderr)

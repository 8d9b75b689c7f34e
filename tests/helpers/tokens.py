"""A repository whose forgotten body held a key, a URL, a path and its own commit hash,
shared by the token tombstone tests (tests/custody/test_tombtokens.py and
tests/check/test_tombhits.py).

Returns: the constants of that story and ``build`` (the repository, committed after the
forget; ``.commit`` in its work tree names the commit the body quoted).
"""

from __future__ import annotations

from pathlib import Path

from forest_files.custody.record import adopt_sections
from forest_files.custody.repository import Repository
from forest_files.custody.targets import read_section
from forest_files.governance.forget import forget
from forest_files.ledger import read_ledger
from tests.helpers.custody import BY, MAX, supersede_as_it_stands
from tests.helpers.git import commit_all, make_repo, write

__all__ = ["BY", "CLEAN", "PATH", "TOKEN", "URL", "build", "erase_act"]

TOKEN = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"  # a made-up key, shaped like a real one
URL = "https://github.com/acme/widgets/pull/1234"
PATH = "forest_files/custody/tombstone.py"


def keys(commit: str) -> str:
    return (
        "# Ops\n\n## Keys\n\nThe keys live in the vault.\n"
        f"deploy token = {TOKEN}\n"
        f"review: {URL}\nfixed by commit {commit}\ncode in {PATH}\n\n## Other\n\nother words\n"
    )


CLEAN = "# Ops\n\n## Keys\n\nThe keys live in the vault.\n\n## Other\n\nother words\n"


def build(base: Path) -> Path:
    root = make_repo(base)
    write(root, "README.md", "# r\n")
    with Repository.init(root, project_id="p"):
        pass
    commit = commit_all(root, "start")
    write(root, "doc.md", keys(commit))
    write(root, ".commit", commit)
    with Repository(root) as repo:
        section = read_section(root, "doc.md#Keys", (), max_bytes=MAX)
        adopt_sections(repo, [section], words="ok", by=BY)
        (old,) = [g.content_id for g in repo.ground()]
    commit_all(root, "adopt")
    write(root, "doc.md", CLEAN)
    supersede_as_it_stands(root, "doc.md#Keys")
    with Repository(root) as repo:
        forget(repo, old, words="a key was pasted by mistake", by=BY)
    commit_all(root, "forget")
    return root


def erase_act(root: Path) -> str:
    acts = read_ledger(root / ".forest/ledger").acts.values()
    (act,) = [a.id for a in acts if a.kind == "erase"]
    return act

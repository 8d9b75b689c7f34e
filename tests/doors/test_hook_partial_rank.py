"""A partial commit's hook ranks a renamed subsection's places from the index it judges.

``git commit a.md`` runs the pre-commit hook against a temporary index (HEAD and
a.md) named by ``GIT_INDEX_FILE``, while ``.git/index`` keeps other staged changes.
A subsection renamed under a chapter whose binding was rebound to b.md is offered
the headings under the chapter there (check/move_rebound.py), ranked by the text
they share with its ground (check/renames.py). b.md is not part of the commit, so
the hook listed a.md only and reads b.md on its own (explain.py ``_reader``): that
read must take b.md from the index being committed, not from ``.git/index``, whose
b.md (staged, left out of this commit) has the two headings' texts swapped.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from forest_files.check.findings import WORDS_PLACEHOLDER
from forest_files.doors import hooks as githooks
from tests.helpers.chapter import BOOK, CHAPTER, LEFT, SUB_A
from tests.helpers.cli import console, ok
from tests.helpers.git import commit_all, git, make_repo, pasted, write
from tests.helpers.template import copied_from

HEAD = (
    "# Vol\n\n## Chapter\n\nintro\n\n### Sub X\n\nzzz\n\n### Sub Y\n\na text\n\n"
    "### Sub B\n\nb text\n"
)
SWAPPED = HEAD.replace("zzz", "@@").replace("a text", "zzz").replace("@@", "a text")
SUB_X, SUB_Y = "b.md#Vol/Chapter/Sub X", "b.md#Vol/Chapter/Sub Y"


def _build(base: Path) -> Path:
    root = make_repo(base)
    ok(root, "init")
    write(root, "a.md", BOOK)
    commit_all(root, "files")
    ok(root, "adopt", CHAPTER, SUB_A, "a.md#Book/Chapter/Sub B", "--words", "as it stands")
    commit_all(root, "adopt")
    write(root, "a.md", LEFT)
    write(root, "b.md", HEAD)
    doc = json.loads(console(root, "check", "--json").stdout)
    (chapter,) = [f for f in doc["findings"] if f["selector"] == CHAPTER]
    route = next(r["command"] for r in chapter["routes"] if "rebind" in (r["command"] or ""))
    done = pasted(root, route.replace(shlex.quote(WORDS_PLACEHOLDER), shlex.quote("moved")))
    assert done.returncode == 0, (route, done.stdout, done.stderr)
    commit_all(root, "chapter moved")  # Sub A left unresolved (no hook installed yet)
    return root


repo = copied_from(_build)


def test_partial_commit_hook_ranks_places_from_committed_index_detected(repo: Path) -> None:
    write(repo, "b.md", SWAPPED)
    git(repo, "add", "b.md")  # staged, but not part of the commit below
    write(repo, "a.md", LEFT + "\nmore\n")
    githooks.install(repo)
    hook = pasted(repo, "git commit -q -m 'a.md edited' a.md")
    said = hook.stdout + hook.stderr
    assert hook.returncode != 0 and SUB_X in said and SUB_Y in said, said
    # HEAD's b.md (the one committed with a.md) holds Sub A's text under Sub Y
    assert said.index(SUB_Y) < said.index(SUB_X), said
    staged = json.loads(console(repo, "check", "--staged", "--json").stdout)
    (mine,) = [f for f in staged["findings"] if f["selector"] == SUB_A]
    assert mine["candidates"][:2] == [SUB_X, SUB_Y], mine  # .git/index's b.md

"""Which modules the pre-commit hook loads on a commit that moves bound Markdown files.

Counted in a fresh interpreter, around the real hook (``main``), run twice (the second
run reads the view the first cached): a move of Markdown sections needs no Python
symbol parser (``text/pysymbol.py``, ``text/pydefs.py``), no region markers
(``text/region.py``), and of gitio only the modules that run its git calls
(attributes, config, history, search, tree listing and worktree modules unloaded:
``forest_files.gitio`` loads a name's module on first use, kernel/lazy.py). Every
name gitio exports is still its defining module's object.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import forest_files.gitio as gitio
from tests.check.test_hook_move_cost import _hook_twice
from tests.helpers.cli import forest
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.template import copied_from

UNUSED = (
    "forest_files.text.pysymbol",
    "forest_files.text.pydefs",
    "forest_files.text.region",
    "forest_files.gitio.attr_rules",
    "forest_files.gitio.attr_source",
    "forest_files.gitio.config",
    "forest_files.gitio.eol",
    "forest_files.gitio.history",
    "forest_files.gitio.search",
    "forest_files.gitio.tree_paths",
    "forest_files.gitio.worktrees",
)


def _build(where: Path) -> Path:
    root = make_repo(where)
    for name in ("a", "b"):
        write(
            root,
            f"old/{name}.md",
            f"# {name}\n\n## One\n\nfirst of {name}\n\n## Two\n\nsecond of {name}\n",
        )
    commit_all(root, "docs")
    assert forest(root, "init").exit_code == 0
    for name in ("a", "b"):
        for part in ("One", "Two"):
            done = forest(root, "adopt", f"old/{name}.md#{name}/{part}", "--words", "as written")
            assert done.exit_code == 0, done.stdout + done.stderr
    commit_all(root, "custody")
    return root


repo = copied_from(_build)


def test_hook_markdown_move_unused_modules_never_imported_accepted(repo: Path) -> None:
    """Hostile: a commit moving bound Markdown files made the hook import the Python
    symbol parser, the region markers (text/extract.py's imports) and every gitio
    module (the package's imports), none of which it calls for Markdown sections."""
    git(repo, "mv", "old", "new")
    proc = _hook_twice(repo, UNUSED)
    assert "moved old/a.md#a/One" in proc.stderr, proc.stderr
    assert "forest rebind 'old/b.md#b/Two' 'new/b.md#b/Two'" in proc.stderr, proc.stderr
    assert proc.stdout.strip() == "1 []", proc.stdout


def test_gitio_every_export_is_the_defining_modules_object_accepted() -> None:
    names = list(gitio.__all__)
    assert set(names) <= set(dir(gitio))
    for name in names:
        value = getattr(gitio, name)
        home = getattr(value, "__module__", None)
        if isinstance(home, str) and home.startswith("forest_files.gitio"):
            assert getattr(importlib.import_module(home), name) is value, name

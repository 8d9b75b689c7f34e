"""The names of ``forest_files.kernel.paths`` agree with each other and with the modules
that lay the files out."""

from __future__ import annotations

from forest_files.custody.repo_init import FOREST_DIR
from forest_files.custody.repository import INDEX_NAME, LEDGER_DIR
from forest_files.kernel import paths
from forest_files.ledger import segments, strays


def test_paths_layout_agrees_accepted() -> None:
    assert paths.LEDGER_PREFIX == strays.LEDGER_PREFIX == LEDGER_DIR + "/"
    assert (segments.SEGMENTS_DIR, segments.BODIES_DIR) == (paths.SEGMENTS, paths.BODIES)
    assert (FOREST_DIR, INDEX_NAME) == (paths.FOREST_DIR, paths.INDEX_NAME)
    local = (paths.CACHE_DIR, paths.VIEWS_DIR, paths.CAPTURES_DIR, paths.TMP_DIR, paths.PURGE_DIR)
    for name in local:  # names under the state directories in the git directory
        assert "/" not in name and not name.startswith(".")
    assert paths.GITATTRIBUTES_LINE.startswith(paths.LEDGER_DIR)

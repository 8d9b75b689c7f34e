"""``forest log`` lists acts oldest first on every clone: the author's index applied
them as they were recorded, a clone's replay applies independent acts by id; the
listing orders them by dependency, then by the time each claims, then by id."""

from __future__ import annotations

from pathlib import Path

import pytest

from forest_files.custody.repository import Repository
from forest_files.kernel.hashing import hash_body
from tests.helpers.git import commit_all, git, make_repo

ADA = "Ada Lovelace <ada@example.org>"
WORDS = "Adopted as the canon of this chapter"

pytestmark = pytest.mark.slow  # nine recorded acts and a clone: about a second


def test_log_on_a_fresh_clone_lists_acts_as_the_author_recorded_them_accepted(
    tmp_path: Path,
) -> None:
    origin = make_repo(tmp_path, "origin")
    Repository.init(origin).close()
    with Repository(origin) as r:
        ids = [
            r.adopt_text(f"Chapter {n} says what it says.", words=WORDS, by=ADA) for n in range(8)
        ]
        text = "Chapter 0 says it better."
        r.supersede(ids[0], text, words=WORDS, by=ADA, expected_body_hash=hash_body(text))
        authored = [(e.act_id, e.kind) for e in r.log()]
    commit_all(origin, "canon")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(origin), str(clone))
    with Repository(clone) as r:
        listed = r.log()
    assert [(e.act_id, e.kind) for e in listed] == authored  # 1 in 40,320 by chance before
    times = [e.created_at for e in listed]
    assert times == sorted(times) and listed[-1].kind == "supersede"

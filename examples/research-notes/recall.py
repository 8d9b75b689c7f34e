"""Recall over the repository's custody store through the library API.

Run inside the notes repository: python recall.py WORDS...
Each lead is a preview (never a whole body), with its jurisdiction first and
whether it is adopted ground; recall never promotes anything.
"""

import sys

from forest_files.custody.repository import Repository

query = " ".join(sys.argv[1:]) or "commons"
with Repository(".") as repo:
    store = repo.synced()  # the local index, in step with the ledger
    words = {g.content_id: (g.adopted_by, g.words) for g in repo.ground()}
    leads = store.recall_similar(query, excerpt_len=80, limit=5)
    print(f"recall {query!r}: {len(leads)} lead(s)")
    for lead in leads:
        row = store.get(lead["id"])
        ground = row is not None and row["content_id"] in words
        preview = " ".join(lead["excerpt"].split())
        print(f"- [{lead['jurisdiction']}, {lead['trust']}] {preview}")
        if ground:
            by, why = words[row["content_id"]]
            print(f"  ground, adopted by {by}: {why}")

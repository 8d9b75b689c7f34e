"""The repository anchor: the one non-pair entry with no origin.

Stores: at most one ``anchor`` entry per project id, with fully
deterministic content (fixed timestamp, empty nonce, no origins), so its
content id is identical on every clone and needs no ledger act.
Refuses: a blank project id.
Returns: the anchor's entry id (creating it on first use); ``anchor_content_id`` the
content id it has.
Test: tests/text/test_anchor.py
"""

from __future__ import annotations

from forest_files.kernel.errors import ForestError
from forest_files.store.base import StoreBase
from forest_files.store.entryrow import entry_row

ANCHOR_CREATED_AT = "1970-01-01T00:00:00.000Z"
ANCHOR_SIGNATURE = "forest-files"


def anchor_body(project_id: str) -> str:
    return f"forest-files repository anchor for project {project_id}"


def anchor_content_id(project_id: str, scope: str) -> str:
    """The content id ``ensure_anchor`` gives the anchor of ``project_id`` in ``scope``
    (what ``forest fsck`` holds an anchor row to: no act declares it)."""
    return entry_row(
        scope=scope,
        stamp=(ANCHOR_CREATED_AT, ""),
        jurisdiction="home",
        bucket="anchor",
        source=None,
        signature=ANCHOR_SIGNATURE,
        body=anchor_body(project_id),
        links=(),
        meta={"project_id": project_id},
    ).content_id


class AnchorMixin(StoreBase):
    def ensure_anchor(self, project_id: str) -> int:
        """Return the anchor entry of ``project_id``, deriving it if absent."""
        if not isinstance(project_id, str) or not project_id.strip():
            raise ForestError("anchor: project id must be a non-blank string (see forest.toml)")
        with self.atomic():
            row = self.conn.execute(
                "SELECT id FROM entries WHERE bucket = 'anchor' AND body = ? AND scope = ?",
                (anchor_body(project_id), self.scope),
            ).fetchone()
            if row is not None:
                return int(row[0])
            return self.insert_entry(
                body=anchor_body(project_id),
                jurisdiction="home",
                bucket="anchor",
                signature=ANCHOR_SIGNATURE,
                meta={"project_id": project_id},
                created_at=ANCHOR_CREATED_AT,
                nonce="",
            )

"""A narrated tour of the forest-files custody store, run in a throwaway directory.

Stores: a woods.db and a session scroll in a temporary directory, removed at exit.
Refuses: nothing itself; it shows two refusals of the store (praise as adoption,
a raw SQL UPDATE) and prints their messages.
Returns: exit status 0 when every step behaved as described.
Test: tests/project/test_readme.py
"""

from __future__ import annotations

import sqlite3
import sys
import tempfile
from pathlib import Path

from forest_files import (
    CeremonyRefusal,
    ForestStore,
    Scroll,
    commit_turn,
    hash_body,
    root_to_ground,
)


def say(step: str, detail: object = "") -> None:
    print(f"{step}: {detail}" if detail != "" else step)


def tour(workdir: Path) -> None:
    with ForestStore(workdir / "woods.db") as store:
        store.init_schema()
        scroll = Scroll(workdir / "session.scroll")

        # 1. A conversation turn: the exact head goes to the scroll, the pair
        #    into the store, pointing at the scroll record.
        pair = commit_turn(
            store, scroll, "Her brother's name is Elias.", "Noted: her brother is Elias."
        )
        say("commit_turn wrote pair", pair)

        # 2. A model's guess, with ancestry back to the turn it came from.
        guess = "Maybe Elias betrayed her."
        draft = store.write(
            body=guess,
            bucket="inference",
            signature="model",
            origins=[(pair, "derived_from")],
        )
        say("wrote inference", draft)

        # 3. Recall gives bounded previews, jurisdiction first; never a body.
        scraps = store.recall_similar("Elias")
        say("recall_similar('Elias') keys", list(scraps[0]))
        for scrap in scraps:
            say("  scrap", scrap)

        # 4. Walk: open mints a ticket, around discloses routes, step spends
        #    the ticket along one disclosed route, read shows that one body.
        trail = store.open(pair)
        for scrap in store.around(trail):
            say("  around", f"#{scrap['id']} routes={scrap['routes']}")
        trail = store.step(trail, "in", target=draft)
        shown = store.read(trail)
        say("read", f"#{shown['id']} {shown['body']!r}")

        # 5. Adoption: the author roots exactly the text that was shown.
        root_to_ground(
            store,
            entry_id=draft,
            adopting_words="Yes, record this as canon exactly as written.",
            adopting_signature="author",
            expected_body_hash=hash_body(shown["body"]),
        )
        say("root_to_ground: inference is ground", store.is_ground(draft))

        # 6. Correction is supersession: new words, a new entry, a new adoption.
        correction = "Elias never betrayed her; he was the one who warned her."
        fixed = store.supersede(
            old_id=draft,
            new_body=correction,
            adopting_words="Chapter 3 settles it: replace the old line with this one.",
            adopting_signature="author",
            expected_body_hash=hash_body(correction),
        )
        say("supersede wrote", fixed)
        say("old entry is ground", store.is_ground(draft))
        say("new entry is ground", store.is_ground(fixed))
        ground = [row["id"] for row in store.conn.execute("SELECT id FROM current_ground")]
        say("current_ground view", ground)
        assert not store.is_ground(draft) and store.is_ground(fixed)

        # 7. Refusals. Praise is not an authority act.
        note = store.write(
            body="Elias keeps a lantern lit in the window.",
            bucket="note",
            signature="model",
            origins=[(pair, "derived_from")],
        )
        try:
            root_to_ground(
                store,
                entry_id=note,
                adopting_words="lovely!",
                adopting_signature="author",
                expected_body_hash=hash_body("Elias keeps a lantern lit in the window."),
            )
        except CeremonyRefusal as exc:
            say("refused praise-only root", exc)
        else:
            raise SystemExit("a praise-only root was accepted")

        # ...and history is not edited in place, not even with raw SQL.
        try:
            store.conn.execute("UPDATE entries SET body = 'rewritten' WHERE id = ?", (fixed,))
        except sqlite3.DatabaseError as exc:
            say("refused raw UPDATE", exc)
        else:
            raise SystemExit("a raw UPDATE of an entry was accepted")
        old = store.get(draft)
        assert old is not None
        say("old words are still on record", repr(old["body"]))


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="forest-tour-") as tmp:
        say("store directory", tmp)
        tour(Path(tmp))
    say("tour complete")
    return 0


if __name__ == "__main__":
    sys.exit(main())

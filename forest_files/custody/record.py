"""File custody acts: adopt sections, supersede them, rebind and retire bindings.

Stores (through ``Repository.record``: one transaction, one ledger segment per
call, every act applied by the one applier): for each adopted section one
``adopt`` act — an ``import`` entry (origin: the repository anchor, stored
exactly as selected, never scrubbed), its adoption record and its binding
(path, full selector, exclusions, normalisation, hash algorithm, section hash).
Refuses: a signature without authority over a path an act touches (derived
by the applier: the bound paths of the chain, both paths of a rebind); an
adoption of a section already bound; a supersede whose binding is retired or
whose section text is unchanged; a rebind to text that is not ground unless
words are given (then the rebind act carries a supersession of that ground);
everything the applier refuses.
Returns: ``BoundSection`` values (content ids, never local row ids).
Test: tests/custody/test_file_custody.py

This module holds no code of its own: it is the one import path of file
custody's acts, handing on, under the names callers have always imported, the
rooms that do the work:

* ``section_text`` — ``SectionText`` and ``BoundSection``, what is recorded and returned;
* ``record_adopt`` — ``adopt_sections``, ``unbound_only``, ``split_rules``;
* ``record_rebind`` — ``supersede_section(s)``, ``rebind_section(s)`` and
  ``rebind_and_supersede`` (the hook's one route);
* ``record_ground`` — ``ground_body`` (and ``ground_of``): the live head of a chain;
* ``record_retire`` — ``retire_binding``.
"""

from __future__ import annotations

from forest_files.custody.record_adopt import adopt_sections, split_rules, unbound_only
from forest_files.custody.record_ground import ground_body
from forest_files.custody.record_rebind import (
    rebind_and_supersede,
    rebind_section,
    rebind_sections,
    supersede_section,
    supersede_sections,
)
from forest_files.custody.record_retire import retire_binding
from forest_files.custody.section_text import BoundSection, SectionText

__all__ = [
    "BoundSection",
    "SectionText",
    "adopt_sections",
    "ground_body",
    "rebind_and_supersede",
    "rebind_section",
    "rebind_sections",
    "retire_binding",
    "split_rules",
    "supersede_section",
    "supersede_sections",
    "unbound_only",
]

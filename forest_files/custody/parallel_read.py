"""Many adoption targets read at once: parts of the list in child processes.

Reading a target is Python work (decode, normalise, parse the Markdown outline or
the Python module, cut the section), so one interpreter reads one file at a
time. From ``PARALLEL_MIN`` targets on, and with more than one CPU, the list is
cut into contiguous parts, one per CPU (at most ``MAX_PARTS``): this process
reads the first while each child (``forest_files.custody.read_part``)
reads one of the others with ``targets.read_sections``, the same reader.

A child gets its part through its stdin (``kernel.spawn``), and what it hands
back is only ever used when it echoes that very part and read all of it: a
child that refuses a target, fails, dies or answers anything else leaves its
part to this process, which reads it again in order, so a refusal is exactly the one a serial read
gives (the first bad target in list order, with its type and message), and a
target's text is always one a reader of this installation produced.

Stores: nothing (children read; each part's list of targets goes through the
child's stdin).
Refuses: what ``read_sections`` refuses, raised here in list order.
Returns: ``SectionText`` values in target order.
Test: tests/custody/test_parallel_read.py
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from forest_files.custody.record import SectionText
from forest_files.kernel import spawn as childproc

PARALLEL_MIN = 2000  # below this the children's start-up (~0.15 s) costs what it saves
MAX_PARTS = 4
Progress = Callable[[int], None]


def parts_for(count: int, cpus: int) -> int:
    """How many parts a list of ``count`` targets is read in on ``cpus`` CPUs."""
    if count < PARALLEL_MIN or cpus < 2:
        return 1
    return min(cpus, MAX_PARTS)


def read_in_parts(
    root: Path,
    specs: Sequence[str],
    *,
    max_bytes: int,
    parts: int,
    read: Callable[[Sequence[str], Progress | None], list[SectionText]],
    progress: Progress | None = None,
) -> list[SectionText]:
    """``read(specs, progress)`` over ``specs`` cut into ``parts``; children read all
    parts but the first. ``read`` is the serial reader (``targets.read_sections``)."""
    size = -(-len(specs) // parts)
    chunks = [list(specs[at : at + size]) for at in range(0, len(specs), size)]
    children: list[_Child | None] = []
    try:
        for chunk in chunks[1:]:
            children.append(_Child.start(root, chunk, max_bytes))
        out = read(chunks[0], progress)
        for chunk, child in zip(chunks[1:], children, strict=True):
            got = child.result() if child is not None else None
            if got is None:  # refused, failed or never started: read here, in order
                got = read(chunk, progress)
            elif progress is not None:
                progress(len(got))
            out += got
        return out
    finally:
        for child in children:
            if child is not None:
                child.stop()


class _Child:
    """One child reading one part."""

    def __init__(self, child: childproc.Child, specs: list[str]) -> None:
        self.child, self.specs = child, specs

    @classmethod
    def start(cls, root: Path, specs: list[str], max_bytes: int) -> _Child | None:
        job = {"root": str(root), "specs": specs, "max_bytes": max_bytes}
        child = childproc.spawn(
            "forest_files.custody.read_part", job=json.dumps(job).encode("utf-8")
        )
        return None if child is None else cls(child, specs)

    def result(self) -> list[SectionText] | None:
        """The part's sections, or None unless the child read every one of them."""
        answer = self.child.answer()
        if answer is None:
            return None
        try:
            sections = [_section(item) for item in json.loads(answer)["sections"]]
        except (KeyError, TypeError, ValueError):
            return None
        return sections if len(sections) == len(self.specs) else None

    def stop(self) -> None:
        self.child.stop()


def _section(item: dict[str, Any]) -> SectionText:
    fields = {
        "path": item["path"],
        "selector": item["selector"],
        "excludes": tuple(item["excludes"]),
        "text": item["text"],
        "normalisation": item["normalisation"],
        "hash_algo": item["hash_algo"],
    }
    if not all(isinstance(v, str) for k, v in fields.items() if k != "excludes"):
        raise TypeError("a section field is not text")
    return SectionText(**fields)

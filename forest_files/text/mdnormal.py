"""The Markdown normalisations: list markers, emphasis markers, link style.

Each reads the section with the project's CommonMark parser (pulldown-cmark
through pyromark, as markdown.py does), never a regular expression over the
text, and rewrites only what the parser reports: list items' bullets, emphasis
delimiters, links and their definitions. Registered, named and versioned in
normalisers.py; what each lets through: docs/normalisation.md. ``link_label``
and ``gap_definitions`` (CommonMark's label matching, the definitions no parser
event reports) are public: refdefs.py reads definitions with them.

Stores: nothing (a small cache of the last files' link definitions).
Refuses: nothing (what it cannot read the same way it keeps as written).
Returns: normalised text.
Test: tests/text/test_normalisers.py
"""

from __future__ import annotations

import functools
import re


def _events(text: str) -> list[tuple[object, int, int]]:
    import pyromark

    from forest_files.text.markdown import _options

    return [
        (event, span["start"], span["end"])
        for event, span in pyromark.events_with_range(text, options=_options())
    ]


def _start(event: object) -> object:
    return event.get("Start") if isinstance(event, dict) else None


def list_markers(text: str, _whole: str = "") -> str:
    """The ``*`` and ``+`` bullets of unordered list items read as ``-``; ordered
    items (their numbers and ``.``/``)``) are never touched."""
    if "*" not in text and "+" not in text:
        return text
    data = bytearray(text.encode("utf-8"))
    lists: list[bool] = []  # for each open list: unordered?
    for event, start, _ in _events(text):
        opened = _start(event)
        if isinstance(opened, dict) and "List" in opened:
            lists.append(opened["List"] is None)
        elif opened == "Item" and lists and lists[-1] and data[start] in (42, 43):
            data[start : start + 1] = b"-"
        elif (
            isinstance(event, dict)
            and isinstance(event.get("End"), dict)
            and "List" in event["End"]
        ):
            lists.pop()
    return data.decode("utf-8")


def _ends_list(event: object) -> bool:
    return isinstance(event, dict) and isinstance(event.get("End"), dict) and "List" in event["End"]


def emphasis(text: str, _whole: str = "") -> str:
    """Emphasis delimiters read as ``*x*`` and strong ones as ``**x**``, whichever of
    ``*`` and ``_`` was written; the text between them is kept as written."""
    if "_" not in text:
        return text
    data = bytearray(text.encode("utf-8"))
    for event, start, end in _events(text):
        opened = _start(event)
        width = 1 if opened == "Emphasis" else 2 if opened == "Strong" else 0
        if not width or end - start < 2 * width:
            continue
        head, tail = data[start : start + width], data[end - width : end]
        if set(head) <= {42, 95} and set(tail) <= {42, 95}:  # '*' and '_'
            data[start : start + width] = b"*" * width
            data[end - width : end] = b"*" * width
    return data.decode("utf-8")


# --- link style -------------------------------------------------------------------------

_DEF = re.compile(rb"^ {0,3}\[((?:[^\]\\\n]|\\.){1,999})\]:")
_PLAIN = re.compile(r'[^\s()<>\\"&\x00-\x1f\x7f]+')
_REFS = ("Reference", "Collapsed", "Shortcut")


def link_label(raw: str) -> str:
    """A link label as CommonMark matches it: case folded, inner whitespace collapsed."""
    return " ".join(raw.split()).casefold()


def _target(url: str, title: str) -> str:
    """The destination and title as one injective text: ``url`` when it is plain and
    has no title, else ``<url> "title"`` with ``\\``, ``<``, ``>``, ``"`` escaped."""
    if not title and _PLAIN.fullmatch(url):
        return url
    esc = re.sub(r'([\\<>"])', r"\\\1", url)
    return f"<{esc}>" + (' "' + re.sub(r'([\\"])', r"\\\1", title) + '"' if title else "")


def gap_definitions(
    data: bytes, events: list[tuple[object, int, int]], lo: int
) -> list[tuple[int, int, str]]:
    """Link reference definitions at the top level of ``data`` from byte ``lo`` on:
    (first byte, end byte, label) of each, continuation lines included. A definition
    makes no parser event, so it is a non-blank line outside every top-level block."""
    covered: list[tuple[int, int]] = []
    depth = 0
    for event, start, end in events:
        if isinstance(event, dict) and "Start" in event:
            if depth == 0:
                covered.append((start, end))
            depth += 1
        elif isinstance(event, dict) and "End" in event:
            depth -= 1
        elif depth == 0:
            covered.append((start, end))
    out: list[tuple[int, int, str]] = []
    pos, k = lo, 0
    covered.sort()
    while pos < len(data):
        nl = data.find(b"\n", pos)
        end = len(data) if nl < 0 else nl + 1
        while k < len(covered) and covered[k][1] <= pos:
            k += 1
        inside = k < len(covered) and covered[k][0] < end
        line = data[pos:end]
        if not inside and line.strip():
            m = _DEF.match(line)
            if m is not None:
                out.append((pos, end, link_label(m.group(1).decode("utf-8"))))
            elif out and out[-1][1] == pos:
                out[-1] = (out[-1][0], end, out[-1][2])  # a continuation line
        pos = end
    return out


@functools.lru_cache(maxsize=8)
def _doc_links(whole: str) -> tuple[dict[str, tuple[str, str]], dict[str, int]]:
    """The whole file's reference resolution (label -> (url, title)) and how many
    definitions each label has there."""
    events = _events(whole)
    found: dict[str, tuple[str, str]] = {}
    for event, _, _ in events:
        opened = _start(event)
        if isinstance(opened, dict):
            link = opened.get("Link") or opened.get("Image")
            if link and link["link_type"] in _REFS:
                found.setdefault(link_label(link["id"]), (link["dest_url"], link["title"]))
    counts: dict[str, int] = {}
    for _, _, label in gap_definitions(whole.encode("utf-8"), events, 0):
        counts[label] = counts.get(label, 0) + 1
    return found, counts


def link_style(text: str, whole: str = "") -> str:
    """Inline and reference links (and images) read the same: each becomes
    ``[text](target)`` with the target its definition gives, resolved over the whole
    file; a definition line in the section whose every use there was so rewritten
    (and the file defines once) is dropped. A link whose text holds another link or
    image is kept as written."""
    if "[" not in text:
        return text
    doc, counts = _doc_links(whole or text)
    seen = " ".join(text.split()).casefold()  # only the labels the section may use
    usable = (k for k in doc if k in seen and "]" not in k)
    prefix = "".join(f"[{k}]: x\n" for k in usable) + "\n"
    data = (prefix + text).encode("utf-8")
    events = _events(prefix + text)
    lo = len(prefix.encode("utf-8"))
    edits: list[tuple[int, int, bytes]] = []
    inlined: set[str] = set()
    kept: set[str] = set()
    for pos, (event, start, end) in enumerate(events):
        opened = _start(event)
        if not isinstance(opened, dict) or start < lo:
            continue
        image = "Image" in opened
        link = opened.get("Image") if image else opened.get("Link")
        if not link:
            continue
        kind = link["link_type"]
        if kind not in ("Inline", *_REFS):
            continue
        label = link_label(link["id"]) if kind in _REFS else ""
        new = _rewrite(data, events, pos, image, link, doc.get(label))
        if new is None:
            kept.add(label)
            continue
        inlined.add(label)
        if kind == "Collapsed" and data[end : end + 2] == b"[]":  # the parser's span stops short
            end += 2
        edits.append((start, end, new))
    for start, end, label in gap_definitions(data, events, lo):
        if label in inlined and label not in kept and counts.get(label) == 1:
            edits.append((start, end, b""))
    for start, end, new in sorted(edits, reverse=True):
        data = data[:start] + new + data[end:]
    return data[lo:].decode("utf-8")


def _rewrite(
    data: bytes,
    events: list[tuple[object, int, int]],
    pos: int,
    image: bool,
    link: dict[str, str],
    resolved: tuple[str, str] | None,
) -> bytes | None:
    """The canonical source of the link opened at ``events[pos]``, or None to keep it."""
    if link["link_type"] != "Inline":
        if resolved is None:
            return None
        url, title = resolved
    else:
        url, title = link["dest_url"], link["title"]
    depth, first, last = 0, -1, -1
    for event, start, end in events[pos + 1 :]:
        if isinstance(event, dict) and "End" in event:
            if depth == 0:
                break
            depth -= 1
        elif isinstance(event, dict) and "Start" in event:
            inner = event["Start"]
            if isinstance(inner, dict) and ("Link" in inner or "Image" in inner):
                return None
            depth += 1
        first = start if first < 0 else min(first, start)
        last = max(last, end)
    content = data[first:last] if first >= 0 else b""
    bang = b"!" if image else b""
    return bang + b"[" + content + b"](" + _target(url, title).encode("utf-8") + b")"

"""Declared normalisations: named, versioned rewrites of a section before it is hashed.

A binding may declare normalisations (``forest.toml`` ``[bind."GLOB"] normalise =
[...]`` or ``forest adopt --normalise NAME``); each is recorded with the binding as
``name@version`` (ledger format 3, ``binding.normalise``), sorted, so every clone
hashes the section the same way. ``extract`` applies them after the exclusions, in
the fixed order of ``ORDER`` (not the recorded order), and the section hash is the
hash of the result: the ground body of such a binding is its normalised text.
Each normalisation is idempotent and, where Markdown structure matters, reads it
with the project's CommonMark parser (pulldown-cmark), never a regular expression;
Python ones read ``tokenize``/``ast``. What each lets through and what stays
drift: docs/normalisation.md. In memory a normalisation rides with a binding's
exclusions as the item ``normalise:NAME@V`` (exclude.py), so every door that cuts a
section with a binding's exclusions normalises it the same way.

Stores: nothing.
Refuses (``NormaliseError``, one line listing the known names): an unknown name,
an unknown version, a normalisation on the wrong kind of target (``py-*`` only on a
Python symbol; the Markdown ones never on one).
Returns: canonical ``name@version`` strings, and normalised text.
Test: tests/text/test_normalisers.py, tests/text/test_normalisers_python.py
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from forest_files.text.selector import SelectorError


class NormaliseError(SelectorError):
    """A normalisation is unknown, of an unknown version, or does not fit the target."""


PREFIX = "normalise:"  # the in-memory item beside a binding's exclusions


@dataclass(frozen=True)
class Normaliser:
    """One named, versioned normalisation; ``targets``: any | markdown | python."""

    name: str
    version: int
    targets: str
    run: Callable[[str, str], str]  # (section text, whole file text) -> text

    @property
    def label(self) -> str:
        return f"{self.name}@{self.version}"


# --- generic text ----------------------------------------------------------------------

_TRAILING = re.compile(r"[ \t]+$", re.M)


def trailing_whitespace(text: str, _whole: str = "") -> str:
    """Spaces and tabs at the end of each line removed (nothing else)."""
    return _TRAILING.sub("", text)


def blank_lines(text: str, _whole: str = "") -> str:
    """Each run of blank lines (empty or spaces/tabs only) becomes one empty line;
    a run at the start or the end of the section is dropped."""
    out: list[str] = []
    pending = False
    for line in text.splitlines(keepends=True) if "\n" in text else [text]:
        if not line.strip(" \t\n"):
            pending = bool(out)
            continue
        if pending:
            out.append("\n")
            pending = False
        out.append(line)
    return "".join(out)


# --- Markdown (pulldown-cmark through pyromark, as markdown.py) ----------------------------


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


def _label(raw: str) -> str:
    """A link label as CommonMark matches it: case folded, inner whitespace collapsed."""
    return " ".join(raw.split()).casefold()


def _target(url: str, title: str) -> str:
    """The destination and title as one injective text: ``url`` when it is plain and
    has no title, else ``<url> "title"`` with ``\\``, ``<``, ``>``, ``"`` escaped."""
    if not title and _PLAIN.fullmatch(url):
        return url
    esc = re.sub(r'([\\<>"])', r"\\\1", url)
    return f"<{esc}>" + (' "' + re.sub(r'([\\"])', r"\\\1", title) + '"' if title else "")


def _gap_defs(
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
                out.append((pos, end, _label(m.group(1).decode("utf-8"))))
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
                found.setdefault(_label(link["id"]), (link["dest_url"], link["title"]))
    counts: dict[str, int] = {}
    for _, _, label in _gap_defs(whole.encode("utf-8"), events, 0):
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
        label = _label(link["id"]) if kind in _REFS else ""
        new = _rewrite(data, events, pos, image, link, doc.get(label))
        if new is None:
            kept.add(label)
            continue
        inlined.add(label)
        if kind == "Collapsed" and data[end : end + 2] == b"[]":  # the parser's span stops short
            end += 2
        edits.append((start, end, new))
    for start, end, label in _gap_defs(data, events, lo):
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


# --- Python (tokenize, ast) ----------------------------------------------------------------


def py_comments(text: str, _whole: str = "") -> str:
    """Comments removed, with the spaces before them; a line that held only a
    comment is dropped. Strings (docstrings included) are never touched. Text
    ``tokenize`` cannot read is kept as it is."""
    import io
    import tokenize

    if "#" not in text:
        return text
    cuts: dict[int, int] = {}
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT:
                cuts[tok.start[0]] = tok.start[1]
    except (tokenize.TokenError, SyntaxError):
        return text
    out: list[str] = []
    for number, line in enumerate(text.splitlines(keepends=True), 1):
        col = cuts.get(number)
        if col is None:
            out.append(line)
            continue
        kept = line[:col].rstrip(" \t")
        if kept.strip():
            out.append(kept + ("\n" if line.endswith("\n") else ""))
    return "".join(out)


def py_docstrings(text: str, _whole: str = "") -> str:
    """The docstring of each function, class (and module) in the section removed:
    the lines of a first statement that is a string literal alone on its lines (kept
    when a second bare string follows it, so the result reads the same again).
    Every other string is kept; text ``ast`` cannot parse is kept as it is."""
    import ast

    if '"' not in text and "'" not in text:
        return text
    shift, source = 0, text
    if text[:1] in (" ", "\t"):  # a method: parse it inside a block
        shift, source = 1, "if 1:\n" + text
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return text
    lines = text.splitlines(keepends=True)
    drop: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if not body or not _bare_string(body[0]):
            continue
        if len(body) > 1 and _bare_string(body[1]):
            continue  # kept: removing it would make the next string a docstring
        assert isinstance(body[0], ast.Expr)
        first, last = body[0].lineno - shift, (body[0].end_lineno or 0) - shift
        if _alone(lines, first, last, body[0].col_offset, body[0].end_col_offset):
            drop.update(range(first, last + 1))
    return "".join(line for n, line in enumerate(lines, 1) if n not in drop)


def _bare_string(node: object) -> bool:
    """A statement that is a string literal alone (what a docstring is)."""
    import ast

    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )


def _alone(lines: list[str], first: int, last: int, col: int, end_col: int | None) -> bool:
    """Whether the statement spans whole lines: only indentation before it, nothing
    after it (ast columns are UTF-8 byte offsets)."""
    if first < 1 or last > len(lines) or end_col is None:
        return False
    head = lines[first - 1].encode("utf-8")[:col]
    tail = lines[last - 1].encode("utf-8")[end_col:]
    return not head.strip() and not tail.strip()


# --- the registry ----------------------------------------------------------------------------

_ALL = (
    Normaliser("link-style", 1, "markdown", link_style),
    Normaliser("emphasis", 1, "markdown", emphasis),
    Normaliser("list-markers", 1, "markdown", list_markers),
    Normaliser("py-docstrings", 1, "python", py_docstrings),
    Normaliser("py-comments", 1, "python", py_comments),
    Normaliser("trailing-whitespace", 1, "any", trailing_whitespace),
    Normaliser("blank-lines", 1, "any", blank_lines),
)
ORDER = tuple(n.label for n in _ALL)  # the order they apply in (each version's place fixed)
REGISTRY = {n.label: n for n in _ALL}
CURRENT = {n.name: n for n in _ALL}  # the version a bare name means


def known() -> str:
    """The known names, for a refusal."""
    return ", ".join(sorted(CURRENT))


def canonical(given: str) -> str:
    """``NAME`` or ``NAME@VERSION`` as its recorded ``name@version``."""
    name, at, version = given.partition("@")
    found = CURRENT.get(name)
    if found is None:
        shown = given if len(given) <= 40 else given[:40] + "…"
        raise NormaliseError(
            f"unknown normalisation {shown!r}; known: {known()} "
            "(docs/normalisation.md says what each lets through)"
        )
    label = f"{name}@{version}" if at else found.label
    if label not in REGISTRY:
        raise NormaliseError(
            f"normalisation {name!r} has no version {version!r}; this forest-files "
            f"knows {found.label} (write {name!r} for it, or upgrade forest-files)"
        )
    return label


def canonical_list(given: Iterable[str]) -> tuple[str, ...]:
    """Each given normalisation canonical, sorted; one given twice refused."""
    out = [canonical(g) for g in given]
    twice = sorted({x for x in out if out.count(x) > 1})
    if twice:
        raise NormaliseError(f"normalisation {twice[0]!r} is given twice; give it once")
    return tuple(sorted(out))


MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdown", ".mkd", ".mdx")


def fits(label: str, kind: str, path: str = "") -> bool:
    """Whether normalisation ``label`` applies to a target of selector kind ``kind`` in
    file ``path``: the ``py-*`` ones to a Python symbol only; the Markdown ones to a
    heading or anchor, or a whole file or region of a Markdown file (a ``+`` line of
    Python read as a bullet would hide a sign); the rest to every target. Without
    ``path`` only the kind is judged."""
    targets = REGISTRY[label].targets
    if targets == "python":
        return kind == "symbol"
    if targets == "any":
        return True
    if kind in ("heading", "anchor"):
        return True
    return kind != "symbol" and (not path or path.lower().endswith(MARKDOWN_SUFFIXES))


def misfit(label: str, where: str) -> NormaliseError:
    """The refusal of ``label`` on a target it does not fit."""
    name = REGISTRY[label].name
    if REGISTRY[label].targets == "python":
        fix = "py-comments and py-docstrings apply to Python symbols (FILE.py::Name) only"
    else:
        fix = (
            f"{name} reads Markdown: a heading, or a whole .md file or region "
            "(a Python symbol takes py-comments, py-docstrings)"
        )
    return NormaliseError(
        f"{where}: normalisation {name!r} does not fit this target; {fix}; "
        "trailing-whitespace and blank-lines fit every target; drop --normalise "
        f"{name} or bind another target"
    )


def apply(
    labels: Iterable[str], text: str, whole: str, kind: str, where: str, path: str = ""
) -> str:
    """``text`` under every normalisation of ``labels`` (canonical), in ``ORDER``;
    ``whole`` is the file's text (links resolve over it), ``path`` its path."""
    wanted = set(labels)
    for label in ORDER:
        if label in wanted:
            if not fits(label, kind, path):
                raise misfit(label, where)
            text = REGISTRY[label].run(text, whole)
    unknown = wanted - REGISTRY.keys()
    if unknown:
        raise NormaliseError(f"unknown normalisation {sorted(unknown)[0]!r}; known: {known()}")
    return text

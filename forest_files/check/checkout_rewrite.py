"""A bound file the judged commit (or the git index) makes git rewrite on checkout.

A ``.gitattributes`` rule giving a bound file ``ident``, ``working-tree-encoding`` or a
``filter`` leaves its blob as it was, so nothing drifts in git; but every checkout
after it writes git's rewrite into the working tree (``$Id: <blob> $``, another
encoding, a smudge filter's output), and every clone's ``forest check`` reports drift
nobody made. Adopting such a file is refused (custody/target_refusals.py); a rule
added after the adoption is a ``rewritten-on-checkout`` finding at the doors that
judge a commit or the index (the hook, ``check --staged``, ``check --rev``, ``forest
ci``), failing as drift does: custody of the text in every working tree is lost.
``text`` / ``eol`` are left out: they change line ends only, which drift.py
normalises on both sides. Only the committed ``.gitattributes`` count
(gitio/attr_source.py): ``$GIT_DIR/info/attributes`` goes with no clone, and the
working-tree drift's hint covers it (explain.py ``_rewritten``).

Stores: nothing.
Refuses: nothing.
Returns: ``findings`` (one per bound file, in path order, naming the attributes and
the committed ``.gitattributes`` whose rules give them, reached from where the user
stands: gitio ``deciding_rules``, asked only once a file is found);
``changed_rules`` (which bound paths a change of ``.gitattributes`` files can have
reached: the hook asks git only of those), ``reached`` (the same of the
``.gitattributes`` a source holds: a source with none above a bound file asks nothing),
``asked_paths`` (the same of those a git source holds that ``can_set`` a rewriting
attribute: ``forest init``'s line only unsets them, and asks nothing; ``settable`` and
``rules_above``, the same for the paths a staged change reached);
``routes`` (the line that unsets the attributes for the file, at the end of the
``.gitattributes`` of its own directory, which outranks those above it, or the rule
deleted in the ``.gitattributes`` the finding names, reached from where the user
stands; then the file staged, or committed).
Test: tests/check/test_checkout_rewrite_commit.py
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from forest_files.check.engine import Finding
    from forest_files.check.findings import Route
    from forest_files.custody.content import GitTreeSource

KIND = "rewritten-on-checkout"
RULES = ".gitattributes"
# The attributes by which git rewrites a file's bytes as it checks it out, and what
# unsets each for one path (git refuses ``-working-tree-encoding``: made unspecified).
_UNSET = {"ident": "-ident", "working-tree-encoding": "!working-tree-encoding", "filter": "-filter"}
_INDEX = "index"
_SETTING = frozenset(name.encode() for name in _UNSET)


def is_rules(path: str) -> bool:
    """``path`` is a ``.gitattributes`` file (at the top or in a directory)."""
    return path == RULES or path.endswith(f"/{RULES}")


def changed_rules(bound: Iterable[str], changed: Iterable[str]) -> list[str]:
    """The paths of ``bound`` whose attributes a change of the ``.gitattributes`` files
    among ``changed`` can have reached: those under each such file's directory."""
    dirs = {p[: -len(RULES)] for p in changed if is_rules(p)}
    if not dirs:
        return []
    if "" in dirs:  # the top's: every path (and the macros it alone defines)
        return sorted(set(bound))
    return sorted({p for p in bound if any(p.startswith(d) for d in dirs)})


def judged_paths(found: Iterable[Finding]) -> set[str]:
    """The bound files of a check's findings worth asking about: not a missing one, nor
    one whose staged blob git's conversion made (converted.py: that finding names the
    attribute and the same way out already)."""
    from forest_files.check.finding import has_reason

    return {f.path for f in found if f.kind != "missing" and not has_reason(f, "converted")}


def reached(bound: Iterable[str], rule_files: list[str] | None) -> list[str]:
    """The paths of ``bound`` some ``.gitattributes`` of a source can reach (those under
    its directory), from the source's listing of them (None: not listed, all)."""
    return sorted(set(bound)) if rule_files is None else changed_rules(bound, rule_files)


def can_set(text: bytes) -> bool:
    """Whether a ``.gitattributes`` holding ``text`` can set a rewriting attribute: some
    word of it is one bare or with a value (``ident``, ``filter=lfs``; ``-ident`` and
    ``!ident`` take one off). Words only, never patterns: a file with no such word gives
    no path one (git is not asked); which paths one with such a word reaches is git's to
    say. Git splits a line's words at fewer characters than ``split`` does, so every word
    git reads starts one of these."""
    return any(word.partition(b"=")[0] in _SETTING for word in text.split())


def asked_paths(bound: Iterable[str], content: GitTreeSource) -> list[str]:
    """The paths of ``bound`` git is asked about at a git source: those some
    ``.gitattributes`` it holds that ``can_set`` lies above, each read from the working
    tree where its file is the blob (content_git.py ``read_unedited``); every path
    (and none read) when the source listed only some."""
    rules = content.named(RULES)
    there = reached(bound, rules)
    if not there or rules is None:
        return there
    return settable(there, rules, content)


def settable(there: list[str], rules: Iterable[str], content: GitTreeSource) -> list[str]:
    """The paths of ``there`` that some of ``rules`` (``.gitattributes`` files the git
    source ``content`` holds) that ``can_set`` lies above; a rules file ``content``
    cannot read as one regular blob (a symlink, unmerged) is taken as one that can."""
    held = [r for r in rules if changed_rules(there, [r])]  # above some bound path
    texts = content.read_unedited(held)
    return changed_rules(there, [r for r in held if can_set(texts.get(r, b"ident"))])


def rules_above(paths: Iterable[str]) -> list[str]:
    """Every ``.gitattributes`` path whose rules can reach one of ``paths``: one in
    each directory above it, the top's included."""
    out = set()
    for path in paths:
        cut = path.rfind("/")
        while cut > 0:
            out.add(f"{path[:cut]}/{RULES}")
            cut = path.rfind("/", 0, cut)
        out.add(RULES)
    return sorted(out)


def findings(
    root: Path, source: str, paths: Iterable[str], *, keep_index_file: bool = False
) -> list[Finding]:
    """One finding per file of ``paths`` that the ``.gitattributes`` of ``source``
    (``index`` or a commit) make git rewrite on checkout. One git call for the index,
    three for a commit; none for no path."""
    wanted = sorted(set(paths))
    said = _rewriting(root, source, wanted, keep_index_file)
    if not said:
        return []
    from forest_files import gitio
    from forest_files.check.engine import Finding

    given = {path: [w.partition("=")[0] for w in words] for path, words in said.items()}
    files = gitio.deciding_rules(root, source, given, keep_index_file=keep_index_file)
    out = []
    for path in wanted:
        if path in said:
            detail = (
                f"{_by_rules(said[path], files.get(path, {}))} as every clone checks it "
                "out: the working file will hold git's rewrite, not the text git holds, "
                "and read as drift after every checkout"
            )
            out.append(Finding(KIND, path, path, "", None, None, detail=detail))
    return out


def _by_rules(words: list[str], files: dict[str, str]) -> str:
    """Which committed ``.gitattributes`` give a file its rewriting ``words``
    (``files``: attribute -> file), said as the finding's cause: each file reached from
    where the user stands (``../.gitattributes`` typed in ``docs/``), as the route
    names it."""
    from forest_files.kernel.standing import reached

    def held(word: str) -> str:
        return files.get(word.partition("=")[0], RULES)

    where = sorted({held(w) for w in words})
    if len(where) == 1:
        named = ", ".join(f"`{w}`" for w in words)
        return f"a rule in {reached(where[0])} makes git rewrite it ({named})"
    each = ", ".join(f"`{w}` in {reached(held(w))}" for w in words)
    return f"rules in {' and '.join(map(reached, where))} make git rewrite it ({each})"


def _rewriting(
    root: Path, source: str, paths: list[str], keep_index_file: bool
) -> dict[str, list[str]]:
    """Each of ``paths`` git rewrites on checkout, with its rewriting attributes as
    ``.gitattributes`` words (``ident``, ``working-tree-encoding=UTF-16``, ``filter=lfs``)."""
    if not paths:
        return {}
    from forest_files import gitio

    asked = gitio.committed_attributes(
        root, source, tuple(_UNSET), paths, keep_index_file=keep_index_file
    )
    out: dict[str, list[str]] = {}
    for path, attrs in asked.items():
        words = [
            name if value == "set" else f"{name}={value}"
            for name, value in attrs.items()
            if value not in ("unspecified", "unset", "")
        ]
        if words:
            out[path] = words
    return out


def routes(f: Finding, *, root: Path, source: str) -> tuple[Route, ...]:
    """The route out: a line unsetting the rewriting attributes for the file at the end
    of the ``.gitattributes`` of its own directory (or the rule that sets them deleted),
    then that file staged (the hook, ``--staged``) or committed (a commit's door)."""
    from forest_files.check.converted import attribute_pattern
    from forest_files.check.findings import Route
    from forest_files.kernel.shellword import git_step
    from forest_files.kernel.standing import reached

    # where the check looked; the CI gate's routes act on its checkout: the index
    at = source if source not in ("worktree", _INDEX) else _INDEX
    found = _rewriting(root, at, [f.path], keep_index_file=at == _INDEX).get(f.path, [])
    unset = [_UNSET[w.partition("=")[0]] for w in found] or list(_UNSET.values())
    held = _holding(root, at, f.path, found)
    folder, _, name = f.path.rpartition("/")
    where = f"{folder}/{RULES}" if folder else RULES
    line = " ".join((attribute_pattern(name), *unset))
    steps: tuple[tuple[str, ...], ...] = (git_step("add", "--", where),)
    if source != _INDEX:
        message = f"{where}: keep {f.path} out of the checkout rewrite"
        steps = (*steps, git_step("commit", "-m", message))
    rules = " and ".join(reached(h) for h in held)
    delete = f"rules in {rules} that set them" if len(held) > 1 else f"rule in {rules} that sets it"
    note = (
        f"first add the line `{line}` at the end of {reached(where)} (or delete the {delete}), "
        "so every checkout writes the text git holds"
    )
    return (Route("take the file out of git's checkout rewrite", steps, note),)


def _holding(root: Path, at: str, path: str, words: list[str]) -> list[str]:
    """The committed (or staged) ``.gitattributes`` whose rules give ``path`` its
    rewriting ``words``, as the finding names them (``_by_rules``); the top's when git
    names none."""
    from forest_files import gitio

    names = [w.partition("=")[0] for w in words]
    if not names:
        return [RULES]
    files = gitio.deciding_rules(root, at, {path: names}, keep_index_file=at == _INDEX)
    return sorted({files.get(path, {}).get(n, RULES) for n in names})


__all__ = [
    "KIND",
    "asked_paths",
    "can_set",
    "changed_rules",
    "findings",
    "is_rules",
    "judged_paths",
    "reached",
    "routes",
    "rules_above",
    "settable",
]

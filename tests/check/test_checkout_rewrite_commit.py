"""A commit giving a bound file an attribute by which git rewrites it on checkout.

``docs/canon.md ident`` added to .gitattributes after docs/canon.md was adopted leaves
its blob as it was: nothing drifts in git, and the hook, ``check --staged`` and ``forest
ci`` passed; every checkout after it writes ``$Id: <blob> $`` into every clone's
working file, which then reads as drift nobody made. Now the doors that judge the
index or a commit report ``rewritten-on-checkout`` (check/checkout_rewrite.py), from
the committed .gitattributes alone (gitio/attr_source.py: a line of
``.git/info/attributes`` goes with no clone), with the route that unsets the attribute
for the file; an unbound file, or a ``-ident`` line for the bound one, passes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forest_files import gitio
from forest_files.check import checkout_rewrite
from forest_files.check.path import run_check
from forest_files.check.staged import judge_staged
from forest_files.custody.content_read import read_as_blob
from tests.helpers.custody import adopted_repo
from tests.helpers.git import commit_all, git, pasted, write
from tests.helpers.template import reused

KIND = "rewritten-on-checkout"
CANON = "# Canon\n\nVersion $Id$ of the rules.\n"


def _build(tmp_path: Path) -> Path:
    repo = adopted_repo(tmp_path, "docs/canon.md", CANON)
    write(repo, "docs/draft.md", "# Draft\n\n$Id$\n")
    commit_all(repo, "draft")
    return repo


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """docs/canon.md adopted (holding ``$Id$``), docs/draft.md unbound, both committed."""
    return reused((__name__, "repo"), tmp_path / "repo", _build)


def _rule(repo: Path, line: str, where: str = ".gitattributes") -> None:
    old = (repo / where).read_text() if (repo / where).exists() else ""
    write(repo, where, old + line + "\n")
    git(repo, "add", "--", where)


def _kinds(repo: Path) -> list[str]:
    return [r.kind for r in judge_staged(repo).extra if r.failed]


@pytest.mark.parametrize(
    ("lines", "found"),
    [
        ((".gitattributes:docs/canon.md ident",), [KIND]),
        ((".gitattributes:docs/*.md working-tree-encoding=UTF-16",), [KIND]),
        ((".gitattributes:[attr]stamped ident", "docs/.gitattributes:canon.md stamped"), [KIND]),
        ((".gitattributes:docs/draft.md ident",), []),
        ((".gitattributes:docs/canon.md ident", "docs/.gitattributes:/canon.md -ident"), []),
        ((".gitattributes:docs/canon.md eol=crlf",), []),  # line ends: normalised, no drift
    ],
    ids=["ident", "encoding-glob", "macro-below", "unbound", "override", "eol"],
)
def test_staged_rule_rewriting_bound_file_detected(
    repo: Path, lines: tuple[str, ...], found: list[str]
) -> None:
    for spec in lines:
        where, _, line = spec.partition(":")
        _rule(repo, line, where)
    assert _kinds(repo) == found


def test_info_attributes_rule_is_local_not_a_finding_accepted(repo: Path) -> None:
    """A line of .git/info/attributes goes with no clone: not the commit's finding (the
    working-tree drift's hint covers it); a committed rule it overrides still is."""
    info = repo / ".git" / "info" / "attributes"
    info.parent.mkdir(exist_ok=True)
    info.write_text("docs/canon.md ident\n")
    _rule(repo, "docs/other.md text")
    assert _kinds(repo) == []
    info.write_text("docs/canon.md -ident\n")
    _rule(repo, "docs/canon.md ident")
    assert _kinds(repo) == [KIND]


@pytest.mark.slow  # the installed hook, twice, and pasted steps
def test_hook_ident_rule_for_bound_file_refused_route_pasted_recovers(repo: Path) -> None:
    assert pasted(repo, "forest hooks install").returncode == 0
    _rule(repo, "docs/canon.md ident")
    refused = pasted(repo, "git commit -q -m ident")
    assert refused.returncode == 1, refused.stdout + refused.stderr
    out = refused.stdout + refused.stderr
    assert f"{KIND} docs/canon.md" in out and "`ident`" in out, out
    (route,) = [ln for ln in out.splitlines() if "take the file out of git's checkout" in ln]
    assert "add the line `/canon.md -ident` at the end of docs/.gitattributes" in route
    write(repo, "docs/.gitattributes", "/canon.md -ident\n")  # the line the route names
    command = route.split(": ", 1)[1].split("  (")[0]
    assert command == "git add -- docs/.gitattributes", route
    assert pasted(repo, command).returncode == 0
    done = pasted(repo, "git commit -q -m 'ident, not for the canon'")
    assert done.returncode == 0, done.stdout + done.stderr
    (repo / "docs" / "canon.md").unlink()
    git(repo, "checkout", "--", "docs/canon.md")
    assert (repo / "docs" / "canon.md").read_text() == CANON
    assert pasted(repo, "forest check").returncode == 0


@pytest.mark.slow  # gate runs in four formats
def test_ci_ident_rule_in_range_refused_every_format(repo: Path) -> None:
    git(repo, "checkout", "-q", "-b", "feat")
    _rule(repo, "docs/canon.md ident")
    brought = commit_all(repo, "ident")
    write(repo, "notes.md", "later\n")
    commit_all(repo, "later")
    for fmt in ("json", "sarif", "junit", "github"):
        ran = pasted(repo, f"forest ci --base main --format {fmt}")
        assert ran.returncode == 1, (fmt, ran.stdout, ran.stderr)
        assert KIND in ran.stdout and "docs/canon.md" in ran.stdout, (fmt, ran.stdout)
    ran = pasted(repo, "forest ci --base main")
    assert f"brought by commit {brought[:12]}" in ran.stdout, ran.stdout
    assert "`forest check --staged` prints there" in ran.stdout, ran.stdout


def _detail(repo: Path) -> str:
    (found,) = [r for r in judge_staged(repo).extra if r.failed]
    return found.finding.detail


@pytest.mark.parametrize(
    ("lines", "cause"),
    [
        ((".gitattributes:docs/canon.md ident",), "a rule in .gitattributes makes"),
        (
            (".gitattributes:docs/canon.md ident", "docs/.gitattributes:draft.md text"),
            "a rule in .gitattributes makes",
        ),
        (
            (".gitattributes:[attr]stamped ident", "docs/.gitattributes:canon.md stamped"),
            "a rule in docs/.gitattributes makes",
        ),
        (
            (".gitattributes:docs/canon.md ident", "docs/.gitattributes:canon.md filter=x"),
            "rules in .gitattributes and docs/.gitattributes make git rewrite it (`ident` in "
            ".gitattributes, `filter=x` in docs/.gitattributes)",
        ),
    ],
    ids=["top", "deeper-file-other-rule", "macro-below", "two-files"],
)
def test_rewrite_finding_names_the_rules_file_detected(
    repo: Path, lines: tuple[str, ...], cause: str
) -> None:
    """The finding names the committed .gitattributes whose rules give the attribute
    (git's own check-attr, asked with each depth's files added in turn): the deeper
    file when its line decides (through the top's macro too), never a deeper file
    whose rules name other files."""
    for spec in lines:
        where, _, line = spec.partition(":")
        _rule(repo, line, where)
    assert _detail(repo).startswith(cause), _detail(repo)
    commit_all(repo, "rules")
    (found,) = checkout_rewrite.findings(repo, git(repo, "rev-parse", "HEAD"), ["docs/canon.md"])
    assert found.detail.startswith(cause), found.detail


def test_rewrite_nothing_found_no_rules_file_asked_accepted(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rule that rewrites no bound file: the clean path asks nothing more of git (the
    rules file is looked for only once a file is found)."""

    def asked(*args: object, **kwargs: object) -> None:
        raise AssertionError("deciding_rules asked on the clean path")

    monkeypatch.setattr(gitio, "deciding_rules", asked)
    _rule(repo, "docs/draft.md ident")
    _rule(repo, "docs/canon.md eol=crlf", "docs/.gitattributes")
    assert _kinds(repo) == []


def test_rewrite_rule_in_a_symlinked_gitattributes_not_a_finding_accepted(repo: Path) -> None:
    """A committed ``.gitattributes`` that is a symbolic link is read by no git since
    2.32 (not from the tree, the index or, unfollowed, the work tree): its ``ident``
    rewrites nothing on checkout, so it is no finding; a regular file with the same
    line is."""
    write(repo, "rules.txt", "canon.md ident\n")
    (repo / "docs" / ".gitattributes").symlink_to("../rules.txt")
    git(repo, "add", "--", "rules.txt", "docs/.gitattributes")
    assert _kinds(repo) == []
    commit_all(repo, "linked rules")
    (repo / "docs" / "canon.md").unlink()
    git(repo, "checkout", "--", "docs/canon.md")
    assert (repo / "docs" / "canon.md").read_text() == CANON  # git applied no ident
    (repo / "docs" / ".gitattributes").unlink()
    _rule(repo, "canon.md ident", "docs/.gitattributes")
    assert _kinds(repo) == [KIND]


def _route_note(repo: Path) -> str:
    (found,) = [r for r in judge_staged(repo).extra if r.failed]
    (route,) = found.routes
    return route.note


@pytest.mark.parametrize(
    ("lines", "named"),
    [
        ((".gitattributes:docs/canon.md ident",), "the rule in .gitattributes that sets it"),
        (
            (".gitattributes:[attr]stamped ident", "docs/.gitattributes:canon.md stamped"),
            "the rule in docs/.gitattributes that sets it",
        ),
        (
            (".gitattributes:docs/canon.md ident", "docs/.gitattributes:canon.md filter=x"),
            "the rules in .gitattributes and docs/.gitattributes that set them",
        ),
    ],
    ids=["top", "macro-below", "two-files"],
)
def test_rewrite_route_names_the_rules_file_detected(
    repo: Path, lines: tuple[str, ...], named: str
) -> None:
    """The route's other way out, deleting the rule, names the file that holds it, as
    the finding does (it said "the rule that sets it", naming no file)."""
    for spec in lines:
        where, _, line = spec.partition(":")
        _rule(repo, line, where)
    assert f"(or delete {named})" in _route_note(repo), _route_note(repo)


def test_rewrite_route_rules_file_reached_from_a_folder_detected(repo: Path) -> None:
    """Typed in docs/, the rules file at the top is named as reached from there."""
    _rule(repo, "docs/canon.md ident")
    checked = pasted(repo / "docs", "forest check --staged")
    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert "(or delete the rule in ../.gitattributes that sets it)" in checked.stdout, (
        checked.stdout
    )


@pytest.mark.parametrize(
    ("lines", "named"),
    [
        ((".gitattributes:docs/canon.md ident",), "a rule in ../.gitattributes makes"),
        (
            (".gitattributes:docs/canon.md ident", "docs/.gitattributes:canon.md filter=x"),
            "rules in ../.gitattributes and ../docs/.gitattributes make git rewrite it "
            "(`ident` in ../.gitattributes, `filter=x` in ../docs/.gitattributes)",
        ),
    ],
    ids=["top", "two-files"],
)
def test_rewrite_finding_rules_file_reached_from_a_folder_detected(
    repo: Path, lines: tuple[str, ...], named: str
) -> None:
    """Typed in docs/, the finding names the rules file as its route does, reached from
    there (it said "a rule in .gitattributes", the top's name, beside the route's
    ``../.gitattributes``), in the text and in ``--json`` alike."""
    for spec in lines:
        where, _, line = spec.partition(":")
        _rule(repo, line, where)
    checked = pasted(repo / "docs", "forest check --staged")
    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert f"rewritten-on-checkout docs/canon.md {named}" in checked.stdout, checked.stdout
    assert "a rule in .gitattributes" not in checked.stdout, checked.stdout
    ran = pasted(repo / "docs", "forest check --staged --json")
    (found,) = [f for f in json.loads(ran.stdout)["findings"] if f["kind"] == KIND]
    assert found["detail"].startswith(named), found["detail"]
    at_top = pasted(repo, "forest check --staged")  # from the top: the top's names
    assert f"rewritten-on-checkout docs/canon.md {named.replace('../', '')}" in at_top.stdout


def _judged(repo: Path, source: str) -> list[str]:
    """The failed kinds of every binding judged at ``source`` (``check --staged --json``
    and ``check --rev``: the whole index or commit, not the staged change alone)."""
    return [r.kind for r in run_check(repo, source).failed]


def test_full_check_rules_read_from_the_index_or_commit_never_the_worktree_detected(
    repo: Path,
) -> None:
    """Judging every binding, git is asked only about a ``.gitattributes`` that can set a
    rewriting attribute, read from the working tree only where its file is the very blob
    the index or commit holds: a rule staged then taken out of the working file alone is
    still found, one only in the working file is not, and a committed one is found at
    the index and at the commit, the working file deleted too."""
    _rule(repo, "docs/canon.md ident")
    write(repo, ".gitattributes", (repo / ".gitattributes").read_text().replace("ident", "text"))
    assert _judged(repo, "index") == [KIND]
    git(repo, "checkout", "-q", "HEAD", "--", ".gitattributes")
    write(repo, ".gitattributes", (repo / ".gitattributes").read_text() + "docs/canon.md ident\n")
    assert _judged(repo, "index") == []
    git(repo, "add", "--", ".gitattributes")
    commit_all(repo, "ident")
    assert _judged(repo, "index") == [KIND]
    (repo / ".gitattributes").unlink()
    assert _judged(repo, "HEAD") == [KIND]


@pytest.mark.parametrize(
    ("line", "can"),
    [
        ("docs/canon.md ident", True),
        ("*.md filter=lfs diff=lfs merge=lfs -text", True),
        ("*.md filter", True),
        ("*.txt working-tree-encoding=UTF-16LE", True),
        ("[attr]stamped ident", True),
        ("docs/canon.md\tident\r", True),
        ('"name with space.md" ident', True),
        (".forest/ledger/** -text -filter -ident -working-tree-encoding", False),
        ("docs/canon.md -ident !filter !working-tree-encoding", False),
        ("identity.md text eol=crlf", False),
        ("docs/canon.md IDENT identity filters=x", False),
    ],
)
def test_rules_line_that_can_set_a_rewriting_attribute_detected(line: str, can: bool) -> None:
    """A ``.gitattributes`` word names a rewriting attribute bare or with a value (git
    reads attribute names case-sensitively; ``-`` and ``!`` take one off): only a file
    with none such is left unasked."""
    assert checkout_rewrite.can_set(f"# rules\n{line}\n".encode()) is can


@pytest.mark.parametrize("object_format", ["sha1", "sha256"])
def test_worktree_file_read_as_its_blob_only_when_unedited_accepted(
    tmp_path: Path, object_format: str
) -> None:
    """The working file's bytes stand for a blob only when they hash to its id, as git
    names objects in either format; an edit, a symlink or a missing file read nothing."""
    git(tmp_path, "init", "-q", f"--object-format={object_format}")
    write(tmp_path, "rules", "a.md ident\n")
    blob = git(tmp_path, "hash-object", "--", "rules")
    full = str(tmp_path / "rules")
    assert read_as_blob(full, blob) == b"a.md ident\n"
    assert read_as_blob(full, blob, limit=4) is None
    write(tmp_path, "rules", "a.md -ident\n")
    assert read_as_blob(full, blob) is None
    (tmp_path / "rules").unlink()
    assert read_as_blob(full, blob) is None
    write(tmp_path, "kept", "a.md ident\n")
    (tmp_path / "rules").symlink_to("kept")
    assert read_as_blob(full, blob) is None


def test_head_with_a_rewriting_rule_never_remembered_clean_detected(repo: Path) -> None:
    """HEAD holds a rule that rewrites a bound file (committed past the hook); a fix to
    it staged, ``check --staged`` judges the index clean, but never remembers HEAD so
    (judged.py): HEAD's rules are not the index's. With the fix unstaged, the check is
    no light one of the staged change alone: the rule is found (before: HEAD taken as
    judged clean, the staged change had no .gitattributes, and the check said clean)."""
    _rule(repo, "docs/canon.md ident")
    commit_all(repo, "ident, past the hook")
    write(
        repo, ".gitattributes", (repo / ".gitattributes").read_text().replace("ident\n", "text\n")
    )
    git(repo, "add", "--", ".gitattributes")
    assert run_check(repo, "index", quick=True).ok
    git(repo, "restore", "--staged", "--", ".gitattributes")
    assert [r.kind for r in run_check(repo, "index", quick=True).failed] == [KIND]

"""The one glob syntax (kernel/globs.py): its meaning, its refusals, pathspec as oracle,
and every forest.toml table and ``forest adopt`` reading a glob the same way."""

from __future__ import annotations

import itertools
from pathlib import Path

import pathspec
import pytest

import forest_files.doors.cli  # noqa: F401  (registers every command)
from forest_files.check.coverage import unbound
from forest_files.custody.config import ConfigError, holders_for, parse_config_text
from forest_files.custody.signers import mode_for
from forest_files.custody.watchpolicy import policy_for
from forest_files.kernel.globs import GlobError, compile_glob, literal_prefix
from tests.helpers.cli import findings, forest, ok
from tests.helpers.git import make_repo, write

BOSS = "Boss <b@x>"
HEAD = '[project]\nid = "p"\n'

# Patterns used in the tests and README before the one syntax, with what they matched
# then: their meaning is kept.
KEPT = [
    ("docs/**", "docs/a/b.md", True),
    ("docs/**", "docs", False),
    ("docs/adr/**", "docs/adr/1.md", True),
    ("canon/*.md", "canon/a.md", True),
    ("canon/*.md", "canon/x/a.md", False),
    ("**/SECRET.md", "SECRET.md", True),
    ("**/SECRET.md", "a/b/SECRET.md", True),
    ("*.md", "a.md", True),
    ("*.md", "docs/a.md", False),  # anchored: gitignore would match at any depth
    ("docs/adr/*.md", "docs/adr/0001-x.md", True),
    ("doc.md", "doc.md", True),
    ("docs", "docs/a.md", False),  # a file, not a directory (gitignore: the directory)
    ("a/**/b.md", "a/b.md", True),
    ("**", "any/thing", True),
    ("?.md", "x.md", True),
    ("*.md", ".hidden.md", True),
]


@pytest.mark.parametrize(("glob", "path", "hit"), KEPT)
def test_glob_kept_meaning_accepted(glob: str, path: str, hit: bool) -> None:
    assert compile_glob(glob).match(path) is hit


@pytest.mark.parametrize(
    ("glob", "path", "hit"),
    [
        ("docs/[0-9]*.md", "docs/0001-a.md", True),
        ("docs/[0-9]*.md", "docs/a.md", False),
        ("docs/[0-9]*.md", "docs/[0-9]x.md", False),
        ("[!a]x", "bx", True),
        ("[!a]x", "ax", False),
        ("[^a]x", "ax", False),
        ("[]]x", "]x", True),
        ("[[]x", "[x", True),
        ("[*]", "*", True),
        ("[*]", "a", False),
        ("a[!b]c", "a/c", False),  # a class never matches '/'
        ("a?c", "a/c", False),
        ("[a-c].md", "b.md", True),
    ],
)
def test_glob_classes_honoured_accepted(glob: str, path: str, hit: bool) -> None:
    assert compile_glob(glob).match(path) is hit


REFUSED = [
    ("docs/{a,b}.md", "one rule per alternative"),
    ("!docs/a.md", "negation"),
    ("docs/!a.md", "negation"),
    ("docs/[0-9.md", "no closing"),
    ("docs/[[:digit:]].md", "POSIX"),
    ("docs/[z-a].md", "reversed"),
    ("docs\\[x].md", "escapes"),
    ("#x.md", "comment"),
    (" docs/a.md", "spaces"),
    ("docs/a.md ", "spaces"),
    ("a/x**", "whole path segment"),
    ("/docs", "leading"),
    ("docs/", "trailing"),
    ("a//b", "empty"),
    ("", "empty"),
]


@pytest.mark.parametrize(("glob", "why"), REFUSED)
def test_glob_unhonourable_refused(glob: str, why: str) -> None:
    with pytest.raises(GlobError, match=why):
        compile_glob(glob)


PATTERNS = [
    "*.md",
    "docs/*.md",
    "docs/**",
    "**/a.md",
    "a/**/b.md",
    "docs/[0-9]*.md",
    "d?cs/[!a-c]*",
    "[]a]/x",
    "**/[^x]?.md",
    "a*b/**",
]
PATHS = [
    "a.md",
    ".a.md",
    "docs/a.md",
    "docs/1.md",
    "docs/x/a.md",
    "dacs/d.txt",
    "a/b.md",
    "a/x/y/b.md",
    "]/x",
    "a/x",
    "q/ya.md",
    "xa.md",
    "axb/c",
    "ab/c/d",
    "docs",
]


@pytest.mark.parametrize("glob", PATTERNS)
def test_glob_agrees_with_pathspec_anchored_accepted(glob: str) -> None:
    """pathspec's gitignore reading of ``/<glob>`` matches a path exactly when ours
    matches the path or one of its parent directories (gitignore names directories)."""
    oracle = pathspec.GitIgnoreSpec.from_lines([f"/{glob}"])
    ours = compile_glob(glob)
    for path in PATHS:
        parts = path.split("/")
        prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
        assert oracle.match_file(path) is any(ours.match(p) for p in prefixes), (glob, path)


def test_literal_prefix_stops_at_first_wildcard_accepted() -> None:
    assert literal_prefix("docs/adr/[0-9]*/x.md") == ["docs", "adr"]
    assert literal_prefix("docs/x[ab]/y.md") == ["docs"]


# --- every table -------------------------------------------------------------


def _table(name: str, glob: str) -> str:
    value = {
        "authority": f'["{BOSS}"]',
        "require": '"file"',
        "signing": '"required"',
        "watch": '"restore"',
    }[name]
    extra = '[policy]\nallowed_signers = ".forest/allowed_signers"\n' if name == "signing" else ""
    return f'{HEAD}{extra}[{name}]\n"{glob}" = {value}\n'


TABLES = ["authority", "require", "signing", "watch"]


def _hit(name: str, text: str, path: str) -> bool:
    cfg = parse_config_text(text, "forest.toml")
    if name == "authority":
        return holders_for(cfg, path) is not None
    if name == "require":
        return cfg.require[0].matches(path)
    if name == "signing":
        return mode_for(cfg.signing, path) == "required"
    return policy_for(cfg.watch, path) == "restore"


@pytest.mark.parametrize("table", TABLES)
def test_class_in_every_table_honoured_accepted(table: str) -> None:
    text = _table(table, "docs/[0-9]*.md")
    assert _hit(table, text, "docs/0001-a.md")
    assert not _hit(table, text, "docs/intro.md")


@pytest.mark.parametrize(
    ("table", "glob"), list(itertools.product(TABLES, ["docs/{a,b}.md", "!docs/a.md", "d/[0-9"]))
)
def test_unhonourable_glob_in_every_table_refused(table: str, glob: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config_text(_table(table, glob), "forest.toml")
    message = str(caught.value)
    assert len(message.splitlines()) == 1
    assert f"[{table}]" in message and "bad path glob" in message and glob in message


def test_require_except_class_honoured_accepted() -> None:
    text = f'{HEAD}[require]\n"adr/*.md" = {{ bind = "file", except = ["adr/[!0-9]*.md"] }}\n'
    rule = parse_config_text(text, "forest.toml").require[0]
    assert rule.matches("adr/0001-x.md") and not rule.matches("adr/template.md")
    with pytest.raises(ConfigError, match="except"):
        parse_config_text(text.replace("[!0-9]", "{a,b}"), "forest.toml")


def test_require_class_requires_the_adrs_detected() -> None:
    cfg = parse_config_text(f'{HEAD}[require]\n"adr/[0-9]*.md" = "file"\n', "forest.toml")
    paths = [f"adr/{n:04d}-decision.md" for n in range(1, 33)] + ["adr/README.md"]
    found = unbound(cfg.require, paths, lambda p: b"# ADR\n", [])
    assert sorted(f.path for f in found) == sorted(paths[:-1])


@pytest.mark.parametrize("holder", [f" {BOSS} ", f"{BOSS} ", f" {BOSS}"])
def test_holder_with_stray_spaces_refused(holder: str) -> None:
    text = f'{HEAD}[authority]\n"docs/**" = ["{holder}"]\n'
    with pytest.raises(ConfigError, match="spaces at either end") as caught:
        parse_config_text(text, "forest.toml")
    assert f'write it as "{BOSS}"' in str(caught.value)


# --- forest adopt --------------------------------------------------------------


def _governed_repo(tmp_path: Path, glob: str) -> Path:
    repo = make_repo(tmp_path)
    ok(repo, "init")
    config = (repo / "forest.toml").read_text()
    write(repo, "forest.toml", config + f'\n[authority]\n"{glob}" = ["{BOSS}"]\n')
    write(repo, "docs/0001-first.md", "# First\n\nA decision.\n")
    write(repo, "docs/intro.md", "# Intro\n\nWelcome.\n")
    return repo


@pytest.mark.parametrize("target", ["docs/[0-9]*.md", "docs/0001-first.md", "docs/*.md"])
def test_adopt_class_glob_by_non_holder_refused(tmp_path: Path, target: str) -> None:
    repo = _governed_repo(tmp_path, "docs/[0-9]*.md")
    result = forest(repo, "adopt", target, "--words", "mine now", "--as", "Mallory <m@x>")
    assert result.exit_code == 1, result.output
    assert "authority" in result.stderr
    assert not (repo / ".forest" / "ledger" / "segments").exists() or not any(
        (repo / ".forest" / "ledger" / "segments").rglob("*.*")
    )


def test_adopt_class_glob_by_holder_accepted(tmp_path: Path) -> None:
    repo = _governed_repo(tmp_path, "docs/[0-9]*.md")
    result = ok(repo, "adopt", "docs/[0-9]*.md", "--words", "I hold these", "--as", BOSS)
    assert "docs/0001-first.md" in result.stdout and "intro" not in result.stdout


@pytest.mark.parametrize(("target", "why"), [("docs/{a,b}.md", "one rule"), ("!docs/*", "!")])
def test_adopt_unhonourable_glob_refused(tmp_path: Path, target: str, why: str) -> None:
    repo = _governed_repo(tmp_path, "docs/**")
    result = forest(repo, "adopt", target, "--words", "w", "--as", BOSS)
    assert result.exit_code == 1, result.output
    line = result.stderr.strip()
    assert len(line.splitlines()) == 1 and why in line and "can honour" in line


def test_adopt_brace_named_file_that_exists_accepted(tmp_path: Path) -> None:
    repo = _governed_repo(tmp_path, "docs/**")
    write(repo, "docs/{a,b}.md", "# Odd\n\nname.\n")
    ok(repo, "adopt", "docs/{a,b}.md", "--words", "odd but real", "--as", BOSS)


def test_file_named_like_a_class_is_that_file_accepted(tmp_path: Path) -> None:
    """``docs/[a].md`` names the file so named, never ``docs/a.md``: adopt binds it, and
    restore (the route a check prints) writes that file only."""
    repo = _governed_repo(tmp_path, "docs/**")
    write(repo, "docs/[a].md", "# Odd\n\nbracketed name.\n")
    write(repo, "docs/a.md", "# Plain\n\nplain name.\n")
    ok(repo, "adopt", "docs/[a].md", "--words", "odd but real", "--as", BOSS)
    listed = [f["selector"] for f in findings(repo)]
    assert listed == ["docs/[a].md"]
    write(repo, "docs/[a].md", "# Odd\n\nbracketed name, edited.\n")
    plain = (repo / "docs" / "a.md").read_bytes()
    ok(repo, "restore", "docs/[a].md")
    assert (repo / "docs" / "[a].md").read_text(encoding="utf-8") == "# Odd\n\nbracketed name.\n"
    assert (repo / "docs" / "a.md").read_bytes() == plain

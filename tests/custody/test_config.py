"""forest.toml: validation messages, round trip, glob semantics, may_act."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from forest_files import gitio
from forest_files.custody.config import (
    DEFAULT_MAX_BODY_BYTES,
    MAX_BODY_BYTES_LIMIT,
    MAX_CONFIG_BYTES,
    ConfigError,
    ForestConfig,
    compile_glob,
    holders_for,
    load_config,
    may_act,
    new_config,
    parse_config_text,
    render_config,
)
from forest_files.kernel.errors import ForestError
from tests.helpers.git import commit_all, git, isolate, make_repo, write

ADA = "Ada Lovelace <ada@example.org>"
JO = "Jo <jo@x>"

VALID = f"""
[project]
id = "{"a" * 32}"

[policy]
max_body_bytes = 1024

[authority]
"docs/**" = ["Someone <s@example.org>"]
"docs/adr/**" = ["{ADA}"]
"canon/*.md" = ["{JO}", "<editor@example.org>"]
"**/SECRET.md" = ["<sec@example.org>"]
"""


@pytest.fixture
def cfg() -> ForestConfig:
    return parse_config_text(VALID, "forest.toml")


def test_load_config_valid_file_accepted(tmp_path: Path) -> None:
    (tmp_path / "forest.toml").write_text(VALID, encoding="utf-8")
    loaded = load_config(tmp_path)
    assert loaded == load_config(tmp_path / "forest.toml")
    assert loaded.project_id == "a" * 32
    assert loaded.max_body_bytes == 1024
    assert [r.glob for r in loaded.authority] == [
        "docs/**",
        "docs/adr/**",
        "canon/*.md",
        "**/SECRET.md",
    ]


def test_load_config_missing_file_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"not a forest-files repository: run `forest init`"):
        load_config(tmp_path)
    assert issubclass(ConfigError, ForestError)


def test_minimal_config_defaults_accepted() -> None:
    cfg = parse_config_text('[project]\nid = "p1"\n', "x.toml")
    assert cfg == ForestConfig("p1", DEFAULT_MAX_BODY_BYTES, ())
    assert holders_for(cfg, "anything.md") is None


@pytest.mark.parametrize(
    ("text", "fragments"),
    [
        ("[project\n", ["not valid TOML"]),
        ("", ["[project]", "missing", "add a [project] table"]),
        ("[project]\n", ["[project] id", "missing", "forest init"]),
        ('[project]\nid = ""\n', ["[project] id", "non-empty string"]),
        ("[project]\nid = 7\n", ["[project] id", "non-empty string"]),
        ('[project]\nid = "a b"\n', ["[project] id", "spaces"]),
        (f'[project]\nid = "{"x" * 129}"\n', ["[project] id", "128"]),
        ('[project]\nid = "p"\nname = "n"\n', ["[project] name", "unknown key", "known keys: id"]),
        ('[project]\nid = "p"\n[hooks]\nx = 1\n', ["hooks", "unknown table", "[authority]"]),
        ('project = "p"\n', ["project", "must be a table"]),
        ('[project]\nid = "p"\n[policy]\nmax_body_byte = 3\n', ["[policy] max_body_byte"]),
        ('[project]\nid = "p"\n[policy]\nmax_body_bytes = "8"\n', ["must be an integer"]),
        ('[project]\nid = "p"\n[policy]\nmax_body_bytes = true\n', ["must be an integer"]),
        ('[project]\nid = "p"\n[policy]\nmax_body_bytes = 0\n', ["out of range"]),
        (
            f'[project]\nid = "p"\n[policy]\nmax_body_bytes = {MAX_BODY_BYTES_LIMIT + 1}\n',
            ["out of range"],
        ),
        ('[project]\nid = "p"\n[authority]\n"docs/**" = []\n', ['"docs/**"', "non-empty list"]),
        ('[project]\nid = "p"\n[authority]\n"docs/**" = "Ada"\n', ["non-empty list"]),
        ('[project]\nid = "p"\n[authority]\n"docs/**" = [""]\n', ["not a non-empty string"]),
        ('[project]\nid = "p"\n[authority]\n"docs/**" = [3]\n', ["not a non-empty string"]),
        ('[project]\nid = "p"\n[authority]\n"/docs" = ["A"]\n', ["bad path glob", "leading"]),
        ('[project]\nid = "p"\n[authority]\n"docs/" = ["A"]\n', ["bad path glob", "trailing"]),
        ('[project]\nid = "p"\n[authority]\n"a/../b" = ["A"]\n', ["bad path glob", "'..'"]),
        ('[project]\nid = "p"\n[authority]\n"a/x**" = ["A"]\n', ["whole path segment"]),
        ('[project]\nid = "p"\n[authority]\nx = ["A\\u0007"]\n', ["control characters"]),
    ],
)
def test_invalid_config_refused_with_clear_message(text: str, fragments: list[str]) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config_text(text, "repo/forest.toml")
    message = str(info.value)
    assert message.startswith("repo/forest.toml: ")
    for fragment in fragments:
        assert fragment in message


def test_max_body_bytes_limit_n_accepted_n_plus_1_refused() -> None:
    base = '[project]\nid = "p"\n[policy]\nmax_body_bytes = {}\n'
    assert parse_config_text(base.format(MAX_BODY_BYTES_LIMIT), "f").max_body_bytes == (
        MAX_BODY_BYTES_LIMIT
    )
    assert parse_config_text(base.format(1), "f").max_body_bytes == 1
    with pytest.raises(ConfigError):
        parse_config_text(base.format(MAX_BODY_BYTES_LIMIT + 1), "f")


def test_config_size_limit_n_accepted_n_plus_1_refused(tmp_path: Path) -> None:
    head = b'[project]\nid = "p"\n#'
    path = tmp_path / "forest.toml"
    path.write_bytes(head + b"x" * (MAX_CONFIG_BYTES - len(head) - 1) + b"\n")
    assert load_config(path).project_id == "p"
    path.write_bytes(head + b"x" * (MAX_CONFIG_BYTES - len(head)) + b"\n")
    with pytest.raises(ConfigError, match="limit"):
        load_config(path)


def test_non_utf8_config_refused(tmp_path: Path) -> None:
    (tmp_path / "forest.toml").write_bytes(b'[project]\nid = "\xff"\n')
    with pytest.raises(ConfigError, match="UTF-8"):
        load_config(tmp_path)


def test_render_config_round_trips(cfg: ForestConfig) -> None:
    text = render_config(cfg)
    assert parse_config_text(text, "rendered") == cfg
    assert render_config(parse_config_text(text, "rendered")) == text
    odd = parse_config_text(
        '[project]\nid = "p"\n[authority]\n"dir with \\"quote\\"/ü/**" = ["Zoë \\\\ <z@x>"]\n',
        "odd",
    )
    assert parse_config_text(render_config(odd), "again") == odd


def test_new_config_renders_loadable() -> None:
    pid = uuid.uuid4().hex
    cfg = new_config(pid)
    assert parse_config_text(render_config(cfg), "new") == cfg
    assert cfg.project_id == pid


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("docs/adr/0001.md", (ADA,)),  # later, narrower rule wins
        ("docs/adr/deep/er/x.md", (ADA,)),
        ("docs/guide.md", ("Someone <s@example.org>",)),
        ("docs/adr", ("Someone <s@example.org>",)),  # the dir name itself: only docs/**
        ("canon/a.md", (JO, "<editor@example.org>")),
        ("canon/sub/a.md", None),  # '*' does not cross '/'
        ("canon/a.txt", None),
        ("SECRET.md", ("<sec@example.org>",)),  # '**/' matches zero directories
        ("docs/adr/SECRET.md", ("<sec@example.org>",)),  # last match wins over docs/adr/**
        ("docs", None),  # 'docs/**' is what is below docs
        ("readme.md", None),
        ("./canon/a.md", (JO, "<editor@example.org>")),
    ],
)
def test_holders_for_last_match_wins(
    cfg: ForestConfig, path: str, expected: tuple[str, ...] | None
) -> None:
    assert holders_for(cfg, path) == expected


def test_order_decides_not_specificity() -> None:
    text = f'[project]\nid = "p"\n[authority]\n"docs/adr/**" = ["{ADA}"]\n"docs/**" = ["{JO}"]\n'
    cfg = parse_config_text(text, "f")
    assert holders_for(cfg, "docs/adr/1.md") == (JO,)


@pytest.mark.parametrize(
    ("glob", "path", "hit"),
    [
        ("*.md", "a.md", True),
        ("*.md", "d/a.md", False),
        ("**/*.md", "d/e/a.md", True),
        ("a/**/b.md", "a/b.md", True),
        ("a/**/b.md", "a/x/y/b.md", True),
        ("a/**/b.md", "ab.md", False),
        ("?.md", "x.md", True),
        ("?.md", "/.md", False),
        ("a.md", "aXmd", False),  # '.' is literal
        ("[ab].md", "a.md", True),  # a class, as in gitignore (kernel/globs.py)
        ("[ab].md", "[ab].md", False),
        ("[[]ab].md", "[ab].md", True),
        ("**", "any/thing", True),
    ],
)
def test_glob_semantics(glob: str, path: str, hit: bool) -> None:
    assert compile_glob(glob).match(path) is hit


def test_may_act_governed_and_ungoverned(cfg: ForestConfig) -> None:
    assert may_act(cfg, "readme.md", "Anyone <any@x>")
    assert may_act(cfg, "docs/adr/1.md", f"  {ADA} \n")
    assert not may_act(cfg, "docs/adr/1.md", "Ada Lovelace <ada@other.org>")
    assert not may_act(cfg, "docs/adr/1.md", "Ada Lovelace")
    assert not may_act(cfg, "docs/adr/1.md", JO)
    assert may_act(cfg, "canon/a.md", JO)
    assert may_act(cfg, "canon/a.md", "Any Name <editor@example.org>")
    assert may_act(cfg, "canon/a.md", "<editor@example.org>")
    assert not may_act(cfg, "canon/a.md", "Eve <editor@example.org.evil>")
    assert not may_act(cfg, "canon/a.md", "editor@example.org")
    assert not may_act(cfg, "canon/a.md", "")


def test_config_from_merge_base_blob(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    isolate(monkeypatch)
    repo = make_repo(tmp_path)
    write(repo, "forest.toml", VALID)
    base = commit_all(repo, "config")
    write(repo, "forest.toml", VALID.replace(ADA, "Mallory <m@x>"))
    commit_all(repo, "pr adds itself")
    (entry,) = gitio.ls_tree(repo, base, "forest.toml")
    text = gitio.cat_blobs(repo, [entry.blob])[entry.blob].decode("utf-8")
    at_base = parse_config_text(text, f"forest.toml at {base[:12]}")
    assert not may_act(at_base, "docs/adr/1.md", "Mallory <m@x>")
    assert may_act(load_config(repo), "docs/adr/1.md", "Mallory <m@x>")
    assert git(repo, "rev-parse", "HEAD") != base

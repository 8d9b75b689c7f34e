"""Taking file sections into custody: refusals (nothing recorded), log, show, retire, rebind."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import forest_files.doors.cli  # noqa: F401  (registers every command)
from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.template import reused

ADA = "Ada Lovelace <ada@example.org>"
WORDS = "I adopt these words as written"
CANON = "# Canon\n\nIntro.\n\n## Rules\n\nThe first rule stands.\n\n## Elsewhere\n\nOther.\n"


def ledger_files(repo: Path) -> list[str]:
    root = repo / ".forest" / "ledger"
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


def _build_repo(tmp_path: Path) -> Path:
    path = make_repo(tmp_path)
    ok(path, "init")
    write(path, "canon.md", CANON)
    commit_all(path, "init")
    return path


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    # A private copy of one built once per worker process (template.reused).
    return reused((__name__, "repo"), tmp_path / "repo", _build_repo)


def refused(repo: Path, *targets: str, match: str) -> str:
    """Adoption of ``targets`` exits 1 with one stderr line matching ``match``; nothing recorded."""
    before = ledger_files(repo)
    result = forest(repo, "adopt", *targets, "--words", WORDS)
    assert result.exit_code == 1, (result.stdout, result.stderr)
    line = result.stderr.strip()
    assert len(line.splitlines()) == 1 and line.startswith("forest: ")
    assert match in line, line
    assert ledger_files(repo) == before
    assert "Traceback" not in result.output
    return line


def test_invalid_utf8_refused_with_byte_offset(repo: Path) -> None:
    write(repo, "bad.md", b"# Ok\n\nfine\xff\xfe then\n")
    refused(repo, "bad.md", match="byte offset 10")


def test_binary_refused_with_byte_offset(repo: Path) -> None:
    write(repo, "blob.md", b"PNG\x89\x00\x01\x02")
    line = refused(repo, "blob.md", match="byte offset")
    assert "offset 3" in line or "offset 4" in line


def test_one_bad_file_in_a_glob_records_nothing(repo: Path) -> None:
    write(repo, "docs/a.md", "# A\n\nfine\n")
    write(repo, "docs/b.md", b"# B\n\n\xc3\x28\n")
    refused(repo, "docs/*.md", match="docs/b.md")


def test_symlink_escaping_repo_refused(repo: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("# Secret\n\nnot ours\n")
    os.symlink(outside, repo / "escape.md")
    refused(repo, "escape.md", match="outside the repository")


def test_path_through_symlinked_directory_escaping_refused(repo: Path, tmp_path: Path) -> None:
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "lore.md").write_text("# Lore\n\nnot ours\n")
    os.symlink(tmp_path / "elsewhere", repo / "linked")
    refused(repo, "linked/lore.md", match="outside the repository")


def test_symlink_inside_repo_refused(repo: Path) -> None:
    """Git holds the link, not the text: bind the file it leads to (special.py)."""
    os.symlink("canon.md", repo / "alias.md")
    refused(repo, "alias.md#Rules", match="is a symlink; bind the file it leads to instead")


def test_dotdot_refused(repo: Path) -> None:
    refused(repo, "../x", match="'..'")
    refused(repo, "docs/../canon.md", match="'..'")


def test_absolute_path_refused(repo: Path) -> None:
    refused(repo, str(repo / "canon.md"), match="absolute")


def test_control_character_refused(repo: Path) -> None:
    refused(repo, "can\x01on.md", match="control")


def test_path_inside_submodule_refused(repo: Path, tmp_path: Path) -> None:
    sub = make_repo(tmp_path, "sub")
    write(sub, "inner.md", "# Inner\n\ntext\n")
    commit_all(sub, "sub")
    git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(sub), "vendor")
    commit_all(repo, "submodule")
    assert (repo / "vendor" / "inner.md").is_file()
    refused(repo, "vendor/inner.md", match="submodule vendor")


def test_file_under_git_filter_refused(repo: Path) -> None:
    write(repo, ".gitattributes", (repo / ".gitattributes").read_text() + "secret.md filter=lfs\n")
    write(repo, "secret.md", "# Secret\n\ntext\n")
    refused(repo, "secret.md", match="filter 'lfs'")


@pytest.mark.parametrize(
    "attr", ["ident", "working-tree-encoding=UTF-16"], ids=["ident", "encoding"]
)
def test_file_git_rewrites_on_checkout_refused(repo: Path, attr: str) -> None:
    """``ident`` expands ``$Id$`` on checkout, ``working-tree-encoding`` re-encodes: the
    bytes a clone reads are not the committed text, as under a filter."""
    write(repo, ".gitattributes", (repo / ".gitattributes").read_text() + f"ids.md {attr}\n")
    write(repo, "ids.md", "# Ids\n\n$Id$\n")
    refused(repo, "ids.md", match=f"the {attr.split('=')[0]}")


def test_file_over_max_body_bytes_refused(repo: Path) -> None:
    toml = repo / "forest.toml"
    text = toml.read_text()
    if "[policy]" in text:  # init writes the default bound
        lines = [ln for ln in text.splitlines() if not ln.startswith("max_body_bytes")]
        text = "\n".join(lines).replace("[policy]", "[policy]\nmax_body_bytes = 100") + "\n"
    else:
        text += "\n[policy]\nmax_body_bytes = 100\n"
    toml.write_text(text)
    write(repo, "long.md", "# Long\n\n" + "x" * 200 + "\n")
    refused(repo, "long.md", match="max_body_bytes")
    write(repo, "short.md", "# Short\n\nfits\n")
    ok(repo, "adopt", "short.md", "--words", WORDS)


def test_heading_inside_code_fence_is_not_a_heading(repo: Path) -> None:
    write(repo, "fence.md", "# Real\n\n```\n# Fake\n```\n\n## Also real\n\ntext\n")
    refused(repo, "fence.md#Fake", match="no heading matches")
    ok(repo, "adopt", "fence.md#Also real", "--words", WORDS)


def test_missing_file_and_empty_glob_refused(repo: Path) -> None:
    refused(repo, "nowhere.md", match="no such file")
    refused(repo, "docs/*.md", match="matches no file")


def test_adopting_a_bound_section_again_refused(repo: Path) -> None:
    ok(repo, "adopt", "canon.md#Rules", "--words", WORDS)
    refused(repo, "canon.md#Canon/Rules", match="already bound")


def test_bulk_refused_at_last_target_leaves_no_body_file(repo: Path) -> None:
    """Bodies are written on a thread while the acts are recorded (EarlyBodies):
    a refusal at the last target removes the new body files and keeps the ones
    the ledger already held (the adopting words, the bound section)."""
    ok(repo, "adopt", "canon.md#Rules", "--words", WORDS)
    held = ledger_files(repo)
    refused(repo, "canon.md#Elsewhere", "canon.md#Canon", "canon.md#Rules", match="already bound")
    assert ledger_files(repo) == held
    ok(repo, "verify")


def test_praise_as_adopting_words_refused_leaving_no_body(repo: Path) -> None:
    """The words are judged inside the store batch, after the section bodies were
    handed to the body writer: the refusal must take those files back too."""
    before = ledger_files(repo)
    result = forest(repo, "adopt", "canon.md#Rules", "canon.md#Elsewhere", "--words", "love it!")
    assert result.exit_code == 1, (result.stdout, result.stderr)
    assert "enthusiasm is not root" in result.stderr
    assert ledger_files(repo) == before


def test_log_shows_chain_superseded_then_ground(repo: Path) -> None:
    first = json.loads(ok(repo, "adopt", "canon.md#Rules", "--words", WORDS, "--json").stdout)
    text = (repo / "canon.md").read_text().replace("first rule", "only rule")
    (repo / "canon.md").write_text(text)
    second = json.loads(
        ok(repo, "supersede", "canon.md#Rules", "--words", "Amended", "--as", ADA, "--json").stdout
    )
    doc = json.loads(ok(repo, "log", "canon.md#Rules", "--json").stdout)
    assert doc["selector"] == "canon.md#Canon/Rules"
    chain = [(x["content_id"], x["status"], x["adopted_by"], x["words"]) for x in doc["chain"]]
    assert chain == [
        (first[0]["content_id"], "superseded", "Test Author <author@example.org>", WORDS),
        (second["ground"], "ground", ADA, "Amended"),
    ]


def test_show_json_metadata(repo: Path) -> None:
    (bound,) = json.loads(ok(repo, "adopt", "canon.md#Rules", "--words", WORDS, "--json").stdout)
    meta = json.loads(ok(repo, "show", bound["content_id"], "--json").stdout)
    assert meta["content_id"] == bound["content_id"]
    assert meta["bucket"] == "import"
    assert meta["ground"] is True and meta["sealed"] is False
    assert len(meta["body_hash"]) == 64
    assert "first rule" not in json.dumps(meta)
    result = forest(repo, "show", "0" * 64, "--json")
    assert result.exit_code == 1 and "unknown entry" in result.stderr


def test_retire_then_status_no_longer_lists(repo: Path) -> None:
    ok(repo, "adopt", "canon.md#Rules", "canon.md#Elsewhere", "--words", WORDS)
    assert len(json.loads(ok(repo, "status", "--json").stdout)["findings"]) == 2
    result = forest(repo, "retire", "canon.md#Rules", "--words", "   ")
    assert result.exit_code == 1 and "words" in result.stderr
    ok(repo, "retire", "canon.md#Rules", "--words", "This rule is gone")
    rows = json.loads(ok(repo, "status", "--json").stdout)["findings"]
    assert [r["selector"] for r in rows] == ["canon.md#Canon/Elsewhere"]
    (repo / "canon.md").write_text("nothing left\n")
    kinds = [f["kind"] for f in json.loads(forest(repo, "check", "--json").stdout)["findings"]]
    assert kinds == ["unresolved"]  # only the live binding is judged
    result = forest(repo, "retire", "canon.md#Rules", "--words", "again")
    assert result.exit_code == 1 and "retired already" in result.stderr


def test_rebind_only_moves_unchanged_text(repo: Path) -> None:
    ok(repo, "adopt", "canon.md#Rules", "--words", WORDS)
    write(repo, "copy.md", "# Canon\n\n## Rules\n\nThe first rule bends.\n\n")
    result = forest(repo, "rebind", "canon.md#Rules", "copy.md#Rules")
    assert result.exit_code == 1 and "add --words" in result.stderr
    write(repo, "copy.md", "# Canon\n\n## Rules\n\nThe first rule stands.\n\n")
    ok(repo, "rebind", "canon.md#Rules", "copy.md#Rules")
    rows = json.loads(ok(repo, "status", "--json").stdout)["findings"]
    assert [(r["selector"], r["kind"]) for r in rows] == [("copy.md#Canon/Rules", "clean")]


def test_supersede_unchanged_text_refused(repo: Path) -> None:
    ok(repo, "adopt", "canon.md#Rules", "--words", WORDS)
    before = ledger_files(repo)
    result = forest(repo, "supersede", "canon.md#Rules", "--words", "same")
    assert result.exit_code == 1, result.stdout
    assert ledger_files(repo) == before

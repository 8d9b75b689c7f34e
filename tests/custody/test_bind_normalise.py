"""Declared normalisations through the doors (issue 26, part 5): forest.toml's
``[bind] normalise`` and ``forest adopt --normalise`` record them with the binding
(format 3), and check, the hook's ``check --staged`` and ``ci`` judge with them,
in real git; bad input is one ``forest:`` line and the ledger stays byte-identical."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forest_files.custody.bindconf import defaults_for, fitting
from forest_files.custody.config import ConfigError, parse_config_text, render_config
from forest_files.ledger import read_ledger
from forest_files.ledger.kinds import AdoptAct
from tests.helpers import cli as in_process
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.git import pasted as paste

WORDS = "Accepted as the team agreed"
HEAD = '[project]\nid = "p"\n'
BIND = '\n[bind."docs/**/*.md"]\nnormalise = ["trailing-whitespace", "list-markers"]\n'
ADR = "# Decision\n\nWe use Postgres.\n\n* fast\n* known\n"
REFORMATTED = "# Decision   \n\nWe use Postgres.  \n\n- fast\n+ known\n"  # style only
CHANGED = "# Decision\n\nWe use MySQL.\n\n* fast\n* known\n"


def repo_with(tmp_path: Path, extra: str = "") -> Path:
    repo = make_repo(tmp_path)
    in_process.ok(repo, "init")
    toml = repo / "forest.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + extra, encoding="utf-8")
    commit_all(repo, "custody")
    return repo


def ledger_bytes(repo: Path) -> dict[str, bytes]:
    root = repo / ".forest" / "ledger"
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def acts(repo: Path) -> list[tuple[str, int, object]]:
    return [(a.kind, a.version, a.payload) for a in read_ledger(repo / ".forest/ledger").ordered()]


# --- forest.toml -------------------------------------------------------------------------


def test_bind_normalise_round_trip_accepted() -> None:
    cfg = parse_config_text(HEAD + BIND, "forest.toml")
    [rule] = cfg.bind
    assert rule.normalise == ("list-markers@1", "trailing-whitespace@1") and rule.exclude == ()
    assert parse_config_text(render_config(cfg), "forest.toml") == cfg
    rules = defaults_for(cfg.bind, "docs/a.md")
    assert rules == ("normalise:list-markers@1", "normalise:trailing-whitespace@1")
    assert fitting(rules, "symbol") == ("normalise:trailing-whitespace@1",)
    # a Markdown normalisation never reaches a whole Python file the glob matches
    assert fitting(rules, "file", "docs/conf.py") == ("normalise:trailing-whitespace@1",)
    assert fitting(rules, "file", "docs/a.MD") == rules


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ('["tabs"]', "unknown normalisation 'tabs'"),
        ('["emphasis@7"]', "has no version '7'"),
        ('["emphasis", "emphasis@1"]', "given twice"),
        ("[]", "non-empty list"),
    ],
)
def test_bind_unknown_normalisation_refused(value: str, why: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config_text(f'{HEAD}\n[bind."a/*.md"]\nnormalise = {value}\n', "forest.toml")
    message = str(info.value)
    assert why in message and "\n" not in message and message.startswith("forest.toml: ")
    if "unknown" in why:
        assert "trailing-whitespace" in message and "py-docstrings" in message


def test_bind_conflicting_normalise_lists_refused() -> None:
    table = (
        '[bind."docs/a/*.md"]\nnormalise = ["emphasis"]\n[bind."docs/**/*.md"]\nexclude = ["#S"]\n'
    )
    with pytest.raises(ConfigError, match="different exclude lists"):
        parse_config_text(f"{HEAD}\n{table}", "forest.toml")


# --- adopt, then every door judges with the recorded normalisations ------------------------


def test_bind_normalise_applied_by_adopt_and_check_accepted(tmp_path: Path) -> None:
    repo = repo_with(tmp_path, BIND)
    write(repo, "docs/adr/1.md", ADR)
    in_process.ok(repo, "adopt", "docs/adr/1.md", "--words", WORDS)
    [(_, version, payload)] = [a for a in acts(repo) if a[0] == "adopt"]
    assert version == 3 and isinstance(payload, AdoptAct) and payload.binding is not None
    assert payload.binding.normalise == ("list-markers@1", "trailing-whitespace@1")
    commit_all(repo, "adopt")
    write(repo, "docs/adr/1.md", REFORMATTED)
    assert in_process.kinds(repo) == ["clean"]
    write(repo, "docs/adr/1.md", CHANGED)
    assert in_process.kinds(repo) == ["drifted"]


def test_normalised_binding_hook_and_ci_judge_the_same_accepted(tmp_path: Path) -> None:
    """The hook (``check --staged``) and the CI gate read the recorded list too: a
    style-only commit passes both, a changed word fails both."""
    repo = repo_with(tmp_path, BIND)
    write(repo, "docs/adr/1.md", ADR)
    in_process.ok(repo, "adopt", "docs/adr/1.md", "--words", WORDS)
    commit_all(repo, "adopt")
    git(repo, "checkout", "-q", "-b", "feature")
    write(repo, "docs/adr/1.md", REFORMATTED)
    git(repo, "add", "-A")
    assert in_process.forest(repo, "check", "--staged").exit_code == 0
    commit_all(repo, "style only")
    ci = in_process.runner.invoke(in_process.app, ["ci", "-C", str(repo), "--base", "main"])
    assert ci.exit_code == 0, ci.stdout
    write(repo, "docs/adr/1.md", CHANGED)
    git(repo, "add", "-A")
    staged = in_process.forest(repo, "check", "--staged")
    assert staged.exit_code != 0 and "drifted" in staged.stdout
    commit_all(repo, "changed a word")
    ci = in_process.runner.invoke(in_process.app, ["ci", "-C", str(repo), "--base", "main"])
    assert ci.exit_code == 1 and "docs/adr/1.md" in ci.stdout


def test_adopt_normalise_option_on_symbol_accepted(tmp_path: Path) -> None:
    repo = repo_with(tmp_path)
    code = 'def area(w, h):\n    """Width times height."""\n    return w * h  # area\n'
    write(repo, "src/m.py", code)
    in_process.ok(
        repo, "adopt", "src/m.py::area", "--normalise", "py-docstrings",
        "--normalise", "py-comments@1", "--words", WORDS,
    )  # fmt: skip
    commit_all(repo, "adopt")
    edited = code.replace("Width times height.", "The area.").replace("# area", "# the area")
    write(repo, "src/m.py", edited)
    assert in_process.kinds(repo) == ["clean"]
    write(repo, "src/m.py", code.replace("w * h", "w * h * 2"))
    assert in_process.kinds(repo) == ["drifted"]


def test_bind_normalise_in_printed_adopt_route_pasted_accepted(tmp_path: Path) -> None:
    repo = repo_with(tmp_path, BIND + '\n[require]\n"docs/**/*.md" = "file"\n')
    write(repo, "docs/adr/2.md", ADR)
    doc = json.loads(in_process.forest(repo, "check", "--json").stdout)
    [gap] = [f for f in doc["findings"] if f["kind"] == "unbound"]
    command = gap["routes"][0]["command"]
    assert "--normalise list-markers@1 --normalise trailing-whitespace@1" in command
    pasted = paste(repo, command.replace("'…'", "'New ADR'"))
    assert pasted.returncode == 0, pasted.stderr
    commit_all(repo, "adr 2")
    write(repo, "docs/adr/2.md", REFORMATTED)
    assert in_process.kinds(repo) == ["clean"]


# --- bad input: one line naming the fix, nothing recorded ----------------------------------


@pytest.mark.parametrize(
    ("target", "args", "why", "code"),
    [  # a bad option value is usage (2); one that does not fit the target, a refusal (1)
        ("docs/a.md", ("--normalise", "whitespace"), "unknown normalisation 'whitespace'", 2),
        ("docs/a.md", ("--normalise", "emphasis@2"), "has no version '2'", 2),
        ("docs/a.md", ("--normalise", "py-comments"), "apply to Python symbols", 1),
        ("src/m.py::f", ("--normalise", "link-style"), "reads Markdown", 1),
        ("docs/a.md", ("--exclude", "normalise:emphasis@1"), "--normalise NAME", 2),
    ],
)
def test_adopt_bad_normalisation_refused(
    tmp_path: Path, target: str, args: tuple[str, ...], why: str, code: int
) -> None:
    repo = repo_with(tmp_path)
    write(repo, "docs/a.md", ADR)
    write(repo, "src/m.py", "def f():\n    return 1\n")
    before = ledger_bytes(repo)
    result = in_process.console(repo, "adopt", target, *args, "--words", WORDS)  # typed: one line
    assert result.returncode == code, (result.stdout, result.stderr)
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("forest: ") and why in lines[0], lines
    if "unknown" in why:
        assert "trailing-whitespace" in lines[0] and "py-docstrings" in lines[0]
    assert ledger_bytes(repo) == before


def test_bind_normalise_applied_by_adopt_headings_accepted(tmp_path: Path) -> None:
    """``adopt --headings`` records the configured list with every binding it makes."""
    repo = repo_with(tmp_path, BIND)
    write(repo, "docs/canon.md", "# Canon\n\n## One\n\n* a\n\n## Two\n\n+ b\n")
    in_process.ok(repo, "adopt", "docs/canon.md", "--headings", "--yes", "--words", WORDS)
    adopted = [p for k, _, p in acts(repo) if k == "adopt"]
    assert len(adopted) == 3
    for payload in adopted:
        assert isinstance(payload, AdoptAct) and payload.binding is not None
        assert payload.binding.normalise == ("list-markers@1", "trailing-whitespace@1")
    commit_all(repo, "canon")
    write(repo, "docs/canon.md", "# Canon\n\n## One  \n\n- a\n\n## Two\n\n* b\n")
    assert in_process.kinds(repo) == ["clean", "clean", "clean"]

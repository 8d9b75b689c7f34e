"""A user's own git configuration changes nothing forest reads or decides.

One repository (tests/gitio/user_config_repo.py): bindings, a drifted section staged,
a bound file renamed, a merge, a branch range, a forest.toml change by an author whose
name is not ASCII. The doors run on it (``forest check``, ``check --staged``,
``status --json``, ``ci --base main --format json``, ``verify --base main``, ``check``
typed in a subfolder, the installed pre-commit hook through a real ``git commit``)
once with no configuration and once with one setting, or one variable, a user, a CI
image or a system gitconfig may have. Every output must be byte-identical.

Every git forest runs gets its global options in one place (gitio/_run.py ``_BASE``);
a case here fails when a setting reaches what forest parses (``log``'s format, its
encoding, the diff's prefixes or renames, colour codes, a pager, an external diff).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from forest_files.gitio.search import first_added, paths_added
from tests.gitio.user_config_repo import Run, built, doors
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.template import isolated, reused

# (key, value): each as the user's global config (GIT_CONFIG_GLOBAL).
SETTINGS: list[tuple[str, str]] = [
    ("log.showSignature", "true"),
    ("log.follow", "true"),
    ("log.abbrevCommit", "true"),
    ("log.decorate", "full"),
    ("log.date", "relative"),
    ("log.showRoot", "false"),
    ("log.mailmap", "true"),
    ("format.pretty", "oneline"),
    ("format.pretty", "format:%h %an%n%b"),
    ("i18n.logOutputEncoding", "latin1"),
    ("core.abbrev", "5"),
    ("diff.renames", "false"),
    ("diff.renames", "copies"),
    ("diff.noprefix", "true"),
    ("diff.mnemonicPrefix", "true"),
    ("diff.relative", "true"),
    ("diff.external", "echo EXTERNAL"),
    ("diff.algorithm", "patience"),
    ("diff.ignoreSubmodules", "all"),
    ("diff.submodule", "log"),
    ("diff.orderFile", "ORDER"),
    ("status.showUntrackedFiles", "no"),
    ("status.renames", "false"),
    ("status.relativePaths", "false"),
    ("core.untrackedCache", "true"),
    ("core.fsmonitor", "false"),
    ("core.ignoreCase", "true"),
    ("core.precomposeUnicode", "true"),
    ("submodule.recurse", "true"),
    ("grep.patternType", "perl"),
    ("core.commentChar", ";"),
    ("advice.statusHints", "false"),
    ("column.ui", "always"),
    ("pager.log", "sed s/^/PAGED/"),
    ("core.pager", "sed s/^/PAGED/"),
    ("color.ui", "always"),
    ("color.diff", "always"),
    ("color.status", "always"),
    ("color.branch", "always"),
    ("color.decorate.branch", "red"),
    ("color.grep", "always"),
    ("core.quotePath", "true"),
    ("core.safecrlf", "true"),
]

# Variables a user's shell or a CI image may export.
VARIABLES: list[dict[str, str]] = [
    {"GIT_DIFF_OPTS": "--unified=0"},
    {"GIT_EXTERNAL_DIFF": "echo EXTERNAL"},
    {"GIT_PAGER": "sed s/^/PAGED/"},
    {"GIT_CONFIG_PARAMETERS": "'log.abbrevCommit'='true' 'diff.noprefix'='true'"},
    {"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "format.pretty", "GIT_CONFIG_VALUE_0": "short"},
]


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Run:
    """The doors' outputs with no configuration, on a copy of their own."""
    with isolated():
        root = reused(("user_config",), tmp_path_factory.mktemp("clean") / "repo", built)
        return doors(root, {})


def _config_file(tmp_path: Path, key: str, value: str) -> Path:
    cfg = tmp_path / "gitconfig"
    cfg.touch()
    git(tmp_path, "config", "--file", str(cfg), key, value)
    return cfg


# The fast lane keeps the settings that once changed an output here, and one of each
# kind forest guards against (a format, an external diff, prefixes, colour); every door
# runs per case (~1 s), so the rest run in the slow lane (.ci/run runs both).
FAST = {"i18n.logOutputEncoding", "format.pretty", "diff.external", "diff.noprefix", "color.ui"}


def _cases(pairs: list[tuple[str, str]]) -> list[object]:
    return [
        pytest.param(k, v, id=f"{k}={v}", marks=() if k in FAST else pytest.mark.slow)
        for k, v in pairs
    ]


@pytest.mark.parametrize(("key", "value"), _cases(SETTINGS))
def test_user_config_global_setting_same_outputs_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clean: Run, key: str, value: str
) -> None:
    """The setting in the user's global config. Before: ``i18n.logOutputEncoding =
    latin1`` made ``forest ci`` read Zoë's forest.toml change as by ``Zo\\xeb \\xc4rne``
    (one config-governance fault); ``core.quotePath`` (the -z records), ``color.*``
    (asked formats carry no colour) and ``--no-pager`` hold already."""
    root = reused(("user_config",), tmp_path / "repo", built)
    cfg = _config_file(tmp_path, key, value)
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(cfg))
    assert doors(root, {"GIT_CONFIG_GLOBAL": str(cfg)}) == clean


# Settings a repository's own .git/config may carry (they outrank the global file, and
# the hook's ``git commit`` reads them too).
IN_REPOSITORY = [
    (k, v) for k, v in SETTINGS if k.split(".")[0] in ("log", "i18n", "diff", "status", "core")
]


@pytest.mark.parametrize(("key", "value"), _cases(IN_REPOSITORY))
def test_user_config_repository_setting_same_outputs_accepted(
    tmp_path: Path, clean: Run, key: str, value: str
) -> None:
    root = reused(("user_config",), tmp_path / "repo", built)
    git(root, "config", key, value)
    assert doors(root, {}) == clean


@pytest.mark.parametrize(
    "variables",
    [
        pytest.param(
            v, id=" ".join(v), marks=() if "GIT_CONFIG_PARAMETERS" in v else pytest.mark.slow
        )
        for v in VARIABLES
    ],
)
def test_user_environment_variable_same_outputs_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clean: Run, variables: dict[str, str]
) -> None:
    """Variables are the user's intent and kept (gitio/_run.py drops only those that
    name a repository); what forest parses never depends on them."""
    root = reused(("user_config",), tmp_path / "repo", built)
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    assert doors(root, variables) == clean


@pytest.mark.parametrize("where", ["global", "repository"])
def test_user_config_log_follow_same_additions_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    """``log.follow = true`` made every ``git log`` of one path follow it through its
    renames, ``--no-renames`` or not: the commit that renamed old.md to new.md no
    longer "added" new.md (``first_added`` of the range found nothing) and the one
    that added old.md was given for new.md (``paths_added``). The ledger's segment
    files are looked up one path at a time this way (gate/added_segment.py)."""
    root = make_repo(tmp_path)
    write(root, "old.md", "# Old\n\nWords that move.\n")
    first = commit_all(root, "add old.md")
    git(root, "mv", "old.md", "new.md")
    moved = commit_all(root, "rename it")
    wanted = (first_added(root, f"{first}..HEAD", ["new.md"]), paths_added(root, ["new.md"]))
    assert wanted[0] == {"new.md": moved} and [a.commit for a in wanted[1]] == [moved]
    env: dict[str, str] = {}
    if where == "global":
        env["GIT_CONFIG_GLOBAL"] = str(_config_file(tmp_path, "log.follow", "true"))
        monkeypatch.setenv("GIT_CONFIG_GLOBAL", env["GIT_CONFIG_GLOBAL"])
    else:
        git(root, "config", "log.follow", "true")
    assert git(root, "log", "--format=%H", "--", "new.md", env=env).split() == [moved, first]
    got = (first_added(root, f"{first}..HEAD", ["new.md"]), paths_added(root, ["new.md"]))
    assert got == wanted

"""gitio against real repositories: paths, index, history, blobs, attributes."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from forest_files import gitio
from forest_files.gitio import Change
from forest_files.gitio._run import NO_GRAFTS
from forest_files.kernel.errors import ForestError
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.gittrace import git_commands


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path)


ODD_NAMES = ["with space.md", "ünïcödé/ファイル.md", "tab\there.md", "new\nline.md", 'q"uote.md']


# --- where the repository is ------------------------------------------------


def test_toplevel_from_subdir_and_file_accepted(repo: Path) -> None:
    f = write(repo, "a/b/c.md", "x")
    assert gitio.toplevel(repo / "a" / "b") == repo
    assert gitio.toplevel(f) == repo


def test_toplevel_not_a_repo_refused(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    with pytest.raises(gitio.NotARepo, match="not inside a git"):
        gitio.toplevel(plain)


def test_toplevel_missing_dir_refused(tmp_path: Path) -> None:
    with pytest.raises(gitio.NotARepo):
        gitio.toplevel(tmp_path / "nowhere")


def test_toplevel_bare_repo_refused(tmp_path: Path) -> None:
    bare = make_repo(tmp_path, "b.git", bare=True)
    with pytest.raises(gitio.BareRepo, match="working tree") as info:
        gitio.toplevel(bare)
    assert isinstance(info.value, ForestError)


def test_inherited_git_dir_does_not_misdirect(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    one, two = make_repo(tmp_path, "one"), make_repo(tmp_path, "two")
    first = commit_all(one, "in one")
    monkeypatch.setenv("GIT_DIR", str(one / ".git"))
    monkeypatch.setenv("GIT_WORK_TREE", str(one))
    assert gitio.head_commit(two) is None
    assert gitio.head_commit(one) == first


def test_clean_env_drops_repo_vars_keeps_index_on_request(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rel").mkdir()
    (tmp_path / "rel" / "index").touch()  # kept only when it names a file
    monkeypatch.setenv("GIT_DIR", "/elsewhere")
    monkeypatch.setenv("GIT_INDEX_FILE", "rel/index")
    env = gitio.clean_env({"X_EXTRA": "1"})
    assert "GIT_DIR" not in env
    assert "GIT_INDEX_FILE" not in env
    assert env["X_EXTRA"] == "1"
    assert env["GIT_CONFIG_GLOBAL"] == os.devnull
    kept = gitio.clean_env(keep_index_file=True)
    assert kept["GIT_INDEX_FILE"] == os.path.abspath("rel/index")
    assert "GIT_DIR" not in kept
    monkeypatch.setenv("GIT_INDEX_FILE", "rel/missing")
    with pytest.raises(gitio.GitFailed, match="unset GIT_INDEX_FILE"):
        gitio.clean_env(keep_index_file=True)


def test_clean_env_replace_refs_and_grafts_always_off_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GIT_NO_REPLACE_OBJECTS", "")
    monkeypatch.setenv("GIT_REPLACE_REF_BASE", "refs/elsewhere/")
    monkeypatch.setenv("GIT_GRAFT_FILE", "/tmp/grafts")
    env = gitio.clean_env({"GIT_NO_REPLACE_OBJECTS": "", "GIT_GRAFT_FILE": "/tmp/g"})
    assert env["GIT_NO_REPLACE_OBJECTS"] == "1"
    assert env["GIT_GRAFT_FILE"] == NO_GRAFTS and not os.path.exists(NO_GRAFTS)
    assert "GIT_REPLACE_REF_BASE" not in env


def test_clean_env_object_dirs_kept_only_in_a_quarantine_accepted(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    quarantine, objects = str(tmp_path / "objects" / "incoming-x"), str(tmp_path / "objects")
    monkeypatch.setenv("GIT_OBJECT_DIRECTORY", quarantine)
    monkeypatch.setenv("GIT_ALTERNATE_OBJECT_DIRECTORIES", objects)
    assert "GIT_OBJECT_DIRECTORY" not in gitio.clean_env()  # no quarantine: dropped
    monkeypatch.setenv("GIT_QUARANTINE_PATH", str(tmp_path / "elsewhere"))
    assert "GIT_OBJECT_DIRECTORY" not in gitio.clean_env()  # another directory: dropped
    monkeypatch.setenv("GIT_QUARANTINE_PATH", quarantine)
    env = gitio.clean_env()
    assert env["GIT_OBJECT_DIRECTORY"] == quarantine
    assert env["GIT_ALTERNATE_OBJECT_DIRECTORIES"] == objects
    assert env["GIT_QUARANTINE_PATH"] == quarantine


def test_server_hook_reads_pushed_objects_in_quarantine_accepted(
    repo: Path, tmp_path: Path
) -> None:
    """A pre-receive hook driving git through gitio sees the objects being pushed
    (they sit in git's quarantine until the hook accepts them)."""
    import sys

    server = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", str(server))
    hook = server / "hooks" / "pre-receive"
    hook.write_text(
        f"#!/bin/sh\nexec {sys.executable} -c '"
        "import sys\nfrom forest_files import gitio\n"
        "for line in sys.stdin:\n"
        "    new = line.split()[1]\n"
        '    got = gitio.run_git(".", ["cat-file", "-t", new]).stdout\n'
        '    print("seen", got.decode().strip())\n'
        "'\n",
        encoding="utf-8",
    )
    hook.chmod(0o755)
    write(repo, "pushed.md", "pushed\n")
    commit_all(repo, "to push")
    proc = subprocess.run(
        ["git", "push", "-q", str(server), "HEAD:refs/heads/main"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "seen commit" in proc.stderr


def test_hooks_dir_default_accepted(repo: Path) -> None:
    assert gitio.git_dir(repo) == repo / ".git"
    assert gitio.hooks_dir(repo) == repo / ".git" / "hooks"


def test_hooks_dir_core_hookspath_respected(repo: Path, tmp_path: Path) -> None:
    git(repo, "config", "core.hooksPath", "tools/hooks")
    assert gitio.hooks_dir(repo) == repo / "tools" / "hooks"
    git(repo, "config", "core.hooksPath", str(tmp_path / "abs-hooks"))
    assert gitio.hooks_dir(repo) == tmp_path / "abs-hooks"


def test_hooks_dir_linked_worktree_shares_common_hooks(repo: Path, tmp_path: Path) -> None:
    commit_all(repo, "first")
    wt = tmp_path / "wt"
    git(repo, "worktree", "add", "-q", "-b", "side", str(wt))
    assert gitio.toplevel(wt) == wt
    assert gitio.git_dir(wt) == repo / ".git" / "worktrees" / "wt"
    assert gitio.hooks_dir(wt) == repo / ".git" / "hooks"


# --- HEAD and history -------------------------------------------------------


def test_head_commit_unborn_is_none(repo: Path) -> None:
    assert gitio.head_commit(repo) is None


def test_head_commit_detached_accepted(repo: Path) -> None:
    first = commit_all(repo, "one")
    commit_all(repo, "two")
    git(repo, "checkout", "-q", "--detach", first)
    assert gitio.head_commit(repo) == first


def _history(repo: Path) -> dict[str, str]:
    """main: base - m1 - merge(side) ; side: base - s1."""
    ids = {"base": commit_all(repo, "base")}
    git(repo, "checkout", "-q", "-b", "side")
    write(repo, "side.md", "s")
    ids["s1"] = commit_all(repo, "s1")
    git(repo, "checkout", "-q", "main")
    write(repo, "main.md", "m")
    ids["m1"] = commit_all(repo, "m1")
    git(repo, "merge", "-q", "--no-ff", "-m", "merge", "side")
    ids["merge"] = git(repo, "rev-parse", "HEAD")
    return ids


def test_merge_base_and_rev_list_order_merges_included(repo: Path) -> None:
    ids = _history(repo)
    assert gitio.merge_base(repo, "main", "side") == ids["s1"]
    assert gitio.merge_base(repo, ids["m1"], "side") == ids["base"]
    listed = gitio.rev_list(repo, f"{ids['base']}..main")
    assert listed[-1] == ids["merge"]
    assert set(listed) == {ids["s1"], ids["m1"], ids["merge"]}
    assert listed.index(ids["m1"]) < listed.index(ids["merge"])
    assert gitio.rev_list(repo, f"{ids['base']}..main", first_parent=True) == [
        ids["m1"],
        ids["merge"],
    ]
    assert gitio.rev_list(repo, "main..main") == []


@pytest.mark.parametrize("bad", ["nope", "--all", "main..nope"])
def test_unknown_ref_refused(repo: Path, bad: str) -> None:
    commit_all(repo, "one")
    with pytest.raises(gitio.UnknownRef):
        gitio.rev_list(repo, bad)
    with pytest.raises(gitio.UnknownRef):
        gitio.merge_base(repo, "main", bad)
    with pytest.raises(gitio.UnknownRef):
        gitio.ls_tree(repo, bad)


def test_merge_base_unrelated_histories_refused(repo: Path) -> None:
    commit_all(repo, "one")
    git(repo, "checkout", "-q", "--orphan", "other")
    commit_all(repo, "two")
    with pytest.raises(gitio.GitFailed, match="share no history"):
        gitio.merge_base(repo, "main", "other")


def test_shallow_clone_merge_base_refused_with_fetch_depth_hint(repo: Path, tmp_path: Path) -> None:
    commit_all(repo, "base")
    git(repo, "checkout", "-q", "-b", "feature")
    write(repo, "f.md", "f")
    commit_all(repo, "feature work")
    git(repo, "checkout", "-q", "main")
    write(repo, "m.md", "m")
    commit_all(repo, "main work")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{repo}", str(clone))
    git(clone, "fetch", "-q", "--depth", "1", "origin", "feature:feature")
    assert gitio.is_shallow(clone)
    assert not gitio.is_shallow(repo)
    with pytest.raises(gitio.ShallowClone, match="fetch-depth: 0"):
        gitio.merge_base(clone, "main", "feature")
    with pytest.raises(gitio.UnknownRef, match="fetch-depth: 0"):
        gitio.merge_base(clone, "main", "origin/never-fetched")


# --- trees, the git index, diffs -------------------------------------------


def test_ls_tree_odd_paths_and_prefix_accepted(repo: Path) -> None:
    for name in ODD_NAMES:
        write(repo, f"docs/{name}", name)
    write(repo, "other.md", "o")
    commit_all(repo, "odd")
    entries = gitio.ls_tree(repo, "HEAD", "docs")
    assert sorted(e.path for e in entries) == sorted(f"docs/{n}" for n in ODD_NAMES)
    assert all(e.type == "blob" and e.mode == "100644" for e in entries)
    assert len(gitio.ls_tree(repo, "HEAD")) == len(ODD_NAMES) + 1
    blobs = gitio.cat_blobs(repo, [e.blob for e in entries])
    assert {blobs[e.blob].decode() for e in entries} == set(ODD_NAMES)


def test_ls_files_stage_prefix_is_literal(repo: Path) -> None:
    write(repo, "a/*.md", "star")
    write(repo, "a/x.md", "x")
    git(repo, "add", "-A")
    staged = gitio.ls_files_stage(repo, "a/*.md")
    assert [e.path for e in staged] == ["a/*.md"]
    assert staged[0].stage == 0
    assert staged[0].blob == git(repo, "hash-object", "a/*.md")


def test_staged_changes_unborn_branch_accepted(repo: Path) -> None:
    for name in ODD_NAMES:
        write(repo, name, name)
    git(repo, "add", "-A")
    changes = gitio.staged_changes(repo)
    assert sorted(changes, key=lambda c: c.path) == sorted(
        (Change("A", n) for n in ODD_NAMES), key=lambda c: c.path
    )


def test_staged_changes_modify_delete_rename(repo: Path) -> None:
    write(repo, "keep.md", "k")
    write(repo, "gone.md", "g")
    write(repo, "old name.md", "same content for rename detection\n" * 5)
    commit_all(repo, "one")
    write(repo, "keep.md", "k2")
    git(repo, "rm", "-q", "gone.md")
    git(repo, "mv", "old name.md", "new name.md")
    git(repo, "add", "-A")
    write(repo, "keep.md", "unstaged edit is not staged")
    plain = set(gitio.staged_changes(repo))
    assert plain == {
        Change("M", "keep.md"),
        Change("D", "gone.md"),
        Change("D", "old name.md"),
        Change("A", "new name.md"),
    }
    renamed = set(gitio.staged_changes(repo, renames=True))
    assert Change("R", "new name.md", "old name.md") in renamed


def test_git_index_file_honoured_only_when_kept(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(repo, "doc.md", "committed")
    commit_all(repo, "one")
    write(repo, "doc.md", "in the temporary index only")
    temp_index = tmp_path / "temp-index"
    env = {"GIT_INDEX_FILE": str(temp_index)}
    git(repo, "read-tree", "HEAD", env=env)
    git(repo, "add", "doc.md", env=env)
    monkeypatch.setenv("GIT_INDEX_FILE", str(temp_index))

    assert gitio.staged_changes(repo, keep_index_file=True) == [Change("M", "doc.md")]
    assert gitio.staged_changes(repo) == []
    kept = gitio.ls_files_stage(repo, "doc.md", keep_index_file=True)
    real = gitio.ls_files_stage(repo, "doc.md")
    assert kept[0].blob != real[0].blob
    assert gitio.cat_blobs(repo, [kept[0].blob])[kept[0].blob] == b"in the temporary index only"
    assert not gitio.is_index_locked(repo, keep_index_file=True)
    Path(str(temp_index) + ".lock").write_bytes(b"")
    assert gitio.is_index_locked(repo, keep_index_file=True)
    assert not gitio.is_index_locked(repo)


def test_is_index_locked_detected(repo: Path) -> None:
    assert not gitio.is_index_locked(repo)
    (repo / ".git" / "index.lock").write_bytes(b"")
    assert gitio.is_index_locked(repo)


def test_diff_names_filters_and_paths(repo: Path) -> None:
    write(repo, "led/a.txt", "a")
    write(repo, "led/b.txt", "b")
    write(repo, "other.txt", "o")
    one = commit_all(repo, "one")
    write(repo, "led/a.txt", "a2")
    (repo / "led" / "b.txt").unlink()
    write(repo, "led/c.txt", "new")
    write(repo, "other.txt", "o2")
    two = commit_all(repo, "two")
    assert set(gitio.diff_names(repo, one, two, paths=["led"])) == {
        Change("M", "led/a.txt"),
        Change("D", "led/b.txt"),
    }
    everything = gitio.diff_names(repo, one, two, filters=None)
    assert Change("A", "led/c.txt") in everything
    assert len(everything) == 4


def test_diff_each_parent_aligned_merges_and_moves_detected(repo: Path) -> None:
    write(repo, "led/a.txt", "a")
    write(repo, "led/b.txt", "b")
    base = commit_all(repo, "base")
    git(repo, "checkout", "-q", "-b", "side")
    git(repo, "mv", "led", "moved")  # a rename: reported as deletions, never as R
    side = commit_all(repo, "move the folder")
    git(repo, "checkout", "-q", "main")
    write(repo, "other.txt", "o")
    main = commit_all(repo, "unrelated")
    git(repo, "merge", "-q", "--no-edit", "side")
    merge = git(repo, "rev-parse", "HEAD")
    commits = gitio.range_parents(repo, f"{base}..{merge}")
    assert commits[-1] == (merge, (main, side)) and {c for c, _ in commits} == {side, main, merge}
    pairs = [(merge, main), (merge, side), (main, base), (side, base)]
    gone = [Change("D", "led/a.txt"), Change("D", "led/b.txt")]
    assert gitio.diff_each_parent(repo, pairs, "led") == [gone, [], [], gone]
    assert gitio.diff_each_parent(repo, [], "led") == []
    assert gitio.trees_exist(repo, [base, merge], "led") == {base: True, merge: False}
    assert gitio.trees_exist(repo, [merge], "moved/a.txt") == {merge: False}  # a blob


def test_diff_each_parent_every_path_split_renames_accepted(repo: Path) -> None:
    write(repo, "a.md", "a")
    base = commit_all(repo, "base")
    git(repo, "mv", "a.md", "b.md")
    write(repo, "with space.md", "s")
    moved = commit_all(repo, "move and add")
    changes = gitio.diff_each_parent(repo, [(moved, base)], None, filters=None)
    assert changes == [[Change("D", "a.md"), Change("A", "b.md"), Change("A", "with space.md")]]


def test_files_at_many_revisions_one_call_accepted(repo: Path) -> None:
    write(repo, "forest.toml", "one\n")
    first = commit_all(repo, "one")
    write(repo, "forest.toml", "two\n")
    second = commit_all(repo, "two")
    git(repo, "rm", "-q", "forest.toml")
    write(repo, "forest.toml/inner", "a directory now")
    third = commit_all(repo, "a directory")
    got = gitio.files_at(repo, [first, second, third, first], "forest.toml")
    assert got == {first: b"one\n", second: b"two\n", third: None}
    assert gitio.files_at(repo, [first], "no such file") == {first: None}
    assert gitio.files_at(repo, [], "forest.toml") == {}


def test_files_at_hostile_names_refused(repo: Path) -> None:
    write(repo, "x.md", "x")
    head = commit_all(repo, "x")
    with pytest.raises(ForestError, match="revision"):
        gitio.files_at(repo, ["--output=/tmp/x"], "x.md")
    with pytest.raises(ValueError, match="newline"):
        gitio.files_at(repo, [head], "new\nline.md")


# --- blobs, config, attributes, submodules ---------------------------------


def test_cat_blobs_many_in_one_process(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    contents = [f"blob {i}\n".encode() * (i % 7) for i in range(300)]
    contents += [b"", b"\x00\xff binary\n\n", b"no trailing newline"]
    files = [write(repo.parent, f"blobs/{i}", c) for i, c in enumerate(contents)]
    ids = git(repo, "hash-object", "-w", *map(str, files)).split("\n")
    spawned: list[object] = []
    real_popen = subprocess.Popen

    def counting_popen(*args: object, **kwargs: object) -> object:
        spawned.append(args[0])
        return real_popen(*args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(subprocess, "Popen", counting_popen)
    got = gitio.cat_blobs(repo, [*ids, ids[0]])
    assert len(spawned) == 1
    assert [got[i] for i in ids] == contents
    assert gitio.cat_blobs(repo, []) == {}


def test_cat_blobs_missing_or_malformed_refused(repo: Path) -> None:
    with pytest.raises(gitio.UnknownRef, match="missing"):
        gitio.cat_blobs(repo, ["0" * 40])
    with pytest.raises(gitio.UnknownRef, match="full object id"):
        gitio.cat_blobs(repo, ["HEAD"])
    commit_all(repo, "one")
    tree = git(repo, "rev-parse", "HEAD^{tree}")
    with pytest.raises(gitio.UnknownRef, match="not a blob"):
        gitio.cat_blobs(repo, [tree])


def test_config_get_and_user_identity(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GIT_AUTHOR_NAME", raising=False)
    monkeypatch.delenv("GIT_AUTHOR_EMAIL", raising=False)
    assert gitio.config_get(repo, "forest.nothing") is None
    assert gitio.user_identity(repo) is None
    git(repo, "config", "user.name", "Ada Lovelace")
    assert gitio.user_identity(repo) is None
    git(repo, "config", "user.email", "ada@example.org")
    assert gitio.config_get(repo, "user.name") == "Ada Lovelace"
    assert gitio.user_identity(repo) == "Ada Lovelace <ada@example.org>"
    with pytest.raises(gitio.GitFailed) as info:
        gitio.config_get(repo, "nodot")
    assert "key does not contain a section" in info.value.stderr


def test_check_attr_filter_detected(repo: Path) -> None:
    write(repo, ".gitattributes", "*.bin filter=lfs\n*.md -text\n")
    paths = ["big.bin", "dir/ü space.md", "plain.txt"]
    assert gitio.check_attr(repo, "filter", paths) == {
        "big.bin": "lfs",
        "dir/ü space.md": "unspecified",
        "plain.txt": "unspecified",
    }
    assert gitio.check_attr(repo, "text", ["a.md"]) == {"a.md": "unset"}
    assert gitio.check_attr(repo, "filter", ["big.bin"], cached=True) == {"big.bin": "unspecified"}
    git(repo, "add", ".gitattributes")
    assert gitio.check_attr(repo, "filter", ["big.bin"], cached=True) == {"big.bin": "lfs"}


def test_submodule_paths_listed(repo: Path, tmp_path: Path) -> None:
    sub = make_repo(tmp_path, "sub")
    commit_all(sub, "sub one")
    commit_all(repo, "one")
    git(repo, "submodule", "add", "-q", f"file://{sub}", "vendor/the sub")
    write(repo, "file.md", "x")
    git(repo, "add", "-A")
    assert gitio.submodule_paths(repo) == ["vendor/the sub"]
    gitlink = gitio.ls_files_stage(repo, "vendor")[0]
    assert (gitlink.mode, gitlink.type) == ("160000", "commit")


def test_user_identity_author_env_overrides_config_accepted(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    git(repo, "config", "user.name", "Ada Lovelace")
    git(repo, "config", "user.email", "ada@example.org")
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Grace Hopper")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "grace@example.org")
    assert gitio.user_identity(repo) == "Grace Hopper <grace@example.org>"


# --- a full commit id is asked once ---------------------------------------------


def _rev_parses(trace: Path) -> int:
    return sum(" rev-parse " in command for command in git_commands(trace))


def test_resolve_commit_full_id_asked_once_other_names_every_time_accepted(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full commit id git confirmed is not asked again in the process (an object id
    names its content for ever); a branch name, which can move, is asked every time;
    so is a full id that names no commit, refused every time."""
    write(repo, "a.md", "x")
    commit_all(repo, "one")
    head = git(repo, "rev-parse", "HEAD").strip()
    trace = tmp_path / "trace"
    monkeypatch.setenv("GIT_TRACE", str(trace))
    assert gitio.resolve_commit(repo, head) == head
    assert gitio.resolve_commit(repo, head) == head
    assert _rev_parses(trace) == 1
    gitio.forget_read_objects()  # what a new process starts from: asked again
    assert gitio.resolve_commit(repo, head) == head
    assert _rev_parses(trace) == 2
    assert gitio.resolve_commit(repo, "HEAD") == head
    assert gitio.resolve_commit(repo, "HEAD") == head
    assert _rev_parses(trace) == 4
    missing = "0123456789abcdef" * 2 + "01234567"
    for _ in range(2):
        with pytest.raises(gitio.UnknownRef, match="does not name a commit"):
            gitio.resolve_commit(repo, missing)
    tree = git(repo, "rev-parse", "HEAD^{tree}").strip()  # a full id of a tree: no commit
    for _ in range(2):
        with pytest.raises(gitio.UnknownRef):
            gitio.resolve_commit(repo, tree)
    other = make_repo(tmp_path / "other")  # the same id in another repository: asked there
    with pytest.raises(gitio.UnknownRef):
        gitio.resolve_commit(other, head)


def test_commit_changes_against_first_parent_root_and_merge_accepted(tmp_path: Path) -> None:
    """One commit's changes under a prefix: against its parent (a deletion, a file
    outside the prefix left out), a root commit against nothing, a merge none."""
    root = make_repo(tmp_path)
    write(root, "led/a.txt", "a\n")
    write(root, "led/b.txt", "b\n")
    first = commit_all(root, "first")
    assert gitio.commit_changes(root, first, "led") == [
        Change("A", "led/a.txt"),
        Change("A", "led/b.txt"),
    ]
    git(root, "rm", "-q", "led/a.txt")
    write(root, "other.txt", "x\n")
    second = commit_all(root, "second")
    assert gitio.commit_changes(root, second, "led", filters="DT") == [Change("D", "led/a.txt")]
    git(root, "checkout", "-q", "-b", "side", first)
    write(root, "side.txt", "s\n")
    commit_all(root, "side")
    git(root, "checkout", "-q", "-")
    git(root, "merge", "-q", "--no-edit", "side")
    assert gitio.commit_changes(root, "HEAD", "led") == []
    with pytest.raises(gitio.UnknownRef):
        gitio.commit_changes(root, "no-such-rev", "led")


def test_taken_as_unchanged_of_more_paths_than_arg_max_holds_refused(tmp_path: Path) -> None:
    """The hook asks which failing findings' files the index takes as unchanged: with
    thousands of long paths on the command line, ``git ls-files`` could not start
    (E2BIG, an internal error at every door). Past a few hundred, the whole index is
    listed and filtered instead, with the same answer."""
    repo = make_repo(tmp_path)
    write(repo, "a.md", "a\n")
    write(repo, "b.md", "b\n")
    commit_all(repo, "two files")
    git(repo, "update-index", "--assume-unchanged", "a.md")
    few = gitio.taken_as_unchanged(repo, ["a.md", "b.md"])
    many = ["a.md", "b.md", *(f"{'d' * 250}/{i}.md" for i in range(12_000))]  # ~3 MB
    assert few == gitio.taken_as_unchanged(repo, many) == {"a.md": "assume-unchanged"}

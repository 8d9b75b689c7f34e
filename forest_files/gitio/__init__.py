"""gitio: the only part of forest-files that talks to git.

Plumbing through ``subprocess`` with argument lists: raw paths
(``core.quotepath=off``, ``-z``), no pager, no colour, no external diff, and
inherited repository variables cleaned. No GitPython on this path: the hook
must start fast and the watcher must not leak git children.

Stores: nothing. Refuses: NotARepo, BareRepo, ShallowClone, UnknownRef,
GitFailed (all ForestError). Returns: paths, ids, TreeEntry, Change, bytes.
Test: tests/gitio/test_gitio.py
"""

from forest_files.gitio._run import (
    BareRepo,
    GitFailed,
    NotARepo,
    ShallowClone,
    UnknownRef,
    clean_env,
    refuse_option,
    run_git,
    split_z,
)
from forest_files.gitio.attr_rules import info_rules
from forest_files.gitio.attr_source import committed_attributes, deciding_rules
from forest_files.gitio.config import config_get, config_origin, user_identity
from forest_files.gitio.content import (
    SUBMODULE_MODE,
    attributes,
    cat_blobs,
    check_attr,
    diff_names,
    forget_read_objects,
    ls_files_flagged,
    ls_files_stage,
    ls_tree,
    staged_changes,
    submodule_paths,
)
from forest_files.gitio.eol import checkout_crlf
from forest_files.gitio.history import (
    branches_holding,
    commit_changes,
    diff_each_parent,
    files_at,
    holding_rev,
    last_deleted_by,
    range_parents,
    trees_exist,
)
from forest_files.gitio.index_file import (
    commit_names_its_files,
    commit_stages_into_lock,
    is_index_locked,
)
from forest_files.gitio.pending import (
    taken_as_unchanged,
    to_stage,
    unstaged_paths,
    untracked,
    untracked_split,
)
from forest_files.gitio.records import Change, TreeEntry
from forest_files.gitio.repo import (
    FetchRoute,
    commits_with_authors,
    fetch_route,
    full_history,
    git_dir,
    head_commit,
    hooks_dir,
    is_shallow,
    merge_base,
    resolve_commit,
    rev_list,
    toplevel,
)
from forest_files.gitio.search import (
    Added,
    blobs_at,
    files_with,
    first_added,
    paths_added,
)
from forest_files.gitio.tree_paths import ls_tree_each
from forest_files.gitio.worktrees import Worktree, worktree_list

__all__ = [
    "SUBMODULE_MODE",
    "Added",
    "BareRepo",
    "Change",
    "FetchRoute",
    "GitFailed",
    "NotARepo",
    "ShallowClone",
    "TreeEntry",
    "UnknownRef",
    "Worktree",
    "attributes",
    "blobs_at",
    "branches_holding",
    "cat_blobs",
    "check_attr",
    "checkout_crlf",
    "clean_env",
    "commit_changes",
    "commit_names_its_files",
    "commit_stages_into_lock",
    "commits_with_authors",
    "committed_attributes",
    "config_get",
    "config_origin",
    "deciding_rules",
    "diff_each_parent",
    "diff_names",
    "fetch_route",
    "files_at",
    "files_with",
    "first_added",
    "forget_read_objects",
    "full_history",
    "git_dir",
    "head_commit",
    "holding_rev",
    "hooks_dir",
    "info_rules",
    "is_index_locked",
    "is_shallow",
    "last_deleted_by",
    "ls_files_flagged",
    "ls_files_stage",
    "ls_tree",
    "ls_tree_each",
    "merge_base",
    "paths_added",
    "range_parents",
    "refuse_option",
    "resolve_commit",
    "rev_list",
    "run_git",
    "split_z",
    "staged_changes",
    "submodule_paths",
    "taken_as_unchanged",
    "to_stage",
    "toplevel",
    "trees_exist",
    "unstaged_paths",
    "untracked",
    "untracked_split",
    "user_identity",
    "worktree_list",
]

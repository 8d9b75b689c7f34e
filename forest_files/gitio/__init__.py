"""gitio: the only part of forest-files that talks to git.

Plumbing through ``subprocess`` with argument lists: raw paths
(``core.quotepath=off``, ``-z``), no pager, no colour, no external diff, and
inherited repository variables cleaned. No GitPython on this path: the hook
must start fast and the watcher must not leak git children.

Stores: nothing. Refuses: NotARepo, BareRepo, ShallowClone, UnknownRef,
GitFailed (all ForestError). Returns: paths, ids, TreeEntry, Change, bytes.
Test: tests/gitio/test_gitio.py

Only the runner's names (``_run``) load with the package; every other name loads its
module on first use (kernel/lazy.py), so the hook imports only the modules it calls.
"""

from __future__ import annotations

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
from forest_files.kernel.lazy import lazy_exports

TYPE_CHECKING = False
_EXPORTS: dict[str, str] = {
    "info_rules": "forest_files.gitio.attr_rules",
    "committed_attributes": "forest_files.gitio.attr_source",
    "deciding_rules": "forest_files.gitio.attr_source",
    "config_get": "forest_files.gitio.config",
    "config_origin": "forest_files.gitio.config",
    "remote_names": "forest_files.gitio.config",
    "upstream_remote": "forest_files.gitio.config",
    "user_identity": "forest_files.gitio.config",
    "SUBMODULE_MODE": "forest_files.gitio.content",
    "attributes": "forest_files.gitio.content",
    "cat_blobs": "forest_files.gitio.content",
    "check_attr": "forest_files.gitio.content",
    "check_attrs": "forest_files.gitio.content",
    "diff_names": "forest_files.gitio.content",
    "forget_read_objects": "forest_files.gitio.content",
    "ls_files_flagged": "forest_files.gitio.content",
    "ls_files_stage": "forest_files.gitio.content",
    "ls_tree": "forest_files.gitio.content",
    "staged_changes": "forest_files.gitio.content",
    "submodule_paths": "forest_files.gitio.content",
    "checkout_crlf": "forest_files.gitio.eol",
    "branches_holding": "forest_files.gitio.history",
    "commit_changes": "forest_files.gitio.history",
    "diff_each_parent": "forest_files.gitio.history",
    "files_at": "forest_files.gitio.history",
    "holding_rev": "forest_files.gitio.history",
    "last_deleted_by": "forest_files.gitio.history",
    "objects_at": "forest_files.gitio.history",
    "range_parents": "forest_files.gitio.history",
    "trees_exist": "forest_files.gitio.history",
    "commit_names_its_files": "forest_files.gitio.index_file",
    "commit_stages_into_lock": "forest_files.gitio.index_file",
    "is_index_locked": "forest_files.gitio.index_file",
    "taken_as_unchanged": "forest_files.gitio.pending",
    "to_stage": "forest_files.gitio.pending",
    "unstaged_paths": "forest_files.gitio.pending",
    "untracked": "forest_files.gitio.pending",
    "untracked_split": "forest_files.gitio.pending",
    "Change": "forest_files.gitio.records",
    "TreeEntry": "forest_files.gitio.records",
    "FetchRoute": "forest_files.gitio.repo",
    "commits_with_authors": "forest_files.gitio.repo",
    "fetch_route": "forest_files.gitio.repo",
    "full_history": "forest_files.gitio.repo",
    "git_dir": "forest_files.gitio.repo",
    "head_commit": "forest_files.gitio.repo",
    "hooks_dir": "forest_files.gitio.repo",
    "is_shallow": "forest_files.gitio.repo",
    "merge_base": "forest_files.gitio.repo",
    "resolve_commit": "forest_files.gitio.repo",
    "rev_list": "forest_files.gitio.repo",
    "toplevel": "forest_files.gitio.repo",
    "Added": "forest_files.gitio.search",
    "blobs_at": "forest_files.gitio.search",
    "files_with": "forest_files.gitio.search",
    "first_added": "forest_files.gitio.search",
    "paths_added": "forest_files.gitio.search",
    "ls_tree_each": "forest_files.gitio.tree_paths",
    "Worktree": "forest_files.gitio.worktrees",
    "worktree_list": "forest_files.gitio.worktrees",
}

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
    "check_attrs",
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
    "objects_at",
    "paths_added",
    "range_parents",
    "refuse_option",
    "remote_names",
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
    "upstream_remote",
    "user_identity",
    "worktree_list",
]

__getattr__, __dir__ = lazy_exports(globals(), _EXPORTS)

if TYPE_CHECKING:
    from forest_files.gitio.attr_rules import (
        info_rules,
    )
    from forest_files.gitio.attr_source import (
        committed_attributes,
        deciding_rules,
    )
    from forest_files.gitio.config import (
        config_get,
        config_origin,
        remote_names,
        upstream_remote,
        user_identity,
    )
    from forest_files.gitio.content import (
        SUBMODULE_MODE,
        attributes,
        cat_blobs,
        check_attr,
        check_attrs,
        diff_names,
        forget_read_objects,
        ls_files_flagged,
        ls_files_stage,
        ls_tree,
        staged_changes,
        submodule_paths,
    )
    from forest_files.gitio.eol import (
        checkout_crlf,
    )
    from forest_files.gitio.history import (
        branches_holding,
        commit_changes,
        diff_each_parent,
        files_at,
        holding_rev,
        last_deleted_by,
        objects_at,
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
    from forest_files.gitio.records import (
        Change,
        TreeEntry,
    )
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
    from forest_files.gitio.tree_paths import (
        ls_tree_each,
    )
    from forest_files.gitio.worktrees import (
        Worktree,
        worktree_list,
    )

"""Every finding kind, named once: what it means, which doors report it, how it exits.

Stores: nothing.
Refuses: nothing.
Returns: ``KINDS`` (kind -> ``Kind``), in the order SARIF lists its rules and the
README's findings table lists them; ``CORRUPTION`` (the kinds that exit 3).
Test: tests/check/test_findings_schema.py (the README table and the JSON Schema's enum
are kept in step with this table)

A plain dict of tuples: the hook imports the finding model, and this costs it nothing.
"""

from __future__ import annotations

# (meaning, doors, way out). Doors: check (forest check, status, check --staged and
# the hook), ci (forest ci), verify (forest verify). Every kind but ``clean`` fails
# the door that reports it (exit 1, or 3 for CORRUPTION); the hook only warns of
# ``unbound`` (a draft may be committed).
Kind = tuple[str, str, str]

KINDS: dict[str, Kind] = {
    "clean": ("the section hashes to its current ground", "check, ci", "—"),
    "drifted": (
        "the section's text differs from ground",
        "check, ci",
        "`forest restore` or `forest supersede`",
    ),
    "missing": ("the bound file is gone", "check, ci", "bring it back, or `forest retire`"),
    "unresolved": (
        "the selector matches nothing (heading renamed, symbol deleted, markers removed), "
        "its unchanged text stands at several places (a copy pasted), "
        "the ground is sealed, the bound path is `not a regular file (symlink)` / "
        "`(directory)` / `(fifo)` / `(submodule)`, its Python definition is replaced later "
        "in its block (a `def` or assignment of the same name), or a merge conflict in its "
        "file touches it",
        "check, ci",
        "put it back, `forest rebind`, or `forest retire`; a copy: remove it, or "
        "`forest rebind` to one place; a merge conflict: resolve it first",
    ),
    "moved": (
        "the unchanged text is found at exactly one other place (matched by hash)",
        "check, ci",
        "`forest rebind OLD NEW`",
    ),
    "contested": (
        "a ground has two live successors (two branches each superseded it), bound to a "
        "file or to none; or a section has two bindings; or two or more merged branches "
        "each rebound one binding (reported by `forest check PATH` when any of its places "
        "lies under PATH; verify exits 1)",
        "check, ci, verify",
        "`forest resolve`; two bindings: `forest retire --binding`; rebound on merged "
        "branches: one more `forest rebind` from where it stands, to there or to any other "
        "place (a route to each)",
    ),
    "unbound": (
        "a file (or heading) that forest.toml's `[require]` names is bound by nothing",
        "check, ci",
        "`forest adopt`",
    ),
    "tracked-local-state": (
        "git tracks a file under `.forest/` that only this machine keeps (the index, a "
        "cached view, a symlink: anything but `.forest/ledger/**`, `.forest/.gitignore`, "
        "`.forest/.gitattributes` and the signing keyring forest.toml names); it is never read",
        "check, ci, verify",
        "`git rm --cached -r -- PATH`, then commit",
    ),
    "rewritten-on-checkout": (
        "a committed `.gitattributes` rule gives a bound file an attribute by which git "
        "rewrites it on checkout (`ident`, `working-tree-encoding`, a `filter`): the blob "
        "is unchanged, but every clone's working file reads as drift",
        "check, ci",
        "add a line unsetting it for the file (`/NAME -ident`) at the end of the "
        "`.gitattributes` of its directory, or delete the rule in the `.gitattributes` the "
        "finding names; stage or commit it",
    ),
    "ledger-fault": (
        "the committed ledger is damaged (a stray file under it, a bad line, a missing "
        "body, an act depending on one it lacks: `dangling-dep`; exit 3)",
        "ci",
        "restore the file from git, or the `git rm` shown; a `dangling-dep`: ci prints "
        "the checkout of the missing act's segment from a commit that holds it, or, held "
        "nowhere, the removal of the segment that depends on it (docs/hooks-and-ci.md)",
    ),
    "ledger-rewritten": (
        "a ledger file was modified or retyped since the merge-base (exit 3), "
        "or in the staged change",
        "check, ci",
        "put it back in the commit that changed it: ci prints the checkout and amend, "
        "or the rebase (the hook: from HEAD)",
    ),
    "ledger-deleted": (
        "a ledger file was deleted since the merge-base (exit 3), or in the staged change",
        "check, ci",
        "put it back in the commit that deleted it: ci prints the checkout and amend, "
        "or the rebase (the hook: from HEAD)",
    ),
    "authority": (
        "an act by a signature without authority at the merge-base",
        "ci",
        "drop the commit that brought it (ci prints the rebase), then have a holder make the act",
    ),
    "policy": (
        "an act carries a body over the merge-base's `[policy] max_body_bytes`",
        "ci",
        "drop the commit that brought it (ci prints the rebase), then adopt a smaller section",
    ),
    "config-governance": (
        "forest.toml's authority, policy or requirements changed by someone not holding `**`",
        "ci",
        "take the change out of its commit (ci prints the checkout and amend, or the rebase), "
        "then have a holder of `**` make it",
    ),
    "unsigned": (
        "an act arrives in a commit without a good signature (signing required)",
        "ci",
        "sign the commit (docs/signing.md)",
    ),
    "signer": (
        "an act signed by a key the merge-base keyring does not bind to its signer",
        "ci",
        "sign with the bound key (docs/signing.md)",
    ),
    "signers-mixed": (
        "one commit brings acts by more than one signer (signing required)",
        "ci",
        "one signer per commit",
    ),
    "signing-setup": (
        "signing is asked for but cannot be judged here (keyring, tools, history)",
        "ci",
        "fix the setup the message names",
    ),
    "erased-content": (
        "content a forget erased is back: an act made before it saw the erase; or a "
        "binding's live ground whose body an erase that never saw it removed (a merge)",
        "check, ci",
        "supersede or seal it, then `forest forget`; for a binding, take the text out "
        "of the file and `forest supersede` (or `forest retire`)",
    ),
    "shallow-clone": (
        "the clone is shallow: history the gate judges (the merge-base, which commit "
        "brought each act, or the base branch itself, never fetched) is not in it; "
        "nothing was judged (exit 1)",
        "ci",
        "fetch the full history: `git fetch --unshallow` (the base branch never "
        "fetched: `git fetch --unshallow origin main:refs/remotes/origin/main`; "
        "GitHub Actions: actions/checkout with `fetch-depth: 0`)",
    ),
    "refused": (
        "the gate refused to judge (a base that names no commit, a directory outside git, "
        "no `forest.toml` at HEAD, …): its `forest:` line as a report's one finding; "
        "nothing was judged (the refusal's exit code)",
        "ci",
        "what its detail says, then run forest ci again",
    ),
}

# The kinds the CI gate exits 3 on: the ledger itself cannot be trusted.
CORRUPTION = frozenset({"ledger-fault", "ledger-rewritten", "ledger-deleted"})

"""Authenticated authority: custody acts bound to signed commits, judged at the merge-base.

Modules: ``brought`` (which commit of a range brought which act), ``judge`` (each
commit of the range against the keyring of the merge-base), ``verdicts`` (the
judge's sentences). What custody itself reads lives below, in custody/:
``signers`` (forest.toml's signing keys), ``keyring`` (git's allowed-signers
format) and ``signing_advice`` (the CLI's default ``--as`` and the hook's
warning). Nothing is imported here, so the hook's start-up stays fast.
"""

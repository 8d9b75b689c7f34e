"""Authenticated authority: custody acts bound to signed commits, judged at the merge-base.

Modules: ``settings`` (forest.toml's signing keys; standard library only, read
by config.py), ``keyring`` (git's allowed-signers format), ``brought`` (which
commit of a range brought which act), ``judge`` (each commit of the range
against the keyring of the merge-base), ``live`` (the CLI's and the hook's
advice). Nothing is imported here, so the hook's start-up stays fast.
"""

"""Custody of a repository: forest.toml, the repository façade, typed acts
planned and applied (live and in replay), the index in step with the ledger,
the ground of each content source, bindings and authority.
"""

"""The kernel: what every layer may use and that uses nothing of forest-files.

Errors and exit codes, hashing and canonical bytes, input bounds, the names of
every path, closed vocabularies, local SQLite files and the one way to start a
child interpreter. Nothing is imported here, so the hook's start-up stays fast.
"""

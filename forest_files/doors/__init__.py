"""The doors' shared voice: one check path, one finding model, one renderer per output.

Every door — ``forest check``/``status``, the fast entry, the pre-commit hook,
the CI gate, and later the watcher — asks ``doors.check.run_check`` (or, in CI,
builds the same ``Reported`` values per commit), and renders through
``doors.text`` or the CI renderers. Routes are built once, from real state, in
``doors.routes``; no door words a finding or a fix itself.
"""

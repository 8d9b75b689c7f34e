"""The check: bindings + ground + a content source -> findings, with their
routes as data. The engine, content sources, moves, coverage and the remembered
verdicts. Never writes custody.
"""

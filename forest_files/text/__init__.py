"""Text of bound files: selectors, parsing (Markdown, Python, marked regions),
normalisation, exclusions, extraction and diffs. Knows nothing of custody or git.
"""

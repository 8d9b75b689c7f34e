"""forest.toml written: the text of a ForestConfig, in a stable order.

Stores: nothing (returns text; ``forest init`` writes it).
Refuses: nothing (a ForestConfig was validated when it was built).
Returns: ``render_config`` text that ``parse_config_text`` reads back equal;
``toml_str``, a TOML basic string for one value (control characters escaped).
Test: tests/custody/test_config.py (round trips), tests/check/test_coverage.py ([require]),
      tests/custody/test_bind_defaults.py ([bind]), tests/doors/test_watch_policy.py ([watch])
"""

from __future__ import annotations

from forest_files.custody.config_model import CONTROL, ForestConfig, RequireRule
from forest_files.custody.signers import render_settings


def toml_str(value: str) -> str:
    out = ['"']
    for ch in value:
        if ch in ('"', "\\"):
            out.append("\\" + ch)
        elif CONTROL.match(ch):
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def render_config(cfg: ForestConfig) -> str:
    """forest.toml text for ``cfg``, in a stable order; ``parse_config_text``
    of the result equals ``cfg``."""
    lines = [
        "[project]",
        f"id = {toml_str(cfg.project_id)}",
        "",
        "[policy]",
        f"max_body_bytes = {cfg.max_body_bytes}",
        *render_settings(cfg.signing, toml_str),
    ]
    if cfg.authority:
        lines += ["", "# Last matching glob wins. '*' stays in one directory; '**' spans many."]
        lines += ["# Globs are anchored at the root (README: Path globs)."]
        lines.append("[authority]")
        for rule in cfg.authority:
            holders = ", ".join(toml_str(h) for h in rule.holders)
            lines.append(f"{toml_str(rule.glob)} = [{holders}]")
    if cfg.require:
        lines += ["", "# Files that must be bound (docs/coverage.md)."]
        lines.append("[require]")
        lines += [_render_requirement(rule) for rule in cfg.require]
    if cfg.watch:
        lines += ["", "# What the watcher does with drift (docs/watch.md)."]
        lines.append("[watch]")
        lines += [f"{toml_str(r.glob)} = {toml_str(r.policy)}" for r in cfg.watch]
    for default in cfg.bind:
        lines += ["", f"[bind.{toml_str(default.glob)}]  # default exclusions (docs/coverage.md)"]
        if default.exclude:
            lines.append(f"exclude = [{', '.join(toml_str(e) for e in default.exclude)}]")
        if default.normalise:  # docs/normalisation.md
            lines.append(f"normalise = [{', '.join(toml_str(n) for n in default.normalise)}]")
    return "\n".join(lines) + "\n"


def _render_requirement(rule: RequireRule) -> str:
    key = toml_str(rule.glob)
    if rule.bind == "file" and not rule.when and not rule.excepted:
        return f'{key} = "file"'
    parts = [f"bind = {toml_str(rule.bind)}"]
    if rule.level is not None:
        parts.append(f"level = {rule.level}")
    if rule.when:
        conds = ", ".join(
            f"{name} = [{', '.join(toml_str(v) for v in values)}]" for name, values in rule.when
        )
        parts.append(f"when = {{ {conds} }}")
    if rule.excepted:
        parts.append(f"except = [{', '.join(toml_str(g) for g in rule.excepted)}]")
    return f"{key} = {{ {', '.join(parts)} }}"

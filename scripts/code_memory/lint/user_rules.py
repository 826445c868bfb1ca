"""Your own regex rules, checked line by line next to the built-in engines.

Sources: config ``lint.user_rules`` (every project) and ``areas/projects/<name>/lint-rules.json`` in
the memory root for the project and each of its groups — a list, or ``{"rules": [...]}``, of::

    {"id": "NO-CONSOLE", "pattern": "console\\\\.log\\\\(", "message": "remove debug output",
     "severity": "warn" | "block" (default warn), "glob": "*.js" or ["*.js", "src/**"], "flags": "i"}

``glob`` is matched against the file name and its path inside the project (default: every file).
Broken rules are skipped and reported, never fatal.
"""

from __future__ import annotations

import fnmatch
import json
import os
import re

from .base import Finding

_ID = re.compile(r"^[A-Za-z0-9_.\-]{1,40}$")
MAX_LINE = 4000  # longer lines are checked on their first MAX_LINE characters


class UserRule:
    __slots__ = ("id", "pattern", "message", "severity", "globs", "source")

    def __init__(self, id, pattern, message, severity, globs, source):
        self.id, self.pattern, self.message = id, pattern, message
        self.severity, self.globs, self.source = severity, globs, source

    def applies_to(self, rel_path: str) -> bool:
        if not self.globs:
            return True
        name = os.path.basename(rel_path)
        return any(fnmatch.fnmatch(name, g) or fnmatch.fnmatch(rel_path, g) for g in self.globs)


def parse_rules(items, source: str) -> tuple:
    """``([UserRule], [problem text])`` from a list of rule objects."""
    rules, problems = [], []
    if isinstance(items, dict):
        items = items.get("rules")
    if not isinstance(items, list):
        return [], [f"{source}: expected a list of rules"]
    for index, item in enumerate(items):
        where = f"{source}[{index}]"
        if not isinstance(item, dict):
            problems.append(f"{where}: not an object")
            continue
        rule_id, pattern, message = item.get("id"), item.get("pattern"), item.get("message")
        severity = item.get("severity", "warn")
        if not isinstance(rule_id, str) or not _ID.match(rule_id):
            problems.append(f"{where}: id must be 1-40 letters, digits, _ . -")
            continue
        if not isinstance(pattern, str) or not isinstance(message, str) or not message.strip():
            problems.append(f"{where} ({rule_id}): pattern and message are required strings")
            continue
        if severity not in ("warn", "block"):
            problems.append(f"{where} ({rule_id}): severity must be warn or block")
            continue
        flags = 0
        for letter in str(item.get("flags", "")):
            flags |= {"i": re.IGNORECASE, "m": re.MULTILINE, "s": re.DOTALL}.get(letter, 0)
        try:
            compiled = re.compile(pattern, flags)
        except re.error as exc:
            problems.append(f"{where} ({rule_id}): bad pattern: {exc}")
            continue
        globs = item.get("glob") or []
        globs = [globs] if isinstance(globs, str) else [g for g in globs if isinstance(g, str)]
        rules.append(UserRule(rule_id, compiled, message.strip(), severity, globs, source))
    return rules, problems


def load_rules(config_rules, areas_projects_dir: str, names: list) -> tuple:
    """Config rules plus the lint-rules.json of each name (project first, then its groups)."""
    rules, problems = parse_rules(config_rules or [], "config lint.user_rules")
    for name in names:
        path = os.path.join(areas_projects_dir, name, "lint-rules.json")
        try:
            with open(path, encoding="utf-8") as fh:
                data = json.load(fh)
        except FileNotFoundError:
            continue
        except (OSError, ValueError) as exc:
            problems.append(f"{path}: unreadable ({type(exc).__name__})")
            continue
        found, bad = parse_rules(data, path)
        rules += found
        problems += bad
    return rules, problems


def check(rules: list, text: str, path: str, rel_path: str) -> list:
    findings = []
    applicable = [r for r in rules if r.applies_to(rel_path)]
    if not applicable:
        return findings
    for number, line in enumerate(text.split("\n"), 1):
        line = line[:MAX_LINE]
        for r in applicable:
            if r.pattern.search(line):
                findings.append(Finding(r.id, r.severity, number, f"{r.message} (user rule)", path))
    return findings

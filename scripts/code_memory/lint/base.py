"""Rules and findings shared by the engines."""

from __future__ import annotations

from ..paths import Frozen


class Rule(Frozen):
    """``id`` (e.g. PY001), default ``severity`` (block | warn), a short ``title``, ``why`` (what
    goes wrong and what to do instead), and ``always``: reported even outside the changed lines."""

    __slots__ = ("id", "severity", "title", "why", "always")


class Finding(Frozen):
    __slots__ = ("rule", "severity", "line", "message", "path")

    def to_dict(self) -> dict:
        return {"rule": self.rule, "severity": self.severity, "line": self.line,
                "message": self.message, "path": self.path}


def rule(id: str, severity: str, title: str, why: str, always: bool = False) -> Rule:
    return Rule(id, severity, title, why, always)


class Collector:
    """Gathers findings for one file; ``add(rule, line, detail)`` uses the rule's text."""

    def __init__(self, path: str, rules: list):
        self.path = path
        self.by_id = {r.id: r for r in rules}
        self.findings: list = []
        self._seen = set()

    def add(self, rule_id: str, line: int, detail: str = "") -> None:
        r = self.by_id[rule_id]
        key = (rule_id, line)
        if key in self._seen:
            return
        self._seen.add(key)
        message = f"{r.title}{': ' + detail if detail else ''} — {r.why}"
        self.findings.append(Finding(rule_id, r.severity, max(1, int(line or 1)), message, self.path))


def line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def parse_version(value) -> tuple | None:
    """"3.8" / "3.10.2" / 3.9 → (3, 8) …; None when unparseable."""
    if value is None:
        return None
    parts = str(value).strip().split(".")
    try:
        major = int(parts[0])
        minor = int(parts[1]) if len(parts) > 1 and parts[1] else 0
    except ValueError:
        return None
    return (major, minor)
